"""The match engine: a pasted error or a whole log in, an answer out.
Twin: docs/assets/javascripts/match/engine.js (the same steps in the browser).

Ranking combines signature hits (precise), field-weighted full-text relevance (recall), what the
context says (names and cues), what the numbers of a matched line say (readings.py) and what each
reference is:
- field reports and practices are further reading, never candidates;
- a reference about a condition (stale or replayed evidence) ranks by that condition's evidence,
  not by the hardware lines it shares with the failure itself;
- a reference about particular hardware needs that hardware, or a line only it owns, to lead.
A reference is `strong` only when a fresh line that names the fault points at it, its framework
shows, nothing conflicts, and no related candidate comes within STRONG_MARGIN points. The verdict
is `confident` (a strong first match), `ambiguous` (candidates and the checks that tell them apart)
or `none` (nothing in the paste names a failure these references cover). Each match names the
causes its lines point at, and the checks to run next start from those causes. The rules are
documented on the site (docs/matching.md).
"""
import math

from lunr.index import Index
from lunr.query import QueryPresence

from . import hints as hint_rules, lunr_form
from .dialect import compile_rule
from .readings import Readings, step_rules
from .scan import SHORT_CHARS, SIGNATURE_DEFAULTS, Scanner, _Compiled, chunks
from .text import normalise_text
from .tokenize import tokenize, tokenize_words

ENGINE_VERSION = "2.10.0"  # 2.10: the rl-rollouts cue and ZeRO-3 mode-switch causes of the evaluating cue, the container cue on the network page, DeepSpeed's throughput line and a loop's own "Iteration took N s" read for step time, a line repeated within a whole-second stamp a burst and not a replay, the documentation and demo cues about the pasted text only; 2.9: phase cues (what the job was doing when a collective timed out), the slurm-job cue, the step-time and collective-mismatch readings; 2.8: an Xid line in MIG form names its code, the lunr weights computed at load; 2.7: a bare shell "Killed" is SIGKILL, cued references lead under a signal; 2.6: typographic quotes read as ASCII; 2.5: the early-barrier reading, cues naming causes; 2.4: cue-ordered causes; 2.3: test-output lines
RESULT_SCHEMA_VERSION = 2
WEIGHTS = {"cause": 10.0, "cause-shared": 6.0, "symptom": 4.0, "symptom-shared": 3.0, "stale": 1.0,
           "text": 4.0, "fit": 1.5, "conflict": -8.0, "explains": 12.0, "cue-support": 3.0, "cue-against": -6.0,
           "reading-support": 6.0, "reading-against": -6.0, "hardware-unshown": -5.0}
TEXT_FLOOR = 0.25     # relative full-text score below which a reference without hits is not listed
MIN_TERMS = 2         # distinct matched words a reference needs to be listed on words alone
STRONG_MARGIN = 3.0   # a look-alike within this many points keeps the top answer from being strong
# Symptoms, field reports and practices print nothing of their own: the messages they list are
# their consequences, shared with the errors that cause them, so their hits weigh less.
KIND_FACTOR = {"error": 1.0, "symptom": 0.9, "field-report": 0.6, "practice": 0.6}
CANDIDATE_KINDS = ("error", "symptom")  # field reports and practices are further reading
CONDITION = "stale-hardware-evidence"
HARDWARE_CATEGORIES = ("gpu-hardware",)  # references an application-class code alone cannot make strong
MAX_TERMS = 64
# Code points of the hit lines, of the informative sample and of the context that relevance and the
# words read: hits are bounded in number but a hit on a line of megabytes is a window of 4,096, and
# tokenizing some hundreds of those took minutes (a one-line log of 50 MB: 176 s, 1.4 GB). The scan
# keeps as much of a short paste.
RELEVANCE_CHARS = SHORT_CHARS
CONTEXT_BOOST = 2.0
WORDS_SHOWN = 8
CHECKS_PER_MATCH = 4
NEXT_CHECKS, NEXT_CHECKS_DEPTH = 8, 3  # checks listed first, and how deep into each candidate's list
WEAK_SHOWN = 3        # a `none` answer lists at most this many references
MAX_CODES = 8
CAUSE_WORDS_FLOOR = 4.0  # summed rarity of a cause's words in the paste for it to be named on words alone
CAUSES_BY_WORDS = 2
FURTHER_FLOOR = 0.5   # relative relevance a field report or practice needs without a matched line
FURTHER_SHOWN = 3


