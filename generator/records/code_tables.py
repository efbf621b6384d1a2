"""Load and validate the code tables (codes/<family>.yaml), reporting every problem at once.

A table is valid when it passes schema/codes.schema.json (the single source of truth for the
format) and the checks a schema cannot express: the file is named after its family, every cite
and disagreement names one of the table's sources, each code appears once, and each SXid names
one of the table's groups. Reference ids (owner, references) are checked apart, against the
records and the planned references, by check_references().
"""
import json
from pathlib import Path

import jsonschema
import yaml

from .. import cache, paths
from .load import _display, _inline_refs, _schema_problem
from .problems import Problem, RecordErrors, field_name
from .yaml_lines import YamlProblem, load_with_lines

FAMILIES = ("xid", "sxid", "dcgm", "nccl", "cuda", "signals", "k8s", "slurm")


def entry_key(family: str, entry: dict):
    """What makes an entry unique in its table (and names its row)."""
    if family in ("xid", "sxid", "dcgm"):
        return entry["code"]
    if family == "nccl":
        return entry.get("name") or entry.get("id")
    if family in ("cuda", "signals"):
        return entry["name"]
    return entry["id"]


class CodeTables(dict):
    """family -> list of entries, as load_code_tables() returns it, that also remembers where each
    value came from (for problems found later) and each table's header (title, sources, notes)."""

    def __init__(self):
        super().__init__()
        self.files: dict = {}      # family -> display name of its file
        self.lines: dict = {}      # family -> {path tuple: line}
        self.headers: dict = {}    # family -> the table without its entries

    def where(self, family: str, *path) -> tuple[str, int]:
        """(file, line) of entries[path...] in the family's table."""
        lines = self.lines.get(family, {})
        path = ("entries",) + tuple(path)
        while path not in lines and path:
            path = path[:-1]
        return self.files.get(family, f"codes/{family}.yaml"), lines.get(path, 1)


def load_schema() -> dict:
    return json.loads(paths.CODES_SCHEMA.read_text(encoding="utf-8"))


def load_code_tables(folder: Path | None = None) -> CodeTables:
    """Every codes/*.yaml as {family: [entry, ...]}, or raise RecordErrors listing all problems.

    Each returned cite carries the url and title of the source it names, so a page can link it."""
    folder = Path(folder or paths.CODES)
    files = sorted(folder.glob("*.yaml")) + sorted(folder.glob("*.yml"))
    problems, tables = [], CodeTables()
    if not files:
        problems.append(Problem(str(folder), 0, "(codes)", "no *.yaml code tables found"))
    validator = jsonschema.Draft202012Validator(_inline_refs(load_schema()))
    for file in files:
        doc, lines, found = _load_one(file, validator)
        problems += found
        if doc is None:
            continue
        family = doc["family"]
        if family in tables:
            problems.append(Problem(_display(file), lines.get(("family",), 1), "family",
                                    f"{family!r} is already the family of {tables.files[family]}"))
            continue
        tables.files[family] = _display(file)
        tables.lines[family] = lines
        tables.headers[family] = {k: v for k, v in doc.items() if k != "entries"}
        tables[family] = [_resolve_cites(entry, doc["sources"]) for entry in doc["entries"]]
    if problems:
        raise RecordErrors(problems)
    return tables


def _load_one(file: Path, validator):
    """(table, lines, problems), from the cache when this file, the schema and the code are unchanged;
    the table is None when it has problems."""
    name, raw = _display(file), file.read_bytes()
    k = cache.key("codes", name, raw, paths.CODES_SCHEMA.read_bytes())
    hit = cache.get("codes", k)
    if hit is not None:
        lines = {tuple(p): n for p, n in hit["lines"]}
        return hit["data"], lines, [Problem(*p) for p in hit["problems"]]
    data, lines, problems = _parse_and_check(file, name, raw, validator)
    cache.put("codes", k, {"data": data, "lines": [[list(p), n] for p, n in lines.items()] if data is not None else [],
                           "problems": [[p.file, p.line, p.field, p.message] for p in problems]})
    return data, lines, problems


