"""`relref migrate`: rewrite records of an earlier format version to the current one, in place.

Edits are made on the text, line by line, so an author's comments, quoting and layout survive.
Version 1 -> 2: `schema_version: 2`; a cause's `likelihood: unknown` is dropped (the page then lists
causes in the order to check them); any other likelihood gets `likelihood_source`, the cause's own
source, for a reviewer to confirm; a `fixed_in` string that is not "<software> <release>" moves into
its mitigation's text, since version 2 holds only a release there.
"""
import re
from pathlib import Path

RELEASE = re.compile(r"^(?P<software>[A-Za-z][\w.-]*)\s+v?(?P<version>\d+(?:\.\d+){1,3})$")


def migrate_file(path: Path) -> list[str]:
    """Rewrite one record from version 1 to 2; returns what was changed, one line each."""
    lines = path.read_text(encoding="utf-8").split("\n")
    if not any(l.strip() == "schema_version: 1" for l in lines):
        return []
    out, notes = [], []
    for i, line in enumerate(lines):
        stripped, indent = line.strip(), line[:len(line) - len(line.lstrip())]
        if stripped == "schema_version: 1":
            out.append(f"{indent}schema_version: 2")
        elif stripped == "likelihood: unknown":
            notes.append(f"{path.name}:{i + 1}: dropped 'likelihood: unknown'")
        elif stripped.startswith("likelihood: "):
            out.append(line)
            source = _sibling(lines, i, "source")
            if source:
                out.append(f"{indent}likelihood_source: {source}")
                notes.append(f"{path.name}:{i + 1}: likelihood_source set to the cause's source; confirm it says so")
            else:
                out.pop()
                notes.append(f"{path.name}:{i + 1}: dropped '{stripped}': the cause has no source to give it")
        elif stripped.startswith("fixed_in: "):
            value = _unquote(stripped[len("fixed_in: "):])
            m = RELEASE.match(value)
            if m:
                out += [f"{indent}fixed_in:", f"{indent}  software: {m['software'].lower()}", f"{indent}  version: \"{m['version']}\""]
            else:
                _append_to_text(out, f"(Fix: {value}.)")
                notes.append(f"{path.name}:{i + 1}: fixed_in {value!r} is not '<software> <release>': moved into the text")
        else:
            out.append(line)
    path.write_text("\n".join(out), encoding="utf-8")
    return notes


def migrate_folder(folder: Path) -> list[str]:
    return [n for f in sorted(Path(folder).glob("*.yaml")) for n in migrate_file(f)]


def _sibling(lines, i, key):
    """The value of `key:` in the same list item as line i (a key at the same indentation)."""
    indent = len(lines[i]) - len(lines[i].lstrip())
    start = i
    while start > 0 and not lines[start].lstrip().startswith("- "):
        start -= 1
    end = i + 1
    while end < len(lines) and (not lines[end].strip() or len(lines[end]) - len(lines[end].lstrip()) >= indent):
        end += 1
    for line in lines[start:end]:
        body = line.strip()[2:] if line.lstrip().startswith("- ") else line.strip()
        depth = len(line) - len(line.lstrip()) + (2 if line.lstrip().startswith("- ") else 0)
        if depth == indent and body.startswith(f"{key}: "):
            return body[len(key) + 2:]
    return None


def _append_to_text(out: list, addition: str) -> None:
    """Add a sentence to the mitigation's `text:` (a plain, quoted or folded scalar) above."""
    for j in range(len(out) - 1, -1, -1):
        stripped = out[j].strip()
        if stripped.startswith(("text: ", "- text: ")):
            head, value = out[j].split("text: ", 1)
            if value in (">-", ">", "|", "|-"):
                k = j + 1
                while k < len(out) and out[k].startswith(" " * (len(head) + 2)):
                    k += 1
                out.insert(k, " " * (len(out[j + 1]) - len(out[j + 1].lstrip())) + addition)
            else:
                out[j] = f"{head}text: {_quote(_unquote(value) + ' ' + addition)}"
            return


def _unquote(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        inner = value[1:-1]
        return inner.replace("''", "'") if value[0] == "'" else inner.replace('\\"', '"')
    return value


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
