"""Load and validate the code tables (codes/<family>.yaml), reporting every problem at once.

A table is valid when it passes schema/codes.schema.json (the single source of truth for the
format) and the checks a schema cannot express: the file is named after its family, every cite
and disagreement names one of the table's sources, each code appears once, and each SXid names
one of the table's groups. Reference ids (owner, references) are checked apart, against the
records and the planned references, by check_references().
"""
import json
import re
from dataclasses import dataclass, field
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
    buckets = {b["name"] for b in data.get("buckets", [])}
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
        if family == "xid":
            for column in ("immediate_action", "investigatory_action"):
                if entry.get(column) and entry[column] not in buckets:
                    add(["entries", i, column], f"bucket {entry[column]!r} has no gloss in the table's buckets")
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


# --- the codes a row stands for, which codes have a page, and where each code links ----------

# The kind of code each family's rows stand for, as URLs and the match engine name it.
KIND_OF_FAMILY = {"xid": "xid", "sxid": "sxid", "dcgm": "dcgm", "nccl": "nccl", "cuda": "cuda", "signals": "signal",
                  "k8s": "k8s", "slurm": "slurm"}
FAMILY_OF_KIND = {**{kind: family for family, kind in KIND_OF_FAMILY.items()}, "exit": "signals"}
LOCKED_CODE_PAGE = re.compile(r"^/codes/([^/#]+)/([^/#]+)/$")


def row_anchor(family: str, entry: dict) -> str:
    """The id of the entry's row on its family's page (/codes/<family>/#<anchor>)."""
    if family in ("xid", "sxid"):
        return f"{family}-{entry['code']}"
    if family in ("dcgm", "cuda", "signals"):
        return entry["name"]
    if family == "nccl":
        return entry.get("name") or entry["id"]
    return entry["id"]


def row_codes(family: str, entry: dict) -> list[tuple[str, str, str]]:
    """(kind, name, slug) of each code the row stands for, its own first: the name is how logs and
    the match engine name the code, the slug the last part of its page's URL should it have one.
    A signal's row also stands for the two exit statuses it gives (128 + N and -N)."""
    if family in ("xid", "sxid"):
        number = str(entry["code"])
        return [(family, number, number)]
    if family == "signals":
        name = entry["name"]
        return [("signal", name, name)] + [("exit", str(s), str(s)) for s in (entry["shell_status"], entry["python_status"])]
    if family == "slurm":  # names have spaces and differ from each other only in case (DEADLINE, DeadLine)
        return [("slurm", entry["name"], entry["id"])]
    name = entry["reason"] if family == "k8s" else entry.get("name") or entry["id"]
    return [(KIND_OF_FAMILY[family], name, name)]


def row_aliases(family: str, entry: dict) -> list[tuple[str, str]]:
    """Other names the match engine may read for the row's own code: DCGM's deprecated enum names,
    and the "DUE TO ..." part of a Slurm cancellation line, which is what its detector captures."""
    if family == "dcgm":
        return [("dcgm", alias) for alias in entry.get("aliases", [])]
    if family == "slurm" and entry["kind"] == "message" and entry["name"].startswith("CANCELLED DUE TO "):
        return [("slurm", entry["name"][len("CANCELLED "):])]
    return []


def printed_texts(tables: dict) -> dict:
    """What cudaGetErrorString and ncclGetErrorString print, current and earlier texts, to the code's name."""
    nccl = {}
    for e in tables.get("nccl", []):
        if e["kind"] == "result":
            for text in [e["text"]] + [h["text"] for h in e.get("text_history", [])]:
                nccl.setdefault(text, e["name"])
    cuda = {}
    for e in tables.get("cuda", []):
        cuda[e["text"]] = e["name"]
        if e["text"].endswith("."):  # a line's sentence ends where the text does; detectors stop before the stop
            cuda.setdefault(e["text"][:-1], e["name"])
    return {"cuda": cuda, "nccl": nccl}


@dataclass(frozen=True)
class Mention:
    """A reference that names a code: a signature whose example prints it, or (signature None) the
    record's own text. `printed` is the code the line names when that is an equivalent of this one
    (exit status 137 for SIGKILL), else None."""
    ref: str
    signature: str | None
    printed: tuple | None = None
    by_pattern: bool = False  # the example prints `printed`; the signature's pattern takes this Xid in its place


