"""`relref match --follow` on a live stream: a process whose standard input is written to over
time, as `kubectl logs -f pod | relref match --follow -` is."""
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from relref import paths
from cli_process import ctrl_c_as_from_a_shell, wait_until_reading

RELREF = str(Path(sys.executable).with_name("relref"))
XID = b"NVRM: Xid (PCI:0000:3b:00): 79, pid=1, name=python, GPU has fallen off the bus.\n"
NOISE = b"[rank3] step 1200 loss 2.31 lr 3e-4 tokens/s 51234\n"
WAIT = 60  # seconds an answer may take on a loaded machine; a hang fails instead of blocking the suite


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    from relref.match.index import write_index
    from relref.records.load import load_records
    path = tmp_path_factory.mktemp("index") / "index.json"
    write_index(load_records(paths.RECORDS), path)
    return str(path)


class Live:
    """relref with a pipe for standard input that stays open until the test closes it, and its
    output read line by line as it comes."""

    def __init__(self, *args):
        env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
        self.proc = subprocess.Popen([RELREF, "match", *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, env=env, preexec_fn=ctrl_c_as_from_a_shell)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.decode("utf-8"))
        self.lines.put(None)

    def write(self, data: bytes):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def next_line(self, timeout=WAIT) -> str:
        line = self.lines.get(timeout=timeout)
        assert line is not None, "the output ended: " + self.proc.stderr.read().decode()
        return line

    def rest(self) -> str:
        out = []
        while (line := self.lines.get(timeout=WAIT)) is not None:
            out.append(line)
        return "".join(out)

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=WAIT)


@pytest.fixture
def live():
    started = []

    def start(*args):
        started.append(Live(*args))
        return started[-1]
    yield start
    for one in started:
        one.close()


def answer_of(index, data: bytes) -> dict:
    done = subprocess.run([RELREF, "match", "--index", index, "--json", "-"], input=data, capture_output=True, timeout=120)
    return json.loads(done.stdout)


def test_the_answer_appears_before_the_stream_ends(index, live):
    run = live("--index", index, "--follow", "-")
    run.write(NOISE * 20)
    time.sleep(1.5)  # noise matched on the cadence says nothing
    run.write(XID)
    first = run.next_line()
    assert run.proc.poll() is None, "the answer came while the stream is still open"
    expected = answer_of(index, NOISE * 20 + XID)
    assert first.strip() == f"[21 lines] {expected['answer']}"
    run.write(NOISE * 5)
    run.proc.stdin.close()
    rest = run.rest()
    assert run.proc.wait(timeout=WAIT) == 0
    assert "Summary after 26 lines (the stream ended):" in rest and "Candidates:" in rest
    assert rest.count(expected["answer"]) == 1, "an unchanged answer is not said again before the summary"


def test_until_confident_exits_while_the_stream_is_still_open(index, live):
    run = live("--index", index, "--until-confident", "-")
    run.write(NOISE * 3 + XID)
    assert run.proc.wait(timeout=WAIT) == 0  # stdin never closed
    out = run.rest()
    assert "Summary after 4 lines (stopped at the first confident answer):" in out
    assert out.startswith("[4 lines] Most likely:")


def test_ctrl_c_prints_the_summary(index, live):
    run = live("--index", index, "--follow", "-")
    run.write(XID)
    assert run.next_line().startswith("[1 line] Most likely:")
    run.write(NOISE * 2)
    time.sleep(1)
    wait_until_reading(run.proc)
    run.proc.send_signal(signal.SIGINT)
    assert run.proc.wait(timeout=WAIT) == 0, "the status is the last answer's, as ping's is after Ctrl-C"
    out = run.rest()
    assert "Summary after 3 lines (interrupted):" in out and "Checks to run next" in out
    assert b"Traceback" not in run.proc.stderr.read()


