"""The pattern lint: a signature's pattern is ASCII, in the dialect both engines read alike
(match/dialect.py: RE2 syntax, which matches in linear time whatever the input), and keeps its
gaps bounded, so that it cannot reach across unrelated text of a long line.
"""
from ..match.dialect import PatternError, compile_rule, parse


def check(pattern: str) -> None:
    """Raise PatternError if the pattern is outside the dialect or has an unbounded gap."""
    if not pattern.isascii():
        raise PatternError("write patterns in ASCII: the engines fold case and classify other characters differently")
    alternatives, end = parse(pattern, 0)
    if end != len(pattern):
        raise PatternError(f"unbalanced ')' at position {end}")
    compile_rule(pattern)
    for seq in alternatives:
        _check_gaps(seq)


def _check_gaps(seq) -> None:
    for piece in seq:
        if piece.source == "." and piece.unbounded:
            raise PatternError("unbounded gap '.*' or '.+': bound it, as in '.{0,200}?'")
        for alt in piece.group:
            _check_gaps(alt)
