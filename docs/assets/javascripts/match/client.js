// Talks to the match worker: one shared worker per page load, requests numbered so that only the
// newest answer is shown. Used by the Match page and by the header search.
(function () {
  "use strict";
  var worker = null, next = 0, pending = {};

  function siteRoot() {
    return typeof __md_scope !== "undefined" ? __md_scope.href : new URL(".", location).href;
  }

  function start() {
    if (worker) return worker;
    if (location.protocol === "file:") throw new Error("file");
    worker = new Worker(siteRoot() + "assets/javascripts/match/worker.js");
    worker.postMessage({ type: "init", indexUrl: siteRoot() + "assets/match/index.json", siteRoot: siteRoot() });
    worker.onmessage = function (event) {
      var msg = event.data, handlers = pending[msg.id];
      if (msg.type === "ready") { document.documentElement.dataset.rrIndexReady = "1"; return; }
      if (!handlers) return;
      if (msg.type === "progress") { if (handlers.progress) handlers.progress(msg); return; }
      delete pending[msg.id];
      if (msg.type === "result") handlers.resolve(msg);
      else handlers.reject(new Error(msg.message));
    };
    return worker;
  }

  // job: {text | file, context, top}; onProgress(msg) is called while a large input is read.
  function match(job, onProgress) {
    var w = start(), id = ++next;
    return new Promise(function (resolve, reject) {
      pending[id] = { resolve: resolve, reject: reject, progress: onProgress };
      w.postMessage({ type: "match", id: id, text: job.text, file: job.file, context: job.context || "", top: job.top || 5 });
    }).then(function (answer) { answer.latest = id === next; return answer; });
  }

  // The pasted text, read without blocking: clipboardData.getData copies a 10 MB paste on the main
  // thread for hundreds of milliseconds; DataTransferItem.getAsString hands it over in a later,
  // much shorter task. The caller must preventDefault, since the size is not known yet.
  function pastedText(event, callback) {
    var items = event.clipboardData ? Array.from(event.clipboardData.items) : [];
    var item = items.find(function (i) { return i.kind === "string" && i.type === "text/plain"; });
    if (!item) return false;
    item.getAsString(callback);
    return true;
  }

  window.RelrefClient = { match: match, siteRoot: siteRoot, start: start, pastedText: pastedText };
})();
