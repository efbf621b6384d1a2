"""Degenerate pastes: 1 MB made of one short unit repeated (empty lines, carriage returns, Unicode
spaces and line ends, one identical error line), each beside 1 MB of the ordinary training log in
the same run, through the Python engine's `match` (bytes in one piece, as the library takes them)
and, with --node, the browser engine under node.

    .venv/bin/python bench/degenerate.py [--repeat 3] [--node]

Prints the median seconds of each shape and its ratio to the ordinary log. A ratio far above 1 is
a shape some step reads one line or one occurrence at a time.
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

from bench.make_log import make  # noqa: E402
from relref import paths  # noqa: E402
from relref.match.engine import Engine  # noqa: E402
from relref.match.index import build_index  # noqa: E402
from relref.records.load import load_records  # noqa: E402

SIZE = 1_000_000
UNITS = {"empty lines": "\n", "carriage returns": "\r", "CRLF": "\r\n", "U+2028": "\u2028", "U+0085": "\u0085",
         "U+3000": "\u3000", "a CR b": "a\rb", "one Xid line": "NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.\n",
         "error words": "error "}
NODE = """
const { Engine } = require(process.argv[1]);
const fs = require("fs");
const index = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const texts = JSON.parse(fs.readFileSync(process.argv[3], "utf8"));
const e = new Engine(index, "");
const out = {};
for (const [name, text] of Object.entries(texts)) {
  const t = process.hrtime.bigint(); e.match(text, "", 5); out[name] = Number(process.hrtime.bigint() - t) / 1e9;
}
console.log(JSON.stringify(out));
"""


def texts() -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "train.log"
        make(log, SIZE, shape="train")
        out = {"ordinary training log": log.read_text(encoding="utf-8")}
    for name, unit in UNITS.items():
        out[name] = unit * (SIZE // len(unit.encode("utf-8")))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--node", action="store_true", help="also time the browser engine under node")
    args = parser.parse_args()
    index = build_index(load_records(paths.RECORDS))
    engine, shapes = Engine(index, ""), texts()
    engine.match(shapes["ordinary training log"].encode("utf-8"))  # compile what the first answer compiles
    times = {name: [] for name in shapes}
    for _ in range(args.repeat):
        for name, text in shapes.items():
            data = text.encode("utf-8")
            start = time.perf_counter()
            engine.match(data)
            times[name].append(time.perf_counter() - start)
    py = {name: statistics.median(t) for name, t in times.items()}
    js = {}
    if args.node:
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / "index.json").write_text(json.dumps(index), encoding="utf-8")
            (Path(tmp) / "texts.json").write_text(json.dumps(shapes), encoding="utf-8")
            runs = [json.loads(subprocess.run(
                ["node", "-e", NODE, str(ROOT / "docs/assets/javascripts/match/engine.js"),
                 str(Path(tmp) / "index.json"), str(Path(tmp) / "texts.json")],
                capture_output=True, text=True, check=True).stdout) for _ in range(args.repeat)]
        js = {name: statistics.median(r[name] for r in runs) for name in shapes}
    base_py, base_js = py["ordinary training log"], js.get("ordinary training log")
    print(f"{'1 MB of':24} {'python s':>9} {'ratio':>7}" + (f" {'node s':>9} {'ratio':>7}" if js else ""))
    for name in shapes:
        row = f"{name:24} {py[name]:9.3f} {py[name] / base_py:7.1f}"
        if js:
            row += f" {js[name]:9.3f} {js[name] / base_js:7.1f}"
        print(row)


if __name__ == "__main__":
    main()
