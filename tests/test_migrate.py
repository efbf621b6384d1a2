"""`relref migrate` rewrites a version-1 record into one that validates as version 2."""
import shutil

from relref.cli import main
from relref.records.load import load_records

V1 = """\
schema_version: 1
causes:
  - id: a
    description: >-
      Something.
    likelihood: unknown
    checks: [x]
  - id: b
    description: Other.
    likelihood: common
    checks: [x]
    source: https://example.org/docs
mitigations:
  - text: Upgrade the library.
    fixed_in: "pytorch 2.4"
  - text: >-
      Apply the patch.
    fixed_in: 'PR #1'
"""


def test_migrate_rewrites_v1_and_the_result_validates(fixture_records, tmp_path, capsys):
    path = fixture_records / "fixture-error.yaml"
    text = path.read_text().replace("schema_version: 2", "schema_version: 1")
    text = text.replace("    likelihood_source: https://example.org/docs\n", "")
    text = text.replace("    fixed_in:\n      software: pytorch\n      version: \"2.4.0\"\n      fix_url: https://example.org/docs",
                        "    fixed_in: 'PR #1'")
    path.write_text(text)
    assert main(["migrate", "--records", str(fixture_records)]) == 0
    out = capsys.readouterr().out
    assert "dropped 'likelihood: common': the cause has no source" in out and "moved into the text" in out
    records = {r.id: r for r in load_records(fixture_records)}
    assert "likelihood" not in records["fixture-error"].data["causes"][0]
    assert "(Fix: PR #1.)" in records["fixture-error"].data["mitigations"][0]["text"]


def test_migrate_parses_a_release_and_keeps_comments(tmp_path):
    from relref.records.migrate import migrate_file
    path = tmp_path / "r.yaml"
    path.write_text("# a comment\n" + V1)
    notes = migrate_file(path)
    text = path.read_text()
    assert text.startswith("# a comment\nschema_version: 2\n")
    assert "likelihood: unknown" not in text
    assert "    likelihood: common\n    likelihood_source: https://example.org/docs\n" in text
    assert "    fixed_in:\n      software: pytorch\n      version: \"2.4\"\n" in text
    assert "      Apply the patch.\n      (Fix: PR #1.)\n" in text
    assert len(notes) == 3
    assert migrate_file(path) == []  # already version 2
