"""The scan's first pass (generator/match/prefilter.py) reports the same literals whichever engine
runs it, Hyperscan or the RE2 set, and both report exactly those a plain search finds: on the
development pastes, on texts built to trip a multi-literal matcher (literals overlapping, cut short,
in upper case, beside non-ASCII text) and on chunks of the three benchmark logs. Where Hyperscan's
wheel exists (x86-64), it is the engine the scan uses."""
import platform
import random
import sys
from pathlib import Path

import pytest

from relref.match import load_engine
from relref.match.evaluation import devset_cases
from relref.match.prefilter import ENGINES, LiteralSet

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import make_log  # noqa: E402


@pytest.fixture(scope="module")
def literals():
    compiled = load_engine().compiled
    return list(dict.fromkeys((lit, s["ignore_case"]) for s in compiled.signatures for lit in s["literals"]))


def _plain(literals, chunk: bytes) -> list[int]:
    lowered = chunk.lower()
    return [k for k, (text, ignore_case) in enumerate(literals)
            if (text.lower().encode() in lowered if ignore_case else text.encode() in chunk)]


def _texts(literals, tmp_path) -> list[bytes]:
    rng = random.Random(11)
    texts = [c.text.encode("utf-8") for c in devset_cases()]
    for _ in range(300):
        parts = []
        for _ in range(rng.randrange(1, 8)):
            lit = rng.choice(literals)[0]
            roll = rng.random()
            parts.append(lit[:rng.randrange(1, len(lit))] if roll < 0.3 else lit.upper() if roll < 0.4 else lit)
            parts.append(rng.choice(["", " ", "x", "é", "\u3000", "\n", lit[-2:]]))
        texts.append("".join(parts).encode("utf-8"))
    for shape in ("dmesg", "train", "nccl"):
        path = tmp_path / f"{shape}.log"
        make_log.make(path, 1 << 20, shape=shape)
        texts.append(path.read_bytes())
    return texts


@pytest.mark.parametrize("engine", ENGINES)
def test_each_prefilter_engine_finds_what_a_plain_search_finds(literals, tmp_path, engine):
    found = LiteralSet(literals, engine)
    texts = _texts(literals, tmp_path)
    results = [(found.found(t), _plain(literals, t)) for t in texts]
    assert sum(len(want) for _, want in results) > 1000, "the texts hold many literals"
    for got, want in results:
        assert got == want


def test_the_scan_uses_hyperscan_where_its_wheel_exists():
    if platform.machine().lower() in ("x86_64", "amd64"):
        assert ENGINES[0] == "hyperscan"
        assert load_engine().compiled.set.engine == "hyperscan"
    with pytest.raises(ValueError, match="no prefilter engine"):
        LiteralSet([("Xid", False)], "aho")