class Engine:
    def __init__(self, index: dict, site_url: str = ""):
        self.index = index
        self.refs, signatures = expand_positions(index)
        self.signatures = [{**SIGNATURE_DEFAULTS, **s} for s in signatures]
        codes = index.get("codes", {})
        self.code_entries, self.code_aliases = codes.get("entries", {}), codes.get("aliases", {})
        self.code_texts, self.code_names = codes.get("texts", {}), codes.get("names", {})
        self.code_kind_of = codes.get("kind_of", {})
        self.detectors = [dict(d, rule=compile_rule(d["pattern"], d["ignore_case"])) for d in codes.get("detectors", [])]
        # Code detectors ride along in the scan after the signatures: one pass finds both. The scan
        # also keeps a sample of step-time lines, those holding a literal of the step forms.
        self.compiled = _Compiled(self.signatures + codes.get("detectors", []),
                                  step_literals=[lit for rule in step_rules() for lit in rule["literals"]])
        self.lunr = Index.load(lunr_form.expand(index["lunr"]))
        self.vocabulary = set(index["lunr"]["terms"])
        self.rules = hint_rules.Rules()
        self.readings = Readings()
        self.cause_idf = _cause_idf(self.refs)
        self.site_url = site_url

    def match(self, text, context: str = "", top: int = 5) -> dict:
        """`text` is a str or bytes, or an iterable of either (streamed in bounded memory)."""
        scanner = Scanner(self.signatures, self.compiled)  # the compiled rules include the code detectors
        for chunk, cut in chunks(text):
            scanner.feed(chunk, cut)
        return self.rank(scanner.finish(), context, top)

    def rank(self, scan, context: str, top: int) -> dict:
        context = normalise_text(context)[:RELEVANCE_CHARS]
        warnings = _scan_warnings(scan)
        cues = self.rules.read_cues(context)
        replay = hint_rules.live(cues, "replay")
        markers = self._markers(scan)
        stale = _stale_hits(scan, self.signatures, self.rules.window_seconds(context), replay, markers, warnings)
        sample = "\n".join(t for _, t in scan.informative)[:RELEVANCE_CHARS]
        hit_lines = "\n".join(dict.fromkeys(h.text for index in sorted(scan.hits) if index < len(self.signatures)
                                             for h in scan.hits[index]))[:RELEVANCE_CHARS]
        hints = hint_rules.merge(self.rules.read_hints(context), self.rules.read_hints(sample + "\n" + hit_lines))
        text_scores, terms = self._full_text(hit_lines, sample, context)
        spoken = {}  # term -> the word the paste or context wrote for it
        for term, word in tokenize_words(hit_lines + "\n" + sample + "\n" + context):
            spoken.setdefault(term, word)
        hit_words = set(tokenize(hit_lines))
        said = set(tokenize(hit_lines + "\n" + sample + "\n" + context))  # for telling causes apart
        codes = self._codes(scan)
        readings = self._readings(scan)
        candidates = {}
        for index in sorted(i for i in scan.hits if i < len(self.signatures)):
            sig = self.signatures[index]
            candidates.setdefault(sig["ref"], []).append((sig, scan.hits[index], stale.get(index, False), scan.counts[index]))
        condition = bool(stale) or bool(replay) or bool(markers)
        listed = set(candidates) | {ref for ref, s in text_scores.items()
                                    if s >= TEXT_FLOOR and len(terms.get(ref, [])) >= MIN_TERMS}
        if condition:
            listed |= {ref for ref, r in self.refs.items() if CONDITION in r["explains"]}
        live_cues = [c for c in cues if c.negated_by is None]
        # A cue brings up the references it speaks for, if the paste touches them at all; a
        # reading, which read the paste's own lines, always does.
        for cue in live_cues:
            listed |= {ref for ref in cue.supports if ref in self.refs and _acts_on(cue, ref, candidates)
                       and (ref in candidates or text_scores.get(ref, 0) > 0)}
        listed |= {ref for reading in readings for ref in reading.supports if ref in self.refs}
        scored = [self._score(ref, candidates.get(ref, []), text_scores.get(ref, 0.0), terms.get(ref, []), hints,
                              condition, [c for c in live_cues if _acts_on(c, ref, candidates)],
                              readings, hit_words, spoken, said) for ref in listed]
        scored = [m for m in scored if m is not None]
        scored.sort(key=lambda m: (-m["score"], m["id"]))
        matches = [m for m in scored if m["kind"] in CANDIDATE_KINDS]
        further = [m for m in scored if m["kind"] not in CANDIDATE_KINDS
                   and (m["_lines"] or text_scores.get(m["id"], 0) >= FURTHER_FLOOR)]
        _assign_confidence(matches, self.refs)
        cued = {ref for cue in live_cues for ref in (*cue.supports, *cue.causes)  # a cue speaks for these
                if _acts_on(cue, ref, candidates)}
        code_lead, by_signal = _apply_code_rules(matches, codes, candidates, self.refs, cued)
        # What a line's numbers say leads before "check the program first": it already says what to
        # check. Only a signal's meaning, which decided the ranking, comes before it.
        read = f"Read from line {readings[0].line}: {readings[0].reason}." if readings else ""
        lead = code_lead if by_signal else read or code_lead
        verdict = ("confident" if matches and matches[0]["confidence"] == "strong" else
                   "ambiguous" if any(m["confidence"] != "weak" for m in matches) else "none")
        matches = matches[:WEAK_SHOWN] if verdict == "none" else matches[:top]
        findings = self._findings(matches) if verdict != "none" else []
        for m in matches + further:
            m["checks"] = self._checks(m)
        next_checks = [] if verdict == "none" else self._next_checks(matches, verdict)
        further = further[:FURTHER_SHOWN]
        for m in matches + further:
            for key in ("_strong_evidence", "_lines", "_hits", "_cause_lines"):
                m.pop(key, None)
        return {"schema_version": RESULT_SCHEMA_VERSION, "engine_version": ENGINE_VERSION,
                "index_version": self.index.get("version", ""), "verdict": verdict,
                "confident": verdict == "confident", "answer": (lead + " " if lead else "") + _answer(verdict, matches),
                "matches": matches, "further_reading": further, "next_checks": next_checks,
                "findings": findings, "codes": codes, "warnings": warnings, "hints": hints,
                "cues": [c.as_json() for c in cues], "readings": [r.as_json() for r in readings]}

    def _markers(self, scan) -> list:
        """Lines that mark the paste as test output (a fault-injection tool's confirmation): like a
        replay cue in the context, they say the paste's hardware evidence is not a live fault."""
        return [(self.signatures[index], scan.hits[index][0]) for index in sorted(scan.hits)
                if index < len(self.signatures) and self.signatures[index]["marks"]]

    def _readings(self, scan) -> list:
        """What the numbers of the matched lines say, first line first, one reading of each kind."""
        first = {}
        for reading in self.readings.read(h for index in scan.hits if index < len(self.signatures)
                                          for h in scan.hits[index]):
            first.setdefault(reading.id, reading)
        return list(first.values()) + self.readings.of_steps(scan.steps)

    def _codes(self, scan) -> list:
        """The codes the paste names, each with its meaning, what to do and its page, first line first."""
        found = {}
        for index in sorted(i for i in scan.hits if i >= len(self.signatures)):
            detector = self.detectors[index - len(self.signatures)]
            for hit in scan.hits[index]:
                for m in detector["rule"].finditer(hit.text):
                    key = self._code_key(detector["kind"], m.group(1))
                    entry = self.code_entries.get(key) if key else None
                    if entry is not None:
                        found.setdefault(key, self._code_entry(key, entry))["lines"].append(hit.line_no)
        for entry in found.values():
            entry["lines"] = sorted(set(entry["lines"]))[:10]
        return sorted(found.values(), key=lambda e: (e["lines"][0], e["kind"], e["code"]))[:MAX_CODES]

    def _code_entry(self, key: str, entry: dict) -> dict:
        """A code's entry as the result shows it: the index leaves out its key's parts and the
        usual values (index.py _codes)."""
        kind, code = key.split(":", 1)
        return {"kind": kind, "code": code, "name": entry.get("name", code), "gloss": entry["gloss"],
                "class": entry["class"], "recovery": entry.get("recovery", ""), "references": entry.get("references", []),
                "url": self.site_url + code_link(key, entry), "lines": []}

    def _code_key(self, kind: str, printed: str):
        family = self.code_kind_of.get(kind, kind)
        if kind in self.code_names:
            name = self.code_names[kind].get(printed)
        elif family in self.code_texts and kind != family:
            name = max((t for t in self.code_texts[family] if printed.startswith(t)), key=len, default=None)
            name = self.code_texts[family][name] if name else None
        else:
            name = printed
        if name is None:
            return None
        key = f"{family}:{name}"
        return self.code_aliases.get(key, key)

    def _full_text(self, hit_lines: str, sample: str, context: str):
        """Field-weighted relevance of each reference to the paste's words (the lines that matched a
        signature first, then the informative lines) and to the context's words, weighted apart."""
        seen, wanted = set(), []
        for boost, text in ((1.0, hit_lines), (1.0, sample), (CONTEXT_BOOST, context)):
            for term in tokenize(text):
                if term in self.vocabulary and term not in seen and len(wanted) < MAX_TERMS:
                    seen.add(term)
                    wanted.append((term, boost))
        if not wanted:
            return {}, {}
        query = self.lunr.create_query()
        for term, boost in wanted:  # the query builder, never the query-string parser: pasted text is not syntax
            query.term(term, presence=QueryPresence.OPTIONAL, use_pipeline=False, boost=boost)
        results = self.lunr.query(query)
        if not results:
            return {}, {}
        best = results[0]["score"]
        return ({r["ref"]: r["score"] / best for r in results},
                {r["ref"]: sorted(r["match_data"].metadata) for r in results})

    def _score(self, ref_id, sig_hits, text_score, terms, hints, condition, cues, readings, hit_words, spoken, said):
        ref = self.refs[ref_id]
        is_condition = CONDITION in ref["explains"]
        score, why, strong_evidence, cause_weight = 0.0, [], False, {}
        if is_condition:
            if not condition:
                return None  # it explains a condition the paste does not show
            score += WEIGHTS["explains"]
            why.append({"kind": "context", "fit": True,
                        "text": "the paste holds stale or replayed hardware evidence, which this reference explains"})
        own_line = False
        for sig, hits, is_stale, count in sorted(sig_hits, key=lambda h: h[1][0].line_no):
            kind = "stale" if is_stale else sig["role"] + ("-shared" if sig["shared"] else "")
            if not is_condition:
                score += WEIGHTS[kind] * KIND_FACTOR[ref["kind"]]
            strong_evidence |= kind in ("cause", "cause-shared")
            own_line |= kind == "cause"
            if not is_stale:
                for place, cause_id in enumerate(sig.get("causes", [])):
                    weight, lines, first_sig, best = cause_weight.get(cause_id, (0.0, [], sig["id"], place))
                    cause_weight[cause_id] = (weight + WEIGHTS[kind], lines + [h.line_no for h in hits], first_sig,
                                              min(best, place))
            why.append({"kind": "signature", "signature": sig["id"], "role": sig["role"], "shared": sig["shared"],
                        "stale": is_stale, "lines": [h.line_no for h in hits][:10], "count": count,
                        "text": hits[0].text[:300]})
        if not is_condition or condition:
            score += WEIGHTS["text"] * text_score
        shown = [spoken.get(t, t) for t in terms if t in hit_words] if sig_hits else [spoken.get(t, t) for t in terms]
        if shown:
            why.append({"kind": "words", "terms": shown[:WORDS_SHOWN], "relevance": _round(text_score, 3)})
        fits, conflicts, unsupported = _context_fit(ref, hints)
        # The framework and hardware fits weigh here; a cue's own weight is added where it is read.
        score += WEIGHTS["fit"] * len(fits) + WEIGHTS["conflict"] * len(conflicts)
        if ref["gpu_models"] and not set(ref["gpu_models"]) & set(hints["hardware"]) and not own_line:
            score += WEIGHTS["hardware-unshown"]
            unsupported.append(f"nothing in the paste or context shows {', '.join(sorted(ref['gpu_models'])).upper()}, "
                               "and no line only this reference explains")
        cued = []
        for cue in cues:
            if ref_id in cue.against:
                score += WEIGHTS["cue-against"]
                conflicts.append(f"the context says \"{cue.text}\" ({cue.id}): {cue.reason}")
            elif ref_id in cue.supports:
                score += WEIGHTS["cue-support"]
                fits.append(f"the context says \"{cue.text}\" ({cue.id}): {cue.reason}")
            for cause_id in cue.causes.get(ref_id, ()):
                if cause_id in cause_weight:
                    weight, lines, first, best = cause_weight[cause_id]
                    cause_weight[cause_id] = (weight + WEIGHTS["cue-support"], lines, first, best)
                else:  # after the causes the lines name, before those the paste's words suggest
                    cued.append(cause_id)
                fits.append(f"the context says \"{cue.text}\" ({cue.id}): {cue.reason}; cause {cause_id} comes first")
        read_for = False  # a reading that speaks for a reference makes it a candidate, as a line would
        for reading in readings:  # like a cue, but a reading against a reference leaves it a candidate
            said_so = f"line {reading.line} says \"{reading.text}\" ({reading.id}): {reading.reason}"
            if ref_id in reading.against:
                score += WEIGHTS["reading-against"]
                unsupported.append(said_so)
            elif ref_id in reading.supports:
                score += WEIGHTS["reading-support"]
                fits.append(said_so)
                read_for = True
                for place, cause_id in enumerate(reading.causes.get(ref_id, ())):
                    weight, lines, first, best = cause_weight.get(cause_id, (0.0, [], reading.id, place))
                    cause_weight[cause_id] = (weight + WEIGHTS["reading-support"], lines + [reading.line], first,
                                              min(best, place))
        why += [{"kind": "context", "fit": True, "text": f} for f in fits]
        why += [{"kind": "context", "fit": False, "text": c} for c in conflicts + unsupported]
        lines = sorted({h.line_no for _, hits, _, _ in sig_hits for h in hits})
        cause_lines = sorted({h.line_no for sig, hits, is_stale, _ in sig_hits if sig["role"] == "cause" and not is_stale
                              for h in hits})
        causes = self._causes(ref, cause_weight, said, cued)
        return {"id": ref_id, "title": ref["title"], "url": self.site_url + ref["url"], "kind": ref["kind"],
                "confidence": "weak", "score": _round(score, 4), "causes": causes, "why": why,
                "_strong_evidence": strong_evidence and not conflicts and not unsupported,
                "_hits": (bool(sig_hits) or is_condition or read_for) and not conflicts, "_lines": lines, "_cause_lines": cause_lines}

    def _causes(self, ref: dict, cause_weight: dict, said: set, cued: list) -> list:
        """The causes the answer names: those the matched lines point at (most evidence first, then
        the paste's words), then those a context cue names (basis "context"), then, where the words
        of a cause stand out in the paste and context, causes no line tells apart (basis "words")."""
        words = {cid: _round(sum(self.cause_idf[t] for t in terms if t in said), 4)
                 for cid, terms in ref["cause_terms"].items()}
        # The weight of the lines first, then the signature's own order (it lists the causes of
        # its message most likely first: the author read the message, while a cause's words in a
        # paste are often the paste's own topic), then those words, then the earliest line.
        named = sorted(cause_weight.items(), key=lambda kv: (-kv[1][0], kv[1][3], -words[kv[0]], min(kv[1][1]), kv[0]))
        out = [{"id": cid, "title": ref["cause_titles"][cid], "basis": "line", "signature": first_sig,
                "lines": sorted(set(lns))[:10]} for cid, (w, lns, first_sig, _) in named]
        cued = list(dict.fromkeys(cid for cid in cued if cid in ref["cause_titles"]))
        out += [{"id": cid, "title": ref["cause_titles"][cid], "basis": "context", "signature": "", "lines": []}
                for cid in cued]
        rest = sorted(((w, cid) for cid, w in words.items()
                       if cid not in cause_weight and cid not in cued and w >= CAUSE_WORDS_FLOOR),
                      key=lambda wc: (-wc[0], wc[1]))
        out += [{"id": cid, "title": ref["cause_titles"][cid], "basis": "words", "signature": "", "lines": []}
                for _, cid in rest[:CAUSES_BY_WORDS]]
        return out

    def _checks(self, match: dict) -> list:
        return [self._check_entry(match["id"], c) for c in self._checks_for(match)[:CHECKS_PER_MATCH]]

    def _check_entry(self, ref_id: str, check: dict) -> dict:
        ref = self.refs[ref_id]
        return dict(check, reference=ref_id, url=f"{self.site_url}{ref['url']}#check-{check['id']}")

    def _next_checks(self, matches: list, verdict: str) -> list:
        """The checks to run first: round robin over the candidates (the strong one, else the
        possible ones), so each candidate's best check comes early."""
        candidates = [m for m in matches if m["confidence"] == "strong"][:1] if verdict == "confident" else \
            [m for m in matches if m["confidence"] == "possible"]
        out, seen = [], set()
        for depth in range(NEXT_CHECKS_DEPTH if verdict != "confident" else CHECKS_PER_MATCH):
            for m in candidates:
                if depth < len(m["checks"]):
                    check = m["checks"][depth]
                    key = check["command"] or check["observation"]
                    if key not in seen:
                        seen.add(key)
                        out.append(check)
        return out[:NEXT_CHECKS]

    def _findings(self, matches: list) -> list:
        """Two unrelated failures in one paste: candidates whose lines name a fault, grouped so that
        references sharing lines or listed as look-alikes stay together. One finding per group, when
        there are two groups or more."""
        named = [m for m in matches if m["confidence"] != "weak" and m["_strong_evidence"]]
        groups: list = []
        for m in named:
            home = next((g for g in groups if any(_related(m, o, self.refs) for o in g)), None)
            if home is None:
                groups.append([m])
            else:
                home.append(m)
        if len(groups) < 2:
            return []
        out = []
        for group in groups:
            lead = group[0]
            checks = [self._check_entry(lead["id"], c) for c in self._checks_for(lead)][:NEXT_CHECKS_DEPTH]
            out.append({"matches": [{"id": m["id"], "title": m["title"], "url": m["url"]} for m in group],
                        "causes": lead["causes"], "lines": lead["_lines"][:10],
                        "answer": f"{lead['title']}" + (f" — cause {lead['causes'][0]['title']}" if lead["causes"] else ""),
                        "next_checks": checks})
        return out

    def _checks_for(self, match: dict) -> list:
        """The reference's checks for the causes its lines point at first, then the checks that
        confirm some causes and rule out others (they tell candidates apart), then the rest."""
        ref = self.refs[match["id"]]
        by_cause = [k for c in match["causes"] for k in ref["cause_checks"].get(c["id"], [])]
        first = [c for k in dict.fromkeys(by_cause) for c in ref["checks"] if c["id"] == k]
        return first + sorted((c for c in ref["checks"] if c not in first), key=lambda c: not c["discriminates"])


