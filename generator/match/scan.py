"""One pass over a log of any size, in bounded memory. Twin: docs/assets/javascripts/match/scan.js.

The log arrives as UTF-8 bytes, in chunks that end on line ends, normalised by text.py. A line is
tried against a signature only when it holds one of the signature's required literals; here one RE2
set finds which literals a chunk holds at all, and each signature with a literal present is searched
through the chunk by RE2 (which never matches across a line end), one line at a time. A line
longer than MAX_LINE code points is matched in windows around its literals, as the browser does.

The scan keeps a bounded sample: hit lines (first and last few per signature), informative lines from
the first and last chunks for full-text relevance, and, from the stamps of hit lines and chunk ends,
the newest time of each clock and the last reboot, for the staleness rules.
"""
from collections import deque
from dataclasses import dataclass, field

import re2

from . import text, timestamps
from .dialect import ChunkSearch, compile_rule

CHUNK = 1 << 20          # bytes per chunk
HITS_KEPT = 8            # first and last hits kept per signature
INFORMATIVE_KEPT = 100   # informative lines kept from the start and from the end
TAIL_STAMPS = 64         # lines at each chunk's end whose stamps may be read
STAMPS_WANTED = 4        # ... stopping at this many stamped lines
SHORT_PASTE = 40         # a paste this short is used whole for full-text relevance
STAMPED_HITS = 4096      # hit lines whose stamps count for the staleness rules (then only kept hits')
INFORMATIVE = (r"error|exception|fail|fatal|timeout|timed out|killed|abort|panic|traceback|"
               r"warn|oom|refused|denied|not found|nan\b|segmentation|signal|xid|nccl|assert|"
               r"corrupt|stuck|hang|unable|cannot|exit")


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
    long_lines: int = 0                               # lines over MAX_LINE code points with a literal
    split_lines: list = field(default_factory=list)   # first lines cut at a chunk boundary (over CHUNK bytes)


class _Compiled:
    """The signatures as the scan uses them: the literal prefilter compiled once per engine, each
    signature's own rules when first needed (rules())."""

    def __init__(self, signatures: list[dict]):
        self.signatures = signatures
        self._rules: dict = {}  # index -> (chunk search, (line test, unless)), compiled on first use
        # A match of a case-sensitive pattern without `unless` contains its required literal, so a
        # line it is found in needs no second look unless the line is long.
        self.direct = [not s["ignore_case"] and not s.get("unless") for s in signatures]
        self.literal_bytes = [[lit.encode("utf-8") for lit in s["literals"]] for s in signatures]
        self.literals = [s["literals"] for s in signatures]
        self.ignore_case = [s["ignore_case"] for s in signatures]
        self.always = [i for i, s in enumerate(signatures) if not s["literals"]]
        owners, self.set = {}, None
        for i, s in enumerate(signatures):
            for literal in s["literals"]:
                owners.setdefault((literal, s["ignore_case"]), []).append(i)
        self.literal_owners = list(owners.values())
        if owners:
            options = re2.Options()
            options.never_nl = True
            self.set = re2.Set.SearchSet(options)
            for literal, ignore_case in owners:
                self.set.Add(("(?i)" if ignore_case else "") + re2.escape(literal))
            self.set.Compile()
        self.informative = compile_rule(INFORMATIVE, ignore_case=True)

    def rules(self, index: int):
        """A signature's chunk search and line tests. Compiled when a chunk first holds one of its
        literals: most signatures never meet one in a given log, and compiling them all was most
        of the time `relref match` took to start."""
        if index not in self._rules:
            s = self.signatures[index]
            self._rules[index] = (ChunkSearch(s["pattern"], s["ignore_case"]), compile_rule_pair(s))
        return self._rules[index]

    def present(self, chunk: bytes) -> list[int]:
        """Signatures with a literal somewhere in the chunk, or none to look for."""
        found = self.set.Match(chunk) if self.set is not None else None
        return sorted({i for k in (found or ()) for i in self.literal_owners[k]} | set(self.always))


def _hit(line_no: int, shown) -> Hit:
    line = shown.decode("utf-8", "replace") if isinstance(shown, bytes) else shown
    return Hit(line_no, line, timestamps.parse(line))


