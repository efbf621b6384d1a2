"""The codes index built from the code tables: every applicable Xid and every code a reference names
has a page, the family pages hold every entry as an anchored row, the API says what the tables say,
the match engine links exactly the pages that exist, and each owned code has one owning reference
whose signature for it is a cause while the others defer to it."""
import html
import json
import re
from urllib.parse import urlsplit

import jsonschema
import pytest
from referencing import Registry, Resource

from relref import paths
from relref.match import load_engine
from relref.records.code_tables import (FAMILY_OF_KIND, code_pages, entry_key, load_code_tables, mentions,
                                        read_locked_code_pages, row_anchor, row_codes)
from relref.records.load import load_records
from sitecheck import Page
from engines import on_both_engines

built_site = on_both_engines()  # each test here that reads the built site reads mkdocs' and Zensical's

# Owned codes that no public source prints verbatim, so no reference has a signature for them:
# the owner explains them in its text and the table names it, and no other reference claims them.
NO_VERBATIM_LINE = {
    ("xid", "92"): "gpu-memory-errors: no verbatim Xid 92 line in a public report or the open driver",
    ("xid", "150"): "gb200: no verbatim Xid 150 line; its NVLink-family symptom pattern assumes the 149 format",
}


@pytest.fixture(scope="module")
def tables():
    return load_code_tables()


@pytest.fixture(scope="module")
def records():
    return load_records()


@pytest.fixture(scope="module")
def index(tables, records):
    return code_pages(tables, records, read_locked_code_pages())


@pytest.fixture(scope="module")
def api(built_site):
    return json.loads((built_site / "api" / "v1" / "codes.json").read_text(encoding="utf-8"))


_PAGES: dict = {}


def page_of(site, url_path: str):
    """The built page at a site-relative path ('codes/xid/79/', 'codes/xid/#xid-1'), and the fragment."""
    parts = urlsplit(url_path)
    f = site / parts.path.lstrip("/") / "index.html"
    if f not in _PAGES:
        _PAGES[f] = Page(f.read_text(encoding="utf-8")) if f.is_file() else None
    return _PAGES[f], parts.fragment


def built_code_pages(site) -> set:
    """(kind, slug) of every page under /codes/<kind>/<slug>/."""
    return {(p.parent.parent.name, p.parent.name) for p in (site / "codes").glob("*/*/index.html")}


# --- pages ------------------------------------------------------------------------------------

def test_every_applicable_xid_has_a_page_and_an_api_entry(built_site, tables, api):
    xids = {e["name"]: e for f in api["families"] if f["family"] == "xid" for e in f["entries"]}
    applicable = [e["code"] for e in tables["xid"] if any(e.get("applies_to", {}).values())]
    assert len(applicable) >= 100
    for code in applicable:
        assert (built_site / "codes" / "xid" / str(code) / "index.html").is_file(), code
        entry = xids[str(code)]
        assert entry["page"] and entry["url"].endswith(f"/codes/xid/{code}/"), code


def test_unused_xids_are_rows_without_pages(built_site, tables, api):
    family = Page((built_site / "codes" / "xid" / "index.html").read_text(encoding="utf-8"))
    unused = [e["code"] for e in tables["xid"] if e.get("unused") and not any(e["applies_to"].values())]
    xids = {e["name"]: e for f in api["families"] if f["family"] == "xid" for e in f["entries"]}
    assert 1 in unused and 2 in unused
    for code in (1, 2, 3):
        assert not (built_site / "codes" / "xid" / str(code)).exists()
        assert f"xid-{code}" in family.ids
        assert xids[str(code)]["url"].endswith(f"/codes/xid/#xid-{code}") and not xids[str(code)]["page"]


def test_every_xid_named_in_a_record_has_a_page(built_site):
    named = set()
    for file in paths.RECORDS.glob("*.yaml"):
        named |= {int(n) for n in re.findall(r"\bXids? (\d{1,3})\b", file.read_text(encoding="utf-8"))}
    assert {13, 48, 79, 94, 119, 154} <= named
    missing = sorted(n for n in named if not (built_site / "codes" / "xid" / str(n) / "index.html").is_file())
    assert not missing, missing


