"""The build cache: the same inputs give the same outputs, and any changed input is seen."""
import json

from relref import cache
from relref.match.index import build_index
from relref.records.problems import RecordErrors
from relref.records.load import load_records

import pytest


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("RELREF_CACHE_DIR", str(tmp_path / "cache"))


def test_a_cached_build_equals_an_uncached_one(fixture_records, monkeypatch):
    first = build_index(load_records(fixture_records))
    cached = build_index(load_records(fixture_records))
    monkeypatch.setenv("RELREF_CACHE", "off")
    fresh = build_index(load_records(fixture_records))
    assert json.dumps(first, sort_keys=True) == json.dumps(cached, sort_keys=True) == json.dumps(fresh, sort_keys=True)
    assert list((cache.folder() / "records").glob("*.json"))


def test_an_edited_record_is_read_again(fixture_records):
    assert load_records(fixture_records)[0].data["summary"].startswith("A test record")
    path = fixture_records / "fixture-error.yaml"
    path.write_text(path.read_text().replace("summary: A test record", "summary: An edited record"))
    assert load_records(fixture_records)[0].data["summary"].startswith("An edited record")


def test_a_bad_record_is_reported_from_the_cache_too(fixture_records):
    path = fixture_records / "fixture-error.yaml"
    path.write_text(path.read_text().replace("category: communication", "category: nope"))
    for _ in range(2):
        with pytest.raises(RecordErrors) as caught:
            load_records(fixture_records)
        assert any(p.field == "category" for p in caught.value.problems)
