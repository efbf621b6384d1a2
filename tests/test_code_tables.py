"""The code tables as data: codes/*.yaml load and validate against schema/codes.schema.json, hold
what their sources publish (every Xid of NVIDIA's catalog, with its mnemonic and both buckets),
name the owners the issue assigns, cite http(s) sources, and a broken table is reported as
FILE:LINE: FIELD."""
import re
import shutil

import pytest
import yaml

from relref import paths
from relref.records.code_tables import (FAMILIES, check_references, entry_key, load_code_tables,
                                        planned_reference_ids)
from relref.records.load import load_records
from relref.records.problems import RecordErrors

# Xids the catalog (Table 1 of "Analyzing Xid Errors with the Xid Catalog") marks YES for at least
# one of A100, H100, B100 and GB200.
APPLICABLE = [8, 11, 13, 14, 25, 31, 32, 37, 38, 39, 40, 41, 43, 44, 45, 46, 48, 54, 60, 62, 63, 64, 66, 67,
              68, 69, 70, 71, 72, 74, 75, 76, 77, 78, 79, 80, 82, 83, 84, 85, 86, 88, 89, 92, 93, 94, 95, 96,
              97, 98, 99, 100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 119, 120, 121, 126, 127, 128,
              129, 130, 131, 132, 133, 134, 135, 136, 137, 139, 140, 141, 142, 143, 144, 145, 146, 147, 148,
              149, 150, 151, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167, 168, 169,
              170, 171, 172]
# Rows whose Description cell is Unused.
UNUSED = [1, 2, 3, 4, 5, 6, 7, 9, 10, 12, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 26, 27, 28, 29, 30, 33,
          34, 35, 36, 42, 47, 49, 50, 51, 52, 53, 55, 56, 57, 58, 59, 61, 65, 73, 81, 87, 90, 91, 108, 111, 112,
          113, 114, 115, 116, 117, 118, 122, 123, 124, 125, 138]
# Cells the catalog leaves empty: no buckets at all for 162-172, no investigatory bucket for 142
# and for the unused rows.
NO_IMMEDIATE = set(range(162, 173))
NO_INVESTIGATORY = NO_IMMEDIATE | {142} | (set(UNUSED) - {14, 16, 108})

COUNTS = {"xid": 176, "sxid": 420, "dcgm": 133, "nccl": 19, "cuda": 40, "signals": 18, "k8s": 20, "slurm": 45}

# Issue 15, section 3 (and the application Xids of section 2).
OWNERS = {79: "gpu-lost-collective-timeout",
          **{c: "gpu-memory-errors" for c in (48, 63, 64, 92, 94, 95, 140)},
          **{c: "gsp-firmware-timeout" for c in (119, 120, 143)},
          **{c: "nvlink-nvswitch-errors" for c in (74, 144, 145, 146, 147, 148, 149)},
          150: "gb200-nvl72-xid-150-154-firmware-hang", 154: "gb200-nvl72-xid-150-154-firmware-hang",
          **{c: "application-error-looks-like-gpu-fault" for c in (13, 31, 43, 45)}}


@pytest.fixture(scope="module")
def tables():
    return load_code_tables()


@pytest.fixture(scope="module")
def xids(tables):
    return {e["code"]: e for e in tables["xid"]}


def known_reference_ids():
    ids = set()
    for record in load_records():
        ids.add(record.id)
        ids.update(record.data.get("aliases", []))
    return ids


def test_every_family_loads_with_its_count(tables):
    assert sorted(tables) == sorted(FAMILIES)
    assert {family: len(entries) for family, entries in tables.items()} == COUNTS
    for family, entries in tables.items():
        keys = [entry_key(family, e) for e in entries]
        assert len(keys) == len(set(keys)), family


def test_every_catalog_xid_is_present_and_unused_ones_are_marked(xids):
    assert set(range(1, 173)) <= set(xids)
    for code in range(1, 173):
        entry = xids[code]
        assert entry["in_catalog"], code
        assert entry["unused"] == (code in UNUSED), code
    assert {c for c, e in xids.items() if not e["in_catalog"]} == {173, 174, 175, 176}, "the driver header's extra numbers"


@pytest.mark.parametrize("code", APPLICABLE)
def test_every_applicable_xid_has_its_mnemonic_and_both_buckets(xids, code):
    entry = xids[code]
    assert any(entry["applies_to"].values())
    assert re.fullmatch(r"[A-Z0-9_]+( / [A-Z0-9_]+)?", entry["mnemonic"]), entry["mnemonic"]
    assert "immediate_action" in entry and "investigatory_action" in entry
    assert (entry["immediate_action"] is None) == (code in NO_IMMEDIATE)
    assert (entry["investigatory_action"] is None) == (code in NO_INVESTIGATORY)
    assert entry["gloss"] and entry["class"] in ("application", "driver-firmware", "hardware", "unknown")
    assert entry["class_basis"]


