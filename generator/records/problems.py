"""A problem found in a record, reported as FILE:LINE: FIELD: message."""
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Problem:
    file: str
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.field}: {self.message}"


class RecordErrors(Exception):
    """Raised with every problem found, so an author sees them all at once."""

    def __init__(self, problems):
        self.problems = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


def field_name(path) -> str:
    """('signatures', 0, 'pattern') -> 'signatures[0].pattern'."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(record)"
