"""The codes index, built from the code tables (codes/*.yaml): /codes/ lists the families, each
family has one page with every entry of its table as an anchored row (/codes/<family>/#<anchor>),
and a code gets a page of its own (/codes/<kind>/<slug>/) by code_pages()'s rule in the records
stage, the same rule the match index links by.

A code page, once published, is kept even when its code has no row: runbooks and alert rules
print these URLs, so the page stays and says so. This module shapes the tables into the plain data
the templates render; the templates hold the markup.
"""
import posixpath
from pathlib import Path

from ..records.code_tables import FAMILY_OF_KIND, code_pages, row_anchor, row_codes

FAMILY_ORDER = ("xid", "sxid", "dcgm", "nccl", "cuda", "signals", "k8s", "slurm")
GPUS = ("A100", "H100", "B100", "GB200")
KIND_TITLES = {"xid": "Xid {}", "sxid": "SXid {}", "exit": "Exit status {}"}
OLDER_CAUSES = {"hardware": "hardware error", "driver": "driver error", "user-application": "user application error",
                "system-memory-corruption": "system memory corruption", "bus": "bus error", "thermal": "thermal issue",
                "framebuffer-corruption": "framebuffer corruption"}
# Family pages split into sections: (title, which entries) per family; one untitled section otherwise.
SECTIONS = {
    "nccl": [("Result codes", lambda e: e["kind"] == "result"), ("WARN lines", lambda e: e["kind"] == "warn")],
    "slurm": [("Job states", lambda e: e["kind"] == "state"), ("Job state reasons", lambda e: e["kind"] == "reason"),
              ("Lines Slurm prints when it ends a job", lambda e: e["kind"] == "message")],
}
# The columns of each family's table between "Code" and "Class", by section.
COLUMNS = {
    "xid": ["Mnemonic and meaning", "Applies to", "Immediate action", "Investigatory action"],
    "sxid": ["Name and meaning", "As printed"],
    "dcgm": ["Message", "Severity and category"],
    "nccl:result": ["Meaning", "Text"],
    "nccl:warn": ["Prefix and meaning", "Formats"],
    "cuda": ["Meaning", "Text"],
    "signals": ["Meaning", "Text and action", "Exit statuses"],
    "k8s": ["Meaning", "Where it shows"],
    "slurm:state": ["Meaning", "As printed"],
    "slurm:reason": ["Meaning", "As printed"],
    "slurm:message": ["Meaning", "Format"],
}


def write_code_pages(records, tables, docs: Path, env, locked=()):
    """Write /codes/, the family pages and the code pages; returns the CodeIndex they follow."""
    index = code_pages(tables, records, locked)
    titles = {r.id: r.data["title"] for r in records}
    examples = {(r.id, s["id"]): s["example"] for r in records for s in r.data["signatures"]}
    families = [family_view(f, tables, index, titles) for f in FAMILY_ORDER if f in tables]
    for family in families:
        pages = [p for p in index.pages.values() if FAMILY_OF_KIND.get(p.kind) == family["id"]]
        family["page_links"] = [{"title": label_of(*p.rows[0]) if p.rows and p.kind != "exit" else title_of(p.kind, p.name),
                                 "href": _link("codes", p.url)}
                                for p in sorted(pages, key=_page_order)]
    _write(docs / "codes" / "index.md", env.get_template("codes.md.j2").render(families=families))
    family_template = env.get_template("code-family.md.j2")
    for family in families:
        _write(docs / "codes" / family["id"] / "index.md", family_template.render(f=family))
    page_template = env.get_template("code.md.j2")
    for page in index.pages.values():
        _write(docs / "codes" / page.kind / f"{page.slug}.md",
               page_template.render(c=page_view(page, index, titles, examples)))
    return index


# --- one family's page ------------------------------------------------------------------------

def family_view(family: str, tables, index, titles: dict) -> dict:
    header = tables.headers[family]
    entries = tables[family]
    sections = []
    groups = {g["id"]: g["gloss"] for g in header.get("groups", [])}
    if family == "sxid":
        parts = [(g, groups[g], lambda e, g=g: e["group"] == g) for g in groups]
    else:
        parts = [(title, None, test) for title, test in SECTIONS.get(family, [(None, lambda e: True)])]
    for title, gloss, test in parts:
        rows = [row_view(family, e, tables, index, titles, here=f"codes/{family}") for e in entries if test(e)]
        if rows:
            key = f"{family}:{rows[0]['entry_kind']}" if f"{family}:{rows[0]['entry_kind']}" in COLUMNS else family
            sections.append({"title": title, "id": (title.lower() if family == "sxid" else _slug(title)) if title else None,
                             "gloss": gloss, "columns": COLUMNS[key], "rows": rows,
                             "has_recovery": any(r["recovery"] for r in rows)})
    return {
        "id": family, "title": header["title"], "summary": header["summary"], "notes": header.get("notes", []),
        "sources": header["sources"], "buckets": header.get("buckets", []), "sections": sections,
        "count": len(entries), "pages": sum(1 for r in (row for s in sections for row in s["rows"]) if r["has_page"]),
        "with_references": sum(1 for s in sections for r in s["rows"] if r["refs"]),
        "classes": sorted({e["class"] for e in entries}),
    }


