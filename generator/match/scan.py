"""One pass over a log of any size, in bounded memory. Twin: docs/assets/javascripts/match/scan.js.

The log arrives as UTF-8 bytes, in chunks that end on line ends, normalised by text.py. A line is
tried against a signature only when it holds one of the signature's required literals; here one RE2
set finds which literals a chunk holds at all, and each signature with a literal present is searched
through the chunk by RE2 (which never matches across a line end), one line at a time. A line
longer than MAX_LINE code points is matched in windows around its literals, as the browser does.

Where a signature's literals are rare in a chunk (kernel logs: an Xid line every twenty lines, and
some twenty Xid signatures), searching the chunk once per signature costs more than testing the few
lines that hold the literals against all such signatures at once, in one RE2 set: that is the line
mode. A literal found on more than LINE_BUDGET lines of a chunk is searched chunk-wise from then on.
Both ways give the same hits (tests/test_scan_modes.py). The browser's twin has no RE2 set: it finds
the literals a chunk holds with one Aho-Corasick pass and tests lines one signature at a time.

The scan keeps a bounded sample: hit lines (first and last few per signature), informative lines from
the first and last chunks for full-text relevance, the first and last step-time lines (those holding
a literal of the step forms, readings.py) from the same chunks, and, from the stamps of hit lines and
chunk ends, the newest time of each clock and the last reboot, for the staleness rules.
"""
from collections import deque
from dataclasses import dataclass, field

import re2

from . import text, timestamps
from .dialect import ChunkSearch, compile_rule
from .prefilter import ENGINES as PREFILTERS, LiteralSet

CHUNK = 1 << 20          # bytes per chunk
HITS_KEPT = 8            # first and last hits kept per signature
INFORMATIVE_KEPT = 100   # informative lines kept from the start and from the end
STEPS_KEPT = 8           # step-time lines kept from the start and from the end
TAIL_STAMPS = 64         # lines at each chunk's end whose stamps may be read
STAMPS_WANTED = 4        # ... stopping at this many stamped lines
SHORT_PASTE = 40         # a paste this short is used whole for full-text relevance ...
SHORT_CHARS = 1 << 16    # ... up to this many code points (the engine reads no more: a one-line log of 1 GB is short)
STAMPED_HITS = 4096      # hit lines whose stamps count for the staleness rules (then only kept hits')
LINE_BUDGET = 2048       # lines holding one literal, per chunk, past which its signatures search chunk-wise
LINE_SETS_KEPT = 8       # compiled RE2 sets of line-mode signatures kept, one per combination met
SET_MOST, SET_MEM = 64, 16 << 20  # signatures in one set at most, and the memory it may take
SET_WORTH = 128          # (line, signature) tests per signature that are worth compiling a set for
# A signature's fields that the index leaves out when they hold these (the index is downloaded with
# every paste); both engines put them back on load.
SIGNATURE_DEFAULTS = {"ignore_case": False, "shared": False, "hardware": False, "causes": [], "marks": ""}
INFORMATIVE = (r"error|exception|fail|fatal|timeout|timed out|killed|abort|panic|traceback|"
               r"warn|oom|refused|denied|not found|nan\b|segmentation|signal|xid|nccl|assert|"
               r"corrupt|stuck|hang|unable|cannot|exit")
# No shorter text holds an error word (the pattern is plain words): the browser's scan skips such
# lines without a regex test (tests/test_scan_modes.py checks the pattern stays plain words).
INFORMATIVE_LEAST = min(len(word.replace(r"\b", "")) for word in INFORMATIVE.split("|"))


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
    steps: list = field(default_factory=list)         # (line_no, text) of step-time lines, in log order
    newest: dict = field(default_factory=dict)        # clock -> newest seconds seen on it
    last_boot: int = 0                                # last line where kernel uptime went backwards
    lines: int = 0
    chars: int = 0
    long_lines: int = 0                               # lines over MAX_LINE code points with a literal
    split_lines: list = field(default_factory=list)   # first lines cut at a chunk boundary (over CHUNK bytes)


