"""Outputs for runbooks and tools, built beside the pages: the codes index, the JSON API (references
and code tables) and its documentation page, and what changed (page and Atom feed)."""
from pathlib import Path

from .catalog_api import write_api
from .changelog import write_changelog
from .code_pages import write_code_pages
from .codes_api import write_codes_api
from .write import environment
from ..records.code_tables import load_code_tables


def write_catalog_outputs(records, docs: Path, site_url: str, kept_codes: set) -> None:
    env = environment()
    tables = load_code_tables()
    index = write_code_pages(records, tables, docs, env, locked=kept_codes)
    write_api(records, docs, site_url)
    write_codes_api(tables, index, docs, site_url, [r.id for r in records])
    write_changelog(records, docs, env, site_url)
    example = next((r.id for r in records if r.id == "oom-killed-mid-step"), records[0].id)
    (docs / "api.md").write_text(env.get_template("api.md.j2").render(
        root=site_url.rstrip("/") + "/", example_id=example), encoding="utf-8")
