"""Command-line matching beside `grep -P`, ripgrep and the scan as it was before RE2, in one run.

Three log shapes (bench/make_log.py: training filler, dmesg with an Xid every 20 lines, an
NCCL_DEBUG=INFO log) at each size, plus one file of a single line. grep -P and rg are given the
signature patterns as one alternation (rg with its default engine; grep -P reads them as PCRE; the
two `unless` signatures join as their `pattern`). "Before" is `relref match` from the commit that froze
the test split (its scan tried each literal with str.find and Python's re), checked out into a temp
folder and run with the same Python. Prints wall seconds and peak memory of each, and ratios.

    .venv/bin/python bench/match_cli.py [--sizes 1e8,1e9] [--shapes train,dmesg,nccl] [--oneline 1e9]
"""
import argparse
import json
import os
import signal
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.make_log import make  # noqa: E402
from relref.match.index import build_index  # noqa: E402
from relref.records.load import load_records  # noqa: E402

BASELINE = "f88b1b7fc11257787ea4436012f9f59a2f9e9bd6"  # the freezing commit: the scan before RE2


def timed(cmd: list[str], env=None, limit: float = 1800) -> tuple[float, int]:
    """Wall seconds and peak resident memory (KB) of a command, via GNU time; (inf, 0) when it runs
    past `limit` seconds (ripgrep's regex engine can fall off its fast path on a large file)."""
    # A session of its own, so that a stopped run takes the timed tool down with GNU time (a
    # timeout alone would kill time and leave the tool running beside the next measurements).
    # Output goes to a pipe, not /dev/null: GNU grep notices a /dev/null stdout and stops at the
    # first match, as -q does (it timed 0.00 s on a 100 MB log that it reads in 21 s).
    proc = subprocess.Popen(["/usr/bin/time", "-f", "%e %M", *cmd], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, start_new_session=True)
    try:
        _, err = proc.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return float("inf"), 0
    seconds, kb = err.strip().splitlines()[-1].split()
    return float(seconds), int(kb)


def baseline_package(work: Path) -> Path:
    """The baseline commit's generator/ (as the package `relref`), records and schema in `work`."""
    archive = work / "baseline.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(archive), BASELINE, "generator", "references", "schema"],
                   check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(work / "baseline", filter="data")
    (work / "baseline" / "generator").rename(work / "baseline" / "relref")
    return work / "baseline"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1e8,1e9")
    parser.add_argument("--shapes", default="train,dmesg,nccl")
    parser.add_argument("--oneline", default="1e9", help="size of the one-line file (0 to skip)")
    parser.add_argument("--dir", type=Path, default=Path(tempfile.gettempdir()) / "relref-bench")
    parser.add_argument("--grep-max", type=float, default=2e8, help="skip grep -P above this size (it runs at about 2 MB/s)")
    parser.add_argument("--limit", type=float, default=1800, help="seconds after which a tool's run is stopped and shown as inf")
    args = parser.parse_args()
    args.dir.mkdir(parents=True, exist_ok=True)
    records = load_records()
    index = build_index(records)
    signatures = index["signatures"]
    alternation = args.dir / "patterns.txt"
    alternation.write_text("|".join(f"(?:{s['pattern']})" for s in signatures))
    index_file = args.dir / "match-index.json"
    index_file.write_text(json.dumps(index))
    python = sys.executable
    relref = [python, "-m", "relref.cli", "match", "--json", "--index", str(index_file)]
    base_dir = baseline_package(Path(tempfile.mkdtemp(dir=args.dir)))
    # Byte-compiled, both, as an installed package is (pip compiles at install; a checkout writes
    # .pyc on its first run): with PYTHONDONTWRITEBYTECODE set, as here, every run would compile
    # the engine's sources again (about 25 ms of each run).
    for package in (ROOT / "generator", base_dir / "relref"):
        subprocess.run([python, "-m", "compileall", "-q", str(package)], check=True, stdout=subprocess.DEVNULL)
    base_index = args.dir / "baseline-index.json"
    subprocess.run([python, "-c", "import json; from relref.match.index import build_index; "
                    "from relref.records.load import load_records; "
                    f"open({str(base_index)!r},'w').write(json.dumps(build_index(load_records())))"],
                   check=True, env={"PYTHONPATH": str(base_dir), "RELREF_CACHE": "off", "PATH": "/usr/bin:/bin"}, cwd=args.dir)
    before = [python, "-m", "relref.cli", "match", "--json", "--index", str(base_index)]
    rg = shutil.which("rg")
    jobs = [(shape, float(size)) for size in args.sizes.split(",") for shape in args.shapes.split(",")]
    if float(args.oneline):
        jobs.append(("oneline", float(args.oneline)))
    print(f"{'log':>14} {'grep -P s':>9} {'rg s':>7} {'before s':>8} {'relref s':>8} {'vs rg':>6} {'vs before':>9} "
          f"{'rg MB':>6} {'relref MB':>9}")
    for shape, size in jobs:
        log = args.dir / f"{shape}-{int(size)}.log"
        if not log.exists() or log.stat().st_size < size:
            make(log, int(size), shape=shape)
        grep_s = timed(["grep", "-P", "-c", "-f", str(alternation), str(log)])[0] if size <= args.grep_max else float("nan")
        rg_s, rg_kb = timed([rg, "-c", "-f", str(alternation), str(log)], limit=args.limit) if rg else (float("nan"), 0)
        base_s, _ = timed(before + [str(log)], env={"PYTHONPATH": str(base_dir), "PATH": "/usr/bin:/bin"}, limit=args.limit)
        ours_s, ours_kb = timed(relref + [str(log)])
        print(f"{shape + ' ' + f'{size / 1e6:.0f}MB':>14} {grep_s:>9.2f} {rg_s:>7.2f} {base_s:>8.2f} {ours_s:>8.2f} "
              f"{ours_s / rg_s:>6.2f} {base_s / ours_s:>9.2f} {rg_kb / 1024:>6.1f} {ours_kb / 1024:>9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
