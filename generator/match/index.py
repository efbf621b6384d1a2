"""The match index: one static file, read by `relref match` and by the browser.

It holds each reference's signature patterns (with the literal the prefilter looks
for), a lunr full-text index over the references' words, and the context data
(frameworks, hardware) and checks the engine reports. Its format is internal.
"""
import hashlib
import json
import re
from collections import Counter
from pathlib import Path

from .hints import SPECIFIC_FRAMEWORKS
from .dialect import all_required, compile_signature, required_literals
from .lunr_form import compact
from .scan import SIGNATURE_DEFAULTS
from ..records.code_tables import code_pages, load_code_tables, printed_texts, read_locked_code_pages, row_aliases, row_codes
from ..records.headings import cause_heading
from ..records.load import Record
from .tokenize import tokenize

FORMAT = 3  # 3: the lunr part carries term counts (lunr_form)
LUNR_FIELDS = [("title", 4), ("summary", 2), ("causes", 2), ("signatures", 2), ("body", 1)]
HARDWARE_EVIDENCE = re.compile(r"Xid|ECC|[Rr]emap|NVLink|AER|fallen off the bus|uncorrectable|power violation|thermal|PCIe",
                               re.IGNORECASE)
GPU_MODELS = {"v100", "a100", "h100", "h200", "b200", "gb200"}


def build_index(records: list[Record], code_tables: dict | None = None, locked_codes=None) -> dict:
    """The match index over `records`. Code links follow the codes pages built from the same
    records, tables and URL lock (`locked_codes`: (kind, slug) pairs; default: the repository's)."""
    kinds = {r.id: r.data["kind"] for r in records}
    matcher = _PatternFinder(records)
    index = {
        "format": FORMAT,
        "rules": _rules(set(kinds)),
        "references": [_reference(r) for r in records],
        "signatures": [_without_defaults(e) for e in _with_all_required([_signature(r, s, matcher, kinds)
                                                                          for r in records for s in r.data["signatures"]])],
        "codes": _codes(code_tables if code_tables is not None else load_code_tables(), records,
                        read_locked_code_pages() if locked_codes is None else locked_codes),
        "lunr": _lunr(records),
    }
    _by_position(index)
    index["version"] = hashlib.sha256(json.dumps(index, sort_keys=True, separators=(",", ":")).encode()).hexdigest()[:16]
    return index


def write_index(records: list[Record], path: Path, locked_codes=None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(build_index(records, locked_codes=locked_codes), separators=(",", ":")), encoding="utf-8")


def _reference(record: Record) -> dict:
    data, applies = record.data, record.data.get("applies_to", {})
    frameworks = applies.get("frameworks", [])
    # A reference is about a framework when its title names it ("DeepSpeed ZeRO-3: ..."): a log
    # from another such framework conflicts, and the framework must show for it to be strong.
    title = data["title"].lower()
    specific = sorted(f for f in set(frameworks) & SPECIFIC_FRAMEWORKS if f.split("-")[0] in title)
    hardware = applies.get("hardware", [])
    models = [] if "any-nvidia-gpu" in hardware else sorted(set(hardware) & GPU_MODELS)
    heading = {c["id"]: cause_heading(c)[0] for c in data["causes"]}
    return {
        "id": record.id, "title": data["title"], "kind": data["kind"], "category": data["category"],
        "frameworks": frameworks, "specific_frameworks": specific, "gpu_models": models,
        "environments": applies.get("environments", []),
        "cause_titles": heading,  # in the record's order
        # The words of each cause, for telling a reference's causes apart by what the paste says.
        "cause_terms": {c["id"]: sorted(set(tokenize(c.get("title", "") + " " + c["description"]))) for c in data["causes"]},
        "cause_checks": {c["id"]: c["checks"] for c in data["causes"]},
        "checks": [_check(e) for e in _checks_in_cause_order(data)],
        "look_alikes": [a["ref"] for a in data.get("look_alikes", []) if "ref" in a],
        "explains": data.get("explains", []),
        # Causes told on another reference under their own id (same_as): the evaluation counts the
        # twin as the same story in its own figure.
        **({"cause_twins": twins} if (twins := {c["id"]: [c["same_as"]["ref"], c["same_as"]["cause"]]
                                                 for c in data["causes"] if "same_as" in c}) else {}),
    }


def _checks_in_cause_order(data: dict) -> list[dict]:
    by_id = {e["id"]: e for e in data["evidence"]}
    order = [k for c in data["causes"] for k in c["checks"]] + list(by_id)
    return [by_id[k] for k in dict.fromkeys(order)]


