// Reference pages: a "Copy link" button beside each section, cause, check and signature, and one
// for the one-line citation. Links are built from the page's canonical URL (data-rr-canonical),
// not from location, so a link copied on a local build or after an alias redirect still points
// at the published page. Buttons are added here rather than in the page: the Content Security
// Policy forbids inline scripts, and without JavaScript there is nothing to copy with.
(function () {
  var SECTIONS = ["discrepancies", "applies-to", "signatures", "causes", "evidence", "mitigations",
                  "look-alikes", "figures", "sources", "changes"];
  var ITEM = /^(cause|check|signature|figure)-/;

  function fallbackCopy(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.className = "rr-visually-hidden";
    document.body.appendChild(area);
    area.select();
    var ok = document.execCommand("copy");
    document.body.removeChild(area);
    return ok ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }

  function copy(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).catch(function () { return fallbackCopy(text); });
    }
    return fallbackCopy(text);
  }

  function button(label, description, text) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "rr-copy-link";
    b.textContent = label;
    b.title = description;
    b.setAttribute("aria-label", description);
    b.dataset.copyText = text;
    b.addEventListener("click", function () {
      copy(text).then(function () { flash(b, "Copied", label); }, function () { flash(b, "Copy failed", label); });
    });
    return b;
  }

  function flash(b, message, label) {
    b.textContent = message;
    setTimeout(function () { b.textContent = label; }, 1500);
  }

  function anchored(root) {
    return Array.prototype.filter.call(root.querySelectorAll("h2[id], h3[id], .rr-signature[id]"), function (el) {
      return SECTIONS.indexOf(el.id) !== -1 || ITEM.test(el.id);
    });
  }

  function setup() {
    var meta = document.querySelector("[data-rr-canonical]");
    if (!meta || meta.dataset.rrLinks) return;
    meta.dataset.rrLinks = "1";
    var canonical = meta.dataset.rrCanonical;
    var article = meta.closest("article") || document;
    anchored(article).forEach(function (el) {
      var name = el.tagName === "DIV" ? "this signature" : "this section";
      var target = el.tagName === "DIV" ? el.querySelector("p") || el : el;
      target.appendChild(button("Copy link", "Copy a link to " + name, canonical + "#" + el.id));
    });
    var cite = article.querySelector(".rr-citation-text");
    if (cite) cite.parentNode.appendChild(button("Copy", "Copy the citation", cite.textContent));
  }

  // On every page of instant navigation (document$), and once on load where the theme's
  // observable does not run; setup is idempotent.
  if (typeof document$ !== "undefined") document$.subscribe(setup);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup); else setup();
})();