def test_ctrl_c_before_any_answer_still_summarises(index, live):
    run = live("--index", index, "--follow", "--json", "-")
    run.write(NOISE * 4)
    time.sleep(1)  # the cadence has matched the noise and found nothing
    wait_until_reading(run.proc)
    run.proc.send_signal(signal.SIGINT)
    assert run.proc.wait(timeout=WAIT) == 1
    events = [json.loads(line) for line in run.rest().splitlines()]
    assert [e["event"] for e in events] == ["summary"], "nothing is said while nothing is found"
    assert events[0]["ended"] == "interrupt" and events[0]["lines"] == 4
    assert events[0]["result"]["verdict"] == "none"


def test_a_line_of_any_size_or_content_cannot_hold_it_up(index, live):
    run = live("--index", index, "--follow", "--json", "-")
    block = bytes(range(256)).replace(b"\n", b"") * 4096  # no line end, every other byte, invalid UTF-8
    for _ in range(3):  # 3 MiB of one line, more than a chunk
        run.write(block)
    run.write(b"\n" + XID)
    event = json.loads(run.next_line())
    assert run.proc.poll() is None
    assert event["event"] == "answer" and event["result"]["confident"] and event["lines"] == 2
    run.proc.stdin.close()
    assert run.proc.wait(timeout=WAIT) == 0


def test_a_cr_and_then_a_chunk_of_bytes_that_are_not_utf8_cannot_hold_it_up(index, live):
    """The chunk cut once moved back over continuation bytes and the CR to nothing, and the follower
    fed empty chunks for ever (as `relref match` did): the answer after them must still come."""
    run = live("--index", index, "--follow", "--json", "-")
    # Written from a thread: a follower stuck in a loop stops reading, and the write would block
    # the test instead of failing it.
    threading.Thread(target=run.write, args=(b"\r" + b"\x80" * (2 << 20) + b"\n" + XID,), daemon=True).start()
    event = json.loads(run.next_line())
    assert event["event"] == "answer" and event["result"]["confident"]
    run.proc.stdin.close()
    assert run.proc.wait(timeout=WAIT) == 0


def test_the_summary_is_the_answer_of_relref_match_on_the_same_bytes(index, tmp_path):
    # Over three chunks of log: lines cut at chunk ends, a line longer than a chunk, CRLF, hits
    # early and late, and a tail that is not a whole chunk.
    log = (NOISE * 30000 + XID + b"x" * (1 << 20) + b"\r\n" + NOISE.replace(b"\n", b"\r\n") * 20000
           + b"[Tue Mar  5 10:00:00 2024] " + XID + NOISE * 777)
    assert len(log) > 3 * (1 << 20)
    path = tmp_path / "job.log"
    path.write_bytes(log)
    done = subprocess.run([RELREF, "match", "--index", index, "--json", "--follow", str(path)],
                          capture_output=True, timeout=300)
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert events[-1]["event"] == "summary" and events[-1]["lines"] == log.count(b"\n")
    assert events[-1]["result"] == answer_of(index, log)


def test_following_a_long_fast_stream_costs_about_one_scan(index, tmp_path):
    # 200,000 lines (10 MB): re-matching all that was read after every line, or every read, grows
    # with the square of the log; scanning once and ranking on a cadence costs about one match.
    log = (NOISE * 100000 + XID + NOISE * 100000)
    start = time.monotonic()
    answer_of(index, log)
    once = time.monotonic() - start
    start = time.monotonic()
    done = subprocess.run([RELREF, "match", "--index", index, "--follow", "-"], input=log, capture_output=True,
                          timeout=300)
    followed = time.monotonic() - start
    assert done.returncode == 0 and b"Most likely:" in done.stdout
    assert followed < 3 * once + 10, (followed, once)


def test_follow_into_head_exits_quietly(index):
    # head leaves after the first answer; the summary written a second later finds the pipe closed.
    done = subprocess.run(["bash", "-c", 'set -o pipefail; (printf "%s" "$LOG"; sleep 1) | '
                                         '"$RELREF" match --index "$INDEX" --follow - | head -1'],
                          capture_output=True, timeout=120,
                          env={**os.environ, "RELREF": RELREF, "INDEX": index, "LOG": XID.decode()})
    assert done.returncode == 0 and done.stderr == b"", done
    assert done.stdout.decode().startswith("[1 line] Most likely:")
