"""Render records into the Markdown pages and static files of the site's docs folder."""
import json
import shutil
from pathlib import Path

from jinja2 import Environment, FileSystemLoader

from .. import paths
from . import views
from .markdown import FILTERS
from ..records.load import Record
from .schema_doc import schema_sections, value_lists


def environment() -> Environment:
    # Markdown's attribute lists ({#cause-id}) collide with Jinja's comment syntax, so comments are {## ##}.
    # Autoescape everywhere: a value placed without a filter is HTML-escaped, which Markdown shows
    # as written; the filters (markdown.py) return Markup for the contexts that need other escaping.
    env = Environment(loader=FileSystemLoader(paths.TEMPLATES),
                      comment_start_string="{##", comment_end_string="##}",
                      trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True, autoescape=True)
    env.filters.update(FILTERS)
    return env


def write_docs(records: list[Record], audits: dict, schema: dict, docs: Path, public_root: str | None) -> None:
    """Write every page of the site into `docs` (an empty folder). `audits`: each record's audit
    (records.load.load_audits), for the dates its sources were checked. `public_root`: SITE_URL
    when the build was given one, else None (paths.py has the rule for links)."""
    env = environment()
    shutil.copytree(paths.DOCS_STATIC, docs, dirs_exist_ok=True)
    by_id = {r.id: r for r in records}
    cats = views.categories(schema)
    category_titles = {c["id"]: c["title"] for c in cats}
    rows = views.browse_rows(records, category_titles)

    for record in records:
        page = env.get_template("reference.md.j2").render(
            r=views.reference_view(record, by_id, category_titles, public_root,
                                   checked=views.audit_dates(audits[record.id])))
        _write(docs / "references" / f"{record.id}.md", page)
        for alias in record.data.get("aliases", []):
            _write(docs / "references" / alias / "index.html", env.get_template("redirect.html.j2").render(
                title=record.data["title"], target=f"../{record.id}/",
                script="../../assets/javascripts/redirect.js"))

    _write(docs / "browse.md", env.get_template("browse.md.j2").render(
        rows=rows, filters=views.filter_options(rows, cats)))
    for c in cats:
        c["count"] = sum(1 for row in rows if row["category"] == c["id"])
        _write(docs / "categories" / f"{c['id']}.md", env.get_template("category.md.j2").render(
            c=c, rows=[row for row in rows if row["category"] == c["id"]]))
    _write(docs / "categories" / "index.md", env.get_template("categories.md.j2").render(categories=cats))
    _write(docs / "record-format.md", env.get_template("record-format.md.j2").render(
        sections=schema_sections(schema), lists=value_lists(schema)))
    _write(docs / "schema" / "reference.schema.json", json.dumps(schema, indent=2) + "\n")


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