def _cause_idf(refs: dict) -> dict:
    """How rare each word is among all causes' words: a word shared by many causes tells none apart."""
    df: dict = {}
    for ref in refs.values():
        for terms in ref["cause_terms"].values():
            for term in terms:
                df[term] = df.get(term, 0) + 1
    n = sum(len(ref["cause_terms"]) for ref in refs.values())
    return {term: math.log(n / count) for term, count in df.items()}


def _apply_code_rules(matches: list, codes: list, candidates: dict, refs: dict, cued: set = frozenset()) -> tuple:
    """What the codes decide, the sentence they would lead the answer with, and whether a signal
    decided the ranking. A fault the
    program usually causes (an application Xid or CUDA error) named by the only lines that point at
    the first match cannot make a GPU-hardware reference strong. An exit status or signal alone
    leads to the references that explain it, in the code table's order (the OOM references first)
    after those a context cue speaks for (a container: its memory limit), and is never confident; a
    line that names where the signal landed leads with its own reference."""
    if not matches or not codes:
        return "", False
    application = [c for c in codes if c["class"] == "application"]
    app_lines = {line for c in application for line in c["lines"]}
    top = matches[0]
    # "Check the program first" holds back a verdict on the GPU, not one on memory: a CUDA
    # out-of-memory error can make the OOM reference strong.
    if top["confidence"] == "strong" and refs[top["id"]]["category"] in HARDWARE_CATEGORIES and top["_cause_lines"] \
            and set(top["_cause_lines"]) <= app_lines:
        top["confidence"] = "possible"
    # The signal named last is the dying process's (torchrun first sends SIGTERM to the survivors).
    signals = sorted((c for c in codes if c["kind"] == "signal"), key=lambda c: -c["lines"][-1])
    hit_lines = {h.line_no for hits in candidates.values() for _, hs, _, _ in hits for h in hs}
    if signals and hit_lines and hit_lines <= {line for c in signals for line in c["lines"]}:
        # A line that names where the signal landed (a DataLoader worker) is the reference's own
        # cause line: it leads, and may stay strong; the code table's order ranks the rest, those
        # with a matched line before those the paste touches by words only.
        order = {ref: i for i, ref in enumerate(signals[0]["references"])}
        matches.sort(key=lambda m: (not m["_cause_lines"], not m["_lines"], m["id"] not in cued,
                                    order.get(m["id"], len(order)), -m["score"], m["id"]))
        for m in matches:
            if m["confidence"] == "strong" and not (m is matches[0] and m["_cause_lines"]):
                m["confidence"] = "possible"
        return f"{_code_title(signals[0])}: {signals[0]['gloss']}", True
    if application and top["confidence"] != "strong":
        return f"{_code_title(application[0])} is usually an application error: check the program first.", False
    return "", False


