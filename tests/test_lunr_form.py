"""The lunr index as the match index carries it: expanded, it answers queries as lunr's own
serialisation does (the weights rounded to lunr_form.SCORE_DIGITS), and it is much smaller."""
import gzip
import json

import pytest
from lunr.index import Index

from relref import paths
from relref.match import lunr_form
from relref.match.index import _lunr_document, lunr_serialised
from relref.records.load import load_records


@pytest.fixture(scope="module")
def serialised():
    return lunr_serialised([_lunr_document(record.data) for record in load_records(paths.RECORDS)])


def _by_term(index: dict) -> tuple[dict, dict]:
    name = {posting["_index"]: term for term, posting in index["invertedIndex"]}
    postings = {term: {f: set(refs) for f, refs in posting.items() if f != "_index"} for term, posting in index["invertedIndex"]}
    vectors = {fr: {name[e[i]]: e[i + 1] for i in range(0, len(e), 2)} for fr, e in index["fieldVectors"]}
    return postings, vectors


def test_the_carried_form_expands_to_the_same_postings_and_weights(serialised):
    expanded = lunr_form.expand(lunr_form.compact(serialised))
    assert [t for t, _ in expanded["invertedIndex"]] == [t for t, _ in serialised["invertedIndex"]]
    postings, vectors = _by_term(expanded)
    want_postings, want_vectors = _by_term(serialised)
    assert postings == want_postings
    assert vectors.keys() == want_vectors.keys()
    for field_ref, weights in want_vectors.items():
        assert vectors[field_ref] == {t: round(w, lunr_form.SCORE_DIGITS) for t, w in weights.items()}, field_ref
    for _, elements in expanded["fieldVectors"]:  # lunr's vectors are read in term order
        assert elements[0::2] == sorted(elements[0::2])


@pytest.mark.parametrize("words", [["nccl", "timeout", "watchdog"], ["checkpoint", "corrupt", "eof"], ["xid", "79", "fallen", "bus"]])
def test_queries_rank_the_same_references(serialised, words):
    def ranked(index):
        lunr = Index.load(index)
        query = lunr.create_query()
        for w in words:
            query.term(w, use_pipeline=False)
        return [r["ref"] for r in lunr.query(query)][:5]
    assert ranked(lunr_form.expand(lunr_form.compact(serialised))) == ranked(serialised)


def test_the_carried_form_is_much_smaller(serialised):
    def size(obj):
        return len(gzip.compress(json.dumps(obj, separators=(",", ":")).encode(), 6))
    assert size(lunr_form.compact(serialised)) < 0.55 * size(serialised)
