"""How a match report is laid out: one plain form for pipes and files, and, on a terminal, prose
wrapped to its width and (unless NO_COLOR is set, https://no-color.org) coloured.

A report is a list of Lines. Only prose wraps: a command, a URL or a quoted log line is copied
from the terminal and pasted elsewhere, and a line break inside it would change what it says.
"""
import os
import re
import shutil
import sys
import textwrap
from dataclasses import dataclass

# Matched lines come from pasted logs: an escape sequence in one (a title change, a clear screen,
# an OSC 52 clipboard write) would act on the reader's terminal. Every control character but the
# newlines of the report prints as an escape, and so do the bidirectional overrides.
CONTROL = [*range(0x00, 0x0A), *range(0x0B, 0x20), *range(0x7F, 0xA0), 0x2028, 0x2029, *range(0x202A, 0x202F),
           *range(0x2066, 0x206A)]
VISIBLE = str.maketrans({code: f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" for code in CONTROL})

# SGR codes; applied after escaping and wrapping, so they are the only escapes printed and never
# counted in a line's width.
STYLES = {"answer": "1", "heading": "1", "strong": "1;32", "likely": "33", "weak": "2", "command": "36",
          "url": "34", "warning": "33"}
_HANG = re.compile(r"\s*(?:[-*]|\d+\.)?\s*")  # a wrapped item continues under its text, not its bullet


@dataclass
class Line:
    text: str                   # the line as printed unwrapped: the plain form, and prose to wrap
    style: str | None = None
    verbatim: bool = False      # never wrapped (a command, a URL)
    quote: str | None = None    # a quoted log line ending `text`; on a terminal it goes on its own line


def visible(text: str) -> str:
    return text.translate(VISIBLE)


def plain(lines: list[Line]) -> str:
    return visible("\n".join(line.text for line in lines))


def for_terminal(lines: list[Line], width: int, colour: bool) -> str:
    out = []
    for line in lines:
        text = visible(line.text)
        if line.verbatim or not text.strip():
            rows = [text]
        elif line.quote is not None:
            quote = visible(line.quote)
            prose = text[:len(text) - len(quote)].rstrip()
            rows = _wrap(prose, width) + [" " * (len(_HANG.match(prose).group()) + 2) + quote]
        else:
            rows = _wrap(text, width)
        code = STYLES.get(line.style) if colour else None
        out += [f"\x1b[{code}m{row}\x1b[0m" if code and row.strip() else row for row in rows]
    return "\n".join(out)


def _wrap(text: str, width: int) -> list[str]:
    indent = len(text) - len(text.lstrip(" "))
    # A URL or path inside prose is one word: it may move to the next row but is never cut.
    return textwrap.wrap(text.lstrip(" "), width=max(width, 20), initial_indent=" " * indent,
                         subsequent_indent=" " * len(_HANG.match(text).group()),
                         break_long_words=False, break_on_hyphens=False) or [text]


def stdout_is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):  # replaced or closed
        return False


def use_colour() -> bool:
    return stdout_is_terminal() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def render(lines: list[Line]) -> str:
    """The report as this process's standard output should get it."""
    if not stdout_is_terminal():
        return plain(lines)
    return for_terminal(lines, shutil.get_terminal_size().columns, use_colour())


def quiet_broken_pipe() -> None:
    """The reader went away (`relref match log | head`): send what is still buffered nowhere, so
    that the interpreter's last flush at exit cannot raise again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