def row_view(family: str, entry: dict, tables, index, titles: dict, here: str) -> dict:
    """One table row as the templates need it, its links relative to the folder `here` of the
    Markdown file it is written into."""
    kind, name, _ = row_codes(family, entry)[0]
    page = index.page(kind, name)
    refs = [r for r in dict.fromkeys([entry.get("owner")] + entry.get("references", [])) if r]
    sources = {s["id"]: s for s in tables.headers[family]["sources"]}
    view = {
        "family": family, "anchor": row_anchor(family, entry), "entry_kind": entry.get("kind", ""),
        "label": label_of(family, entry), "code": name, "has_page": page is not None,
        "href": _link(here, page.url) if page else None,
        "row_href": _link(here, f"codes/{family}/") + f"#{row_anchor(family, entry)}",
        "gloss": entry.get("gloss", ""), "class": entry["class"], "class_basis": entry["class_basis"],
        "recovery": entry.get("recovery") or entry.get("suggestion") or "",
        "refs": [{"id": r, "title": titles.get(r, r), "owner": r == entry.get("owner"), "exists": r in titles,
                  "href": _link(here, f"references/{r}/")} for r in refs],
        "cites": [{"source": c["source"], "title": c["title"], "url": c["url"], "locator": c["locator"]}
                  for c in entry["cites"]],
        "vendor": {"title": entry["cites"][0]["title"], "url": entry["cites"][0]["url"]},
        "notes": entry.get("notes", []),
        "disagreements": [{"sources": [sources[s]["title"] for s in d["sources"]], "note": d["note"]}
                          for d in entry.get("disagreements", [])],
    }
    view.update(_facts(family, entry, tables, index, here))
    return view


