"""The folders are the architecture: the match engine is a library apart with one public API,
and each browser file of the engine is the twin of one Python module."""
import re
import subprocess
import sys

from relref import paths

MATCH_PY = paths.ROOT / "generator" / "match"
MATCH_JS = paths.ROOT / "docs" / "assets" / "javascripts" / "match"
TWINS = ["engine", "scan", "tokenize", "timestamps", "hints", "readings"]


def test_matching_imports_no_other_stage(tmp_path):
    """Matching from an index file loads nothing from records/, pages/ or site/."""
    index = tmp_path / "index.json"
    code = (
        "import json, sys\n"
        "from relref.match.index import build_index\n"
        "from relref.records.load import load_records\n"
        f"open({str(index)!r}, 'w').write(json.dumps(build_index(load_records())))\n")
    subprocess.run([sys.executable, "-c", code], check=True)
    probe = (
        "import sys\n"
        "from relref.match import load_engine\n"
        f"r = load_engine({str(index)!r}).match('NVRM: Xid (PCI:0000:3b:00): 79, pid=1, name=python, GPU has fallen off the bus.')\n"
        "print(r['matches'][0]['id'])\n"
        "print(sorted(m for m in sys.modules if m.startswith(('relref.records', 'relref.pages', 'relref.site'))))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split("\n")
    assert out[0] == "gpu-lost-collective-timeout"
    assert out[1] == "[]"


def test_public_api_is_two_names():
    import relref.match as api
    assert api.__all__ == ["Engine", "load_engine"]


def test_every_engine_step_has_its_twin_named_on_both_sides():
    for name in TWINS:
        py, js = MATCH_PY / f"{name}.py", MATCH_JS / f"{name}.js"
        assert js.is_file(), f"{js} is missing"
        assert f"docs/assets/javascripts/match/{name}.js" in py.read_text(encoding="utf-8"), py
        assert js.read_text(encoding="utf-8").startswith(f"// Twin of generator/match/{name}.py"), js


def test_matching_page_example_runs():
    page = (paths.ROOT / "docs" / "matching.md").read_text(encoding="utf-8")
    example = re.search(r"## From Python.*?```python\n(.*?)```", page, re.S).group(1)
    out = subprocess.run([sys.executable, "-c", example], capture_output=True, text=True, check=True, cwd=paths.ROOT)
    assert "gpu-lost-collective-timeout" in out.stdout
