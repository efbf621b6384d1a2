"""The catalog as data: /api/v1/references.json and /api/v1/references/<id>.json.

Version 1 is a contract with tools outside the project: fields are only ever added. A breaking
change gets a new writer under /api/v2/ and this one keeps running. The match index is not
part of it (it is an internal file whose format follows the engine).
"""
import json
import shutil
from pathlib import Path

from .. import paths
from .views import reference_url

API_VERSION = 1
API_SCHEMA = paths.ROOT / "schema" / "api-v1.schema.json"


def reference_entry(record, site_url: str) -> dict:
    root = site_url.rstrip("/") + "/"
    return {
        "api_version": API_VERSION,
        "id": record.id,
        "title": record.data["title"],
        "status": record.data.get("status", "active"),
        "beyond_catalog": record.data.get("beyond_catalog", False),
        "url": reference_url(site_url, record.id),
        "json_url": f"{root}api/v1/references/{record.id}.json",
        "record": record.data,
    }


def write_api(records, docs: Path, site_url: str) -> None:
    entries = [reference_entry(r, site_url) for r in records]
    catalog = {"api_version": API_VERSION, "site_url": site_url.rstrip("/") + "/", "count": len(entries),
               "references": entries}
    folder = docs / "api" / "v1"
    texts = [_json(entry) for entry in entries]  # each entry encoded once, for both files
    head = _json({k: v for k, v in catalog.items() if k != "references"})
    _write(folder / "references.json", head[:-1] + ',"references":[' + ",".join(texts) + "]}")
    for record, text in zip(records, texts):
        # An earlier id keeps its JSON URL too, like its page (which redirects).
        for name in [record.id] + record.data.get("aliases", []):
            _write(folder / "references" / f"{name}.json", text)
    (docs / "schema").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(API_SCHEMA, docs / "schema" / API_SCHEMA.name)


def _json(value) -> str:
    # Compact, so the C encoder runs (indent= falls back to pure Python); `jq .` pretty-prints.
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text + "\n", encoding="utf-8")