def _facts(family: str, e: dict, tables, index, here: str) -> dict:
    """The family's own columns (`cells`, each a list of parts) and the same facts as labelled
    lines for a code page (`facts`). A part is {"text"} or {"code"}, with an optional "href"."""
    if family == "xid":
        gpus = [g for g in GPUS if e.get("applies_to", {}).get(g)]
        older = e.get("older_catalog")
        buckets = {b["name"]: b["gloss"] for b in tables.headers["xid"].get("buckets", [])}
        applies = [{"text": ", ".join(gpus) if gpus else ("not in the catalog" if not e["in_catalog"] else "none")}]
        if older:
            applies.append({"text": f"Volta and earlier: {older['description']}"})
        facts = [("Mnemonic", [{"code": e["mnemonic"]}])]
        if e.get("description"):
            facts.append(("Catalog description", [{"text": e["description"]}]))
        if e.get("driver_name"):
            facts.append(("Name in the driver header", [{"code": e["driver_name"]}]))
        facts.append(("Applies to (Ampere and newer)", [{"text": ", ".join(gpus) if gpus else "no GPU in the catalog"}]))
        if older:
            causes = ", ".join(OLDER_CAUSES[c] for c in older["causes"]) or "none marked"
            facts.append(("Older catalog (Volta and earlier)", [{"text": f"{older['description']}; possible causes: {causes}"}]))
        if e.get("xid154_linkage"):
            facts.append(("Xid 154 linkage", [{"text": e["xid154_linkage"]}]))
        actions = [{"column": column, "bucket": e.get(key), "gloss": buckets.get(e.get(key), "")}
                   for column, key in (("Immediate action", "immediate_action"), ("Investigatory action", "investigatory_action"))]
        return {"cells": [[{"code": e["mnemonic"]}, {"text": e["gloss"]}], applies]
                + [[{"code": a["bucket"]}] if a["bucket"] else [{"text": "none given"}] for a in actions],
                "facts": facts, "actions": actions}
    if family == "sxid":
        shown = sorted({f"{r['severity']}: {r['message']}" for r in e["reports"]})
        facts = [("Name in the driver header", [{"code": e["name"]}]), ("Group", [{"code": e["group"]}])]
        facts += [(f"Printed by the {r['chip']} driver ({r['locator']})", [{"text": r["severity"] + ": "}, {"code": r["message"]}])
                  for r in e["reports"]]
        return {"cells": [[{"code": e["name"]}] + ([{"text": e["gloss"]}] if e.get("gloss") else []),
                          [{"code": s} for s in shown] or [{"text": "no report found in the driver"}]],
                "facts": facts, "actions": []}
    if family == "dcgm":
        facts = [("Enum name", [{"code": e["name"]}] + [{"code": a} for a in e.get("aliases", [])]),
                 ("Number", [{"text": str(e["code"])}]), ("Message", [{"code": e["message"]}]),
                 ("Severity", [{"code": e["severity"]}]), ("Category", [{"code": e["category"]}])]
        if e.get("suggestion"):
            facts.append(("Suggestion DCGM prints", [{"text": e["suggestion"]}]))
        return {"cells": [[{"code": e["message"]}], [{"code": e["severity"]}, {"code": e["category"]}]],
                "facts": facts, "actions": []}
    if family == "nccl" and e["kind"] == "result":
        facts = [("Result", [{"code": e["name"]}]), ("Number", [{"text": str(e["code"])}]),
                 ("ncclGetErrorString", [{"code": e["text"]}])]
        facts += [(f"Text in {h['versions']}", [{"code": h["text"]}]) for h in e.get("text_history", [])]
        if e.get("since"):
            facts.append(("Defined since", [{"text": e["since"]}]))
        return {"cells": [[{"text": e["gloss"]}],
                          [{"code": e["text"]}] + [{"code": h["text"]} for h in e.get("text_history", [])]],
                "facts": facts, "actions": []}
    if family == "nccl":
        facts = [("Prefix", [{"code": e["prefix"]}])]
        facts += [(f"Format, {f['versions']} ({f['locator']})", [{"code": f["format"]}]) for f in e["formats"]]
        return {"cells": [[{"code": e["prefix"]}, {"text": e["gloss"]}], [{"code": f["format"]} for f in e["formats"]]],
                "facts": facts, "actions": []}
    if family == "cuda":
        facts = [("Error", [{"code": e["name"]}]), ("Number", [{"text": str(e["code"])}]),
                 ("cudaGetErrorString", [{"code": e["text"]}]), ("Runtimes checked", [{"text": ", ".join(e["runtimes"])}])]
        return {"cells": [[{"text": e["gloss"]}], [{"code": e["text"]}]], "facts": facts, "actions": []}
    if family == "signals":
        statuses = []
        for label, status in (("shell", e["shell_status"]), ("Python", e["python_status"])):
            own = index.page("exit", str(status))
            statuses.append({"text": f"{status} ({label})", **({"href": _link(here, own.url)} if own else {})})
        facts = [("Signal", [{"code": e["name"]}]), ("Number", [{"text": str(e["number"])}]),
                 ("strsignal()", [{"code": e["text"]}]), ("Default action", [{"text": e["action"]}]),
                 ("Exit status from a shell, Slurm or a container runtime", [{"text": str(e["shell_status"])}]),
                 ("Return code from Python's subprocess and torchrun", [{"text": str(e["python_status"])}])]
        return {"cells": [[{"text": e["gloss"]}],
                          [{"code": e["text"]}, {"text": f"default action {e['action']}"}], statuses],
                "facts": facts, "actions": []}
    if family == "k8s":
        facts = [("Reason", [{"code": e["reason"]}]), ("Shows in", [{"code": f} for f in e["appears_in"]]),
                 ("Set by", [{"text": e["set_by"]}])]
        if e.get("message"):
            facts.append(("Message", [{"code": e["message"]}]))
        return {"cells": [[{"text": e["gloss"]}],
                          [{"code": f} for f in e["appears_in"]] + [{"text": f"set by {e['set_by']}"}]],
                "facts": facts, "actions": []}
    # slurm
    printed = [{"code": e["compact"]}] if e.get("compact") else []
    facts = [("Name", [{"code": e["name"]}])]
    if e.get("compact"):
        facts.append(("Short code (squeue)", [{"code": e["compact"]}]))
    if e.get("format"):
        facts.append(("Format", [{"code": e["format"]}]))
    if e.get("printed_by"):
        facts.append(("Printed by", [{"text": e["printed_by"]}]))
    shown = [{"code": e["format"]}] if e.get("format") else printed + ([{"text": e["printed_by"]}] if e.get("printed_by") else [])
    return {"cells": [[{"text": e["gloss"]}], shown or [{"text": "as named"}]], "facts": facts, "actions": []}


# --- one code's page --------------------------------------------------------------------------

