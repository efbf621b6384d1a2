"""The published catalog: one record per catalog title, verbatim, each sourced and checkable."""

import pytest

from relref import paths
from relref.match.evaluation import CATALOG_IDS
from relref.records.load import load_records

SHARED_CATALOG = paths.ROOT.parent / "shared" / "catalog.txt"
TWINS = [("job-preemption-spot-termination", "spot-instance-preemption"),
         ("silent-data-corruption", "sdc-gpu-hardware-loss-spikes"),
         ("zombie-gpu-process", "zombie-process"),
         ("training-stuck-no-progress", "silent-hang")]


@pytest.fixture(scope="module")
def records():
    return {r.id: r for r in load_records(paths.RECORDS)}


def catalog_titles() -> list[str]:
    return [line.split("\t", 1)[1] for line in CATALOG_IDS.read_text(encoding="utf-8").splitlines() if line]


def test_the_committed_title_list_is_the_shared_catalog():
    if not SHARED_CATALOG.is_file():
        pytest.skip(f"{SHARED_CATALOG} is not here")
    shared = [l[2:].strip() for l in SHARED_CATALOG.read_text(encoding="utf-8").splitlines() if l.startswith("• ")]
    assert shared == catalog_titles()


def test_every_catalog_title_has_exactly_one_record_with_the_title_verbatim(records):
    titles = catalog_titles()
    assert len(titles) == 42
    by_title = {}
    for record in records.values():
        if not record.data.get("beyond_catalog"):
            by_title.setdefault(record.data["title"], []).append(record.id)
    assert {t: by_title.get(t, []) for t in titles if len(by_title.get(t, [])) != 1} == {}
    assert set(by_title) == set(titles), "a record outside the catalog says so (beyond_catalog: true)"


def test_references_beyond_the_catalog_do_not_take_a_catalog_title(records):
    titles = set(catalog_titles())
    for record in records.values():
        if record.data.get("beyond_catalog"):
            assert record.data["title"] not in titles, record.id


def test_every_reference_is_sourced_and_checkable(records):
    for record in records.values():
        data = record.data
        assert len(data["sources"]) >= 2, record.id
        assert data["causes"] and data["evidence"], record.id
        checks = {e["id"] for e in data["evidence"]}
        assert all(c["checks"] and set(c["checks"]) <= checks for c in data["causes"]), record.id
        assert all(a.get("ref", record.id) in records for a in data.get("look_alikes", [])), record.id


def test_references_that_print_nothing_list_only_symptoms_and_say_so(records, built_site):
    quiet = [r for r in records.values() if r.data["kind"] != "error"]
    assert len(quiet) >= 15
    for record in quiet:
        assert all(s["role"] == "symptom" for s in record.data["signatures"]), record.id
        page = (built_site / "references" / record.id / "index.html").read_text()
        assert "This reference prints no message of its own" in page
        assert "cannot point at this reference with confidence" in page


@pytest.mark.parametrize("a,b", TWINS)
def test_near_duplicates_link_each_other_as_twins(records, a, b):
    for one, other in ((a, b), (b, a)):
        links = [x for x in records[one].data["look_alikes"] if x.get("ref") == other]
        assert links and links[0].get("twin") is True, f"{one} must link {other} as its twin"


def test_no_commercial_product_is_named(records, built_site):
    for record in records.values():
        assert "denpex" not in record.path.read_text(encoding="utf-8").lower(), record.id
    for page in (built_site / "references").rglob("index.html"):
        assert "denpex" not in page.read_text(encoding="utf-8").lower()


def test_every_page_carries_the_catalog_warning(records, built_site):
    for record in records.values():
        page = (built_site / "references" / record.id / "index.html").read_text()
        assert "A matching message alone does not confirm the cause" in page, record.id


def test_discrepancies_with_the_catalog_are_visible(records, built_site):
    noted = [r for r in records.values() if r.data.get("discrepancies")]
    assert len(noted) >= 25
    for record in noted:
        page = (built_site / "references" / record.id / "index.html").read_text()
        assert 'id="discrepancies"' in page, record.id


def test_every_number_in_figures_is_cited(records):
    for record in records.values():
        listed = {s["url"] for s in record.data["sources"]}
        for figure in record.data.get("figures", []):
            assert figure["source"] in listed, f"{record.id}/{figure['id']}"