def test_no_xid_outside_the_applicable_list_applies_to_a_gpu(xids):
    applies = sorted(c for c, e in xids.items() if e.get("applies_to") and any(e["applies_to"].values()))
    assert applies == APPLICABLE


@pytest.mark.parametrize("code,mnemonic,immediate,investigatory,applies", [
    (13, "ROBUST_CHANNEL_GR_EXCEPTION / ROBUST_CHANNEL_GR_ERROR_SW_NOTIFY", "RESTART_APP", "WORKFLOW_XID_13", "1111"),
    (31, "ROBUST_CHANNEL_FIFO_ERROR_MMU_ERR_FLT", "RESTART_APP", "WORKFLOW_XID_31", "1111"),
    (45, "ROBUST_CHANNEL_PREEMPTIVE_REMOVAL", "WORKFLOW_XID_45", "Solo: RESTART_FM Not Solo: IGNORE (follow other Xid)", "1111"),
    (48, "ROBUST_CHANNEL_GPU_ECC_DBE", "WORKFLOW_XID_48", "WORKFLOW_XID_48", "1111"),
    (63, "INFOROM_DRAM_RETIREMENT_EVENT", "IGNORE", "IGNORE", "1111"),
    (74, "NVLINK_ERROR", "WORKFLOW_NVLINK_ERR", "CONTACT_SUPPORT", "1100"),
    (79, "ROBUST_CHANNEL_GPU_HAS_FALLEN_OFF_THE_BUS", "RESTART_BM", "CONTACT_SUPPORT", "1111"),
    (93, "INFOROM_ERASE_LIMIT_EXCEEDED", "IGNORE", "CONTACT_SUPPORT", "1000"),
    (94, "ROBUST_CHANNEL_CONTAINED_ERROR", "RESTART_APP", "IGNORE (sympathetic)", "1111"),
    (119, "GSP_RPC_TIMEOUT", "RESET_GPU", "INVESTIGATE_SW", "1111"),
    (121, "C2C_ERROR", "IGNORE", "CONTACT_SUPPORT", "0001"),
    (144, "NVLINK_SAW_ERROR", "WORKFLOW_NVLINK5_ERR", "WORKFLOW_NVLINK5_ERR", "0011"),
    (154, "GPU_RECOVERY_ACTION_CHANGED", "XID_154", "N/A Informational only regarding another Xid", "1111"),
    (159, "ROBUST_CHANNEL_CHI_NON_DATA_ERROR", "CHECK_UVM", "SYMPATHETIC_REPORT_SOLO", "0011"),
])
def test_xid_rows_read_as_the_catalog_gives_them(xids, code, mnemonic, immediate, investigatory, applies):
    entry = xids[code]
    assert entry["mnemonic"] == mnemonic
    assert (entry["immediate_action"], entry["investigatory_action"]) == (immediate, investigatory)
    assert "".join("1" if entry["applies_to"][gpu] else "0" for gpu in ("A100", "H100", "B100", "GB200")) == applies


def test_xid_owners_are_the_ones_the_issue_assigns(xids):
    owned = {c: e["owner"] for c, e in xids.items() if "owner" in e}
    assert owned == OWNERS


def test_application_xids_are_classed_application(xids):
    assert all(xids[c]["class"] == "application" for c in (13, 31, 43, 45))
    assert all(xids[c]["class"] == "hardware" for c in (48, 63, 64, 74, 79, 92, 94, 95, 140))
    assert all(xids[c]["class"] == "driver-firmware" for c in (119, 120, 143))


def test_driver_header_disagreements_are_recorded(xids):
    """Where the catalog and nverror.h name a number differently, the entry says so and keeps both."""
    for code, entry in xids.items():
        if not entry["in_catalog"] or not entry["driver_name"]:
            continue
        catalog_names = {n.strip() for n in entry["mnemonic"].split("/")}
        header_names = {re.search(r"\((\w+)\)", c["locator"]).group(1) for c in entry["cites"] if c["source"] == "nverror"}
        disagrees = any(set(d["sources"]) >= {"catalog", "nverror"} for d in entry.get("disagreements", []))
        assert disagrees == (not catalog_names & header_names), code  # a header alias (63, 64) that matches is no disagreement
    assert xids[162]["driver_name"] == "ISINK_REENGAGED" and xids[162]["mnemonic"] == "PSHC_REENGAGED"
    assert all(xids[c]["disagreements"] for c in (173, 174, 175, 176))


def test_every_xid_named_in_a_record_has_an_entry(xids):
    named = set()
    for file in paths.RECORDS.glob("*.yaml"):
        named |= {int(n) for n in re.findall(r"\bXids? (\d{1,3})\b", file.read_text(encoding="utf-8"))}
    assert named and named <= set(xids), sorted(named - set(xids))


