"""The code tables as data: /api/v1/codes.json, read from the same tables (codes/*.yaml) and the
same page rule (records.code_tables.code_pages) as the codes pages and the match index.

Part of API version 1: fields are only ever added (see catalog_api). Each entry carries the table
entry as written, so its schema is the code table format's (schema/codes.schema.json).
"""
import json
import shutil
from pathlib import Path

from .. import paths
from ..records.code_tables import entry_key, row_anchor, row_codes
from .code_pages import FAMILY_ORDER
from .catalog_api import API_VERSION

CODES_API_SCHEMA = paths.ROOT / "schema" / "api-v1-codes.schema.json"


def codes_catalog(tables, index, site_url: str, record_ids) -> dict:
    root = site_url.rstrip("/") + "/"
    families, total = [], 0
    for family in FAMILY_ORDER:
        if family not in tables:
            continue
        header = tables.headers[family]
        entries = [_entry(family, e, index, root, record_ids) for e in tables[family]]
        total += len(entries)
        view = {"family": family, "title": header["title"], "summary": header["summary"], "url": f"{root}codes/{family}/",
                "count": len(entries), "sources": header["sources"]}
        for key in ("notes", "buckets", "groups"):
            if key in header:
                view[key] = header[key]
        families.append({**view, "entries": entries})
    pages = [{"kind": p.kind, "name": p.name, "url": root + p.url,
              "rows": [f"{root}codes/{f}/#{row_anchor(f, e)}" for f, e in p.rows]}
             for p in sorted(index.pages.values(), key=lambda p: (p.kind, p.slug))]
    return {"api_version": API_VERSION, "site_url": root, "count": total, "families": families, "pages": pages}


def _entry(family: str, e: dict, index, root: str, record_ids) -> dict:
    kind, name, _ = row_codes(family, e)[0]
    refs = [r for r in dict.fromkeys([e.get("owner")] + e.get("references", [])) if r and r in record_ids]
    out = {"key": entry_key(family, e), "kind": kind, "name": name, "anchor": row_anchor(family, e),
           "url": root + index.url(kind, name), "row_url": f"{root}codes/{family}/#{row_anchor(family, e)}",
           "page": index.page(kind, name) is not None,
           "codes": [{"kind": k, "name": n, "url": root + index.url(k, n), "page": index.page(k, n) is not None}
                     for k, n, _ in row_codes(family, e)],
           "class": e["class"], "references": refs,
           "entry": dict(e, cites=[{"source": c["source"], "locator": c["locator"]} for c in e["cites"]])}
    if e.get("owner") in record_ids:
        out["owner"] = e["owner"]
    return out


def write_codes_api(tables, index, docs: Path, site_url: str, record_ids) -> None:
    path = docs / "api" / "v1" / "codes.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    catalog = codes_catalog(tables, index, site_url, set(record_ids))
    path.write_text(json.dumps(catalog, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    (docs / "schema").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(CODES_API_SCHEMA, docs / "schema" / CODES_API_SCHEMA.name)
    shutil.copyfile(paths.CODES_SCHEMA, docs / "schema" / paths.CODES_SCHEMA.name)
