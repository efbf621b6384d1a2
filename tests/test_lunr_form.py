"""The lunr index as the match index carries it (term counts): expanded, in lunr.py and in
lunr.js, it is lunr's own builder's index (the weights rounded to lunr_form.SCORE_DIGITS), bit for
bit, and it is much smaller."""
import gzip
import json
import shutil
import subprocess
from pathlib import Path

import pytest
from lunr.builder import Builder
from lunr.index import Index

from relref import paths
from relref.match import lunr_form
from relref.match.index import LUNR_FIELDS, _lunr_document
from relref.records.load import load_records

RUNNER = Path(__file__).parent / "js" / "run_lunr_form.js"


@pytest.fixture(scope="module")
def docs():
    return [_lunr_document(record.data) for record in load_records(paths.RECORDS)]


@pytest.fixture(scope="module")
def serialised(docs):
    """lunr's own serialisation, from its own builder."""
    builder = Builder()
    builder.pipeline.reset()
    builder.search_pipeline.reset()
    builder.ref("id")
    for name, boost in LUNR_FIELDS:
        builder.field(name, boost=boost)
    for doc in docs:
        builder.add(doc)
    return builder.build().serialize()


@pytest.fixture(scope="module")
def carried(docs):
    return lunr_form.compact(docs, LUNR_FIELDS)


def _by_term(index: dict) -> tuple[dict, dict]:
    name = {posting["_index"]: term for term, posting in index["invertedIndex"]}
    postings = {term: {f: set(refs) for f, refs in posting.items() if f != "_index"} for term, posting in index["invertedIndex"]}
    vectors = {fr: {name[e[i]]: e[i + 1] for i in range(0, len(e), 2)} for fr, e in index["fieldVectors"]}
    return postings, vectors


def test_the_carried_form_expands_to_lunrs_postings_and_weights(serialised, carried):
    expanded = lunr_form.expand(carried)
    assert expanded["version"] == serialised["version"] == lunr_form.VERSION
    assert [t for t, _ in expanded["invertedIndex"]] == [t for t, _ in serialised["invertedIndex"]]
    postings, vectors = _by_term(expanded)
    want_postings, want_vectors = _by_term(serialised)
    assert postings == want_postings
    assert vectors.keys() == want_vectors.keys()
    for field_ref, weights in want_vectors.items():
        assert vectors[field_ref] == {t: round(w, lunr_form.SCORE_DIGITS) for t, w in weights.items()}, field_ref
    for _, elements in expanded["fieldVectors"]:  # lunr's vectors are read in term order
        assert elements[0::2] == sorted(elements[0::2])
    assert sum(len(e) for _, e in expanded["fieldVectors"]) > 20000  # the whole catalog, not a sample


@pytest.mark.parametrize("words", [["nccl", "timeout", "watchdog"], ["checkpoint", "corrupt", "eof"], ["xid", "79", "fallen", "bus"]])
def test_queries_rank_the_same_references(serialised, carried, words):
    def ranked(index):
        lunr = Index.load(index)
        query = lunr.create_query()
        for w in words:
            query.term(w, use_pipeline=False)
        return [(r["ref"], r["score"]) for r in lunr.query(query)][:5]
    mine, theirs = ranked(lunr_form.expand(carried)), ranked(serialised)
    assert [ref for ref, _ in mine] == [ref for ref, _ in theirs]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is needed to run the browser engine")
def test_the_browser_twin_expands_to_the_same_index(carried):
    """expandLunr under node gives the same postings and the same weights, compared as numbers
    (JSON writes each double exactly enough to read it back); and its rounding is Python's, half
    to even on the exact value, ties included (0.125 is exact in binary: 0.12; 2.675 is just
    under: 2.67)."""
    ties = [[0.125, 2], [0.375, 2], [0.625, 2], [2.675, 2], [0.0625, 3], [1.0625, 3], [4.5, 0], [5.5, 0],
            [0.005, 2], [1.2345, 3], [3.14159, 2], [0.999, 2], [7.005, 2]]
    out = subprocess.run(["node", str(RUNNER)], input=json.dumps({"carried": carried, "round": ties}),
                         capture_output=True, text=True, check=True).stdout
    got = json.loads(out)
    assert got["rounded"] == [round(x, digits) for x, digits in ties]
    assert got["expanded"] == json.loads(json.dumps(lunr_form.expand(carried)))


def test_the_carried_form_is_much_smaller(serialised, carried):
    def size(obj):
        return len(gzip.compress(json.dumps(obj, separators=(",", ":")).encode(), 6))
    assert size(carried) < 0.35 * size(serialised)
