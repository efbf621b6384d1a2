"""`relref new` writes a record that fails lint until filled in, and validates once it is."""
import re

import pytest

from relref.cli import main
from relref.records.problems import RecordErrors
from relref.records.load import load_records

FILLED = {
    "summary: TODO": "summary: A new failure, described in the project's own words for the test.",
    "\nkind: TODO": "\nkind: error", "\ncategory: TODO": "\ncategory: memory",
    "TODO-signature-id": "oom-line", "TODO-cause-id": "too-big", "TODO-check-id": "journal",
    '"TODO the line exactly as the software prints it"': '"Out of memory: Killed process 42 (python3)"',
    '"TODO a regular expression matching its variants"': '"Out of memory: Killed process [0-9]{1,10} \\\\("',
    "printed_by: TODO software and version": "printed_by: Linux kernel",
    "seen_at: TODO https://where-you-saw-it": "seen_at: https://example.org/a",
    "role: TODO": "role: cause", "description: TODO what goes wrong": "description: The job needed more memory.",
    "title: TODO what the check is": "title: Read the kernel journal",
    "command: TODO a concrete command": "command: journalctl -k | grep -i oom",
    "how_to_read: TODO what the output confirms or rules out": "how_to_read: A kill line at the crash time confirms it.",
    "source: TODO https://where-this-is-documented": "source: https://example.org/a",
    "text: TODO what to do": "text: Give the job more memory.",
    "url: TODO https://first-source": "url: https://example.org/a", "url: TODO https://second-source": "url: https://example.org/b",
    "    kind: TODO  # paper": "    kind: docs  # paper", "supports: TODO which claims on the page it backs": "supports: the kill line",
}


def test_new_scaffolds_a_record_that_validates_once_filled(tmp_path, capsys):
    records = tmp_path / "records"
    assert main(["new", "A Brand New Failure: Thing", "--records", str(records)]) == 0
    path = records / "a-brand-new-failure-thing.yaml"
    assert path.is_file()
    with pytest.raises(RecordErrors):
        load_records(records)
    text = path.read_text()
    for old, new in FILLED.items():
        text = text.replace(old, new)
    text = re.sub(r"title: TODO\n", "title: A source\n", text)
    text = text.replace("    kind: TODO\n", "    kind: issue\n").replace("supports: TODO\n", "supports: the checks\n")
    assert "TODO" not in text.split("summary:")[1], text
    path.write_text(text)
    [record] = load_records(records)
    assert record.data["title"] == "A Brand New Failure: Thing"


@pytest.mark.parametrize("title", ["Title \\", "C:\\new\\table", 'A "quoted" title: with # and \'', "Tab\there and ünïcode"])
def test_new_writes_the_title_so_it_reads_back_as_typed(tmp_path, title):
    import yaml
    records = tmp_path / "records"
    assert main(["new", title, "--records", str(records)]) == 0
    [path] = records.glob("*.yaml")
    assert yaml.safe_load(path.read_text())["title"] == title
