// Twin of generator/match/text.py: how pasted text is read before anything matches it. Unicode
// spaces become a space; typographic quotes become ASCII ones; U+2028, U+2029 and U+0085 end a
// line; CRLF is one line end; a lone CR also ends a line for matching (kept as CR: line numbers
// count LF line ends only, as grep -n does). Lengths are code points, as in Python. No RegExp
// touches the text: split and join only. Loaded by the match worker (importScripts) and by node
// (require) in the parity tests.
(function (root) {
  "use strict";

  function Text(rules) {
    this.spaces = rules.spaces;
    this.softEnds = rules.soft_ends;
    this.quotes = rules.quotes;
    this.maxLine = rules.max_line;
    this.halfWindow = rules.half_window;
  }

  function replaceAllOf(text, chars, by) {
    for (var i = 0; i < chars.length; i++) {
      if (text.indexOf(chars[i]) !== -1) text = text.split(chars[i]).join(by);
    }
    return text;
  }

  Text.prototype.normalise = function (text) {
    if (text.indexOf("\r") !== -1) text = text.split("\r\n").join("\n");
    text = replaceAllOf(text, this.softEnds, "\r");
    text = replaceAllOf(text, this.spaces, " ");
    for (var plain in this.quotes) text = replaceAllOf(text, this.quotes[plain], plain);
    return text;
  };

  // Code points of s (a surrogate pair is one), and s cut by code points.
  function cpLength(s) {
    var n = s.length;
    for (var i = 0; i < s.length - 1; i++) {
      var c = s.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff) { var d = s.charCodeAt(i + 1); if (d >= 0xdc00 && d <= 0xdfff) { n--; i++; } }
    }
    return n;
  }
  function unitIndex(s, cp) {  // the UTF-16 index of code point number cp
    var i = 0;
    for (var k = 0; k < cp && i < s.length; k++) {
      var c = s.charCodeAt(i);
      i += (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff) ? 2 : 1;
    }
    return i;
  }
  function sliceCp(s, from, to) {
    if (s.length <= to && from === 0) return s;  // fewer units than `to` means fewer code points too
    var a = unitIndex(s, from);
    return s.slice(a, a + unitIndex(s.slice(a), to - from));
  }

  // The parts of a line a pattern sees, one at a time until `test` takes one (which is returned,
  // else null): the whole line when it is at most maxLine code points, else one window of maxLine
  // code points starting halfWindow before each literal position (text.windows). A megabyte line
  // holds thousands of literals, so windows are made on demand and code points are counted in one
  // pass, not once per literal.
  Text.prototype.isLong = function (line) { return line.length > this.maxLine && cpLength(line) > this.maxLine; };
  Text.prototype.firstWindow = function (line, unitPositions, test) {
    if (!this.isLong(line)) return test(line) ? line : null;
    var units = unitPositions.slice().sort(function (a, b) { return a - b; });
    var toCp = null, toUnit = null;
    if (cpLength(line) !== line.length) {  // surrogate pairs: map units and code points both ways
      toCp = new Int32Array(line.length + 1); toUnit = new Int32Array(line.length + 1);
      var cp = 0;
      for (var i = 0; i < line.length; i++) {
        toCp[i] = cp; toUnit[cp] = i;
        var c = line.charCodeAt(i), d = line.charCodeAt(i + 1);
        if (c >= 0xd800 && c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) { toCp[++i] = cp; }
        cp++;
      }
      toCp[line.length] = cp; toUnit[cp] = line.length;
      var last = cp;
    }
    var previous = -1;
    for (var k = 0; k < units.length; k++) {
      var at = toCp ? toCp[units[k]] : units[k];
      if (at === previous) continue;
      previous = at;
      var start = Math.max(0, at - this.halfWindow), end = start + this.maxLine;
      var part = toCp ? line.slice(toUnit[start], toUnit[Math.min(end, last)]) : line.slice(start, end);
      if (test(part)) return part;
    }
    return null;
  };
  Text.prototype.head = function (line, n) { return sliceCp(line, 0, n); };

  function asciiLower(s) {
    var lowered = s.toLowerCase();
    if (lowered.length === s.length) {
      var same = true;  // toLowerCase also lowers non-ASCII letters: keep those as they were
      for (var i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127 && lowered.charCodeAt(i) !== s.charCodeAt(i)) { same = false; break; }
      if (same) return lowered;
    }
    var out = "";
    for (var j = 0; j < s.length; j++) { var c = s.charCodeAt(j); out += c >= 65 && c <= 90 ? String.fromCharCode(c + 32) : s[j]; }
    return out;
  }

  // Every position in `line` where one of the literals starts (UTF-16 indexes).
  function literalPositions(line, literals, ignoreCase) {
    var hay = ignoreCase ? asciiLower(line) : line, out = [];
    literals.forEach(function (literal) {
      var at = hay.indexOf(literal);
      while (at !== -1) { out.push(at); at = hay.indexOf(literal, at + 1); }
    });
    return out;
  }

  var api = { Text: Text, asciiLower: asciiLower, literalPositions: literalPositions, cpLength: cpLength, sliceCp: sliceCp };
  if (typeof module === "object" && module.exports) module.exports = api;
  else Object.assign(root.RelrefMatch = root.RelrefMatch || {}, api);
})(typeof self !== "undefined" ? self : this);