def _check(check: dict) -> dict:
    """A check as the index carries it: empty fields are left out, and whether it tells causes
    apart is worked out on load (engine.check_in_full and its twin)."""
    entry = {"id": check["id"], "title": check["title"], "command": check.get("command", ""),
             "observation": check.get("observation", ""), "how_to_read": check["how_to_read"],
             "confirms": check.get("confirms", []), "rules_out": check.get("rules_out", [])}
    return {k: v for k, v in entry.items() if v not in ("", [])}


def _signature(record: Record, sig: dict, matcher: "_PatternFinder", kinds: dict) -> dict:
    """A message is shared when another reference's pattern matches its example. A line that
    names the fault stays unshared when only symptoms, field reports and practices (which
    print nothing of their own) also list it."""
    others = matcher.refs_matching(sig["example"]) - {record.id}
    if sig["role"] == "cause":
        others = {ref for ref in others if kinds[ref] == "error"}
    shared = bool(others)
    literals = list(required_literals(sig["pattern"]))
    entry = {"ref": record.id, "id": sig["id"], "pattern": sig["pattern"], "ignore_case": bool(sig.get("ignore_case")),
             "role": sig["role"], "shared": shared, "hardware": bool(HARDWARE_EVIDENCE.search(sig["example"])),
             "causes": sig.get("causes", []), "marks": sig.get("marks", ""),
             "literals": [lit.lower() for lit in literals] if sig.get("ignore_case") else literals}
    if sig.get("unless"):
        entry["unless"] = sig["unless"]
    return entry


ALSO_SHARED = 3  # signatures with the same literals, from which on the browser's scan is told `also`


def _with_all_required(entries: list[dict]) -> list[dict]:
    """`also`: the literals a line must hold besides one of `literals` (all of them), for the
    browser's scan, which tests a line holding a literal against each signature that has it, in
    re2js. Given where that is many tests a line (ALSO_SHARED or more signatures with the same
    literals, as the Xid signatures are) and only for a case-sensitive rule, where the literals
    are exactly what its pattern requires: the index is downloaded with every paste."""
    sharing = Counter(tuple(e["literals"]) for e in entries)
    out = []
    for e in entries:
        also = () if e["ignore_case"] or sharing[tuple(e["literals"])] < ALSO_SHARED else all_required(e["pattern"])
        out.append(dict(e, also=list(also)) if also else e)
    return out


def _by_position(index: dict) -> None:
    """A signature's causes and a cause's checks as positions in their reference's lists (the
    cause order of `cause_titles`, the order of `checks`) rather than ids: 2.2 KB gzip at 48
    references. Both engines put the ids back on load (engine.expand_positions and its twin)."""
    refs = {r["id"]: r for r in index["references"]}
    for ref in index["references"]:
        checks = [c["id"] for c in ref["checks"]]
        ref["cause_checks"] = {cid: [checks.index(k) for k in ks] for cid, ks in ref["cause_checks"].items()}
    for sig in index["signatures"]:
        if sig.get("causes"):
            order = list(refs[sig["ref"]]["cause_titles"])
            sig["causes"] = [order.index(cid) for cid in sig["causes"]]


def _without_defaults(entry: dict) -> dict:
    return {k: v for k, v in entry.items() if k not in SIGNATURE_DEFAULTS or v != SIGNATURE_DEFAULTS[k]}


class _PatternFinder:
    """Which references' patterns match a line, without trying every pattern on every example:
    patterns are indexed by the first characters of their required literals (the prefilter the
    matcher uses), so the cost grows with the number of records, not with its square."""
    KEY = 3

    def __init__(self, records: list[Record]):
        self.by_key, self.unfiltered = {}, []
        compiled = {}
        for record in records:
            for sig in record.data["signatures"]:
                key = (sig["pattern"], bool(sig.get("ignore_case")), sig.get("unless"))
                if key not in compiled:
                    compiled[key] = (compile_signature(*key), required_literals(sig["pattern"]), set())
                compiled[key][2].add(record.id)
        for (_, ignore_case, _), (rx, literals, refs) in compiled.items():
            entry = (rx, literals, refs, ignore_case)
            if not literals:
                self.unfiltered.append(entry)
            for literal in literals:
                prefix = literal[:self.KEY].lower() if ignore_case else literal[:self.KEY]
                self.by_key.setdefault(prefix, []).append(entry)

    def refs_matching(self, line: str) -> set:
        lowered = line.lower()
        candidates = {id(e): e for e in self.unfiltered}
        for i in range(len(line) - self.KEY + 1):
            for hay in {line[i:i + self.KEY], lowered[i:i + self.KEY]}:
                for entry in self.by_key.get(hay, ()):
                    candidates[id(entry)] = entry
        found = set()
        for rx, literals, refs, ignore_case in candidates.values():
            hay = lowered if ignore_case else line
            if (not literals or any(lit in hay for lit in literals)) and rx.search(line):
                found |= refs
        return found


