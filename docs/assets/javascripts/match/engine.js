// Twin of generator/match/engine.py: ranking references from what the scan found. The same
// algorithm as the Python engine, over the same index; the tables (masks, regexes, weights) come
// from the index, so both sides read one definition and only the steps are written twice. The
// other steps are the twins tokenize.js, timestamps.js, hints.js and scan.js. Tests run the
// development set through both engines and compare the rankings.
// Loaded by the match worker (importScripts, after its twins) and by node (require).
(function (root) {
  "use strict";
  var node = typeof module === "object" && module.exports;
  var M = node ? Object.assign({}, require("./tokenize.js"), require("./timestamps.js"), require("./hints.js"),
                               require("./scan.js")) : root.RelrefMatch;
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
    this.tokenizer = new M.Tokenizer(rules.tokenizer);
    this.stamps = new M.Stamps(rules.timestamps);
    this.hints = new M.Hints(rules.hints);
    this.informative = new RegExp(rules.scan.informative, "i");
  }
  Engine.prototype.tokenize = function (text) { return this.tokenizer.tokenize(text); };
  Engine.prototype.parseStamp = function (line) { return this.stamps.parse(line); };



  Engine.prototype.scanner = function () { return new M.Scanner(this); };
  Engine.prototype.match = function (text, context, top) {
    var scanner = this.scanner(), chunker = new M.Chunker(this.rules.scan.chunk), chunks = [];
    chunker.push(text, chunks);
    chunker.end(chunks);
    chunks.forEach(function (c) { scanner.feed(c); });
    return this.rank(scanner.finish(), context || "", top || 5);
  };
  Engine.prototype.rank = function (scan, context, top) {
    var self = this, warnings = [], rank = this.rules.rank;
    var stale = this.staleHits(scan, this.hints.windowSeconds(context), this.hints.saysReplayed(context), warnings);
    var sample = scan.informative.map(function (p) { return p[1]; }).join("\n");
    var hints = mergeHints(this.hints.read(context), this.hints.read(sample));
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
    var fits = [], conflicts = [], unsupported = [], specificSet = this.hints.specific;
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


  var api = { Engine: Engine, Chunker: M.Chunker };
  if (typeof module === "object" && module.exports) module.exports = api;
  else Object.assign(root.RelrefMatch = root.RelrefMatch || {}, api);
})(typeof self !== "undefined" ? self : this);