# How a record's prose names codes: "Xid 48", "Xids 94 and 95", "Xid 144-149", "SXid 20034".
XID_TEXT = re.compile(r"\bXids? (\d{1,3})(?:(?:-|\u2013| to )(\d{1,3}))?\b")
SXID_TEXT = re.compile(r"\bSXids? (\d{5})\b")
XID_LINE = re.compile(r"\bXid (?:\(PCI:[0-9A-Fa-f:.]{4,20}\):? ?)?(\d{1,3})\b")
PRINTF = re.compile(r"%(?:<[A-Za-z0-9_]+>|[-+ #0]*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|z|j|t|L)?[diouxXeEfgGcspn])")
MAX_XID_VARIANTS = 12  # a pattern that takes more Xid numbers than this takes any: only the example's counts
TEXT_FIELDS_SKIPPED = {"pattern", "unless", "seen_at", "source", "likelihood_source", "fix_url", "url"}


def mentions(tables: dict, records) -> dict:
    """{(kind, name): [Mention, ...]}: the codes each reference names, read with the match engine's
    detectors and the tables' own texts. A signature names the codes its example prints (and the
    other Xid numbers its pattern takes in the example's place); the record's prose names the codes
    it mentions. A signal and its exit statuses are one event: a line that prints one names all three."""
    from ..match.codes import Detector
    reader = _CodeReader(tables, Detector())
    found: dict = {}
    for record in records:
        named_here = set()
        for sig in record.data["signatures"]:
            in_example = reader.in_line(sig["example"])
            example_xids = sorted(c for c in in_example if c[0] == "xid")
            for code, printed in reader.equivalents(in_example):
                found.setdefault(code, []).append(Mention(record.id, sig["id"], printed))
                named_here.add(code)
            for code in sorted(_xid_variants(sig, reader.xids) - in_example):
                found.setdefault(code, []).append(Mention(record.id, sig["id"], example_xids[0] if example_xids else None,
                                                          by_pattern=True))
                named_here.add(code)
        # Prose names the codes it spells out; a signal named in passing does not name its exit statuses.
        for code in sorted(reader.in_prose("\n".join(_prose(record.data))) - named_here):
            found.setdefault(code, []).append(Mention(record.id, None))
    return found


class _CodeReader:
    def __init__(self, tables: dict, detector):
        self.detector, self.texts = detector, printed_texts(tables)
        self.own = {}   # alias -> the row's own code
        self.rules = []  # (literal the line must hold, regex, how much of it is literal, code, family)
        self.signal_of = {}  # exit status -> signal name
        for family, entries in tables.items():
            for e in entries:
                kind, name, _ = row_codes(family, e)[0]
                for alias in row_aliases(family, e):
                    self.own[alias] = (kind, name)
                for literal, rx, weight in _table_rules(family, e):
                    self.rules.append((literal, rx, weight, (kind, name), family))
                if family == "signals":
                    self.signal_of[str(e["shell_status"])] = self.signal_of[str(e["python_status"])] = e["name"]
        self.statuses = {}
        for status, name in self.signal_of.items():
            self.statuses.setdefault(name, []).append(status)
        self.xids = sorted(e["code"] for e in tables.get("xid", []))

    def _detected(self, text: str) -> set:
        found = {self.own.get(code, code) for code in self.detector.codes_in(text, self.texts)}
        if "Cuda failure" in text:  # NCCL's "Cuda failure" WARN quotes CUDA's text ('invalid argument'), not its own
            found = {(k, n) for k, n in found if k != "nccl" or n in text}
        return found

    def in_line(self, line: str) -> set:
        """The codes a printed line names. Of several formats of one family that match, the most
        literal wins (a DCGM template with more fixed words over a generic one)."""
        best: dict = {}
        for literal, rx, weight, code, family in self.rules:
            if literal in line and rx.search(line):
                if weight > best.get(family, (0, set()))[0]:
                    best[family] = (weight, {code})
                elif weight == best[family][0]:
                    best[family][1].add(code)
        return self._detected(line).union(*(codes for _, codes in best.values()))

    def in_prose(self, text: str) -> set:
        found = self._detected(text) | {("sxid", m.group(1)) for m in SXID_TEXT.finditer(text)}
        for m in XID_TEXT.finditer(text):
            first, last = int(m.group(1)), int(m.group(2) or m.group(1))
            found |= {("xid", str(n)) for n in range(first, (last if 0 <= last - first <= 20 else first) + 1)}
        return found

    def equivalents(self, codes: set) -> list:
        """(code, printed) for every code named, a signal's exit statuses and an exit status's signal
        added with the code that was printed."""
        out = {code: None for code in codes}
        for kind, name in sorted(codes):
            signal = name if kind == "signal" else self.signal_of.get(name) if kind == "exit" else None
            if signal is None:
                continue
            for other in [("signal", signal)] + [("exit", s) for s in self.statuses.get(signal, [])]:
                out.setdefault(other, (kind, name))
        return sorted(out.items(), key=lambda item: (item[0], item[1] or ()))


