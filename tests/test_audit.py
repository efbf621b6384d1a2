"""The audit of every record is data (audit/<id>.yaml): each point checked has a verdict and a
locator, every cited URL is accounted for, and a source's checked date exists only there."""
import json
import re

import jsonschema
import pytest

from relref import paths
from relref.records.load import load_audit, load_records

AUDIT = paths.ROOT / "audit"
SCHEMA = json.loads((paths.ROOT / "schema" / "audit.schema.json").read_text(encoding="utf-8"))
URL_KEYS = ("seen_at", "source", "likelihood_source", "fix_url", "url")


def _urls(value):
    if isinstance(value, dict):
        for key, child in value.items():
            if key in URL_KEYS and isinstance(child, str) and child.startswith("http"):
                yield child
            else:
                yield from _urls(child)
    elif isinstance(value, list):
        for child in value:
            yield from _urls(child)


AUDITED = sorted(AUDIT.glob("*.yaml"))


@pytest.mark.parametrize("file", AUDITED, ids=lambda f: f.stem)
def test_audit_file_is_complete(file):
    audit = load_audit(file.stem)  # as the build reads it
    jsonschema.validate(audit, SCHEMA, format_checker=jsonschema.FormatChecker())
    assert audit["id"] == file.stem
    records = {r.id: r for r in load_records()}
    assert file.stem in records, f"{file.name}: no record {file.stem}"
    cited = set(_urls(records[file.stem].data))
    listed = {s["url"] for s in audit["sources"]}
    assert cited <= listed, f"{file.name}: URLs the record cites that the audit does not account for: {sorted(cited - listed)}"


def test_records_carry_no_checked_dates():
    """Dates of checking live only in audit files: a record cannot claim a source was checked."""
    for file in sorted(paths.RECORDS.glob("*.yaml")):
        assert not re.search(r"^\s*checked:", file.read_text(encoding="utf-8"), re.M), file.name
