"""The browser scan's one-pass literal finder (an Aho-Corasick automaton in scan.js) reports
exactly the literals a plain case-blind search finds, for every literal the scan rules have, on
real pastes and on texts built to trip an automaton: literals inside and overlapping one another,
prefixes of literals cut short, upper-case copies and non-ASCII text."""
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from relref.match import load_engine
from relref.match.evaluation import devset_cases

RUNNER = Path(__file__).parent / "js" / "run_literal_set.js"


def _texts(literals: list[str]) -> list[str]:
    rng = random.Random(7)
    texts = [c.text for c in devset_cases()]
    for _ in range(300):
        parts = []
        for _ in range(rng.randrange(1, 8)):
            lit = rng.choice(literals)
            roll = rng.random()
            parts.append(lit[:rng.randrange(1, len(lit))] if roll < 0.3 else lit.upper() if roll < 0.4 else lit)
            parts.append(rng.choice(["", " ", "x", "é", "\u3000", lit[-2:]]))
        texts.append("".join(parts))
    return texts


@pytest.mark.skipif(shutil.which("node") is None, reason="node is needed to run the browser engine")
def test_the_literal_automaton_finds_what_indexof_finds():
    engine = load_engine()
    rules = [{"literals": s["literals"], "ignore_case": s["ignore_case"]} for s in engine.compiled.signatures]
    literals = sorted({lit for r in rules for lit in r["literals"]})
    out = subprocess.run(["node", str(RUNNER)], input=json.dumps({"rules": rules, "texts": _texts(literals)}),
                         capture_output=True, text=True, check=True)
    results = json.loads(out.stdout)
    assert sum(len(r["found"]) for r in results) > 1000, "the texts hold many literals"
    for r in results:
        assert r["held"] == r["found"]
