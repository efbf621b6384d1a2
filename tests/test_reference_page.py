"""The reference page's content and order (issue 19 item 10), read from the page Markdown the
generator writes for every real record: the order an engineer reads it in, the dispute notice, the
beyond-the-catalog mark, the checked date of each source (from the audit, never the record) and
cause headings that do not repeat as the text under them. The browser half (what the first
screens show, where #evidence falls) is tests/browser/test_reference_page.py."""
import json
import re

import pytest
import yaml

from relref import paths
from relref.pages import views
from relref.pages.catalog_api import reference_entry
from relref.pages.write import environment
from relref.records.headings import HEADING_MAX, HEADING_SLACK, cause_heading
from relref.records.load import load_audit
from relref.records.load import load_records, load_schema

RECORDS = load_records()
BY_ID = {r.id: r for r in RECORDS}
TITLES = {c["id"]: c["title"] for c in views.categories(load_schema())}
ORDER = ["signatures", "causes", "evidence", "mitigations", "look-alikes", "discrepancies", "cite", "sources"]


def _render(record):
    view = views.reference_view(record, BY_ID, TITLES, None, checked=views.audit_dates(load_audit(record.id)))
    return view, environment().get_template("reference.md.j2").render(r=view)


PAGES = {r.id: _render(r) for r in RECORDS}


def _anchor(page, name):
    at = [m.start() for m in re.finditer(rf'\{{#{re.escape(name)}[ }}]|id="{re.escape(name)}"', page)]
    return at[0] if at else None


@pytest.mark.parametrize("ref_id", sorted(PAGES))
def test_sections_come_in_the_order_an_engineer_reads_them(ref_id):
    view, page = PAGES[ref_id]
    at = [(name, _anchor(page, name)) for name in ORDER]
    present = [(name, pos) for name, pos in at if pos is not None]
    assert [n for n, _ in sorted(present, key=lambda x: x[1])] == [n for n, _ in present]
    first_screen = page.index("{#signatures}")
    assert page.index('class="rr-lede"') < first_screen and page.index('class="rr-causes"') < first_screen


def test_a_discrepancy_disputing_the_title_or_summary_puts_a_notice_at_the_top():
    disputed = {r.id for r in RECORDS if any(d.get("disputes") for d in r.data.get("discrepancies", []))}
    assert disputed, "the catalog marks some discrepancies as disputing the title or summary"
    for ref_id, (view, page) in PAGES.items():
        notice = page.find('class="rr-disputed"')
        if ref_id in disputed:
            assert 0 <= notice < page.index('class="rr-lede"'), ref_id
            assert "(#discrepancies)" in page[notice:page.index("</p>", notice)]
        else:
            assert notice == -1, ref_id


def test_a_reference_beyond_the_catalog_says_so_by_its_title_and_in_the_api():
    beyond = {r.id for r in RECORDS if r.data.get("beyond_catalog")}
    assert beyond
    for ref_id, (view, page) in PAGES.items():
        mark = page.find("Beyond the catalog")
        assert (0 <= mark < page.index('class="rr-lede"')) == (ref_id in beyond), ref_id
        entry = reference_entry(BY_ID[ref_id], paths.DEFAULT_SITE_URL)
        assert entry["beyond_catalog"] is (ref_id in beyond)
    api = json.loads((paths.ROOT / "schema" / "api-v1.schema.json").read_text(encoding="utf-8"))
    reference = api["$defs"]["reference"]
    assert reference["properties"]["beyond_catalog"]["type"] == "boolean"
    assert "beyond_catalog" not in reference["required"], "added to v1 without breaking older files"


def test_each_source_the_audit_opened_shows_the_date_it_was_checked():
    shown = 0
    for ref_id, (view, page) in PAGES.items():
        audit = yaml.safe_load((paths.AUDIT / f"{ref_id}.yaml").read_text(encoding="utf-8")) \
            if (paths.AUDIT / f"{ref_id}.yaml").is_file() else {"sources": []}
        status = {s["url"]: s for s in audit["sources"]}
        for source in view["sources"]:
            line = next(ln for ln in page.splitlines() if f'id="source-{source["no"]}"' in ln)
            audited = status.get(source["url"], {})
            if audited.get("status") == "opened":
                assert f"checked {audited['checked']}" in line, (ref_id, source["url"])
                shown += 1
            else:
                assert "checked " not in line, (ref_id, source["url"])
    assert shown > 100


