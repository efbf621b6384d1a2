// The header search box understands pasted errors. Keywords still go to the theme's search; text
// that looks like an error or a log (several lines, one long line, or one line that reads like an
// error: an exception name, "error", an Xid, a code) is ranked by the match engine in the search
// panel. Enter then opens the top candidate when the match is confident, else the Match page
// holding the same text, handed over in memory (never Web Storage or the URL).
//
// The box itself gets a bounded one-line copy of the paste's first few KB, for the theme's
// keyword search; the whole paste goes to the worker. Every query the theme's search worker
// receives is first made safe for lunr's query parser, so colons, quotes, + - ~ ^ *, brackets,
// paths and hex never raise a parse error (which the theme would show as "no results").
(function () {
  "use strict";
  var LONG_LINE = 160;   // a line longer than this is a log line, whatever it says
  var HEAD = 4096;       // characters of a paste looked at on the main thread
  var BOX = 320;         // characters of the one-line copy put into the box

  // A one-line paste that reads like an error: these words, an exception or error class name, an
  // errno or a code in capitals (CUDA_ERROR_ILLEGAL_ADDRESS), or punctuation as dense as a log line.
  var ERROR_WORDS = new RegExp("\\b(?:error|errno|exception|traceback|fail(?:ed|ure|s)?|fatal|panic|abort(?:ed)?|" +
    "killed|oom|out of memory|timed? ?out|timeout|xid|nvrm|segfault|segmentation|assert(?:ion)?|" +
    "denied|refused|unable|cannot|can't|could not|not found|no such|no space|unavailable|unexpected|invalid|" +
    "illegal|corrupt(?:ed)?|cancel(?:l?ed)|preempt(?:ed|ion)?|signal|exit(?:ed)? (?:code|status)|" +
    "sig(?:kill|term|segv|abrt|bus|int|hup|pipe|ill|fpe)|core dumped|hung|deadlock)\\b", "i");
  var ERROR_NAMES = /[A-Za-z](?:Error|Exception|Fault)\b|\b[A-Z0-9_]*_?(?:ERROR|ERR|FAIL|FAILED|FATAL|ABORT|TIMEOUT|OOM)(?:_[A-Z0-9_]+)?\b|\b0x[0-9a-fA-F]{4,}\b/;
  var LOG_PUNCTUATION = /[\[\]():|=\/<>{}]/g;

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

  function looksLikeError(head) {
    return ERROR_WORDS.test(head) || ERROR_NAMES.test(head) ||
      (head.length >= 60 && (head.match(LOG_PUNCTUATION) || []).length >= 4);
  }

  function matchable(text) {
    return looksLikeLog(text.length > HEAD ? text.slice(0, HEAD + 1) : text) || looksLikeError(text.slice(0, HEAD));
  }

  // Opens a page of this site by instant navigation, so the scripts (and the hand-off held in
  // memory) survive. The theme takes only links listed in its sitemap, compared without the port,
  // so a site served on another port than its SITE_URL would get a full load and lose the paste.
  // These are the theme's own steps for a link it takes (bundle 9.8.2): keep the scroll offset,
  // push the address, emit it on location$ (which also closes the search). Without instant
  // navigation, the link loads normally and the Match page says why it is empty.
  function go(url, event) {
    if (typeof location$ === "undefined" || typeof location$.next !== "function") return false;
    if (event) { event.preventDefault(); event.stopPropagation(); }
    history.replaceState({ x: window.scrollX, y: window.scrollY }, "");
    history.pushState(null, "", url);
    location$.next(new URL(url, location.href));
    return true;
  }

  function plainClick(e) { return !(e.button || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey); }

  function setup() {
    attach(document.querySelector(".md-search__input"), document.getElementById("rr-search-match"));
  }

  // The paste handling on one search box and its panel (another engine's adapter passes its own:
  // engine-zensical.js).
  function attach(input, panel) {
    if (!input || !panel || input.dataset.rrReady) return;
    input.dataset.rrReady = "1";
    var pasted = null, answered = null, boxCopy = null;
    // From a paste event until its text is read (getAsString answers in a later task): the panel
    // must not show the answer to the paste before, nor Enter act on it.
    var reading = null;

    function closeSearch() {
      var toggle = document.getElementById("__search");
      if (toggle && toggle.checked) { toggle.checked = false; toggle.dispatchEvent(new Event("change")); }
      input.blur();
    }

    function clearPanel() {
      pasted = answered = null;
      panel.hidden = true;
      panel.textContent = "";
      delete panel.dataset.state;
    }

    function show(text) {
      pasted = text;
      panel.hidden = false;
      panel.dataset.state = "matching";
      panel.textContent = "";
      panel.appendChild(RelrefRender.el("p", { class: "rr-search-head", text: "Matching the pasted text…" }));
      answered = RelrefClient.match({ text: text, context: "", top: 5 }).then(function (answer) {
        if (pasted !== text) return null;
        render(answer);
        return answer;
      }, function (err) {
        if (pasted === text) { panel.textContent = "Matching failed: " + err.message; panel.dataset.state = "failed"; }
        return null;
      });
    }

    function render(answer) {
      var E = RelrefRender.el, r = answer.result;
      panel.textContent = "";
      panel.appendChild(E("p", { class: "rr-search-head", text: r.answer }));
      var list = E("ol", { class: "rr-search-list" });
      r.matches.forEach(function (m) {
        var link = E("a", { href: m.url, text: m.title });
        link.addEventListener("click", function (e) { if (plainClick(e)) go(link.href, e); });
        list.appendChild(E("li", { class: "rr-result", "data-reference-id": m.id, "data-confidence": m.confidence }, [
          link, " ", E("span", { class: "rr-badge rr-conf-" + m.confidence, text: m.confidence })]));
      });
      if (r.matches.length) panel.appendChild(list);
      // Field reports and practices are read beside the candidates, never ranked among them.
      if (r.further_reading.length) {
        var further = E("ul", { class: "rr-search-further" });
        r.further_reading.forEach(function (m) {
          var link = E("a", { href: m.url, text: m.title });
          link.addEventListener("click", function (e) { if (plainClick(e)) go(link.href, e); });
          further.appendChild(E("li", { class: "rr-further-item", "data-reference-id": m.id }, [link]));
        });
        panel.appendChild(E("p", { class: "rr-search-sub", text: "Further reading" }));
        panel.appendChild(further);
      }
      var open = E("a", { href: RelrefClient.siteRoot() + "match/", class: "rr-open-match",
                          text: r.confident ? "Open on the Match page, with the checks to run" : "Open on the Match page, with the checks that tell these apart" });
      open.addEventListener("click", function (e) {
        if (!plainClick(e)) return;  // a new tab or window starts empty, and says why
        if (RelrefMatchPage.handOff(pasted)) { e.preventDefault(); closeSearch(); return; }  // already on the Match page: it took the text
        go(open.href, e);
      });
      var foot = E("p", { class: "rr-search-foot" }, [open]);
      var wrong = RelrefRender.reportLink(RelrefRender.repoUrl(), r);
      if (wrong) foot.appendChild(document.createTextNode(" · ")), foot.appendChild(wrong);
      panel.appendChild(foot);
      panel.appendChild(E("p", { class: "rr-search-hint", text: r.confident ? "Enter opens the top match." : "Enter opens the Match page." }));
      panel.dataset.state = "done";
    }

    // Enter after a paste: the top candidate when confident, else the Match page. It runs in the
    // capture phase at the window, before the theme's own handler (which would open its first
    // keyword result, often a field report).
    window.addEventListener("keydown", function (e) {
      if (e.key !== "Enter" || document.activeElement !== input) return;
      if (reading === null && (pasted === null || panel.hidden)) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      (reading || Promise.resolve()).then(function () { return pasted === null ? null : answered; }).then(function (answer) {
        if (answer === null || !panel.isConnected || panel.hidden) return;
        var link = answer && answer.result.confident ? panel.querySelector(".rr-result a") : panel.querySelector(".rr-open-match");
        if (link) link.click();
      });
    }, true);

    input.addEventListener("paste", function (e) {
      var read;
      var pending = new Promise(function (resolve) { read = resolve; });
      var taken = RelrefClient.pastedText(e, function (text) {
        if (reading === pending) reading = null;
        read();
        var head = text.slice(0, HEAD);
        var log = matchable(text);
        input.dataset.rrPaste = log ? "matched" : "keywords";
        if (log) { show(text); input.select(); } else clearPanel();  // a pasted log replaces what the box held
        boxCopy = head.replace(/\s+/g, " ").trim().slice(0, BOX);
        input.focus();
        if (!document.execCommand("insertText", false, boxCopy)) {
          input.value = boxCopy;
          input.dispatchEvent(new Event("input", { bubbles: true }));
        }
        // The theme searches on keyup and focus (bundle 9.8.2), not on input: without this the
        // panel would say "Type to start searching" until another key is pressed.
        input.dispatchEvent(new KeyboardEvent("keyup", { bubbles: true }));
      });
      if (taken) {
        e.preventDefault();
        reading = pending;
        delete panel.dataset.state;
        delete input.dataset.rrPaste;
      }
    });
    input.addEventListener("input", function () {
      if (pasted !== null && input.value === boxCopy) return;  // our own bounded copy
      boxCopy = null;
      if (input.value.length > LONG_LINE) show(input.value);
      else clearPanel();
    });
  }

  window.RelrefSearch = { safeQuery: safeQuery, looksLikeLog: looksLikeLog, looksLikeError: looksLikeError, matchable: matchable,
                          attach: attach };
  // On every page of instant navigation (document$), and once on load where the theme's observable
  // does not run (pages opened from disk); setup is idempotent.
  if (typeof document$ !== "undefined") document$.subscribe(setup);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup); else setup();
})();