class _Compiled:
    """The signatures as the scan uses them: the literal prefilter compiled once per engine, each
    signature's own rules when first needed (rules())."""

    def __init__(self, signatures: list[dict], line_budget: int = LINE_BUDGET, set_worth: int = SET_WORTH,
                 step_literals: tuple = (), prefilter: str = PREFILTERS[0]):
        self.signatures = signatures
        self.step_literals = tuple(step_literals)  # a line holding one is a step-time line
        self.step_literal_bytes = [lit.encode("utf-8") for lit in self.step_literals]
        self.line_budget, self.set_worth = line_budget, set_worth
        self._rules: dict = {}  # index -> (search, unless), compiled on first use
        self._line_sets: dict = {}  # tuple of signature indices -> the Match of an RE2 set of their patterns
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
            self.set = LiteralSet(list(owners), prefilter)
        self.informative = compile_rule(INFORMATIVE, ignore_case=True)
        self.informative_search = ChunkSearch(INFORMATIVE, ignore_case=True)

    def rules(self, index: int):
        """A signature's search (through a chunk, a line or a window of one) and its `unless` rule.
        Compiled when a chunk first holds one of its literals: most signatures never meet one in a
        given log, and compiling them all was most of the time `relref match` took to start."""
        if index not in self._rules:
            s = self.signatures[index]
            unless = compile_rule(s["unless"], s["ignore_case"]) if s.get("unless") else None
            self._rules[index] = (ChunkSearch(s["pattern"], s["ignore_case"]), unless)
        return self._rules[index]

    def present(self, chunk: bytes) -> list[int]:
        """Signatures with a literal somewhere in the chunk, or none to look for."""
        found = self.set.found(chunk) if self.set is not None else ()
        return sorted({i for k in found for i in self.literal_owners[k]} | set(self.always))

    def has_line_set(self, indices: tuple) -> bool:
        return self._line_sets.get(indices) is not None

    def line_set(self, indices: tuple):
        """A test of a line against all these signatures' patterns at once (one RE2 set), giving
        the positions in `indices` of those that match; None when there are too many to put in
        one set (its program would pass SET_MEM). Only for lines of at most MAX_LINE: a set has
        no slower engine to fall back on, and a set whose DFA ran out would report no match."""
        if indices not in self._line_sets:
            if len(self._line_sets) >= LINE_SETS_KEPT:
                self._line_sets.clear()
            self._line_sets[indices] = None
            if len(indices) <= SET_MOST:
                options = re2.Options()
                options.never_nl = True
                options.max_mem = SET_MEM
                tests = re2.Set.SearchSet(options)
                for i in indices:
                    tests.Add(("(?i)" if self.ignore_case[i] else "") + self.signatures[i]["pattern"])
                try:
                    tests.Compile()
                    self._line_sets[indices] = tests._set.Match  # the wrapper's own object: called per line
                except re2.error:
                    pass
        return self._line_sets[indices]


def _hit(line_no: int, shown) -> Hit:
    line = shown.decode("utf-8", "replace") if isinstance(shown, bytes) else shown
    return Hit(line_no, line, timestamps.parse(line))


