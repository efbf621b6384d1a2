"""Which files in the records folder are records, and reading one without trusting what it is.

A name ending in .yaml can be a folder, a FIFO (reading it blocks forever), a symlink to
/dev/zero (reading it never ends), a loop or a dangling link. Only a regular file under
MAX_BYTES is read; anything else is a problem reported against its name.
"""
import errno
import os
import stat
from pathlib import Path

SUFFIXES = (".yaml", ".yml")
MAX_BYTES = 256 * 1024  # the largest record is ~31 KB; the schema's field limits fit well inside


class FileProblem(Exception):
    """A record file that cannot be read as one; the message says what it is instead."""


def record_files(records_dir: Path) -> list[Path]:
    """Every entry named *.yaml or *.yml, whatever it is: reading decides whether it is a record."""
    return sorted(p for p in Path(records_dir).iterdir() if p.suffix in SUFFIXES)


def read_record(path: Path) -> bytes:
    try:
        # O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY)
    except OSError as exc:
        raise FileProblem(_open_failure(path, exc)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileProblem(f"not a regular file but {_kind(info.st_mode)}: a record is a YAML file")
        if info.st_size > MAX_BYTES:
            raise FileProblem(f"{info.st_size} bytes: a record file holds at most {MAX_BYTES}")
        data = _read_at_most(fd, MAX_BYTES + 1)  # the size can change after fstat
        if len(data) > MAX_BYTES:
            raise FileProblem(f"more than {MAX_BYTES} bytes: a record file holds at most {MAX_BYTES}")
        return data
    finally:
        os.close(fd)


def _read_at_most(fd: int, limit: int) -> bytes:
    chunks, size = [], 0
    while size < limit:
        chunk = os.read(fd, min(65536, limit - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def _open_failure(path: Path, exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "a symlink loop: it never reaches a file"
    if exc.errno == errno.ENOENT and os.path.islink(path):
        return f"a symlink to {os.readlink(path)!r}, which does not exist"
    return f"cannot be read: {exc.strerror}"


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"