def expand_positions(index: dict) -> tuple:
    """The references (by id) and signatures with what the index leaves out put back: a
    reference's URL, its checks in full, and the ids where the index gives positions (a
    signature's causes in its reference's cause order, a cause's checks in the checks' order)."""
    refs = {}
    for r in index["references"]:
        causes, checks = list(r["cause_titles"]), [c["id"] for c in r["checks"]]
        refs[r["id"]] = dict(r, url=f"references/{r['id']}/",
                             checks=[check_in_full(c, len(causes)) for c in r["checks"]],
                             cause_checks={cid: [checks[i] for i in ks] for cid, ks in r["cause_checks"].items()})
    signatures = [dict(s, causes=[list(refs[s["ref"]]["cause_titles"])[i] for i in s["causes"]]) if s.get("causes") else s
                  for s in index["signatures"]]
    return refs, signatures


def check_in_full(check: dict, causes: int) -> dict:
    """A check with the fields the index leaves out put back: empty ones, and whether it tells
    causes apart (it rules one out, or confirms fewer than all of them)."""
    full = {"id": check["id"], "title": check["title"], "command": check.get("command", ""),
            "observation": check.get("observation", ""), "how_to_read": check["how_to_read"],
            "confirms": check.get("confirms", []), "rules_out": check.get("rules_out", [])}
    full["discriminates"] = bool(full["rules_out"]) or len(set(full["confirms"])) < causes
    return full