def test_every_family_page_has_every_entry_as_an_anchored_row(built_site, tables):
    for family, entries in tables.items():
        page = Page((built_site / "codes" / family / "index.html").read_text(encoding="utf-8"))
        anchors = [row_anchor(family, e) for e in entries]
        assert len(set(anchors)) == len(anchors), family
        assert set(anchors) <= page.ids, (family, sorted(set(anchors) - page.ids)[:5])


def test_the_pages_built_are_the_ones_the_rule_gives(built_site, index):
    assert built_code_pages(built_site) == {(p.kind, p.slug) for p in index.pages.values()}


def test_every_locked_code_page_still_resolves(built_site):
    locked = read_locked_code_pages()
    assert {("signal", "SIGKILL"), ("exit", "137"), ("k8s", "OOMKilled"), ("nccl", "ncclRemoteError"),
            ("cuda", "cudaErrorIllegalAddress"), ("xid", "79")} <= locked
    for kind, slug in locked:
        assert (built_site / "codes" / kind / slug / "index.html").is_file(), (kind, slug)


def test_a_locked_code_without_a_row_keeps_a_page_that_says_so(built_site, index):
    no_row = [p for p in index.pages.values() if not p.rows]
    assert ("exit", "1") in {(p.kind, p.slug) for p in no_row}
    for p in no_row:
        text = html.unescape((built_site / p.url / "index.html").read_text(encoding="utf-8"))
        assert "no row for" in text, p.url


@pytest.mark.parametrize("url,ref_id", [
    ("xid/79", "gpu-lost-collective-timeout"), ("xid/48", "gpu-memory-errors"), ("xid/119", "gsp-firmware-timeout"),
    ("nccl/ncclRemoteError", "network-partition"), ("signal/SIGKILL", "oom-killed-mid-step"),
    ("exit/137", "oom-killed-mid-step"), ("exit/-9", "oom-killed-mid-step"), ("exit/143", "job-preemption-spot-termination"),
    ("k8s/OOMKilled", "cgroup-memory-limit"), ("cuda/cudaErrorUnknown", "gpu-lost-collective-timeout"),
    ("cuda/cudaErrorIllegalAddress", "application-error-looks-like-gpu-fault"),
])
def test_codes_people_search_for_link_the_references_that_explain_them(built_site, url, ref_id):
    text = html.unescape((built_site / "codes" / url / "index.html").read_text(encoding="utf-8"))
    assert f'href="../../../references/{ref_id}/"' in text


def test_a_code_page_says_what_the_code_is_whose_fault_and_what_to_do(built_site):
    page = html.unescape((built_site / "codes" / "xid" / "13" / "index.html").read_text(encoding="utf-8"))
    assert "usually an application error: check the program first" in page
    assert "ROBUST_CHANNEL_GR_EXCEPTION" in page and "RESTART_APP" in page and "WORKFLOW_XID_13" in page
    assert "(owns this code)" in page and "#signature-xid-13-graphics-exception" in page
    assert "https://docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html" in page
    page = html.unescape((built_site / "codes" / "xid" / "79" / "index.html").read_text(encoding="utf-8"))
    assert "usually a hardware fault" in page and "RESTART_BM" in page and "Volta and earlier" in page


def test_a_code_without_a_reference_says_so_and_links_the_vendor(built_site, tables):
    entry = next(e for e in tables["xid"] if e["code"] == 8)
    assert not entry.get("owner") and not entry.get("references")
    page = html.unescape((built_site / "codes" / "xid" / "8" / "index.html").read_text(encoding="utf-8"))
    assert "No reference here explains this code yet" in page and entry["cites"][0]["url"] in page


def test_the_codes_index_links_every_family_and_every_code_page(built_site):
    index = Page((built_site / "codes" / "index.html").read_text(encoding="utf-8"))
    for family in ("xid", "sxid", "dcgm", "nccl", "cuda", "signals", "k8s", "slurm"):
        assert f"{family}/" in index.links, family
    for kind, slug in built_code_pages(built_site):
        assert f"{kind}/{slug}/" in index.links, (kind, slug)


# --- the API ----------------------------------------------------------------------------------

