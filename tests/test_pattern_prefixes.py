"""A signature still matches its own example behind the prefixes launchers and loggers add, since
people paste lines as their tools print them."""
import pytest

from relref.match.dialect import compile_signature
from relref.records.load import load_records

PREFIXES = ["[default0]:", "[rank3]: ", "2026-12-01 10:00:00,123 ", "Dec  1 10:00:00 node-1 kernel: "]
SIGNATURES = [(r.id, s) for r in load_records() for s in r.data["signatures"]]


@pytest.mark.parametrize("ref,sig", SIGNATURES, ids=[f"{r}:{s['id']}" for r, s in SIGNATURES])
def test_pattern_matches_its_example_behind_a_prefix(ref, sig):
    regex = compile_signature(sig["pattern"], sig.get("ignore_case", False))
    missed = [p for p in PREFIXES if not regex.search(p + sig["example"])]
    assert not missed, f"{ref} {sig['id']}: misses its example behind {missed}"
