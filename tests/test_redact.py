"""Redaction (issue 19 item 15): the rules in generator/match/redact.py, their copy in the
browser's redact.js, the shared vectors, `relref match --redact` through a real pipe, and the
header partial that carries the repository address for "Wrong match?"."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from relref import paths
from relref.match import redact as R

VECTORS = json.loads((paths.ROOT / "tests" / "data" / "redact-vectors.json").read_text(encoding="utf-8"))
SECRETS = ["gpu-node-017", "10.216.210.236", "alice", "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH", "AKIAIOSFODNN7EXAMPLE",
           "oncall@example.org"]
PASTE = ("gpu-node-017:2312:2312 [0] NCCL WARN NET/IB : Got completion from peer 10.216.210.236<54862> with status=12 "
         "opcode=129 len=0 vendor err 129 (Recv)\n"
         "[  812.334455] NVRM: Xid (PCI:0000:3b:00): 79, pid=2312, name=python, GPU has fallen off the bus. "
         "HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyzABCDEFGH AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE by oncall@example.org "
         "in /home/alice/run\n")


@pytest.mark.parametrize("case", VECTORS["cases"], ids=lambda c: c["name"])
def test_vectors(case):
    text, found = R.redact(case["text"], case["skip"])
    assert text == case["redacted"]
    assert found == case["found"]


@pytest.mark.parametrize("seq", VECTORS["sequences"], ids=lambda s: s["name"])
def test_sequences_number_placeholders_across_lines(seq):
    r = R.Redactor(seq["skip"])
    assert [r.redact(t) for t in seq["texts"]] == seq["redacted"]


def test_every_kind_has_a_vector_and_a_skipped_kind_is_still_claimed():
    kinds = {f["kind"] for c in VECTORS["cases"] for f in c["found"]}
    assert kinds == {k["kind"] for k in R.KINDS}
    assert any(c["skip"] for c in VECTORS["cases"])


def test_the_browser_carries_the_same_rules():
    """redact.js's table is generated from this module; regenerate with
    `python -m relref.match.redact --write-js`."""
    text = R.JS_FILE.read_text(encoding="utf-8")
    assert R.js_rules_block() in text, "redact.js is stale: run python -m relref.match.redact --write-js"


def test_redacting_the_development_set_keeps_every_answer():
    """Redaction replaces what identifies a cluster, never what identifies the failure: the verdict
    stays, and so does the first candidate, or one the original answer scored within STRONG_MARGIN
    of it (candidates that close are ones the answer says it cannot tell apart; a host name's words
    may reorder them). A `none` answer's weak list is words alone and is not compared."""
    from relref.match import load_engine
    from relref.match.engine import STRONG_MARGIN
    from relref.match.evaluation import devset_cases
    engine = load_engine()
    changed, redacted = [], 0
    for case in devset_cases():
        text, found = R.redact(case.text)
        if not found:
            continue
        redacted += 1
        a, b = engine.match(case.text, context=case.context), engine.match(text, context=case.context)
        close = {m["id"] for m in a["matches"] if m["score"] >= a["matches"][0]["score"] - STRONG_MARGIN}
        first = bool(b["matches"]) and b["matches"][0]["id"] not in close
        if a["verdict"] != b["verdict"] or (first and a["verdict"] != "none"):
            changed.append(case.id)
    assert redacted >= 30 and not changed


def run_cli(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "relref.cli", "match", *args], input=stdin,
                          capture_output=True, text=True, cwd=paths.ROOT)


def test_cli_redact_through_a_pipe(tmp_path):
    import argparse
    from relref.match import cli, load_engine
    from relref.match.index import write_index
    from relref.records.load import load_records
    index = tmp_path / "index.json"
    write_index(load_records(paths.RECORDS), index)  # the processes below read it instead of building their own
    result = load_engine(index).match(PASTE)
    plain = cli.render_text(result)
    assert any(s in plain for s in SECRETS), "without --redact the output quotes the pasted lines"
    redacted = run_cli("-", "--redact", "--index", str(index), stdin=PASTE)
    assert redacted.returncode == (0 if result["confident"] else 1)
    for secret in SECRETS:
        assert secret not in redacted.stdout
    assert "<host-1>" in redacted.stdout and "<ip-1>" in redacted.stdout and "<secret-1>" in redacted.stdout
    assert redacted.stdout.splitlines()[0] == plain.splitlines()[0], "the answer sentence is the same"
    as_json = json.loads(run_cli("-", "--json", "--redact", "--index", str(index), stdin=PASTE).stdout)
    assert not any(s in json.dumps(as_json) for s in SECRETS)
    sub = argparse.ArgumentParser().add_subparsers()
    cli.add_parser(sub)
    assert "--redact" in sub.choices["match"].format_help()


def test_redact_result_changes_only_quoted_text():
    from relref.match import load_engine
    result = load_engine().match(PASTE)
    out = R.redact_result(result)
    assert [m["id"] for m in out["matches"]] == [m["id"] for m in result["matches"]]
    assert out["answer"] == result["answer"] and out["next_checks"] == result["next_checks"]
    assert result["matches"][0]["why"] != out["matches"][0]["why"]


def _render_search_partial(extra: dict, repo_url=None) -> str:
    import jinja2
    import material
    theme = Path(material.__file__).parent / "templates"
    env = jinja2.Environment(loader=jinja2.FileSystemLoader([str(paths.ROOT / "site_overrides"), str(theme)]))

    class Lang:
        @staticmethod
        def t(key):
            return key
    config = {"extra": extra, "repo_url": repo_url, "theme": {"icon": {}}}
    return env.get_template("partials/search.html").render(config=config, lang=Lang, features=[])


def test_the_header_partial_carries_the_repository_address_only_when_set():
    assert 'data-repo-url=""' in _render_search_partial({})
    assert 'data-repo-url="https://github.com/example/relref"' in _render_search_partial({"repo_url": "https://github.com/example/relref"})
    assert 'data-repo-url="https://git.example.org/a/b"' in _render_search_partial({}, repo_url="https://git.example.org/a/b")
    assert "&#34;&gt;" in _render_search_partial({"repo_url": '">'}) or "&quot;&gt;" in _render_search_partial({"repo_url": '">'})
