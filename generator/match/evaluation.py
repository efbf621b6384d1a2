"""Scoring matching against labelled cases: the development set (tests/devset/), the frozen test
split (tests/testsplit/) and the third-party gpualert-eval corpus. Used by the quality tests and by
bench/match_quality.py, which prints the test split only as aggregate counts.

A case's `accept` lists at most two references, the first being the answer its thread reaches;
`cause` is that reference's cause. Cases whose only fitting references are field reports or
practices are scored on their own row (further reading), never on top-1.
"""
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .. import paths
from .engine import TEXT_FLOOR

DEVSET = paths.ROOT / "tests" / "devset"
TESTSPLIT = paths.ROOT / "tests" / "testsplit"
FROZEN = TESTSPLIT / "frozen.yaml"
MOVED_OUT = TESTSPLIT / "moved-out.yaml"
TOPUP = TESTSPLIT / "topup.yaml"
CASE_SCHEMA = paths.ROOT / "schema" / "case.schema.json"
GPUALERT = paths.ROOT.parent / "shared" / "eval" / "gpualert-eval"
CATALOG_IDS = paths.ROOT / "tests" / "data" / "catalog-ids.tsv"
SHAPES = ("short", "long", "chained", "two-failure")


@dataclass
class Case:
    id: str
    text: str
    accept: list | None   # None: not scored for top-k (either non-confident answer is right)
    context: str = ""
    source: str = ""
    sources: list = field(default_factory=list)
    cause: str | None = None
    shapes: tuple = ("short",)
    further_reading: bool = False
    second: dict | None = None
    unscored: str | None = None

    @property
    def negative(self) -> bool:
        return self.accept == []

    @property
    def threads(self) -> set:
        return {thread_key(u) for u in [self.source, *self.sources] if u}


def thread_key(url: str) -> str:
    """One key per discussion: an issue and its comments, a pull request (numbered with issues),
    a forum topic, or a file; scheme, www., query and fragment dropped."""
    url = url.split("#")[0].rstrip(".,;:)")
    m = re.match(r"https?://github\.com/([^/]+)/([^/]+)/(issues|pull|discussions)/(\d+)", url)
    if m:
        kind = "discussions" if m[3] == "discussions" else "issues"
        return f"github.com/{m[1].lower()}/{m[2].lower()}/{kind}/{m[4]}"
    m = re.match(r"https?://discuss\.pytorch\.org/t/([^/]+)(?:/(\d+))?", url)
    if m:
        return f"discuss.pytorch.org/t/{m[2] or m[1]}"
    return re.sub(r"^https?://(www\.)?", "", url).split("?")[0].rstrip("/").lower()


def read_cases(file: Path) -> list[Case]:
    out = []
    for item in yaml.safe_load(Path(file).read_text(encoding="utf-8")) or []:
        shape = item.get("shape", "short")
        out.append(Case(item["id"], item["text"], list(item["accept"]), item.get("context") or "",
                        item.get("source", ""), list(item.get("sources", [])), item.get("cause"),
                        tuple(shape if isinstance(shape, list) else [shape]), bool(item.get("further_reading")),
                        item.get("second"), item.get("unscored")))
    return out


def devset_cases() -> list[Case]:
    return [c for file in sorted(DEVSET.glob("*.yaml")) for c in read_cases(file)]


def moved_out() -> dict:
    """{case id: reason} for test-split cases that were looked at while changing the engine."""
    if not MOVED_OUT.exists():
        return {}
    return {item["id"]: item["reason"] for item in yaml.safe_load(MOVED_OUT.read_text(encoding="utf-8")) or []}


def testsplit_cases(part: str = "frozen") -> list[Case]:
    """`frozen`: the cases of the freezing commit still unseen; `moved-out`: those studied since;
    `topup`: cases added after the freeze."""
    if part == "topup":
        return read_cases(TOPUP) if TOPUP.exists() else []
    frozen, out = read_cases(FROZEN) if FROZEN.exists() else [], moved_out()
    return [c for c in frozen if (c.id in out) == (part == "moved-out")]


