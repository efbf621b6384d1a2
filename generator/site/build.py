"""`relref build`: records -> validation -> pages and indexes -> `mkdocs build --strict`.

mkdocs empties its site_dir before building, so everything is built in a temporary folder
and moved into place only when every step succeeded: a failed build leaves the previous
site as it was. The generator never imports mkdocs: it writes Markdown and a config that
INHERITs mkdocs.yml, so another site generator can replace mkdocs later.
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
from . import urllock
from ..pages.catalog_outputs import write_catalog_outputs
from ..paths import public_site_url, site_url
from ..pages.write import write_docs
from ..records.load import load_records, load_schema

def generate(records_dir: Path, out: Path, lock: Path | None = None) -> Path:
    """Validate the records and write the docs folder and an mkdocs config into `out`."""
    records = load_records(records_dir)
    docs = out / "docs"
    write_docs(records, load_schema(), docs, public_site_url())
    for step in _output_steps(lock):
        step(records, docs)
    config = out / "mkdocs.yml"
    # extra.relref_site_url records whether SITE_URL was given (null when not): main.html hands it
    # to the pages, which then copy links under it, else under the root they are served from.
    config.write_text(yaml.safe_dump({"INHERIT": str(paths.MKDOCS_YML), "docs_dir": str(docs),
                                      "theme": {"name": "material", "custom_dir": str(paths.ROOT / "site_overrides")},
                                      "extra": {"relref_site_url": public_site_url()}}),
                      encoding="utf-8")
    return config


def build_site(records_dir: Path, site_dir: Path, generate_only: bool = False,
               lock: Path | None = urllock.LOCK, update_lock: bool = False) -> int:
    started = time.perf_counter()
    if public_site_url() is None:
        print(f"relref: warning: SITE_URL is not set, so links will be local: the sitemap, the API, the feed "
              f"and relref match point at {paths.DEFAULT_SITE_URL}, and pages copy links under the address "
              "they are served from. Set SITE_URL to the public address (\"Deploying the site\").", file=sys.stderr)
    site_dir = Path(site_dir).resolve()
    site_dir.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=".relref-build-", dir=site_dir.parent))
    try:
        config = generate(records_dir, work, lock)
        if generate_only:
            print(f"relref: pages written to {work / 'docs'}")
            return 0
        built = work / "site"
        env = dict(os.environ, NO_MKDOCS_2_WARNING="1", SITE_URL=site_url())
        result = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
                                 "-f", str(config), "-d", str(built)], env=env)
        if result.returncode != 0:
            print("relref: mkdocs build failed; the previous site was left as it was", file=sys.stderr)
            return result.returncode
        if not urllock.enforce(built, lock, update=update_lock):
            print("relref: the previous site was left as it was", file=sys.stderr)
            return 1
        _replace(site_dir, built)
        print(f"relref: built {site_dir} in {time.perf_counter() - started:.1f} s")
        return 0
    finally:
        if not generate_only:
            shutil.rmtree(work, ignore_errors=True)


def _replace(site_dir: Path, built: Path) -> None:
    old = site_dir.with_name(site_dir.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if site_dir.exists():
        site_dir.rename(old)
    built.rename(site_dir)
    shutil.rmtree(old, ignore_errors=True)


def _output_steps(lock):
    """Everything built from the records beside the reference pages, each step (records, docs)."""
    from ..match.index import write_index
    from ..pages.budget import write_budget_page
    from ..pages.write import environment
    return [lambda records, docs: write_catalog_outputs(records, docs, site_url(), urllock.locked_codes(lock)),
            lambda records, docs: write_index(records, docs / "assets" / "match" / "index.json"),
            lambda records, docs: write_budget_page(records, docs, environment())]