def test_every_owner_and_reference_is_a_record_or_a_planned_reference(tables):
    assert check_references(tables, known_reference_ids()) == []
    planned = planned_reference_ids()
    assert {"gpu-memory-errors", "gsp-firmware-timeout", "nvlink-nvswitch-errors"} <= planned


def test_every_cited_url_is_http_and_every_cite_resolves(tables):
    for family, entries in tables.items():
        for source in tables.headers[family]["sources"]:
            assert re.match(r"https?://", source["url"]), source
        for entry in entries:
            assert entry["cites"], (family, entry_key(family, entry))
            for cite in entry["cites"]:
                assert re.match(r"https?://", cite["url"]) and cite["locator"], cite


def test_signal_statuses_follow_the_shell_and_python_conventions(tables):
    signals = {e["name"]: e for e in tables["signals"]}
    for entry in signals.values():
        assert entry["shell_status"] == 128 + entry["number"] and entry["python_status"] == -entry["number"]
    assert (signals["SIGKILL"]["shell_status"], signals["SIGKILL"]["python_status"], signals["SIGKILL"]["text"]) == (137, -9, "Killed")
    assert (signals["SIGSEGV"]["shell_status"], signals["SIGSEGV"]["python_status"]) == (139, -11)
    assert signals["SIGTERM"]["shell_status"] == 143 and signals["SIGBUS"]["number"] == 7


def test_the_codes_the_issue_names_are_in_their_tables(tables):
    reasons = {e["reason"] for e in tables["k8s"]}
    assert {"OOMKilled", "Evicted", "Preempting", "DeadlineExceeded"} <= reasons
    slurm = {e["name"] for e in tables["slurm"]}
    assert {"PREEMPTED", "NODE_FAIL", "OUT_OF_MEMORY", "TIMEOUT"} <= slurm
    assert any("DUE TO PREEMPTION" in e.get("format", "") for e in tables["slurm"])
    cuda = {e["text"] for e in tables["cuda"]}
    assert {"an illegal memory access was encountered", "device-side assert triggered",
            "uncorrectable ECC error encountered", "unspecified launch failure"} <= cuda
    nccl_texts = set()
    for e in tables["nccl"]:
        if e["kind"] == "result":
            nccl_texts |= {e["text"]} | {h["text"] for h in e.get("text_history", [])}
    for text in ("unhandled system error", "unhandled cuda error", "remote process exited or there was a network error"):
        assert any(t.startswith(text) for t in nccl_texts), text
    prefixes = " ".join(e["prefix"] for e in tables["nccl"] if e["kind"] == "warn")
    assert all(p in prefixes for p in ("NET/IB", "NET/Socket", "Proxy"))
    dcgm = {e["name"]: e for e in tables["dcgm"]}
    assert all(name.startswith("DCGM_FR_") and e["message"] is not None for name, e in dcgm.items())
    assert dcgm["DCGM_FR_FALLEN_OFF_BUS"]["code"] == 120


def test_the_texts_the_engine_reads_name_the_codes_of_the_tables(tables):
    """Every text NCCL's and CUDA's detectors capture maps to a code the tables have, through the
    printed texts the match index carries (current and earlier texts)."""
    from relref.match.codes import DETECTORS, Detector
    from relref.records.code_tables import printed_texts
    texts = printed_texts(tables)
    nccl_rule = next(p for kind, p, _ in DETECTORS if kind == "nccl-text")
    for alternative in re.search(r"\((.*)\)", nccl_rule).group(1).split("|"):
        line = f"NCCL error in: ProcessGroupNCCL.cpp:1191, {alternative}, NCCL version 2.18.1"
        assert any(c[0] == "nccl" for c in Detector().codes_in(line, texts)), alternative
    names = {e["name"] for e in tables["cuda"]}
    for text, name in texts["cuda"].items():
        assert name in names and Detector().codes_in(f"CUDA error: {text}", texts) == [("cuda", name)], text


# --- a broken table is reported as FILE:LINE: FIELD -------------------------------------------

def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


