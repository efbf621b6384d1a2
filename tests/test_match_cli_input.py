"""`relref match` through a real pipe: terminal escapes in a pasted log print escaped, and input it
cannot use (broken records, an index of another shape, --top below 1) exits 2 with a sentence."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

RELREF = str(Path(sys.executable).with_name("relref"))
# A lost-GPU line carrying what a hostile log could: an OSC title change, a clear screen, an OSC 52
# clipboard write, a C1 CSI and a right-to-left override. (A carriage return ends a line for
# matching, as progress bars need, so it cannot hide text inside a matched line.)
HOSTILE = (b"\x1b]0;owned\x07\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\xc2\x9b31m hidden \xe2\x80\xaeevil "
           b"NVRM: Xid (PCI:0000:3b:00): 79, pid=1, name=python, GPU has fallen off the bus.\n")
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def match(*args, stdin=b""):
    return subprocess.run([RELREF, "match", *args], input=stdin, capture_output=True, timeout=120)


@pytest.fixture(scope="module")
def index(built_site):
    return str(built_site / "assets" / "match" / "index.json")


def test_terminal_escapes_in_matched_lines_print_visibly(index):
    done = match("--index", index, "--top", "3", stdin=HOSTILE)
    out = done.stdout.decode("utf-8")
    assert done.returncode in (0, 1), done.stderr
    assert "NVRM: Xid" in out, out
    assert not RAW_CONTROL.search(out), repr(RAW_CONTROL.search(out))
    assert "\\x1b]0;owned\\x07\\x1b[2J\\x1b]52;c;" in out and "\\x9b31m" in out and "hidden \\u202eevil" in out


def test_bytes_that_are_not_text_get_an_answer_not_a_hang(index):
    """A CR and then megabytes of UTF-8 continuation bytes (a binary file given by mistake): the
    chunker once looped on it for ever. Now the command answers (no error in it: exit 1)."""
    done = match("--index", index, "-", stdin=b"\r" + b"\x80" * (1 << 21) + b"\n")
    assert done.returncode == 1, done.stderr


def test_json_output_carries_them_as_json_escapes(index):
    done = match("--index", index, "--json", stdin=HOSTILE)
    out = done.stdout.decode("utf-8")
    assert not RAW_CONTROL.search(out.replace("\n", ""))
    texts = [w.get("text", "") for m in json.loads(out)["matches"] for w in m["why"]]
    assert any("\x1b]0;owned\x07" in t for t in texts), texts  # the data keeps them; only the terminal is spared


def test_broken_records_are_input_it_cannot_read(fixture_records):
    (fixture_records / "fixture-error.yaml").write_text("kind: [broken\n")
    done = match("--records", str(fixture_records), stdin=b"anything\n")
    assert done.returncode == 2, done
    assert b"fixture-error.yaml:2: (yaml): YAML syntax" in done.stderr and b"Traceback" not in done.stderr


def test_records_that_are_not_there_exit_2(tmp_path):
    done = match("--records", str(tmp_path / "nowhere"), stdin=b"anything\n")
    assert done.returncode == 2 and b"not a folder of records" in done.stderr


@pytest.mark.parametrize("content", ["[]", "{}", "null", '"x"', '{"references": 5}', '{"references": [1]}',
                                     '{"references": "x"}', '{"references": null}', '{"references": [{}]}',
                                     "not json", ""])
def test_an_index_of_another_shape_is_named_not_a_traceback(tmp_path, content):
    path = tmp_path / "index.json"
    path.write_text(content)
    done = match("--index", str(path), stdin=b"NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.\n")
    assert done.returncode == 2, done
    err = done.stderr.decode()
    assert err.startswith(f"relref match: cannot read the match index {path}: ") and "Traceback" not in err, err


@pytest.mark.parametrize("top", ["0", "-1", "two"])
def test_top_below_one_is_rejected(index, top):
    done = match("--index", index, "--top", top, stdin=b"x\n")
    assert done.returncode == 2 and b"--top" in done.stderr and not done.stdout


def test_a_code_s_recovery_ends_with_one_full_stop():
    """Through a pipe: a code's recovery text that already ends its sentence gets no second stop."""
    out = match("-", stdin=b"Killed\n").stdout.decode()
    line = next(l for l in out.splitlines() if "Recovery:" in l)
    assert line.endswith(".") and not line.endswith("..")
