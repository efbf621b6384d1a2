// The Match page: paste, type or drop a log; results update as the text changes.
//
// Large pastes and files never go into the textarea: they are kept in memory, handed to the
// worker, and shown as a bounded preview of the matched lines. Re-inserting a paste with
// execCommand("insertText") costs time quadratic in its lines (measured in headless Chromium:
// 190 lines 0.4 s, 760 lines / 64 KB 3.7 s, 2,300 lines / 200 KB 27 s), so only short pastes go
// through it (they stay undoable with Ctrl+Z); longer ones up to BIG are set with setRangeText.
//
// What the page holds lives in this tab's memory only, never in Web Storage, IndexedDB, cookies or
// a URL. With instant navigation the scripts survive opening a result, so Back finds the paste,
// context and answer in `kept`; after a full page load the back/forward cache keeps the whole page
// (nothing here blocks it: no unload handler). Clear drops it; a new tab starts empty.
(function () {
  "use strict";
  var BIG = 64 * 1024;                      // characters: a paste above this never enters the textarea
  var QUICK = { chars: 8 * 1024, lines: 40 };  // at most this, a paste goes through execCommand (< 50 ms)
  var DEBOUNCE = 300;

  var kept = null;     // {text, big, label, context, answer}: the page's state, for Back
  var handed = null;   // text from the header search, for the next Match page this tab shows
  var accept = null;   // set while a Match page is showing: takes a hand-off at once

  function remember(patch) { kept = Object.assign(kept || { text: "", big: null, label: "", context: "", answer: null }, patch); }

  // The header search hands its paste over here, in memory. Returns true when this page took it
  // at once (the Match page is already showing), else it waits for the next one.
  function handOff(text) {
    if (accept) { accept(text); return true; }
    handed = text;
    return false;
  }

  // The redaction rules are only needed when something is copied: loaded on the Match page only,
  // not on every page of the site.
  var redactLoading = null;
  function withRedact(then) {
    if (window.RelrefRedact) { then(); return; }
    if (!redactLoading) redactLoading = new Promise(function (resolve, reject) {
      var script = document.createElement("script");
      script.src = RelrefClient.siteRoot() + "assets/javascripts/match/redact.js";
      script.onload = resolve;
      script.onerror = function () { redactLoading = null; reject(new Error("the redaction rules could not be loaded")); };
      document.head.appendChild(script);
    });
    redactLoading.then(then, function (err) { var s = document.getElementById("rr-status"); if (s) s.textContent = err.message; });
  }

  function size(chars) {
    return chars >= 1048576 ? (chars / 1048576).toFixed(1) + " MB" : Math.max(1, Math.round(chars / 1024)) + " KB";
  }

  function fewLines(text, most) {
    for (var i = 0, n = 0; i < text.length; i++) if (text.charCodeAt(i) === 10 && ++n > most) return false;
    return true;
  }

  function setup() {
    var root = document.getElementById("rr-match");
    if (!root) { accept = null; return; }
    if (root.dataset.ready) return;
    root.dataset.ready = "1";
    var $ = function (id) { return document.getElementById(id); };
    var paste = $("rr-paste"), context = $("rr-context"), status = $("rr-status"), progress = $("rr-progress");
    var results = $("rr-results"), bigNote = $("rr-big-note"), copyMarkdown = $("rr-copy-markdown"), copyCase = $("rr-copy-case");
    var previewWrap = $("rr-preview-wrap"), preview = $("rr-preview"), reviewBox = $("rr-review");
    var big = null, timer = null, generation = 0;  // Clear bumps generation: an answer still on its way is dropped

    if (location.protocol === "file:") {
      $("rr-file-warning").hidden = false;
      $("rr-match-button").disabled = true;
      return;
    }

    try { RelrefClient.start(); } catch (e) { /* reported when matching */ }
    withRedact(function () {});

    function job() { return big ? Object.assign({ context: context.value }, big) : { text: paste.value, context: context.value }; }

    function clearResults() {
      results.textContent = "";
      copyMarkdown.disabled = copyCase.disabled = true;
      previewWrap.hidden = true;
      RelrefRender.closeReview(reviewBox);
    }

    function show(answer) {
      progress.hidden = true;
      RelrefRender.result(results, answer);
      status.textContent = answer.result.matches.length + " references matched in " + answer.lines + " lines.";
      copyMarkdown.disabled = copyCase.disabled = false;
      previewWrap.hidden = !big || RelrefRender.preview(preview, answer) === 0;
    }

    function run() {
      clearTimeout(timer);
      var j = job();
      remember({ answer: null });
      if (!j.file && !j.text.trim()) { clearResults(); status.textContent = ""; return; }
      status.textContent = "Matching…";
      progress.hidden = !big;
      var mine = generation;
      RelrefClient.match(j, function (p) {
        if (mine !== generation) return;
        progress.hidden = false;
        progress.value = p.total ? p.done / p.total : 0;
        status.textContent = "Matching… read " + (p.done / 1048576).toFixed(1) + " of " + (p.total / 1048576).toFixed(1) + " MB";
      }).then(function (answer) {
        if (!answer.latest || mine !== generation) return;
        remember({ answer: answer });
        show(answer);
      }, function (err) {
        if (mine !== generation) return;
        progress.hidden = true;
        status.textContent = "Matching failed: " + err.message;
      });
    }

    function later() { clearTimeout(timer); timer = setTimeout(run, DEBOUNCE); }

    function showBig(value, label) {
      big = value;
      paste.value = "";
      paste.placeholder = label + " Type here to replace it.";
      bigNote.textContent = label + " It is kept out of this box so the page stays responsive; the matched lines are shown below.";
      bigNote.hidden = false;
    }

    function takeBig(value, label) {
      showBig(value, label);
      remember({ text: "", big: value, label: label });
      run();
    }

    function dropBig() { big = null; bigNote.hidden = true; previewWrap.hidden = true; paste.placeholder = paste.getAttribute("data-placeholder") || ""; }

    function insert(text) {
      paste.focus();
      var quick = text.length <= QUICK.chars && fewLines(text, QUICK.lines);
      if (!(quick && document.execCommand("insertText", false, text))) {
        paste.setRangeText(text, paste.selectionStart, paste.selectionEnd, "end");
      }
      if (big) dropBig();
      remember({ text: paste.value, big: null, label: "" });
    }

    // Text from elsewhere (the header search): into the box when small, else kept beside it.
    function take(text) {
      RelrefRender.closeReview(reviewBox);
      if (text.length > BIG) { takeBig({ text: text }, "Carried " + size(text.length) + " from the search box."); return; }
      if (big) dropBig();
      paste.value = text;
      remember({ text: text, big: null, label: "" });
      run();
    }

    paste.setAttribute("data-placeholder", paste.placeholder);
    paste.addEventListener("paste", function (e) {
      var taken = RelrefClient.pastedText(e, function (text) {
        RelrefRender.closeReview(reviewBox);
        if (text.length > BIG) { takeBig({ text: text }, "Pasted " + size(text.length) + "."); return; }
        insert(text);
        run();
      });
      if (taken) { e.preventDefault(); status.textContent = "Matching…"; }
    });
    paste.addEventListener("input", function () {
      if (big) dropBig();
      remember({ text: paste.value, big: null, label: "" });
      later();
    });
    context.addEventListener("input", function () { remember({ context: context.value }); later(); });
    $("rr-match-button").addEventListener("click", run);
    $("rr-file").addEventListener("change", function (e) {
      var file = e.target.files[0];
      if (file) takeBig({ file: file }, "Opened " + file.name + " (" + (file.size / 1048576).toFixed(1) + " MB).");
    });
    paste.addEventListener("dragover", function (e) { e.preventDefault(); });
    paste.addEventListener("drop", function (e) {
      var file = e.dataTransfer && e.dataTransfer.files[0];
      if (!file) return;
      e.preventDefault();
      takeBig({ file: file }, "Dropped " + file.name + " (" + (file.size / 1048576).toFixed(1) + " MB).");
    });
    $("rr-clear").addEventListener("click", function () {
      generation++;
      dropBig();
      clearTimeout(timer);
      paste.value = ""; context.value = ""; $("rr-file").value = "";
      clearResults();
      progress.hidden = true;
      status.textContent = "Cleared: nothing of the paste is kept.";
      kept = null;
      paste.focus();
    });

    function copied(what) {
      return function (text) {
        navigator.clipboard.writeText(text).then(function () {
          RelrefRender.closeReview(reviewBox);
          status.textContent = "Copied " + what + " to the clipboard.";
        }, function () { status.textContent = "The browser refused to copy."; });
      };
    }

    copyMarkdown.addEventListener("click", function () {
      var answer = kept && kept.answer;
      if (answer) withRedact(function () { reviewMarkdown(answer); });
    });

    function reviewMarkdown(answer) {
      RelrefRender.review(reviewBox, "Copy as Markdown: check it first", function (skip) {
        var redacted = RelrefRedact.redactResult(answer.result, skip);
        return { text: RelrefRender.markdown({ result: redacted.result }), found: redacted.found };
      }, copied("the result as Markdown"));
    }

    // A case for the development set: the paste itself when it is in the box, else (a large paste
    // or a file) only its matched lines, which is what a case needs.
    copyCase.addEventListener("click", function () {
      var answer = kept && kept.answer;
      if (answer) withRedact(function () { reviewCase(answer); });
    });

    function reviewCase(answer) {
      var text = paste.value, note = null;
      if (big) {
        var seen = {}, picked = [];
        answer.result.matches.forEach(function (m) {
          m.why.forEach(function (w) { if (w.kind === "signature" && !seen[w.lines[0]]) { seen[w.lines[0]] = 1; picked.push([w.lines[0], w.text]); } });
        });
        text = picked.sort(function (a, b) { return a[0] - b[0]; }).map(function (p) { return p[1]; }).join("\n") + "\n";
        note = "The input was large: this case holds only its matched lines (" + picked.length + ").";
      }
      RelrefRender.review(reviewBox, "Copy case: check it first", function (skip) {
        var r = new RelrefRedact.Redactor(skip);
        var body = r.redact(text), ctx = r.redact(context.value);
        return { text: RelrefRender.caseEntry(body, ctx, answer.result, note), found: r.found };
      }, copied("the case, redacted,"));
    }

    accept = take;
    if (handed !== null) {  // from the header search, on the page before
      var text = handed;
      handed = null;
      kept = null;
      take(text);
    } else if (kept) {      // Back (or Forward) to this page: the paste, context and answer as they were
      context.value = kept.context;
      if (kept.big) showBig(kept.big, kept.label); else paste.value = kept.text;
      if (kept.answer) show(kept.answer); else run();
      status.textContent = kept.answer ? "Kept from before (in this tab's memory only). " + status.textContent : status.textContent;
    }
  }

  window.RelrefMatchPage = { handOff: handOff };
  // On every page of instant navigation (document$), and once on load where the theme's observable
  // does not run (pages opened from disk); setup is idempotent.
  if (typeof document$ !== "undefined") document$.subscribe(setup);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup); else setup();
})();
