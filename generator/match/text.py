"""How pasted text is read before anything matches it, the same way in both engines.

Under RE2, `\\s` and `\\d` are ASCII in Python and in the browser alike, so the engines agree by
normalising first: the Unicode spaces below become a space; typographic quotes become ASCII ones
(a forum or chat editor curls the quotes of a pasted message, and patterns spell them straight);
U+2028, U+2029 and U+0085 end a line; CRLF is one line end; a lone CR (progress bars) also ends a
line for matching. Line numbers count LF line ends only, as `grep -n` does, so soft line ends are
kept as CR. Lengths are code points.
Twin: docs/assets/javascripts/match/text.js.
"""
import re2

SPACES = "\u00a0" + "".join(chr(c) for c in range(0x2000, 0x200B)) + "\u202f\u205f\u3000"
SOFT_ENDS = "\u2028\u2029\u0085"
QUOTES = {"'": "\u2018\u2019\u201a\u201b", '"': "\u201c\u201d\u201e\u201f"}  # ASCII quote: its typographic forms
MAX_LINE = 4096        # code points of a line a pattern sees at once
HALF_WINDOW = 2048     # a longer line is matched in windows reaching this far before a literal

_REPLACEMENT = {ch.encode("utf-8"): b"\r" if ch in SOFT_ENDS else b" " for ch in SOFT_ENDS + SPACES}
_REPLACEMENT.update({ch.encode("utf-8"): plain.encode() for plain, forms in QUOTES.items() for ch in forms})
_LEADS = sorted({seq[:1] for seq in _REPLACEMENT})  # a single byte is found at memchr speed
_SEQUENCES = sorted(_REPLACEMENT)
_OPTIONS = re2.Options()
_OPTIONS.encoding = re2.Options.Encoding.LATIN1  # byte by byte: the patterns spell UTF-8 sequences
_PRESENT = re2.Set.SearchSet(_OPTIONS)  # which sequences a text holds, in one pass
for _sequence in _SEQUENCES:
    _PRESENT.Add(re2.escape(_sequence))
_PRESENT.Compile()


def normalise_bytes(data: bytes) -> bytes:
    """UTF-8 text with CRLF as LF, soft line ends as CR, Unicode spaces and quotes as ASCII ones."""
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n")
    if any(lead in data for lead in _LEADS):
        # One replace per sequence present, not one substitution call per occurrence (a chunk of
        # U+2028 took a second). The sequences never overlap and their replacements are ASCII,
        # which no sequence holds, so the order does not matter.
        for k in _PRESENT.Match(data) or ():
            data = data.replace(_SEQUENCES[k], _REPLACEMENT[_SEQUENCES[k]])
    return data


def normalise_text(text: str) -> str:
    """The same rules on a str (the context line, and the shared test vectors)."""
    text = text.replace("\r\n", "\n")
    for ch in SOFT_ENDS:
        text = text.replace(ch, "\r")
    for ch in SPACES:
        text = text.replace(ch, " ")
    for plain, forms in QUOTES.items():
        for ch in forms:
            text = text.replace(ch, plain)
    return text


def windows(line: str, positions):
    """The parts of a line a pattern sees, one at a time: the whole line when it is at most
    MAX_LINE code points, else one window of MAX_LINE code points starting HALF_WINDOW before each
    literal position. Made on demand: a megabyte line holds thousands of literals, and the caller
    stops at the first window that matches."""
    if len(line) <= MAX_LINE:
        yield line
        return
    for at in sorted(set(positions)):
        start = max(0, at - HALF_WINDOW)
        yield line[start:start + MAX_LINE]


ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def ascii_lower(text: str) -> str:
    """Lower-case A-Z only, so offsets stay put (str.lower() changes lengths for a few letters)."""
    return text.translate(ASCII_LOWER)


def literal_positions(line: str, literals, ignore_case: bool) -> list[int]:
    """Every position in `line` where one of the literals starts."""
    hay = ascii_lower(line) if ignore_case else line
    out = []
    for literal in literals:
        at = hay.find(literal)
        while at != -1:
            out.append(at)
            at = hay.find(literal, at + 1)
    return out
