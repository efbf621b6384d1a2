"""The codes index: every code page links to references whose signatures mention the code, at
stable URLs; the table of regexes reads the identifiers as software prints them."""
import re

import pytest

from relref import paths
from relref.pages import codes
from relref.records.load import load_records
from sitecheck import pages
from engines import on_both_engines

built_site = on_both_engines()  # each test here that reads the built site reads mkdocs' and Zensical's


@pytest.mark.parametrize("line,expected", [
    ("NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus.", {("xid", "79")}),
    ("ncclRemoteError: A call failed possibly due to a network error", {("nccl", "ncclRemoteError")}),
    ("NCCL error in: ProcessGroupNCCL.cpp:1191, unhandled cuda error, NCCL version 2.18.1",
     {("nccl", "ncclUnhandledCudaError")}),
    ("RuntimeError: CUDA error: an illegal memory access was encountered", {("cuda", "cudaErrorIllegalAddress")}),
    ("cudaErrorLaunchFailure returned", {("cuda", "cudaErrorLaunchFailure")}),
    ("  Reason:       OOMKilled", {("k8s", "OOMKilled")}),
    ("Warning  Evicted  kubelet  The node was low on resource: memory.", {("k8s", "Evicted")}),
    ("    Exit Code:    139", {("exit", "139")}),
    ("failed (exitcode: -9) local_rank: 0 (pid: 62498)", {("exit", "-9")}),
    ("DataLoader worker (pid 1657) is killed by signal: Segmentation fault.", {("signal", "SIGSEGV")}),
    ("Received 15 death signal, shutting down workers", {("signal", "SIGTERM")}),
    ("code: -98, name: EADDRINUSE, errno: 98", set()),
])
def test_codes_are_read_as_software_prints_them(line, expected):
    assert codes.mentioned(line) == expected


def test_a_signal_and_its_exit_statuses_are_one_event():
    assert codes.with_equivalents({("exit", "137")}) == {("exit", "137"), ("exit", "-9"), ("signal", "SIGKILL")}
    assert codes.with_equivalents({("signal", "SIGTERM")}) >= {("exit", "143"), ("exit", "-15")}
    assert codes.with_equivalents({("exit", "32")}) == {("exit", "32")}


@pytest.fixture(scope="module")
def signatures():
    return {(r.id, s["id"]): s for r in load_records(paths.RECORDS) for s in r.data["signatures"]}


SIGNATURE_LINK = re.compile(r"^\.\./\.\./\.\./references/([^/]+)/#signature-(.+)$")


def test_every_code_links_to_a_reference_whose_signatures_mention_it(built_site, signatures):
    code_pages = [(p, page) for p, page in pages(built_site / "codes") if p.parent.parent.parent.name == "codes"]
    assert len(code_pages) >= 10
    for path, page in code_pages:
        code = (path.parent.parent.name, path.parent.name)
        linked = [SIGNATURE_LINK.match(h).groups() for h in page.links if SIGNATURE_LINK.match(h)]
        assert linked, f"{code} links to no reference"
        for ref_id, sig_id in linked:
            assert code in codes.signature_codes(signatures[(ref_id, sig_id)]), f"{code}: {ref_id}#{sig_id}"


@pytest.mark.parametrize("url,ref_id", [
    ("xid/79", "gpu-lost-collective-timeout"), ("nccl/ncclRemoteError", "network-partition"),
    ("signal/SIGKILL", "oom-killed-mid-step"), ("exit/137", "oom-killed-mid-step"), ("exit/-9", "oom-killed-mid-step"),
    ("exit/143", "job-preemption-spot-termination"), ("k8s/OOMKilled", "cgroup-memory-limit"),
    ("cuda/cudaErrorUnknown", "gpu-lost-collective-timeout"),
])
def test_codes_people_search_for_have_stable_pages(built_site, url, ref_id):
    text = (built_site / "codes" / url / "index.html").read_text()
    assert f'href="../../../references/{ref_id}/"' in text


def test_the_codes_index_links_every_code_page(built_site):
    index = (built_site / "codes" / "index.html").read_text()
    for page in (built_site / "codes").glob("*/*/index.html"):
        kind, name = page.parent.parent.name, page.parent.name
        assert f'href="{kind}/{name}/"' in index, f"{kind}/{name} is not in the index"
