"""What sits in the records folder is not always a record: folders, links, FIFOs, devices, alias
bombs. `relref lint` names each as FILE:LINE: FIELD, reads nothing it should not, and ends."""
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from relref.records.files import MAX_BYTES

RELREF = str(Path(sys.executable).with_name("relref"))
MEMORY = 1 << 30  # the lint runs in well under this; an unbounded read or an alias expansion does not

# 342 bytes that expand to 9**9 strings when aliases are followed.
ALIAS_BOMB = "\n".join(['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'] + [
    f"{n}: &{n} [*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p},*{p}]" for p, n in zip("abcdefgh", "bcdefghi")]) + "\n"


def _limited():
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def lint(records: Path, timeout: float = 60):
    started = time.monotonic()
    done = subprocess.run([RELREF, "lint", "--records", str(records)], capture_output=True, text=True,
                          timeout=timeout, preexec_fn=_limited, cwd=records.parent)
    return done, time.monotonic() - started


def test_every_odd_entry_is_named_and_the_lint_ends(fixture_records):
    r = fixture_records
    (r / "folder.yaml").mkdir()
    (r / "loop-a.yaml").symlink_to("loop-b.yaml")
    (r / "loop-b.yaml").symlink_to("loop-a.yaml")
    (r / "self.yaml").symlink_to("self.yaml")
    (r / "dangling.yaml").symlink_to("no-such-file.yaml")
    (r / "to-folder.yaml").symlink_to(r.parent)
    os.mkfifo(r / "fifo.yaml")
    (r / "zero.yaml").symlink_to("/dev/zero")
    (r / "huge.yaml").write_text("summary: " + "x" * MAX_BYTES + "\n")
    (r / "bomb.yaml").write_text(ALIAS_BOMB)
    assert len(ALIAS_BOMB) < 400

    done, seconds = lint(r)

    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr and "Error:" not in done.stderr, done.stderr
    expected = {
        "folder.yaml:1: (file): not a regular file but a folder",
        "loop-a.yaml:1: (file): a symlink loop",
        "loop-b.yaml:1: (file): a symlink loop",
        "self.yaml:1: (file): a symlink loop",
        "dangling.yaml:1: (file): a symlink to 'no-such-file.yaml', which does not exist",
        "to-folder.yaml:1: (file): not a regular file but a folder",
        "fifo.yaml:1: (file): not a regular file but a FIFO",
        "zero.yaml:1: (file): not a regular file but a device",
        f"huge.yaml:1: (file): {MAX_BYTES + 10} bytes: a record file holds at most {MAX_BYTES}",
        "bomb.yaml:2: b[0]: YAML alias *a: records use no anchors or aliases",
    }
    lines = done.stderr.splitlines()
    missing = [e for e in expected if not any(line.startswith(f"records/{e}") for line in lines)]
    assert not missing, f"not reported: {missing}\n{done.stderr}"
    assert seconds < 30


def test_records_folder_that_is_a_file_is_named(tmp_path):
    (tmp_path / "records").write_text("not a folder")
    done, _ = lint(tmp_path / "records")
    assert done.returncode == 1
    assert done.stderr.startswith(f"{tmp_path / 'records'}:0: (records): not a folder of records"), done.stderr


def test_a_symlink_to_a_record_is_read(fixture_records, tmp_path):
    """Links are followed to regular files: a records folder may link records kept elsewhere."""
    elsewhere = tmp_path / "kept" / "fixture-symptom.yaml"
    elsewhere.parent.mkdir()
    (fixture_records / "fixture-symptom.yaml").rename(elsewhere)
    (fixture_records / "fixture-symptom.yaml").symlink_to(elsewhere)
    done, _ = lint(fixture_records)
    assert done.returncode == 0, done.stderr


def test_successors_that_name_each_other_are_a_cycle(fixture_records, capsys):
    from relref.cli import main
    for name, other in (("fixture-error", "fixture-symptom"), ("fixture-symptom", "fixture-error")):
        path = fixture_records / f"{name}.yaml"
        path.write_text(path.read_text().replace(f"id: {name}\n", f"id: {name}\nstatus: retired\nsuccessor: {other}\n"))
    assert main(["lint", "--records", str(fixture_records)]) == 1
    err = capsys.readouterr().err
    assert "fixture-error.yaml:5: successor: successors form a cycle: fixture-error -> fixture-symptom -> fixture-error" in err
    assert "fixture-symptom.yaml:5: successor: successors form a cycle: fixture-symptom -> fixture-error -> fixture-symptom" in err


def test_an_audit_that_is_not_yaml_is_named_file_line_not_a_traceback(tmp_path, monkeypatch):
    """The build reads each record's audit for its checked dates; an unquoted colon in a note once
    passed `relref lint` and ended `relref build` in a PyYAML traceback."""
    import pytest
    from relref.records.load import load_audit
    from relref.records.problems import RecordErrors
    (tmp_path / "x.yaml").write_text("id: x\npoints:\n  - about: a\n    note: a line with \"Link 3: <inactive>\" in it\n",
                                     encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RecordErrors) as caught:
        load_audit("x", tmp_path)
    assert str(caught.value) == "x.yaml:4: (yaml): YAML syntax: mapping values are not allowed in this context"
    assert load_audit("missing", tmp_path) is None


def test_every_unreadable_audit_is_reported_at_once_before_anything_is_written(tmp_path, monkeypatch):
    """The records stage reads all audits (lint and build alike) and names each bad one."""
    import pytest
    from relref.records.load import Record, load_audits
    from relref.records.problems import RecordErrors
    for name in ("a", "b"):
        (tmp_path / f"{name}.yaml").write_text("id: x\nnote: colon: here\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    records = [Record(tmp_path / f"{n}.yaml", {"id": n}, {}) for n in ("a", "b", "c")]
    with pytest.raises(RecordErrors) as caught:
        load_audits(records, tmp_path)
    assert [p.file for p in caught.value.problems] == ["a.yaml", "b.yaml"]
    (tmp_path / "a.yaml").write_text("id: a\n", encoding="utf-8")
    (tmp_path / "b.yaml").unlink()
    assert load_audits(records, tmp_path) == {"a": {"id": "a"}, "b": None, "c": None}
