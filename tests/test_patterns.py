"""Signature patterns and the engine's own regexes are RE2 in both engines: each compiles in
google-re2 and in re2js, both give the same verdict on the signature's example and on 64 KB of input
pumped from the example's own parts, patterns match their own examples and not unrelated references'
examples, and inputs that made backtracking engines hang finish at once. No engine module applies
Python's `re` or JavaScript's `RegExp` to pasted text."""
import ast
import json
import shutil
import subprocess
import time

import pytest

from relref import paths
from relref.match import index as match_index
from relref.match.dialect import PatternError, compile_rule, compile_signature, required_literal
from relref.records.load import load_records
from relref.records.pattern_lint import check

NODE = shutil.which("node")
PUMPED = 64 * 1024
ENGINE_PY = ["engine", "scan", "text", "tokenize", "timestamps", "hints", "cli", "load"]
ENGINE_JS = ["dialect", "engine", "scan", "text", "tokenize", "timestamps", "hints", "worker"]
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed (apt-get install nodejs)")


@pytest.fixture(scope="module")
def records():
    return load_records(paths.RECORDS)


def all_signatures(records):
    return [(r, s) for r in records for s in r.data["signatures"]]


def pumped_inputs(example: str) -> list[str]:
    """About 64 KB each, built from the example's own parts: each run of one kind of character
    (digits, letters, spaces, punctuation) repeated in place, the first half repeated, and the
    whole example repeated on one line."""
    def kind(ch):
        return "d" if ch.isdigit() else "a" if ch.isalpha() else "s" if ch.isspace() else ch
    runs, i = [], 0
    while i < len(example):
        j = i
        while j < len(example) and kind(example[j]) == kind(example[i]):
            j += 1
        runs.append((i, j))
        i = j
    longest = sorted(runs, key=lambda r: r[0] - r[1])[:3]
    out = []
    for start, end in longest:
        part = example[start:end]
        out.append(example[:start] + part * (PUMPED // len(part)) + example[end:])
    half = example[: max(1, len(example) // 2)]
    out.append(half * (PUMPED // len(half)))
    out.append((example + " ") * (PUMPED // (len(example) + 1)))
    return out


def test_every_pattern_matches_its_example_and_not_unrelated_examples(records):
    sigs = all_signatures(records)
    overlaps = []
    for rec, sig in sigs:
        rx = compile_signature(sig["pattern"], sig.get("ignore_case", False), sig.get("unless"))
        assert rx.search(sig["example"]), f"{rec.id}/{sig['id']} misses its own example"
        for other, other_sig in sigs:
            if other.id == rec.id or not rx.search(other_sig["example"]):
                continue
            declared = other.id in sig.get("overlaps", []) or rec.id in other_sig.get("overlaps", [])
            if not declared:
                overlaps.append(f"{rec.id}/{sig['id']} matches {other.id}/{other_sig['id']} undeclared")
    assert not overlaps, "\n".join(overlaps)


def _engine_rules():
    rules = match_index._rules()
    found = [(f"timestamps/{kind}", p, False) for kind, p in rules["timestamps"]["forms"]]
    h = rules["hints"]
    found += [(f"hints/{k}", p, False) for t in ("frameworks", "hardware", "environments") for k, p in h[t]]
    found += [(f"hints/{k}", h[k], False) for k in ("scale", "version", "window", "negated")]
    found += [(f"cues/{c['id']}", c["pattern"], False) for c in h["cues"]]
    found.append(("scan/informative", rules["scan"]["informative"], True))
    r = rules["readings"]
    found += [(f"readings/form-{i}", p, False) for i, (p, _) in enumerate(r["forms"])]
    found += [("readings/barrier", r["barrier"], False), ("readings/work", r["work"], False)]
    found += [(f"readings/steps-{s['id']}", s["pattern"], False) for s in r["steps"]]
    return found


@needs_node
def test_every_pattern_and_engine_rule_reads_alike_in_google_re2_and_re2js(records, tmp_path):
    cases = []
    for rec, sig in all_signatures(records):
        lines = [sig["example"]] + pumped_inputs(sig["example"])
        cases.append({"id": f"{rec.id}/{sig['id']}", "pattern": sig["pattern"], "unless": sig.get("unless"),
                      "ignore_case": bool(sig.get("ignore_case")), "lines": lines})
    for name, pattern, ignore_case in _engine_rules():
        cases.append({"id": name, "pattern": pattern, "unless": None, "ignore_case": ignore_case,
                      "lines": ["x" * PUMPED, " " * PUMPED, "0" * PUMPED, "[ 1234.567890] 2026-11-29T22:20:41 12 GPUs"]})
    data = tmp_path / "cases.json"
    data.write_text(json.dumps(cases))
    script = tmp_path / "check.js"
    script.write_text(f"""
const M = require({json.dumps(str(paths.ROOT / 'docs/assets/javascripts/match/dialect.js'))});
const cases = JSON.parse(require('fs').readFileSync(process.argv[2], 'utf8'));
const out = {{}};
for (const c of cases) {{
  const sig = new M.Signature(c.pattern, c.ignore_case, c.unless);
  out[c.id] = c.lines.map((l) => sig.test(l));
}}
console.log(JSON.stringify(out));
""")
    started = time.perf_counter()
    got = json.loads(subprocess.run([NODE, str(script), str(data)], capture_output=True, text=True, check=True).stdout)
    differ = []
    for case in cases:
        sig = compile_signature(case["pattern"], case["ignore_case"], case["unless"])
        mine = [sig.search(line) for line in case["lines"]]
        if mine != got[case["id"]]:
            differ.append(f"{case['id']}: google-re2 {mine} re2js {got[case['id']]}")
    assert not differ, "\n".join(differ)
    assert time.perf_counter() - started < 120, "a generous guard: linear-time matching of 64 KB inputs"


def test_inputs_that_hang_backtracking_engines_finish_at_once():
    """The issue's cases: a 51-byte line against (?:a|a)*b ran past 120 s before; 8 MB of digits
    against a shipped pattern and 100,000 spaces against the context's window rule were quadratic."""
    cases = [(r"(?:a|a)*b", "a" * 50 + "c"), (r"(?:a|aa)+$", "a" * 5000 + "!"), (r"[^!]*x[^!]*y[^!]*z$", "xy" * 20000),
             (r"\s*,?\s*,?\s*", " " * 100000), (r"[ a-z]{0,400}[ a-z]{0,400}[ a-z]{0,400}!", "a" * 100000),
             (r"(?:.)*", "x" * 100000), (r"\d+ pytorch allocator cache flushes since last step", "1" * (8 << 20))]
    started = time.perf_counter()
    for pattern, line in cases:
        compile_rule(pattern).search(line)
    from relref.match.hints import Rules
    Rules().window_seconds("window" + " " * 100000 + "x")
    assert time.perf_counter() - started < 10, "a generous guard: each of these took minutes with backtracking"


@pytest.mark.parametrize("pattern", [r"(?P<n>x)", r"(?i)x", r"(a)\1", r"x{", r".*x", r"[[:alpha:]]", r"a++", r"x\Z",
                                     r"(?<name>x)", r"a{2,}{3}", r"(?=x)y", r"(?!x)y", r"(?<=x)y", r"(?<!x)y", "caf\u00e9"])
def test_lint_rejects_patterns_outside_the_dialect(pattern):
    with pytest.raises(PatternError):
        check(pattern)


@pytest.mark.parametrize("pattern", [r"(?:a|a)*b", r"(?:a|aa)+$", r"\s*,?\s*,?\s*", r"(a+)+b", r"\w+\w+"])
def test_lint_accepts_what_re2_matches_in_linear_time(pattern):
    check(pattern)


@pytest.mark.parametrize("pattern,literal", [(r"NVRM: Xid \(PCI:[0-9a-f:]{4,20}\): 79", "NVRM: Xid (PCI:"),
                                             (r"a|b", ""), (r"[0-9]{2} CUDA error: out of memory", " CUDA error: out of memory")])
def test_required_literal_is_what_every_match_contains(pattern, literal):
    assert required_literal(pattern) == literal


def test_no_engine_module_applies_python_re_to_pasted_text():
    """Only the dialect imports `re`, and only its pattern parser uses it (on pattern text)."""
    for name in ENGINE_PY:
        tree = ast.parse((paths.ROOT / "generator" / "match" / f"{name}.py").read_text(encoding="utf-8"))
        imported = {a.name for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
                    for a in node.names} | {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert "re" not in imported, f"generator/match/{name}.py imports re"
    tree = ast.parse((paths.ROOT / "generator" / "match" / "dialect.py").read_text(encoding="utf-8"))
    users = {fn.name for fn in ast.walk(tree) if isinstance(fn, ast.FunctionDef)
             for node in ast.walk(fn) if isinstance(node, ast.Attribute) and getattr(node.value, "id", "") == "re"}
    assert users <= {"_escape", "_parse_quantifier"}, users


def test_no_engine_file_applies_a_javascript_regexp_to_pasted_text():
    import re
    literal_use = re.compile(r"\.(?:replace|split|match|matchAll|search)\(\s*/|/[gimsuy]*\.(?:test|exec)\(")
    for name in ENGINE_JS:
        source = (paths.ROOT / "docs" / "assets" / "javascripts" / "match" / f"{name}.js").read_text(encoding="utf-8")
        assert "RegExp(" not in source, f"{name}.js uses RegExp"
        assert not literal_use.search(source), f"{name}.js applies a regex literal"
