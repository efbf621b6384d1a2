"""`relref build`: records -> validation -> pages and indexes -> `mkdocs build --strict`.

mkdocs empties its site_dir before building, so everything is built in a temporary folder
and moved into place only when every step succeeded: a failed build leaves the previous
site as it was. Builds into one parent folder take turns (a lock beside the site), and the
site folder itself is checked first (sitedir.py): a build never replaces what it did not
write. The generator never imports mkdocs: it writes Markdown and a config that INHERITs
mkdocs.yml, so another site generator can replace mkdocs later.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

from .. import paths
from . import sitedir, urllock
from .locking import exclusive
from ..pages.catalog_outputs import write_catalog_outputs
from ..paths import site_url
from ..pages.write import write_docs
from ..records.load import load_records, load_schema

def generate(records_dir: Path, out: Path, lock: Path | None = None) -> Path:
    """Validate the records and write the docs folder and an mkdocs config into `out`."""
    records = load_records(records_dir)
    docs = out / "docs"
    write_docs(records, load_schema(), docs, site_url())
    for step in _output_steps(lock):
        step(records, docs)
    config = out / "mkdocs.yml"
    config.write_text(yaml.safe_dump({"INHERIT": str(paths.MKDOCS_YML), "docs_dir": str(docs),
                                      "theme": {"name": "material", "custom_dir": str(paths.ROOT / "site_overrides")}}),
                      encoding="utf-8")
    return config


def build_site(records_dir: Path, site_dir: Path, generate_only: bool = False,
               lock: Path | None = urllock.LOCK, update_lock: bool = False) -> int:
    started = time.perf_counter()
    site_dir = Path(site_dir).resolve()
    try:
        sitedir.check(site_dir, records_dir)
        site_dir.parent.mkdir(parents=True, exist_ok=True)
        if generate_only:
            work = Path(tempfile.mkdtemp(prefix=".relref-docs-", dir=site_dir.parent))
            generate(records_dir, work, lock)
            print(f"relref: pages written to {work / 'docs'}")
            return 0
        with exclusive(site_dir.parent / ".relref-build.lock", f"a build in {site_dir.parent}") as held:
            sitedir.recover(site_dir)
            sitedir.remove_stale_work(site_dir)
            sitedir.check(site_dir, records_dir)  # again: the folder may have changed while this build waited
            work = Path(tempfile.mkdtemp(prefix=sitedir.WORK_PREFIX, dir=site_dir.parent))
            try:
                return _build(records_dir, site_dir, work, lock, update_lock, held, started)
            finally:
                shutil.rmtree(work, ignore_errors=True)
    except sitedir.SiteDirRefused as refused:
        print(f"relref: not building into {site_dir}: {refused}", file=sys.stderr)
        return 2


def _build(records_dir, site_dir, work, lock, update_lock, held, started) -> int:
    config = generate(records_dir, work, lock)
    built = work / "site"
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1", SITE_URL=site_url())
    # mkdocs inherits the lock: if this process is killed, the next build still waits for it.
    result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                             "-f", str(config), "-d", str(built)], env=env, pass_fds=(held,))
    if result.returncode != 0:
        print("relref: mkdocs build failed; the previous site was left as it was", file=sys.stderr)
        return result.returncode
    if not urllock.enforce(built, lock, update=update_lock):
        print("relref: the previous site was left as it was", file=sys.stderr)
        return 1
    sitedir.replace(site_dir, built)
    print(f"relref: built {site_dir} in {time.perf_counter() - started:.1f} s")
    return 0


def _output_steps(lock):
    """Everything built from the records beside the reference pages, each step (records, docs)."""
    from ..match.index import write_index
    from ..pages.budget import write_budget_page
    from ..pages.write import environment
    return [lambda records, docs: write_catalog_outputs(records, docs, site_url(), urllock.locked_codes(lock)),
            lambda records, docs: write_index(records, docs / "assets" / "match" / "index.json", urllock.locked_codes(lock)),
            lambda records, docs: write_budget_page(records, docs, environment())]