def code_link(key: str, entry: dict) -> str:
    """A code's link from the site root: the index gives it, or "/" for the code's own page, or
    nothing for its row of the family's page (index.py _codes)."""
    kind, code = key.split(":", 1)
    url = entry.get("url")
    return f"codes/{kind}/#{kind}-{code}" if url is None else f"codes/{kind}/{code}/" if url == "/" else url


def _code_title(code: dict) -> str:
    return {"xid": f"Xid {code['code']}", "sxid": f"SXid {code['code']}"}.get(code["kind"], code["name"]) + \
        (f" ({code['name']})" if code["kind"] in ("xid", "sxid") else "")


def _answer(verdict: str, matches: list) -> str:
    """The one sentence every renderer shows first."""
    if verdict == "confident":
        top = matches[0]
        cause = top["causes"][0] if top["causes"] and top["causes"][0]["basis"] == "line" else None
        line = next((w["lines"][0] for w in top["why"] if w["kind"] == "signature" and not w["stale"]), None)
        text = f"Most likely: {top['title']}"
        if cause:
            text += f" — cause: {cause['title']}"
        return text + (f" (line {line} names it)." if line else ".")
    if verdict == "ambiguous":
        n = sum(1 for m in matches if m["confidence"] != "weak")
        return f"No confident match: {n} candidate{'s' if n != 1 else ''}, told apart by the checks below."
    return "No confident match: nothing in the paste names a failure these references cover."


