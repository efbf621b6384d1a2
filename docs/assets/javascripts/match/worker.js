// The match worker: all matching happens here, off the page's main thread. It loads the match
// index once, reads pasted text or a dropped file in pieces, reports progress, and answers with the
// same result object as `relref match --json`. It makes no request but the index.
importScripts("../vendor/lunr-2.3.9.min.js", "../vendor/re2js-2.10.0.js", "dialect.js", "text.js", "tokenize.js",
              "timestamps.js", "hints.js", "readings.js", "scan.js", "engine.js");

var CAP = 64 * 1024 * 1024;   // characters matched at most: above it, the last CAP are matched
var PIECE = 1024 * 1024;
var engine = null, indexUrl = null, siteRoot = "";

function load() {
  if (engine) return Promise.resolve(engine);
  return fetch(indexUrl).then(function (r) {
    if (!r.ok) throw new Error("the match index could not be loaded (" + r.status + ")");
    return r.json();
  }).then(function (index) { engine = new RelrefMatch.Engine(index, siteRoot); return engine; });
}

// Text pieces of at most PIECE characters (as functions, read in order) from a string or a File,
// keeping at most CAP.
function pieces(job) {
  if (typeof job.text === "string") {
    var text = job.text, note = null;
    if (text.length > CAP) {
      note = capNote(text.length, "characters");
      text = text.slice(text.length - CAP);
      text = text.slice(text.indexOf("\n") + 1);
    }
    var out = [];
    for (var i = 0; i < text.length; i += PIECE) out.push(text.slice.bind(text, i, i + PIECE));
    return { list: out, total: text.length, note: note };
  }
  var file = job.file, start = Math.max(0, file.size - CAP), list = [];
  var decoder = new TextDecoder("utf-8");
  for (var pos = start; pos < file.size; pos += PIECE) {
    (function (from, last) {  // read one piece at a time, in order: the decoder keeps split characters
      list.push(function () {
        return file.slice(from, Math.min(from + PIECE, file.size)).arrayBuffer().then(function (buf) {
          return decoder.decode(buf, { stream: !last });
        });
      });
    })(pos, pos + PIECE >= file.size);
  }
  return { list: list, total: file.size - start, note: start > 0 ? capNote(file.size, "bytes") : null, dropFirst: start > 0 };
}

function capNote(size, unit) {
  return "The input is " + (size / 1048576).toFixed(1) + " MB; matched its last " + CAP / 1048576 +
    " MB (line numbers count from there).";
}

function run(job) {
  return load().then(function (eng) {
    var source = pieces(job), scanner = eng.scanner(), chunker = eng.chunker();
    var done = 0, first = true, i = 0;
    function step() {
      if (i >= source.list.length) {
        var rest = [];
        chunker.end(rest);
        rest.forEach(function (c) { scanner.feed(c[0], c[1]); });
        return eng.rank(scanner.finish(), job.context || "", job.top || 5);
      }
      return Promise.resolve(source.list[i++]()).then(function (piece) {
        if (first && source.dropFirst) piece = piece.slice(piece.indexOf("\n") + 1);  // a cut first line
        first = false;
        var chunks = [];
        chunker.push(piece, chunks);
        chunks.forEach(function (c) { scanner.feed(c[0], c[1]); });
        done += piece.length;
        postMessage({ type: "progress", id: job.id, done: Math.min(done, source.total), total: source.total });
        return step();
      });
    }
    return step().then(function (result) {
      return { type: "result", id: job.id, result: result, note: source.note, lines: scanner.result.lines };
    });
  });
}

onmessage = function (event) {
  var msg = event.data;
  if (msg.type === "init") {  // load the index now, so that matching itself makes no request
    indexUrl = msg.indexUrl; siteRoot = msg.siteRoot;
    load().then(function () { postMessage({ type: "ready" }); }, function () {});
    return;
  }
  if (msg.type !== "match") return;
  run(msg).then(function (answer) { postMessage(answer); }, function (err) {
    postMessage({ type: "error", id: msg.id, message: String(err && err.message || err) });
  });
};
