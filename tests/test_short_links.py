"""Short links for runbooks: each reference page carries its canonical URL for links.js, a
one-line citation, and loads links.js from the site (no inline script)."""
from relref import paths
from relref.paths import site_url
from relref.records.load import load_records


def test_each_reference_page_has_its_canonical_url_and_a_citation(built_site):
    for record in load_records(paths.RECORDS):
        text = (built_site / "references" / record.id / "index.html").read_text()
        url = f"{site_url().rstrip('/')}/references/{record.id}/"
        assert f'<link rel="canonical" href="{url}">' in text
        assert f'data-rr-canonical="{url}"' in text
        assert f"{url} (last reviewed {record.data['last_reviewed']})</span>" in text
        assert "assets/javascripts/links.js" in text