def _scan_warnings(scan) -> list:
    out = []
    if scan.split_lines:
        out.append({"kind": "long-line", "line": scan.split_lines[0],
                    "text": f"line {scan.split_lines[0]} is longer than a chunk (1 MiB); a message across a cut "
                            "in it may be missed"})
    return out


def _round(x: float, digits: int) -> float:
    """Half up, as the browser engine rounds (Python's round() rounds half to even)."""
    f = 10 ** digits
    return math.floor(x * f + 0.5) / f


def _acts_on(cue, ref_id: str, candidates: dict) -> bool:
    """Whether a cue acts on a reference: a phase cue (needs_lines) only on one a line matched."""
    return ref_id in candidates or not cue.needs_lines


def _assign_confidence(matches: list, refs: dict) -> None:
    """Strong: a fresh line that names the fault, and no related candidate (a look-alike, or one
    matching the same lines) with such a line within STRONG_MARGIN points."""
    strong = [m for m in matches if m["_strong_evidence"]]
    for m in matches:
        if m in strong and not any(o is not m and o["score"] >= m["score"] - STRONG_MARGIN and _related(m, o, refs)
                                   for o in strong):
            m["confidence"] = "strong"
        elif m["_hits"]:
            m["confidence"] = "possible"
    first_strong = next((m for m in matches if m["confidence"] == "strong"), None)
    if first_strong is not None and first_strong is not matches[0]:
        first_strong["confidence"] = "possible"  # strong means first: a higher candidate keeps it open