def _lunr(records: list[Record]) -> dict:
    """A lunr index over pre-tokenised text: no stemmer or stop-word filter on either side,
    so lunr.py and lunr.js see exactly the terms our shared tokenizer made."""
    return compact([_lunr_document(r.data) for r in records], LUNR_FIELDS)


def _lunr_document(data: dict) -> dict:
    """Each reference's words by field, weighted apart (LUNR_FIELDS). Lists of terms skip lunr.py's
    character-by-character tokenizer."""
    body = [e["title"] + " " + e["how_to_read"] for e in data["evidence"]] + \
           [a.get("how_to_tell", "") for a in data.get("look_alikes", [])]
    return {"id": data["id"], "title": tokenize(data["title"]), "summary": tokenize(data["summary"]),
            "causes": tokenize(" ".join(c.get("title", "") + " " + c["description"] for c in data["causes"])),
            "signatures": tokenize(" ".join(s["example"] for s in data["signatures"])),
            "body": tokenize(" ".join(body))}


def _rules(known: set | None = None) -> dict:
    """The engine's tables, shared with the browser engine so both read one definition. Cues keep
    only the references this record set has (tests/test_cues.py checks the catalog has them all)."""
    from . import engine, hints, readings, scan, text, timestamps, tokenize as tok
    return {
        "text": {"spaces": text.SPACES, "soft_ends": text.SOFT_ENDS, "quotes": text.QUOTES, "max_line": text.MAX_LINE,
                 "half_window": text.HALF_WINDOW},
        "tokenizer": {"stop_words": sorted(tok.STOP_WORDS), "keep_digits": sorted(tok.KEEP_DIGITS),
                      "suffixes": list(tok.SUFFIXES), "max_token": tok.MAX_TOKEN, "min_stem": tok.MIN_STEM},
        "timestamps": {"forms": [[kind, pattern] for kind, pattern in timestamps.FORMS], "lead": timestamps.LEAD,
                       "head": timestamps.HEAD},
        "hints": hints.table(known),
        "readings": readings.table(known),
        "scan": {"chunk": scan.CHUNK, "hits_kept": scan.HITS_KEPT, "informative_kept": scan.INFORMATIVE_KEPT, "steps_kept": scan.STEPS_KEPT,
                 "stamps_wanted": scan.STAMPS_WANTED, "stamped_hits": scan.STAMPED_HITS,
                 "tail_stamps": scan.TAIL_STAMPS, "signature_defaults": scan.SIGNATURE_DEFAULTS, "short_paste": scan.SHORT_PASTE, "short_chars": scan.SHORT_CHARS,
                 "informative": scan.INFORMATIVE, "informative_least": scan.INFORMATIVE_LEAST},
        "rank": {"weights": engine.WEIGHTS, "kind_factor": engine.KIND_FACTOR, "text_floor": engine.TEXT_FLOOR,
                 "min_terms": engine.MIN_TERMS, "relevance_chars": engine.RELEVANCE_CHARS,
                 "strong_margin": engine.STRONG_MARGIN, "max_terms": engine.MAX_TERMS,
                 "context_boost": engine.CONTEXT_BOOST, "words_shown": engine.WORDS_SHOWN,
                 "checks_per_match": engine.CHECKS_PER_MATCH, "next_checks": engine.NEXT_CHECKS,
                 "next_checks_depth": engine.NEXT_CHECKS_DEPTH, "weak_shown": engine.WEAK_SHOWN,
                 "further_floor": engine.FURTHER_FLOOR, "further_shown": engine.FURTHER_SHOWN, "max_codes": engine.MAX_CODES,
                 "cause_words_floor": engine.CAUSE_WORDS_FLOOR, "causes_by_words": engine.CAUSES_BY_WORDS,
                 "candidate_kinds": list(engine.CANDIDATE_KINDS), "condition": engine.CONDITION,
                 "hardware_categories": list(engine.HARDWARE_CATEGORIES),
                 "engine_version": engine.ENGINE_VERSION, "schema_version": engine.RESULT_SCHEMA_VERSION},
    }


