// The match engine in the browser: the same algorithm as generator/matcher.py, generator/scan.py,
// generator/tokenize.py, generator/timestamps.py and generator/hints.py, over the same index. The
// tables (masks, regexes, weights) come from the index, so both sides read one definition; only the
// steps are written twice. Tests run the development set through both and compare the rankings.
// Loaded by the Web Worker (importScripts) and by node (require) in the parity tests.
(function (root) {
  "use strict";
  var lunrLib = root.lunr || (typeof require === "function" ? require("../vendor/lunr-2.3.9.min.js") : null);

  function Engine(index, siteUrl) {
    var rules = index.rules;
    this.index = index;
    this.rules = rules;
    this.siteUrl = siteUrl || "";
    this.refs = {};
    for (var i = 0; i < index.references.length; i++) this.refs[index.references[i].id] = index.references[i];
    this.signatures = index.signatures.map(function (s) {
      return Object.assign({}, s, { regex: new RegExp(s.pattern, s.ignore_case ? "i" : "") });
    });
    this.lunr = lunrLib.Index.load(index.lunr);
    this.vocabulary = new Set(Object.keys(index.lunr.invertedIndex.reduce(function (acc, e) { acc[e[0]] = 1; return acc; }, {})));
    var tok = rules.tokenizer;
    this.mask = new RegExp(tok.masks.map(function (m) { return "(?:" + m + ")"; }).join("|"), "g");
    this.stopWords = new Set(tok.stop_words);
    this.stampForms = rules.timestamps.forms.map(function (f) { return [f[0], new RegExp(f[1])]; });
    this.informative = new RegExp(rules.scan.informative, "i");
    var h = rules.hints;
    function table(t) { return t.map(function (e) { return [e[0], new RegExp(e[1])]; }); }
    this.hintTables = { frameworks: table(h.frameworks), hardware: table(h.hardware), environments: table(h.environments) };
    this.scaleRx = new RegExp(h.scale, "g");
    this.negatedRx = new RegExp(h.negated, "g");
    this.versionRx = new RegExp(h.version, "g");
    this.windowRx = new RegExp(h.window);
    this.replayedRx = new RegExp(h.replayed);
    this.specific = new Set(h.specific_frameworks);
  }

  // ---- tokenize.py ----
  Engine.prototype.normalise = function (text) {
    return text.replace(/[^\x00-\x7f]/g, " ").replace(this.mask, " ");
  };
  Engine.prototype.tokenize = function (text) {
    var out = [], max = this.rules.tokenizer.max_token, stop = this.stopWords;
    this.normalise(text).toLowerCase().split(/[^a-z0-9_]+/).forEach(function (t) {
      t = t.replace(/^_+|_+$/g, "");
      if (t.length >= 2 && t.length <= max && !stop.has(t) && !/^[0-9]+$/.test(t)) out.push(t);
    });
    return out;
  };

  // ---- timestamps.py ----
  var MONTHS = { Jan: 1, Feb: 2, Mar: 3, Apr: 4, May: 5, Jun: 6, Jul: 7, Aug: 8, Sep: 9, Oct: 10, Nov: 11, Dec: 12 };
  function utc(y, mo, d, h, mi, s) { return Date.UTC(y, mo - 1, d, h, mi, s) / 1000; }
  var READERS = {
    iso: function (m) {
      var y = +m[1], mo = +m[2], d = +m[3];
      if (!(mo >= 1 && mo <= 12 && d >= 1 && d <= 31)) return null;
      var seconds = utc(y, mo, d, +m[4], +m[5], +m[6]) + (m[7] ? parseFloat("0." + m[7]) : 0);
      var zone = m[8];
      if (zone === undefined) return ["iso-local", seconds];
      if (zone !== "Z") {
        var sign = zone[0] === "+" ? 1 : -1, digits = zone.slice(1).replace(":", "");
        seconds -= sign * (parseInt(digits.slice(0, 2), 10) * 3600 + parseInt(digits.slice(2), 10) * 60);
      }
      return ["iso-utc", seconds];
    },
    "dmesg-T": function (m) { return ["dmesg-T", utc(+m[6], MONTHS[m[1]], +m[2], +m[3], +m[4], +m[5])]; },
    uptime: function (m) { return ["uptime", parseInt(m[1], 10) + parseInt(m[2], 10) / 1e6]; },
    syslog: function (m) { return ["syslog", ((MONTHS[m[1]] * 31 + +m[2]) * 24 + +m[3]) * 3600 + +m[4] * 60 + +m[5]]; },
    glog: function (m) {
      var mo = +m[1], d = +m[2];
      if (!(mo >= 1 && mo <= 12 && d >= 1 && d <= 31)) return null;
      return ["glog", ((mo * 31 + d) * 24 + +m[3]) * 3600 + +m[4] * 60 + +m[5] + (m[6] ? parseFloat("0." + m[6]) : 0)];
    },
  };
  Engine.prototype.parseStamp = function (line) {
    var lead = this.rules.timestamps.lead, head = line.slice(0, lead + 40), best = null;
    for (var i = 0; i < this.stampForms.length; i++) {
      var m = this.stampForms[i][1].exec(head);
      if (m && m.index <= lead && (best === null || m.index < best[1].index)) best = [this.stampForms[i][0], m];
    }
    return best ? READERS[best[0]](best[1]) : null;
  };

  // ---- hints.py ----
  Engine.prototype.readHints = function (text) {
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
  Engine.prototype.windowSeconds = function (context) {
    var m = this.windowRx.exec(context.toLowerCase());
    if (!m) return this.rules.hints.default_window;
    return parseInt(m[1], 10) * { s: 1, m: 60, h: 3600, d: 86400 }[m[2][0]];
  };

  // ---- scan.py ----
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

  // ---- matcher.py ----
  Engine.prototype.scanner = function () { return new Scanner(this); };
  Engine.prototype.match = function (text, context, top) {
    var scanner = this.scanner(), chunker = new Chunker(this.rules.scan.chunk), chunks = [];
    chunker.push(text, chunks);
    chunker.end(chunks);
    chunks.forEach(function (c) { scanner.feed(c); });
    return this.rank(scanner.finish(), context || "", top || 5);
  };
  Engine.prototype.rank = function (scan, context, top) {
    var self = this, warnings = [], rank = this.rules.rank;
    var stale = this.staleHits(scan, this.windowSeconds(context), this.replayedRx.test(context.toLowerCase()), warnings);
    var sample = scan.informative.map(function (p) { return p[1]; }).join("\n");
    var hints = mergeHints(this.readHints(context), this.readHints(sample));
    var ft = this.fullText(sample + "\n" + context), textScores = ft[0], terms = ft[1];
    var candidates = new Map();
    Array.from(scan.hits.keys()).sort(function (a, b) { return a - b; }).forEach(function (index) {
      var sig = self.signatures[index];
      if (!candidates.has(sig.ref)) candidates.set(sig.ref, []);
      candidates.get(sig.ref).push([sig, scan.hits.get(index), stale.has(index), scan.counts.get(index)]);
    });
    var listed = new Set(candidates.keys());
    Object.keys(textScores).forEach(function (ref) { if (textScores[ref] >= rank.text_floor) listed.add(ref); });
    if (stale.size) Object.keys(this.refs).forEach(function (ref) {
      if (self.refs[ref].explains.indexOf("stale-hardware-evidence") !== -1) listed.add(ref);
    });
    var matches = Array.from(listed).map(function (ref) {
      return self.score(ref, candidates.get(ref) || [], textScores[ref] || 0, terms[ref] || [], hints, stale.size > 0);
    });
    matches.sort(function (a, b) { return b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0); });
    assignConfidence(matches, this.refs, rank.strong_margin);
    matches = matches.slice(0, top);
    matches.forEach(function (m) { m.checks = self.checks(m.id); delete m._strong_evidence; delete m._lines; });
    return { confident: matches.length > 0 && matches[0].confidence === "strong", matches: matches,
             next_checks: nextChecks(matches, rank.next_checks, rank.next_checks_depth), warnings: warnings, hints: hints };
  };
  Engine.prototype.fullText = function (text) {
    var vocab = this.vocabulary, seen = new Set(), wanted = [];
    this.tokenize(text).forEach(function (t) { if (!seen.has(t)) { seen.add(t); if (vocab.has(t)) wanted.push(t); } });
    wanted = wanted.slice(0, this.rules.rank.max_terms);
    if (!wanted.length) return [{}, {}];
    // The query builder, never the query-string parser: pasted text is not query syntax.
    var results = this.lunr.query(function (q) {
      wanted.forEach(function (t) { q.term(t, { usePipeline: false, presence: lunrLib.Query.presence.OPTIONAL }); });
    });
    if (!results.length) return [{}, {}];
    var best = results[0].score, scores = {}, terms = {};
    results.forEach(function (r) { scores[r.ref] = r.score / best; terms[r.ref] = Object.keys(r.matchData.metadata).sort().slice(0, 12); });
    return [scores, terms];
  };
  Engine.prototype.score = function (refId, sigHits, textScore, terms, hints, staleFound) {
    var ref = this.refs[refId], w = this.rules.rank.weights, factor = this.rules.rank.kind_factor[ref.kind];
    var score = 0, why = [], strongEvidence = false;
    var explains = staleFound && ref.explains.indexOf("stale-hardware-evidence") !== -1;
    if (explains) {
      score += w.explains;
      why.push({ kind: "context", fit: true, text: "the paste holds stale hardware evidence, which this reference explains" });
    }
    sigHits.slice().sort(function (a, b) { return a[1][0].lineNo - b[1][0].lineNo; }).forEach(function (h) {
      var sig = h[0], hits = h[1], isStale = h[2];
      var kind = isStale ? "stale" : sig.role + (sig.shared ? "-shared" : "");
      score += w[kind] * factor;
      strongEvidence = strongEvidence || kind === "cause" || kind === "cause-shared";
      why.push({ kind: "signature", signature: sig.id, role: sig.role, shared: sig.shared, stale: isStale,
                 lines: hits.map(function (x) { return x.lineNo; }).slice(0, 10), count: h[3], text: hits[0].text.slice(0, 300) });
    });
    score += w.text * textScore;
    if (terms.length) why.push({ kind: "words", terms: terms, relevance: round(textScore, 3) });
    var fc = this.contextFit(ref, hints);
    score += w.fit * fc[0].length + w.conflict * fc[1].length;
    fc[0].forEach(function (f) { why.push({ kind: "context", fit: true, text: f }); });
    fc[1].concat(fc[2]).forEach(function (c) { why.push({ kind: "context", fit: false, text: c }); });
    var lines = new Set();
    sigHits.forEach(function (h) { h[1].forEach(function (x) { lines.add(x.lineNo); }); });
    return { id: refId, title: ref.title, url: this.siteUrl + ref.url, kind: ref.kind, confidence: "weak",
             score: round(score, 4), why: why, _strong_evidence: strongEvidence && !fc[1].length && !fc[2].length,
             _hits: (sigHits.length > 0 || explains) && !fc[1].length, _lines: lines };
  };
  Engine.prototype.checks = function (refId) {
    var ref = this.refs[refId], url = this.siteUrl + ref.url;
    var ordered = ref.checks.filter(function (c) { return c.discriminates; }).concat(ref.checks.filter(function (c) { return !c.discriminates; }));
    return ordered.slice(0, this.rules.rank.checks_per_match).map(function (c) {
      return Object.assign({}, c, { reference: refId, url: url + "#check-" + c.id });
    });
  };
  Engine.prototype.contextFit = function (ref, hints) {
    var fits = [], conflicts = [], unsupported = [], specificSet = this.specific;
    var specific = ref.specific_frameworks, seen = hints.frameworks.filter(function (f) { return specificSet.has(f); });
    var both = specific.filter(function (f) { return seen.indexOf(f) !== -1; }).sort();
    if (specific.length && !both.length) {
      if (seen.length) conflicts.push("this reference is about " + specific.slice().sort().join(", ") + "; the log or context says " + seen.slice().sort().join(", "));
      else unsupported.push("nothing in the paste or context shows " + specific.slice().sort().join(", "));
    } else if (specific.length) fits.push("framework " + both.join(", "));
    var models = ref.gpu_models, seenModels = hints.hardware;
    if (models.length && seenModels.length) {
      var common = models.filter(function (m) { return seenModels.indexOf(m) !== -1; }).sort();
      if (common.length) fits.push("hardware " + common.join(", ").toUpperCase());
      else conflicts.push("this reference is about " + models.slice().sort().join(", ").toUpperCase() + "; the log or context says " + seenModels.slice().sort().join(", ").toUpperCase());
    }
    return [fits, conflicts, unsupported];
  };
  Engine.prototype.staleHits = function (scan, window, replayed, warnings) {
    var stale = new Map(), self = this;
    Array.from(scan.hits.keys()).sort(function (a, b) { return a - b; }).forEach(function (index) {
      var sig = self.signatures[index], hits = scan.hits.get(index);
      if (!sig.hardware) return;
      var reasons = hits.map(function (h) { return staleReason(h, hits, scan, window, replayed); }).filter(Boolean);
      if (reasons.length && reasons.length === hits.length) {
        stale.set(index, true);
        warnings.push({ kind: "stale-evidence", signature: sig.id, reference: sig.ref, line: hits[0].lineNo,
                        text: "line " + hits[0].lineNo + ": " + reasons[0] + "; it cannot confirm a current hardware fault on its own" });
      }
    });
    return stale;
  };
  function staleReason(hit, hits, scan, window, replayed) {
    if (replayed) return "the context says this log is archived, replayed or an example";
    if (hit.stamp && hits.filter(function (h) { return h.text === hit.text; }).length > 1)
      return "the same hardware line repeats with the same timestamp (a replayed or concatenated log)";
    if (!hit.stamp) return null;
    var clock = hit.stamp[0], seconds = hit.stamp[1];
    if (clock === "uptime" && scan.lastBoot > hit.lineNo)
      return "kernel uptime goes backwards after this line, so it comes from an earlier boot";
    var age = scan.newest[clock] - seconds;
    if (age > window) return "hardware evidence " + duration(age) + " older than the newest line on its clock (" + clock + ")";
    return null;
  }
  function duration(s) {
    if (s >= 86400) return (s / 86400).toFixed(1) + " days";
    if (s >= 3600) return (s / 3600).toFixed(1) + " hours";
    return Math.round(s / 60) + " minutes";
  }
  function related(a, b, refs) {
    if (refs[a.id].look_alikes.indexOf(b.id) !== -1 || refs[b.id].look_alikes.indexOf(a.id) !== -1) return true;
    return Array.from(a._lines).some(function (l) { return b._lines.has(l); });
  }
  function assignConfidence(matches, refs, margin) {
    var strong = matches.filter(function (m) { return m._strong_evidence; });
    matches.forEach(function (m) {
      var hits = m._hits;
      delete m._hits;
      var blocked = strong.some(function (o) {
        return o !== m && o.score >= m.score - margin && related(m, o, refs);
      });
      if (m._strong_evidence && !blocked) m.confidence = "strong";
      else if (hits && (m.kind === "error" || m.kind === "symptom")) m.confidence = "possible";
    });
  }
  // matcher._next_checks: round robin over the candidates, so each one's best check comes early.
  function nextChecks(matches, limit, depthMax) {
    var candidates = matches.filter(function (m) { return m.confidence === "strong"; });
    if (!candidates.length) candidates = matches.filter(function (m) { return m.confidence === "possible"; });
    if (!candidates.length) candidates = matches.slice(0, 1);
    var out = [], seen = new Set();
    for (var depth = 0; depth < depthMax; depth++) {
      candidates.forEach(function (m) {
        var c = m.checks[depth];
        if (c && !seen.has(c.command || c.observation)) { seen.add(c.command || c.observation); out.push(c); }
      });
    }
    return out.slice(0, limit);
  }
  function mergeHints(a, b) {
    var out = {};
    ["frameworks", "hardware", "environments", "versions"].forEach(function (k) { out[k] = Array.from(new Set(a[k].concat(b[k]))).sort(); });
    out.scale = a.scale || b.scale;
    return out;
  }
  function round(x, digits) { var f = Math.pow(10, digits); return Math.floor(x * f + 0.5) / f; }

  var api = { Engine: Engine, Chunker: Chunker };
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.RelrefMatch = api;
})(typeof self !== "undefined" ? self : this);