def test_the_codes_api_validates_against_its_schema(built_site, api):
    names = ("api-v1-codes.schema.json", "codes.schema.json")
    schemas = {n: json.loads((built_site / "schema" / n).read_text(encoding="utf-8")) for n in names}
    registry = Registry().with_resources((n, Resource.from_contents(s)) for n, s in schemas.items())
    validator = jsonschema.Draft202012Validator(schemas[names[0]], registry=registry,
                                                format_checker=jsonschema.FormatChecker())
    assert not list(validator.iter_errors(api))
    broken = json.loads(json.dumps(api))
    broken["families"][0]["entries"][0]["entry"]["class"] = "cosmic-ray"
    assert list(validator.iter_errors(broken)), "an entry is checked against the code table format"


def test_the_codes_api_says_what_the_tables_say(api, tables, index):
    assert [f["family"] for f in api["families"]] == ["xid", "sxid", "dcgm", "nccl", "cuda", "signals", "k8s", "slurm"]
    assert api["count"] == sum(len(e) for e in tables.values())
    for family in api["families"]:
        entries = tables[family["family"]]
        assert [e["key"] for e in family["entries"]] == [entry_key(family["family"], e) for e in entries]
        for out, e in zip(family["entries"], entries):
            kind, name, _ = row_codes(family["family"], e)[0]
            assert out["url"].endswith("/" + index.url(kind, name)) and out["class"] == e["class"]
            if e.get("owner"):
                assert out["owner"] == e["owner"] and out["references"][0] == e["owner"]
            assert {k: v for k, v in out["entry"].items() if k != "cites"} == {k: v for k, v in e.items() if k != "cites"}
    assert {(p["kind"], p["name"]) for p in api["pages"]} == set(index.pages)


# --- the engine links what exists -------------------------------------------------------------

@pytest.fixture(scope="module")
def engine():
    return load_engine()


def test_every_code_the_engine_can_name_links_a_page_or_row_that_exists(built_site, engine):
    from relref.match.engine import code_link
    entries = engine.index["codes"]["entries"]
    assert len(entries) > 800
    for key, entry in entries.items():
        url = code_link(key, entry)
        page, fragment = page_of(built_site, url)
        assert page is not None, (key, url)
        assert not fragment or fragment in page.ids, (key, url)


@pytest.mark.parametrize("paste,kind,code,klass", [
    ("[263255.876777] NVRM: Xid (PCI:0000:1b:00): 13, Graphics SM Warp Exception on (GPC 2, TPC 0, SM 0): "
     "Out Of Range Address", "xid", "13", "application"),
    ("NVRM: Xid (PCI:0000:07:00): 48, pid='<unknown>', name=<unknown>, An uncorrectable double bit error (DBE) "
     "has been detected on GPU in the framebuffer at physAddr 0x7fffa8860 partition 7, subpartition 1.", "xid", "48", "hardware"),
    ("NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus.", "xid", "79", "hardware"),
    ("NVRM: Xid (PCI:0000:9b:00): 119, pid=2024380, name=nvidia-smi, Timeout after 6s of waiting for RPC response "
     "from GPU4 GSP! Expected function 103 (GSP_RM_ALLOC) (0x2081 0x4).", "xid", "119", "driver-firmware"),
    ("    Exit Code:    137", "signal", "SIGKILL", "infrastructure"),
    ("RuntimeError: DataLoader worker (pid 6164) is killed by signal: Killed.", "signal", "SIGKILL", "infrastructure"),
    # sacct's default State column is 10 wide: print_fields_str cuts OUT_OF_MEMORY to "OUT_OF_ME+".
    ("4242.batch       batch OUT_OF_ME+    0:125 ", "slurm", "OUT_OF_MEMORY", "infrastructure"),
])
def test_the_code_answer_names_the_code_its_class_and_a_page_that_exists(engine, built_site, paste, kind, code, klass):
    result = engine.match(paste)
    found = {(c["kind"], c["code"]): c for c in result["codes"]}
    assert (kind, code) in found, result["codes"]
    c = found[(kind, code)]
    assert c["class"] == klass and c["name"]
    path = c["url"][len(engine.site_url):] if c["url"].startswith(engine.site_url) else urlsplit(c["url"]).path
    page, fragment = page_of(built_site, path)
    assert page is not None and not fragment, c["url"]
    if klass == "application":
        assert "usually an application error: check the program first" in result["answer"]
        assert not result["confident"]


