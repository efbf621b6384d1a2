"""Turn validated records into the plain data the templates render.

Templates hold markup only; every lookup (a look-alike's title, a cause's checks, a
source's number) is resolved here.
"""
import re
from collections import defaultdict

from .budget import budget_links
from .charts import chart_views
from ..records.load import Record

KIND_LABELS = {"error": "Error", "symptom": "Symptom", "field-report": "Field report", "practice": "Practice"}
# Whether a reference is one of the published catalog's titles or written beyond it (beyond_catalog).
ORIGIN_LABELS = {"catalog": "In the catalog", "beyond": "Beyond the catalog"}
APPLIES_LABELS = {"frameworks": "Frameworks", "hardware": "Hardware", "drivers": "Drivers",
                  "environments": "Environments"}


def categories(schema: dict) -> list[dict]:
    return [{"id": c["const"], "title": c["title"], "description": c["description"]}
            for c in schema["properties"]["category"]["oneOf"]]


def reference_url(site_url: str, ref_id: str) -> str:
    return f"{site_url.rstrip('/')}/references/{ref_id}/"


def reference_view(record: Record, by_id: dict, category_titles: dict, site_url: str) -> dict:
    data = record.data
    source_no = {s["url"]: i for i, s in enumerate(data["sources"], 1)}
    causes = {c["id"]: c for c in data["causes"]}
    checks = {e["id"]: e for e in data["evidence"]}

    def cite(url):
        return {"no": source_no[url], "url": url} if url else None

    return {
        "id": record.id,
        "title": data["title"],
        "summary": data["summary"],
        "kind": data["kind"],
        "kind_label": KIND_LABELS[data["kind"]],
        "prints_nothing": data["kind"] != "error",
        "category": data["category"],
        "category_title": category_titles[data["category"]],
        "retired": data.get("status") == "retired",
        "successor": _ref_link(data.get("successor"), by_id),
        "url": reference_url(site_url, record.id),
        "last_reviewed": data["last_reviewed"],
        "applies_to": _applies_rows(data.get("applies_to", {})),
        "versions": data.get("applies_to", {}).get("versions", []),
        "signatures": [dict(s, cite=cite(s["seen_at"]), overlaps=[_ref_link(o, by_id) for o in s.get("overlaps", [])])
                       for s in data["signatures"]],
        "causes": [dict(c, heading=_heading(c), cite=cite(c.get("source")),
                        likelihood_cite=cite(c.get("likelihood_source")),
                        checks=[{"id": k, "title": checks[k]["title"]} for k in c["checks"]])
                   for c in data["causes"]],
        "causes_ranked": any("likelihood" in c for c in data["causes"]),
        "evidence": [dict(e, cite=cite(e.get("source")),
                          confirms=[_cause_link(k, causes) for k in e.get("confirms", [])],
                          rules_out=[_cause_link(k, causes) for k in e.get("rules_out", [])])
                     for e in data["evidence"]],
        "mitigations": [dict(m, cite=cite(m.get("source")),
                             fix_cite=cite(m.get("fixed_in", {}).get("fix_url"))) for m in data["mitigations"]],
        "look_alikes": [dict(a, link=_ref_link(a.get("ref"), by_id)) for a in data.get("look_alikes", [])],
        "discrepancies": [dict(d, cite=cite(d.get("source"))) for d in data.get("discrepancies", [])],
        "figures": [dict(f, cite=cite(f["source"])) for f in data.get("figures", [])],
        "charts": chart_views(data),
        "budget_links": budget_links(data),
        "sources": [dict(s, no=i) for i, s in enumerate(data["sources"], 1)],
        "changes": sorted(data["changes"], key=lambda c: c["date"], reverse=True),
    }


def browse_rows(records: list[Record], category_titles: dict) -> list[dict]:
    rows = []
    for record in records:
        data, applies = record.data, record.data.get("applies_to", {})
        rows.append({
            "id": record.id, "title": data["title"], "summary": data["summary"], "line": first_sentence(data["summary"]),
            "kind": data["kind"],
            "kind_label": KIND_LABELS[data["kind"]], "category": data["category"],
            "category_title": category_titles[data["category"]],
            "frameworks": applies.get("frameworks", []), "hardware": applies.get("hardware", []),
            "environments": applies.get("environments", []),
            "retired": data.get("status") == "retired",
            "beyond_catalog": bool(data.get("beyond_catalog")),
            "origin": "beyond" if data.get("beyond_catalog") else "catalog",
        })
    return sorted(rows, key=lambda r: r["title"].lower())


# A sentence ends at . ! or ? before a capital letter: "e.g. the" and "0.14" do not end one.
SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z\"'(])")


def first_sentence(text: str) -> str:
    """The browse table's one line: a summary's first sentence (the cell cuts it with an ellipsis)."""
    return SENTENCE_END.split(" ".join(text.split()), maxsplit=1)[0]


def filter_options(rows: list[dict], cats: list[dict]) -> list[dict]:
    """The browse page's filters: each lists only values some record uses."""
    used = defaultdict(set)
    for row in rows:
        used["kind"].add(row["kind"])
        used["category"].add(row["category"])
        used["origin"].add(row["origin"])
        for key in ("frameworks", "hardware", "environments"):
            used[key].update(row[key])
    return [
        {"key": "category", "label": "Category",
         "options": [(c["id"], c["title"]) for c in cats if c["id"] in used["category"]]},
        {"key": "kind", "label": "Kind", "options": [(k, v) for k, v in KIND_LABELS.items() if k in used["kind"]]},
        {"key": "origin", "label": "Origin", "options": [(k, v) for k, v in ORIGIN_LABELS.items() if k in used["origin"]]},
    ] + [{"key": key, "label": APPLIES_LABELS[key], "options": [(v, v) for v in sorted(used[key])]}
         for key in ("frameworks", "hardware", "environments")]


def _applies_rows(applies: dict) -> list[dict]:
    return [{"label": label, "items": applies[key]} for key, label in APPLIES_LABELS.items() if applies.get(key)]


def _heading(cause: dict) -> str:
    if cause.get("title"):
        return cause["title"]
    first = cause["description"].split(". ")[0].rstrip(".")
    return first if len(first) <= 110 else first[:107].rsplit(" ", 1)[0] + "…"


def _cause_link(cause_id: str, causes: dict) -> dict:
    return {"id": cause_id, "heading": _heading(causes[cause_id])}


def _ref_link(ref_id, by_id):
    if not ref_id:
        return None
    return {"id": ref_id, "title": by_id[ref_id].data["title"]}