def gpualert_cases(root: Path = GPUALERT) -> list[Case]:
    """Every .log under corpus/, labelled by the first part of its name, mapped to references."""
    title_to_id = {title: ref for ref, title in
                   (l.split("\t", 1) for l in CATALOG_IDS.read_text(encoding="utf-8").splitlines() if l)}
    labels = json.loads((root / "label-map.json").read_text(encoding="utf-8"))["labels"]
    cases = []
    for log in sorted((root / "corpus").rglob("*.log")):
        label = log.name.split("-", 1)[0]
        expect = labels[label]
        text = "\n".join(l for l in log.read_text(encoding="utf-8", errors="replace").splitlines()
                         if not l.startswith("[inject]"))
        cases.append(Case(log.stem, text, None if expect is None else [title_to_id[t] for t in expect]))
    return cases


@dataclass
class Answer:
    ids: list                 # candidates, ranked
    confident: bool
    further: list = field(default_factory=list)   # further reading (field reports, practices)
    cause: str | None = None  # the first cause of the first candidate
    found: set = field(default_factory=set)       # references named by any finding


def engine_answer(engine):
    def answer(case: Case) -> Answer:
        return answer_from_result(engine.match(case.text, context=case.context, top=5))
    return answer


def answer_from_result(result: dict) -> Answer:
    matches = result["matches"]
    causes = matches[0].get("causes", []) if matches else []
    found = {m["id"] for f in result.get("findings", []) for m in f.get("matches", [])[:1]}
    return Answer([m["id"] for m in matches], bool(result["confident"]),
                  [m["id"] for m in result.get("further_reading", [])], causes[0]["id"] if causes else None, found)


class Tally:
    """A right-of-total count, printed as 'right of total (ratio)'."""

    def __init__(self):
        self.right = self.total = 0

    def add(self, ok: bool) -> None:
        self.total += 1
        self.right += bool(ok)

    @property
    def ratio(self) -> float:
        return self.right / self.total if self.total else 1.0

    def __str__(self) -> str:
        return f"{self.right} of {self.total}" + (f" ({self.ratio:.3f})" if self.total else "")


def cause_twins(engine) -> dict:
    """(reference, cause) -> (reference, cause) of the same story on another page (same_as)."""
    return {(ref_id, cause): tuple(other) for ref_id, ref in engine.refs.items()
            for cause, other in ref.get("cause_twins", {}).items()}