# --- who owns which code ----------------------------------------------------------------------

def owned(tables) -> dict:
    return {(kind, name): e["owner"] for family, entries in tables.items() for e in entries if e.get("owner")
            for kind, name, _ in row_codes(family, e)[:1]}


def test_each_owned_code_has_one_owner_with_a_cause_signature_for_it(tables, records):
    by_id = {r.id: r for r in records}
    signatures = {(r.id, s["id"]): s for r in records for s in r.data["signatures"]}
    printed = mentions(tables, records)
    owners = owned(tables)
    assert owners[("xid", "79")] == "gpu-lost-collective-timeout" and owners[("xid", "154")].startswith("gb200")
    for code, owner in owners.items():
        assert owner in by_id, code
        causes = [m for m in printed.get(code, []) if m.ref == owner and m.signature
                  and signatures[(m.ref, m.signature)]["role"] == "cause"]
        if code in NO_VERBATIM_LINE:
            assert not causes, f"{code} now has a cause signature: drop it from NO_VERBATIM_LINE"
            assert any(m.ref == owner for m in printed.get(code, [])), f"{owner} does not name {code}"
            continue
        assert causes, f"{owner} owns {code} but none of its signatures for it has role cause"


def test_references_that_print_an_owned_code_defer_to_its_owner(tables, records):
    by_id = {r.id: r for r in records}
    signatures = {(r.id, s["id"]): s for r in records for s in r.data["signatures"]}
    problems, printed = [], mentions(tables, records)
    for code, owner in owned(tables).items():
        for m in printed.get(code, []):
            if m.ref == owner or not m.signature:
                continue
            sig = signatures[(m.ref, m.signature)]
            if sig["role"] == "cause" and owner not in sig.get("overlaps", []):
                problems.append(f"{m.ref}#{m.signature} claims {code} as a cause; {owner} owns it")
            look_alikes = {a.get("ref") for a in by_id[m.ref].data.get("look_alikes", [])}
            if owner not in look_alikes:
                problems.append(f"{m.ref} prints {code} but does not list its owner {owner} as a look-alike")
    assert not problems, "\n".join(problems)


def test_the_named_look_alikes_link_both_ways(records):
    """The back-links the ownership work added: each pair lists the other, with a how_to_tell."""
    by_id = {r.id: r for r in records}
    pairs = {"gpu-lost-collective-timeout": ["gpu-memory-errors", "gsp-firmware-timeout", "pcie-link-power-thermal-faults",
                                             "nvlink-nvswitch-errors", "application-error-looks-like-gpu-fault"],
             "gb200-nvl72-xid-150-154-firmware-hang": ["gsp-firmware-timeout", "nvlink-nvswitch-errors",
                                                       "application-error-looks-like-gpu-fault"],
             "bloom-gpu-failures-per-week": ["gpu-memory-errors"],
             "replayed-logs-false-hardware-diagnosis": ["gpu-memory-errors", "gsp-firmware-timeout", "nvlink-nvswitch-errors",
                                                        "application-error-looks-like-gpu-fault"],
             "silent-data-corruption": ["gpu-memory-errors"], "straggler-slow-rank": ["pcie-link-power-thermal-faults"],
             "temperature-throughput-variation": ["pcie-link-power-thermal-faults"],
             "zombie-gpu-process": ["gsp-firmware-timeout"], "network-partition": ["infiniband-roce-link-faults"],
             "nixl-firmware-page-registration-oom": ["infiniband-roce-link-faults"]}
    for a, others in pairs.items():
        for b in others:
            for x, y in ((a, b), (b, a)):
                links = {l.get("ref"): l for l in by_id[x].data.get("look_alikes", [])}
                assert y in links and len(links[y]["how_to_tell"]) > 40, f"{x} -> {y}"
    net_ib = next(s for s in by_id["network-partition"].data["signatures"] if s["id"] == "net-ib-completion-error")
    assert "infiniband-roce-link-faults" in net_ib["overlaps"]


