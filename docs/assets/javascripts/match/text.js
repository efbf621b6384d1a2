// Twin of generator/match/text.py: how pasted text is read before anything matches it. Unicode
// spaces become a space; U+2028, U+2029 and U+0085 end a line; CRLF is one line end; a lone CR also
// ends a line for matching (kept as CR: line numbers count LF line ends only, as grep -n does).
// Lengths are code points, as in Python. No RegExp touches the text: split and join only.
// Loaded by the match worker (importScripts) and by node (require) in the parity tests.
(function (root) {
  "use strict";

  function Text(rules) {
    this.spaces = rules.spaces;
    this.softEnds = rules.soft_ends;
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
    return replaceAllOf(text, this.spaces, " ");
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
  function cpIndex(s, unit) { return cpLength(s.slice(0, unit)); }
  function sliceCp(s, from, to) {
    if (s.length <= to && from === 0) return s;  // fewer units than `to` means fewer code points too
    var a = unitIndex(s, from);
    return s.slice(a, a + unitIndex(s.slice(a), to - from));
  }

  // The parts of a line a pattern sees: the whole line when it is at most maxLine code points,
  // else one window of maxLine code points starting halfWindow before each literal position.
  Text.prototype.windows = function (line, unitPositions) {
    if (line.length <= this.maxLine || cpLength(line) <= this.maxLine) return [line];
    var seen = {}, starts = [];
    unitPositions.forEach(function (u) { var cp = cpIndex(line, u); if (!seen[cp]) { seen[cp] = 1; starts.push(cp); } });
    starts.sort(function (a, b) { return a - b; });
    var self = this;
    return starts.map(function (at) { var start = Math.max(0, at - self.halfWindow); return sliceCp(line, start, start + self.maxLine); });
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
