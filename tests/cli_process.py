"""Helpers for tests that drive `relref` as a separate process."""
import signal
import time
from pathlib import Path


def wait_until_reading(proc, timeout=60):
    """Until the process is loaded and blocked waiting for input (a pipe read, or select), so that
    a signal sent next reaches the command and not the interpreter still starting up."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            wchan = Path(f"/proc/{proc.pid}/wchan").read_text()
        except OSError:
            wchan = ""
        if any(word in wchan for word in ("pipe_read", "poll_schedule", "select")):
            return
        time.sleep(0.1)
    raise AssertionError(f"never waited for input (wchan {wchan!r})")


def ctrl_c_as_from_a_shell() -> None:
    """For Popen(preexec_fn=...): the child starts with Ctrl-C at its default, as a shell starts a
    command. A child inherits an ignored SIGINT, and Python then leaves it ignored. In two full
    test runs the command went on reading through two Ctrl-Cs and answered when its input ended
    (exit 0, not 130), as it would with SIGINT ignored; alone, the test passed every time. Which
    earlier test leaves its worker so, I did not find."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
