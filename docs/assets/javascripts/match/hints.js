// Twin of generator/match/hints.py: context hints (frameworks, hardware, environment, scale, staleness window).
// Loaded by the match worker (importScripts) and by node (require) in the parity tests.
(function (root) {
  "use strict";
  function Hints(h) {
    function table(t) { return t.map(function (e) { return [e[0], new RegExp(e[1])]; }); }
    this.hintTables = { frameworks: table(h.frameworks), hardware: table(h.hardware), environments: table(h.environments) };
    this.scaleRx = new RegExp(h.scale, "g");
    this.negatedRx = new RegExp(h.negated, "g");
    this.versionRx = new RegExp(h.version, "g");
    this.windowRx = new RegExp(h.window);
    this.replayedRx = new RegExp(h.replayed);
    this.specific = new Set(h.specific_frameworks);
    this.defaultWindow = h.default_window;
  }
  Hints.prototype.read = function (text) {
    text = text.toLowerCase().replace(this.negatedRx, " ");
    var out = {};
    for (var name in this.hintTables) {
      out[name] = this.hintTables[name].filter(function (e) { return e[1].test(text); }).map(function (e) { return e[0]; }).sort();
    }
    var scales = [], m;
    this.scaleRx.lastIndex = 0;
    while ((m = this.scaleRx.exec(text)) !== null) scales.push(parseInt(m[1] || m[2], 10));
    out.scale = scales.length ? Math.max.apply(null, scales) : null;
    var versions = new Set();
    this.versionRx.lastIndex = 0;
    while ((m = this.versionRx.exec(text)) !== null) versions.add(m[1] + " " + m[2]);
    out.versions = Array.from(versions).sort();
    return out;
  };
  Hints.prototype.windowSeconds = function (context) {
    var m = this.windowRx.exec(context.toLowerCase());
    if (!m) return this.defaultWindow;
    return parseInt(m[1], 10) * { s: 1, m: 60, h: 3600, d: 86400 }[m[2][0]];
  };

  Hints.prototype.saysReplayed = function (context) { return this.replayedRx.test(context.toLowerCase()); };

  var api = { Hints: Hints };
  if (typeof module === "object" && module.exports) module.exports = api;
  else Object.assign(root.RelrefMatch = root.RelrefMatch || {}, api);
})(typeof self !== "undefined" ? self : this);
