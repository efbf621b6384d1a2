"""Load and validate every record, reporting every problem at once.

A record is valid when it passes the JSON Schema (the single source of truth for
the format) and the checks a schema cannot express: ids that must exist, patterns
that must compile in both regex dialects and match their own examples, and URLs
that must be listed among the record's sources.
"""
import datetime
import json
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path

import jsonschema

from .. import cache, paths
from .figures import chart_problems
from .files import FileProblem, read_record, record_files
from ..match.dialect import PatternError, compile_signature
from .pattern_lint import check as check_pattern
from .problems import Problem, RecordErrors, field_name
from .prose import prose_fields, prose_problems
from .yaml_lines import YamlProblem, load_with_lines

URL_FIELDS = ("seen_at", "source", "likelihood_source", "fix_url")
# mkdocs builds references/index.md as /references/ itself, while the API and the canonical URL
# would say /references/index/.
RESERVED_IDS = {"index"}


@dataclass
class Record:
    path: Path
    data: dict
    lines: dict

    @property
    def id(self) -> str:
        return self.data["id"]

    def line(self, path) -> int:
        path = tuple(path)
        while path not in self.lines and path:
            path = path[:-1]
        return self.lines.get(path, 1)


def load_schema() -> dict:
    return json.loads(paths.SCHEMA.read_text(encoding="utf-8"))


def _inline_refs(schema: dict) -> dict:
    """The schema with its local $refs replaced by their definitions: validation then needs no
    reference resolution, which is most of jsonschema's time on a large catalog."""
    defs = schema.get("$defs", {})

    def inline(node):
        if isinstance(node, dict):
            if node.get("$ref", "").startswith("#/$defs/"):
                rest = {k: v for k, v in node.items() if k != "$ref"}
                return {**inline(defs[node["$ref"].rsplit("/", 1)[1]]), **rest}
            return {k: inline(v) for k, v in node.items() if k != "$defs"}
        return [inline(v) for v in node] if isinstance(node, list) else node
    return inline(schema)


def load_records(records_dir: Path | None = None) -> list[Record]:
    """Return every record, sorted by id, or raise RecordErrors listing all problems."""
    records_dir = Path(records_dir or paths.RECORDS)
    if not records_dir.is_dir():
        raise RecordErrors([Problem(str(records_dir), 0, "(records)", "not a folder of records")])
    files = record_files(records_dir)
    problems, records = [], []
    if not files:
        problems.append(Problem(str(records_dir), 0, "(records)", "no *.yaml records found"))
    validator = jsonschema.Draft202012Validator(_inline_refs(load_schema()),
                                                format_checker=jsonschema.FormatChecker(formats=("date",)))
    known = set()  # ids of every file that parsed, valid or not: one broken record is reported once
    for file in files:
        record, found = _load_one(file, validator)
        if record is not None:
            found = found or _date_checks(record)  # outside the cache: it depends on today
        problems += found
        if record is not None and not found:
            records.append(record)
        known.add(file.stem)
    problems += _cross_checks(records, known)
    if problems:
        raise RecordErrors(problems)
    return sorted(records, key=lambda r: r.id)


def _load_one(file: Path, validator):
    """A record and its problems, from the cache when this file, the schema and the code are unchanged."""
    name = _display(file)
    try:
        raw = read_record(file)
    except FileProblem as exc:
        return None, [Problem(name, 1, "(file)", str(exc))]
    k = cache.key("record", name, raw)
    hit = cache.get("records", k)
    if hit is not None:
        record = Record(file, hit["data"], {tuple(p): n for p, n in hit["lines"]}) if hit["valid"] else None
        return record, [Problem(*p) for p in hit["problems"]]
    record, problems = _parse_and_check(file, name, raw, validator)
    cache.put("records", k, {"valid": record is not None, "data": record.data if record else None,
                             "lines": [[list(p), n] for p, n in record.lines.items()] if record else [],
                             "problems": [[p.file, p.line, p.field, p.message] for p in problems]})
    return record, problems


