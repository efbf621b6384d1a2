"""Jinja2 filters that put record text safely into Markdown."""
import html
import re


def text(value: str) -> str:
    """Prose from a record: Markdown is allowed, raw HTML is not (it shows as text)."""
    return html.escape(" ".join(str(value).split()), quote=False)


def cell(value) -> str:
    """Prose inside a Markdown table cell."""
    return text(value).replace("|", "\\|")


def attr(value) -> str:
    return html.escape(" ".join(str(value).split()), quote=True)


def fence(value: str, lang: str = "text") -> str:
    """A fenced code block that survives any content, backticks included."""
    longest = max((len(m) for m in re.findall(r"`+", value)), default=0)
    marks = "`" * max(3, longest + 1)
    return f"{marks}{lang}\n{value.rstrip()}\n{marks}"


def code(value: str) -> str:
    """Inline code that survives backticks in the content."""
    longest = max((len(m) for m in re.findall(r"`+", value)), default=0)
    marks = "`" * (longest + 1)
    pad = " " if value.startswith("`") or value.endswith("`") else ""
    return f"{marks}{pad}{value}{pad}{marks}"


def htmlcode(value) -> str:
    """Verbatim text as inline HTML code, safe in prose and in a Markdown table cell: nothing in
    it is read as Markdown, HTML or a column break."""
    return "<code>" + html.escape(" ".join(str(value).split()), quote=False).replace("|", "&#124;") + "</code>"


FILTERS = {"text": text, "cell": cell, "attr": attr, "fence": fence, "code": code, "htmlcode": htmlcode}