def _table_rules(family: str, entry: dict) -> list:
    """(literal, regex, weight) for the lines a table says software prints for the entry: NCCL's WARN
    formats, Slurm's messages, DCGM's message templates (at the start of a line: DCGM prints them
    so), and the Key=Value, 'Reason:' and event forms Slurm and Kubernetes print states and reasons
    in. `literal` is a piece every matching line holds; `weight` how much of the format is fixed text."""
    formats = []
    if family == "nccl" and entry["kind"] == "warn":
        formats = [f["format"] for f in entry["formats"]]
    elif family == "slurm" and entry["kind"] == "message":
        formats = [entry.get("format") or entry["name"]]
    elif family == "dcgm":
        formats = [entry["message"]]
    rules = [rule for rule in (_format_rule(f, anchored=family == "dcgm") for f in formats) if rule is not None]
    if family == "slurm" and entry["kind"] in ("state", "reason"):
        name = re.escape(entry["name"])
        rules.append((entry["name"], re.compile(r"\b(?:JobState|State|Reason)=" + name + r"\b"), 1))
    if family == "k8s":
        reason = re.escape(entry["reason"])
        rules.append((entry["reason"], re.compile(r"(?:\b[Rr]eason:?\s{1,20}|\b(?:Warning|Normal)\s{1,20})" + reason + r"\b"), 1))
    return rules


# What each printf conversion can print, so "GPU %d has fallen off the bus" does not take "GPU 0000:2b:00.0: GPU".
CONVERSIONS = {"d": r"-?[0-9]{1,20}", "i": r"-?[0-9]{1,20}", "u": r"[0-9]{1,20}", "x": r"(?:0x)?[0-9A-Fa-f]{1,16}",
               "X": r"(?:0x)?[0-9A-Fa-f]{1,16}", "c": r".", "f": r"[-+0-9.eE]{1,30}", "e": r"[-+0-9.eE]{1,30}",
               "g": r"[-+0-9.eE]{1,30}"}


def _format_rule(fmt: str, anchored: bool = False):
    """A printf format as (its longest literal piece, a regex, its count of literal letters); None when
    too little of it is fixed text to say a line was printed by it."""
    fmt = fmt.strip()
    pieces, convs = PRINTF.split(fmt), PRINTF.findall(fmt)
    weight = len(re.sub(r"[^A-Za-z]", "", "".join(pieces)))
    if weight < 10:
        return None
    rx = "".join(re.escape(piece) + (_conversion(convs[i]) if i < len(convs) else "") for i, piece in enumerate(pieces))
    return max(pieces, key=len), re.compile((r"^\s*" if anchored else "") + rx), weight


def _conversion(spec: str) -> str:
    if spec.startswith("%<"):
        return r"[0-9]{1,20}"
    return CONVERSIONS.get(spec[-1], r".{0,200}?")


def _xid_variants(sig: dict, numbers) -> set:
    """The Xid numbers (of `numbers`, the table's) a signature's pattern takes in place of its
    example's, e.g. (?:62|94)."""
    from ..match.dialect import compile_signature
    m = XID_LINE.search(sig["example"])
    if not m:
        return set()
    regex = compile_signature(sig["pattern"], sig.get("ignore_case", False))
    text = sig["example"]
    taken = [n for n in numbers if regex.search(text[:m.start(1)] + str(n) + text[m.end(1):])]
    return {("xid", str(n)) for n in taken} if len(taken) <= MAX_XID_VARIANTS else {("xid", m.group(1))}