def _parse_and_check(file: Path, name: str, raw: bytes, validator):
    try:
        data, lines = load_with_lines(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        return None, [Problem(name, 1, "(file)", f"not UTF-8 text: {exc}")]
    except YamlProblem as exc:
        return None, [Problem(name, exc.line, exc.field, exc.message)]
    if not isinstance(data, dict):
        return None, [Problem(name, 1, "(record)", "a record must be a YAML mapping")]
    record = Record(file, data, lines)
    problems = [_schema_problem(record, name, err) for err in validator.iter_errors(data)]
    if not problems:
        problems = _record_checks(record, name)
    return (record if not problems else None), problems


def _schema_problem(record, name, err) -> Problem:
    path = list(err.absolute_path)
    message = err.message
    if err.validator == "required":
        missing = re.search(r"'([^']+)' is a required property", err.message)
        path.append(missing.group(1) if missing else "?")
        message = "missing required field"
    elif err.validator == "additionalProperties":
        unknown = re.findall(r"'([^']+)'", err.message)
        extra = [u for u in unknown if u not in err.schema.get("properties", {})]
        if extra:
            path.append(extra[0])
            message = f"unknown field (allowed: {', '.join(sorted(err.schema.get('properties', {})))})"
    elif err.validator == "oneOf" and all("const" in o for o in err.validator_value):
        message = f"{err.instance!r} is not one of {[o['const'] for o in err.validator_value]}"
    elif err.validator in ("anyOf", "oneOf") and err.validator_value:
        options = [" or ".join(o.get("required", [])) for o in err.validator_value]
        message = f"needs exactly one of: {', '.join(options)}" if err.validator == "oneOf" else f"needs one of: {', '.join(options)}"
    elif err.validator == "type" and "version" in field_name(path):
        message = f"{err.message} (quote versions: YAML reads 0.10 as the number 0.1)"
    elif err.validator == "pattern" and path and path[-1] in URL_FIELDS + ("url",):
        message = f"not an http(s) URL: {err.instance!r}"
    elif err.validator in ("pattern", "format") and err.schema.get("format") == "date":
        message = f"not a date (YYYY-MM-DD): {err.instance!r}"
    elif err.validator == "maxLength":
        message = f"{len(err.instance)} characters: at most {err.validator_value} allowed"
    elif err.validator == "maxItems":
        message = f"{len(err.instance)} items: at most {err.validator_value} allowed"
    return Problem(name, record.line(path), field_name(path), message)


def _record_checks(record: Record, name: str) -> list[Problem]:
    data, problems = record.data, []

    def add(path, message):
        problems.append(Problem(name, record.line(path), field_name(path), message))

    if record.path.stem != data["id"]:
        add(["id"], f"id {data['id']!r} does not match the file name {record.path.name!r}")
    for path, slug in [(["id"], data["id"])] + [(["aliases", i], a) for i, a in enumerate(data.get("aliases", []))]:
        if slug in RESERVED_IDS:
            add(path, f"{slug!r} is reserved: the folder's own page would take its URL")
    for path, value in _numbers(data):
        if not math.isfinite(value):
            add(path, f"{value} is not a finite number (YAML reads .inf and .nan as numbers): give the published value")
    for path, target in _references(data):
        if target == data["id"]:
            add(path, "names this reference itself")
    for path, text in prose_fields(data):
        for message in prose_problems(text):
            add(path, message)
    for section in ("signatures", "causes", "evidence", "figures"):
        seen = set()
        for i, item in enumerate(data.get(section, [])):
            if item["id"] in seen:
                add([section, i, "id"], f"duplicate id {item['id']!r} in {section}")
            seen.add(item["id"])
    cause_ids = {c["id"] for c in data["causes"]}
    for i, sig in enumerate(data["signatures"]):
        for j, cause_id in enumerate(sig.get("causes", [])):
            if cause_id not in cause_ids:
                add(["signatures", i, "causes", j], f"no cause with id {cause_id!r} in this record")
        linted = [_lint(sig, key) for key in ("pattern", "unless") if key in sig]
        for key, error in filter(None, linted):
            add(["signatures", i, key], error)
        if any(linted):
            continue
        if not compile_signature(sig["pattern"], sig.get("ignore_case", False)).search(sig["example"]):
            add(["signatures", i, "pattern"], "does not match its own example")
        elif "unless" in sig and compile_signature(sig["unless"], sig.get("ignore_case", False)).search(sig["example"]):
            add(["signatures", i, "unless"], "matches the signature's own example, so the example would not match")
        if data["kind"] != "error" and sig["role"] != "symptom":
            add(["signatures", i, "role"], f"a {data['kind']} reference prints nothing of its own: its signatures are symptoms")
    checks = {e["id"] for e in data["evidence"]}
    for i, cause in enumerate(data["causes"]):
        for j, check_id in enumerate(cause["checks"]):
            if check_id not in checks:
                add(["causes", i, "checks", j], f"no evidence check with id {check_id!r}")
    for i, check in enumerate(data["evidence"]):
        for key in ("confirms", "rules_out"):
            for j, cause_id in enumerate(check.get(key, [])):
                if cause_id not in cause_ids:
                    add(["evidence", i, key, j], f"no cause with id {cause_id!r}")
    for path, message in chart_problems(data.get("figures", [])):
        add(path, message)
    listed = {s["url"] for s in data["sources"]}
    for path, url in _cited_urls(data):
        if url not in listed:
            add(path, f"cites {url} which is not listed in sources")
    if data.get("status") == "retired" and "successor" not in data:
        add(["successor"], "a retired reference must name its successor")
    return problems


def _lint(sig: dict, key: str):
    """(key, message) when the signature's pattern or unless-pattern fails the lint."""
    try:
        check_pattern(sig[key])
    except PatternError as exc:
        return key, str(exc)
    return None


def _numbers(value, path=()):
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _numbers(child, path + (key,))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _numbers(child, path + (i,))
    elif isinstance(value, float):
        yield list(path), value


def _latest_date_on_earth() -> datetime.date:
    """Today where the date is furthest ahead (UTC+14), so no reviewer's real today is rejected."""
    return datetime.datetime.now(datetime.timezone(datetime.timedelta(hours=14))).date()


def _date_checks(record: Record) -> list[Problem]:
    reviewed = datetime.date.fromisoformat(record.data["last_reviewed"])
    if reviewed > _latest_date_on_earth():
        return [Problem(_display(record.path), record.line(["last_reviewed"]), "last_reviewed",
                        f"{reviewed} is in the future: give the date the record was checked")]
    return []


def _cited_urls(value, path=()):
    if isinstance(value, dict):
        for key, child in value.items():
            if key in URL_FIELDS and isinstance(child, str):
                yield list(path) + [key], child
            elif key != "sources":
                yield from _cited_urls(child, path + (key,))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            yield from _cited_urls(child, path + (i,))


def _cross_checks(records: list[Record], known: set) -> list[Problem]:
    problems, owner = [], {}
    for record in records:
        for key, slug in [("id", record.id)] + [(("aliases", i), a) for i, a in enumerate(record.data.get("aliases", []))]:
            path = [key] if isinstance(key, str) else list(key)
            if slug in owner:
                problems.append(Problem(_display(record.path), record.line(path), field_name(path),
                                        f"{slug!r} is already used by {owner[slug]}"))
            else:
                owner[slug] = _display(record.path)
    ids = {r.id for r in records} | known
    for record in records:
        for path, target in _references(record.data):
            if target not in ids:
                problems.append(Problem(_display(record.path), record.line(path), field_name(path),
                                        f"no reference with id {target!r}"))
    return problems + _successor_cycles(records) + _twin_causes(records)


def _twin_causes(records: list[Record]) -> list[Problem]:
    """A cause's `same_as` names a cause of another reference that names it back: a twin that
    points elsewhere, or at nothing, would send a reader to the wrong story."""
    causes = {r.id: {c["id"]: c for c in r.data["causes"]} for r in records}
    problems = []
    for record in records:
        for i, cause in enumerate(record.data["causes"]):
            twin = cause.get("same_as")
            if twin is None or twin["ref"] not in causes:
                continue  # an unknown reference is reported by _references
            path = ["causes", i, "same_as", "cause"]
            other = causes[twin["ref"]].get(twin["cause"])
            if twin["ref"] == record.id:
                message = "a cause's twin is on another reference, not this one"
            elif other is None:
                message = f"{twin['ref']} has no cause {twin['cause']!r}"
            elif other.get("same_as") != {"ref": record.id, "cause": cause["id"]}:
                message = f"{twin['ref']}'s cause {twin['cause']!r} does not name this cause back in its same_as"
            else:
                continue
            problems.append(Problem(_display(record.path), record.line(path), field_name(path), message))
    return problems


def _successor_cycles(records: list[Record]) -> list[Problem]:
    """Successors that lead back to where they started: a reader following them never arrives."""
    successor = {r.id: r.data["successor"] for r in records if "successor" in r.data}
    problems = []
    for record in records:
        chain, current = [record.id], successor.get(record.id)
        while current is not None and current not in chain:
            chain.append(current)
            current = successor.get(current)
        if current == record.id and len(chain) > 1:
            problems.append(Problem(_display(record.path), record.line(["successor"]), "successor",
                                    "successors form a cycle: " + " -> ".join(chain + [record.id])))
    return problems


def _references(data):
    for i, alike in enumerate(data.get("look_alikes", [])):
        if "ref" in alike:
            yield ["look_alikes", i, "ref"], alike["ref"]
    for i, sig in enumerate(data.get("signatures", [])):
        for j, other in enumerate(sig.get("overlaps", [])):
            yield ["signatures", i, "overlaps", j], other
    if "successor" in data:
        yield ["successor"], data["successor"]
    for i, cause in enumerate(data.get("causes", [])):
        if "same_as" in cause:
            yield ["causes", i, "same_as", "ref"], cause["same_as"]["ref"]


def _display(path: Path) -> str:
    # abspath, not resolve(): a symlink loop must be named, not followed.
    absolute = os.path.abspath(path)
    try:
        return str(Path(absolute).relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def load_audit(ref_id: str, audit_dir: Path | None = None) -> dict | None:
    """A record's audit (audit/<id>.yaml, where the dates its sources were checked live), or None
    when it has none; RecordErrors naming FILE:LINE when it is not YAML the build can read."""
    file = Path(audit_dir or paths.AUDIT) / f"{ref_id}.yaml"
    if not file.is_file():
        return None
    try:
        data, _ = load_with_lines(file.read_text(encoding="utf-8"))
    except YamlProblem as exc:
        raise RecordErrors([Problem(_display(file), exc.line, exc.field, exc.message)]) from None
    except UnicodeDecodeError as exc:
        raise RecordErrors([Problem(_display(file), 1, "(file)", f"not UTF-8 text ({exc.reason})")]) from None
    return data


def load_audits(records: list[Record], audit_dir: Path | None = None) -> dict:
    """Each record's audit (None where it has none), read before anything is written; every audit
    the build cannot read is reported at once, as FILE:LINE."""
    audits, problems = {}, []
    for record in records:
        try:
            audits[record.id] = load_audit(record.id, audit_dir)
        except RecordErrors as errors:
            problems += errors.problems
    if problems:
        raise RecordErrors(problems)
    return audits
