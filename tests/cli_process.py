"""Helpers for tests that drive `relref` as a separate process."""
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
