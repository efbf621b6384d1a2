"""The match engine: a pasted error or a whole log in, ranked references out.

Ranking combines signature hits (precise), lunr full-text relevance (recall) and how
the context fits each reference. A reference is `strong` only when a fresh line that names
the fault points at it, its framework shows, nothing conflicts, and no related candidate
comes within STRONG_MARGIN points; downstream messages (an NCCL watchdog timeout) leave their
candidates `possible`. The rules are documented on the site (docs/matching.md).
Twin: docs/assets/javascripts/match/engine.js (the same steps in the browser).
"""
import math

from lunr.index import Index
from lunr.query import QueryPresence

from . import hints as hint_rules
from .scan import Scanner, chunks
from .tokenize import tokenize

WEIGHTS = {"cause": 10.0, "cause-shared": 6.0, "symptom": 4.0, "symptom-shared": 3.0, "stale": 1.0,
           "text": 4.0, "fit": 1.5, "conflict": -8.0, "explains": 12.0}
TEXT_FLOOR = 0.25     # relative full-text score below which a reference without hits is not listed
STRONG_MARGIN = 3.0   # a look-alike within this many points keeps the top answer from being strong
# Symptoms, field reports and practices print nothing of their own: the messages they list are
# their consequences, shared with the errors that cause them, so their hits weigh less.
KIND_FACTOR = {"error": 1.0, "symptom": 0.9, "field-report": 0.6, "practice": 0.6}
POSSIBLE_KINDS = ("error", "symptom")  # field reports and practices are further reading, never candidates
MAX_TERMS = 64
CHECKS_PER_MATCH = 4
NEXT_CHECKS, NEXT_CHECKS_DEPTH = 8, 3  # checks listed first, and how deep into each candidate's list


class Engine:
    def __init__(self, index: dict, site_url: str = ""):
        self.index = index
        self.refs = {r["id"]: r for r in index["references"]}
        self.signatures = index["signatures"]
        self.lunr = Index.load(index["lunr"])
        self.vocabulary = set(index["lunr"]["invertedIndex"][i][0] for i in range(len(index["lunr"]["invertedIndex"])))
        self.site_url = site_url

    def match(self, text, context: str = "", top: int = 5) -> dict:
        """`text` is a str or an iterable of str pieces (streamed in bounded memory)."""
        scanner = Scanner(self.signatures)
        for chunk in chunks(text):
            scanner.feed(chunk)
        return self.rank(scanner.finish(), context, top)

    def rank(self, scan, context: str, top: int) -> dict:
        warnings = []
        stale = _stale_hits(scan, self.signatures, hint_rules.window_seconds(context),
                            hint_rules.says_replayed(context), warnings)
        sample = "\n".join(t for _, t in scan.informative)
        hints = _merge(hint_rules.read_hints(context), hint_rules.read_hints(sample))
        text_scores, terms = self._full_text(sample + "\n" + context)
        candidates = {}
        for index, hits in scan.hits.items():
            sig = self.signatures[index]
            candidates.setdefault(sig["ref"], []).append((sig, hits, stale.get(index, False), scan.counts[index]))
        listed = set(candidates) | {ref for ref, s in text_scores.items() if s >= TEXT_FLOOR}
        if stale:  # references that explain stale evidence become candidates themselves
            listed |= {ref for ref, r in self.refs.items() if "stale-hardware-evidence" in r["explains"]}
        matches = [self._score(ref, candidates.get(ref, []), text_scores.get(ref, 0.0), terms.get(ref, []), hints,
                               bool(stale)) for ref in listed]
        matches.sort(key=lambda m: (-m["score"], m["id"]))
        _assign_confidence(matches, self.refs)
        matches = matches[:top]
        for m in matches:
            m["checks"] = self._checks(m["id"])
            m.pop("_strong_evidence")
            m.pop("_lines")
        return {"confident": bool(matches) and matches[0]["confidence"] == "strong",
                "matches": matches, "next_checks": _next_checks(matches), "warnings": warnings, "hints": hints}

    def _full_text(self, text: str):
        wanted = [t for t in dict.fromkeys(tokenize(text)) if t in self.vocabulary][:MAX_TERMS]
        if not wanted:
            return {}, {}
        query = self.lunr.create_query()
        for term in wanted:  # the query builder, never the query-string parser: pasted text is not syntax
            query.term(term, presence=QueryPresence.OPTIONAL, use_pipeline=False)
        results = self.lunr.query(query)
        if not results:
            return {}, {}
        best = results[0]["score"]
        scores = {r["ref"]: r["score"] / best for r in results}
        terms = {r["ref"]: sorted(r["match_data"].metadata)[:12] for r in results}
        return scores, terms

    def _score(self, ref_id, sig_hits, text_score, terms, hints, stale_found) -> dict:
        ref = self.refs[ref_id]
        score, why, strong_evidence = 0.0, [], False
        explains = stale_found and "stale-hardware-evidence" in ref["explains"]
        if explains:
            score += WEIGHTS["explains"]
            why.append({"kind": "context", "fit": True, "text": "the paste holds stale hardware evidence, which this reference explains"})
        for sig, hits, is_stale, count in sorted(sig_hits, key=lambda h: h[1][0].line_no):
            kind = "stale" if is_stale else sig["role"] + ("-shared" if sig["shared"] else "")
            score += WEIGHTS[kind] * KIND_FACTOR[ref["kind"]]
            strong_evidence |= kind in ("cause", "cause-shared")
            why.append({"kind": "signature", "signature": sig["id"], "role": sig["role"], "shared": sig["shared"],
                        "stale": is_stale, "lines": [h.line_no for h in hits][:10], "count": count,
                        "text": hits[0].text[:300]})
        score += WEIGHTS["text"] * text_score
        if terms:
            why.append({"kind": "words", "terms": terms, "relevance": _round(text_score, 3)})
        fits, conflicts, unsupported = _context_fit(ref, hints)
        score += WEIGHTS["fit"] * len(fits) + WEIGHTS["conflict"] * len(conflicts)
        why += [{"kind": "context", "fit": True, "text": f} for f in fits]
        why += [{"kind": "context", "fit": False, "text": c} for c in conflicts + unsupported]
        lines = sorted({h.line_no for _, hits, _, _ in sig_hits for h in hits})
        return {"id": ref_id, "title": ref["title"], "url": self.site_url + ref["url"], "kind": ref["kind"],
                "confidence": "weak", "score": _round(score, 4), "why": why,
                "_strong_evidence": strong_evidence and not conflicts and not unsupported,
                "_hits": (bool(sig_hits) or explains) and not conflicts, "_lines": lines}

    def _checks(self, ref_id: str) -> list:
        """Checks that confirm some causes and rule out others come first: they tell candidates apart."""
        ref = self.refs[ref_id]
        ordered = sorted(ref["checks"], key=lambda c: not c["discriminates"])
        return [dict(c, reference=ref_id, url=f"{self.site_url}{ref['url']}#check-{c['id']}")
                for c in ordered[:CHECKS_PER_MATCH]]


