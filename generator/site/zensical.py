"""Engine: Zensical 0.0.73, mkdocs-material's successor (`relref build --engine zensical`).

It reads the same flat mkdocs.yml (config.py). Where its theme differs from mkdocs-material's
(the search dialog and its worker, the search index it loads on every page), the browser side is
one file, docs/assets/javascripts/engine-zensical.js, loaded by site_overrides/partials/search.html
only when Zensical renders the page. The "Site engine" page (docs/site-engine.md) lists every hook.
"""
import importlib.metadata
import os
import sys
from pathlib import Path

NAME = "zensical"
PIN = "0.0.73"  # 0.1.x needs a zensical-ui release the package index here lacks; pinned in the test extra
SEARCH_INDEX = "search.json"


def version() -> str | None:
    try:
        return importlib.metadata.version("zensical")
    except importlib.metadata.PackageNotFoundError:
        return None


def missing() -> str | None:
    if version() is None:
        return f"needs zensical=={PIN}, which comes with the test extra: pip install -e '.[site,test]'"
    return None


def command(config: Path) -> list[str]:
    if version() != PIN:
        print(f"relref: zensical {version()} is installed; the site is tested with {PIN} "
              "(see the Site engine page before moving)", file=sys.stderr)
    # Zensical keeps its cache in .cache beside the config: inside the build's work folder.
    return [sys.executable, "-m", "zensical", "build", "--strict", "-f", str(config)]


def environment() -> dict:
    return dict(os.environ)
