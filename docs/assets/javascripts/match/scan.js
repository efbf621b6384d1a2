// Twin of generator/match/scan.py: one pass over a log of any size, in bounded memory. A line is
// tried against a signature only when it holds one of the signature's required literals (found with
// indexOf); the pattern then meets the line, or, for a line over max_line code points, windows around
// its literals. Which literals a chunk holds at all is found first, in one pass over it (LiteralSet;
// scan.py uses an RE2 set for this). Line numbers count LF line ends. Loaded by the match worker and
// by node.
(function (root) {
  "use strict";
  var node = typeof module === "object" && module.exports;
  var M = node ? Object.assign({}, require("./dialect.js"), require("./text.js")) : root.RelrefMatch;

  // `engine` gives the scan rules (signatures, then code detectors: each with .test, .literals,
  // .ignore_case), text rules, parseStamp and the informative rule.
  function Scanner(engine) {
    this.e = engine;
    this.literals = engine.literalSet();
    this.cfg = engine.rules.scan;
    this.text = engine.text;
    this.result = { hits: new Map(), counts: new Map(), informative: [], steps: [], newest: {}, lastBoot: 0, lines: 0, chars: 0,
                    longLines: 0, splitLines: [] };
    this.lineNo = 1;
    this.stamped = 0;
    this.lastUptime = null;
    this.firstInformative = [];
    this.firstSteps = [];
    this.lastChunk = null;
    this.shortLines = [];
    this.shortChars = 0;  // code points kept of a short paste (scan.py SHORT_CHARS)
    this.tails = new Map();
  }
  Scanner.prototype.feed = function (chunk, cut) {
    var r = this.result, first = this.lineNo;
    this.lineNo += countNewlines(chunk, 0, chunk.length) + (cut ? 0 : 1);
    r.lines = this.lineNo - (cut ? 0 : 1);
    r.chars += chunk.length;
    if (cut && r.splitLines.indexOf(first) === -1 && r.splitLines.length < this.cfg.hits_kept) r.splitLines.push(first);
    if (r.lines <= this.cfg.short_paste && this.shortChars < this.cfg.short_chars) {
      var parts = chunk.split("\n");
      for (var p = 0; p < parts.length && this.shortChars < this.cfg.short_chars; p++) {
        this.shortLines.push([first + p, parts[p]]);
        this.shortChars += M.cpLength(parts[p]) + 1;
      }
    }
    var matchable = chunk.indexOf("\r") !== -1 ? chunk.split("\r").join("\n") : chunk;
    var stamps = this.scanSignatures(chunk, matchable, first).concat(this.stampTail(chunk, first));
    this.noteStamps(stamps.sort(function (a, b) { return a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : a[2] - b[2]); }));
    if (this.lastChunk === null) {
      this.firstInformative = this.informativeLines(chunk, first, false);
      this.firstSteps = this.stepLines(chunk, first, false);
    }
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
    if (this.lastChunk !== null) {  // the first and last step-time lines, in log order (scan.py finish)
      var steps = new Map();
      this.firstSteps.concat(this.stepLines(this.lastChunk[0], this.lastChunk[1], true))
        .forEach(function (p) { steps.set(p[0][0] + ":" + p[0][1], p); });
      r.steps = Array.from(steps.values()).sort(function (a, b) { return a[0][0] - b[0][0] || a[0][1] - b[0][1]; })
        .map(function (p) { return [p[0][0], p[1]]; });
    }
    var self = this;
    this.tails.forEach(function (ht, index) {
      var head = ht[0], last = head[head.length - 1].lineNo;
      var tail = ht[1].map(function (h) { return h.stamp === undefined ? self.hit(h.lineNo, h.text) : h; });
      r.hits.set(index, head.concat(tail.filter(function (h) { return h.lineNo > last; })));
    });
    return r;
  };
  Scanner.prototype.scanSignatures = function (chunk, matchable, first) {
    var lowered = null, found = new Map(), sigs = this.e.scanRules, lines = new Map();
    this.longCounted = new Set();  // long lines of this chunk already counted (each once, whichever signatures try it)
    var held = this.literals.held(matchable), owners = this.literals.owners;
    for (var index = 0; index < sigs.length; index++) {
      var sig = sigs[index], hay = matchable;
      if (owners[index] !== null && !owners[index].some(function (id) { return held[id]; })) continue;
      if (sig.ignore_case) {
        if (lowered === null) lowered = M.asciiLower(matchable);
        hay = lowered;
      }
      var literals = sig.literals.length ? sig.literals : [""];
      for (var k = 0; k < literals.length; k++) {
        var literal = literals[k], pos = literal ? hay.indexOf(literal) : 0;
        while (pos !== -1 && pos <= matchable.length) {
          var start = pos === 0 ? 0 : matchable.lastIndexOf("\n", pos - 1) + 1;
          var end = matchable.indexOf("\n", pos);
          if (end === -1) end = matchable.length;
          var key = start + ":" + index;
          if (!found.has(key)) {
            var line = lines.get(start);
            if (line === undefined) { line = matchable.slice(start, end); lines.set(start, line); }
            var shown = this.lineVerdict(sig, line, start);
            found.set(key, shown === null ? null : [start, index, shown]);
          }
          pos = literal ? (end + 1 > matchable.length ? -1 : hay.indexOf(literal, end + 1)) : (end < matchable.length ? end + 1 : -1);
        }
      }
    }
    var hits = Array.from(found.values()).filter(Boolean).sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    var lineNo = first, cursor = 0, stamps = [];
    for (var i = 0; i < hits.length; i++) {
      lineNo += countNewlines(chunk, cursor, hits[i][0]);
      cursor = hits[i][0];
      if (this.stamped < this.cfg.stamped_hits) {  // early hits' stamps count for staleness, in line order
        this.stamped++;
        var hit = this.hit(lineNo, hits[i][2]);
        if (hit.stamp) stamps.push([lineNo, hit.stamp[0], hit.stamp[1]]);
        this.keepHit(hits[i][1], hit);
      } else this.keepHit(hits[i][1], { lineNo: lineNo, text: hits[i][2], stamp: undefined });
    }
    return stamps;
  };
  // The text to show when the signature matches this line (null when it does not). A line (or any
  // window of it) without every literal of `also` cannot match: it is passed over before the regex,
  // which here is re2js, some microseconds a line.
  Scanner.prototype.lineVerdict = function (sig, line, start) {
    if (sig.also) for (var a = 0; a < sig.also.length; a++) if (line.indexOf(sig.also[a]) === -1) return null;
    var positions = sig.literals.length ? M.literalPositions(line, sig.literals, sig.ignore_case) : [0];
    if (!positions.length) return null;
    if (this.text.isLong(line) && !this.longCounted.has(start)) { this.longCounted.add(start); this.result.longLines++; }
    return this.text.firstWindow(line, positions, function (part) { return sig.test(part); });
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
  Scanner.prototype.hit = function (lineNo, text) { return { lineNo: lineNo, text: text, stamp: this.e.parseStamp(text) }; };
  // Count every hit; keep the first hits_kept and a rolling last hits_kept, whose stamps are read
  // in finish() for the survivors only.
  Scanner.prototype.keepHit = function (index, hit) {
    var r = this.result;
    r.counts.set(index, (r.counts.get(index) || 0) + 1);
    if (!this.tails.has(index)) this.tails.set(index, [[], []]);
    var ht = this.tails.get(index), kept = this.cfg.hits_kept;
    if (ht[0].length < kept) ht[0].push(hit.stamp === undefined ? this.hit(hit.lineNo, hit.text) : hit);
    else { ht[1].push(hit); if (ht[1].length > kept) ht[1].shift(); }
  };
  // Stamps of the last lines of a chunk, read from the end: at most tail_stamps lines, and no further
  // than the stamps_wanted-th line that has a stamp.
  Scanner.prototype.stampTail = function (chunk, first) {
    var n = this.cfg.tail_stamps, want = this.cfg.stamps_wanted, lastNo = first + countNewlines(chunk, 0, chunk.length);
    var end = chunk.length, stamps = [];
    for (var back = 0; back < n && end >= 0; back++) {
      var start = chunk.lastIndexOf("\n", end - 1) + 1;
      if (end === 0) start = 0;
      var stamp = this.e.parseStamp(chunk.slice(start, Math.min(end, start + this.e.rules.timestamps.head * 4)));
      if (stamp) { stamps.push([lastNo - back, stamp[0], stamp[1]]); if (stamps.length >= want) break; }
      if (start === 0) break;
      end = start - 1;
    }
    return stamps.reverse();
  };
  // The first (or last) steps_kept step-time lines of a chunk, as [[line number, part], text]: a line
  // redrawn after carriage returns (a progress bar) holds one part per update (scan.py _steps).
  Scanner.prototype.stepLines = function (chunk, first, fromEnd) {
    var literals = this.e.stepLiterals, kept = [], limit = this.cfg.steps_kept, maxLine = this.text.maxLine;
    if (!literals.length) return kept;
    var least = Math.min.apply(null, literals.map(function (lit) { return lit.length; }));
    var lines = chunk.split("\n");
    for (var k = 0; k < lines.length; k++) {
      var i = fromEnd ? lines.length - 1 - k : k;
      if (lines[i].length < least) continue;  // too short to hold a literal (a million empty lines)
      var parts = lines[i].split("\r");
      for (var q = 0; q < parts.length; q++) {
        var part = fromEnd ? parts.length - 1 - q : q, line = parts[part];
        if (line.length < least || !literals.some(function (lit) { return line.indexOf(lit) !== -1; })) continue;
        kept.push([[first + i, part], M.sliceCp(line, 0, maxLine)]);
        if (kept.length >= limit) return kept;
      }
    }
    return kept;
  };
  // Lines too short to hold an error word are passed over without a regex test: a chunk of a
  // million empty lines took seconds (scan.py searches the whole chunk instead; same lines kept).
  Scanner.prototype.informativeLines = function (chunk, first, fromEnd) {
    var lines = chunk.split("\n"), limit = this.cfg.informative_kept, maxLine = this.text.maxLine;
    var least = this.cfg.informative_least, kept = [], seen = new Set();
    for (var k = 0; k < lines.length && kept.length < limit; k++) {
      var i = fromEnd ? lines.length - 1 - k : k;
      if (lines[i].length < least) continue;
      var parts = lines[i].split("\r");
      for (var p = 0; p < parts.length; p++) {
        if (parts[p].length < least) continue;
        var line = M.sliceCp(parts[p], 0, maxLine);
        if (!seen.has(line) && this.e.informative.test(line)) { seen.add(line); kept.push([first + i, line]); }
      }
    }
    return kept.slice(0, limit);
  };
  function countNewlines(s, from, to) {
    var n = 0, i = s.indexOf("\n", from);
    while (i !== -1 && i < to) { n++; i = s.indexOf("\n", i + 1); }
    return n;
  }

  // Chunks that end on line ends (scan.chunks): text pieces in, [normalised chunk, cut] out. Sizes
  // are in UTF-16 units here and bytes in Python; only where a giant line is cut differs.
  function Chunker(size, text) { this.size = size; this.carry = ""; this.text = text; }
  Chunker.prototype.push = function (piece, out) {
    this.carry += piece;
    while (this.carry.length > this.size) {  // as scan.chunks: at exactly size, wait for the next piece
      var cut = this.carry.lastIndexOf("\n", this.size - 1);
      if (cut !== -1) {
        out.push([this.text.normalise(this.carry.slice(0, this.carry.charAt(cut - 1) === "\r" ? cut - 1 : cut)), false]);
        this.carry = this.carry.slice(cut + 1);
        continue;
      }
      cut = this.size;
      var c = this.carry.charCodeAt(cut - 1);
      if (c >= 0xd800 && c <= 0xdbff) cut--;          // not inside a surrogate pair
      if (this.carry.charAt(cut - 1) === "\r") cut--;  // nor between the CR and LF of one line end
      out.push([this.text.normalise(this.carry.slice(0, cut)), true]);
      this.carry = this.carry.slice(cut);
    }
  };
  Chunker.prototype.end = function (out) {
    var carry = this.carry;
    if (carry.charAt(carry.length - 1) === "\n") {
      carry = carry.slice(0, -1);
      if (carry.charAt(carry.length - 1) === "\r") carry = carry.slice(0, -1);
    }
    if (carry) out.push([this.text.normalise(carry), false]);
    this.carry = "";
  };

  // The literals of all scan rules in one Aho-Corasick automaton, run as a table over the
  // characters the literals use, with A-Z read as a-z: one pass over a chunk says which literals it
  // may hold (a case-sensitive one is then looked for with indexOf, as before, and a chunk is
  // lower-cased only when a case-blind literal may be in it). It replaces one indexOf pass per
  // literal (some 450 a chunk, most of the browser's matching time) and lower-casing every chunk.
  // owners[i]: the ids of rule i's literals, or null for a rule without literals (always searched).
  function LiteralSet(rules) {
    var ids = new Map(), words = [];
    this.owners = rules.map(function (r) {
      if (!r.literals.length) return null;
      return r.literals.map(function (l) {
        var word = M.asciiLower(l);
        if (!ids.has(word)) { ids.set(word, words.length); words.push(word); }
        return ids.get(word);
      });
    });
    var classOf = new Uint16Array(65536), classes = 1;  // class 0: a character in no literal
    words.forEach(function (w) {
      for (var i = 0; i < w.length; i++) if (!classOf[w.charCodeAt(i)]) classOf[w.charCodeAt(i)] = classes++;
    });
    for (var c = 65; c <= 90; c++) classOf[c] = classOf[c + 32];  // A-Z as a-z
    var go = [], ends = [], fail = [];
    function state() { go.push(new Int32Array(classes).fill(-1)); ends.push(null); fail.push(0); return go.length - 1; }
    state();
    words.forEach(function (w, id) {
      var s = 0;
      for (var i = 0; i < w.length; i++) {
        var k = classOf[w.charCodeAt(i)];
        if (go[s][k] < 0) go[s][k] = state();
        s = go[s][k];
      }
      (ends[s] = ends[s] || []).push(id);
    });
    var queue = [], k;
    for (k = 0; k < classes; k++) {
      if (go[0][k] < 0) go[0][k] = 0; else queue.push(go[0][k]);
    }
    for (var q = 0; q < queue.length; q++) {  // breadth first: a state's failure is shallower, so done
      var s = queue[q];
      if (ends[fail[s]]) ends[s] = (ends[s] || []).concat(ends[fail[s]]);
      for (k = 0; k < classes; k++) {
        var t = go[s][k];
        if (t < 0) go[s][k] = go[fail[s]][k];
        else { fail[t] = go[fail[s]][k]; queue.push(t); }
      }
    }
    this.classOf = classOf;
    this.classes = classes;
    this.table = new Int32Array(go.length * classes);
    for (var i = 0; i < go.length; i++) this.table.set(go[i], i * classes);
    this.ends = ends;
    this.count = words.length;
  }
  // Which literals the text may hold (read with A-Z as a-z): a Uint8Array over their ids.
  LiteralSet.prototype.held = function (text) {
    var table = this.table, classes = this.classes, classOf = this.classOf, ends = this.ends;
    var held = new Uint8Array(this.count), reached = new Uint8Array(ends.length), s = 0;
    for (var i = 0; i < text.length; i++) {
      s = table[s * classes + classOf[text.charCodeAt(i)]];
      if (ends[s] !== null && !reached[s]) {
        reached[s] = 1;
        for (var j = 0; j < ends[s].length; j++) held[ends[s][j]] = 1;
      }
    }
    return held;
  };

  var api = { Scanner: Scanner, Chunker: Chunker, LiteralSet: LiteralSet };
  if (node) module.exports = api;
  else Object.assign(root.RelrefMatch = root.RelrefMatch || {}, api);
})(typeof self !== "undefined" ? self : this);
