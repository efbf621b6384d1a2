"""Matching quality on the development set and on the third-party gpualert-eval corpus.

The gpualert corpus is held to the matching issue's floors. The development set is held to the
figures the engine reached when the rules were last changed (bench/RESULTS.md), so that no change
makes it worse unnoticed; the issue's floors for it (top-1 0.88, top-3 0.97, strong 0.97, first
cause 0.80) are not all reached yet. The frozen test split is never asserted on here: it is read
only through bench/match_quality.py's aggregate figures."""
import pytest

from relref.match import load_engine
from relref.match.evaluation import GPUALERT, devset_cases, engine_answer, gpualert_cases, score


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


def test_development_set_does_not_get_worse(engine):
    figures = score(devset_cases(), engine_answer(engine))
    # Raised on 2026-12-04 to just under what the engine reached (top-1 0.874, top-3 0.944, negatives
    # 0.987, strong 0.950, confident and right 0.416, first cause 0.737; bench/RESULTS.md, seventh
    # session), so a change that loses a few cases shows here.
    assert figures["top1"] >= 0.86, _report(figures)
    assert figures["top3"] >= 0.935, _report(figures)
    assert figures["negatives_not_confident"] >= 0.98, _report(figures)
    assert figures["strong_precision"] >= 0.94, _report(figures)
    assert figures["confident_right"] >= 0.40, _report(figures)
    assert figures["first_cause"] >= 0.72, _report(figures)


def test_gpualert_corpus_floors(engine):
    if not GPUALERT.is_dir():
        pytest.skip(f"the third-party corpus is not at {GPUALERT}")
    figures = score(gpualert_cases(), engine_answer(engine))
    assert figures["positives"] >= 100 and figures["negatives"] >= 300
    assert figures["top1"] >= 0.88, _report(figures)
    assert figures["top3"] >= 0.97, _report(figures)
    assert figures["negatives_not_confident"] >= 0.95, _report(figures)
    assert figures["strong_precision"] >= 0.97, _report(figures)



def test_the_benchmark_shows_the_test_split_only_as_totals(engine, capsys):
    """What bench/match_quality.py prints for the test split names no case, no reference and no
    miss: counts only. (Run on a sample of the split: the printing path is the same.)"""
    import importlib.util

    from relref import paths
    from relref.match.evaluation import testsplit_cases
    from relref.records.load import load_records

    spec = importlib.util.spec_from_file_location("match_quality", paths.ROOT / "bench" / "match_quality.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    records = load_records()
    cases = testsplit_cases("frozen")
    sample = [c for c in cases if c.accept][:12] + [c for c in cases if not c.accept][:4]
    known = {r.id for r in records if not r.data.get("beyond_catalog")}
    bench.print_set("test split, frozen", sample, engine, bench.plain_search_answer(records), known, True, False)
    out = capsys.readouterr().out
    assert "## test split, frozen" in out and "top-1" in out
    names = {r.id for r in records} | {c.id for c in cases}
    shown = [n for n in names if n in out]
    assert not shown, f"the test split's output names {shown[:5]}"
    assert "miss" not in out


def test_a_two_failure_paste_answered_by_its_second_failure_is_judged_on_that_cause():
    from relref.match.evaluation import Answer, Case, evaluate

    case = Case("two", "text", ["ref-a"], cause="cause-a", shapes=("two-failure",),
                second={"ref": "ref-b", "cause": "cause-b"})
    first_cause = lambda got: evaluate([case], lambda c: got)["tallies"]["first_cause"]  # noqa: E731
    assert first_cause(Answer(["ref-b"], True, cause="cause-b")).right == 1
    assert first_cause(Answer(["ref-b"], True, cause="cause-a")).right == 0
    assert first_cause(Answer(["ref-a"], True, cause="cause-a")).right == 1
    assert first_cause(Answer(["ref-a"], True, cause="cause-b")).right == 0


def test_a_twin_cause_on_the_other_accepted_page_counts_only_in_its_own_figure():
    """silent-hang's collective-desync is training-stuck-no-progress's rank-divergent-collectives
    (same_as on both records): named on the other page it is right in first_cause_or_twin only."""
    from relref.match import load_engine
    from relref.match.evaluation import Answer, Case, cause_twins, evaluate

    twins = cause_twins(load_engine())
    assert twins[("silent-hang", "collective-desync")] == ("training-stuck-no-progress", "rank-divergent-collectives")
    assert all(twins[back] == pair for pair, back in twins.items())
    case = Case("hang", "text", ["silent-hang", "training-stuck-no-progress"], cause="collective-desync")

    def tallies(got):
        t = evaluate([case], lambda c: got, twins=twins)["tallies"]
        return t["first_cause"].right, t["first_cause_or_twin"].right
    assert tallies(Answer(["training-stuck-no-progress"], False, cause="rank-divergent-collectives")) == (0, 1)
    assert tallies(Answer(["training-stuck-no-progress"], False, cause="long-phase-trips-timers")) == (0, 0)
    assert tallies(Answer(["silent-hang"], False, cause="collective-desync")) == (1, 1)
