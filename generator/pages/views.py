"""Turn validated records into the plain data the templates render.

Templates hold markup only; every lookup (a look-alike's title, a cause's checks, a
source's number) is resolved here.
"""
from collections import defaultdict

from .budget import budget_links
from .charts import chart_views
from ..paths import page_url
from ..records.headings import cause_heading, split_first_sentence
from ..records.load import Record

KIND_LABELS = {"error": "Error", "symptom": "Symptom", "field-report": "Field report", "practice": "Practice"}
# Whether a reference is one of the published catalog's titles or written beyond it (beyond_catalog).
ORIGIN_LABELS = {"catalog": "In the catalog", "beyond": "Beyond the catalog"}
APPLIES_LABELS = {"frameworks": "Frameworks", "hardware": "Hardware", "drivers": "Drivers",
                  "environments": "Environments"}


def categories(schema: dict) -> list[dict]:
    return [{"id": c["const"], "title": c["title"], "description": c["description"]}
            for c in schema["properties"]["category"]["oneOf"]]


def reference_path(ref_id: str) -> str:
    """The canonical path of a reference page, from the site root."""
    return f"references/{ref_id}/"


def reference_url(site_url: str, ref_id: str) -> str:
    """An absolute link to a reference page under `site_url` (see the rule in paths.py)."""
    return page_url(reference_path(ref_id), site_url)