def _codes(tables: dict, records: list[Record], locked) -> dict:
    """What the engine shows for each code (meaning, class, what to do, the references that explain
    it, owner first, and its link) and how to find codes in a line. The link is the one the codes
    pages give the code (code_url): its page, or its row of the family's page."""
    from . import codes as detect
    record_ids = {r.id for r in records}
    pages = code_pages(tables, records, locked)
    entries, aliases = {}, {}

    def add(kind, code, name, gloss, klass, recovery, refs):
        # Kind and code are the key's two parts; a name the same as the code, an empty recovery,
        # no references and a link the key gives are left out (Engine._code_entry and its twin put
        # them back).
        entry = {"gloss": gloss, "class": klass}
        url = code_url(pages, kind, str(code))
        if url == f"codes/{kind}/{code}/":
            entry["url"] = "/"  # its own page
        elif url != f"codes/{kind}/#{kind}-{code}":  # else its row on the family's page
            entry["url"] = url
        if name != str(code):
            entry["name"] = name
        if recovery:
            entry["recovery"] = recovery.rstrip(".")  # a clause: the answer ends its sentence once
        if refs := [r for r in dict.fromkeys(refs) if r in record_ids]:
            entry["references"] = refs
        entries[f"{kind}:{code}"] = entry

    for e in tables.get("xid", []):
        recovery = e.get("immediate_action") or ""
        if e.get("investigatory_action"):
            recovery += f" (then {e['investigatory_action']})"
        add("xid", e["code"], e["mnemonic"], e["gloss"], e["class"], recovery, [e.get("owner")] + e.get("references", []))
    for e in tables.get("sxid", []):
        add("sxid", e["code"], e["name"], e.get("gloss", ""), e["class"], "", [e.get("owner")] + e.get("references", []))
    for e in tables.get("cuda", []):
        add("cuda", e["name"], e["name"], e["gloss"], e["class"], e.get("recovery"), [e.get("owner")] + e.get("references", []))
    for e in tables.get("nccl", []):
        if e.get("kind") == "result":
            add("nccl", e["name"], e["name"], e["gloss"], e["class"], e.get("recovery"), [e.get("owner")] + e.get("references", []))
    for e in tables.get("signals", []):
        add("signal", e["name"], e["name"], e["gloss"], e["class"], e.get("recovery"), [e.get("owner")] + e.get("references", []))
        for status in (e.get("shell_status"), e.get("python_status")):
            if status is not None:
                aliases[f"exit:{status}"] = f"signal:{e['name']}"
    for e in tables.get("k8s", []):
        add("k8s", e["reason"], e["reason"], e["gloss"], e["class"], e.get("recovery"), [e.get("owner")] + e.get("references", []))
    for e in tables.get("slurm", []):
        add("slurm", e["name"], e["name"], e["gloss"], e["class"], e.get("recovery"), [e.get("owner")] + e.get("references", []))
    for e in tables.get("dcgm", []):
        add("dcgm", e["name"], e["name"], e.get("message", ""), e["class"], e.get("suggestion"),
            [e.get("owner")] + e.get("references", []))
    for family in ("dcgm", "slurm"):  # deprecated DCGM names; the "DUE TO ..." a Slurm detector captures
        for e in tables.get(family, []):
            own = row_codes(family, e)[0]
            for kind, name in row_aliases(family, e):
                aliases[f"{kind}:{name}"] = f"{own[0]}:{own[1]}"
    detectors = [{"kind": kind, "literals": list(required_literals(pattern)), "pattern": pattern, "ignore_case": ignore_case,
                  "ref": None, "id": f"code-{kind}-{i}", "role": "symptom", "shared": True, "hardware": False, "causes": []}
                 for i, (kind, pattern, ignore_case) in enumerate(detect.DETECTORS)]
    for d in detectors:  # the scan's literals are lower-cased for rules that ignore case
        if d["ignore_case"]:
            d["literals"] = [lit.lower() for lit in d["literals"]]
    return {"entries": entries, "aliases": aliases, "texts": printed_texts(tables), "detectors": detectors,
            "names": detect.NAMES, "kind_of": detect.KIND_OF}


def code_url(pages, kind: str, code: str) -> str:
    """A code's link, relative to the site root, as the codes pages give it: its page
    (codes/<kind>/<slug>/) when code_pages() gives it one, else its row of the family's page
    (codes/<family>/#<anchor>)."""
    return pages.url(kind, code) or "codes/"
