"""Jinja2 filters that put record text safely into Markdown, HTML and front matter.

Templates are autoescaped (write.py), so a value placed without a filter is HTML-escaped.
Each filter returns Markup: it has done the escaping its context needs.

Record text is of two kinds. Output and commands (examples, patterns, commands, printed_by,
versions, code spans) are shown as code, exactly as written, so `<defunct>` stays `<defunct>`:
in fenced blocks, or inline as <code> with every character escaped. Prose is Markdown with raw
HTML escaped, and nothing in it may reach beyond inline formatting and links: no attribute list
(`{: onclick=…}`), no image, no block (a heading, list or admonition started by the text). Link
targets are limited at render time by safe_links.py and at validation by records/prose.py.
"""
import html
import re

import yaml
from markupsafe import Markup

# A code span: a run of backticks, up to the next run of the same length (as Markdown reads it).
CODE_SPAN = re.compile(r"(?<!\\)(`+)(.+?)(?<!`)\1(?!`)", re.S)
# What Markdown would read as the start of a block when prose begins a line or a list item.
BLOCK_START = re.compile(r"""^(?:
    \#{1,6}(?:\s|$)              # heading
  | [-+*](?:\s|$)                # bullet
  | \d{1,9}[.)](?:\s|$)          # numbered item
  | (?:[-*_]\s*){3,}$            # rule
  | =+\s*$                       # underline of a heading
  | !!!|\?\?\?                   # admonition, details
  | ```|~~~                      # fence
  | :\s                          # definition
  | \[[^\]]*\]:                  # link reference definition
)""", re.X)


def _entity(char: str) -> str:
    return f"&#{ord(char)};"


def _code_html(value: str) -> str:
    """Inline code as raw <code>, every character HTML or Markdown could read spelled as an
    entity. Not a Markdown code span: inside a `markdown` HTML block (md_in_html), Python-Markdown
    parses tags and comments before it sees code spans, so `<div markdown="1">` in one becomes a div."""
    return "<code>" + "".join(c if c.isalnum() or c == " " else _entity(c) for c in value) + "</code>"


def _prose_part(part: str) -> str:
    """Escape text outside code spans: HTML, attribute-list braces, image marks, lone backticks."""
    part = html.escape(part, quote=False)  # quotes matter only in attributes, which Markdown escapes itself
    part = part.replace("{", _entity("{")).replace("}", _entity("}"))  # attribute lists are {…}
    part = part.replace("![", _entity("!") + "[")  # an image, even from this host, is markup the record adds
    return part.replace("`", _entity("`"))  # unpaired: it would open a code span across the template's markup


def text(value) -> Markup:
    """Prose from a record: inline Markdown; raw HTML, attribute lists and blocks show as text."""
    value = " ".join(str(value).split())
    out, end = [], 0
    for span in CODE_SPAN.finditer(value):
        out += [_prose_part(value[end:span.start()]), _code_html(span.group(2).strip())]
        end = span.end()
    out.append(_prose_part(value[end:]))
    escaped = "".join(out)
    if BLOCK_START.match(value) and escaped.startswith(value[0]):
        escaped = _entity(value[0]) + escaped[1:]
    if escaped.endswith("\\"):
        escaped = escaped[:-1] + _entity("\\")  # it would escape the template's next character
    return Markup(escaped)


def cell(value) -> Markup:
    """Prose inside a Markdown table cell."""
    return Markup(text(value).replace("|", "\\|"))


def attr(value) -> Markup:
    """Text inside raw HTML, in an attribute or between tags."""
    return Markup(html.escape(" ".join(str(value).split()), quote=True))


def front_matter(value) -> Markup:
    """A value for the page's front matter. The theme prints page.meta (title, description) into
    <title>, the header and an attribute without escaping, so it is escaped here, then written as
    a YAML scalar by the YAML library."""
    escaped = html.escape(" ".join(str(value).split()), quote=True)
    return Markup(yaml.safe_dump(escaped, default_style='"', allow_unicode=True, width=1 << 30).rstrip("\n"))


def url(value) -> Markup:
    """A link target in Markdown, in <…> so a ')' in the URL cannot end the link early. A backtick
    would open a code span in it and a backslash escape its next character, so both are
    percent-encoded (browsers send a backtick as %60 anyway)."""
    target = html.escape(str(value), quote=True).replace("`", "%60").replace("\\", "%5C")
    return Markup(f"<{target}>")


def fence(value: str, lang: str = "text") -> Markup:
    """A fenced code block that survives any content, backticks included."""
    longest = max((len(m) for m in re.findall(r"`+", value)), default=0)
    marks = "`" * max(3, longest + 1)
    return Markup(f"{marks}{lang}\n{value.rstrip()}\n{marks}")


def code(value) -> Markup:
    """Inline code, shown exactly as written whatever it holds."""
    return Markup(_code_html(" ".join(str(value).split())))


FILTERS = {"text": text, "cell": cell, "attr": attr, "front_matter": front_matter, "url": url,
           "fence": fence, "code": code}
