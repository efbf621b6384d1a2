// Twin of generator/match/scan.py: one pass over a log of any size, in bounded memory.
// Loaded by the match worker (importScripts) and by node (require) in the parity tests.
(function (root) {
  "use strict";
  // `engine` gives the signatures (with compiled regexes), parseStamp and the informative regex.
  function Scanner(engine) {
    this.e = engine;
    this.cfg = engine.rules.scan;
    this.result = { hits: new Map(), counts: new Map(), informative: [], newest: {}, lastBoot: 0, lines: 0, chars: 0 };
    this.lastUptime = null;
    this.firstInformative = [];
    this.lastChunk = null;
    this.shortLines = [];
    this.tails = new Map();
  }
  Scanner.prototype.feed = function (chunk) {
    var r = this.result, first = r.lines + 1;
    r.lines += countNewlines(chunk, 0, chunk.length) + 1;
    r.chars += chunk.length;
    if (r.lines <= this.cfg.short_paste) {
      var self = this;
      chunk.split("\n").forEach(function (l, i) { self.shortLines.push([first + i, l]); });
    }
    var stamps = this.scanSignatures(chunk, first).concat(this.stampTail(chunk, first));
    this.noteStamps(stamps.sort(function (a, b) { return a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : a[2] - b[2]); }));
    if (this.lastChunk === null) this.firstInformative = this.informativeLines(chunk, first, false);
    this.lastChunk = [chunk, first];
  };
  Scanner.prototype.finish = function () {
    var r = this.result;
    if (r.lines <= this.cfg.short_paste) r.informative = this.shortLines;
    else if (this.lastChunk !== null) {
      var merged = new Map();
      this.firstInformative.concat(this.informativeLines(this.lastChunk[0], this.lastChunk[1], true))
        .forEach(function (p) { merged.set(p[0], p[1]); });
      r.informative = Array.from(merged.entries()).sort(function (a, b) { return a[0] - b[0]; });
    }
    this.tails.forEach(function (ht, index) {
      var head = ht[0], last = head[head.length - 1].lineNo;
      r.hits.set(index, head.concat(ht[1].filter(function (h) { return h.lineNo > last; })));
    });
    return r;
  };
  Scanner.prototype.scanSignatures = function (chunk, first) {
    var lowered = null, found = new Map(), maxLine = this.cfg.max_line, sigs = this.e.signatures;
    for (var index = 0; index < sigs.length; index++) {
      var sig = sigs[index], hay = chunk;
      if (sig.ignore_case) {
        if (lowered === null) lowered = chunk.replace(/[A-Z]+/g, function (s) { return s.toLowerCase(); });
        hay = lowered;
      }
      var literals = sig.literals.length ? sig.literals : [""];
      for (var k = 0; k < literals.length; k++) {
        var literal = literals[k], pos = literal ? hay.indexOf(literal) : 0;
        while (pos !== -1 && pos < chunk.length) {
          var start = pos === 0 ? 0 : chunk.lastIndexOf("\n", pos - 1) + 1;
          var end = chunk.indexOf("\n", pos);
          if (end === -1) end = chunk.length;
          var key = start * 1048576 + index;  // unique while a chunk and the signatures stay under 2^20
          if (!found.has(key)) {
            var line = chunk.slice(start, Math.min(end, start + maxLine));
            if (sig.regex.test(line)) found.set(key, [start, index, line]);
          }
          pos = literal ? (end + 1 > chunk.length ? -1 : hay.indexOf(literal, end + 1)) : (end < chunk.length ? end + 1 : -1);
        }
      }
    }
    var hits = Array.from(found.values()).sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    var lineNo = first, cursor = 0, stamps = [];
    for (var i = 0; i < hits.length; i++) {
      lineNo += countNewlines(chunk, cursor, hits[i][0]);
      cursor = hits[i][0];
      var hit = { lineNo: lineNo, text: hits[i][2], stamp: this.e.parseStamp(hits[i][2]) };
      this.keepHit(hits[i][1], hit);
      if (hit.stamp) stamps.push([lineNo, hit.stamp[0], hit.stamp[1]]);
    }
    return stamps;
  };
  Scanner.prototype.noteStamps = function (stamps) {
    var r = this.result;
    for (var i = 0; i < stamps.length; i++) {
      var clock = stamps[i][1], seconds = stamps[i][2];
      r.newest[clock] = r.newest[clock] === undefined ? seconds : Math.max(r.newest[clock], seconds);
      if (clock === "uptime") {
        if (this.lastUptime !== null && seconds < this.lastUptime - 1) r.lastBoot = stamps[i][0];
        this.lastUptime = seconds;
      }
    }
  };
  Scanner.prototype.keepHit = function (index, hit) {
    var r = this.result;
    r.counts.set(index, (r.counts.get(index) || 0) + 1);
    if (!this.tails.has(index)) this.tails.set(index, [[], []]);
    var ht = this.tails.get(index), kept = this.cfg.hits_kept;
    if (ht[0].length < kept) ht[0].push(hit);
    else { ht[1].push(hit); if (ht[1].length > kept) ht[1].shift(); }
  };
  Scanner.prototype.stampTail = function (chunk, first) {
    var maxLine = this.cfg.max_line, n = this.cfg.tail_stamps;
    var text = chunk.length < 64 * maxLine ? chunk : chunk.slice(chunk.length - 64 * maxLine);
    var lines = text.split("\n").slice(-n), lastNo = first + countNewlines(chunk, 0, chunk.length), stamps = [];
    for (var offset = 0; offset < lines.length; offset++) {
      var stamp = this.e.parseStamp(lines[offset].slice(0, maxLine));
      if (stamp) stamps.push([lastNo - lines.length + 1 + offset, stamp[0], stamp[1]]);
    }
    return stamps;
  };
  Scanner.prototype.informativeLines = function (chunk, first, fromEnd) {
    var lines = chunk.split("\n"), limit = this.cfg.informative_kept, maxLine = this.cfg.max_line;
    var order = lines.map(function (l, i) { return [first + i, l]; });
    if (fromEnd) order.reverse();
    var kept = [], seen = new Set();
    for (var i = 0; i < order.length; i++) {
      var line = order[i][1].slice(0, maxLine);
      if (this.e.informative.test(line) && !seen.has(line)) {
        seen.add(line);
        kept.push([order[i][0], line]);
        if (kept.length >= limit) break;
      }
    }
    return kept;
  };
  function countNewlines(s, from, to) {
    var n = 0, i = s.indexOf("\n", from);
    while (i !== -1 && i < to) { n++; i = s.indexOf("\n", i + 1); }
    return n;
  }

  // Chunks that end on line boundaries (scan.chunks): text pieces in, chunks out.
  function Chunker(size) { this.size = size; this.carry = ""; }
  Chunker.prototype.push = function (piece, out) {
    this.carry += piece;
    while (this.carry.length >= this.size) {
      var cut = this.carry.lastIndexOf("\n", this.size - 1);
      if (cut === -1) cut = this.size;
      out.push(this.carry.slice(0, cut).replace(/\r/g, ""));
      this.carry = this.carry.charAt(cut) === "\n" ? this.carry.slice(cut + 1) : this.carry.slice(cut);
    }
  };
  Chunker.prototype.end = function (out) {
    var carry = this.carry;
    if (carry.charAt(carry.length - 1) === "\n") carry = carry.slice(0, -1);
    if (carry) out.push(carry.replace(/\r/g, ""));
    this.carry = "";
  };


  var api = { Scanner: Scanner, Chunker: Chunker };
  if (typeof module === "object" && module.exports) module.exports = api;
  else Object.assign(root.RelrefMatch = root.RelrefMatch || {}, api);
})(typeof self !== "undefined" ? self : this);