def page_view(page, index, titles: dict, examples: dict) -> dict:
    here = f"codes/{page.kind}"
    rows = [row_view(f, e, index.tables, index, titles, here) for f, e in page.rows]
    code = (page.kind, page.name)
    listed = {r["id"] for row in rows for r in row["refs"]}
    by_ref: dict = {}
    for m in index.named.get(code, []):
        ref = by_ref.setdefault(m.ref, {"id": m.ref, "title": titles.get(m.ref, m.ref), "exists": m.ref in titles,
                                        "href": _link(here, f"references/{m.ref}/"), "signatures": []})
        if m.signature:
            ref["signatures"].append({"id": m.signature, "example": examples[(m.ref, m.signature)],
                                      "href": _link(here, f"references/{m.ref}/") + f"#signature-{m.signature}",
                                      "printed_as": _phrase(*m.printed) if m.printed and not m.by_pattern else None,
                                      "pattern_takes": _phrase(*m.printed) if m.by_pattern and m.printed else None})
    for row in rows:
        for r in row["refs"]:
            r["signatures"] = by_ref.get(r["id"], {}).get("signatures", [])
    others = [r for r in by_ref.values() if r["id"] not in listed]
    equivalents = []
    if rows and page.kind in ("signal", "exit"):
        for kind, name, _ in row_codes(*page.rows[0]):
            if (kind, name) != code:
                own = index.page(kind, name)
                equivalents.append({"title": title_of(kind, name), "href": _link(here, own.url) if own else None})
    family = FAMILY_OF_KIND.get(page.kind)
    signal = rows[0] if rows and page.kind == "exit" else None
    return {
        "kind": page.kind, "name": page.name, "rows": rows,
        "title": rows[0]["label"] if rows and page.kind != "exit" else title_of(page.kind, page.name),
        "phrase": _phrase(page.kind, page.name),
        "family_title": index.tables.headers[family]["title"], "family_href": _link(here, f"codes/{family}/"),
        "index_href": _link(here, "codes/"), "equivalents": equivalents,
        "exit": {"status": int(page.name), "shell": int(page.name) > 0, "signal": signal["code"] if signal else None,
                 "number": abs(int(page.name)) - (128 if int(page.name) > 0 else 0)} if page.kind == "exit" else None,
        "printed_by": [r for r in others if r["signatures"]],
        "named_in_text": [r for r in others if not r["signatures"]],
        "description": rows[0]["gloss"] if rows and rows[0]["gloss"] else f"{title_of(page.kind, page.name)}: no row in the code tables.",
        "sources": _no_row_sources(page, index.tables) if not rows else [],
    }


def _no_row_sources(page, tables) -> list:
    """Where to read about a published code that has no row: for an exit status, the signals table's
    sources for the 128 + N and -N conventions; else the family table's sources."""
    family = FAMILY_OF_KIND.get(page.kind)
    sources = tables.headers.get(family, {}).get("sources", [])
    if page.kind == "exit":
        return [s for s in sources if s["id"] in ("bash-1", "subprocess")]
    return sources


def _page_order(page):
    """Signals before exit statuses; numbers in numeric order (negative statuses last); names alphabetically."""
    number = page.name.lstrip("-").isdigit()
    return (page.kind == "exit", not number, (int(page.name) < 0, abs(int(page.name))) if number else (False, 0),
            page.name.lower())


def label_of(family: str, entry: dict) -> str:
    """How a row is titled: "Xid 79", "SIGKILL", and for a family of NCCL WARN lines its prefix and id."""
    kind, name, _ = row_codes(family, entry)[0]
    if family == "nccl" and entry["kind"] == "warn":
        return f"NCCL WARN {entry['prefix']} ({entry['id']})"
    return title_of(kind, name)


def _phrase(kind: str, name: str) -> str:
    """A code's title inside a sentence: "exit status 137", "Xid 79", "SIGKILL"."""
    title = title_of(kind, name)
    return title[:1].lower() + title[1:] if kind == "exit" else title


def title_of(kind: str, name: str) -> str:
    return KIND_TITLES.get(kind, "{}").format(name)


def _link(here: str, url: str) -> str:
    """A link from a Markdown file in folder `here` ('codes/xid') to the page at site-relative
    folder URL `url` ('codes/xid/79/', 'codes/xid/', 'references/x/'), written to its Markdown source
    so mkdocs checks it: a family page and /codes/ are index.md files, every other page <name>.md."""
    parts = url.strip("/").split("/")
    index_page = url.strip("/") == "codes" or (len(parts) == 2 and parts[0] == "codes")
    source = "/".join(parts) + "/index.md" if index_page else "/".join(parts) + ".md"
    return posixpath.relpath(source, here)


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in text.lower()).strip("-").replace("--", "-")


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
