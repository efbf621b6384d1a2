// Twin of generator/match/dialect.py: the one regex dialect of both engines, RE2 (here re2js),
// which matches in time linear in the input, so no pattern and no pasted text can make matching
// hang. Nothing in the engine applies a JavaScript RegExp to pasted text.
// Loaded by the match worker (importScripts, after re2js) and by node (require) in the parity tests.
(function (root) {
  "use strict";
  var node = typeof module === "object" && module.exports;
  var RE2JS = (node ? require("../vendor/re2js-2.10.0.js") : root.RE2JS).RE2JS;

  // A compiled rule: test(s), and exec(s, from) giving [whole, group1, ...] with .index, or null.
  function Rule(pattern, ignoreCase) {
    this.re = RE2JS.compile(pattern, ignoreCase ? RE2JS.CASE_INSENSITIVE : 0);
    this.groups = this.re.groupCount();
  }
  Rule.prototype.test = function (s) { return this.re.matcher(s).find(); };
  Rule.prototype.exec = function (s, from) {
    var m = this.re.matcher(s);
    if (!m.find(from || 0)) return null;
    var out = [m.group(0)];
    for (var g = 1; g <= this.groups; g++) { var v = m.group(g); out.push(v === null ? undefined : v); }
    out.index = m.start();
    out.end = m.end();
    return out;
  };
  Rule.prototype.all = function (s) {  // every match, left to right, as exec gives them
    var out = [], from = 0, m;
    while (from <= s.length && (m = this.exec(s, from)) !== null) {
      out.push(m);
      from = m.end > m.index ? m.end : m.index + 1;
    }
    return out;
  };
  Rule.prototype.replaceAll = function (s, replacement) { return this.re.matcher(s).replaceAll(replacement, true); };

  function compileRule(pattern, ignoreCase) { return new Rule(pattern, !!ignoreCase); }

  // A signature's test of one line: `pattern` matches and `unless` (if any) does not.
  function Signature(pattern, ignoreCase, unless) {
    this.regex = compileRule(pattern, ignoreCase);
    this.unless = unless ? compileRule(unless, ignoreCase) : null;
  }
  Signature.prototype.test = function (line) {
    return this.regex.test(line) && !(this.unless && this.unless.test(line));
  };

  var api = { compileRule: compileRule, Signature: Signature };
  if (node) module.exports = api;
  else Object.assign(root.RelrefMatch = root.RelrefMatch || {}, api);
})(typeof self !== "undefined" ? self : this);