def _parse_and_check(file: Path, name: str, raw: bytes, validator):
    try:
        data, lines = load_with_lines(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        return None, {}, [Problem(name, 1, "(file)", f"not UTF-8 text: {exc}")]
    except YamlProblem as exc:
        return None, {}, [Problem(name, exc.line, exc.field, exc.message)]
    if not isinstance(data, dict):
        return None, {}, [Problem(name, 1, "(table)", "a code table must be a YAML mapping")]
    located = _Located(lines)
    problems = [_schema_problem(located, name, err) for err in _leaf_errors(validator.iter_errors(data))]
    if not problems:
        problems = _table_checks(file, name, data, located)
    return (data if not problems else None), lines, problems


class _Located:
    """What load._schema_problem needs of a record: the line of a path."""

    def __init__(self, lines: dict):
        self.lines = lines

    def line(self, path) -> int:
        path = tuple(path)
        while path not in self.lines and path:
            path = path[:-1]
        return self.lines.get(path, 1)


def _leaf_errors(errors):
    """The errors an author can act on: an if/then that failed is reported by what failed inside it."""
    for err in errors:
        if err.validator in ("if", "then", "allOf") and err.context:
            yield from _leaf_errors(err.context)
        else:
            yield err


def _table_checks(file: Path, name: str, data: dict, located: _Located) -> list[Problem]:
    problems = []

    def add(path, message):
        problems.append(Problem(name, located.line(path), field_name(path), message))

    family = data["family"]
    if file.stem != family:
        add(["family"], f"family {family!r} does not match the file name {file.name!r}")
    source_ids = set()
    for i, source in enumerate(data["sources"]):
        if source["id"] in source_ids:
            add(["sources", i, "id"], f"duplicate source id {source['id']!r}")
        source_ids.add(source["id"])
    group_ids = {g["id"] for g in data.get("groups", [])}
    seen = {}
    for i, entry in enumerate(data["entries"]):
        key = entry_key(family, entry)
        key_field = _key_field(family, entry)
        if key in seen:
            add(["entries", i, key_field], f"{key!r} is already entry {seen[key]} of this table")
        else:
            seen[key] = i
        for j, cite in enumerate(entry["cites"]):
            if cite["source"] not in source_ids:
                add(["entries", i, "cites", j, "source"], f"no source with id {cite['source']!r} in this table")
        for j, dis in enumerate(entry.get("disagreements", [])):
            for k, source in enumerate(dis["sources"]):
                if source not in source_ids:
                    add(["entries", i, "disagreements", j, "sources", k], f"no source with id {source!r} in this table")
        if family == "sxid" and entry["group"] not in group_ids:
            add(["entries", i, "group"], f"no group with id {entry['group']!r} in this table")
        if family == "xid" and entry.get("owner") and entry["owner"] in entry.get("references", []):
            add(["entries", i, "references"], "lists its owner again; references are the other references")
    return problems


def _key_field(family: str, entry: dict) -> str:
    if family in ("xid", "sxid", "dcgm"):
        return "code"
    if family == "nccl":
        return "name" if "name" in entry else "id"
    return "name" if family in ("cuda", "signals") else "id"


def _resolve_cites(entry: dict, sources: list) -> dict:
    by_id = {s["id"]: s for s in sources}
    entry = dict(entry)
    entry["cites"] = [{**cite, "url": by_id[cite["source"]]["url"], "title": by_id[cite["source"]]["title"]}
                      for cite in entry["cites"]]
    return entry


def planned_reference_ids(path: Path | None = None) -> set:
    """Ids of the references planned beyond the catalog (tests/data/planned-references.yaml)."""
    path = Path(path or paths.PLANNED_REFERENCES)
    if not path.is_file():
        return set()
    return {item["id"] for item in yaml.safe_load(path.read_text(encoding="utf-8")) or []}


def check_references(tables: dict, known_ids, planned_ids=None) -> list[Problem]:
    """Problems for every owner or references id that is neither a known reference nor a planned one.

    known_ids: the ids (and aliases) of the records; planned_ids: defaults to the planned references."""
    allowed = set(known_ids) | (planned_reference_ids() if planned_ids is None else set(planned_ids))
    where = getattr(tables, "where", None)
    problems = []
    for family, entries in tables.items():
        for i, entry in enumerate(entries):
            refs = [(("owner",), entry["owner"])] if entry.get("owner") else []
            refs += [(("references", j), ref) for j, ref in enumerate(entry.get("references", []))]
            for path, ref in refs:
                if ref in allowed:
                    continue
                file, line = where(family, i, *path) if where else (f"codes/{family}.yaml", 1)
                problems.append(Problem(file, line, field_name(["entries", i, *path]), f"no reference with id {ref!r}"))
    return sorted(problems)


def code_names(tables: dict) -> dict:
    """family -> the set of its entries' keys (Xid numbers, enum names, row ids)."""
    return {family: {entry_key(family, e) for e in entries} for family, entries in tables.items()}


__all__ = ["FAMILIES", "CodeTables", "load_code_tables", "check_references", "planned_reference_ids",
           "entry_key", "code_names", "load_schema"]

