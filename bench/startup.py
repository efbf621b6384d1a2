"""Engine start: building the engine from the match index and answering one short paste, with
signatures compiled on first use (as shipped) beside every signature compiled at start (the
baseline: what the engines did before), in the same run, for both engines.

    .venv/bin/python bench/startup.py [--repeat 5]

Prints the median milliseconds of each and their ratio. The JavaScript side runs under node.
"""
import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from relref import paths  # noqa: E402
from relref.match.engine import Engine  # noqa: E402
from relref.match.index import build_index  # noqa: E402
from relref.records.load import load_records  # noqa: E402

PASTE = "NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus."
NODE = """
const { Engine } = require(process.argv[1]);
const index = JSON.parse(require("fs").readFileSync(process.argv[2], "utf8"));
const eager = process.argv[3] === "eager", paste = process.argv[4];
const t = process.hrtime.bigint();
const e = new Engine(index, "");
if (eager) e.signatures.forEach(function (s) { s.test(""); });
e.match(paste, "", 5);
console.log(Number(process.hrtime.bigint() - t) / 1e6);
"""


def python_ms(index: dict, eager: bool) -> float:
    start = time.perf_counter()
    engine = Engine(index)
    if eager:
        for i in range(len(engine.signatures)):
            engine.compiled.rules(i)
    engine.match(PASTE)
    return (time.perf_counter() - start) * 1000


def node_ms(index_file: Path, eager: bool) -> float:
    script = str(ROOT / "docs" / "assets" / "javascripts" / "match" / "engine.js")
    out = subprocess.run(["node", "-e", NODE, script, str(index_file), "eager" if eager else "lazy", PASTE],
                         capture_output=True, text=True, check=True)
    return float(out.stdout.strip())


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    index = build_index(load_records(paths.RECORDS))
    with tempfile.TemporaryDirectory() as tmp:
        index_file = Path(tmp) / "index.json"
        index_file.write_text(json.dumps(index), encoding="utf-8")
        print(f"{'engine':8} {'lazy ms':>8} {'eager ms':>9} {'lazy/eager':>11}")
        for name, run in (("python", lambda eager: python_ms(index, eager)), ("node", lambda eager: node_ms(index_file, eager))):
            lazy, eager = [], []
            for _ in range(args.repeat):  # alternated, so that a busy moment weighs on both
                lazy.append(run(False))
                eager.append(run(True))
            a, b = statistics.median(lazy), statistics.median(eager)
            print(f"{name:8} {a:>8.0f} {b:>9.0f} {a / b:>11.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
