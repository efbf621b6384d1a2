"""What changed: the /changes/ page and the Atom feed /feed.xml, from the records' dated `changes`.

Built from the records, not from file times or repository history: a fresh clone or a CI
checkout does not carry those faithfully, and the records say what actually changed.
"""
import xml.etree.ElementTree as ET
from pathlib import Path

from .views import reference_url

ATOM = "http://www.w3.org/2005/Atom"
FEED_TITLE = "Reliability Error References: what changed"


def change_entries(records, site_url: str) -> list[dict]:
    """One entry per dated change, newest first. An entry's id is stable while `changes` lists
    are only appended to: the reference URL, the date and its position among that date's changes."""
    entries = []
    for record in records:
        url = reference_url(site_url, record.id)
        seen: dict = {}
        for change in record.data["changes"]:
            seen[change["date"]] = seen.get(change["date"], 0) + 1
            entries.append({"id": f"{url}#change-{change['date']}-{seen[change['date']]}",
                            "ref_id": record.id, "title": record.data["title"], "url": url,
                            "date": change["date"], "n": seen[change["date"]], "summary": change["summary"],
                            "category": record.data["category"]})
    return sorted(entries, key=lambda e: (e["date"], e["n"], e["ref_id"]), reverse=True)


def write_changelog(records, docs: Path, env, site_url: str) -> None:
    entries = change_entries(records, site_url)
    dates = sorted({e["date"] for e in entries}, reverse=True)
    days = [{"date": d, "entries": sorted((e for e in entries if e["date"] == d),
                                          key=lambda e: (e["title"].lower(), e["n"]))} for d in dates]
    (docs / "changes.md").write_text(env.get_template("changes.md.j2").render(days=days), encoding="utf-8")
    (docs / "feed.xml").write_bytes(atom_feed(entries, site_url))


def atom_feed(entries: list[dict], site_url: str) -> bytes:
    root = site_url.rstrip("/") + "/"
    ET.register_namespace("", ATOM)
    feed = ET.Element(f"{{{ATOM}}}feed")
    _text(feed, "id", f"{root}feed.xml")
    _text(feed, "title", FEED_TITLE)
    _text(feed, "updated", _stamp(max((e["date"] for e in entries), default="1970-01-01")))
    ET.SubElement(feed, f"{{{ATOM}}}link", rel="self", type="application/atom+xml", href=f"{root}feed.xml")
    ET.SubElement(feed, f"{{{ATOM}}}link", rel="alternate", type="text/html", href=f"{root}changes/")
    author = ET.SubElement(feed, f"{{{ATOM}}}author")
    _text(author, "name", "Reliability Error References")
    for e in entries:
        entry = ET.SubElement(feed, f"{{{ATOM}}}entry")
        _text(entry, "id", e["id"])
        _text(entry, "title", f"{e['title']}: {_first_sentence(e['summary'])}")
        _text(entry, "updated", _stamp(e["date"]))
        ET.SubElement(entry, f"{{{ATOM}}}link", rel="alternate", type="text/html", href=f"{e['url']}#changes")
        ET.SubElement(entry, f"{{{ATOM}}}category", term=e["category"])
        _text(entry, "summary", e["summary"])
    ET.indent(feed)
    return ET.tostring(feed, encoding="utf-8", xml_declaration=True) + b"\n"


def _text(parent, tag: str, text: str):
    child = ET.SubElement(parent, f"{{{ATOM}}}{tag}")
    child.text = text
    return child


def _stamp(date: str) -> str:
    return f"{date}T00:00:00Z"


def _first_sentence(text: str, limit: int = 100) -> str:
    first = " ".join(text.split()).split(". ")[0].rstrip(".")
    return first if len(first) <= limit else first[:limit - 1].rsplit(" ", 1)[0] + "…"
