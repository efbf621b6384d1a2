"""Record text never becomes markup: hostile text in every field kind (tests/payloads.py) shows
as text in the built HTML, verbatim output like <defunct> is kept literally, and validation
rejects only what Markdown itself would turn into markup."""
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest

from relref.records.load import load_records
from relref.records.problems import RecordErrors
from relref.records.prose import safe_url
from payloads import ALIASED, BENIGN, LITERAL, PAYLOADS, REJECTED, url_payload, write_payload_records

SITE_NAME = " - Reliability Error References"
# Inline Markdown a prose payload may legitimately produce.
INLINE = {("em", ()), ("strong", ()), ("code", ()), ("span", ()), ("a", ("href",)), ("a", ("href", "title"))}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "data", "poster"}


class Parsed(HTMLParser):
    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.signatures, self.urls, self.handlers, self.metas = set(), [], [], []
        self.title, self.h1, self._in = "", "", None
        self.codes, self._code = [], 0
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        self.signatures.add((tag, tuple(sorted(name for name, _ in attrs))))
        for name, value in attrs:
            if name.startswith("on"):
                self.handlers.append((tag, name))
            if name in URL_ATTRIBUTES and value is not None:
                self.urls.append((tag, name, value))
        if tag == "meta":
            self.metas.append(dict(attrs))
        if tag in ("title", "h1") and not getattr(self, f"seen_{tag}", False):
            self._in = tag  # the page's own: an SVG chart has a <title> too
            setattr(self, f"seen_{tag}", True)

        if tag == "code":
            self._code += 1
            self.codes.append("")

    def handle_endtag(self, tag):
        if tag == self._in:
            self._in = None
        if tag == "code":
            self._code -= 1

    def handle_data(self, data):
        if self._code:
            self.codes[-1] += data
        if self._in == "title":
            self.title += data
        elif self._in == "h1":
            self.h1 += data


def parse(path) -> Parsed:
    return Parsed(path.read_text(encoding="utf-8"))


def shown(text: str) -> str:
    return " ".join(text.split())


def test_validation_rejects_attribute_lists_and_unsafe_links_and_nothing_else(tmp_path):
    written = write_payload_records(tmp_path / "records")
    with pytest.raises(RecordErrors) as caught:
        load_records(tmp_path / "records")
    got = {(p.file.rsplit("/", 1)[-1], p.line, p.field) for p in caught.value.problems}
    expected = {(f"{rid}.yaml", line, field) for rid, (payload, lines) in written.items() if payload in REJECTED
                for field, line in lines.items() if not field.endswith((".chart", ".label"))}
    assert got == expected, f"unexpected: {sorted(got - expected)[:5]}; missing: {sorted(expected - got)[:5]}"
    messages = [p.message for p in caught.value.problems]
    assert all("is a Markdown attribute list" in m or m.startswith("a link to") for m in messages), messages
    assert len(PAYLOADS) - len(REJECTED) >= 30, "raw HTML and verbatim output must be accepted, not rejected"


@pytest.mark.parametrize("url,ok", [
    ("https://example.org/", True), ("HTTP://x", True), ("../references/a/", True), ("#cause-x", True),
    ("javascript:alert(1)", False), (" JavaScript:alert(1)", False), ("java\tscript:alert(1)", False),
    ("\x01javascript:alert(1)", False), ("java&#115;cript:alert(1)", False), ("java&amp;#115;cript:x", False),
    ("data:text/html,x", False), ("vbscript:x", False), ("file:///etc/passwd", False), ("mailto:a@b", False),
])
def test_safe_url_reads_a_scheme_as_a_browser_does(url, ok):
    assert safe_url(url) is ok


@pytest.fixture(scope="module")
def payload_pages(payload_site):
    site, written = payload_site
    return site, written, {rid: parse(site / "references" / rid / "index.html") for rid in written}


def test_no_payload_adds_an_element_or_an_attribute_to_its_page(payload_pages):
    site, written, pages = payload_pages
    allowed = pages["payload-00"].signatures | INLINE
    injected = {rid: sorted(page.signatures - allowed) for rid, page in pages.items() if page.signatures - allowed}
    assert not injected, injected


def test_site_wide_pages_listing_payloads_add_nothing_either(payload_pages, built_site):
    site, written, pages = payload_pages
    benign = pages["payload-00"].signatures | INLINE
    for rel in ("browse/index.html", "changes/index.html", "categories/operations/index.html", "budget/index.html",
                "categories/index.html", "codes/index.html", "feed.xml"):
        if rel.endswith(".xml"):
            continue
        page, real = parse(site / rel), parse(built_site / rel)
        extra = page.signatures - real.signatures - benign
        assert not extra, f"{rel}: {sorted(extra)}"