# (name, file, old text, new text, field reported, line marker in the new text, words in the message)
BAD = [
    ("yaml-syntax", "signals.yaml", "family: signals", "family: [signals", "(yaml)", "title: Signals", "YAML syntax"),
    ("missing-field", "signals.yaml", "  action: Term\n  shell_status: 129\n", "  shell_status: 129\n", "entries[0].action",
     "- name: SIGHUP", "missing required field"),
    ("unknown-field", "signals.yaml", "  number: 1\n", "  number: 1\n  colour: red\n", "entries[0].colour", "colour: red", "unknown field"),
    ("wrong-type", "signals.yaml", "  number: 1\n", "  number: one\n", "entries[0].number", "number: one", "not of type 'integer'"),
    ("bad-enum", "k8s.yaml", "  class: infrastructure\n", "  class: infra\n", "entries[0].class", "class: infra", "is not one of"),
    ("duplicate-key", "k8s.yaml", "  reason: OOMKilled\n", "  reason: OOMKilled\n  reason: Killed\n", "entries[0].reason",
     "reason: Killed", "duplicate key"),
    ("url-not-http", "signals.yaml", "url: https://man7.org/", "url: ftp://man7.org/", "sources[0].url", "url: ftp://man7.org/",
     "not an http(s) URL"),
    ("unknown-cite-source", "signals.yaml", "  - source: strsignal\n", "  - source: glibc\n", "entries[0].cites[1].source",
     "source: glibc", "no source with id"),
    ("duplicate-code", "signals.yaml", "- name: SIGINT\n", "- name: SIGHUP\n", "entries[1].name", "- name: SIGHUP\n  number: 2",
     "already entry 0"),
    ("unknown-group", "sxid.yaml", "  group: NPORT_INGRESS\n", "  group: NPORT_INGRES\n", "group", "group: NPORT_INGRES\n",
     "no group with id"),
    ("unknown-bucket", "xid.yaml", "  immediate_action: RESTART_BM\n", "  immediate_action: RESTART_BMX\n",
     "entries[78].immediate_action", "immediate_action: RESTART_BMX", "has no gloss in the table's buckets"),
    ("xid-catalog-fields", "xid.yaml", "  applies_to: {A100: false, H100: false, B100: false, GB200: false}\n", "", "entries[0].applies_to",
     "- code: 1\n", "missing required field"),
    ("xid-class-outside-its-four", "xid.yaml", "  class: unknown\n", "  class: infrastructure\n", "entries[0].class",
     "class: infrastructure", "is not one of"),
    ("nccl-kind-shape", "nccl.yaml", "  prefix: NET/IB\n", "", "entries[8].prefix", "- kind: warn", "missing required field"),
]


@pytest.mark.parametrize("name,file,old,new,field,marker,words", BAD, ids=[c[0] for c in BAD])
def test_a_bad_table_is_reported_at_its_line(tmp_path, name, file, old, new, field, marker, words):
    folder = tmp_path / "codes"
    folder.mkdir()
    shutil.copy(paths.CODES / file, folder / file)
    path = folder / file
    text = path.read_text(encoding="utf-8")
    assert old in text, "the test's edit must apply"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(RecordErrors) as caught:
        load_code_tables(folder)
    new_text = path.read_text(encoding="utf-8")
    if "\n" in marker.rstrip("\n"):
        first, second = marker.split("\n", 1)
        line = next(i for i, l in enumerate(new_text.splitlines(), 1)
                    if first in l and second.rstrip("\n") in new_text.splitlines()[i])
    else:
        line = line_of(new_text, marker.rstrip("\n"))
    reported = [str(p) for p in caught.value.problems]
    expected = f"{file}:{line}: "
    matching = [r for r in reported if expected in r and (r.split(": ")[1] == field or r.split(": ")[1].endswith("." + field))]
    assert matching, f"expected {expected}{field}, got:\n" + "\n".join(reported)
    assert words in matching[0]


def test_a_table_named_after_another_family_is_reported(tmp_path):
    folder = tmp_path / "codes"
    folder.mkdir()
    shutil.copy(paths.CODES / "k8s.yaml", folder / "kubernetes.yaml")
    with pytest.raises(RecordErrors) as caught:
        load_code_tables(folder)
    assert any(str(p).endswith("family: family 'k8s' does not match the file name 'kubernetes.yaml'")
               for p in caught.value.problems)


def test_an_unknown_reference_is_reported_at_its_line(tmp_path):
    folder = tmp_path / "codes"
    folder.mkdir()
    path = folder / "xid.yaml"
    text = (paths.CODES / "xid.yaml").read_text(encoding="utf-8")
    path.write_text(text.replace("  owner: gpu-lost-collective-timeout\n", "  owner: no-such-reference\n", 1), encoding="utf-8")
    problems = check_references(load_code_tables(folder), known_reference_ids())
    line = line_of(path.read_text(encoding="utf-8"), "owner: no-such-reference")
    index = [e["code"] for e in yaml.safe_load(path.read_text(encoding="utf-8"))["entries"]].index(79)
    assert [str(p) for p in problems] == [f"{path}:{line}: entries[{index}].owner: no reference with id 'no-such-reference'"]
    assert check_references({"xid": [{"code": 1, "references": ["gpu-memory-errors"]}]}, set()) == []
    assert check_references({"xid": [{"code": 1, "references": ["gpu-memory-errors"]}]}, set(), planned_ids=set())
