"""Normalisation and tokenising of log text for full-text relevance.

Twin: docs/assets/javascripts/match/tokenize.js; both must give
the same terms for the same text (tests/data/tokenizer-vectors.json holds shared cases).
ASCII only: any other character separates tokens. Masking removes what varies between
runs of the same failure (times, addresses, ids, numbers), so `[Rank 3]` and
`[Rank 117]` give the same terms.
"""
import re

# Order matters: longer shapes are masked before the numbers inside them.
MASKS = [
    r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?",  # ISO 8601, Python logging
    r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",  # UUID
    r"\b0x[0-9a-fA-F]+\b",  # hex literal
    r"\b[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}(?:\.[0-9a-fA-F])?\b",  # PCI address
    r"\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b",  # IPv4 (and port)
    r"\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b",  # clock time
    r"\b(?=[0-9a-fA-F]*\d)(?=[0-9a-fA-F]*[a-fA-F])[0-9a-fA-F]{8,}\b",  # hex id (8+ chars, letters and digits)
    r"(?<=[Rr]ank)\d+",  # rank0, rank117
    r"(?<![A-Za-z0-9])\d+(?:\.\d+)?",  # numbers: pids, sizes, durations (A100 and cuda12 keep theirs)
]
MASK = re.compile("|".join(f"(?:{m})" for m in MASKS), re.ASCII)
NON_ASCII = re.compile(r"[^\x00-\x7f]")
SPLIT = re.compile(r"[^a-z0-9_]+")
STOP_WORDS = frozenset("""a an and are as at be but by for from has have in into is it its of on or
that the this to was were will with not no line file py self none true false""".split())
MAX_TOKEN = 40


def normalise(text: str) -> str:
    """The line with what varies between runs masked (used for grouping repeated lines)."""
    return MASK.sub(" ", NON_ASCII.sub(" ", text))


def tokenize(text: str) -> list[str]:
    """Terms for full-text relevance, in order, repeats kept."""
    terms = []
    for token in SPLIT.split(normalise(text).lower()):
        token = token.strip("_")
        if 2 <= len(token) <= MAX_TOKEN and token not in STOP_WORDS and not token.isdigit():
            terms.append(token)
    return terms