def compile_rule_pair(signature: dict):
    return (compile_rule(signature["pattern"], signature["ignore_case"]),
            compile_rule(signature["unless"], signature["ignore_case"]) if signature.get("unless") else None)


class Scanner:
    def __init__(self, signatures: list[dict], compiled: _Compiled | None = None):
        self.compiled = compiled or _Compiled(signatures)
        self.result = ScanResult()
        self.line_no = 1  # the line the next chunk starts on
        self._first_informative: list = []
        self._last_chunk = None  # (text, first line number)
        self._short_lines: list = []
        self._tails: dict = {}
        self._last_uptime = None
        self._stamped = 0

    def feed(self, chunk: bytes, cut: bool = False) -> None:
        """Scan one normalised chunk. `cut`: it ends inside a line longer than a chunk."""
        first, r = self.line_no, self.result
        newlines = chunk.count(b"\n")
        self.line_no += newlines + (0 if cut else 1)
        r.lines = self.line_no - (0 if cut else 1)
        r.chars += len(chunk)
        if cut and first not in r.split_lines and len(r.split_lines) < HITS_KEPT:
            r.split_lines.append(first)
        lines_text = None
        if r.lines <= SHORT_PASTE or self._last_chunk is None:
            lines_text = chunk.decode("utf-8", "replace")
        if r.lines <= SHORT_PASTE:
            self._short_lines += list(enumerate(lines_text.split("\n"), first))
        matchable = chunk.replace(b"\r", b"\n") if b"\r" in chunk else chunk
        stamps = self._scan_signatures(chunk, matchable, first) + self._stamp_tail(chunk, first)
        self._note_stamps(sorted(stamps))
        if self._last_chunk is None:
            self._first_informative = self._informative(lines_text, first, INFORMATIVE_KEPT)
        self._last_chunk = (chunk, first)

    def finish(self) -> ScanResult:
        result = self.result
        if result.lines <= SHORT_PASTE:
            result.informative = self._short_lines
        elif self._last_chunk is not None:
            chunk, first = self._last_chunk
            tail = self._informative(chunk.decode("utf-8", "replace"), first, INFORMATIVE_KEPT, from_end=True)
            merged = {n: t for n, t in self._first_informative + tail}
            result.informative = sorted(merged.items())
        for index, (head, tail) in self._tails.items():
            tail = [h if isinstance(h, Hit) else _hit(*h) for h in tail]
            result.hits[index] = head + [h for h in tail if h.line_no > head[-1].line_no]
        return result

    def _scan_signatures(self, chunk: bytes, matchable: bytes, first: int) -> list:
        c = self.compiled
        found = {}  # (line start, signature index) -> line text (str), or None: the whole line, undecoded
        for index in c.present(matchable):
            search, (regex, unless) = c.rules(index)
            pos, size = 0, len(matchable)
            while pos <= size:
                at = search.find(matchable, pos)
                if at < 0:
                    break
                start = matchable.rfind(b"\n", 0, at) + 1
                end = matchable.find(b"\n", at)
                end = size if end == -1 else end
                pos = end + 1
                if end - start <= text.MAX_LINE and (c.direct[index] or self._has_literal(index, matchable[start:end])):
                    if c.direct[index] or unless is None or unless.search(matchable[start:end]) is None:
                        found[(start, index)] = None
                    continue
                shown = self._line_verdict(index, matchable[start:end].decode("utf-8", "replace"), regex, unless)
                if shown is not None:
                    found[(start, index)] = shown
        line_no, cursor, stamps = first, 0, []
        for (start, index), shown in sorted(found.items()):
            line_no += chunk.count(b"\n", cursor, start)
            cursor = start
            if shown is None:
                end = matchable.find(b"\n", start)
                shown = matchable[start:len(matchable) if end == -1 else end]  # decoded only if it is kept
            if self._stamped < STAMPED_HITS:  # early hits' stamps count for staleness, in line order
                self._stamped += 1
                hit = _hit(line_no, shown)
                if hit.stamp:
                    stamps.append((line_no, *hit.stamp))
                self._keep_hit(index, hit)
            else:
                self._keep_hit(index, (line_no, shown))
        return stamps

    def _has_literal(self, index: int, line: bytes) -> bool:
        hay = line.lower() if self.compiled.ignore_case[index] else line
        return any(lit in hay for lit in self.compiled.literal_bytes[index])

    def _line_verdict(self, index: int, line: str, regex, unless):
        """The text to show when the signature matches this line (None when it does not): the line
        holds a literal, and the pattern matches while `unless` does not, in the line or (for a
        line over MAX_LINE) in one of its windows."""
        c = self.compiled
        positions = text.literal_positions(line, c.literals[index], c.ignore_case[index]) if c.literals[index] else [0]
        if not positions:
            return None
        if len(line) > text.MAX_LINE:
            self.result.long_lines += 1
        for part in text.windows(line, positions):
            if regex.search(part) is not None and not (unless is not None and unless.search(part) is not None):
                return part
        return None

    def _keep_hit(self, index: int, hit) -> None:
        """Count every hit; keep the first HITS_KEPT as Hits and a rolling last HITS_KEPT, which
        stay undecoded (line number, text or bytes) until finish() turns the survivors into Hits."""
        self.result.counts[index] = self.result.counts.get(index, 0) + 1
        head, tail = self._tails.setdefault(index, ([], deque(maxlen=HITS_KEPT)))
        if len(head) < HITS_KEPT:
            head.append(hit if isinstance(hit, Hit) else _hit(*hit))
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

    def _stamp_tail(self, chunk: bytes, first: int) -> list:
        """Stamps of the last lines of a chunk, read from the end: at most TAIL_STAMPS lines, and
        no further than the STAMPS_WANTED-th line that has a stamp."""
        last_no = first + chunk.count(b"\n")
        end, stamps = len(chunk), []
        for back in range(TAIL_STAMPS):
            start = chunk.rfind(b"\n", 0, end) + 1 if end > 0 else 0
            stamp = timestamps.parse(chunk[start:min(end, start + timestamps.HEAD * 4)].decode("utf-8", "replace"))
            if stamp:
                stamps.append((last_no - back, *stamp))
                if len(stamps) >= STAMPS_WANTED:
                    break
            if start == 0:
                break
            end = start - 1
        return stamps[::-1]

    def _informative(self, chunk_text: str, first: int, limit: int, from_end: bool = False) -> list:
        """Lines with error words, from the start (or the end) of a chunk: the sample full-text
        relevance reads from a long log. Soft line ends split a line for matching only."""
        numbered = list(enumerate(chunk_text.split("\n"), first))
        if from_end:
            numbered.reverse()
        kept, seen = [], set()
        for no, whole in numbered:
            for line in whole.split("\r"):
                line = line[:text.MAX_LINE]
                if line not in seen and self.compiled.informative.search(line) is not None:
                    seen.add(line)
                    kept.append((no, line))
            if len(kept) >= limit:
                break
        return kept[:limit]