class Scanner:
    def __init__(self, signatures: list[dict], compiled: _Compiled | None = None):
        self.compiled = compiled or _Compiled(signatures)
        self.result = ScanResult()
        self.line_no = 1  # the line the next chunk starts on
        self._first_informative: list = []
        self._first_steps: list = []
        self._last_chunk = None  # (text, first line number)
        self._short_lines: list = []
        self._short_chars = 0
        self._tails: dict = {}
        self._last_uptime = None
        self._stamped = 0
        self._dense: set = set()       # (literal, case-blind) found on over LINE_BUDGET lines of a chunk
        self._seen_lines: dict = {}    # (literal, case-blind) -> its lines in the chunk being scanned
        self._long: dict = {}          # start -> [bytes, str or None] of the chunk's lines over MAX_LINE

    def feed(self, chunk: bytes, cut: bool = False) -> None:
        """Scan one normalised chunk. `cut`: it ends inside a line longer than a chunk."""
        first, r = self.line_no, self.result
        matchable = chunk.replace(b"\r", b"\n") if b"\r" in chunk else chunk
        self._seen_lines, self._long, self._long_counted = {}, {}, set()
        stamps, newlines = self._scan_signatures(chunk, matchable, first)
        self.line_no += newlines + (0 if cut else 1)
        r.lines = self.line_no - (0 if cut else 1)
        r.chars += len(chunk)
        if cut and first not in r.split_lines and len(r.split_lines) < HITS_KEPT:
            r.split_lines.append(first)
        if r.lines <= SHORT_PASTE and self._short_chars < SHORT_CHARS:
            for numbered in enumerate(chunk.decode("utf-8", "replace").split("\n"), first):
                self._short_lines.append(numbered)
                self._short_chars += len(numbered[1]) + 1
                if self._short_chars >= SHORT_CHARS:
                    break
        self._note_stamps(sorted(stamps + self._stamp_tail(chunk, first + newlines)))
        if self._last_chunk is None:
            self._first_informative = self._informative(chunk, first, INFORMATIVE_KEPT)
            self._first_steps = self._steps(chunk, first)
        self._last_chunk = (chunk, first)

    def finish(self) -> ScanResult:
        result = self.result
        if self._last_chunk is not None:
            chunk, first = self._last_chunk
            if result.lines > SHORT_PASTE:
                tail = self._informative(chunk, first, INFORMATIVE_KEPT, from_end=True)
                result.informative = sorted({n: t for n, t in self._first_informative + tail}.items())
            steps = dict(self._first_steps + self._steps(chunk, first, from_end=True))
            result.steps = [(no, text) for (no, _), text in sorted(steps.items())]
        if result.lines <= SHORT_PASTE:
            result.informative = self._short_lines
        for index, (head, tail) in self._tails.items():
            tail = [h if isinstance(h, Hit) else _hit(*h) for h in tail]
            result.hits[index] = head + [h for h in tail if h.line_no > head[-1].line_no]
        return result

    def _scan_signatures(self, chunk: bytes, matchable: bytes, first: int):
        """Find and keep the chunk's hits: (stamps of the hits whose stamps count, the chunk's
        number of LF line ends, counted on the way to the hits' line numbers)."""
        found = {}  # signature index -> {line start: line text (str), or None: the whole line, undecoded}
        by_chunk, line_mode, held = self._split(matchable, self.compiled.present(matchable))
        if line_mode:
            self._search_lines(matchable, line_mode, held, found)
        for index in by_chunk:
            self._search_chunk(matchable, index, found)
        if not found:
            return [], chunk.count(b"\n")
        if self._stamped < STAMPED_HITS:
            return self._keep_in_order(chunk, matchable, first, found)
        return [], self._keep_by_signature(chunk, matchable, first, found)

    def _split(self, data: bytes, present: list[int]):
        """The present signatures to search chunk-wise; the others, which go to the line mode,
        each with its literals' keys; and the lines holding each of those literals (start -> end)."""
        c, by_chunk, line_mode, held, lowered = self.compiled, [], [], {}, None
        for index in present:
            keys = [(lit, c.ignore_case[index]) for lit in c.literal_bytes[index]]
            if not keys or c.line_budget <= 0 or any(key in self._dense for key in keys):
                by_chunk.append(index)
                continue
            if c.ignore_case[index] and lowered is None:
                lowered = data.lower()  # ASCII only, as the literals were lowered
            hay = lowered if c.ignore_case[index] else data
            holding = [self._literal_lines(hay, key) for key in keys]
            if any(h is None for h in holding):
                by_chunk.append(index)
                continue
            line_mode.append((index, keys))
            held.update(zip(keys, holding))
        return by_chunk, line_mode, held

    def _literal_lines(self, data: bytes, key: tuple):
        """The lines holding a literal (key: the literal and whether it is read case-blind),
        start -> end, or None past the budget: the literal is then searched chunk-wise for the rest
        of the log."""
        if key in self._seen_lines:
            return self._seen_lines[key]
        literal = key[0]
        lines, at, budget = {}, data.find(literal), self.compiled.line_budget
        while at != -1:
            if len(lines) >= budget:
                self._dense.add(key)
                lines = None
                break
            start = data.rfind(b"\n", 0, at) + 1
            end = data.find(b"\n", at)
            end = len(data) if end == -1 else end
            lines[start] = end
            at = data.find(literal, end)
        self._seen_lines[key] = lines
        return lines

    def _search_lines(self, data: bytes, line_mode: list, held: dict, found: dict) -> None:
        """The line mode: the lines holding a literal of these signatures, each against all of
        them at once in one RE2 set; or each against its own signatures, when the set is not
        compiled yet and there are only a few lines (compiling a set costs as much as some hundred
        tests) or when the signatures are too many for one set."""
        c = self.compiled
        indices = tuple(index for index, _ in line_mode)
        pairs = sum(len(held[key]) for _, keys in line_mode for key in keys)
        tests = c.line_set(indices) if c.has_line_set(indices) or pairs >= c.set_worth * len(indices) else None
        if tests is None:
            for index, keys in line_mode:
                search = c.rules(index)[0]
                for key in keys:
                    for start, end in held[key].items():
                        if search.find(self._line(data, start, end), 0) >= 0:
                            self._line_hit(data, index, start, end, found)
            return
        lines = {}
        for held_lines in held.values():
            lines.update(held_lines)
        direct = c.direct
        for start, end in lines.items():
            if end - start > text.MAX_LINE:  # a set's DFA may run out on a long line, and then reports nothing
                for index, keys in line_mode:
                    if any(start in held[key] for key in keys) and c.rules(index)[0].find(self._line(data, start, end), 0) >= 0:
                        self._line_hit(data, index, start, end, found)
                continue
            for k in tests(data[start:end]):
                index = indices[k]
                if direct[index] and end - start <= text.MAX_LINE:  # the common case, inline: this runs for every hit
                    found.setdefault(index, {})[start] = None
                else:
                    self._line_hit(data, index, start, end, found)

    def _line_hit(self, data: bytes, index: int, start: int, end: int, found: dict) -> None:
        """The pattern matched the line: record it as the signature's hit if the line holds the
        signature's literal and `unless` does not match (for a line over MAX_LINE, in one of its
        windows), as the chunk search does."""
        c, line = self.compiled, self._line(data, start, end)
        if end - start > text.MAX_LINE:
            if self._has_literal(index, line):
                shown = self._line_verdict(index, self._long_text(data, start, end), *c.rules(index), start)
                if shown is not None:
                    found.setdefault(index, {})[start] = shown
        elif c.direct[index] or (self._has_literal(index, line) and not self._unless(index, line)):
            found.setdefault(index, {})[start] = None

    def _unless(self, index: int, line: bytes) -> bool:
        unless = self.compiled.rules(index)[1]
        return unless is not None and unless.search(line) is not None

    def _search_chunk(self, data: bytes, index: int, found: dict) -> None:
        """One signature through the whole chunk, match by match."""
        c = self.compiled
        search, unless = c.rules(index)
        pos, size, mine = 0, len(data), {}
        while pos <= size:
            at = search.find(data, pos)
            if at < 0:
                break
            start = data.rfind(b"\n", 0, at) + 1
            end = data.find(b"\n", at)
            end = size if end == -1 else end
            pos = end + 1
            if end - start <= text.MAX_LINE and (c.direct[index] or self._has_literal(index, data[start:end])):
                if c.direct[index] or unless is None or unless.search(data[start:end]) is None:
                    mine[start] = None
                continue
            shown = self._line_verdict(index, self._long_text(data, start, end), search, unless, start)
            if shown is not None:
                mine[start] = shown
        if mine:
            found.setdefault(index, {}).update(mine)

    def _line(self, data: bytes, start: int, end: int) -> bytes:
        """A line of the chunk; one over MAX_LINE is sliced once a chunk, however many signatures
        look at it (a line of megabytes may hold literals of a hundred)."""
        if end - start <= text.MAX_LINE:
            return data[start:end]
        if start not in self._long:
            self._long[start] = [data[start:end], None]
        return self._long[start][0]

    def _long_text(self, data: bytes, start: int, end: int) -> str:
        """A line over MAX_LINE, decoded once a chunk."""
        kept = self._long.get(start) or self._long.setdefault(start, [data[start:end], None])
        if kept[1] is None:
            kept[1] = kept[0].decode("utf-8", "replace")
        return kept[1]

    @staticmethod
    def _line_text(matchable: bytes, start: int, shown):
        if shown is not None:
            return shown
        end = matchable.find(b"\n", start)
        return matchable[start:len(matchable) if end == -1 else end]  # decoded only if it is kept

    def _keep_in_order(self, chunk: bytes, matchable: bytes, first: int, found: dict):
        """Keep the hits one by one in line order, reading the stamps of the first STAMPED_HITS:
        (their stamps, the chunk's number of line ends)."""
        line_no, cursor, stamps = first, 0, []
        in_order = sorted((start, index, shown) for index, hits in found.items() for start, shown in hits.items())
        for start, index, shown in in_order:
            line_no += chunk.count(b"\n", cursor, start)
            cursor = start
            shown = self._line_text(matchable, start, shown)
            if self._stamped < STAMPED_HITS:  # early hits' stamps count for staleness, in line order
                self._stamped += 1
                hit = _hit(line_no, shown)
                if hit.stamp:
                    stamps.append((line_no, *hit.stamp))
                self._keep_hit(index, hit)
            else:
                self._keep_hit(index, (line_no, shown))
        return stamps, line_no - first + chunk.count(b"\n", cursor)

    def _keep_by_signature(self, chunk: bytes, matchable: bytes, first: int, found: dict) -> int:
        """Once no more stamps are read, only each signature's count and its first and last
        HITS_KEPT hits matter, and only those need a line number. Returns the chunk's number of
        line ends."""
        kept = []  # (start, index, to the head?)
        for index, hits in found.items():
            starts = sorted(hits)
            self.result.counts[index] = self.result.counts.get(index, 0) + len(starts)
            head, _ = self._tails.setdefault(index, ([], deque(maxlen=HITS_KEPT)))
            room = max(HITS_KEPT - len(head), 0)
            kept += [(start, index, True) for start in starts[:room]]
            kept += [(start, index, False) for start in starts[room:][-HITS_KEPT:]]
        line_no, cursor = first, 0
        for start, index, to_head in sorted(kept):
            line_no += chunk.count(b"\n", cursor, start)
            cursor = start
            head, tail = self._tails[index]
            shown = self._line_text(matchable, start, found[index][start])
            if to_head:
                head.append(_hit(line_no, shown))
            else:
                tail.append((line_no, shown))
        return line_no - first + chunk.count(b"\n", cursor)

    def _has_literal(self, index: int, line: bytes) -> bool:
        hay = line.lower() if self.compiled.ignore_case[index] else line
        return any(lit in hay for lit in self.compiled.literal_bytes[index])

    def _line_verdict(self, index: int, line: str, search, unless, start: int):
        """The text to show when the signature matches this line (None when it does not): the line
        holds a literal, and the pattern matches while `unless` does not, in the line or (for a
        line over MAX_LINE) in one of its windows."""
        c = self.compiled
        positions = text.literal_positions(line, c.literals[index], c.ignore_case[index]) if c.literals[index] else [0]
        if not positions:
            return None
        if len(line) > text.MAX_LINE and start not in self._long_counted:  # each line once, whichever signatures try it
            self._long_counted.add(start)
            self.result.long_lines += 1
        for part in text.windows(line, positions):
            if search.find(part.encode("utf-8"), 0) >= 0 and not (unless is not None and unless.search(part) is not None):
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

    def _stamp_tail(self, chunk: bytes, last_no: int) -> list:
        """Stamps of the last lines of a chunk (the last is line `last_no`), read from the end: at
        most TAIL_STAMPS lines, and no further than the STAMPS_WANTED-th line that has a stamp."""
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

    def _steps(self, chunk: bytes, first: int, from_end: bool = False) -> list:
        """The first (or last) STEPS_KEPT step-time lines of a chunk, as ((line number, part), text):
        a line redrawn after carriage returns (a progress bar) holds one part per update. Each
        literal's next place is kept and searched again only once passed: a literal absent from
        the chunk is searched for once."""
        literals, kept = self.compiled.step_literal_bytes, []
        if not literals:
            return kept
        if from_end:
            places = {lit: chunk.rfind(lit) for lit in literals}  # the last of each
            while len(kept) < STEPS_KEPT and (at := max(places.values())) >= 0:
                start, end = _line_around(chunk, at)
                kept += self._step_parts(chunk, first, start, end, reverse=True)
                if start == 0:
                    break
                # earlier lines end before the LF at start - 1
                places = {lit: chunk.rfind(lit, 0, start - 1) if place >= start else place for lit, place in places.items()}
            return kept[:STEPS_KEPT]
        places = {lit: chunk.find(lit) for lit in literals}  # the first of each
        while len(kept) < STEPS_KEPT and (found := [at for at in places.values() if at >= 0]):
            start, end = _line_around(chunk, min(found))
            kept += self._step_parts(chunk, first, start, end, reverse=False)
            places = {lit: chunk.find(lit, end + 1) if 0 <= place <= end else place for lit, place in places.items()}
        return kept[:STEPS_KEPT]

    def _step_parts(self, chunk: bytes, first: int, start: int, end: int, reverse: bool) -> list:
        """The parts (between soft line ends) of one line that hold a step literal."""
        no = first + chunk.count(b"\n", 0, start)
        parts = list(enumerate(chunk[start:end].decode("utf-8", "replace").split("\r")))
        return [((no, part), line[:text.MAX_LINE]) for part, line in (reversed(parts) if reverse else parts)
                if any(lit in line for lit in self.compiled.step_literals)]

    def _informative(self, chunk: bytes, first: int, limit: int, from_end: bool = False) -> list:
        """Lines with error words, from the start (or the end) of a chunk: the sample full-text
        relevance reads from a long log. Soft line ends split a line for matching only. Only the
        lines a search of the whole chunk finds an error word in are read one by one: reading every
        line of a chunk of a million empty lines took seconds."""
        numbered = self._lines_with_words_from_end(chunk, first) if from_end else self._lines_with_words(chunk, first)
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

    def _lines_with_words(self, data: bytes, first: int):
        """(line number, text) of each line a search of the whole of `data` finds an error word in."""
        pos, line_no, cursor, search = 0, first, 0, self.compiled.informative_search
        while (at := search.find(data, pos)) >= 0:
            start, end = _line_around(data, at)
            line_no += data.count(b"\n", cursor, start)
            cursor, pos = start, end + 1
            yield line_no, data[start:end].decode("utf-8", "replace")

    def _lines_with_words_from_end(self, chunk: bytes, first: int):
        """The same, last line first, searched a window at a time from the end (each twice the one
        before): the reading stops once enough are kept, in a dense log after a few kilobytes."""
        hi, window = len(chunk), 1 << 12
        while hi >= 0:
            lo = chunk.rfind(b"\n", 0, hi - window) + 1 if hi > window else 0
            yield from reversed(list(self._lines_with_words(chunk[lo:hi], first + chunk.count(b"\n", 0, lo))))
            hi, window = lo - 1, window * 2


