"""Matching quality on the development set and the gpualert-eval corpus, beside a baseline:
lunr full-text search over the same references with the paste as the query (what a site's
plain search gives). Prints one row per engine and set.

    .venv/bin/python bench/match_quality.py [--misses]
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from lunr import lunr  # noqa: E402

from relref.match.evaluation import GPUALERT, devset_cases, engine_answer, gpualert_cases, score  # noqa: E402
from relref.match import load_engine  # noqa: E402
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
        return [r["ref"] for r in index.query(query)], False
    return answer


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--misses", action="store_true", help="list the cases each set gets wrong")
    args = parser.parse_args()
    engine, records = load_engine(), load_records()
    sets = [("development set", devset_cases())]
    if GPUALERT.is_dir():
        sets.append(("gpualert-eval", gpualert_cases()))
    print(f"{'set':16} {'engine':12} {'pos':>4} {'neg':>4} {'top1':>6} {'top3':>6} {'neg ok':>7} "
          f"{'strong prec':>11} {'conf right':>10}")
    for name, cases in sets:
        for label, answer in (("relref", engine_answer(engine)), ("lunr search", plain_search_answer(records))):
            f = score(cases, answer)
            precision = f"{f['strong_precision']:.3f}" if f["confident"] else "n/a"  # never confident
            print(f"{name:16} {label:12} {f['positives']:>4} {f['negatives']:>4} {f['top1']:>6.3f} {f['top3']:>6.3f} "
                  f"{f['negatives_not_confident']:>7.3f} {precision:>11} {f['confident_right']:>10.3f}")
            if args.misses and label == "relref":
                for case_id, accept, got, sure in f["misses"]:
                    print(f"    miss {case_id}: accept {accept[:3]} got {got}{' (confident)' if sure else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
