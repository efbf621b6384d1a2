// Twin of generator/match/engine.py: from what the scan found to the answer. The same algorithm as
// the Python engine, over the same index; the tables (weights, words, regexes) come from the index,
// so both sides read one definition and only the steps are written twice. The other steps are the
// twins dialect.js, text.js, tokenize.js, timestamps.js, hints.js, readings.js and scan.js. Tests run the
// development set through both engines and compare the answers.
// Loaded by the match worker (importScripts, after its twins) and by node (require).
(function (root) {
  "use strict";
  var node = typeof module === "object" && module.exports;
  var M = node ? Object.assign({}, require("./dialect.js"), require("./text.js"), require("./tokenize.js"),
                               require("./timestamps.js"), require("./hints.js"), require("./readings.js"),
                               require("./scan.js")) : root.RelrefMatch;
  var lunrLib = root.lunr || (typeof require === "function" ? require("../vendor/lunr-2.3.9.min.js") : null);

  // The lunr index as the match index carries it (each field's term counts, and the sorted terms):
  // rebuilt into what lunr's Index.load reads, the weights computed as lunr.py's builder does, in
  // the same order of operations so that both engines get the same doubles. Twin of
  // generator/match/lunr_form.py `expand`.
  var K1 = 1.2, B = 0.75, SCORE_DIGITS = 2;
  function expandLunr(carried) {
    var fields = carried.fields, refs = carried.refs, boosts = carried.boosts;
    var postings = carried.terms.map(function () {
      var p = {};
      fields.forEach(function (f) { p[f] = {}; });
      return p;
    });
    var held = carried.terms.map(function () { return 0; });
    var total = fields.map(function () { return 0; }), seen = total.slice();
    var read = carried.vectors.map(function (v) {
      var field = fields[v[0]], ref = refs[v[1]], steps = v[2], pairs = [], term = 0, length = 0;
      for (var i = 0; i < steps.length; i += 2) {  // each term number is written as the step from the one before
        term += steps[i];
        pairs.push([term, steps[i + 1]]);
        postings[term][field][ref] = {};
        held[term] += 1;
        length += steps[i + 1];
      }
      total[v[0]] += length;
      seen[v[0]] += 1;
      return [v[0], field + "/" + ref, length, pairs];
    });
    var average = total.map(function (t, i) { return seen[i] ? t / seen[i] : 0; });
    var count = refs.length;
    var idf = held.map(function (h) { return Math.log(1 + Math.abs((count - h + 0.5) / (h + 0.5))); });
    var vectors = read.map(function (r) {
      var norm = K1 * (1 - B + B * (r[2] / average[r[0]])), boost = boosts[r[0]], elements = [];
      r[3].forEach(function (p) {
        var score = idf[p[0]] * ((K1 + 1) * p[1]) / (norm + p[1]) * boost;
        elements.push(p[0], pyRound(pyRound(score, 3), SCORE_DIGITS));
      });
      return [r[1], elements];
    });
    var inverted = carried.terms.map(function (term, i) { postings[i]._index = i; return [term, postings[i]]; });
    return { version: carried.version, fields: fields, fieldVectors: vectors, invertedIndex: inverted, pipeline: carried.pipeline };
  }

  // Python's round(x, digits): the nearest decimal, and on an exact tie (0.125 is exact in binary)
  // the even one. toFixed rounds a tie up, so a possible tie is confirmed on the exact expansion
  // (toFixed(100) is exact for the weights' magnitudes).
  function pyRound(x, digits) {
    var scale = Math.pow(10, digits), fixed = x.toFixed(digits), frac = Math.abs(x * scale) % 1;
    if (Math.abs(frac - 0.5) > 1e-6) return Number(fixed);
    var exact = x.toFixed(100), rest = exact.slice(exact.indexOf(".") + 1 + digits);
    if (rest.charAt(0) !== "5" || Number(rest.slice(1) || "0") !== 0) return Number(fixed);  // not "5" then zeros: no tie
    var k = Math.round(Math.abs(Number(fixed)) * scale);  // the integer toFixed chose, away from zero
    if (k % 2 !== 0) k -= 1;
    return (x < 0 ? -k : k) / scale;
  }

  function Engine(index, siteUrl) {
    var rules = index.rules;
    this.index = index;
    this.rules = rules;
    this.siteUrl = siteUrl || "";
    var expanded = expandPositions(index);
    this.refs = expanded.refs;
    // Each signature is compiled when a line first holds one of its literals: most never meet
    // one in a given paste, and compiling them all was most of the engine's start (scan.py rules).
    function withTest(s) {
      var test = null;
      return Object.assign({}, s, { test: function (line) {
        if (test === null) test = new M.Signature(s.pattern, s.ignore_case, s.unless);
        return test.test(line);
      } });
    }
    var defaults = rules.scan.signature_defaults;  // the index leaves out fields that hold these
    this.signatures = expanded.signatures.map(function (s) { return withTest(Object.assign({}, defaults, s)); });
    var codes = index.codes || {};
    this.codeEntries = codes.entries || {};
    this.codeAliases = codes.aliases || {};
    this.codeTexts = codes.texts || {};
    this.codeNames = codes.names || {};
    this.codeKindOf = codes.kind_of || {};
    this.detectors = (codes.detectors || []).map(function (d) { return Object.assign(withTest(d), { rule: M.compileRule(d.pattern, d.ignore_case) }); });
    // Code detectors ride along in the scan after the signatures: one pass finds both. The scan
    // also keeps a sample of step-time lines, those holding a literal of the step forms.
    this.scanRules = this.signatures.concat(this.detectors);
    this.stepLiterals = [].concat.apply([], rules.readings.steps.map(function (s) { return s.literals; }));
    this.lunr = lunrLib.Index.load(expandLunr(index.lunr));
    this.vocabulary = new Set(index.lunr.terms);
    this.text = new M.Text(rules.text);
    this.tokenizer = new M.Tokenizer(rules.tokenizer);
    this.stamps = new M.Stamps(rules.timestamps);
    this.hints = new M.Hints(rules.hints);
    this.readings = new M.Readings(rules.readings);
    this.informative = M.compileRule(rules.scan.informative, true);
    this.causeIdf = causeIdf(this.refs);
  }
  // How rare each word is among all causes' words: a word shared by many causes tells none apart.
  function causeIdf(refs) {
    var df = {}, n = 0;
    Object.keys(refs).forEach(function (id) {
      var terms = refs[id].cause_terms;
      Object.keys(terms).forEach(function (cid) { n++; terms[cid].forEach(function (t) { df[t] = (df[t] || 0) + 1; }); });
    });
    var idf = {};
    Object.keys(df).forEach(function (t) { idf[t] = Math.log(n / df[t]); });
    return idf;
  }
  Engine.prototype.tokenize = function (text) { return this.tokenizer.tokenize(text); };
  Engine.prototype.parseStamp = function (line) { return this.stamps.parse(line); };
  Engine.prototype.scanner = function () { return new M.Scanner(this); };
  Engine.prototype.literalSet = function () {  // built on the first scan, then kept
    if (!this.literals) this.literals = new M.LiteralSet(this.scanRules);
    return this.literals;
  };
  Engine.prototype.chunker = function () { return new M.Chunker(this.rules.scan.chunk, this.text); };

  Engine.prototype.match = function (text, context, top) {
    var scanner = this.scanner(), chunker = this.chunker(), chunks = [];
    chunker.push(text, chunks);
    chunker.end(chunks);
    chunks.forEach(function (c) { scanner.feed(c[0], c[1]); });
    return this.rank(scanner.finish(), context || "", top || 5);
  };

  Engine.prototype.rank = function (scan, context, top) {
    var self = this, rank = this.rules.rank, w = rank.weights, most = rank.relevance_chars;
    context = M.sliceCp(this.text.normalise(context), 0, most);
    var warnings = scanWarnings(scan);
    var cues = this.hints.readCues(context);
    var replay = cues.filter(function (c) { return c.kind === "replay" && c.negated_by === null; });
    var markers = this.markers(scan);
    var stale = this.staleHits(scan, this.hints.windowSeconds(context), replay, markers, warnings);
    var sample = M.sliceCp(scan.informative.map(function (p) { return p[1]; }).join("\n"), 0, most);
    var hitTexts = [], seenText = new Set();
    var nsig = this.signatures.length;
    Array.from(scan.hits.keys()).sort(function (a, b) { return a - b; }).forEach(function (index) {
      if (index >= nsig) return;
      scan.hits.get(index).forEach(function (h) { if (!seenText.has(h.text)) { seenText.add(h.text); hitTexts.push(h.text); } });
    });
    var hitLines = M.sliceCp(hitTexts.join("\n"), 0, most);
    var hints = mergeHints(this.hints.read(context), this.hints.read(sample + "\n" + hitLines));
    var ft = this.fullText(hitLines, sample, context), textScores = ft[0], terms = ft[1];
    var spoken = new Map();  // term -> the word the paste or context wrote for it
    this.tokenizer.tokenizeWords(hitLines + "\n" + sample + "\n" + context).forEach(function (p) { if (!spoken.has(p[0])) spoken.set(p[0], p[1]); });
    var hitWords = new Set(this.tokenize(hitLines));
    var said = new Set(this.tokenize(hitLines + "\n" + sample + "\n" + context));  // for telling causes apart
    var codes = this.codes(scan);
    var readings = this.readLines(scan);
    var candidates = new Map();
    Array.from(scan.hits.keys()).sort(function (a, b) { return a - b; }).forEach(function (index) {
      if (index >= nsig) return;
      var sig = self.signatures[index];
      if (!candidates.has(sig.ref)) candidates.set(sig.ref, []);
      candidates.get(sig.ref).push([sig, scan.hits.get(index), stale.has(index), scan.counts.get(index)]);
    });
    var condition = stale.size > 0 || replay.length > 0 || markers.length > 0;
    var listed = new Set(candidates.keys());
    Object.keys(textScores).forEach(function (ref) {
      if (textScores[ref] >= rank.text_floor && (terms[ref] || []).length >= rank.min_terms) listed.add(ref);
    });
    if (condition) Object.keys(this.refs).forEach(function (ref) { if (self.refs[ref].explains.indexOf(rank.condition) !== -1) listed.add(ref); });
    var liveCues = cues.filter(function (c) { return c.negated_by === null; });
    // A cue brings up the references it speaks for, if the paste touches them at all; a reading,
    // which read the paste's own lines, always does.
    liveCues.forEach(function (cue) {
      cue.supports.forEach(function (ref) {
        if (self.refs[ref] && actsOn(cue, ref, candidates) && (candidates.has(ref) || (textScores[ref] || 0) > 0)) listed.add(ref);
      });
    });
    readings.forEach(function (r) { r.supports.forEach(function (ref) { if (self.refs[ref]) listed.add(ref); }); });
    var scored = Array.from(listed).map(function (ref) {
      var acting = liveCues.filter(function (c) { return actsOn(c, ref, candidates); });
      return self.score(ref, candidates.get(ref) || [], textScores[ref] || 0, terms[ref] || [], hints, condition, acting, readings, hitWords, spoken, said);
    }).filter(Boolean);
    scored.sort(function (a, b) { return b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0); });
    var kinds = rank.candidate_kinds;
    var matches = scored.filter(function (m) { return kinds.indexOf(m.kind) !== -1; });
    var further = scored.filter(function (m) {
      return kinds.indexOf(m.kind) === -1 && (m._lines.size > 0 || (textScores[m.id] || 0) >= rank.further_floor);
    });
    assignConfidence(matches, this.refs, rank.strong_margin);
    var cued = new Set();
    liveCues.forEach(function (cue) {  // a cue speaks for the references it supports or names causes of
      cue.supports.concat(Object.keys(cue.causes || {})).forEach(function (ref) {
        if (actsOn(cue, ref, candidates)) cued.add(ref);
      });
    });
    var decided = applyCodeRules(matches, codes, candidates, this.refs, this.rules.rank.hardware_categories, cued);
    // What a line's numbers say leads before "check the program first" (engine.py rank).
    var read = readings.length ? "Read from line " + readings[0].line + ": " + readings[0].reason + "." : "";
    var lead = decided[1] ? decided[0] : read || decided[0];
    var verdict = matches.length && matches[0].confidence === "strong" ? "confident" :
      matches.some(function (m) { return m.confidence !== "weak"; }) ? "ambiguous" : "none";
    matches = verdict === "none" ? matches.slice(0, rank.weak_shown) : matches.slice(0, top);
    var findings = verdict !== "none" ? this.findings(matches) : [];
    matches.concat(further).forEach(function (m) { m.checks = self.checks(m); });
    var nextChecks = verdict === "none" ? [] : this.nextChecks(matches, verdict);
    further = further.slice(0, rank.further_shown);
    matches.concat(further).forEach(function (m) { delete m._strong_evidence; delete m._lines; delete m._hits; delete m._cause_lines; });
    return { schema_version: rank.schema_version, engine_version: rank.engine_version, index_version: this.index.version || "",
             verdict: verdict, confident: verdict === "confident", answer: (lead ? lead + " " : "") + answerSentence(verdict, matches),
             matches: matches, further_reading: further, next_checks: nextChecks, findings: findings, codes: codes,
             warnings: warnings, hints: hints, cues: cues.map(cueJson),
             readings: readings.map(function (r) { return { id: r.id, line: r.line, text: r.text, reason: r.reason }; }) };
  };

  // What the numbers of the matched lines say, first line first, one reading of each kind.
  Engine.prototype.readLines = function (scan) {
    var nsig = this.signatures.length, hits = [];
    scan.hits.forEach(function (list, index) { if (index < nsig) hits = hits.concat(list); });
    var first = new Map();
    this.readings.read(hits).forEach(function (r) { if (!first.has(r.id)) first.set(r.id, r); });
    return Array.from(first.values()).concat(this.readings.ofSteps(scan.steps));
  };

  // Whether a cue acts on a reference: a phase cue (needs_lines) only on one a line matched (engine.py _acts_on).
  function actsOn(cue, ref, candidates) { return candidates.has(ref) || !cue.needs_lines; }

  function cueJson(c) {
    return { id: c.id, kind: c.kind, text: c.text, reason: c.reason, negated: c.negated_by !== null, negated_by: c.negated_by || "" };
  }

  // The codes the paste names, each with its meaning, what to do and its page, first line first.
  Engine.prototype.codes = function (scan) {
    var self = this, nsig = this.signatures.length, found = new Map();
    Array.from(scan.hits.keys()).sort(function (a, b) { return a - b; }).forEach(function (index) {
      if (index < nsig) return;
      var d = self.detectors[index - nsig];
      scan.hits.get(index).forEach(function (hit) {
        d.rule.all(hit.text).forEach(function (m) {
          var key = self.codeKey(d.kind, m[1]), entry = key ? self.codeEntries[key] : undefined;
          if (entry === undefined) return;
          if (!found.has(key)) found.set(key, self.codeEntry(key, entry));
          found.get(key).lines.push(hit.lineNo);
        });
      });
    });
    var out = Array.from(found.values());
    out.forEach(function (e) { e.lines = Array.from(new Set(e.lines)).sort(function (a, b) { return a - b; }).slice(0, 10); });
    out.sort(function (a, b) { return a.lines[0] - b.lines[0] || cmp(a.kind, b.kind) || cmp(a.code, b.code); });
    return out.slice(0, this.rules.rank.max_codes);
  };
  // A code's entry as the result shows it: the index leaves out its key's parts and the usual
  // values (generator/match/index.py _codes).
  Engine.prototype.codeEntry = function (key, entry) {
    var at = key.indexOf(":"), code = key.slice(at + 1);
    return { kind: key.slice(0, at), code: code, name: "name" in entry ? entry.name : code, gloss: entry.gloss,
             "class": entry["class"], recovery: "recovery" in entry ? entry.recovery : "",
             references: entry.references || [], url: this.siteUrl + codeLink(key.slice(0, at), code, entry.url), lines: [] };
  };
  // The references (by id) and signatures with what the index leaves out put back: a reference's
  // URL, its checks in full, and ids where the index gives positions (a signature's causes in its
  // reference's cause order, a cause's checks in the checks' order). Twin of engine.py expand_positions.
  function expandPositions(index) {
    var refs = {};
    index.references.forEach(function (r) {
      var causes = Object.keys(r.cause_titles), checks = r.checks.map(function (c) { return c.id; }), byCause = {};
      Object.keys(r.cause_checks).forEach(function (cid) { byCause[cid] = r.cause_checks[cid].map(function (i) { return checks[i]; }); });
      refs[r.id] = Object.assign({}, r, { url: "references/" + r.id + "/", cause_checks: byCause,
        checks: r.checks.map(function (c) { return checkInFull(c, causes.length); }) });
    });
    var signatures = index.signatures.map(function (s) {
      if (!s.causes || !s.causes.length) return s;
      var causes = Object.keys(refs[s.ref].cause_titles);
      return Object.assign({}, s, { causes: s.causes.map(function (i) { return causes[i]; }) });
    });
    return { refs: refs, signatures: signatures };
  }
  // A check with the fields the index leaves out put back: empty ones, and whether it tells causes
  // apart (it rules one out, or confirms fewer than all of them). Twin of engine.py check_in_full.
  function checkInFull(c, causes) {
    var full = { id: c.id, title: c.title, command: c.command || "", observation: c.observation || "", how_to_read: c.how_to_read,
                 confirms: c.confirms || [], rules_out: c.rules_out || [] };
    full.discriminates = full.rules_out.length > 0 || new Set(full.confirms).size < causes;
    return full;
  }
  // A code's link from the site root: the index gives it, or "/" for the code's own page, or
  // nothing for its row of the family's page. Twin of engine.py code_link.
  function codeLink(kind, code, url) {
    return url === undefined ? "codes/" + kind + "/#" + kind + "-" + code : url === "/" ? "codes/" + kind + "/" + code + "/" : url;
  }
  function cmp(a, b) { return a < b ? -1 : a > b ? 1 : 0; }
  Engine.prototype.codeKey = function (kind, printed) {
    var family = this.codeKindOf[kind] || kind, name;
    if (this.codeNames[kind]) name = this.codeNames[kind][printed];
    else if (this.codeTexts[family] && kind !== family) {
      var best = null;
      Object.keys(this.codeTexts[family]).forEach(function (t) { if (printed.indexOf(t) === 0 && (best === null || t.length > best.length)) best = t; });
      name = best === null ? undefined : this.codeTexts[family][best];
    } else name = printed;
    if (name === undefined || name === null) return null;
    var key = family + ":" + name;
    return this.codeAliases[key] || key;
  };

  // Field-weighted relevance of each reference to the paste's words (matched lines first, then the
  // informative lines) and to the context's words, weighted apart.
  Engine.prototype.fullText = function (hitLines, sample, context) {
    var vocab = this.vocabulary, seen = new Set(), wanted = [], max = this.rules.rank.max_terms, self = this;
    [[1, hitLines], [1, sample], [this.rules.rank.context_boost, context]].forEach(function (pair) {
      self.tokenize(pair[1]).forEach(function (t) {
        if (vocab.has(t) && !seen.has(t) && wanted.length < max) { seen.add(t); wanted.push([t, pair[0]]); }
      });
    });
    if (!wanted.length) return [{}, {}];
    // The query builder, never the query-string parser: pasted text is not query syntax.
    var results = this.lunr.query(function (q) {
      wanted.forEach(function (p) { q.term(p[0], { usePipeline: false, boost: p[1], presence: lunrLib.Query.presence.OPTIONAL }); });
    });
    if (!results.length) return [{}, {}];
    var best = results[0].score, scores = {}, terms = {};
    results.forEach(function (r) { scores[r.ref] = r.score / best; terms[r.ref] = Object.keys(r.matchData.metadata).sort(); });
    return [scores, terms];
  };

  Engine.prototype.score = function (refId, sigHits, textScore, terms, hints, condition, cues, readings, hitWords, spoken, said) {
    var ref = this.refs[refId], rank = this.rules.rank, w = rank.weights, factor = rank.kind_factor[ref.kind];
    var isCondition = ref.explains.indexOf(rank.condition) !== -1;
    var score = 0, why = [], strongEvidence = false, causeWeight = new Map(), ownLine = false;
    if (isCondition) {
      if (!condition) return null;  // it explains a condition the paste does not show
      score += w.explains;
      why.push({ kind: "context", fit: true, text: "the paste holds stale or replayed hardware evidence, which this reference explains" });
    }
    sigHits.slice().sort(function (a, b) { return a[1][0].lineNo - b[1][0].lineNo; }).forEach(function (h) {
      var sig = h[0], hits = h[1], isStale = h[2];
      var kind = isStale ? "stale" : sig.role + (sig.shared ? "-shared" : "");
      if (!isCondition) score += w[kind] * factor;
      strongEvidence = strongEvidence || kind === "cause" || kind === "cause-shared";
      ownLine = ownLine || kind === "cause";
      if (!isStale) (sig.causes || []).forEach(function (cid, place) {
        var prev = causeWeight.get(cid) || [0, [], sig.id, place];
        causeWeight.set(cid, [prev[0] + w[kind], prev[1].concat(hits.map(function (x) { return x.lineNo; })), prev[2],
                              Math.min(prev[3], place)]);
      });
      why.push({ kind: "signature", signature: sig.id, role: sig.role, shared: sig.shared, stale: isStale,
                 lines: hits.map(function (x) { return x.lineNo; }).slice(0, 10), count: h[3], text: M.sliceCp(hits[0].text, 0, 300) });
    });
    if (!isCondition || condition) score += w.text * textScore;
    var say = function (t) { return spoken.has(t) ? spoken.get(t) : t; };
    var shown = (sigHits.length ? terms.filter(function (t) { return hitWords.has(t); }) : terms).map(say);
    if (shown.length) why.push({ kind: "words", terms: shown.slice(0, rank.words_shown), relevance: round(textScore, 3) });
    var fc = this.contextFit(ref, hints), fits = fc[0], conflicts = fc[1], unsupported = fc[2];
    // The framework and hardware fits weigh here; a cue's own weight is added where it is read.
    score += w.fit * fits.length + w.conflict * conflicts.length;
    var models = ref.gpu_models;
    if (models.length && !models.some(function (m) { return hints.hardware.indexOf(m) !== -1; }) && !ownLine) {
      score += w["hardware-unshown"];
      unsupported.push("nothing in the paste or context shows " + models.slice().sort().join(", ").toUpperCase() +
                       ", and no line only this reference explains");
    }
    var cued = [];
    cues.forEach(function (cue) {
      if (cue.against.indexOf(refId) !== -1) {
        score += w["cue-against"];
        conflicts.push("the context says \"" + cue.text + "\" (" + cue.id + "): " + cue.reason);
      } else if (cue.supports.indexOf(refId) !== -1) {
        score += w["cue-support"];
        fits.push("the context says \"" + cue.text + "\" (" + cue.id + "): " + cue.reason);
      }
      ((cue.causes || {})[refId] || []).forEach(function (cid) {
        if (causeWeight.has(cid)) {
          var prev = causeWeight.get(cid);
          causeWeight.set(cid, [prev[0] + w["cue-support"], prev[1], prev[2], prev[3]]);
        } else {
          cued.push(cid);  // after the causes the lines name, before those the paste's words suggest
        }
        fits.push("the context says \"" + cue.text + "\" (" + cue.id + "): " + cue.reason + "; cause " + cid + " comes first");
      });
    });
    var readFor = false;  // a reading that speaks for a reference makes it a candidate, as a line would
    readings.forEach(function (r) {  // like a cue, but a reading against a reference leaves it a candidate
      var saidSo = "line " + r.line + " says \"" + r.text + "\" (" + r.id + "): " + r.reason;
      if (r.against.indexOf(refId) !== -1) {
        score += w["reading-against"];
        unsupported.push(saidSo);
      } else if (r.supports.indexOf(refId) !== -1) {
        score += w["reading-support"];
        fits.push(saidSo);
        readFor = true;
        (r.causes[refId] || []).forEach(function (cid, place) {
          var prev = causeWeight.get(cid) || [0, [], r.id, place];
          causeWeight.set(cid, [prev[0] + w["reading-support"], prev[1].concat([r.line]), prev[2], Math.min(prev[3], place)]);
        });
      }
    });
    fits.forEach(function (f) { why.push({ kind: "context", fit: true, text: f }); });
    conflicts.concat(unsupported).forEach(function (c) { why.push({ kind: "context", fit: false, text: c }); });
    var lines = new Set(), causeLines = new Set();
    sigHits.forEach(function (h) {
      h[1].forEach(function (x) { lines.add(x.lineNo); if (h[0].role === "cause" && !h[2]) causeLines.add(x.lineNo); });
    });
    var causes = this.causes(ref, causeWeight, said, cued);
    return { id: refId, title: ref.title, url: this.siteUrl + ref.url, kind: ref.kind, confidence: "weak",
             score: round(score, 4), causes: causes, why: why,
             _strong_evidence: strongEvidence && !conflicts.length && !unsupported.length,
             _hits: (sigHits.length > 0 || isCondition || readFor) && !conflicts.length, _lines: lines,
             _cause_lines: Array.from(causeLines).sort(function (a, b) { return a - b; }) };
  };

  // The causes the answer names: those the matched lines point at (most evidence first, then the
  // paste's words), then causes no line tells apart whose words stand out in the paste (basis "words").
  Engine.prototype.causes = function (ref, causeWeight, said, cued) {
    var idf = this.causeIdf, rank = this.rules.rank, words = {};
    Object.keys(ref.cause_terms).forEach(function (cid) {
      var s = 0;
      ref.cause_terms[cid].forEach(function (t) { if (said.has(t)) s += idf[t]; });
      words[cid] = round(s, 4);
    });
    var named = Array.from(causeWeight.entries()).sort(function (a, b) {
      // The weight of the lines first, then the signature's own order (it lists the causes of
      // its message most likely first), then the paste's words for them, then the earliest line.
      return b[1][0] - a[1][0] || a[1][3] - b[1][3] || words[b[0]] - words[a[0]] ||
        Math.min.apply(null, a[1][1]) - Math.min.apply(null, b[1][1]) || cmp(a[0], b[0]);
    });
    var out = named.map(function (e) {
      var uniq = Array.from(new Set(e[1][1])).sort(function (x, y) { return x - y; }).slice(0, 10);
      return { id: e[0], title: ref.cause_titles[e[0]], basis: "line", signature: e[1][2], lines: uniq };
    });
    var byContext = new Set();
    cued.forEach(function (cid) {
      if (byContext.has(cid) || !(cid in ref.cause_titles)) return;
      byContext.add(cid);
      out.push({ id: cid, title: ref.cause_titles[cid], basis: "context", signature: "", lines: [] });
    });
    var rest = Object.keys(words).filter(function (cid) {
      return !causeWeight.has(cid) && !byContext.has(cid) && words[cid] >= rank.cause_words_floor;
    })
      .sort(function (a, b) { return words[b] - words[a] || cmp(a, b); });
    rest.slice(0, rank.causes_by_words).forEach(function (cid) {
      out.push({ id: cid, title: ref.cause_titles[cid], basis: "words", signature: "", lines: [] });
    });
    return out;
  };

  // The reference's checks for the causes its lines point at first, then those that tell candidates
  // apart (they confirm some causes and rule out others), then the rest.
  Engine.prototype.checksFor = function (match) {
    var ref = this.refs[match.id], order = [];
    match.causes.forEach(function (c) { (ref.cause_checks[c.id] || []).forEach(function (k) { if (order.indexOf(k) === -1) order.push(k); }); });
    var first = [];
    order.forEach(function (k) { ref.checks.forEach(function (c) { if (c.id === k) first.push(c); }); });
    var rest = ref.checks.filter(function (c) { return first.indexOf(c) === -1; });
    return first.concat(rest.filter(function (c) { return c.discriminates; }), rest.filter(function (c) { return !c.discriminates; }));
  };
  Engine.prototype.checkEntry = function (refId, c) {
    return Object.assign({}, c, { reference: refId, url: this.siteUrl + this.refs[refId].url + "#check-" + c.id });
  };
  Engine.prototype.checks = function (match) {
    var self = this;
    return this.checksFor(match).slice(0, this.rules.rank.checks_per_match).map(function (c) { return self.checkEntry(match.id, c); });
  };
  // Round robin over the candidates (the strong one, else the possible ones), so each one's best check comes early.
  Engine.prototype.nextChecks = function (matches, verdict) {
    var rank = this.rules.rank;
    var candidates = verdict === "confident" ? matches.filter(function (m) { return m.confidence === "strong"; }).slice(0, 1) :
      matches.filter(function (m) { return m.confidence === "possible"; });
    var depthMax = verdict !== "confident" ? rank.next_checks_depth : rank.checks_per_match;
    var out = [], seen = new Set();
    for (var depth = 0; depth < depthMax; depth++) {
      candidates.forEach(function (m) {
        var c = m.checks[depth];
        if (c && !seen.has(c.command || c.observation)) { seen.add(c.command || c.observation); out.push(c); }
      });
    }
    return out.slice(0, rank.next_checks);
  };
  // Two unrelated failures: candidates whose lines name a fault, grouped so that references sharing
  // lines or listed as look-alikes stay together; one finding per group when there are two or more.
  Engine.prototype.findings = function (matches) {
    var self = this, groups = [];
    matches.filter(function (m) { return m.confidence !== "weak" && m._strong_evidence; }).forEach(function (m) {
      var home = null;
      for (var i = 0; i < groups.length && home === null; i++) {
        if (groups[i].some(function (o) { return related(m, o, self.refs); })) home = groups[i];
      }
      if (home === null) groups.push([m]); else home.push(m);
    });
    if (groups.length < 2) return [];
    var depth = this.rules.rank.next_checks_depth;
    return groups.map(function (group) {
      var lead = group[0];
      return { matches: group.map(function (m) { return { id: m.id, title: m.title, url: m.url }; }),
               causes: lead.causes, lines: Array.from(lead._lines).sort(function (a, b) { return a - b; }).slice(0, 10),
               answer: lead.title + (lead.causes.length ? " — cause " + lead.causes[0].title : ""),
               next_checks: self.checksFor(lead).map(function (c) { return self.checkEntry(lead.id, c); }).slice(0, depth) };
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

  // Lines that mark the paste as test output (engine.py _markers).
  Engine.prototype.markers = function (scan) {
    var self = this;
    return Array.from(scan.hits.keys()).sort(function (a, b) { return a - b; }).filter(function (index) {
      return index < self.signatures.length && self.signatures[index].marks;
    }).map(function (index) { return [self.signatures[index], scan.hits.get(index)[0]]; });
  };
  Engine.prototype.staleHits = function (scan, window, replay, markers, warnings) {
    var stale = new Map(), self = this;
    Array.from(scan.hits.keys()).sort(function (a, b) { return a - b; }).forEach(function (index) {
      var sig = self.signatures[index], hits = scan.hits.get(index);
      if (index >= self.signatures.length || !sig.hardware) return;
      var reasons = hits.map(function (h) { return staleReason(h, hits, scan, window, replay, markers); }).filter(Boolean);
      if (reasons.length && reasons.length === hits.length) {
        stale.set(index, true);
        warnings.push({ kind: "stale-evidence", signature: sig.id, reference: sig.ref, line: hits[0].lineNo,
                        text: "line " + hits[0].lineNo + ": " + reasons[0] + "; it cannot confirm a current hardware fault on its own" });
      }
    });
    return stale;
  };
  // Whether a stamp tells lines of one second apart (engine.py _sub_second): the same line can be
  // printed several times within one whole-second stamp.
  function subSecond(stamp) { return stamp[0] === "uptime" || stamp[1] % 1 !== 0; }

  function staleReason(hit, hits, scan, window, replay, markers) {
    if (replay.length) return "the context says \"" + replay[0].text + "\" (" + replay[0].id + "): " + replay[0].reason;
    if (markers.length)
      return "line " + markers[0][1].lineNo + " (" + markers[0][0].id + ") shows the paste is test or replayed output, not a live fault";
    if (hit.stamp && subSecond(hit.stamp) && hits.filter(function (h) { return h.text === hit.text; }).length > 1)
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
  function scanWarnings(scan) {
    if (!scan.splitLines.length) return [];
    var line = scan.splitLines[0];
    return [{ kind: "long-line", line: line, text: "line " + line + " is longer than a chunk (1 MiB); a message across a cut in it may be missed" }];
  }
  // What the codes decide, and the sentence that leads the answer when they do (engine.py _apply_code_rules).
  // [the sentence the codes would lead with, whether a signal decided the ranking] (engine.py).
  function applyCodeRules(matches, codes, candidates, refs, hardwareCategories, cued) {
    if (!matches.length || !codes.length) return ["", false];
    var application = codes.filter(function (c) { return c.class === "application"; });
    var appLines = new Set();
    application.forEach(function (c) { c.lines.forEach(function (l) { appLines.add(l); }); });
    var top = matches[0];
    // "Check the program first" holds back a verdict on the GPU, not one on memory: a CUDA
    // out-of-memory error can make the OOM reference strong.
    if (top.confidence === "strong" && hardwareCategories.indexOf(refs[top.id].category) !== -1 &&
        top._cause_lines.length && top._cause_lines.every(function (l) { return appLines.has(l); }))
      top.confidence = "possible";
    // The signal named last is the dying process's (torchrun first sends SIGTERM to the survivors).
    var signals = codes.filter(function (c) { return c.kind === "signal"; })
      .sort(function (a, b) { return b.lines[b.lines.length - 1] - a.lines[a.lines.length - 1]; });
    var hitLines = new Set(), signalLines = new Set();
    candidates.forEach(function (list) { list.forEach(function (h) { h[1].forEach(function (x) { hitLines.add(x.lineNo); }); }); });
    signals.forEach(function (c) { c.lines.forEach(function (l) { signalLines.add(l); }); });
    if (signals.length && hitLines.size && Array.from(hitLines).every(function (l) { return signalLines.has(l); })) {
      var order = {};
      signals[0].references.forEach(function (ref, i) { order[ref] = i; });
      var rankOf = function (m) { return order.hasOwnProperty(m.id) ? order[m.id] : signals[0].references.length; };
      // A line that names where the signal landed (a DataLoader worker) is the reference's own
      // cause line: it leads, and may stay strong; the code table's order ranks the rest, those
      // with a matched line before those the paste touches by words only.
      var ownLine = function (m) { return m._cause_lines.length ? 0 : 1; };
      var anyLine = function (m) { return m._lines.size ? 0 : 1; };
      var notCued = function (m) { return cued.has(m.id) ? 0 : 1; };  // a context cue speaks for it (engine.py)
      matches.sort(function (a, b) {
        return ownLine(a) - ownLine(b) || anyLine(a) - anyLine(b) || notCued(a) - notCued(b) || rankOf(a) - rankOf(b) ||
          b.score - a.score || cmp(a.id, b.id);
      });
      matches.forEach(function (m, i) { if (m.confidence === "strong" && !(i === 0 && m._cause_lines.length)) m.confidence = "possible"; });
      return [codeTitle(signals[0]) + ": " + signals[0].gloss, true];
    }
    if (application.length && top.confidence !== "strong")
      return [codeTitle(application[0]) + " is usually an application error: check the program first.", false];
    return ["", false];
  }
  function codeTitle(code) {
    if (code.kind === "xid") return "Xid " + code.code + " (" + code.name + ")";
    if (code.kind === "sxid") return "SXid " + code.code + " (" + code.name + ")";
    return code.name;
  }
  function answerSentence(verdict, matches) {
    if (verdict === "confident") {
      var top = matches[0], cause = top.causes.length && top.causes[0].basis === "line" ? top.causes[0] : null, line = null;
      for (var i = 0; i < top.why.length && line === null; i++) if (top.why[i].kind === "signature" && !top.why[i].stale) line = top.why[i].lines[0];
      var text = "Most likely: " + top.title + (cause ? " — cause: " + cause.title : "");
      return text + (line !== null ? " (line " + line + " names it)." : ".");
    }
    if (verdict === "ambiguous") {
      var n = matches.filter(function (m) { return m.confidence !== "weak"; }).length;
      return "No confident match: " + n + " candidate" + (n !== 1 ? "s" : "") + ", told apart by the checks below.";
    }
    return "No confident match: nothing in the paste names a failure these references cover.";
  }
  function related(a, b, refs) {
    if (refs[a.id].look_alikes.indexOf(b.id) !== -1 || refs[b.id].look_alikes.indexOf(a.id) !== -1) return true;
    return Array.from(a._lines).some(function (l) { return b._lines.has(l); });
  }
  function assignConfidence(matches, refs, margin) {
    var strong = matches.filter(function (m) { return m._strong_evidence; });
    matches.forEach(function (m) {
      var blocked = strong.some(function (o) { return o !== m && o.score >= m.score - margin && related(m, o, refs); });
      if (m._strong_evidence && !blocked) m.confidence = "strong";
      else if (m._hits) m.confidence = "possible";
    });
    var firstStrong = matches.filter(function (m) { return m.confidence === "strong"; })[0];
    if (firstStrong && firstStrong !== matches[0]) firstStrong.confidence = "possible";
  }
  function mergeHints(a, b) {
    var out = {};
    ["frameworks", "hardware", "environments", "versions"].forEach(function (k) { out[k] = Array.from(new Set(a[k].concat(b[k]))).sort(); });
    out.scale = a.scale || b.scale;
    return out;
  }
  function round(x, digits) { var f = Math.pow(10, digits); return Math.floor(x * f + 0.5) / f; }

  var api = { Engine: Engine, Chunker: M.Chunker, expandLunr: expandLunr, pyRound: pyRound };
  if (node) module.exports = api;
  else Object.assign(root.RelrefMatch = root.RelrefMatch || {}, api);
})(typeof self !== "undefined" ? self : this);
