"""Building with 42, 1,000 and 5,000 records (the extra ones copied from the real records under new
ids): the time of the build step (validation, pages, indexes) with an empty cache (cold) and again
with the cache it filled (warm), beside each site engine on the same pages (`mkdocs build` and,
when it is installed, `zensical build`), and how each grows with the number of records. Zensical
runs with a fresh cache each time (`--clean`): a warm Zensical cache would time its cache, not the
pages.

    .venv/bin/python bench/build.py [--counts 42,1000,5000]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from relref.site import mkdocs as mkdocs_engine, zensical as zensical_engine  # noqa: E402
from relref.site.build import generate  # noqa: E402


def make_records(target: Path, count: int) -> None:
    """The real records, then copies of them under new ids until there are `count`."""
    real = sorted((ROOT / "references").glob("*.yaml"))
    for path in real:
        shutil.copy(path, target / path.name)
    n = 0
    while len(real) + n < count:
        source = real[n % len(real)]
        new_id = f"{source.stem}-copy-{n}"
        data = yaml.safe_load(source.read_text(encoding="utf-8"))
        data["id"], data["title"] = new_id, f"Copy {n} of {data['title']}"
        data.pop("aliases", None)
        (target / f"{new_id}.yaml").write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
        n += 1


def timed(command: list, env: dict) -> float:
    """Seconds one engine takes to build the pages into the config's site folder."""
    started = time.perf_counter()
    subprocess.run(command, check=True, env=env, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--counts", default="42,1000,5000")
    args = parser.parse_args()
    with_zensical = zensical_engine.missing() is None
    if not with_zensical:
        print(f"(Zensical not timed: relref {zensical_engine.missing()})")
    print(f"{'records':>8} {'step cold s':>12} {'step warm s':>12} {'mkdocs s':>9} {'zensical s':>11} "
          f"{'zensical/mkdocs':>16} {'cold/mkdocs':>12} {'warm/mkdocs':>12} {'total s':>8} {'total/record ms':>16}")
    for count in (int(c) for c in args.counts.split(",")):
        work = Path(tempfile.mkdtemp())
        records = work / "records"
        records.mkdir()
        make_records(records, count)
        os.environ["RELREF_CACHE_DIR"] = str(work / "cache")  # cold: an empty cache
        started = time.perf_counter()
        config = generate(records, work / "cold")
        cold = time.perf_counter() - started
        started = time.perf_counter()
        config = generate(records, work)  # warm: records and the full-text index come from the cache
        warm = time.perf_counter() - started
        mkdocs = timed(mkdocs_engine.command(config), mkdocs_engine.environment())
        zensical = (timed(zensical_engine.command(config) + ["--clean"], zensical_engine.environment())
                    if with_zensical else float("nan"))
        total = cold + mkdocs
        print(f"{count:>8} {cold:>12.2f} {warm:>12.2f} {mkdocs:>9.2f} {zensical:>11.2f} {zensical / mkdocs:>16.2f} "
              f"{cold / mkdocs:>12.1%} {warm / mkdocs:>12.1%} {total:>8.1f} {1000 * total / count:>16.1f}")
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
