"""The pattern lint: a signature's pattern must be in the shared dialect (match/dialect.py)
and must not hold quantifiers able to backtrack without bound, since it runs on hostile input.
"""
import re

from ..match.dialect import PatternError, Piece, parse

PROBE_CHARS = [chr(c) for c in range(32, 127)] + ["\t"]


def check(pattern: str) -> None:
    """Raise PatternError if the pattern is outside the shared subset or can blow up."""
    if not pattern.isascii():
        raise PatternError("write patterns in ASCII: the engines fold case and classify other characters differently")
    alternatives, end = parse(pattern, 0)
    if end != len(pattern):
        raise PatternError(f"unbalanced ')' at position {end}")
    try:
        re.compile(pattern)
    except re.error as exc:
        raise PatternError(f"does not compile in Python: {exc}") from None
    for seq in alternatives:
        _check_sequence(seq, inside_repeat=False)


def _check_sequence(seq, inside_repeat):
    previous = None
    for piece in seq:
        if piece.source == "." and piece.unbounded:
            raise PatternError("unbounded gap '.*' or '.+': bound it, as in '.{0,200}?'")
        if piece.group:
            if inside_repeat and piece.repeats:
                raise PatternError(f"nested quantifier in {piece.source!r}: it can backtrack without bound")
            for alt in piece.group:
                _check_sequence(alt, inside_repeat or piece.repeats)
        elif inside_repeat and piece.repeats:
            raise PatternError(f"quantifier on {piece.source!r} inside a repeated group: it can backtrack without bound")
        if previous is not None and piece.unbounded and previous.unbounded and _overlap(previous, piece):
            raise PatternError(f"{previous.source!r} and {piece.source!r} repeat over the same characters side by side: "
                               "it can backtrack without bound")
        previous = piece if piece.min == 0 or piece.unbounded else None


def _overlap(a: Piece, b: Piece) -> bool:
    try:
        ra, rb = re.compile(a.source), re.compile(b.source)
    except re.error:
        return True
    return any(ra.fullmatch(ch) and rb.fullmatch(ch) for ch in PROBE_CHARS)
