"""`relref` as a person runs it: through real pipes, a real shell pipeline and a pseudo-terminal
(so isatty is true): help, version, broken pipes, wrapping, colour and NO_COLOR, scores only
with --verbose."""
import json
import os
import pty
import re
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path

import pytest

from relref import paths
from cli_process import ctrl_c_as_from_a_shell, wait_until_reading

RELREF = str(Path(sys.executable).with_name("relref"))
XID = b"NVRM: Xid (PCI:0000:3b:00): 79, pid=1, name=python, GPU has fallen off the bus.\n"
# The same lost-GPU line with what a hostile log could carry (see test_match_cli_input.py).
HOSTILE = (b"\x1b]0;owned\x07\x1b[2J\x1b]52;c;cm0gLXJmIH4=\x07\xc2\x9b31m hidden \xe2\x80\xaeevil " + XID)
SGR = re.compile(r"\x1b\[[0-9;]*m")
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
WIDTH = 60


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    from relref.match.index import write_index
    from relref.records.load import load_records
    path = tmp_path_factory.mktemp("index") / "index.json"
    write_index(load_records(paths.RECORDS), path)  # every process below reads it instead of building its own
    return str(path)


def env(**extra):
    out = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "COLUMNS", "TERM")}
    return {**out, **extra}


def piped(*args, stdin=b"", **extra):
    return subprocess.run([RELREF, *args], input=stdin, capture_output=True, timeout=120, env=env(**extra))


