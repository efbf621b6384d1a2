"""The words of log text that carry meaning for full-text relevance, in a normal form.

Twin: docs/assets/javascripts/match/tokenize.js; both must give the same terms for the same text
(tests/data/tokenizer-vectors.json holds shared cases). ASCII only: any other character separates
words. Left out, from the score and from the words an answer shows: URLs; the directories of a path
(a path keeps what follows site-packages, else only its file name); numbers, sizes and durations
(600000ms, 12GiB); hex ids and addresses; common English words; the words of Python tracebacks,
launchers' prefixes and environment paths (miniconda3, envs, lib, site, packages, python3). Digits
after a word are dropped (rank0 -> rank, cuda12 -> cuda) except in names of hardware and number
formats (a100, bf16). Word forms meet (resume, resuming, resumed -> resum; preempted, preemptible,
preemption -> preempt) by stripping one suffix.
"""
MAX_TOKEN = 40
MIN_STEM = 3

STOP_WORDS = frozenset("""
a about above after again against all also am an and any are as at be because been before being below
between both but by can could did do does doing done down during each either else ever every few for
from further get got had has have having he her here hers him his how however i if in into is it its itself
just least less let like made make many may me might more most much must my near need neither never new
next no nor not now of off often on once one only or other others our out over own per perhaps please
put rather really same see seem seen shall she should since so some such than that the their them then
there these they this those though through thus to too two under until up upon us use used using very
via was we well were what when where whether which while who whom whose why will with within without
would yet you your
line file py self none true false traceback most recent call last module main init wrapper inner
args kwargs lambda return raise raised during handling above exception another occurred
home usr local lib lib64 bin opt root envs env conda miniconda anaconda site packages dist python
venv src tmp var mnt workspace user users stdout stderr localhost default
ms us ns sec secs seconds min mins minutes hr hrs hours kb mb gb tb kib mib gib tib bytes
info debug trace log logs logging time date pid tid rank ranks name names type value key id size
cpp cc cu hpp py pyx so
""".split())
KEEP_DIGITS = frozenset("""
a10 a10g a30 a40 a100 a800 a6000 b100 b200 b300 gb200 gb300 h20 h100 h200 h800 l4 l40 l40s t4 v100 p100
mi100 mi210 mi250 mi250x mi300 mi300x fp4 fp8 fp16 fp32 fp64 bf16 int4 int8 zero1 zero2 zero3 sm80 sm90
""".split())
SUFFIXES = ("ibility", "ability", "itions", "ations", "ition", "ation", "ators", "ating", "ator", "ated", "ates",
            "ibles", "ables", "ible", "able", "ions", "ings", "ments", "ment", "ness", "ion", "ing", "ate", "ies",
            "ied", "ers", "ors", "er", "or", "ed", "es", "ly", "s", "e")
_SEPARATE = "".join(chr(c) for c in range(128) if not (chr(c).isalnum() or chr(c) == "_"))
_SPLIT_TABLE = str.maketrans({**{ch: " " for ch in _SEPARATE}, **{chr(c): chr(c + 32) for c in range(65, 91)}})
HEX = frozenset("0123456789abcdef")


def tokenize(text: str) -> list[str]:
    """Terms for full-text relevance, in order, repeats kept."""
    return [term for term, _ in tokenize_words(text)]


def tokenize_words(text: str) -> list[tuple[str, str]]:
    """(term, the word as written, lower-cased) for each term: answers show the words, not stems."""
    if not text.isascii():
        text = "".join(ch if ch < "\x80" else " " for ch in text)
    out = []
    terms: dict = {}  # a paste repeats its words (65,000 of one took 0.7 s to stem); kept for this call only
    for word in text.split():
        for part in _word_parts(word):
            for token in part.translate(_SPLIT_TABLE).split():
                if token not in terms:
                    terms[token] = _term(token)
                term = terms[token]
                if term:
                    out.append((term, token.strip("_")))
    return out


def _word_parts(word: str) -> list[str]:
    """A whitespace-separated word as the pieces that can carry meaning."""
    if "://" in word:
        return []
    if "/" in word and (word[0] in "/~." or word.count("/") >= 2):
        parts = word.split("/")
        for anchor in ("site-packages", "dist-packages"):
            if anchor in parts:
                return parts[len(parts) - parts[::-1].index(anchor):]
        return parts[-1:]
    return [word]


def _term(token: str) -> str | None:
    token = token.strip("_")
    if token in KEEP_DIGITS:
        return token
    if len(token) < 2 or len(token) > MAX_TOKEN:
        return None
    if token.isdigit() or token.startswith("0x") or (len(token) >= 4 and set(token) <= HEX and not token.isalpha()):
        return None
    letters = token.rstrip("0123456789")
    if not letters or any(ch.isdigit() for ch in letters):
        return None  # a number with a unit (600000ms, 12gib) or a mixed id
    if letters in STOP_WORDS or len(letters) < 2:
        return None
    term = stem(letters)
    return None if term in STOP_WORDS else term


def stem(word: str) -> str:
    """Strip one suffix, keeping at least MIN_STEM letters; -ies/-ied become -y; a doubled final
    consonant left by -ed or -ing is halved (stopped -> stop), except ll, ss and zz; a word ending
    in -ss, -us or -is keeps its s (process, status)."""
    for suffix in SUFFIXES:
        if suffix == "s" and word.endswith(("ss", "us", "is")):
            continue
        if word.endswith(suffix) and len(word) - len(suffix) >= MIN_STEM:
            root = word[:-len(suffix)]
            if suffix in ("ies", "ied"):
                return root + "y"
            if suffix in ("ed", "ing", "ings") and len(root) >= 2 and root[-1] == root[-2] and root[-1] not in "lsz" \
                    and root[-1] not in "aeiou":
                return root[:-1]
            return root
    return word
