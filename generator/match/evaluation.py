"""Scoring matching against labelled cases: the development set in tests/devset/ and the
third-party gpualert-eval corpus. Used by the quality tests and by bench/match_quality.py."""
import json
from dataclasses import dataclass
from pathlib import Path

import yaml

from .. import paths

DEVSET = paths.ROOT / "tests" / "devset"
GPUALERT = paths.ROOT.parent / "shared" / "eval" / "gpualert-eval"
CATALOG_IDS = paths.ROOT / "tests" / "data" / "catalog-ids.tsv"


@dataclass
class Case:
    id: str
    text: str
    accept: list | None   # None: not scored for top-k (either non-confident answer is right)
    context: str = ""
    source: str = ""


def devset_cases() -> list[Case]:
    cases = []
    for file in sorted(DEVSET.glob("*.yaml")):
        for item in yaml.safe_load(file.read_text(encoding="utf-8")) or []:
            cases.append(Case(item["id"], item["text"], list(item["accept"]), item.get("context") or "",
                              item.get("source", "")))
    return cases


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


def score(cases: list[Case], answer) -> dict:
    """`answer(case)` returns (ranked ids, confident). Returns the floors' figures."""
    pos = top1 = top3 = confident_right = neg = neg_clear = confident = confident_ok = 0
    misses = []
    for case in cases:
        ids, sure = answer(case)
        right_top1 = bool(case.accept) and bool(ids) and ids[0] in case.accept
        if sure:
            confident += 1
            confident_ok += right_top1
        if case.accept is None:
            continue
        if case.accept:
            pos += 1
            top1 += right_top1
            top3 += any(i in case.accept for i in ids[:3])
            confident_right += sure and right_top1
            if not right_top1:
                misses.append((case.id, case.accept, ids[:3], sure))
        else:
            neg += 1
            neg_clear += not sure
            if sure:
                misses.append((case.id, [], ids[:1], sure))
    ratio = lambda a, b: a / b if b else 1.0
    return {"positives": pos, "negatives": neg, "top1": ratio(top1, pos), "top3": ratio(top3, pos),
            "negatives_not_confident": ratio(neg_clear, neg), "strong_precision": ratio(confident_ok, confident),
            "confident_right": ratio(confident_right, pos), "confident": confident, "misses": misses}


def engine_answer(engine):
    def answer(case: Case):
        result = engine.match(case.text, context=case.context, top=5)
        return [m["id"] for m in result["matches"]], result["confident"]
    return answer