def on_terminal(*args, stdin=b"", **extra) -> str:
    """Run relref with its standard output on a pseudo-terminal and its input a pipe; what the
    terminal received, with the terminal's CR LF line ends read back as LF."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([RELREF, *args], stdin=subprocess.PIPE, stdout=slave, stderr=slave,
                            env=env(TERM="xterm-256color", **extra))
    os.close(slave)
    proc.stdin.write(stdin)
    proc.stdin.close()
    received = b""
    while True:
        try:
            block = os.read(master, 65536)
        except OSError:  # EIO: the child's end is closed
            break
        if not block:
            break
        received += block
    os.close(master)
    assert proc.wait(timeout=120) in (0, 1)
    return received.decode("utf-8").replace("\r\n", "\n")


def test_relref_alone_prints_its_help():
    done = piped()
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode()
    assert out.startswith("usage: relref") and " match " in out and " build " in out, out


def test_version_names_the_package_and_the_engine():
    from relref.match.engine import ENGINE_VERSION
    done = piped("--version")
    assert done.returncode == 0
    assert done.stdout.decode().strip() == f"relref {version('reliability-error-references')} (match engine {ENGINE_VERSION})"


def test_match_help_states_the_exit_codes_and_top():
    out = piped("match", "--help").stdout.decode()
    assert "exit status:" in out
    for line in ("0  a confident match", "1  no confident match", "2  input it cannot read"):
        assert line in out, out
    assert "--top N" in out and "list at most N candidate references (default 5)" in " ".join(out.split())


def _shell(command: str, index: str, log: Path):
    return subprocess.run(["bash", "-c", f"set -o pipefail; {command}"], capture_output=True, timeout=120,
                          env=env(RELREF=RELREF, INDEX=index, LOG=str(log)))


def test_a_reader_that_goes_away_gets_no_traceback(index, tmp_path):
    log = tmp_path / "job.log"
    log.write_bytes(XID)
    # `head -1` takes the answer and leaves; `true` leaves before relref has written a byte.
    for reader in ("head -1", "true"):
        done = _shell(f'"$RELREF" match --index "$INDEX" "$LOG" | {reader}', index, log)
        assert done.returncode == 0, (reader, done)
        assert done.stderr == b"", (reader, done.stderr.decode())
    head = _shell('"$RELREF" match --index "$INDEX" "$LOG" | head -1', index, log)
    assert head.stdout.decode().startswith("Most likely:")


def test_prose_wraps_to_the_terminal_and_commands_urls_and_log_lines_do_not(index):
    context = "PyTorch 2.4 with DeepSpeed 0.14 ZeRO-3 on 64 H100 under Kubernetes and Slurm"
    result = json.loads(piped("match", "--index", index, "--json", "--context", context, stdin=XID).stdout)
    text = SGR.sub("", on_terminal("match", "--index", index, "--context", context, stdin=XID,
                                   COLUMNS=str(WIDTH), NO_COLOR="1"))
    rows = text.split("\n")
    commands = [f"$ {c['command']}" for c in result["next_checks"] if c["command"]]
    urls = [result["matches"][0]["url"]] + [c["url"] for c in result["next_checks"]]
    assert any(len(c) > WIDTH for c in commands) and len(XID) > WIDTH  # else nothing here could be cut
    for whole in commands + urls + [XID.decode().strip()]:
        assert any(row.strip() == whole for row in rows), whole  # on one row, unbroken
    unbreakable = [row for row in rows if row.strip() in commands + urls + [XID.decode().strip()]]
    long_words = [row for row in rows if " " not in row.strip()]  # a word longer than the width cannot wrap
    assert all(len(row) <= WIDTH for row in rows if row not in unbreakable + long_words), \
        [row for row in rows if len(row) > WIDTH and row not in unbreakable + long_words]
    # The answer comes first, the same sentence as the page's, wrapped over the first rows.
    first = text.split("\n\n")[0]
    assert len(first.split("\n")) > 1 and " ".join(first.split()) == result["answer"]
    # Piped, the same report is not wrapped: the answer is one line.
    plain = piped("match", "--index", index, "--context", context, stdin=XID, COLUMNS=str(WIDTH)).stdout.decode()
    assert plain.split("\n")[0] == result["answer"] and len(result["answer"]) > WIDTH
    assert "\x1b" not in plain


def test_colour_only_on_a_terminal_and_never_with_no_color(index):
    coloured = on_terminal("match", "--index", index, stdin=XID, COLUMNS="100")
    assert SGR.search(coloured) and coloured.startswith("\x1b[1m"), coloured[:40]
    assert "\x1b" not in on_terminal("match", "--index", index, stdin=XID, COLUMNS="100", NO_COLOR="1")
    assert "\x1b" not in piped("match", "--index", index, stdin=XID).stdout.decode()
    # With colour on, the report's own SGR codes are the only escapes: the paste's print visibly.
    hostile = on_terminal("match", "--index", index, "--top", "3", stdin=HOSTILE, COLUMNS="300")
    assert not RAW_CONTROL.search(SGR.sub("", hostile).replace("\n", "")), repr(RAW_CONTROL.search(SGR.sub("", hostile)))
    assert "\\x1b]0;owned\\x07\\x1b[2J" in hostile and "hidden \\u202eevil" in hostile


def test_scores_only_with_verbose(index):
    result = json.loads(piped("match", "--index", index, "--json", stdin=XID).stdout)
    quiet = piped("match", "--index", index, stdin=XID).stdout.decode()
    loud = piped("match", "--index", index, "--verbose", stdin=XID).stdout.decode()
    top = result["matches"][0]
    assert "score" not in quiet.lower() and str(top["score"]) not in quiet
    assert f"{top['title']} (score {top['score']})" in loud
    assert loud.split("\n")[0] == quiet.split("\n")[0] == result["answer"]


def test_ctrl_c_while_waiting_for_input_exits_130_without_a_traceback(index):
    import signal
    proc = subprocess.Popen([RELREF, "match", "--index", index, "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=ctrl_c_as_from_a_shell)
    proc.stdin.write(XID)
    proc.stdin.flush()
    wait_until_reading(proc)  # loaded, and reading a stream that has not ended
    proc.send_signal(signal.SIGINT)
    try:  # stdin stays open: closing it would end the stream and race the signal with an answer
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:  # it landed between two reads of the pipe: a second Ctrl-C
        proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and b"Traceback" not in err and not out, (proc.returncode, out, err)
