"""`relref build`: records -> validation -> pages and indexes -> the site engine, strict.

The engine (mkdocs by default, or Zensical: `--engine`) empties its site_dir before building, so
everything is built in a temporary folder and moved into place only when every step succeeded: a
failed build leaves the previous site as it was. Builds into one parent folder take turns (a lock
beside the site), and the site folder itself is checked first (sitedir.py): a build never
replaces what it did not write. The generator never imports an engine: it writes Markdown, assets
and one flat config (config.py) that either engine reads; only the command differs (mkdocs.py,
zensical.py).
"""
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from . import mkdocs, sitedir, urllock, zensical
from .config import write_config
from .locking import exclusive
from ..pages.catalog_outputs import write_catalog_outputs
from ..paths import DEFAULT_SITE_URL, public_site_url, site_url
from ..pages.write import write_docs
from ..records.load import load_audits, load_records, load_schema

ENGINES = {engine.NAME: engine for engine in (mkdocs, zensical)}


def generate(records_dir: Path, out: Path, lock: Path | None = None) -> Path:
    """Validate the records and write the docs folder and the site config into `out`."""
    records = load_records(records_dir)
    audits = load_audits(records)
    docs = out / "docs"
    write_docs(records, audits, load_schema(), docs, public_site_url())
    for step in _output_steps(lock):
        step(records, docs)
    return write_config(out, site_url(), public_site_url())


def build_site(records_dir: Path, site_dir: Path, generate_only: bool = False,
               lock: Path | None = urllock.LOCK, update_lock: bool = False, engine: str = mkdocs.NAME) -> int:
    started = time.perf_counter()
    if public_site_url() is None:
        print(f"relref: warning: SITE_URL is not set, so links will be local: the sitemap, the API, the feed "
              f"and relref match point at {DEFAULT_SITE_URL}, and pages copy links under the address "
              "they are served from. Set SITE_URL to the public address (\"Deploying the site\").", file=sys.stderr)
    site_dir = Path(site_dir).resolve()
    engine = ENGINES[engine]
    if not generate_only and (why := engine.missing()):
        print(f"relref build --engine {engine.NAME}: {why}", file=sys.stderr)
        return 2
    try:
        sitedir.check(site_dir, records_dir)
        site_dir.parent.mkdir(parents=True, exist_ok=True)
        if generate_only:
            work = Path(tempfile.mkdtemp(prefix=".relref-docs-", dir=site_dir.parent))
            generate(records_dir, work, lock)
            print(f"relref: pages and their config written to {work}; build them by hand with "
                  f"`mkdocs build -f {work / 'mkdocs.yml'}` or `zensical build -f {work / 'mkdocs.yml'}`")
            return 0
        with exclusive(site_dir.parent / ".relref-build.lock", f"a build in {site_dir.parent}") as held:
            sitedir.recover(site_dir)
            sitedir.remove_stale_work(site_dir)
            sitedir.check(site_dir, records_dir)  # again: the folder may have changed while this build waited
            work = Path(tempfile.mkdtemp(prefix=sitedir.WORK_PREFIX, dir=site_dir.parent))
            try:
                return _build(records_dir, site_dir, work, lock, update_lock, held, started, engine)
            finally:
                shutil.rmtree(work, ignore_errors=True)
    except sitedir.SiteDirRefused as refused:
        print(f"relref: not building into {site_dir}: {refused}", file=sys.stderr)
        return 2


def _build(records_dir, site_dir, work, lock, update_lock, held, started, engine) -> int:
    config = generate(records_dir, work, lock)
    built = work / "site"  # the config's site_dir
    # The engine inherits the lock: if this process is killed, the next build still waits for it.
    result = subprocess.run(engine.command(config), env=engine.environment(), cwd=work, pass_fds=(held,))
    if result.returncode != 0 or not built.is_dir():
        print(f"relref: {engine.NAME} build failed; the previous site was left as it was", file=sys.stderr)
        return result.returncode or 1
    if not urllock.enforce(built, lock, update=update_lock):
        print("relref: the previous site was left as it was", file=sys.stderr)
        return 1
    sitedir.replace(site_dir, built)
    print(f"relref: built {site_dir} with {engine.NAME} in {time.perf_counter() - started:.1f} s")
    return 0


def _output_steps(lock):
    """Everything built from the records beside the reference pages, each step (records, docs)."""
    from ..match.index import write_index
    from ..pages.budget import write_budget_page
    from ..pages.write import environment
    return [lambda records, docs: write_catalog_outputs(records, docs, site_url(), urllock.locked_codes(lock)),
            lambda records, docs: write_index(records, docs / "assets" / "match" / "index.json", urllock.locked_codes(lock)),
            lambda records, docs: write_budget_page(records, docs, environment())]
