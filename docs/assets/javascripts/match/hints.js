// Twin of generator/match/hints.py: what the context line and the log say about the setup (names:
// frameworks, GPU models, environments, versions, scale, the staleness window) and what the user's
// words mean (cues: provenance, environment, replay, phase), each cue cancelled by a negation just before
// it in the same clause. The tables come from the index. Loaded by the match worker and by node.
(function (root) {
  "use strict";
  var node = typeof module === "object" && module.exports;
  var M = node ? Object.assign({}, require("./dialect.js"), require("./text.js")) : root.RelrefMatch;

  function Hints(h) {
    function table(t) { return t.map(function (e) { return [e[0], M.compileRule(e[1])]; }); }
    this.tables = { frameworks: table(h.frameworks), hardware: table(h.hardware), environments: table(h.environments) };
    this.scale = M.compileRule(h.scale);
    this.version = M.compileRule(h.version);
    this.window = M.compileRule(h.window);
    this.negated = M.compileRule(h.negated);
    this.specific = new Set(h.specific_frameworks);
    this.defaultWindow = h.default_window;
    this.units = h.units;
    this.cues = h.cues.map(function (c) { return [c, M.compileRule(c.pattern)]; });
    this.negations = h.negations;
    this.clauseEnds = h.clause_ends;
    this.reach = h.negation_reach;
  }
  Hints.prototype.read = function (text) {
    text = this.negated.replaceAll(M.asciiLower(text), " ");
    var out = {}, self = this;
    Object.keys(this.tables).forEach(function (name) {
      out[name] = self.tables[name].filter(function (e) { return e[1].test(text); }).map(function (e) { return e[0]; }).sort();
    });
    var scales = this.scale.all(text).map(function (m) { return parseInt(m[1] || m[2], 10); });
    out.scale = scales.length ? Math.max.apply(null, scales) : null;
    var versions = new Set(this.version.all(text).map(function (m) { return m[1] + " " + m[2]; }));
    out.versions = Array.from(versions).sort();
    return out;
  };
  Hints.prototype.windowSeconds = function (context) {
    var m = this.window.exec(M.asciiLower(context));
    return m ? parseInt(m[1], 10) * this.units[m[2][0]] : this.defaultWindow;
  };
  Hints.prototype.negatedBefore = function (text, start) {
    var head = text.slice(0, start), cut = -1;
    for (var i = 0; i < this.clauseEnds.length; i++) cut = Math.max(cut, head.lastIndexOf(this.clauseEnds[i]));
    var parts = head.slice(cut + 1).split("-").join(" ").split(" ").filter(Boolean).slice(-this.reach - 1);
    var joined = " " + parts.join(" ") + " ";
    for (var k = 0; k < this.negations.length; k++) if (joined.indexOf(" " + this.negations[k] + " ") !== -1) return this.negations[k];
    return null;
  };
  Hints.prototype.readCues = function (context) {
    var text = M.asciiLower(context), found = [], self = this;
    this.cues.forEach(function (entry) {
      var cue = entry[0], m = entry[1].exec(text, 0);
      while (m !== null) {
        var negation = self.negatedBefore(text, m.index);
        found.push({ id: cue.id, kind: cue.kind, text: context.slice(m.index, m.end), reason: cue.reason,
                     negated_by: negation, against: cue.against, supports: cue.supports, causes: cue.causes || {},
                     needs_lines: cue.needs_lines || false });
        if (negation === null) break;
        m = entry[1].exec(text, m.end);
      }
    });
    return found;
  };

  var api = { Hints: Hints };
  if (node) module.exports = api;
  else Object.assign(root.RelrefMatch = root.RelrefMatch || {}, api);
})(typeof self !== "undefined" ? self : this);
