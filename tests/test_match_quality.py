"""Matching quality floors on the development set and on the third-party gpualert-eval corpus."""
import pytest

from relref.match.evaluation import GPUALERT, devset_cases, engine_answer, gpualert_cases, score
from relref.match import load_engine


@pytest.fixture(scope="module")
def engine():
    return load_engine()


def _report(figures):
    return "\n".join(f"  {m}" for m in figures["misses"][:40])


def test_development_set_is_big_and_varied_enough():
    cases = devset_cases()
    positives = [c for c in cases if c.accept]
    assert len(positives) >= 80 and len(cases) - len(positives) >= 30
    assert len({ref for c in positives for ref in c.accept}) >= 30
    assert all(c.source.startswith("http") for c in cases)
    assert len({c.text for c in cases}) == len(cases), "no two cases share a text"


def test_development_set_floors(engine):
    figures = score(devset_cases(), engine_answer(engine))
    assert figures["top1"] >= 0.85, _report(figures)
    assert figures["top3"] >= 0.95, _report(figures)
    assert figures["negatives_not_confident"] >= 0.90, _report(figures)
    assert figures["strong_precision"] >= 0.95, _report(figures)
    assert figures["confident_right"] >= 0.60, _report(figures)


def test_gpualert_corpus_floors(engine):
    if not GPUALERT.is_dir():
        pytest.skip(f"the third-party corpus is not at {GPUALERT}")
    figures = score(gpualert_cases(), engine_answer(engine))
    assert figures["positives"] >= 100 and figures["negatives"] >= 300
    assert figures["top1"] >= 0.85, _report(figures)
    assert figures["top3"] >= 0.95, _report(figures)
    assert figures["negatives_not_confident"] >= 0.90, _report(figures)
    assert figures["strong_precision"] >= 0.95, _report(figures)
