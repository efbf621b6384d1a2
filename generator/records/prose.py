"""Checks on a record's prose: what would still change a page's markup after the page escapes it.

Prose renders as Markdown with raw HTML escaped (pages/markdown.py), so `<defunct>` or
`<class 'int'>` in prose is text and is never rejected. What Markdown itself turns into markup
is rejected here with its field: an attribute list (`{: onclick=…}`, `{#id}`, `{.class}`) and a
link to anything but an http(s) or relative address (`javascript:`, `data:`). The page escapes
attribute lists and drops such links anyway; rejecting them tells the author.
"""
import html
import re

# Fields that are not Markdown: code shown exactly as written, link targets (schema-checked
# http(s) URLs) and chart text placed in raw SVG. Nothing in them becomes markup.
NOT_PROSE = {"example", "pattern", "command", "printed_by", "fixed_in", "versions",
             "seen_at", "source", "url", "chart", "label"}
CODE_SPAN = re.compile(r"(?<!\\)(`+)(.+?)(?<!`)\1(?!`)", re.S)
ATTRIBUTE_LIST = re.compile(r"\{(?::[^}\n]*|[ ]*(?:[#.][^\s}]|[^\s=}]+=)[^}\n]*)\}")
LINK_TARGETS = [re.compile(r"\]\(\s*<?\s*([^)>\s]*)"),  # [text](target) and ![alt](target)
                re.compile(r"\[[^\]\n]*\]:\s*<?\s*(\S+)")]  # [label]: target
SAFE_SCHEMES = {"http", "https"}
SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
# A browser drops leading C0 controls and spaces, and tabs and newlines anywhere, before it reads a scheme.
LEADING = "".join(map(chr, range(0x21)))


def safe_url(value: str) -> bool:
    """True for a relative URL or an http(s) one, however many times its entities are decoded
    (HTML serializers leave text that looks like an entity as it is, so the browser decodes it)."""
    for _ in range(4):
        visible = re.sub(r"[\t\n\r]", "", value).lstrip(LEADING)
        scheme = SCHEME.match(visible)
        if scheme and scheme.group(1).lower() not in SAFE_SCHEMES:
            return False
        decoded = html.unescape(value)
        if decoded == value:
            return True
        value = decoded
    return False


def prose_fields(value, path=()):
    """(path, text) for every string of a record that renders as prose."""
    if isinstance(value, dict):
        for key, child in value.items():
            if not (key in NOT_PROSE and isinstance(child, str)):
                yield from prose_fields(child, path + (key,))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from prose_fields(child, path + (i,))
    elif isinstance(value, str):
        yield list(path), value


def prose_problems(text: str) -> list[str]:
    outside_code = CODE_SPAN.sub(" ", text)
    problems = []
    if found := ATTRIBUTE_LIST.search(outside_code):
        problems.append(f"{found.group(0)!r} is a Markdown attribute list, which would set HTML attributes: "
                        "put braces meant as text in a code span")
    for pattern in LINK_TARGETS:
        for target in pattern.findall(outside_code):
            if not safe_url(target):
                problems.append(f"a link to {target!r}: links go only to http(s) and relative addresses")
    return problems