def _prose(value, key=None):
    """Every string of a record but its signatures' examples (read as lines) and its patterns and URLs."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k not in TEXT_FIELDS_SKIPPED and not (k == "signatures"):
                yield from _prose(v, k)
            elif k == "signatures":
                for sig in v:
                    yield from _prose({kk: vv for kk, vv in sig.items() if kk != "example"})
    elif isinstance(value, list):
        for v in value:
            yield from _prose(v, key)
    elif isinstance(value, str):
        yield value


@dataclass
class CodePage:
    """A code with a page of its own, /codes/<kind>/<slug>/. `rows` are the table rows it stands for
    (two Kubernetes rows share DeadlineExceeded); empty for a published page whose code has no row."""
    kind: str
    name: str
    slug: str
    rows: list = field(default_factory=list)

    @property
    def url(self) -> str:
        return f"codes/{self.kind}/{self.slug}/"


class CodeIndex:
    """What code_pages() decided: the rows each code stands for, the codes with pages, the
    references that name each code, and the link for any code."""

    def __init__(self, tables: dict, pages: dict, rows: dict, aliases: dict, named: dict):
        self.tables, self.pages, self._rows, self._aliases, self.named = tables, pages, rows, aliases, named

    def code(self, kind: str, name: str) -> tuple:
        """The code a printed name stands for: an alias resolved to the row's own code."""
        return self._aliases.get((kind, str(name)), (kind, str(name)))

    def rows(self, kind: str, name: str) -> list:
        return self._rows.get(self.code(kind, name), [])

    def page(self, kind: str, name: str):
        return self.pages.get(self.code(kind, name))

    def url(self, kind: str, name: str):
        """A code's link from the site root: its page; else, for an exit status, its signal's page;
        else its row on the family's page; None for a code the tables do not have."""
        page = self.page(kind, name)
        if page:
            return page.url
        rows = self.rows(kind, name)
        if not rows:
            return None
        family, entry = rows[0]
        own = row_codes(family, entry)[0]
        if own[:2] != self.code(kind, name) and (own[0], own[1]) in self.pages:
            return self.pages[(own[0], own[1])].url
        return f"codes/{family}/#{row_anchor(family, entry)}"

    def row_url(self, family: str, entry: dict) -> str:
        kind, name, _ = row_codes(family, entry)[0]
        return self.url(kind, name)


def code_pages(tables: dict, records, locked=()) -> CodeIndex:
    """The one rule for which codes have a page of their own at /codes/<kind>/<slug>/, followed by the
    codes pages, the API and the match index alike:

    - every Xid that NVIDIA's catalog applies to at least one GPU;
    - any other code of a table row, once a reference names it (a signature's example prints it or
      the record's text mentions it);
    - every code page already published (`locked`, the (kind, slug) pairs of urls.lock), kept even
      when its code has no row, so a published URL keeps resolving.

    Every other code is a row of its family's page, /codes/<family>/#<anchor>."""
    named = mentions(tables, records)
    locked = set(locked)
    rows, aliases, slugs = {}, {}, {}
    for family, entries in tables.items():
        for entry in entries:
            codes = row_codes(family, entry)
            for kind, name, slug in codes:
                rows.setdefault((kind, name), []).append((family, entry))
                slugs.setdefault((kind, name), slug)
            for alias in row_aliases(family, entry):
                aliases[alias] = codes[0][:2]
    pages = {}
    for code, code_rows in rows.items():
        kind, name = code
        applies = kind == "xid" and any(any(e.get("applies_to", {}).values()) for _, e in code_rows)
        if applies or code in named or (kind, slugs[code]) in locked:
            pages[code] = CodePage(kind, name, slugs[code], code_rows)
    by_slug = {(p.kind, p.slug) for p in pages.values()}
    for kind, slug in sorted(locked - by_slug):
        pages[(kind, slug)] = CodePage(kind, slug, slug, [])
    return CodeIndex(tables, pages, rows, aliases, named)


def locked_code_pages(urls) -> set:
    """(kind, slug) of every code page among the locked URLs."""
    found = (LOCKED_CODE_PAGE.match(u) for u in urls)
    return {(m.group(1), m.group(2)) for m in found if m}


def read_locked_code_pages(lock: Path | None = None) -> set:
    """locked_code_pages() of a lock file (default: the repository's urls.lock)."""
    lock = Path(lock or paths.URL_LOCK)
    if not lock.is_file():
        return set()
    return locked_code_pages(line.strip() for line in lock.read_text(encoding="utf-8").splitlines())


__all__ = ["FAMILIES", "CodeTables", "load_code_tables", "check_references", "planned_reference_ids",
           "entry_key", "code_names", "load_schema", "KIND_OF_FAMILY", "FAMILY_OF_KIND", "row_anchor", "row_codes",
           "row_aliases", "printed_texts", "Mention", "mentions", "CodePage", "CodeIndex", "code_pages",
           "locked_code_pages", "read_locked_code_pages"]