def evaluate(cases: list[Case], answer, hard: set | None = None, twins: dict | None = None) -> dict:
    """Every figure the floors and the benchmark report, as Tallies; `hard` names hard negatives.
    `twins` (cause_twins) adds first_cause_or_twin: the first cause right, or its twin named on the
    other page of the pair (both pages accepted). The floors are read on first_cause."""
    twins = twins or {}
    t = {k: Tally() for k in ("top1", "top3", "strong", "confident_right", "negatives", "hard_negatives",
                              "easy_negatives", "first_cause", "first_cause_or_twin", "further_reading", "two_failure")}
    shapes = {s: {"top1": Tally(), "top3": Tally(), "negatives": Tally()} for s in SHAPES}
    per_ref: dict = {}
    misses, accept_sizes = [], []
    for case in cases:
        if case.unscored:
            continue
        got = answer(case)
        # A paste with two unrelated failures is answered right by either of them; "both failures
        # named" counts whether the answer shows both.
        right = set(case.accept or []) | ({case.second["ref"]} if case.second else set())
        top1 = bool(case.accept) and bool(got.ids) and got.ids[0] in right
        if got.confident:
            t["strong"].add(top1 and not case.further_reading)
            if got.ids:
                per_ref.setdefault(got.ids[0], _ref_row())["strong"].add(top1)
        if case.accept is None:
            continue
        if case.negative:
            t["negatives"].add(not got.confident)
            if hard is not None:
                t["hard_negatives" if case.id in hard else "easy_negatives"].add(not got.confident)
            for s in case.shapes:
                shapes[s]["negatives"].add(not got.confident)
            if got.confident:
                misses.append((case.id, [], got.ids[:1], True))
            continue
        accept_sizes.append(len(case.accept))
        if case.further_reading:
            t["further_reading"].add(bool(set(case.accept) & set(got.further + got.ids[:3])))
            continue
        in3 = any(i in right for i in got.ids[:3])
        t["top1"].add(top1)
        t["top3"].add(in3)
        t["confident_right"].add(got.confident and top1)
        # A two-failure paste answered by its second failure is judged on that failure's cause.
        by_second = bool(case.second) and bool(got.ids) and got.ids[0] == case.second["ref"] != case.accept[0]
        want = case.second.get("cause") if by_second else case.cause
        if want:
            t["first_cause"].add(top1 and got.cause == want)
            wanted = (case.second["ref"] if by_second else case.accept[0], want)
            t["first_cause_or_twin"].add(top1 and (got.cause == want or twins.get(wanted) == (got.ids[0], got.cause)))
        if case.second:
            named = set(got.ids[:3]) | got.found
            t["two_failure"].add(case.accept[0] in named and case.second["ref"] in named)
        for s in case.shapes:
            shapes[s]["top1"].add(top1)
            shapes[s]["top3"].add(in3)
        per_ref.setdefault(case.accept[0], _ref_row())["top1"].add(top1)
        if not top1:
            misses.append((case.id, case.accept, got.ids[:3], got.confident))
    return {"tallies": t, "shapes": shapes, "per_ref": per_ref, "misses": misses,
            "mean_accept": sum(accept_sizes) / len(accept_sizes) if accept_sizes else 0.0}


def _ref_row() -> dict:
    return {"top1": Tally(), "strong": Tally()}


def score(cases: list[Case], answer) -> dict:
    """The floors' figures as ratios (the quality tests' view of evaluate)."""
    e = evaluate(cases, answer)
    t = e["tallies"]
    return {"positives": t["top1"].total, "negatives": t["negatives"].total, "top1": t["top1"].ratio,
            "top3": t["top3"].ratio, "negatives_not_confident": t["negatives"].ratio,
            "strong_precision": t["strong"].ratio, "confident_right": t["confident_right"].ratio,
            "first_cause": t["first_cause"].ratio, "confident": t["strong"].total, "misses": e["misses"]}


def hard_negatives(cases: list[Case], engine) -> set:
    """Negatives with a line holding a signature's required literal, or whose words alone would
    list a reference (full-text relevance at or above the engine's text floor)."""
    literals = [(lit, sig["ignore_case"]) for sig in engine.signatures for lit in sig["literals"]]
    hard = set()
    for case in cases:
        if not case.negative:
            continue
        lowered = case.text.lower()
        if any(lit in (lowered if ignore_case else case.text) for lit, ignore_case in literals):
            hard.add(case.id)
        elif any(s >= TEXT_FLOOR for s in engine._full_text(case.text, "", case.context)[0].values()):
            hard.add(case.id)
    return hard


def labelled_threads() -> set:
    """Every thread that already holds a labelled case: the development set and every part of the
    test split. A new case must come from a thread outside it."""
    parts = devset_cases() + testsplit_cases("frozen") + testsplit_cases("moved-out") + testsplit_cases("topup")
    return {key for case in parts for key in case.threads}


if __name__ == "__main__":
    # `python -m relref.match.evaluation URL ...`: "free" or "in use" per thread, for whoever gathers
    # new cases without seeing the test split (it never says which set holds a thread).
    import sys
    used = labelled_threads()
    for url in sys.argv[1:]:
        print(("in use  " if thread_key(url) in used else "free    ") + url)
