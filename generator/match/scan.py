"""One pass over a log of any size, in bounded memory.

The log arrives in chunks that end on line boundaries. For each signature a plain
substring search finds the lines holding its required literal; only those lines meet
the regex. Lines are capped in length before matching. The scan keeps a bounded
sample: hit lines (first and last few per signature), informative lines from the
first and last chunks for full-text relevance, and, from the stamps of hit lines and chunk
ends, the newest time of each clock and the last reboot, for the staleness rules. Twin: docs/assets/javascripts/match/scan.js.
"""
import re
from collections import deque
from dataclasses import dataclass, field

from . import timestamps
from .dialect import compile_signature

MAX_LINE = 4096          # characters of a line that patterns see
CHUNK = 1 << 20          # characters per chunk
HITS_KEPT = 8            # first and last hits kept per signature
INFORMATIVE_KEPT = 100   # informative lines kept from the start and from the end
TAIL_STAMPS = 64         # lines at each chunk's end whose stamps are read
SHORT_PASTE = 40         # a paste this short is used whole for full-text relevance
ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")  # keeps offsets
INFORMATIVE = re.compile(r"error|exception|fail|fatal|timeout|timed out|killed|abort|panic|traceback|"
                         r"warn|oom|refused|denied|not found|nan\b|segmentation|signal|xid|nccl|assert|"
                         r"corrupt|stuck|hang|unable|cannot|exit", re.IGNORECASE | re.ASCII)


@dataclass
class Hit:
    line_no: int
    text: str
    stamp: tuple | None


@dataclass
class ScanResult:
    hits: dict = field(default_factory=dict)          # signature index -> list of Hit (bounded)
    counts: dict = field(default_factory=dict)        # signature index -> number of hit lines
    informative: list = field(default_factory=list)   # (line_no, text) for full-text relevance
    newest: dict = field(default_factory=dict)        # clock -> newest seconds seen on it
    last_boot: int = 0                                # last line where kernel uptime went backwards
    lines: int = 0
    chars: int = 0


class Scanner:
    def __init__(self, signatures: list[dict]):
        self.signatures = [(i, s, compile_signature(s["pattern"], s["ignore_case"]))
                           for i, s in enumerate(signatures)]
        self.result = ScanResult()
        self._first_informative: list = []
        self._last_chunk = None  # (text, first line number)
        self._short_lines: list = []
        self._tails: dict = {}
        self._last_uptime = None

    def feed(self, chunk: str) -> None:
        """Scan one chunk: whole lines, without their final newline."""
        first = self.result.lines + 1
        self.result.lines += chunk.count("\n") + 1
        self.result.chars += len(chunk)
        if self.result.lines <= SHORT_PASTE:
            self._short_lines += [(first + i, l) for i, l in enumerate(chunk.split("\n"))]
        stamps = self._scan_signatures(chunk, first) + self._stamp_tail(chunk, first)
        self._note_stamps(sorted(stamps))
        if self._last_chunk is None:
            self._first_informative = _informative(chunk, first, INFORMATIVE_KEPT)
        self._last_chunk = (chunk, first)

    def finish(self) -> ScanResult:
        result = self.result
        if result.lines <= SHORT_PASTE:
            result.informative = self._short_lines
        elif self._last_chunk is not None:
            tail = _informative(*self._last_chunk, INFORMATIVE_KEPT, from_end=True)
            merged = {n: t for n, t in self._first_informative + tail}
            result.informative = sorted(merged.items())
        for index, (head, tail) in self._tails.items():
            result.hits[index] = head + [h for h in tail if h.line_no > head[-1].line_no]
        return result

    def _scan_signatures(self, chunk: str, first: int) -> None:
        lowered = None
        found = {}  # (offset of line start, signature index) -> line
        for index, sig, regex in self.signatures:
            hay = chunk
            if sig["ignore_case"]:
                lowered = lowered if lowered is not None else chunk.translate(ASCII_LOWER)
                hay = lowered
            for literal in sig["literals"] or [""]:
                pos = hay.find(literal) if literal else 0
                while pos != -1 and pos < len(chunk):
                    start = chunk.rfind("\n", 0, pos) + 1
                    end = chunk.find("\n", pos)
                    end = len(chunk) if end == -1 else end
                    if (start, index) not in found:
                        line = chunk[start:min(end, start + MAX_LINE)]
                        if regex.search(line):
                            found[(start, index)] = line
                    pos = hay.find(literal, end + 1) if literal else (end + 1 if end < len(chunk) else -1)
        line_no, cursor, stamps = first, 0, []
        for (start, index), line in sorted(found.items()):
            line_no += chunk.count("\n", cursor, start)
            cursor = start
            hit = Hit(line_no, line, timestamps.parse(line))
            self._keep_hit(index, hit)
            if hit.stamp:
                stamps.append((line_no, *hit.stamp))
        return stamps

    def _keep_hit(self, index: int, hit: Hit) -> None:
        self.result.counts[index] = self.result.counts.get(index, 0) + 1
        head, tail = self._tails.setdefault(index, ([], deque(maxlen=HITS_KEPT)))
        if len(head) < HITS_KEPT:
            head.append(hit)
        else:
            tail.append(hit)

    def _note_stamps(self, stamps: list) -> None:
        """Keep, in bounded memory, what the staleness rules need: the newest stamp of each clock
        and the last line where kernel uptime went backwards (a reboot). Stamps come in line order."""
        for line_no, clock, seconds in stamps:
            self.result.newest[clock] = max(self.result.newest.get(clock, seconds), seconds)
            if clock == "uptime":
                if self._last_uptime is not None and seconds < self._last_uptime - 1:
                    self.result.last_boot = line_no
                self._last_uptime = seconds

    def _stamp_tail(self, chunk: str, first: int) -> list:
        lines = chunk.split("\n")[-TAIL_STAMPS:] if len(chunk) < 64 * MAX_LINE else \
            chunk[-64 * MAX_LINE:].split("\n")[-TAIL_STAMPS:]
        last_no, stamps = first + chunk.count("\n"), []
        for offset, line in enumerate(lines):
            stamp = timestamps.parse(line[:MAX_LINE])
            if stamp:
                stamps.append((last_no - len(lines) + 1 + offset, *stamp))
        return stamps


def _informative(chunk: str, first: int, limit: int, from_end: bool = False) -> list:
    lines = chunk.split("\n")
    numbered = list(enumerate(lines, first))
    if from_end:
        numbered.reverse()
    kept, seen = [], set()
    for no, line in numbered:
        line = line[:MAX_LINE]
        if INFORMATIVE.search(line) and line not in seen:
            seen.add(line)
            kept.append((no, line))
            if len(kept) >= limit:
                break
    return kept


def chunks(lines_source, size: int = CHUNK):
    """Split text (a str, or an iterable of str pieces) into chunks that end on line boundaries."""
    pieces = [lines_source] if isinstance(lines_source, str) else lines_source
    carry = ""
    for piece in pieces:
        carry += piece
        while len(carry) >= size:
            cut = carry.rfind("\n", 0, size)
            cut = size if cut == -1 else cut  # a giant line: cut it (patterns see only MAX_LINE anyway)
            yield carry[:cut].replace("\r", "")
            carry = carry[cut + 1:] if cut < len(carry) and carry[cut:cut + 1] == "\n" else carry[cut:]
    if carry.endswith("\n"):
        carry = carry[:-1]
    if carry:
        yield carry.replace("\r", "")
