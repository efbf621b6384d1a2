"""Category pages list their references one per row, as the browse page does (issue 19 item 4):
never one run-on line of "- [title](...)" joined together."""
import re
from html.parser import HTMLParser

from relref import paths
from relref.records.load import load_records, load_schema


class Rows(HTMLParser):
    """The article's table rows, each as (links in it, its text)."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.rows, self._row, self._in_article = [], None, False
        self.article_text = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        if tag == "article":
            self._in_article = True
        if self._in_article and tag == "tr":
            self._row = ([], [])
        if self._row is not None and tag == "a":
            self._row[0].append(dict(attrs).get("href", ""))

    def handle_endtag(self, tag):
        if tag == "tr" and self._row is not None:
            self.rows.append((self._row[0], " ".join("".join(self._row[1]).split())))
            self._row = None
        if tag == "article":
            self._in_article = False

    def handle_data(self, data):
        if self._row is not None:
            self._row[1].append(data)
        if self._in_article:
            self.article_text.append(data)


def test_every_category_page_lists_each_reference_in_its_own_row(built_site):
    records = load_records(paths.RECORDS)
    categories = [c["const"] for c in load_schema()["properties"]["category"]["oneOf"]]
    assert len(categories) == 9
    for category in categories:
        page = Rows((built_site / "categories" / category / "index.html").read_text(encoding="utf-8"))
        expected = {r.id: r for r in records if r.data["category"] == category}
        listed = {}
        for links, text in page.rows:
            ids = {m.group(1) for href in links for m in [re.search(r"references/([a-z0-9-]+)/", href)] if m}
            assert len(ids) <= 1, f"{category}: one row names several references: {text[:200]}"
            if ids:
                listed[ids.pop()] = text
        assert set(listed) == set(expected), f"{category}: rows {sorted(listed)} != {sorted(expected)}"
        for ref_id, text in listed.items():
            data = expected[ref_id].data
            assert data["title"] in text, f"{category}: {ref_id} row lacks its title"
            assert {"error": "Error", "symptom": "Symptom", "field-report": "Field report",
                    "practice": "Practice"}[data["kind"]] in text, f"{category}: {ref_id} row lacks its kind"
            assert len(text) > len(data["title"]) + 30, f"{category}: {ref_id} row has no one-line description"
        article = " ".join("".join(page.article_text).split())
        assert "- [" not in article and "](../references/" not in article, f"{category}: Markdown leaked as text"