def reference_view(record: Record, by_id: dict, category_titles: dict, public_root: str | None,
                   checked: dict | None = None) -> dict:
    """`public_root`: SITE_URL when the build was given one, else None (links are then resolved
    in the browser against the root the page is served from: paths.py has the rule). `checked`:
    source URL -> the date the audit opened it (audit_dates()); records never hold those dates."""
    checked = checked or {}
    data = record.data
    source_no = {s["url"]: i for i, s in enumerate(data["sources"], 1)}
    causes = {c["id"]: c for c in data["causes"]}
    checks = {e["id"]: e for e in data["evidence"]}
    check_no = {e["id"]: i for i, e in enumerate(data["evidence"], 1)}

    def cite(url):
        return {"no": source_no[url], "url": url} if url else None

    return {
        "id": record.id,
        "title": data["title"],
        "beyond_catalog": data.get("beyond_catalog", False),
        "summary": data["summary"],
        "lede": lede(data),
        # The meta description: the lede the author wrote, else the whole summary rather than the
        # first sentence lede() falls back to, so a record without a lede is described as before.
        "description": data.get("lede") or data["summary"],
        "disputed": _disputed(data.get("discrepancies", [])),
        "kind": data["kind"],
        "kind_label": KIND_LABELS[data["kind"]],
        "prints_nothing": data["kind"] != "error",
        "category": data["category"],
        "category_title": category_titles[data["category"]],
        "retired": data.get("status") == "retired",
        "successor": _ref_link(data.get("successor"), by_id),
        "path": reference_path(record.id),
        "public_url": reference_url(public_root, record.id) if public_root else None,
        "shown_url": reference_url(public_root, record.id) if public_root else reference_path(record.id),
        "last_reviewed": data["last_reviewed"],
        "applies_to": _applies_rows(data.get("applies_to", {})),
        "versions": data.get("applies_to", {}).get("versions", []),
        "signatures": _signature_groups([_signature_view(s, cite, by_id, causes) for s in data["signatures"]]),
        "causes": [_cause_view(c, cite, checks, check_no, by_id) for c in data["causes"]],
        "causes_ranked": any("likelihood" in c for c in data["causes"]),
        "evidence": [dict(e, no=check_no[e["id"]], cite=cite(e.get("source")),
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
        "sources": [dict(s, no=i, checked=checked.get(s["url"])) for i, s in enumerate(data["sources"], 1)],
        "changes": sorted(data["changes"], key=lambda c: c["date"], reverse=True),
    }


def audit_dates(audit: dict | None) -> dict:
    """Source URL -> the date it was checked, from a record's audit (audit/<id>.yaml): only the
    sources the auditor opened have one; an unreachable or unopened source shows no date."""
    return {s["url"]: str(s["checked"]) for s in (audit or {}).get("sources", [])
            if s.get("status") == "opened" and s.get("checked")}


def lede(data: dict) -> str:
    """What the reference is, in at most two sentences: the record's `lede`, else (records written
    before it existed) the summary's first sentence."""
    if data.get("lede"):
        return data["lede"]
    return " ".join(data["summary"].split()).split(". ")[0].rstrip(".") + "."


def browse_rows(records: list[Record], category_titles: dict) -> list[dict]:
    rows = []
    for record in records:
        data, applies = record.data, record.data.get("applies_to", {})
        rows.append({
            "id": record.id, "title": data["title"], "summary": data["summary"], "lede": lede(data), "line": first_sentence(data["summary"]),
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


def first_sentence(text: str) -> str:
    """The browse table's one line: a summary's first sentence (the cell cuts it with an ellipsis)."""
    return split_first_sentence(text)[0]


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


SIGNATURES_SHOWN = 6  # with the causes table, keeps the evidence checks within two screens (issue 19 item 10)



# Under a cause heading: its first sentence when that is short, and its checks; the rest sits
# behind "more", so the evidence checks start within two screens on the longest page (issue 19
# item 10). A rest shorter than REST_SHOWN stays in view: a disclosure for half a line costs more
# than it saves.
LEAD_SHOWN, REST_SHOWN = 160, 80


def _cause_view(cause: dict, cite, checks: dict, check_no: dict, by_id: dict) -> dict:
    heading, body = cause_heading(cause)
    lead, rest = split_first_sentence(body)
    if len(lead) > LEAD_SHOWN:
        lead, rest = "", body
    if len(rest) < REST_SHOWN:
        lead, rest = body, ""
    return dict(cause, heading=heading, body=body, lead=lead, rest=rest, cite=cite(cause.get("source")),
                likelihood_cite=cite(cause.get("likelihood_source")),
                checks=[{"id": k, "title": checks[k]["title"], "no": check_no[k]} for k in cause["checks"]],
                twin=_twin_link(cause.get("same_as"), by_id))


def _twin_link(twin: dict | None, by_id: dict) -> dict | None:
    """The same cause on another reference (validated both ways by the records stage)."""
    if twin is None:
        return None
    other = by_id[twin["ref"]].data
    cause = next(c for c in other["causes"] if c["id"] == twin["cause"])
    return {"ref": twin["ref"], "title": other["title"], "cause": twin["cause"], "heading": cause_heading(cause)[0]}

def _signature_groups(signatures: list) -> dict:
    """The signatures as the first screen lists them: the lines that name the fault first, then the
    downstream symptoms, in record order within each; past SIGNATURES_SHOWN, the rest sit behind
    one "more" disclosure (the browser opens it when a link targets a signature inside)."""
    ordered = [s for s in signatures if s["role"] == "cause"] + [s for s in signatures if s["role"] != "cause"]
    shown = len(ordered) if len(ordered) <= SIGNATURES_SHOWN + 1 else SIGNATURES_SHOWN
    return {"all": ordered, "shown": ordered[:shown], "more": ordered[shown:]}


def _disputed(discrepancies: list) -> str | None:
    """What the sources dispute of the catalog's own words ("title", "summary"), for the notice at
    the top of the page; the title wins when both are disputed."""
    marks = {d["disputes"] for d in discrepancies if d.get("disputes")}
    return "title" if "title" in marks else ("summary" if marks else None)


def _signature_view(sig: dict, cite, by_id: dict, causes: dict) -> dict:
    points_at = [_cause_link(c, causes) for c in sig.get("causes", [])]
    # A single cause heading cut with an ellipsis already ends the sentence.
    stop = "" if len(points_at) == 1 and points_at[0]["heading"].endswith("…") else "."
    return dict(sig, cite=cite(sig["seen_at"]), overlaps=[_ref_link(o, by_id) for o in sig.get("overlaps", [])],
                points_at=points_at, points_at_stop=stop)


def _cause_link(cause_id: str, causes: dict) -> dict:
    return {"id": cause_id, "heading": cause_heading(causes[cause_id])[0]}


def _ref_link(ref_id, by_id):
    if not ref_id:
        return None
    return {"id": ref_id, "title": by_id[ref_id].data["title"]}