def _line_around(data: bytes, at: int) -> tuple:
    """The LF-delimited line holding offset `at`: (start, end)."""
    end = data.find(b"\n", at)
    return data.rfind(b"\n", 0, at) + 1, len(data) if end == -1 else end


def chunks(source, size: int = CHUNK):
    """Normalised chunks of a text (str or bytes, or an iterable of either) that end on line ends:
    (bytes without the final LF, cut) where `cut` marks a chunk ending inside a line longer than `size`.
    A piece is walked with an offset, not sliced chunk by chunk: slicing the rest of a 100 MB piece
    after each chunk made one big piece quadratic."""
    pieces = [source] if isinstance(source, (str, bytes)) else source
    carry = b""
    for piece in pieces:
        data = carry + (piece.encode("utf-8") if isinstance(piece, str) else piece)
        start = 0
        while len(data) - start > size:  # at exactly `size` the next piece may continue the line (or a UTF-8 sequence)
            end, start_next, cut = chunk_end(data, start, size)
            yield text.normalise_bytes(data[start:end]), cut
            start = start_next
        carry = data[start:]
    if carry.endswith(b"\n"):
        carry = carry[:-1]
        if carry.endswith(b"\r"):
            carry = carry[:-1]
    if carry:
        yield text.normalise_bytes(carry), False


def chunk_end(data: bytes, start: int, size: int) -> tuple:
    """Where the chunk of `data` from `start` ends, when more than `size` bytes follow: (its end,
    where the next starts, whether it ends inside a line). At the last LF within `size` bytes (and
    before the CR of a CRLF); in a line longer than `size`, at `size`, moved back out of a UTF-8
    sequence and a CRLF, but never to nothing: bytes that are not UTF-8 (a CR, then a chunk of
    continuation bytes) once moved the cut back to the start, and the scan looped for ever."""
    lf = data.rfind(b"\n", start, start + size)
    if lf != -1:
        return (lf - 1 if lf > start and data[lf - 1] == 0x0D else lf), lf + 1, False
    cut = start + size
    while cut > start + 1 and (data[cut] & 0xC0) == 0x80:  # not inside a UTF-8 sequence
        cut -= 1
    if data[cut - 1] == 0x0D and cut - 1 > start:        # nor between the CR and LF of one line end
        cut -= 1
    if cut - start < size // 2:  # not UTF-8: cut where the size says
        cut = start + size
    return cut, cut, True
