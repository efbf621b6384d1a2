"""Engine: mkdocs 1.6.1 with mkdocs-material 9.8.2 (the `site` extra), the default.

What the site uses from this theme, and its Zensical counterpart, is on the "Site engine" page
(docs/site-engine.md). The browser side of this engine is docs/assets/javascripts/match/search-paste.js.
"""
import importlib.util
import os
import sys
from pathlib import Path

NAME = "mkdocs"
SEARCH_INDEX = "search/search_index.json"  # the theme's full-text index, in the built site


def missing() -> str | None:
    """Why this engine cannot run here, or None."""
    for module, dist in (("mkdocs", "mkdocs"), ("material", "mkdocs-material")):
        if importlib.util.find_spec(module) is None:
            return f"needs {dist}, which comes with the site extra: pip install -e '.[site]'"
    return None


def command(config: Path) -> list[str]:
    return [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "-f", str(config)]


def environment() -> dict:
    return dict(os.environ, NO_MKDOCS_2_WARNING="1")
