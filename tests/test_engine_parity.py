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
