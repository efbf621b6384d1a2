"""`relref match --follow`: match a live stream (`kubectl logs -f pod | relref match --follow -`).

The input is scanned once, as it arrives, by one Scanner fed the same 1 MiB chunks that
Engine.match cuts, so the summary at the end is the answer `relref match` gives for the same
bytes. An answer along the way ranks a copy of the scanner fed the unfinished tail (under one
chunk): its cost does not grow with what has been read, and it runs on a cadence, not per line,
so a fast stream costs a scan plus a bounded number of rankings. Input is read with os.read in
bounded blocks, never by line, so a line of any length (or none) cannot hold it up.
"""
import copy
import os
import select
import signal
import time

from . import text
from .scan import CHUNK, Scanner, chunk_end, chunks

READ_SIZE = 1 << 16
INTERVAL = 0.5    # seconds at least between two answers while input keeps coming
COST_SHARE = 4    # ... and at least this many times what the last answer took, so ranking stays a share


class Follower:
    """The bytes read so far, scanned in bounded memory, and the answer they give now."""

    def __init__(self, engine, context: str, top: int):
        self.engine, self.context, self.top = engine, context, top
        self.scanner = Scanner(engine.signatures, engine.compiled)
        self.carry = b""  # read, not yet a whole chunk
        self.lines = 0
        self.last = None  # the latest answer, for the exit status when output stops early

    def feed(self, data: bytes) -> None:
        self.lines += data.count(b"\n")
        self.carry += data
        # The cut rules of scan.chunks for every whole chunk. Strictly more than a chunk: the byte
        # after a cut must be there to tell whether the cut falls inside a UTF-8 sequence.
        while len(self.carry) > CHUNK:
            end, rest, split = chunk_end(self.carry, 0, CHUNK)
            self.scanner.feed(text.normalise_bytes(self.carry[:end]), split)
            self.carry = self.carry[rest:]

    def result(self) -> dict:
        # The scanner itself only ever sees whole chunks; the tail goes to a copy (the compiled rules shared).
        scanner = copy.deepcopy(self.scanner, {id(self.scanner.compiled): self.scanner.compiled})
        for piece, cut in chunks(self.carry, size=CHUNK + 1):  # at most a chunk: the tail, as scan.chunks ends
            scanner.feed(piece, cut)
        self.last = self.engine.rank(scanner.finish(), self.context, self.top)
        return self.last


def follow(stream, follower: Follower, on_answer, stop_when_confident: bool = False):
    """Read `stream` until it ends, Ctrl-C, or (stop_when_confident) a confident answer; call
    on_answer(result) with each answer that differs from the last one shown. Returns (the last
    result, how it ended: "end", "interrupt" or "confident")."""
    fd = stream.fileno()
    wake_r, wake_w = os.pipe()
    for end in (wake_r, wake_w):
        os.set_blocking(end, False)
    interrupted = []

    def on_sigint(signum, frame):
        interrupted.append(signum)  # select() returns: the wakeup fd below gets a byte

    old_handler = signal.signal(signal.SIGINT, on_sigint)
    old_wakeup = signal.set_wakeup_fd(wake_w)
    shown, pending, last, wait = None, False, time.monotonic(), INTERVAL
    result, how = None, "end"
    try:
        while True:
            timeout = max(0.0, last + wait - time.monotonic()) if pending else None
            ready, _, _ = select.select([fd, wake_r], [], [], timeout)
            if interrupted:
                how = "interrupt"
                break
            if fd in ready:
                data = os.read(fd, READ_SIZE)
                if not data:
                    break
                follower.feed(data)
                pending = True
            if pending and time.monotonic() >= last + wait:
                started = time.monotonic()
                result, pending = follower.result(), False
                last = time.monotonic()
                wait = max(INTERVAL, COST_SHARE * (last - started))
                shown = _report(result, shown, on_answer)
                if stop_when_confident and result["confident"]:
                    return result, "confident"
    finally:
        signal.set_wakeup_fd(old_wakeup)
        signal.signal(signal.SIGINT, old_handler)
        os.close(wake_r)
        os.close(wake_w)
    if pending or result is None:
        result = follower.result()
        shown = _report(result, shown, on_answer)
    if stop_when_confident and result["confident"]:
        how = "confident"
    return result, how


def _report(result: dict, shown, on_answer):
    # Nothing is said while nothing has been found; after that, every change of answer is said.
    if result["answer"] != shown and (shown is not None or result["verdict"] != "none"):
        on_answer(result)
        return result["answer"]
    return shown
