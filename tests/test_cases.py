"""The labelled cases themselves: well-formed, labelled to the rules, and a test split that shares
no thread with anything the engine or the records were built from."""
import json
import re

import jsonschema
import pytest
import yaml

from relref import paths
from relref.match import load_engine
from relref.match.evaluation import (CASE_SCHEMA, DEVSET, FROZEN, MOVED_OUT, TOPUP, devset_cases, hard_negatives,
                                     read_cases, thread_key)
from relref.match.evaluation import testsplit_cases as split_cases
from relref.records.load import load_records

PLANNED = paths.ROOT / "tests" / "data" / "planned-references.yaml"
URL = re.compile(r"https?://[^\s'\"<>\]`]+")


@pytest.fixture(scope="module")
def causes_by_ref():
    known = {r.id: {c["id"] for c in r.data["causes"]} for r in load_records()}
    for planned in yaml.safe_load(PLANNED.read_text(encoding="utf-8")):
        known.setdefault(planned["id"], set(planned["causes"]))
    return known


def _case_files():
    return sorted(DEVSET.glob("*.yaml")) + [f for f in (FROZEN, TOPUP) if f.exists()]


@pytest.mark.parametrize("file", _case_files(), ids=lambda f: f.name)
def test_case_files_follow_the_case_schema(file):
    jsonschema.validate(yaml.safe_load(file.read_text(encoding="utf-8")) or [],
                        json.loads(CASE_SCHEMA.read_text(encoding="utf-8")))


def test_labels_name_real_references_and_their_causes(causes_by_ref):
    for case in devset_cases() + read_cases(FROZEN) + split_cases("topup"):
        for ref in case.accept:
            assert ref in causes_by_ref, f"{case.id}: no reference {ref!r}"
        if case.cause:
            assert case.cause in causes_by_ref[case.accept[0]], f"{case.id}: {case.cause!r} is not a cause of {case.accept[0]}"
        if case.second:
            assert case.second["ref"] in causes_by_ref and case.second.get("cause", "") in causes_by_ref[case.second["ref"]] | {""}
        assert not (case.negative and case.cause), f"{case.id}: a negative has no cause"


def test_ids_are_unique_across_every_set():
    ids = [c.id for c in devset_cases() + read_cases(FROZEN) + split_cases("topup")]
    assert len(ids) == len(set(ids))


def _urls_in_records():
    urls = set()
    for file in sorted(paths.RECORDS.glob("*.yaml")):
        urls |= set(URL.findall(file.read_text(encoding="utf-8")))
    return urls


def test_test_split_shares_no_thread_with_records_or_the_development_set():
    """Every URL of every record (signatures' seen_at, sources, anywhere) and every development
    case's source is off limits to the test split; this keeps holding as records grow."""
    used = {thread_key(u) for u in _urls_in_records()}
    used |= {k for c in devset_cases() for k in c.threads}
    test = read_cases(FROZEN) + split_cases("topup")
    shared = sorted((c.id, k) for c in test for k in c.threads if k in used)
    assert not shared, f"test-split cases share threads with records or the development set: {shared}"
    threads = [k for c in test for k in c.threads]
    assert len(threads) == len(set(threads)), "two test-split cases come from one thread"


def test_moved_out_cases_are_frozen_cases_with_a_reason():
    frozen = {c.id for c in read_cases(FROZEN)}
    for item in yaml.safe_load(MOVED_OUT.read_text(encoding="utf-8")) or []:
        assert item["id"] in frozen and item["reason"].strip()


def _shape_counts(cases):
    return {s: sum(1 for c in cases if s in c.shapes) for s in ("long", "chained", "two-failure")}


def test_the_real_cases_are_many_and_varied():
    cases = devset_cases() + read_cases(FROZEN)
    assert len(cases) >= 300
    assert len({k for c in cases for k in c.threads}) >= 200
    counts = _shape_counts(cases)
    assert counts["long"] >= 40 and counts["chained"] >= 40 and counts["two-failure"] >= 20, counts
    assert sum(c.negative for c in cases) >= 90
    for case in cases:
        if "long" in case.shapes:
            assert 30 <= len(case.text.splitlines()) <= 300, case.id


def test_test_split_proportions_and_hard_negatives():
    test, dev = read_cases(FROZEN), devset_cases()
    assert len(test) >= 120
    counts = _shape_counts(test)
    assert counts["long"] >= 0.13 * len(test) and counts["chained"] >= 0.13 * len(test), counts
    assert sum(c.negative for c in test) >= 0.30 * len(test)
    engine = load_engine()
    for cases in (test, dev):
        negatives = [c for c in cases if c.negative]
        assert len(hard_negatives(cases, engine)) >= 0.6 * len(negatives)


def test_a_gatherer_learns_whether_a_thread_is_free_without_learning_where_it_is_used():
    """`python -m relref.match.evaluation URL ...` through a real pipe: a thread the development set
    holds, one the frozen split holds (spelled as a comment link), and one nowhere."""
    import subprocess
    import sys
    from relref.match.evaluation import devset_cases, testsplit_cases
    dev = devset_cases()[0].source
    test = testsplit_cases("frozen")[0].source + "#issuecomment-1"
    done = subprocess.run([sys.executable, "-m", "relref.match.evaluation", dev, test, "https://github.com/example/none/issues/1"],
                          capture_output=True, text=True, check=True)
    assert done.stdout.splitlines() == [f"in use  {dev}", f"in use  {test}", "free    https://github.com/example/none/issues/1"]
