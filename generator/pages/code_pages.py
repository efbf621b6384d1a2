"""The codes index: /codes/ and one page per code at /codes/<kind>/<name>/.

A code page, once published, is kept even when no signature mentions the code any more:
runbooks and alert rules print these URLs, so the page stays and says so.
"""
from pathlib import Path

from . import codes as codes_mod


def write_code_pages(records, docs: Path, env, kept_codes=()) -> dict:
    """Write the pages; returns the code index ({code: [Mention]}) they were built from."""
    index = codes_mod.code_index(records)
    all_codes = sorted(set(index) | set(kept_codes), key=codes_mod.sort_key)
    template = env.get_template("code.md.j2")
    for code in all_codes:
        page = template.render(c=_code_view(code, index))
        _write(docs / "codes" / f"{codes_mod.slug(code)}.md", page)
    kinds = [{"id": kind, "title": title, "codes": [_summary(c, index) for c in all_codes if c[0] == kind]}
             for kind, title in codes_mod.KINDS.items()]
    _write(docs / "codes" / "index.md", env.get_template("codes.md.j2").render(kinds=kinds))
    return index


def _code_view(code, index) -> dict:
    mentions = index.get(code, [])
    refs: dict = {}
    for m in mentions:
        refs.setdefault(m.ref_id, {"id": m.ref_id, "title": m.title, "href": f"../../references/{m.ref_id}.md",
                                   "mentions": []})["mentions"].append(
            {"href": f"../../references/{m.ref_id}.md#signature-{m.signature_id}", "example": m.example,
             "printed_as": [f"exit status {n}" if k == "exit" else n for k, n in m.printed_as]})
    kind = code[0]
    equivalents = sorted(codes_mod.with_equivalents({code}) - {code}, key=codes_mod.sort_key)
    return {
        "kind": kind, "name": code[1], "kind_title": codes_mod.KINDS[kind],
        "title": codes_mod.title(code), "description": codes_mod.describe(code),
        "equivalents": [{"title": codes_mod.title(e), "href": f"../{codes_mod.slug(e)}.md"}
                        for e in equivalents if e in index],
        "refs": sorted(refs.values(), key=lambda r: r["title"].lower()),
    }


def _summary(code, index) -> dict:
    refs = {m.ref_id: m.title for m in index.get(code, [])}
    return {"title": codes_mod.title(code), "href": f"{codes_mod.slug(code)}.md",
            "refs": [{"id": i, "title": t} for i, t in sorted(refs.items(), key=lambda kv: kv[1].lower())]}


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
