// The Match page: paste, type or drop a log; results update as the text changes. Large pastes and
// files never go into the textarea (putting 10 MB there blocks the page for seconds): they are
// kept in memory, handed to the worker, and shown as a bounded preview of the matched lines.
(function () {
  "use strict";
  var BIG = 256 * 1024;   // characters: a paste above this goes straight to the worker
  var DEBOUNCE = 300;
  var HANDOFF_KEY = "relref-handoff";  // text carried from the header search, inside the browser only

  function setup() {
    var root = document.getElementById("rr-match");
    if (!root || root.dataset.ready) return;
    root.dataset.ready = "1";
    var $ = function (id) { return document.getElementById(id); };
    var paste = $("rr-paste"), context = $("rr-context"), status = $("rr-status"), progress = $("rr-progress");
    var results = $("rr-results"), bigNote = $("rr-big-note"), copy = $("rr-copy-markdown");
    var previewWrap = $("rr-preview-wrap"), preview = $("rr-preview");
    var big = null, last = null, timer = null;

    if (location.protocol === "file:") {
      $("rr-file-warning").hidden = false;
      $("rr-match-button").disabled = true;
      return;
    }

    try { RelrefClient.start(); } catch (e) { /* reported when matching */ }

    function job() { return big ? Object.assign({ context: context.value }, big) : { text: paste.value, context: context.value }; }

    function run() {
      clearTimeout(timer);
      var j = job();
      if (!j.file && !j.text.trim()) { results.textContent = ""; status.textContent = ""; copy.disabled = true; previewWrap.hidden = true; return; }
      status.textContent = "Matching…";
      progress.hidden = !big;
      RelrefClient.match(j, function (p) {
        progress.hidden = false;
        progress.value = p.total ? p.done / p.total : 0;
        status.textContent = "Reading " + (p.done / 1048576).toFixed(1) + " of " + (p.total / 1048576).toFixed(1) + " MB…";
      }).then(function (answer) {
        if (!answer.latest) return;
        progress.hidden = true;
        last = answer;
        RelrefRender.result(results, answer);
        status.textContent = answer.result.matches.length + " references matched in " + answer.lines + " lines.";
        copy.disabled = false;
        previewWrap.hidden = !big || RelrefRender.preview(preview, answer) === 0;
      }, function (err) {
        progress.hidden = true;
        status.textContent = "Matching failed: " + err.message;
      });
    }

    function later() { clearTimeout(timer); timer = setTimeout(run, DEBOUNCE); }

    function takeBig(value, label) {
      big = value;
      paste.value = "";
      paste.placeholder = label + " Type here to replace it.";
      bigNote.textContent = label + " It is kept out of this box so the page stays responsive; the matched lines are shown below.";
      bigNote.hidden = false;
      run();
    }

    function dropBig() { big = null; bigNote.hidden = true; previewWrap.hidden = true; }

    paste.addEventListener("paste", function (e) {
      var taken = RelrefClient.pastedText(e, function (text) {
        if (text.length > BIG) { takeBig({ text: text }, "Pasted " + (text.length / 1048576).toFixed(1) + " MB."); return; }
        paste.focus();  // a small paste goes into the box as usual, and stays undoable
        if (!document.execCommand("insertText", false, text)) {
          paste.setRangeText(text, paste.selectionStart, paste.selectionEnd, "end");
          paste.dispatchEvent(new Event("input"));
        }
      });
      if (taken) e.preventDefault();
    });
    paste.addEventListener("input", function () { if (big) dropBig(); later(); });
    context.addEventListener("input", later);
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
    $("rr-clear").addEventListener("click", function () { dropBig(); paste.value = ""; context.value = ""; paste.placeholder = ""; run(); paste.focus(); });
    copy.addEventListener("click", function () {
      if (!last) return;
      navigator.clipboard.writeText(RelrefRender.markdown(last)).then(function () { status.textContent = "Copied the result as Markdown."; },
        function () { status.textContent = "The browser refused to copy."; });
    });

    var handed = sessionStorage.getItem(HANDOFF_KEY);
    if (handed !== null) {
      sessionStorage.removeItem(HANDOFF_KEY);
      if (handed.length > BIG) takeBig({ text: handed }, "Carried " + (handed.length / 1048576).toFixed(1) + " MB from the search box.");
      else { paste.value = handed; run(); }
    }
  }

  window.RelrefMatchPage = { HANDOFF_KEY: HANDOFF_KEY };
  // On every page of instant navigation (document$), and once on load where the theme's observable
  // does not run (pages opened from disk); setup is idempotent.
  if (typeof document$ !== "undefined") document$.subscribe(setup);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup); else setup();
})();