def _related(a: dict, b: dict, refs: dict) -> bool:
    return (b["id"] in refs[a["id"]]["look_alikes"] or a["id"] in refs[b["id"]]["look_alikes"]
            or bool(set(a["_lines"]) & set(b["_lines"])))


def _context_fit(ref: dict, hints: dict):
    fits, conflicts, unsupported = [], [], []
    specific = set(ref["specific_frameworks"])
    seen = set(hints["frameworks"]) & hint_rules.SPECIFIC_FRAMEWORKS
    if specific and not specific & seen:
        if seen:
            conflicts.append(f"this reference is about {', '.join(sorted(specific))}; the log or context says "
                             f"{', '.join(sorted(seen))}")
        else:  # a message shared with other software: the paste must show the framework to be sure
            unsupported.append(f"nothing in the paste or context shows {', '.join(sorted(specific))}")
    elif specific:
        fits.append(f"framework {', '.join(sorted(specific & seen))}")
    models, seen_models = set(ref["gpu_models"]), set(hints["hardware"])
    if models and seen_models:
        if models & seen_models:
            fits.append(f"hardware {', '.join(sorted(models & seen_models)).upper()}")
        else:
            conflicts.append(f"this reference is about {', '.join(sorted(models)).upper()}; the log or context says "
                             f"{', '.join(sorted(seen_models)).upper()}")
    return fits, conflicts, unsupported


