"""The catalog as data: the API files parse, validate against their published schema (which
includes the record schema) and list every reference; the Atom feed has one entry per dated
change; the changelog page lists them."""
import json
import xml.etree.ElementTree as ET

import jsonschema
import pytest
from referencing import Registry, Resource

from relref import paths
from relref.paths import site_url
from relref.records.load import load_records
from engines import on_both_engines

built_site = on_both_engines()  # each test here that reads the built site reads mkdocs' and Zensical's

ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture(scope="module")
def records():
    return load_records(paths.RECORDS)


@pytest.fixture(scope="module")
def validator(built_site):
    """The published schemas, read from the built site, with the $ref between them resolved locally."""
    schemas = {name: json.loads((built_site / "schema" / name).read_text())
               for name in ("api-v1.schema.json", "reference.schema.json")}
    registry = Registry().with_resources((name, Resource.from_contents(s)) for name, s in schemas.items())
    return jsonschema.Draft202012Validator(schemas["api-v1.schema.json"], registry=registry,
                                           format_checker=jsonschema.FormatChecker())


def _errors(validator, value):
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"[:300] for e in validator.iter_errors(value)]


def test_the_catalog_validates_and_lists_every_reference(built_site, validator, records):
    catalog = json.loads((built_site / "api" / "v1" / "references.json").read_text())
    assert _errors(validator, catalog) == []
    assert catalog["api_version"] == 1 and catalog["count"] == len(records)
    assert [e["id"] for e in catalog["references"]] == [r.id for r in records]
    for entry, record in zip(catalog["references"], records):
        assert entry["url"] == f"{site_url().rstrip('/')}/references/{record.id}/"
        assert entry["record"] == record.data


def test_each_reference_has_its_own_valid_file(built_site, validator, records):
    for record in records:
        entry = json.loads((built_site / "api" / "v1" / "references" / f"{record.id}.json").read_text())
        assert _errors(validator, entry) == [], record.id
        assert entry["id"] == record.id and entry["json_url"].endswith(f"/api/v1/references/{record.id}.json")


def test_the_schema_rejects_what_is_not_the_format(validator, built_site, records):
    entry = json.loads((built_site / "api" / "v1" / "references" / f"{records[0].id}.json").read_text())
    entry["record"]["kind"] = "rumour"
    causes = [c for e in validator.iter_errors(entry) for c in e.context]  # oneOf: why each branch failed
    assert any(list(c.absolute_path) == ["record", "kind"] for c in causes), "the record schema must apply via $ref"


def test_the_match_index_is_not_part_of_the_api(built_site):
    assert not list((built_site / "api").rglob("*match*"))


@pytest.fixture(scope="module")
def feed(built_site):
    return ET.parse(built_site / "feed.xml").getroot()


def test_the_feed_is_atom_with_one_entry_per_dated_change(feed, records):
    assert feed.tag == f"{ATOM}feed"
    for tag in ("id", "title", "updated"):
        assert (feed.findtext(f"{ATOM}{tag}") or "").strip(), f"feed has no {tag}"
    assert feed.find(f"{ATOM}link[@rel='self']").get("href") == f"{site_url().rstrip('/')}/feed.xml"
    entries = feed.findall(f"{ATOM}entry")
    assert len(entries) == sum(len(r.data["changes"]) for r in records)
    ids = [e.findtext(f"{ATOM}id") for e in entries]
    assert len(set(ids)) == len(ids), "entry ids must be unique"
    latest = max(c["date"] for r in records for c in r.data["changes"])
    assert feed.findtext(f"{ATOM}updated") == f"{latest}T00:00:00Z"


def test_every_feed_entry_has_the_atom_essentials(feed):
    for entry in feed.findall(f"{ATOM}entry"):
        for tag in ("id", "title", "updated", "summary"):
            assert (entry.findtext(f"{ATOM}{tag}") or "").strip(), f"an entry has no {tag}"
        assert entry.findtext(f"{ATOM}updated").endswith("T00:00:00Z")
        href = entry.find(f"{ATOM}link").get("href")
        assert href.startswith(site_url().rstrip("/") + "/references/") and href.endswith("/#changes")


def test_the_changelog_page_lists_every_change(built_site, records):
    text = (built_site / "changes" / "index.html").read_text()
    for record in records:
        assert f'href="../references/{record.id}/#changes"' in text
    assert 'href="../feed.xml"' in text


def test_every_page_points_feed_readers_at_the_feed(built_site):
    text = (built_site / "index.html").read_text()
    assert 'rel="alternate" type="application/atom+xml"' in text
