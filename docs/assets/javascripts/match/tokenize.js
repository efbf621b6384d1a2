// Twin of generator/match/tokenize.py: the words of log text that carry meaning for full-text
// relevance, in a normal form (the rules and word lists come from the index). No RegExp: the text is
// split by a character loop. Loaded by the match worker (importScripts) and by node (require).
(function (root) {
  "use strict";
  var WHITESPACE = " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f";  // what Python's str.split() splits ASCII text on

  function Tokenizer(rules) {
    this.stop = new Set(rules.stop_words);
    this.keep = new Set(rules.keep_digits);
    this.suffixes = rules.suffixes;
    this.max = rules.max_token;
    this.minStem = rules.min_stem;
  }

  function words(text) {
    var out = [], word = "";
    for (var i = 0; i < text.length; i++) {
      var c = text.charCodeAt(i), ch = c > 127 ? " " : text[i];
      if (WHITESPACE.indexOf(ch) !== -1) { if (word) out.push(word); word = ""; }
      else word += ch;
    }
    if (word) out.push(word);
    return out;
  }
  function wordParts(word) {
    if (word.indexOf("://") !== -1) return [];
    if (word.indexOf("/") !== -1 && ("/~.".indexOf(word[0]) !== -1 || word.split("/").length - 1 >= 2)) {
      var parts = word.split("/");
      var anchors = ["site-packages", "dist-packages"];
      for (var a = 0; a < anchors.length; a++) {
        var last = parts.lastIndexOf(anchors[a]);
        if (last !== -1) return parts.slice(last + 1);
      }
      return parts.slice(-1);
    }
    return [word];
  }
  function tokens(part) {  // split on anything but [A-Za-z0-9_], lower-casing A-Z
    var out = [], tok = "";
    for (var i = 0; i < part.length; i++) {
      var c = part.charCodeAt(i);
      if ((c >= 48 && c <= 57) || (c >= 97 && c <= 122) || c === 95) tok += part[i];
      else if (c >= 65 && c <= 90) tok += String.fromCharCode(c + 32);
      else { if (tok) out.push(tok); tok = ""; }
    }
    if (tok) out.push(tok);
    return out;
  }
  function trimUnderscores(token) {
    var a = 0, b = token.length;
    while (a < b && token[a] === "_") a++;
    while (b > a && token[b - 1] === "_") b--;
    return token.slice(a, b);
  }
  function isDigits(s) { for (var i = 0; i < s.length; i++) { var c = s.charCodeAt(i); if (c < 48 || c > 57) return false; } return s.length > 0; }
  function isHexLike(s) {
    var alpha = true;
    for (var i = 0; i < s.length; i++) {
      var c = s.charCodeAt(i), digit = c >= 48 && c <= 57;
      if (!digit && !(c >= 97 && c <= 102)) return false;
      if (digit) alpha = false;
    }
    return !alpha;
  }

  Tokenizer.prototype.stem = function (word) {
    for (var i = 0; i < this.suffixes.length; i++) {
      var suffix = this.suffixes[i];
      if (suffix === "s" && (/* keep the s of -ss, -us, -is */ endsWith(word, "ss") || endsWith(word, "us") || endsWith(word, "is"))) continue;
      if (endsWith(word, suffix) && word.length - suffix.length >= this.minStem) {
        var root = word.slice(0, word.length - suffix.length);
        if (suffix === "ies" || suffix === "ied") return root + "y";
        var last = root[root.length - 1];
        if ((suffix === "ed" || suffix === "ing" || suffix === "ings") && root.length >= 2 && last === root[root.length - 2] &&
            "lsz".indexOf(last) === -1 && "aeiou".indexOf(last) === -1) return root.slice(0, -1);
        return root;
      }
    }
    return word;
  };
  function endsWith(s, suffix) { return s.length >= suffix.length && s.slice(s.length - suffix.length) === suffix; }

  Tokenizer.prototype.term = function (token) {
    token = trimUnderscores(token);
    if (this.keep.has(token)) return token;
    if (token.length < 2 || token.length > this.max) return null;
    if (isDigits(token) || token.slice(0, 2) === "0x" || (token.length >= 4 && isHexLike(token))) return null;
    var end = token.length;
    while (end > 0 && token.charCodeAt(end - 1) >= 48 && token.charCodeAt(end - 1) <= 57) end--;
    var letters = token.slice(0, end);
    if (!letters) return null;
    for (var i = 0; i < letters.length; i++) { var c = letters.charCodeAt(i); if (c >= 48 && c <= 57) return null; }
    if (this.stop.has(letters) || letters.length < 2) return null;
    var term = this.stem(letters);
    return this.stop.has(term) ? null : term;
  };

  Tokenizer.prototype.tokenize = function (text) {
    return this.tokenizeWords(text).map(function (p) { return p[0]; });
  };
  // [term, the word as written, lower-cased] for each term: answers show the words, not stems.
  Tokenizer.prototype.tokenizeWords = function (text) {
    var out = [], self = this;
    words(text).forEach(function (word) {
      wordParts(word).forEach(function (part) {
        tokens(part).forEach(function (tok) { var t = self.term(tok); if (t) out.push([t, trimUnderscores(tok)]); });
      });
    });
    return out;
  };

  var api = { Tokenizer: Tokenizer };
  if (typeof module === "object" && module.exports) module.exports = api;
  else Object.assign(root.RelrefMatch = root.RelrefMatch || {}, api);
})(typeof self !== "undefined" ? self : this);
