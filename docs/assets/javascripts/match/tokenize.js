// Twin of generator/match/tokenize.py: normalising and tokenising log text for full-text relevance.
// Loaded by the match worker (importScripts) and by node (require) in the parity tests.
(function (root) {
  "use strict";
  function Tokenizer(rules) {
    this.mask = new RegExp(rules.masks.map(function (m) { return "(?:" + m + ")"; }).join("|"), "g");
    this.stopWords = new Set(rules.stop_words);
    this.max = rules.max_token;
  }
  Tokenizer.prototype.normalise = function (text) {
    return text.replace(/[^\x00-\x7f]/g, " ").replace(this.mask, " ");
  };
  Tokenizer.prototype.tokenize = function (text) {
    var out = [], max = this.max, stop = this.stopWords;
    this.normalise(text).toLowerCase().split(/[^a-z0-9_]+/).forEach(function (t) {
      t = t.replace(/^_+|_+$/g, "");
      if (t.length >= 2 && t.length <= max && !stop.has(t) && !/^[0-9]+$/.test(t)) out.push(t);
    });
    return out;
  };

  var api = { Tokenizer: Tokenizer };
  if (typeof module === "object" && module.exports) module.exports = api;
  else Object.assign(root.RelrefMatch = root.RelrefMatch || {}, api);
})(typeof self !== "undefined" ? self : this);
