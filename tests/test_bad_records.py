"""Every kind of bad record is reported as FILE:LINE: FIELD, and no site is written."""
import pytest

from relref.cli import main
from relref.site.sitedir import MARKER
from relref.records.load import load_records
from relref.records.problems import RecordErrors

ERROR = "fixture-error.yaml"
SYMPTOM = "fixture-symptom.yaml"
SUMMARY = "summary: A test record that exercises every section of a reference page, with invented content."


def line_of(text: str, needle: str) -> int:
    return text.splitlines().index(next(l for l in text.splitlines() if needle in l)) + 1


# (name, file, old text, new text, field reported, line marker in the new text, words in the message)
CASES = [
    ("yaml-syntax", ERROR, "kind: error", "kind: [error", "(yaml)", "category: communication", "YAML syntax"),
    ("missing-field", ERROR, "summary: A test record that exercises every section of a reference page, with invented content.\n", "",
     "summary", "schema_version: 2", "missing required field"),
    ("unknown-field", ERROR, "kind: error", "kind: error\nseverity: high", "severity", "severity: high", "unknown field"),
    ("wrong-type", ERROR, 'title: "Fixture: a collective times out"', "title: 42", "title", "title: 42", "not of type 'string'"),
    ("bad-enum", ERROR, "category: communication", "category: networking", "category", "category: networking", "not one of"),
    ("duplicate-key", ERROR, "kind: error", "kind: error\nkind: symptom", "kind", "kind: symptom", "duplicate key"),
    ("comment-cuts-value", ERROR, "category: communication", "category: communication #cut", "category",
     "category: communication #cut", "YAML reads the rest of the line as a comment"),
    ("version-number", ERROR, 'versions: "0.10"', "versions: 0.10", "applies_to.versions[0].versions", "versions: 0.10",
     "quote versions"),
    ("date-not-date", ERROR, "last_reviewed: 2026-11-29", "last_reviewed: last tuesday", "last_reviewed",
     "last_reviewed: last tuesday", "not a date"),
    ("impossible-date", ERROR, "last_reviewed: 2026-11-29", "last_reviewed: 2026-13-45", "last_reviewed",
     "last_reviewed: 2026-13-45", "cannot read value"),
    ("source-not-url", ERROR, "  - url: https://example.org/docs", "  - url: ftp://example.org/docs", "sources[1].url",
     "url: ftp://example.org/docs", "not an http(s) URL"),
    ("pattern-no-compile", ERROR, r"pattern: 'Watchdog caught collective operation timeout: WorkNCCL\(SeqNum=[0-9]{1,12}'",
     r"pattern: 'Watchdog caught collective (operation timeout'", "signatures[0].pattern", "pattern: 'Watchdog", "unclosed '('"),
    ("pattern-dialect", ERROR, r"pattern: 'Watchdog caught collective operation timeout: WorkNCCL\(SeqNum=[0-9]{1,12}'",
     r"pattern: '(?P<w>Watchdog) caught'", "signatures[0].pattern", "pattern: '(?P", "not in the dialect"),
    ("pattern-unbounded", ERROR, r"pattern: 'Watchdog caught collective operation timeout: WorkNCCL\(SeqNum=[0-9]{1,12}'",
     r"pattern: 'Watchdog.*timeout'", "signatures[0].pattern", "pattern: 'Watchdog.*", "unbounded gap"),
    ("pattern-look-around", ERROR, r"pattern: 'Watchdog caught collective operation timeout: WorkNCCL\(SeqNum=[0-9]{1,12}'",
     r"pattern: 'Watchdog (?!caught) timeout'", "signatures[0].pattern", r"pattern: 'Watchdog (?!", "give the signature an `unless` pattern"),
    ("pattern-misses-example", ERROR, r"pattern: 'Watchdog caught collective operation timeout: WorkNCCL\(SeqNum=[0-9]{1,12}'",
     r"pattern: 'Watchdog caught nothing'", "signatures[0].pattern", "pattern: 'Watchdog caught nothing'", "does not match its own example"),
    ("unknown-reference", ERROR, "  - ref: fixture-symptom", "  - ref: no-such-reference", "look_alikes[0].ref",
     "ref: no-such-reference", "no reference with id"),
    ("unknown-check", ERROR, "checks: [dmesg-xid]", "checks: [dmesg-xyz]", "causes[0].checks[0]", "checks: [dmesg-xyz]",
     "no evidence check"),
    ("uncited-source", ERROR, "    source: https://example.org/docs\n    command:", "    source: https://example.org/elsewhere\n    command:",
     "mitigations[0].source", "source: https://example.org/elsewhere", "not listed in sources"),
    ("duplicate-alias", "fixture-symptom.yaml", "id: fixture-symptom", "id: fixture-symptom\naliases: [fixture-old-name]",
     "aliases[0]", "aliases: [fixture-old-name]", "already used"),
    ("id-not-file-name", ERROR, "id: fixture-error", "id: fixture-other", "id", "id: fixture-other", "does not match the file name"),
    ("symptom-signature-as-cause", "fixture-symptom.yaml", "    role: symptom", "    role: cause", "signatures[0].role",
     "role: cause", "prints nothing of its own"),
    ("signature-unknown-cause", ERROR, "    role: symptom\n    overlaps", "    role: symptom\n    causes: [lost-gpu, no-such-cause]\n    overlaps",
     "signatures[0].causes[1]", "causes: [lost-gpu, no-such-cause]", "no cause with id 'no-such-cause'"),
    ("unless-matches-example", ERROR, "    role: symptom\n    overlaps", "    role: symptom\n    unless: 'OpType=ALLREDUCE'\n    overlaps",
     "signatures[0].unless", "unless: 'OpType=ALLREDUCE'", "matches the signature's own example"),
    ("unless-lint", ERROR, "    role: symptom\n    overlaps", "    role: symptom\n    unless: 'Op.*RED'\n    overlaps",
     "signatures[0].unless", "unless: 'Op.*RED'", "unbounded gap"),
    # Records that validated but broke the site (issue 16, item 5).
    ("figure-inf", SYMPTOM, "value: 1147", "value: .inf", "figures[0].value", "value: .inf", "not a finite number"),
    ("figure-minus-inf", SYMPTOM, "value: 1147", "value: -.Inf", "figures[0].value", "value: -.Inf", "not a finite number"),
    ("figure-nan", SYMPTOM, "value: 1.8", "value: .nan", "figures[1].value", "value: .nan", "not a finite number"),
    ("scale-inf", SYMPTOM, "scale: {quantity: GPUs, value: 8}", "scale: {quantity: GPUs, value: .inf}",
     "figures[0].scale.value", "value: .inf}", "not a finite number"),
    ("id-index", ERROR, "id: fixture-error", "id: index", "id", "id: index", "reserved"),
    ("alias-index", ERROR, "aliases: [fixture-old-name]", "aliases: [index]", "aliases[0]", "aliases: [index]", "reserved"),
    ("self-look-alike", ERROR, "  - ref: fixture-symptom", "  - ref: fixture-error", "look_alikes[0].ref",
     "ref: fixture-error", "names this reference itself"),
    ("self-successor", ERROR, "kind: error", "kind: error\nstatus: retired\nsuccessor: fixture-error", "successor",
     "successor: fixture-error", "names this reference itself"),
    ("twin-unknown-cause", ERROR, "    checks: [dmesg-xid]\n", "    checks: [dmesg-xid]\n    same_as: {ref: fixture-symptom, cause: no-such-cause}\n",
     "causes[0].same_as.cause", "same_as: {ref: fixture-symptom", "has no cause 'no-such-cause'"),
    ("twin-not-named-back", ERROR, "    checks: [dmesg-xid]\n", "    checks: [dmesg-xid]\n    same_as: {ref: fixture-symptom, cause: more-parts}\n",
     "causes[0].same_as.cause", "same_as: {ref: fixture-symptom", "does not name this cause back"),
    ("twin-unknown-reference", ERROR, "    checks: [dmesg-xid]\n", "    checks: [dmesg-xid]\n    same_as: {ref: no-such-reference, cause: x}\n",
     "causes[0].same_as.ref", "same_as: {ref: no-such-reference", "no reference with id"),
    ("self-overlap", ERROR, "overlaps: [fixture-symptom]", "overlaps: [fixture-error]", "signatures[0].overlaps[0]",
     "overlaps: [fixture-error]", "names this reference itself"),
    ("future-review", ERROR, "last_reviewed: 2026-11-29", "last_reviewed: 2999-01-01", "last_reviewed",
     "last_reviewed: 2999-01-01", "in the future"),
    ("huge-summary", ERROR, SUMMARY, "summary: " + "word " * 2000, "summary", "summary: word", "at most"),
    ("huge-example", ERROR, "    example: '[Rank 3]", "    example: '" + "x" * 9000 + " [Rank 3]", "signatures[0].example",
     "    example: 'xxx", "at most"),
    ("too-many-mitigations", SYMPTOM, "  - text: Checkpoint more often on larger jobs.\n",
     "  - text: Checkpoint more often on larger jobs.\n" * 60, "mitigations", "mitigations:", "items: at most"),
    # YAML that crashed the loader (issue 16, item 6).
    ("list-as-key", ERROR, "kind: error", "kind: error\n? [a, b]\n: c", "(record)", "? [a, b]", "a key must be a name"),
    ("mapping-as-key", ERROR, "kind: error", "kind: error\n? {a: b}\n: c", "(record)", "? {a: b}", "a key must be a name"),
    ("merge-key", ERROR, "  - id: lost-gpu\n", "  - <<: {likelihood: common}\n    id: lost-gpu\n", "causes[0].<<",
     "<<: {likelihood", "merge key"),
    ("tag-on-key", ERROR, "kind: error", "kind: error\n!foo extra: 1", "extra", "!foo extra", "records use no tags"),
    ("tag-on-value", ERROR, "kind: error", "kind: error\nextra: !!binary aGVsbG8=", "extra", "extra: !!binary",
     "records use no tags"),
    ("python-tag", ERROR, "kind: error", "kind: !!python/object/apply:os.system [echo hi]", "kind", "kind: !!python",
     "records use no tags"),
    ("on-yes", ERROR, "kind: error", "kind: error\non: yes", "on", "on: yes", "YAML reads the key 'on' as true or false"),
    ("int-key", ERROR, "kind: error", "kind: error\n1: one", "1", "1: one", "YAML reads the key '1' as a number"),
    ("null-key", ERROR, "kind: error", "kind: error\n~: nothing", "~", "~: nothing", "as null"),
    ("nul-byte", ERROR, "category: communication", "category: communi\x00cation", "(yaml)", "category: communi",
     "U+0000 is not allowed"),
    ("escape-char", ERROR, "category: communication", "category: communi\x1bcation", "(yaml)", "category: communi",
     "U+001B is not allowed"),
    ("alias", ERROR, 'title: "Fixture: a collective times out"', 'title: &t "Fixture: a collective times out"\nextra: *t',
     "extra", "extra: *t", "records use no anchors or aliases"),
    ("alias-in-list", ERROR, "checks: [dmesg-xid]", "checks: [&c dmesg-xid, *c]", "causes[0].checks[1]",
     "checks: [&c dmesg-xid", "alias *c"),
    ("recursive-alias", ERROR, "kind: error", "kind: error\nextra: &x [*x]", "extra[0]", "extra: &x [*x]", "alias *x"),
    ("alias-as-key", ERROR, "kind: error", "kind: &k error\n*k : 1", "(record)", "*k : 1", "alias *k"),
    ("deep-nesting", ERROR, "kind: error", "kind: error\nextra: " + "[" * 20000 + "]" * 20000, "(yaml)", "extra: [[[",
     "nest"),
]


