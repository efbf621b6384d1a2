"""Short links for runbooks: each reference page carries its canonical path for links.js, a one-line
citation, and loads links.js from the site (no inline script). Built without SITE_URL (as the test
site is), a page names no host: its canonical link is relative and its citation shows the path,
which links.js resolves against the root the page is served from (the rule in relref.paths)."""
from relref import paths
from relref.records.load import load_records


def test_each_reference_page_has_its_canonical_path_and_a_citation(built_site):
    assert paths.public_site_url() is None, "the test site is built without SITE_URL"
    for record in load_records(paths.RECORDS):
        text = (built_site / "references" / record.id / "index.html").read_text()
        path = f"references/{record.id}/"
        assert '<link rel="canonical" href="./">' in text
        assert 'name="relref:site-url"' not in text
        assert f'data-rr-path="{path}"' in text
        assert f'{path}</span> (last reviewed {record.data["last_reviewed"]})</span>' in text
        assert paths.DEFAULT_SITE_URL not in text.split("<article", 1)[1], f"{record.id}: names the local address"
        assert "assets/javascripts/links.js" in text
