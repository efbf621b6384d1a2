// Twin of generator/match/readings.py: what the numbers of a matched line say. Today one reading:
// how much of a GPU that ran out of memory was neither free nor held by the failing process's
// PyTorch allocator (another process or the driver holds it). The forms and limits come from the
// index. Loaded by the match worker and by node.
(function (root) {
  "use strict";
  var node = typeof module === "object" && module.exports;
  var M = node ? Object.assign({}, require("./dialect.js"), require("./text.js")) : root.RelrefMatch;

  function Readings(r) {
    this.forms = r.forms.map(function (f) { return [M.compileRule(f[0]), f[1]]; });
    this.r = r;
  }
  // Readings of the matched lines (objects with lineNo and text), one per line at most.
  Readings.prototype.read = function (hits) {
    var out = [], self = this;
    hits.forEach(function (h) {
      var reading = self.memoryElsewhere(h.lineNo, h.text);
      if (reading) out.push(reading);
    });
    return out;
  };
  Readings.prototype.memoryElsewhere = function (lineNo, text) {
    var r = this.r;
    for (var f = 0; f < this.forms.length; f++) {
      var m = this.forms[f][0].exec(text, 0), names = this.forms[f][1];
      if (!m) continue;
      var sizes = {};
      names.forEach(function (name, i) { sizes[name] = parseFloat(m[2 * i + 1]) * r.gib[m[2 * i + 2]]; });
      var reserved = "reserved" in sizes ? sizes.reserved : sizes.allocated + sizes.unallocated;
      var elsewhere = sizes.total - sizes.free - reserved;
      if (elsewhere < r.min_gib || elsewhere < r.share * sizes.total) return null;
      var reason = gib(elsewhere) + " of the GPU's " + gib(sizes.total) + " is neither free nor held by this " +
        "process's PyTorch allocator (" + gib(reserved) + "): another process or the driver holds it";
      return { id: "gpu-memory-held-elsewhere", line: lineNo, text: M.sliceCp(m[0], 0, 300), reason: reason,
               against: r.against, supports: r.supports, causes: r.causes };
    }
    return null;
  };
  function gib(x) { return (Math.floor(x * 10 + 0.5) / 10).toFixed(1) + " GiB"; }  // half up, as Python's twin

  var api = { Readings: Readings };
  if (node) module.exports = api;
  else Object.assign(root.RelrefMatch = root.RelrefMatch || {}, api);
})(typeof self !== "undefined" ? self : this);