def chunks(source, size: int = CHUNK):
    """Normalised chunks of a text (str or bytes, or an iterable of either) that end on line ends:
    (bytes without the final LF, cut) where `cut` marks a chunk ending inside a line longer than `size`."""
    pieces = [source] if isinstance(source, (str, bytes)) else source
    carry = b""
    for piece in pieces:
        carry += piece.encode("utf-8") if isinstance(piece, str) else piece
        while len(carry) > size:  # at exactly `size` the next piece may continue the line (or a UTF-8 sequence)
            cut = carry.rfind(b"\n", 0, size)
            if cut != -1:
                yield text.normalise_bytes(carry[:cut - 1] if carry[cut - 1:cut] == b"\r" else carry[:cut]), False
                carry = carry[cut + 1:]
                continue
            cut = size
            while cut > 1 and (carry[cut] & 0xC0) == 0x80:  # not inside a UTF-8 sequence
                cut -= 1
            if carry[cut - 1:cut] == b"\r":                 # nor between the CR and LF of one line end
                cut -= 1
            yield text.normalise_bytes(carry[:cut]), True
            carry = carry[cut:]
    if carry.endswith(b"\n"):
        carry = carry[:-1]
        if carry.endswith(b"\r"):
            carry = carry[:-1]
    if carry:
        yield text.normalise_bytes(carry), False
