"""Command-line matching of 1 MB, 100 MB and 1 GB logs against `grep -P -c` with one alternation of
the same signature patterns over the same file. Prints time and peak memory of each, and the ratio.

    .venv/bin/python bench/match_cli.py [--sizes 1e6,1e8,1e9] [--dir /tmp/relref-bench]
"""
import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.make_log import make  # noqa: E402
from relref.match.index import build_index  # noqa: E402
from relref.records.load import load_records  # noqa: E402


def timed(cmd: list[str]) -> tuple[float, int]:
    """Wall seconds and peak resident memory (KB) of a command, via GNU time."""
    out = subprocess.run(["/usr/bin/time", "-f", "%e %M", *cmd], capture_output=True, text=True)
    seconds, kb = out.stderr.strip().splitlines()[-1].split()
    return float(seconds), int(kb)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1e6,1e8,1e9")
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "relref-bench")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    index = build_index(load_records())
    alternation = args.dir / "patterns.txt"
    alternation.write_text("|".join(f"(?:{s['pattern']})" for s in index["signatures"]))
    index_file = args.dir / "match-index.json"
    import json
    index_file.write_text(json.dumps(index))
    relref = [str(ROOT / ".venv" / "bin" / "relref"), "match", "--json", "--index", str(index_file)]
    print(f"{'log':>8} {'grep -P s':>10} {'relref s':>9} {'ratio':>6} {'grep MB':>8} {'relref MB':>10}")
    for size in (float(s) for s in args.sizes.split(",")):
        log = args.dir / f"log-{int(size)}.log"
        if not log.exists() or log.stat().st_size < size:
            make(log, int(size))
        grep_s, grep_kb = timed(["grep", "-P", "-c", "-f", str(alternation), str(log)])
        ours_s, ours_kb = timed(relref + [str(log)])
        print(f"{size / 1e6:>6.0f}MB {grep_s:>10.2f} {ours_s:>9.2f} {ours_s / max(grep_s, 1e-3):>6.2f} "
              f"{grep_kb / 1024:>8.1f} {ours_kb / 1024:>10.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
