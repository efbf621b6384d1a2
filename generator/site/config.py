"""The one site config both engines read: mkdocs.yml, flattened.

mkdocs.yml in the checkout is the source; `relref build` writes a flat copy beside the generated
docs/ in its work folder: no INHERIT, no !ENV (SITE_URL is resolved here), and every path
relative to that folder (docs_dir, site_dir, the theme's custom_dir). mkdocs and Zensical
read the same file; only the command that runs them differs (mkdocs.py, zensical.py).
"""
import os
from pathlib import Path

import yaml

from .. import paths

OVERRIDES = paths.ROOT / "site_overrides"


class _Loader(yaml.SafeLoader):
    """YAML with mkdocs' !ENV tag: `!ENV NAME` or `!ENV [NAME, ..., default]`."""


def _env(loader, node):
    names = [loader.construct_scalar(node)] if isinstance(node, yaml.ScalarNode) else loader.construct_sequence(node)
    *variables, default = names if len(names) > 1 else (*names, None)
    return next((os.environ[v] for v in variables if v in os.environ), default)


_Loader.add_constructor("!ENV", _env)


def flat_config(source: Path, out: Path, site_url: str) -> dict:
    with open(source, encoding="utf-8") as f:
        config = yaml.load(f, Loader=_Loader)  # noqa: S506 - a SafeLoader with one more tag
    if "INHERIT" in config:
        raise ValueError(f"{source}: INHERIT is not supported; the site config is one file")
    config["site_url"] = site_url
    config["docs_dir"], config["site_dir"] = "docs", "site"
    config.setdefault("theme", {})["custom_dir"] = os.path.relpath(OVERRIDES, out)
    return config


def write_config(out: Path, site_url: str, source: Path = paths.MKDOCS_YML) -> Path:
    """Write out/mkdocs.yml for the docs in out/docs; the site goes to out/site."""
    target = out / "mkdocs.yml"
    target.write_text("# Written by `relref build` from mkdocs.yml: one flat config for mkdocs and Zensical.\n"
                      + yaml.safe_dump(flat_config(source, out, site_url), sort_keys=False, allow_unicode=True),
                      encoding="utf-8")
    return target