def test_every_code_table_reference_is_a_record_and_every_printer_is_listed(tables, records):
    """The tables are the one source the pages, the API and the engine read: every reference they
    name exists, and every reference whose signatures print a code is in the code's row."""
    ids = {r.id for r in records}
    printed = mentions(tables, records)
    problems = []
    for family, entries in tables.items():
        for e in entries:
            listed = [e.get("owner")] + e.get("references", [])
            problems += [f"{family} {entry_key(family, e)}: no reference {r}" for r in listed if r and r not in ids]
            for kind, name, _ in row_codes(family, e):
                for m in printed.get((kind, name), []):
                    if m.signature and m.ref not in listed:
                        problems.append(f"{family} {entry_key(family, e)}: {m.ref}#{m.signature} prints it, not listed")
    assert not problems, "\n".join(sorted(set(problems)))


# --- how references name codes ----------------------------------------------------------------

class _Rec:
    def __init__(self, data):
        self.data, self.id = data, data["id"]


def _named(tables, example="", text=""):
    data = {"id": "x", "summary": text, "signatures": [{"id": "s", "example": example, "pattern": "zzz", "role": "symptom"}]}
    return mentions(tables, [_Rec(data)])


def test_a_line_names_a_signal_and_its_exit_statuses_but_prose_names_only_what_it_says(tables):
    named = _named(tables, example="    Exit Code:    137")
    assert {("exit", "137"), ("exit", "-9"), ("signal", "SIGKILL")} <= set(named)
    assert named[("signal", "SIGKILL")][0].printed == ("exit", "137")
    named = _named(tables, text="The handler catches SIGUSR1.")
    assert ("signal", "SIGUSR1") in named and ("exit", "138") not in named


def test_prose_names_xid_ranges_and_sxids(tables):
    named = _named(tables, text="Xid 74 or Xid 144-149, and SXid 20034 on the switch.")
    assert {("xid", "74"), ("xid", "144"), ("xid", "147"), ("xid", "149"), ("sxid", "20034")} <= set(named)


@pytest.mark.parametrize("line,code,absent", [
    ("GPU 0 had memory errors and row remappings are pending", ("dcgm", "DCGM_FR_PENDING_ROW_REMAP"), None),
    ("NVRM: GPU 0000:2b:00.0: GPU has fallen off the bus.", None, ("dcgm", "DCGM_FR_FALLEN_OFF_BUS")),
    ("srun: error: gpu001: task 0: Out Of Memory", ("slurm", "srun: task: Out Of Memory"), None),
    ("slurmstepd: error: *** JOB 4 ON n1 CANCELLED AT 2024-01-01T00:00:00 DUE TO TIME LIMIT ***",
     ("slurm", "CANCELLED DUE TO TIME LIMIT"), None),
    ("  Warning  FailedMount  3m  kubelet  MountVolume.SetUp failed", ("k8s", "FailedMount"), None),
    ("transport/nvls.cc:254 NCCL WARN Cuda failure 1 'invalid argument'", ("nccl", "cuda-failure"),
     ("nccl", "ncclInvalidArgument")),
])
def test_a_line_names_the_codes_its_format_prints_and_no_others(tables, line, code, absent):
    named = _named(tables, example=line)
    if code:
        assert code in named, sorted(named)
    if absent:
        assert absent not in named, sorted(named)


def test_every_code_page_kind_has_a_family(index):
    assert {p.kind for p in index.pages.values()} <= set(FAMILY_OF_KIND)


def test_the_command_line_lists_the_codes_a_paste_prints_with_their_pages():
    import subprocess
    import sys
    from pathlib import Path
    relref = Path(sys.executable).with_name("relref")
    line = "NVRM: Xid (PCI:0000:3b:00): 13, Graphics SM Warp Exception on (GPC 0, TPC 0)\n"
    out = subprocess.run([str(relref), "match", "-"], input=line, capture_output=True, text=True).stdout
    section = out[out.index("Codes in this paste:"):]
    assert "xid 13 (ROBUST_CHANNEL_GR_EXCEPTION" in section and "Recovery: RESTART_APP" in section
    assert "/codes/xid/13/" in section