def test_records_hold_no_checked_dates_the_page_takes_them_from_the_audit():
    for record in RECORDS:
        for source in record.data["sources"]:
            assert "checked" not in source, record.id


@pytest.mark.parametrize("ref_id", sorted(PAGES))
def test_a_cause_heading_is_not_repeated_word_for_word_as_its_first_sentence(ref_id):
    view, _ = PAGES[ref_id]
    for cause in view["causes"]:
        heading = cause["heading"].rstrip("….").lower()
        assert not " ".join(cause["body"].split()).lower().startswith(heading), (ref_id, cause["id"])


def test_likelihood_shows_only_where_a_source_gives_it_and_the_page_says_so_otherwise():
    for ref_id, (view, page) in PAGES.items():
        for cause in view["causes"]:
            assert not cause.get("likelihood") or cause["likelihood_cite"], (ref_id, cause["id"])
        if not view["causes_ranked"]:
            assert "no source gives how common each cause is" in page, ref_id
            assert "rr-likelihood-" not in page, ref_id


def test_an_answer_names_each_cause_by_the_heading_its_page_shows():
    """The match index's cause titles are the page's headings: never a description cut mid-word."""
    from relref.match.index import build_index
    index = {r["id"]: r for r in build_index(RECORDS)["references"]}
    for ref_id, (view, _) in PAGES.items():
        for cause in view["causes"]:
            title = index[ref_id]["cause_titles"][cause["id"]]
            assert title == cause["heading"], (ref_id, cause["id"])
            assert len(title) <= HEADING_MAX + HEADING_SLACK, title
            assert title.endswith("…") or title[-1:].isalnum() or title[-1] in ")\"'`", title
            assert not title.endswith((",…", ";…", ":…")), title


def test_a_sentence_a_little_over_the_limit_is_the_heading_whole():
    """Cut at HEADING_MAX, a 111-character sentence left "…flaps." to open the text below it."""
    sentence = "An InfiniBand or RoCE port on one node (or the switch port, cable or transceiver behind it) goes down or flaps."
    heading, body = cause_heading({"description": sentence + " RDMA traffic stops."})
    assert heading == sentence[:-1] and body == "RDMA traffic stops."
    longer = "word " * 40 + "end."
    heading, body = cause_heading({"description": longer})
    assert heading.endswith("…") and len(heading) <= HEADING_MAX and body.startswith("…")


def _signature_block(page, sig_id):
    start = page.index(f'id="signature-{sig_id}"')
    return page[start:page.index("</details>", start)]


def test_a_signature_says_which_causes_its_line_points_at_its_exception_and_its_mark():
    """What the match engine reads from a signature is on its page: the causes its line names (linked,
    most likely first), the `unless` pattern and the test-output mark."""
    shown = 0
    for record in RECORDS:
        page = PAGES[record.id][1]
        causes = {c["id"] for c in record.data["causes"]}
        for sig in record.data["signatures"]:
            block = _signature_block(page, sig["id"])
            named = sig.get("causes") or []
            if named:
                said = block.split("Points at:", 1)[1].split("\n\n", 1)[0]
                links = re.findall(r"\]\(#cause-([a-z0-9-]+)\)", said)
                assert links == named and set(links) <= causes, (record.id, sig["id"])
                # One sentence, ended once: a single heading cut with an ellipsis takes no full stop.
                end = said.rstrip()
                assert end.endswith(".") != bool(re.search(r"…\]\(#cause-[a-z0-9-]+\)$", end)), (record.id, sig["id"], end[-40:])
                assert not re.search(r"…\]\(#cause-[a-z0-9-]+\)\.$", end), (record.id, sig["id"])
                shown += 1
            else:
                assert "Points at:" not in block, (record.id, sig["id"])
            assert ("Not when the line also matches" in block) == bool(sig.get("unless")), (record.id, sig["id"])
            if sig.get("unless"):
                assert sig["unless"] in block
            assert ("Test-tool output" in block) == (sig.get("marks") == "test-output"), (record.id, sig["id"])
    assert shown >= 100
