// Links to the site's own pages, by the rule in generator/paths.py: a page's canonical path joined
// to SITE_URL when the build was given it (the relref:site-url meta tag), else to the root the
// page is served from (the theme's __md_scope). Never location.href: after an alias redirect, or
// with a #fragment or a query in the address, a copied link is still the canonical page's.
//
// On reference pages: the "Cite as" line shows that link and has a Copy button; the theme's
// section permalinks (the ¶ shown on hover or focus) and the signatures' copy the link to their
// section when clicked, besides jumping to it. Added here, not in the page, because the Content
// Security Policy forbids inline scripts; without JavaScript the permalinks still work.
(function () {
  function root() {
    var meta = document.querySelector('meta[name="relref:site-url"]');
    if (meta && meta.content) return meta.content.replace(/\/?$/, "/");
    if (typeof __md_scope !== "undefined") return __md_scope.href.replace(/\/?$/, "/");
    var config = document.getElementById("__config");
    var base = config ? JSON.parse(config.textContent).base : ".";
    return new URL(base.replace(/\/?$/, "/"), document.baseURI).href;
  }

  function url(path) {
    return root() + String(path).replace(/^\//, "");
  }

  window.RelrefLinks = { root: root, url: url };

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

  function status(message) {
    var live = document.getElementById("rr-link-status");
    if (!live) {
      live = document.createElement("p");
      live.id = "rr-link-status";
      live.className = "rr-visually-hidden";
      live.setAttribute("aria-live", "polite");
      document.body.appendChild(live);
    }
    live.textContent = message;
  }

  function citeButton(cite) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "rr-copy-link";
    b.textContent = "Copy";
    b.title = "Copy the citation";
    b.setAttribute("aria-label", "Copy the citation");
    b.addEventListener("click", function () {
      copy(cite.textContent).then(function () { flash(b, "Copied"); }, function () { flash(b, "Copy failed"); });
    });
    return b;
  }

  function flash(b, message) {
    b.textContent = message;
    status(message);
    setTimeout(function () { b.textContent = "Copy"; }, 1500);
  }

  function setup() {
    var meta = document.querySelector(".rr-meta[data-rr-path]");
    if (!meta || meta.dataset.rrLinks) return;
    meta.dataset.rrLinks = "1";
    var page = meta.dataset.rrPath;
    var article = meta.closest("article") || document;
    Array.prototype.forEach.call(article.querySelectorAll(".rr-link[data-rr-path]"), function (el) {
      el.textContent = url(el.dataset.rrPath);
    });
    var cite = article.querySelector(".rr-citation-text");
    if (cite) cite.parentNode.appendChild(citeButton(cite));
    // a.hash, not the href attribute: the theme rewrites in-page hrefs to absolute URLs.
    Array.prototype.forEach.call(article.querySelectorAll("a.headerlink"), function (a) {
      if (!a.hash) return;
      var link = url(page) + a.hash;
      a.dataset.rrCopy = link;
      a.title = "Link to this section (click copies it)";
      a.addEventListener("click", function (event) {
        // Jump to the section as a plain #fragment link does, but through pushState: the theme's
        // instant navigation answers the popstate of a fragment navigation by fetching the page
        // again and replacing it, which would drop the "link copied" note.
        event.preventDefault();
        event.stopPropagation();
        var target = document.getElementById(decodeURIComponent(a.hash.slice(1)));
        if (location.hash !== a.hash) {
          var old = location.href;
          history.pushState(null, "", a.hash);
          window.dispatchEvent(new HashChangeEvent("hashchange", { oldURL: old, newURL: location.href }));
        }
        if (target) target.scrollIntoView();
        copy(link).then(function () {
          a.dataset.rrCopied = "1";
          status("Link copied: " + link);
          setTimeout(function () { delete a.dataset.rrCopied; }, 1500);
        }, function () { status("Copy failed"); });
      });
    });
  }

  // On every page of instant navigation (document$), and once on load where the theme's
  // observable does not run; setup is idempotent.
  if (typeof document$ !== "undefined") document$.subscribe(setup);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup); else setup();
})();
