// Benchmark worker (copied into a temporary copy of the built site by bench/match_browser.py): times
// the engine and one pass of a single regular expression (the alternation of every signature
// pattern) over the same text, in the same worker.
importScripts("../vendor/lunr-2.3.9.min.js", "../vendor/re2js-2.10.0.js", "dialect.js", "text.js", "tokenize.js",
              "timestamps.js", "hints.js", "readings.js", "scan.js", "engine.js");
onmessage = function (event) {
  var msg = event.data;
  fetch(msg.indexUrl).then(function (r) { return r.json(); }).then(function (index) {
    var engine = new RelrefMatch.Engine(index, "");
    var alternation = new RegExp(index.signatures.map(function (s) { return "(?:" + s.pattern + ")"; }).join("|"), "g");
    var out = { engine: [], regex: [] };
    for (var run = 0; run < msg.runs; run++) {
      var t0 = performance.now();
      var result = engine.match(msg.text, "", 5);
      out.engine.push(performance.now() - t0);
      t0 = performance.now();
      var count = 0;
      alternation.lastIndex = 0;
      while (alternation.exec(msg.text) !== null) count++;
      out.regex.push(performance.now() - t0);
      out.top = result.matches.length ? result.matches[0].id : null;
      out.count = count;
    }
    postMessage(out);
  });
};
