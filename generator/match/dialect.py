"""The one regex dialect of both engines: RE2, which matches in time linear in the input, so no
pattern and no pasted text can make matching hang. Python uses google-re2 and the browser re2js
(same syntax, no look-around, no back-references); a line matches a signature when its `pattern`
matches and its `unless` pattern does not.

This module also parses patterns (to find the literals every match must contain, the scan's
prefilter), and the lint in records/pattern_lint.py uses that parser. Python's own `re` is used
here only to read pattern text, never on pasted text.
"""
import functools
import re
from dataclasses import dataclass, field

import re2

# Escapes with the same meaning in both engines.
CLASS_ESCAPES = set("dDwWsS")
LETTER_ESCAPES = CLASS_ESCAPES | set("bBntr")
UNBOUNDED = None


class PatternError(ValueError):
    pass


@dataclass
class Piece:
    """One atom (literal, class, dot or group) and its quantifier."""
    source: str
    group: list = field(default_factory=list)  # alternatives, each a list of Pieces
    min: int = 1
    max: int | None = 1

    @property
    def repeats(self) -> bool:
        return self.max is UNBOUNDED or self.max > 1

    @property
    def unbounded(self) -> bool:
        return self.max is UNBOUNDED


MAX_MEM = 256 << 10  # bytes an RE2 object may take (program and DFA cache; past it RE2 runs its NFA)


def compile_rule(pattern: str, ignore_case: bool = False):
    """An RE2 regex that never matches across a line end (\\d, \\s, \\w and \\b are ASCII). Each
    keeps at most MAX_MEM: a scan holds some hundreds, and a one-line log of 1 GB peaked at 404 MB
    with RE2's default of 8 MiB each, 305 MB at 1 MiB (81 MB now, with cli._give_back)."""
    options = re2.Options()
    options.case_sensitive = not ignore_case
    options.never_nl = True
    options.log_errors = False
    options.max_mem = MAX_MEM
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        raise PatternError(f"does not compile in RE2: {exc}") from None


class ChunkSearch:
    """Where a pattern next matches in a chunk of bytes, at the speed of RE2 itself. The public
    google-re2 wrapper builds a generator and a match object on every call, about three times the
    cost of the match on a log line; the chunk scan only needs the start offset. This reaches the
    wrapper's own compiled object, which is why google-re2 is pinned to one release."""

    def __init__(self, pattern: str, ignore_case: bool = False):
        # (?m): ^ and $ hold at every line end of the chunk, as they do on a single line
        self.raw = compile_rule("(?m)" + pattern, ignore_case)._regexp

    def find(self, data: bytes, pos: int) -> int:
        return self.raw.Match(re2._Anchor.UNANCHORED, data, pos, len(data))[0][0]


class Signature:
    """A signature's test of one line: `pattern` matches and `unless` (if any) does not."""

    def __init__(self, pattern: str, ignore_case: bool = False, unless: str | None = None):
        self.regex = compile_rule(pattern, ignore_case)
        self.unless = compile_rule(unless, ignore_case) if unless else None

    def search(self, line) -> bool:
        return self.regex.search(line) is not None and not (self.unless and self.unless.search(line))


def compile_signature(pattern: str, ignore_case: bool = False, unless: str | None = None) -> Signature:
    return Signature(pattern, ignore_case, unless)


def parse(p, i):
    alternatives, seq = [], []
    while i < len(p):
        c = p[i]
        if c == ")":
            break
        if c == "|":
            alternatives.append(seq)
            seq, i = [], i + 1
            continue
        piece, i = _parse_atom(p, i)
        i = _parse_quantifier(p, i, piece)
        seq.append(piece)
    alternatives.append(seq)
    return alternatives, i


def _parse_atom(p, i):
    c = p[i]
    if c == "(":
        return _parse_group(p, i)
    if c == "[":
        end = _class_end(p, i)
        return Piece(p[i:end]), end
    if c == "\\":
        return Piece(_escape(p, i)), i + len(_escape(p, i))
    if c in "*+?":
        raise PatternError(f"quantifier '{c}' with nothing to repeat at position {i}")
    if c in "{}":
        raise PatternError(f"write a literal '{c}' as '\\{c}' (position {i}): the engines disagree on bare braces")
    return Piece(c), i + 1


def _parse_group(p, i):
    start = i
    i += 1
    if p.startswith(("?=", "?!", "?<=", "?<!"), i):
        raise PatternError(f"look-around at position {start}: RE2 has none; give the signature an `unless` pattern instead")
    if p.startswith("?:", i):
        i += 2
    elif p.startswith("?", i):
        raise PatternError(f"group syntax '(?{p[i+1:i+2]}' at position {start} is not in the dialect (use (?:...))")
    alternatives, i = parse(p, i)
    if i >= len(p):
        raise PatternError(f"unclosed '(' at position {start}")
    return Piece(p[start:i + 1], group=alternatives), i + 1


