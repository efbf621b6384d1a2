"""A cause's heading, from its title or its description: one rule for the reference page (heading
and the text under it) and the match index (the cause named in an answer)."""
import re

HEADING_MAX = 110
# A first sentence this little longer is the heading whole: cut at HEADING_MAX, it left a word or two
# ("…flaps.") to open the text below.
HEADING_SLACK = 30
CLAUSE_WORD = re.compile(r"(?:so|but|which|while|leaving|typically|for example|since|because|where|whose|"
                         r"then|often|making|until|unless|and)\b")
WEAK_ENDS = (" and", " or", " but", " so")
# A sentence ends at . ! or ? before a capital letter: "e.g. the" and "0.14" do not end one.
SENTENCE_END = re.compile(r"(?<=[.!?])[\"')]?\s+(?=[\"(A-Z])")


def split_first_sentence(text: str) -> tuple[str, str]:
    """The first sentence of a text and the rest (either may be empty): also the browse table's one
    line and the part of a cause shown under its heading."""
    text = " ".join(text.split())
    cut = SENTENCE_END.search(text)
    return (text[:cut.start()], text[cut.end():]) if cut else (text, "")


def cause_heading(cause: dict) -> tuple[str, str]:
    """A cause's heading and the text shown under it, so the heading is never repeated word for word
    as the first sentence below it: the title, else the first sentence (or, when that is long, its
    first clause), and the description from where the heading stops."""
    description = " ".join(cause["description"].split())
    if cause.get("title"):
        title = cause["title"]
        rest = description[len(title):] if description.lower().startswith(title.rstrip(".").lower()) else None
        return title, description if rest is None else _continue(rest)
    first, rest = split_first_sentence(description)
    if len(first) <= HEADING_MAX:
        return first.rstrip("."), rest
    cut = _clause_end(first)
    if cut is None and len(first) <= HEADING_MAX + HEADING_SLACK:
        return first.rstrip("."), rest
    after = (" " + rest) if rest else ""
    if cut:
        return first[:cut], _continue(first[cut:] + after)
    cut = first[:HEADING_MAX - 1].rindex(" ")
    return first[:cut].rstrip(",;:") + "…", "…" + first[cut + 1:] + after


def _clause_end(sentence: str) -> int | None:
    """Where the first clause of a long sentence ends, within HEADING_MAX characters: the last
    semicolon, colon or dash outside brackets and quotes, else the last comma that starts a clause
    (", so", ", which", ...) rather than continue a list; None if none."""
    strong, weak, depth, quoted = None, None, 0, False
    for i, ch in enumerate(sentence[:HEADING_MAX + 1]):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(0, depth - 1)
        elif ch == '"':
            quoted = not quoted
        elif depth == 0 and not quoted and i >= 30:
            nxt = sentence[i + 1:i + 2]
            if ch in ";:" and nxt == " " or ch in "—–" and sentence[i - 1:i] == " ":
                strong = i - (1 if ch in "—–" else 0)
            elif ch == "," and CLAUSE_WORD.match(sentence, i + 2) and not sentence[:i].endswith(WEAK_ENDS):
                weak = i
    return strong or weak


def _continue(text: str) -> str:
    """The rest of a sentence after its heading, as a sentence of its own."""
    text = text.lstrip(" .;:,—–").strip()
    return text[:1].upper() + text[1:] if text else ""
