// The header search box understands pasted errors. Keywords still go to the theme's search; text
// that looks like an error or a log (several lines, or one long line) is ranked by the match engine
// in the search panel, with a link that opens the Match page holding the same text (carried in
// sessionStorage, never in the URL). Every query the theme's search worker receives is first made
// safe for lunr's query parser, so colons, quotes, + - ~ ^ *, brackets, paths and hex never raise
// a parse error (which the theme would show as "no results").
(function () {
  "use strict";
  var LONG_LINE = 160;

  // Material's search worker takes queries as {type: 2, data: string} (bundle 9.8.2).
  var post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message) {
    if (message && message.type === 2 && typeof message.data === "string") {
      arguments[0] = { type: 2, data: safeQuery(message.data) };
    }
    return post.apply(this, arguments);
  };

  function safeQuery(query) {
    // Only letters, digits and underscores reach the parser: every operator and separator
    // (: + - ~ ^ * quotes brackets slashes dots) becomes a space, so paths and hex split into words.
    return query.replace(/[^\p{L}\p{N}_]+/gu, " ").trim();
  }

  function looksLikeLog(text) {
    return text.indexOf("\n") !== -1 || text.length > LONG_LINE;
  }

  function setup() {
    attach(document.querySelector(".md-search__input"), document.getElementById("rr-search-match"));
  }

  // The paste handling on one search box and its panel (another engine's adapter passes its own:
  // engine-zensical.js).
  function attach(input, panel) {
    if (!input || !panel || input.dataset.rrReady) return;
    input.dataset.rrReady = "1";
    var pasted = null;

    function show(text) {
      pasted = text;
      panel.hidden = false;
      panel.textContent = "Matching the pasted text…";
      RelrefClient.match({ text: text, context: "", top: 5 }).then(function (answer) {
        if (!answer.latest || pasted !== text) return;
        render(answer);
      }, function (err) { panel.textContent = "Matching failed: " + err.message; });
    }

    function render(answer) {
      var E = RelrefRender.el, r = answer.result;
      panel.textContent = "";
      panel.appendChild(E("p", { class: "rr-search-head", text: r.confident ? "Confident match for the pasted text:" :
        "No confident match for the pasted text. Closest references:" }));
      var list = E("ol", { class: "rr-search-list" });
      r.matches.forEach(function (m) {
        list.appendChild(E("li", { class: "rr-result", "data-reference-id": m.id, "data-confidence": m.confidence }, [
          E("a", { href: m.url, text: m.title }), " ", E("span", { class: "rr-badge rr-conf-" + m.confidence, text: m.confidence })]));
      });
      panel.appendChild(list);
      var open = E("a", { href: RelrefClient.siteRoot() + "match/", class: "rr-open-match", text: "Open on the Match page, with the checks that tell these apart" });
      open.addEventListener("click", function () { sessionStorage.setItem(RelrefMatchPage.HANDOFF_KEY, pasted); });
      panel.appendChild(open);
    }

    input.addEventListener("paste", function (e) {
      var taken = RelrefClient.pastedText(e, function (text) {
        if (looksLikeLog(text)) show(text);
        // The box itself gets a bounded, single-line copy: the theme's search runs on that.
        input.focus();
        var line = text.replace(/\s+/g, " ").slice(0, LONG_LINE * 2);
        if (!document.execCommand("insertText", false, line)) {
          input.value = line;
          input.dispatchEvent(new Event("input", { bubbles: true }));
        }
      });
      if (taken) e.preventDefault();
    });
    input.addEventListener("input", function () {
      if (pasted !== null && pasted.replace(/\s+/g, " ").indexOf(input.value.trim()) === 0) return;  // our own bounded copy
      if (input.value.length > LONG_LINE) show(input.value);
      else { pasted = null; panel.hidden = true; panel.textContent = ""; }
    });
  }

  window.RelrefSearch = { safeQuery: safeQuery, looksLikeLog: looksLikeLog, attach: attach };
  // On every page of instant navigation (document$), and once on load where the theme's observable
  // does not run (pages opened from disk); setup is idempotent.
  if (typeof document$ !== "undefined") document$.subscribe(setup);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup); else setup();
})();