def _next_checks(matches: list) -> list:
    """The checks to run first: round robin over the candidates (the strong ones, else the possible
    ones, else the closest), so each candidate's best discriminating check comes early."""
    candidates = ([m for m in matches if m["confidence"] == "strong"] or
                  [m for m in matches if m["confidence"] == "possible"] or matches[:1])
    out, seen = [], set()
    for depth in range(NEXT_CHECKS_DEPTH):
        for m in candidates:
            if depth < len(m["checks"]):
                check = m["checks"][depth]
                key = check["command"] or check["observation"]
                if key not in seen:
                    seen.add(key)
                    out.append(check)
    return out[:NEXT_CHECKS]


def _round(x: float, digits: int) -> float:
    """Half up, as the browser engine rounds (Python's round() rounds half to even)."""
    f = 10 ** digits
    return math.floor(x * f + 0.5) / f


def _assign_confidence(matches: list, refs: dict) -> None:
    """Strong: a fresh line that names the fault, and no related candidate (a look-alike, or one
    matching the same lines) with such a line within STRONG_MARGIN points."""
    strong = [m for m in matches if m["_strong_evidence"]]
    for m in matches:
        hits = m.pop("_hits")
        if m in strong and not any(
                o is not m and o["score"] >= m["score"] - STRONG_MARGIN and _related(m, o, refs)
                for o in strong):
            m["confidence"] = "strong"
        elif hits and m["kind"] in POSSIBLE_KINDS:
            m["confidence"] = "possible"


def _related(a: dict, b: dict, refs: dict) -> bool:
    return (b["id"] in refs[a["id"]]["look_alikes"] or a["id"] in refs[b["id"]]["look_alikes"]
            or bool(set(a["_lines"]) & set(b["_lines"])))


def _context_fit(ref: dict, hints: dict):
    fits, conflicts = [], []
    specific = set(ref["specific_frameworks"])
    seen = set(hints["frameworks"]) & hint_rules.SPECIFIC_FRAMEWORKS
    unsupported = []
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


def _merge(a: dict, b: dict) -> dict:
    merged = {k: sorted(set(a[k]) | set(b[k])) for k in ("frameworks", "hardware", "environments", "versions")}
    merged["scale"] = a["scale"] or b["scale"]
    return merged


def _stale_hits(scan, signatures, window: float, replayed: bool, warnings: list) -> dict:
    """Hardware evidence that is old, replayed or from an earlier boot cannot confirm a current fault."""
    stale = {}
    for index, hits in sorted(scan.hits.items()):
        if not signatures[index]["hardware"]:
            continue
        reasons = [r for r in (_stale_reason(h, hits, scan, window, replayed) for h in hits) if r]
        if reasons and len(reasons) == len(hits):
            stale[index] = True
            sig = signatures[index]
            warnings.append({"kind": "stale-evidence", "signature": sig["id"], "reference": sig["ref"],
                             "line": hits[0].line_no, "text": f"line {hits[0].line_no}: {reasons[0]}; it cannot "
                             "confirm a current hardware fault on its own"})
    return stale


def _stale_reason(hit, hits, scan, window, replayed):
    if replayed:
        return "the context says this log is archived, replayed or an example"
    if sum(1 for h in hits if h.text == hit.text) > 1 and hit.stamp:
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


def _duration(seconds: float) -> str:
    if seconds >= 86400:
        return f"{seconds / 86400:.1f} days"
    if seconds >= 3600:
        return f"{seconds / 3600:.1f} hours"
    return f"{seconds / 60:.0f} minutes"