def test_no_handler_refresh_base_or_unsafe_link_anywhere(payload_site):
    site, _ = payload_site
    bad = []
    for path in sorted(site.rglob("*.html")):
        page = parse(path)
        bad += [f"{path.relative_to(site)}: {tag} {name}" for tag, name in page.handlers]
        bad += [f"{path.relative_to(site)}: {tag} {name}={value!r}" for tag, name, value in page.urls
                if not safe_url(value)]
        bad += [f"{path.relative_to(site)}: meta {m}" for m in page.metas if (m.get("http-equiv") or "").lower() == "refresh"]
        bad += [f"{path.relative_to(site)}: base" for sig in page.signatures if sig[0] == "base"]
    assert not bad, "\n".join(bad[:20])


def test_titles_and_descriptions_show_each_payload_as_written(payload_pages):
    site, written, pages = payload_pages
    wrong = []
    for rid, (payload, _) in written.items():
        page = pages[rid]
        description = next(m["content"] for m in page.metas if m.get("name") == "description")
        summary = shown(payload) if len(payload) >= 20 else shown(payload + " (padded to the minimum length)")
        if page.title != shown(payload) + SITE_NAME:
            wrong.append(f"{rid} <title> {page.title!r}")
        if description != summary:
            wrong.append(f"{rid} description {description!r}")
    assert not wrong, "\n".join(wrong)


def test_verbatim_output_shows_literally_on_the_page_in_the_title_and_the_description(payload_pages):
    site, written, pages = payload_pages
    rid = next(r for r, (p, _) in written.items() if p == LITERAL)
    page = pages[rid]
    text = (site / "references" / rid / "index.html").read_text(encoding="utf-8")
    for needle in ("<defunct>", "name=<unknown>", "mount.<type>", "(<Response [500]>)", "<class 'int'>",
                   "10.216.210.236<54862>"):
        assert needle in page.title and needle in page.h1, needle
        assert needle in next(m["content"] for m in page.metas if m.get("name") == "description")
    assert "&lt;defunct&gt;" in text and "<defunct>" not in text, "escaped in the HTML, literal once parsed"


def test_output_and_command_fields_show_as_code_exactly(payload_pages):
    site, written, pages = payload_pages
    wrong = []
    for rid, (payload, _) in written.items():
        codes = pages[rid].codes
        one_line = shown(payload) if len(shown(payload)) >= 2 else shown(payload + " (padded to the minimum length)")
        if one_line not in codes:  # printed_by: inline code
            wrong.append(f"{rid}: no <code>{one_line!r}</code>")
        if not any(c.rstrip("\n") == f"ERR-PAYLOAD-{rid[-2:]} {payload}".rstrip() for c in codes):  # example: a block
            wrong.append(f"{rid}: example not shown as written")
        if not any(c.rstrip("\n") == payload.rstrip() for c in codes):  # command
            wrong.append(f"{rid}: command not shown as written")
    assert not wrong, "\n".join(wrong)


def test_the_alias_redirect_page_escapes_its_title(payload_site):
    site, written = payload_site
    rid = f"payload-{ALIASED:02d}"
    page = parse(site / "references" / f"{rid}-old" / "index.html")
    assert page.title == f"Moved: {shown(written[rid][0])}"
    assert ("meta", ("content", "http-equiv")) in page.signatures  # the CSP, and no other
    assert [m for m in page.metas if m.get("http-equiv")] == [
        {"http-equiv": "Content-Security-Policy", "content": "default-src 'self'; script-src 'self'"}]
    assert page.urls[0] == ("link", "href", f"../{rid}/")


def test_urls_with_markup_after_a_parenthesis_stay_one_link(payload_pages):
    site, written, pages = payload_pages
    for rid, page in pages.items():
        external = [v for tag, name, v in page.urls if tag == "a" and urlsplit(v).netloc == "example.org"]
        ours = [v for v in external if "/p" in v]
        expected = url_payload(int(rid[-2:]), written[rid][0]).replace("`", "%60").replace("\\", "%5C")
        assert ours and all(v == expected for v in ours), (rid, ours)


def test_benign_record_is_the_baseline(payload_pages):
    _, written, pages = payload_pages
    assert written["payload-00"][0] == BENIGN and pages["payload-00"].title == BENIGN + SITE_NAME
