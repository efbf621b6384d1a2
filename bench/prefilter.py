"""The scan's first pass over a chunk (which signature literals it holds) on each prefilter engine
(generator/match/prefilter.py), on 1 MiB chunks of the three benchmark log shapes, in one process:
the best of N runs per engine, and each engine's time as a ratio to the RE2 set's.

    .venv/bin/python bench/prefilter.py [--runs 20] [--dir /tmp/relref-bench]
"""
import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
import make_log  # noqa: E402

from relref.match import load_engine  # noqa: E402
from relref.match.prefilter import ENGINES, LiteralSet  # noqa: E402

CHUNK = 1 << 20


def best(run, times: int) -> float:
    fastest = float("inf")
    for _ in range(times):
        start = time.perf_counter()
        run()
        fastest = min(fastest, time.perf_counter() - start)
    return fastest


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "relref-bench")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    compiled = load_engine().compiled
    literals = list(dict.fromkeys((lit, s["ignore_case"]) for s in compiled.signatures for lit in s["literals"]))
    sets = {engine: LiteralSet(literals, engine) for engine in ENGINES}
    print(f"{len(literals)} literals; engines here: {', '.join(ENGINES)}")
    print(f"{'chunk':>8} " + " ".join(f"{e + ' ms':>13}" for e in ENGINES) + " " + " ".join(f"{e + '/re2':>14}" for e in ENGINES))
    for shape in ("dmesg", "train", "nccl"):
        path = args.dir / f"prefilter-{shape}.log"
        if not path.exists():
            make_log.make(path, CHUNK, shape=shape)
        chunk = path.read_bytes()[:CHUNK]
        found = {engine: s.found(chunk) for engine, s in sets.items()}
        assert len({tuple(f) for f in found.values()}) == 1, f"the engines disagree on {shape}"
        ms = {engine: best(lambda s=s: s.found(chunk), args.runs) * 1e3 for engine, s in sets.items()}
        print(f"{shape:>8} " + " ".join(f"{ms[e]:13.2f}" for e in ENGINES) + " "
              + " ".join(f"{ms[e] / ms['re2']:14.2f}" for e in ENGINES))


if __name__ == "__main__":
    main()
