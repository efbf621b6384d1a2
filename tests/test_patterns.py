"""Signature patterns: they mean the same in Python and JavaScript, match their own examples and
not unrelated references' examples, and stay fast on hostile input in both engines."""
import json
import shutil
import subprocess
import time

import pytest

from relref import paths
from relref.match.dialect import PatternError, compile_signature, required_literal
from relref.records.pattern_lint import check
from relref.records.load import load_records
from relref.match.scan import MAX_LINE

NODE = shutil.which("node")


@pytest.fixture(scope="module")
def records():
    return load_records(paths.RECORDS)


def all_signatures(records):
    return [(r, s) for r in records for s in r.data["signatures"]]


def adversarial_lines(pattern: str) -> list[str]:
    """Lines built to make a backtracking engine work hard: long runs of the characters the
    pattern's pieces accept, its own literal repeated, and near-misses."""
    literal = required_literal(pattern) or "a"
    return [c * MAX_LINE for c in "a 0:.(/_-\t"] + [
        (literal + " ") * (MAX_LINE // (len(literal) + 1)),
        (literal[:-1] + "x") * (MAX_LINE // max(1, len(literal))),
        ("0" * 50 + " " + "a" * 50 + ":") * (MAX_LINE // 102),
    ]


def test_every_pattern_matches_its_example_and_not_unrelated_examples(records):
    sigs = all_signatures(records)
    overlaps = []
    for rec, sig in sigs:
        rx = compile_signature(sig["pattern"], sig.get("ignore_case", False))
        assert rx.search(sig["example"]), f"{rec.id}/{sig['id']} misses its own example"
        for other, other_sig in sigs:
            if other.id == rec.id or not rx.search(other_sig["example"]):
                continue
            declared = other.id in sig.get("overlaps", []) or rec.id in other_sig.get("overlaps", [])
            if not declared:
                overlaps.append(f"{rec.id}/{sig['id']} matches {other.id}/{other_sig['id']} undeclared")
    assert not overlaps, "\n".join(overlaps)


def test_every_pattern_stays_fast_on_adversarial_lines_in_python(records):
    slow = []
    for rec, sig in all_signatures(records):
        rx = compile_signature(sig["pattern"], sig.get("ignore_case", False))
        for line in adversarial_lines(sig["pattern"]):
            started = time.perf_counter()
            rx.search(line[:MAX_LINE])
            if time.perf_counter() - started > 0.05:
                slow.append(f"{rec.id}/{sig['id']}")
    assert not slow, slow


@pytest.mark.skipif(NODE is None, reason="node is not installed (apt-get install nodejs)")
def test_patterns_read_alike_and_stay_fast_in_javascript(records, tmp_path):
    cases = [{"id": f"{r.id}/{s['id']}", "pattern": s["pattern"], "flags": "i" if s.get("ignore_case") else "",
              "lines": [s["example"]] + adversarial_lines(s["pattern"])} for r, s in all_signatures(records)]
    script = tmp_path / "check.js"
    script.write_text("""
const cases = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8'));
const out = {};
for (const c of cases) {
  const rx = new RegExp(c.pattern, c.flags);
  let slowest = 0;
  const found = c.lines.map((l) => { const t = process.hrtime.bigint(); const m = rx.exec(l);
    slowest = Math.max(slowest, Number(process.hrtime.bigint() - t) / 1e6); return m ? [m.index, m[0]] : null; });
  out[c.id] = {found, slowest};
}
console.log(JSON.stringify(out));
""")
    data = tmp_path / "cases.json"
    data.write_text(json.dumps(cases))
    result = json.loads(subprocess.run([NODE, str(script), str(data)], capture_output=True, text=True, check=True).stdout)
    for case in cases:
        rx = compile_signature(case["pattern"], bool(case["flags"]))
        expected = [[m.start(), m.group(0)] if (m := rx.search(l)) else None for l in case["lines"]]
        assert result[case["id"]]["found"] == expected, f"{case['id']} differs between Python and JavaScript"
        assert result[case["id"]]["slowest"] < 50, f"{case['id']} is slow in JavaScript"


@pytest.mark.parametrize("pattern", [r"(?P<n>x)", r"(?i)x", r"\Ax", r"(a)\1", r"x{", r"(a+)+b", r".*x", r"\w+\w+",
                                     r"[[:alpha:]]", r"a++", r"x\Z", r"(?<name>x)", r"a{2,}{3}"])
def test_lint_rejects_patterns_outside_the_safe_shared_subset(pattern):
    with pytest.raises(PatternError):
        check(pattern)


@pytest.mark.parametrize("pattern,literal", [(r"NVRM: Xid \(PCI:[0-9a-f:]{4,20}\): 79", "NVRM: Xid (PCI:"),
                                             (r"a|b", ""), (r"[0-9]{2} CUDA error: out of memory", " CUDA error: out of memory")])
def test_required_literal_is_what_every_match_contains(pattern, literal):
    assert required_literal(pattern) == literal
