"""The record format's `lede` (issue 19 item 10): what a failure is, in at most two sentences and
300 characters, for the first screen of its page. Optional in format version 2, so records written
before it stay valid; every record in references/ has one, written from its own summary."""
import re

import jsonschema

from relref import paths
from relref.records.load import load_records, load_schema

from conftest import FIXTURES

NUMBER = re.compile(r"\d+(?:[.,]\d+)*")


def test_every_record_has_a_lede_of_at_most_two_sentences_and_300_characters():
    schema = load_schema()["properties"]["lede"]
    assert schema["maxLength"] == 300
    for record in load_records(paths.RECORDS):
        lede = record.data.get("lede")
        assert lede, f"{record.id}: no lede"
        assert len(lede) <= 300 and "\n" not in lede, record.id
        assert re.match(schema["pattern"], lede), f"{record.id}: more than two sentences"


def test_a_lede_makes_no_claim_its_summary_does_not():
    """A weak but mechanical check: every figure in a lede is one its summary or title gives."""
    for record in load_records(paths.RECORDS):
        said = set(NUMBER.findall(record.data["summary"] + " " + record.data["title"]))
        new = [n for n in NUMBER.findall(record.data["lede"]) if n not in said]
        assert not new, f"{record.id}: the lede gives {new}, which its summary does not"


def test_the_sentence_rule_counts_sentences_not_dots():
    pattern = load_schema()["properties"]["lede"]["pattern"]
    assert re.match(pattern, "DeepSpeed 0.15.3 fixes it. The error names the file (\"x.pt\").")
    assert re.match(pattern, "One sentence, with Xid 79 and a version like 2.6.")
    assert not re.match(pattern, "One. Two. Three.")


def test_records_without_a_lede_or_a_dispute_mark_stay_valid():
    fixtures = load_records(FIXTURES)
    assert fixtures and all("lede" not in r.data for r in fixtures)
    schema = load_schema()
    discrepancy = {"$ref": "#/$defs/discrepancy", "$defs": schema["$defs"]}
    jsonschema.validate({"text": "The catalog says so; the source does not."}, discrepancy)
    jsonschema.validate({"text": "The catalog says so; the source does not.", "disputes": "title"}, discrepancy)
    try:
        jsonschema.validate({"text": "The catalog says so; the source does not.", "disputes": "nothing"}, discrepancy)
        raise AssertionError("a dispute mark other than title or summary must be refused")
    except jsonschema.ValidationError:
        pass
    assert schema["properties"]["schema_version"]["const"] == 2


def test_disputes_are_marked_on_the_discrepancies_that_dispute_the_title_or_summary():
    marked = {r.id: [d["disputes"] for d in r.data.get("discrepancies", []) if d.get("disputes")]
              for r in load_records(paths.RECORDS)}
    assert "title" in marked["bf16-exponent-bit-flip-divergence"]  # "The title says one rank's update diverges..."
    assert "title" in marked["gb200-nvl72-xid-150-154-firmware-hang"]  # no source for the core claim
    assert "summary" in marked["zombie-gpu-process"]
    assert marked["oom-killed-mid-step"] == []  # its discrepancies qualify the summary, they do not dispute it
