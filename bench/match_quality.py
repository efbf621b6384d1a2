"""Matching quality, beside a baseline: lunr full-text search over the same references with the
paste as the query (what a site's plain search gives).

    .venv/bin/python bench/match_quality.py [--split dev|test|gpualert|all] [--misses]

The test split is printed as aggregate counts only ("strong: 51 right of 52"): no per-case rows and
no misses and no per-reference rows (which would point at where it fails), so that nobody tunes on it. Its frozen row is always over the cases of the freezing
commit that nobody has studied since; studied cases are reported on their own row (moved out), and
cases added later on a top-up row. `--misses` lists misses of the development set only.
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lunr import lunr  # noqa: E402

from relref.match import load_engine  # noqa: E402
from relref.match.evaluation import (GPUALERT, SHAPES, Answer, devset_cases, cause_twins, engine_answer, evaluate,  # noqa: E402
                                     gpualert_cases, hard_negatives, testsplit_cases)
from relref.records.load import load_records  # noqa: E402


def plain_search_answer(records):
    """The baseline: lunr's own pipeline (stemming, stop words) over title, summary and
    signatures; the paste as a query of optional terms; never confident."""
    docs = [{"id": r.id, "title": r.data["title"], "body": r.data["summary"] + " " +
             " ".join(s["example"] for s in r.data["signatures"])} for r in records]
    index = lunr(ref="id", fields=[{"field_name": "title", "boost": 3}, "body"], documents=docs)

    def answer(case):
        query = index.create_query()
        for word in set(case.text.lower().split()[:200]):
            word = "".join(ch for ch in word if ch.isalnum())
            if word:
                query.term(word, use_pipeline=True)
        return Answer([r["ref"] for r in index.query(query)], False)
    return answer


def print_set(name, cases, engine, baseline, known_refs, detail: bool, misses: bool, per_reference: bool = False) -> None:
    hard = hard_negatives(cases, engine)
    groups = [("all", cases)]
    beyond = [c for c in cases if c.accept and c.accept[0] not in known_refs]
    if beyond:
        groups += [("catalog references", [c for c in cases if c not in beyond]), ("references beyond the catalog", beyond)]
    print(f"\n## {name}: {len(cases)} cases")
    for label, group in groups:
        for engine_name, answer in (("relref", engine_answer(engine)), ("lunr search", baseline)):
            e = evaluate(group, answer, hard, twins=cause_twins(engine))
            t = e["tallies"]
            print(f"{label} / {engine_name}: top-1 {t['top1']}; top-3 {t['top3']}; strong right {t['strong']}; "
                  f"confident and right {t['confident_right']}; negatives not confident {t['negatives']} "
                  f"(hard {t['hard_negatives']}, easy {t['easy_negatives']}); first cause right {t['first_cause']} "
                  f"(or its twin on the other page {t['first_cause_or_twin']}); "
                  f"further reading found {t['further_reading']}; both failures named {t['two_failure']}; "
                  f"mean accept size {e['mean_accept']:.2f}")
            if engine_name == "relref" and label == "all" and detail:
                for shape in SHAPES:
                    s = e["shapes"][shape]
                    print(f"  shape {shape}: top-1 {s['top1']}; top-3 {s['top3']}; negatives not confident {s['negatives']}")
            if engine_name == "relref" and label == "all" and per_reference:
                print("  per reference (first accepted id): cases, top-1, strong right when named first")
                for ref in sorted(e["per_ref"]):
                    row = e["per_ref"][ref]
                    print(f"    {ref}: top-1 {row['top1']}; strong {row['strong']}")
            if misses and engine_name == "relref" and label == "all":
                for case_id, accept, got, sure in e["misses"]:
                    print(f"    miss {case_id}: accept {accept} got {got}{' (confident)' if sure else ''}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--split", choices=("dev", "test", "gpualert", "all"), default="all")
    parser.add_argument("--misses", action="store_true", help="list the development set's misses")
    args = parser.parse_args()
    engine, records = load_engine(), load_records()
    known = {r.id for r in records if not r.data.get("beyond_catalog")}  # cases answered by the 42
    baseline = plain_search_answer(records)
    if args.split in ("dev", "all"):
        print_set("development set", devset_cases(), engine, baseline, known, True, args.misses, per_reference=True)
    if args.split in ("test", "all"):
        for part in ("frozen", "moved-out", "topup"):
            cases = testsplit_cases(part)
            if cases or part == "frozen":
                print_set(f"test split, {part}", cases, engine, baseline, known, True, False)
    if args.split in ("gpualert", "all") and GPUALERT.is_dir():
        print_set("gpualert-eval", gpualert_cases(), engine, baseline, known, False, args.misses)
    return 0


if __name__ == "__main__":
    sys.exit(main())