def _class_end(p, i):
    start, i = i, i + 1
    if p.startswith("^", i):
        i += 1
    if p.startswith("]", i):
        raise PatternError(f"empty or ']'-first class at position {start}: escape it as '\\]'")
    while i < len(p) and p[i] != "]":
        if p[i] == "\\":
            i += len(_escape(p, i))
            continue
        if p[i] == "[" or p[i:i + 2] in ("&&", "--", "||", "~~"):
            raise PatternError(f"'{p[i:i+2]}' inside a class at position {i}: escape it")
        i += 1
    if i >= len(p):
        raise PatternError(f"unclosed '[' at position {start}")
    return i + 1


def _escape(p, i):
    if i + 1 >= len(p):
        raise PatternError("pattern ends with a lone backslash")
    c = p[i + 1]
    if c == "x" and re.fullmatch(r"[0-9a-fA-F]{2}", p[i + 2:i + 4]):
        return p[i:i + 4]
    if c.isalnum() and c not in LETTER_ESCAPES:
        raise PatternError(f"escape '\\{c}' at position {i} is not read alike by Python and JavaScript")
    return p[i:i + 2]


def _parse_quantifier(p, i, piece):
    if i >= len(p):
        return i
    c = p[i]
    if c in "*+?":
        piece.min, piece.max = {"*": (0, UNBOUNDED), "+": (1, UNBOUNDED), "?": (0, 1)}[c]
        i += 1
    elif c == "{":
        m = re.match(r"\{(\d+)(,(\d*))?\}", p[i:])
        if not m:
            raise PatternError(f"write a literal '{{' as '\\{{' (position {i})")
        piece.min = int(m.group(1))
        piece.max = piece.min if m.group(2) is None else (int(m.group(3)) if m.group(3) else UNBOUNDED)
        i += m.end()
    else:
        return i
    if i < len(p) and p[i] == "?":
        i += 1
    if i < len(p) and p[i] in "*+{":
        raise PatternError(f"stacked quantifier at position {i}")
    return i


@functools.lru_cache(maxsize=None)
def required_literals(pattern: str) -> tuple[str, ...]:
    """Literals of which every match contains at least one ([] if none is worth looking for).

    The matcher looks for them with a plain substring search before running the regex, so most
    lines never reach a regex engine. A top-level or group alternation gives one literal per branch.
    """
    alternatives, _ = parse(pattern, 0)
    found = _any_of(alternatives)
    return tuple(found) if found and min(map(len, found)) >= MIN_LITERAL else ()


def required_literal(pattern: str) -> str:
    """The longest literal of required_literals when there is just one ('' otherwise)."""
    found = required_literals(pattern)
    return found[0] if len(found) == 1 else ""


MIN_LITERAL = 3


@functools.lru_cache(maxsize=None)
def all_required(pattern: str) -> tuple[str, ...]:
    """Literal runs every match contains, all of them (not one of several), besides those of
    required_literals: the runs of a pattern without a top-level alternation. The browser engine
    looks for them before running its (slower) regex on a line that holds a required literal."""
    alternatives, _ = parse(pattern, 0)
    if len(alternatives) != 1:
        return ()
    runs, run = [], ""
    for piece in alternatives[0] + [Piece(".")]:  # the dot ends the last run
        char = _literal_char(piece)
        if char is not None and piece.min == piece.max == 1:
            run += char
            continue
        if len(run) >= MIN_LITERAL:
            runs.append(run)
        run = ""
    chosen = required_literals(pattern)
    return tuple(r for r in runs if r not in chosen)


def _any_of(alternatives) -> list[str]:
    options = [_best_in_sequence(seq) for seq in alternatives]
    return [] if any(not o for o in options) else sorted({lit for o in options for lit in o})


def _best_in_sequence(seq) -> list[str]:
    """The best requirement of one sequence: a literal run, or an any-of set from a group."""
    best, run = [], ""

    def better(a, b):
        return a if (min(map(len, a)) if a else 0) >= (min(map(len, b)) if b else 0) else b

    for piece in seq:
        char = _literal_char(piece)
        if char is not None and piece.min == piece.max == 1:
            run += char
            best = better(best, [run])
            continue
        run = ""
        if piece.group and piece.min >= 1:
            best = better(best, _any_of(piece.group))
    return best


def _literal_char(piece: Piece):
    src = piece.source
    if piece.group or src.startswith("["):
        return None
    if len(src) == 1 and src not in ".^$|":
        return src
    if len(src) == 2 and src[0] == "\\" and not src[1].isalnum():
        return src[1]
    return None
