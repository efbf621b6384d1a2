"""Exclusive locks between relref processes (two builds of one site, two updates of urls.lock).

flock on a small file beside what it guards. The file is created when missing and never
deleted: deleting a lock file lets a third process lock a new file while a second still holds
the old one.
"""
import fcntl
import os
import sys
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def exclusive(path: Path, what: str):
    """Hold the lock for the block; yields its file descriptor. Waits, and says so, while another
    process holds it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"relref: {what} is already running (lock {path}); waiting for it to finish", file=sys.stderr)
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield fd
    finally:
        os.close(fd)