def _stale_hits(scan, signatures, window: float, replay: list, markers: list, warnings: list) -> dict:
    """Hardware evidence that is old, replayed, injected or from an earlier boot cannot confirm a current fault."""
    stale = {}
    for index, hits in sorted(scan.hits.items()):
        if index >= len(signatures) or not signatures[index]["hardware"]:
            continue
        reasons = [r for r in (_stale_reason(h, hits, scan, window, replay, markers) for h in hits) if r]
        if reasons and len(reasons) == len(hits):
            stale[index] = True
            sig = signatures[index]
            warnings.append({"kind": "stale-evidence", "signature": sig["id"], "reference": sig["ref"],
                             "line": hits[0].line_no, "text": f"line {hits[0].line_no}: {reasons[0]}; it cannot "
                             "confirm a current hardware fault on its own"})
    return stale


def _stale_reason(hit, hits, scan, window, replay, markers):
    if replay:
        return f"the context says \"{replay[0].text}\" ({replay[0].id}): {replay[0].reason}"
    if markers:
        sig, marker = markers[0]
        return f"line {marker.line_no} ({sig['id']}) shows the paste is test or replayed output, not a live fault"
    if hit.stamp and _sub_second(hit.stamp) and sum(1 for h in hits if h.text == hit.text) > 1:
        return "the same hardware line repeats with the same timestamp (a replayed or concatenated log)"
    if not hit.stamp:
        return None
    clock, seconds = hit.stamp
    if clock == "uptime" and scan.last_boot > hit.line_no:
        return "kernel uptime goes backwards after this line, so it comes from an earlier boot"
    age = scan.newest[clock] - seconds
    if age > window:
        return f"hardware evidence {_duration(age)} older than the newest line on its clock ({clock})"
    return None


def _sub_second(stamp: tuple) -> bool:
    """Whether a stamp tells lines of one second apart: two lines alike to the microsecond are one
    line copied, while a driver can print the same line several times within one second (dmesg -T
    and syslog stamps are whole seconds)."""
    clock, seconds = stamp
    return clock == "uptime" or seconds % 1 != 0


def _duration(seconds: float) -> str:
    if seconds >= 86400:
        return f"{seconds / 86400:.1f} days"
    if seconds >= 3600:
        return f"{seconds / 3600:.1f} hours"
    return f"{seconds / 60:.0f} minutes"
