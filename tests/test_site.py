"""The built site: every reference has its sections, every link resolves, nothing loads from elsewhere."""
import re
from urllib.parse import urlsplit

import pytest

from relref import paths
from relref.records.load import load_records
from engines import on_both_engines
from sitecheck import external_hosts_in_css, pages, resolve

SECTIONS = ["signatures", "causes", "evidence", "mitigations", "look-alikes", "sources"]


built_site = on_both_engines()  # each test here runs on the site from mkdocs and from Zensical


@pytest.fixture(scope="module")
def site_pages(built_site):
    return dict(pages(built_site))


def test_every_reference_has_its_page_sections_and_anchors(built_site, site_pages):
    for record in load_records(paths.RECORDS):
        page = site_pages[built_site / "references" / record.id / "index.html"]
        missing = [s for s in SECTIONS if s not in page.ids]
        missing += [f"cause-{c['id']}" for c in record.data["causes"] if f"cause-{c['id']}" not in page.ids]
        missing += [f"check-{e['id']}" for e in record.data["evidence"] if f"check-{e['id']}" not in page.ids]
        if record.data.get("figures"):
            missing += [] if "figures" in page.ids else ["figures"]
        assert not missing, f"{record.id}: missing anchors {missing}"


def test_each_full_cause_ends_with_links_to_its_own_checks(built_site):
    """The compact causes list: the text under each cause heading ends with a link to every check
    of that cause, in the cause's own order, inside the same paragraph (no markup left unrendered)."""
    for record in load_records(paths.RECORDS):
        html = (built_site / "references" / record.id / "index.html").read_text(encoding="utf-8")
        assert 'markdown>' not in html.split('id="causes"', 1)[1].split('id="evidence"', 1)[0], record.id
        for cause in record.data["causes"]:
            after = html.split(f'id="cause-{cause["id"]}"', 1)[1]
            paragraph = after.split("</h3>", 1)[1].split("</p>", 1)[0]
            checks = paragraph.split('class="rr-cause-checks"', 1)
            assert len(checks) == 2, f"{record.id}: cause {cause['id']} has no checks in its paragraph"
            linked = re.findall(r'href="#check-([\w-]+)"', checks[1])
            assert linked == cause["checks"], f"{record.id}: cause {cause['id']} links {linked}"


def test_a_cause_told_on_another_page_links_its_twin_there(built_site):
    """A cause with same_as shows, under its heading, a link to the same story's cause on the
    other reference (the records stage checks that the two name each other)."""
    twins = [(r.id, c) for r in load_records(paths.RECORDS) for c in r.data["causes"] if "same_as" in c]
    assert len(twins) >= 6
    for ref_id, cause in twins:
        html = (built_site / "references" / ref_id / "index.html").read_text(encoding="utf-8")
        section = html.split(f'id="cause-{cause["id"]}"', 1)[1].split("<h3", 1)[0]
        other = cause["same_as"]
        assert f'href="../{other["ref"]}/#cause-{other["cause"]}"' in section.split('class="rr-cause-twin"', 1)[1], \
            f"{ref_id}: cause {cause['id']} does not link its twin"


def test_every_internal_link_and_anchor_resolves(built_site, site_pages):
    broken = []
    for path, page in site_pages.items():
        for href in page.links:
            target = resolve(built_site, path, href)
            if target is None:
                continue
            file, fragment = target
            if file not in site_pages and not file.exists():
                broken.append(f"{path.relative_to(built_site)} -> {href} (no such page)")
            elif fragment and file in site_pages and fragment not in site_pages[file].ids:
                broken.append(f"{path.relative_to(built_site)} -> {href} (no such anchor)")
    assert not broken, "\n".join(broken[:30])


def test_nothing_is_loaded_from_another_host(built_site, site_pages):
    loaded = []
    for path, page in site_pages.items():
        for url in page.resources:
            if urlsplit(url).scheme in ("http", "https") or url.startswith("//"):
                loaded.append(f"{path.relative_to(built_site)} loads {url}")
    for css in built_site.rglob("*.css"):
        loaded += [f"{css.relative_to(built_site)} imports {host}" for _, host in external_hosts_in_css(css.read_text())]
    assert not loaded, "\n".join(loaded[:30])


def test_every_page_forbids_other_origins_with_a_content_security_policy(built_site, site_pages):
    for path, page in site_pages.items():
        csp = [m["content"] for m in page.metas if (m.get("http-equiv") or "").lower() == "content-security-policy"]
        assert csp, f"{path.relative_to(built_site)} has no Content-Security-Policy"
        directives = dict(d.strip().split(" ", 1) for d in csp[0].split(";") if d.strip())
        assert directives["default-src"] == "'self'"
        for directive, value in directives.items():
            assert "http" not in value and "*" not in value, f"{directive} allows another origin"


def test_theme_fonts_and_url_sharing_are_off(built_site, site_pages):
    text = (built_site / "index.html").read_text()
    assert "fonts.googleapis" not in text and "fonts.gstatic" not in text
    assert '"search.highlight"' not in text and '"search.share"' not in text


def test_schema_and_record_format_page_are_published(built_site):
    assert (built_site / "schema" / "reference.schema.json").is_file()
    page = (built_site / "record-format" / "index.html").read_text()
    assert "last_reviewed" in page and "signatures" in page and "fixed-lists" in page