@pytest.mark.parametrize("name,file,old,new,field,marker,words", CASES, ids=[c[0] for c in CASES])
def test_bad_record_is_reported_at_its_line_and_no_site_is_written(fixture_records, tmp_path, capsys,
                                                                     name, file, old, new, field, marker, words):
    path = fixture_records / file
    original = path.read_text()
    assert old in original, "the test's edit must apply"
    path.write_text(original.replace(old, new, 1))
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("previous build")
    (site / MARKER).write_text("an earlier build")

    assert main(["build", "--records", str(fixture_records), "--site-dir", str(site)]) == 1

    err = capsys.readouterr().err
    expected = f"{path.name}:{line_of(path.read_text(), marker)}: {field}: "
    reported = [l for l in err.splitlines() if expected in l]
    assert reported, f"expected a line containing {expected!r}, got:\n{err}"
    assert any(words in line for line in reported), reported
    assert "Traceback" not in err
    assert (site / "index.html").read_text() == "previous build", "an earlier site must be left as it was"
    assert sorted(p.name for p in site.iterdir()) == [MARKER, "index.html"]
    assert not list(tmp_path.glob(".relref-build-*")), "no half-built site may be left behind"


def test_every_problem_is_reported_at_once(fixture_records):
    path = fixture_records / ERROR
    text = path.read_text().replace("category: communication", "category: nope").replace(
        "checks: [dmesg-xid]", "checks: [nope]")
    path.write_text(text)
    (fixture_records / "fixture-symptom.yaml").write_text(
        (fixture_records / "fixture-symptom.yaml").read_text().replace("kind: field-report", "kind: rumour"))
    with pytest.raises(RecordErrors) as caught:
        load_records(fixture_records)
    fields = {(p.file.rsplit("/", 1)[-1], p.field) for p in caught.value.problems}
    assert {(ERROR, "category"), ("fixture-symptom.yaml", "kind")} <= fields


def test_valid_fixtures_load(fixture_records):
    assert [r.id for r in load_records(fixture_records)] == ["fixture-error", "fixture-symptom"]
