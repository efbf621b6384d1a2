"""The browser engine (docs/assets/javascripts/match/engine.js, run here under node) and the Python
engine give the same terms, rankings and confidences. The browser test repeats this in Chromium."""
import json
import shutil
import subprocess

import pytest

from relref import paths
from relref.match.evaluation import GPUALERT, devset_cases, gpualert_cases
from relref.match.index import build_index
from relref.match.engine import Engine
from relref.records.load import load_records
from relref.match.tokenize import tokenize
from engine_summary import summary

NODE = shutil.which("node")
RUNNER = paths.ROOT / "tests" / "js" / "run_engine.js"
VECTORS = json.loads((paths.ROOT / "tests" / "data" / "tokenizer-vectors.json").read_text(encoding="utf-8"))
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed (apt-get install nodejs)")


@pytest.fixture(scope="module")
def index():
    return build_index(load_records(paths.RECORDS))


def run_js(payload: dict):
    out = subprocess.run([NODE, str(RUNNER)], input=json.dumps(payload), capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_python_tokenizer_matches_the_shared_vectors():
    for vector in VECTORS:
        assert tokenize(vector["text"]) == vector["tokens"], vector["text"]


@needs_node
def test_javascript_tokenizer_matches_the_shared_vectors(index):
    got = run_js({"index": index, "cases": [], "tokenize": [v["text"] for v in VECTORS]})
    assert got == [v["tokens"] for v in VECTORS]


@needs_node
def test_both_engines_answer_every_case_alike(index):
    cases = devset_cases() + (gpualert_cases() if GPUALERT.is_dir() else [])
    js = run_js({"index": index, "cases": [{"id": c.id, "text": c.text, "context": c.context} for c in cases]})
    engine = Engine(index, "")
    differ = []
    for case, theirs in zip(cases, js):
        mine = summary(engine.match(case.text, context=case.context))
        if mine != theirs:
            keys = [k for k in mine if mine[k] != theirs[k]]
            differ.append(f"{case.id}: {keys[0]}: python {mine[keys[0]]} javascript {theirs[keys[0]]}")
    assert not differ, "\n".join(differ[:20])


ENGINE_VECTORS = json.loads((paths.ROOT / "tests" / "data" / "engine-vectors.json").read_text(encoding="utf-8"))


def test_the_text_rules_give_what_they_promise(index):
    """Spaces and line ends are normalised before matching, lines are numbered by LF ends,
    digits are ASCII, and a literal past the 4,096-character cap is still found."""
    engine = Engine(index, "")
    for vector in ENGINE_VECTORS:
        result = engine.match(vector["text"], context=vector.get("context", ""))
        expect = vector.get("expect", {})
        if "top" in expect:
            assert result["matches"] and result["matches"][0]["id"] == expect["top"], vector["id"]
        if "scale" in expect:
            assert result["hints"]["scale"] == expect["scale"], vector["id"]
        if "xid_line" in expect:
            lines = [w["lines"][0] for m in result["matches"] for w in m["why"]
                     if w["kind"] == "signature" and "xid" in w["signature"]]
            assert lines and lines[0] == expect["xid_line"], vector["id"]
        if "lines" in expect:
            assert any(w["kind"] == "signature" for m in result["matches"] for w in m["why"]), vector["id"]


@needs_node
def test_both_engines_read_the_text_rules_alike(index):
    js = run_js({"index": index, "cases": [{"id": v["id"], "text": v["text"], "context": v.get("context", "")}
                                           for v in ENGINE_VECTORS]})
    engine = Engine(index, "")
    for vector, theirs in zip(ENGINE_VECTORS, js):
        assert summary(engine.match(vector["text"], context=vector.get("context", ""))) == theirs, vector["id"]


@pytest.mark.parametrize("extra,lead", [(0, ""), (1, ""), (-1, ""), (0, "\U0001F525 ")])
def test_a_line_of_about_one_chunk_without_a_line_end(index, extra, lead):
    """One line of the chunk size, give or take a character, with no line end and thousands of
    literals: both engines answer it alike, in linear time (Python's chunker once read a byte past
    the end at exactly the chunk size; the browser's windows counted code points once per literal),
    with characters outside the BMP too (code points and UTF-16 units differ)."""
    from relref.match.scan import CHUNK
    line = lead + "NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus. "
    text = (line * (CHUNK // len(line) + 1))[:CHUNK + extra]
    mine = summary(Engine(index, "").match(text))
    assert mine["top"] and mine["lines"][0], "the Xid 79 line is found"
    if NODE is not None:
        assert run_js({"index": index, "cases": [{"id": "one-chunk", "text": text, "context": ""}]}) == [mine]


COUNT_TESTS = """
const { Engine } = require(process.argv[1]);
const index = JSON.parse(require("fs").readFileSync(0, "utf8"));
const e = new Engine(index, "");
let tests = 0;
const real = e.informative.test.bind(e.informative);
e.informative.test = function (line) { tests++; return real(line); };
e.match("\\n".repeat(200000) + "NCCL error: unhandled system error\\n" + "\\r".repeat(200000) + "\\n".repeat(1000), "", 5);
console.log(JSON.stringify({ tests: tests }));
"""


@needs_node
def test_the_browser_scan_passes_over_lines_too_short_for_an_error_word(index):
    """Reading each of a chunk's 400,000 empty lines and soft line ends took seconds; only lines
    long enough to hold the shortest error word are tested (once from the start, once from the end)."""
    engine_js = str(paths.ROOT / "docs" / "assets" / "javascripts" / "match" / "engine.js")
    out = subprocess.run([NODE, "-e", COUNT_TESTS, engine_js], input=json.dumps(index), capture_output=True,
                         text=True, check=True)
    assert json.loads(out.stdout)["tests"] <= 4
