"""The match engine's behaviour: ranking rules, staleness, safety and the command line."""
import json
import subprocess
import sys

import jsonschema
import pytest

from relref import paths
from relref.match import load_engine

XID79 = "NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus."
WATCHDOG = ("[rank3]:[E321 02:07:08.408271257 ProcessGroupNCCL.cpp:607] [Rank 3] Watchdog caught collective "
            "operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, NumelIn=466119168, NumelOut=466119168, "
            "Timeout(ms)=600000) ran for 600060 milliseconds before timing out.")
DS_RACE = """Traceback (most recent call last):
  File "/opt/conda/lib/python3.10/site-packages/deepspeed/runtime/engine.py", line 3130, in save_checkpoint
    self._save_checkpoint(save_dir,
  File "/opt/conda/lib/python3.10/site-packages/deepspeed/runtime/engine.py", line 3364, in _save_checkpoint
    copytree(offload_dir,
  File "/opt/conda/lib/python3.10/shutil.py", line 559, in copytree
    return _copytree(entries=entries, src=src, dst=dst, symlinks=symlinks,
  File "/opt/conda/lib/python3.10/shutil.py", line 457, in _copytree
    os.makedirs(dst, exist_ok=dirs_exist_ok)
  File "/opt/conda/lib/python3.10/os.py", line 225, in makedirs
    mkdir(name, mode)
FileExistsError: [Errno 17] File exists: '/ckpt/global_step100/zero_stage_3_bf16_offload'"""
PLAIN_COPYTREE = """Traceback (most recent call last):
  File "build_docs.py", line 12, in <module>
    shutil.copytree("assets", "public/assets")
  File "/usr/lib/python3.11/shutil.py", line 561, in copytree
    return _copytree(entries=entries, src=src, dst=dst, symlinks=symlinks,
  File "/usr/lib/python3.11/shutil.py", line 459, in _copytree
    os.makedirs(dst, exist_ok=dirs_exist_ok)
  File "<frozen os>", line 225, in makedirs
FileExistsError: [Errno 17] File exists: 'public/assets'"""


@pytest.fixture(scope="module")
def engine():
    return load_engine()


def ids(result):
    return [m["id"] for m in result["matches"]]


def test_upstream_cause_ranks_above_its_downstream_symptom(engine):
    result = engine.match(f"{XID79}\n{WATCHDOG}")
    assert ids(result)[0] == "gpu-lost-collective-timeout"
    assert result["confident"] and result["matches"][0]["confidence"] == "strong"
    why = [w for w in result["matches"][0]["why"] if w["kind"] == "signature"]
    assert [w["lines"][0] for w in why][:2] == [1, 2]


def test_a_bare_watchdog_timeout_is_not_a_confident_match(engine):
    result = engine.match(WATCHDOG)
    assert not result["confident"]
    top = ids(result)[:5]
    assert "gpu-lost-collective-timeout" in top and "network-partition" in top
    assert all(m["confidence"] != "strong" for m in result["matches"])


def test_deepspeed_race_is_strong_but_a_plain_copytree_error_is_not(engine):
    assert ids(engine.match(DS_RACE))[0] == "deepspeed-zero3-nvme-checkpoint-race"
    assert engine.match(DS_RACE)["confident"]
    assert not engine.match(PLAIN_COPYTREE)["confident"]


EMBEDDING = """  File "/app/model.py", line 88, in forward
    return F.embedding(
RuntimeError: 'weight' must be 2-D"""


def test_context_that_conflicts_keeps_a_reference_from_being_strong(engine):
    result = engine.match(EMBEDDING, context="vLLM 0.6 serving on 8 H100")
    ds = next(m for m in result["matches"] if m["id"] == "deepspeed-zero3-embedding-weight-2d")
    assert ds["confidence"] == "weak"
    assert any(w["kind"] == "context" and not w["fit"] and "vllm" in w["text"] for w in ds["why"])


def test_a_framework_specific_reference_needs_its_framework_in_the_paste_or_context(engine):
    assert not engine.match(EMBEDDING)["confident"]
    sure = engine.match(EMBEDDING, context="DeepSpeed 0.14 ZeRO-3, inference after training")
    assert sure["confident"] and sure["matches"][0]["id"] == "deepspeed-zero3-embedding-weight-2d"


def test_old_hardware_evidence_is_stale(engine):
    log = f"[Sun Nov 29 09:00:00 2026] {XID79}\n" + "".join(
        f"[Sun Nov 29 {h:02d}:00:00 2026] eth0: link up\n" for h in range(10, 14))
    result = engine.match(log)
    assert not result["confident"]
    assert any(w["kind"] == "stale-evidence" and w["line"] == 1 for w in result["warnings"])
    fresh = engine.match(log, context="window 12h")
    assert fresh["confident"] and not fresh["warnings"]


def test_evidence_from_an_earlier_boot_is_stale(engine):
    log = f"[ 9000.000000] {XID79}\n[    5.000000] Linux version 6.8.0\n[   60.000000] nvidia: loading"
    result = engine.match(log)
    assert "earlier boot" in result["warnings"][0]["text"]
    assert not result["confident"]


@pytest.mark.parametrize("stamp", ["2026-11-29T10:00:00.418233Z host kernel: ", "[ 8123.418233] "])
def test_a_repeated_line_with_the_same_sub_second_stamp_is_stale(engine, stamp):
    line = f"{stamp}{XID79}"
    result = engine.match(f"{line}\n{stamp.replace('418233', '918233')}eth0 up\n{line}")
    assert result["warnings"] and "repeats" in result["warnings"][0]["text"]
    assert not result["confident"]


@pytest.mark.parametrize("stamp", ["[Mon Jul 25 16:46:20 2022] ", "Jul 25 16:46:20 host kernel: "])
def test_a_line_repeated_within_a_whole_second_stamp_is_a_burst_not_a_replay(engine, stamp):
    """dmesg -T and syslog stamps are whole seconds; a driver prints the same line several times in one."""
    burst = "".join(f"{stamp}{XID79}\n" for _ in range(3))
    result = engine.match(burst)
    assert not [w for w in result["warnings"] if w["kind"] == "stale-evidence"]
    assert result["confident"] and result["matches"][0]["id"] == "gpu-lost-collective-timeout"


def test_a_line_that_marks_test_output_makes_the_hardware_lines_stale(engine):
    live = engine.match(XID79)
    assert live["confident"] and live["matches"][0]["id"] == "gpu-lost-collective-timeout"
    injected = engine.match(f"Successfully injected field info.\n{XID79}")  # dcgmi test --inject, then the event
    assert not injected["confident"]
    assert injected["matches"][0]["id"] == "replayed-logs-false-hardware-diagnosis"
    assert injected["matches"][0]["causes"][0]["id"] == "injected-test-events"
    stale = [w for w in injected["warnings"] if w["kind"] == "stale-evidence"]
    assert stale and all(w["line"] == 2 and "line 1 (dcgmi-test-inject-confirmation)" in w["text"] for w in stale)


@pytest.mark.parametrize("paste", ["RuntimeError: NCCL", "+foo -bar ~baz ^2 *x* [a] {b} field:value",
                                   "title:NCCL^10 ~~ \"unterminated", "0xdeadbeef 0000:3b:00.0 C:\\path\\x",
                                   "", "\x00\x01\ufffd é 漢字", "-" * 100000])
def test_any_paste_is_safe(engine, paste):
    result = engine.match(paste)
    jsonschema.validate(result, json.loads((paths.ROOT / "schema" / "match-result.schema.json").read_text()))


def test_ties_are_broken_by_id(engine):
    result = engine.match("NCCL watchdog timeout collective")
    pairs = [(m["score"], m["id"]) for m in result["matches"]]
    assert pairs == sorted(pairs, key=lambda p: (-p[0], p[1]))


def test_large_log_is_streamed_and_reports_the_right_line(engine):
    filler = "step 1234 loss 2.345 lr 3e-4 tokens/s 51234\n" * 200000
    result = engine.match(iter([filler, filler, XID79 + "\n", WATCHDOG + "\n"]))
    lines = [w["lines"][0] for w in result["matches"][0]["why"] if w["kind"] == "signature"]
    assert lines[0] == 400001


def run_cli(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "relref.cli", "match", *args], input=stdin,
                          capture_output=True, text=True, cwd=paths.ROOT)


def test_cli_json_exit_codes_and_schema():
    schema = json.loads((paths.ROOT / "schema" / "match-result.schema.json").read_text())
    confident = run_cli("-", "--json", stdin=f"{XID79}\n{WATCHDOG}\n")
    assert confident.returncode == 0
    out = json.loads(confident.stdout)
    jsonschema.validate(out, schema)
    assert out["confident"] is True and out["matches"][0]["confidence"] == "strong"
    unsure = run_cli("-", "--json", "--top", "3", stdin=WATCHDOG)
    assert unsure.returncode == 1 and len(json.loads(unsure.stdout)["matches"]) == 3
    missing = run_cli("/no/such/file.log")
    assert missing.returncode == 2 and "cannot read /no/such/file.log" in missing.stderr


def test_cli_text_output_names_lines_and_checks():
    out = run_cli("-", "--context", "PyTorch 2.4, 64 A100, Slurm", stdin=f"{XID79}\n{WATCHDOG}\n").stdout
    assert "line 1" in out and "Checks to run next" in out and "#check-" in out


def test_cli_reads_an_index_file(tmp_path):
    from relref.match.index import write_index
    from relref.records.load import load_records
    index = tmp_path / "match-index.json"
    write_index(load_records(paths.RECORDS), index)
    assert run_cli("-", "--index", str(index), stdin=XID79).returncode == 0
    index.write_text("{not json")
    bad = run_cli("-", "--index", str(index), stdin=XID79)
    assert bad.returncode == 2 and "cannot read the match index" in bad.stderr


def test_hints_are_read_from_the_log_and_the_context(engine):
    result = engine.match("[2026-11-29 10:00:00] deepspeed==0.14.2 torch 2.4.0 world_size=64\n" + XID79,
                          context="H100 on Kubernetes, not vLLM")
    hints = result["hints"]
    assert "deepspeed" in hints["frameworks"] and "vllm" not in hints["frameworks"]
    assert {"deepspeed 0.14.2", "torch 2.4.0"} <= set(hints["versions"])
    assert hints["hardware"] == ["h100"] and hints["environments"] == ["kubernetes"] and hints["scale"] == 64


def test_what_a_scan_keeps_is_bounded_however_many_lines_match(engine):
    from relref.match.scan import HITS_KEPT, INFORMATIVE_KEPT, Scanner, chunks
    scanner = Scanner(engine.signatures)
    lines = "".join(f"[{i}.000000] {XID79}\n" for i in range(1, 100001))
    for chunk, cut in chunks(lines):
        scanner.feed(chunk, cut)
    scan = scanner.finish()
    index = next(i for i, s in enumerate(engine.signatures) if s["id"] == "xid-79-fallen-off-bus")
    assert scan.counts[index] == 100000
    assert len(scan.hits[index]) <= 2 * HITS_KEPT
    assert len(scan.informative) <= 2 * INFORMATIVE_KEPT
    assert scan.newest == {"uptime": 100000.0} and scan.last_boot == 0


def test_next_checks_tell_candidates_apart_and_follow_a_confident_answer(engine):
    unsure = engine.match(WATCHDOG)["next_checks"]
    assert len({c["reference"] for c in unsure}) >= 3, "each candidate's best check comes early"
    assert len({c["command"] or c["observation"] for c in unsure}) == len(unsure), "no check twice"
    sure = engine.match(f"{XID79}\n{WATCHDOG}")["next_checks"]
    assert sure and {c["reference"] for c in sure} == {"gpu-lost-collective-timeout"}


def test_a_signal_alone_leads_to_oom_first_but_a_line_naming_where_it_landed_leads_to_its_reference(engine):
    """A bare exit status follows the code table's order (the OOM references first), never
    confident; DataLoader's own message about a killed worker is that reference's cause line, so
    it leads and can be strong (the answer still opens with the signal)."""
    for bare in ("    Exit Code:    137", "Killed", "exited with code 137",
                 "torch.distributed.elastic.multiprocessing.api: [ERROR] failed (exitcode: -9) local_rank: 0 (pid: 1234) "
                 "of binary: /usr/bin/python"):
        result = engine.match(bare)
        assert ids(result)[0] == "oom-killed-mid-step" and not result["confident"], bare
    worker = engine.match("RuntimeError: DataLoader worker (pid 6164) is killed by signal: Killed.")
    assert ids(worker)[:2] == ["dataloader-failure", "oom-killed-mid-step"] and worker["confident"]
    assert worker["matches"][0]["causes"][0]["id"] == "worker-out-of-host-memory"
    assert worker["answer"].startswith("SIGKILL")


def test_under_a_signal_references_with_a_matched_line_come_before_those_touched_by_words(engine):
    """torchrun's SIGTERM to the surviving workers (torch/distributed/elastic/multiprocessing/api.py
    logs "Sending process %s closing signal %s"): the code table's order ranks the references, but
    one the paste reaches only through its words never leads one whose signature matched a line."""
    text = "".join(f"WARNING:torch.distributed.elastic.multiprocessing.api:Sending process {pid} closing signal SIGTERM\n"
                   for pid in range(4000, 4007))
    result = engine.match(text)
    assert not result["confident"] and result["answer"].startswith("SIGTERM")
    with_line = [any(w["kind"] == "signature" for w in m["why"]) for m in result["matches"]]
    assert with_line[0] and with_line == sorted(with_line, reverse=True), [m["id"] for m in result["matches"]]


def test_an_application_code_holds_back_a_gpu_verdict_but_not_an_out_of_memory_one(engine):
    """A CUDA out-of-memory error is an application-class code: the OOM reference (memory) can
    still be strong, with the GPU-memory cause. An illegal memory access or an Xid 13 alone (also
    application-class) never makes a GPU-hardware reference strong."""
    oom = engine.match("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 22.78 GiB. GPU 0 has a total "
                       "capacity of 31.47 GiB of which 12.73 GiB is free.")
    assert ids(oom)[0] == "oom-killed-mid-step" and oom["confident"]
    assert oom["matches"][0]["causes"][0]["id"] == "gpu-memory-exhausted"
    for line in ("RuntimeError: CUDA error: an illegal memory access was encountered",
                 "[263255.876777] NVRM: Xid (PCI:0000:1b:00): 13, Graphics SM Warp Exception on (GPC 2, TPC 0, SM 0): "
                 "Out Of Range Address"):
        result = engine.match(line)
        assert result["matches"] and not result["confident"], line
        assert "usually an application error: check the program first" in result["answer"], line


def test_a_signature_alone_names_its_causes_in_its_own_order(engine):
    """A signature lists the causes its line points at most likely first; its example alone, which
    weighs them all the same, names them in that order (not by the paste's words or their ids)."""
    from relref.records.load import load_records
    several = [(r.id, s) for r in load_records(paths.RECORDS) for s in r.data["signatures"] if len(s.get("causes") or []) > 1]
    assert len(several) >= 20
    for ref_id, sig in several:
        result = engine.match(sig["example"])
        match = next(m for m in result["matches"] + result["further_reading"] if m["id"] == ref_id)
        named = [c["id"] for c in match["causes"] if c["basis"] == "line"]
        assert named[:len(sig["causes"])] == sig["causes"], (ref_id, sig["id"])


@pytest.mark.parametrize("line,stamp", [
    ("2026-11-29T22:20:41.123+01:00 x", ("iso-utc", 1795987241.123)),
    ("2026-11-29 22:20:41,5 y", ("iso-local", 1795990841.5)),
    ("[Sun Nov 29 22:20:41 2026] y", ("dmesg-T", 1795990841.0)),
    ("Nov 29 22:20:41 host z", ("syslog", 32048441.0)),
    ("I1129 22:20:41.123456 a", ("glog", 32048441.123456)),
    ("[  12.123456] c", ("uptime", 12.123456)),
    ("é [ 12.123456] c", ("uptime", 12.123456)),  # not ASCII: read through the wrapper, same answer
    ("2026-13-40 10:00:00 bad", None),
    ("x" * 60 + " [ 1.000001] too far in", None),
    ("plain line", None),
])
def test_a_stamp_is_read_from_the_start_of_a_line_on_its_own_clock(line, stamp):
    from relref.match import timestamps
    assert timestamps.parse(line) == stamp


def test_a_log_of_one_long_line_is_read_in_bounded_text(engine, monkeypatch):
    """A one-line log is a short paste (one line), whose text full-text relevance reads whole:
    the scan keeps at most SHORT_CHARS of it (plus the chunk that passed the mark), and the
    ranking tokenizes at most RELEVANCE_CHARS of hits, sample and context each. Before, a 50 MB
    line was kept whole and its hundreds of 4,096-character hit windows tokenized: 176 s, 1.4 GB."""
    from relref.match import engine as engine_module
    from relref.match.scan import CHUNK, SHORT_CHARS, Scanner, chunks
    line = " ".join(f"step {i} loss 1.{i} {XID79} {WATCHDOG}" for i in range(20000))  # some 8 MB, no line end
    scanner = Scanner(engine.signatures, engine.compiled)
    for chunk, cut in chunks(line):
        scanner.feed(chunk, cut)
    scan = scanner.finish()
    assert scan.lines == 1 and len(scan.hits) > 2
    assert sum(len(t) for _, t in scan.informative) <= SHORT_CHARS + CHUNK
    read = []
    real = engine_module.tokenize_words
    monkeypatch.setattr(engine_module, "tokenize_words", lambda text: read.append(len(text)) or real(text))
    result = engine.rank(scan, "context " * 100000, 5)
    assert result["matches"] and max(read) <= 3 * engine_module.RELEVANCE_CHARS + 2


@pytest.mark.parametrize("line", [
    # The older forms of ProcessGroupNCCL's WorkNCCL printer (torch/lib/c10d at pytorch 00f5dfd5:
    # no SeqNum, with and without TensorShape; later SeqNum with TensorShape), and one cut where a
    # pasted log wraps it. The current form, with NumelIn/NumelOut, is WATCHDOG above.
    "[E ProcessGroupNCCL.cpp:485] [Rank 6] Watchdog caught collective operation timeout: WorkNCCL(OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1802246 milliseconds before timing out.",
    "[E ProcessGroupNCCL.cpp:587] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(OpType=BROADCAST, TensorShape=[1], Timeout(ms)=1800000) ran for 1806127 milliseconds before timing out.",
    "[E ProcessGroupNCCL.cpp:737] [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=58, OpType=ALLREDUCE, TensorShape=[2048], Timeout(ms)=1800000) ran for 1800485 milliseconds before timing out.",
    "[Rank 6] Watchdog caught collective operation timeout: WorkNCCL(OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1802246 milliseconds before timing\nout.",
])
def test_older_watchdog_forms_meet_the_watchdog_signature(engine, line):
    result = engine.match(line)
    hit = {w["signature"] for m in result["matches"] for w in m["why"] if w["kind"] == "signature"}
    assert "nccl-watchdog-collective-timeout" in hit
    assert not result["confident"]


def test_nccl_finding_no_socket_interface_names_the_interface_cause(engine):
    result = engine.match("gpu617:22841:22841 [0] bootstrap.cc:37 NCCL WARN Bootstrap : no socket interface found")
    assert result["confident"] and ids(result)[0] == "network-partition"
    assert result["matches"][0]["causes"][0]["id"] == "wrong-interface-or-blocked-port"


@pytest.mark.parametrize("line", [
    'safetensors_rust.SafetensorError: Error while serializing: IoError(Os { code: 28, kind: StorageFull, message: "No space left on device" })',
    "safetensors_rust.SafetensorError: Error while serializing: I/O error: No space left on device (os error 28)",
    "OSError: Can't write data (file write failed: time = Thu Jan 10 10:56:30 2019\n, filename = '/my_tmp/test.hdf5', file descriptor = 3, errno = 28, error message = 'No space left on device', buf = 0x7fd2e6650010, total write size = 33554432, bytes this sub-write = 33554432, bytes actually written = 18446744073709551615, offset = 2848)",
])
def test_a_full_disk_printed_by_rust_or_hdf5_points_at_the_checkpoint_write(engine, line):
    result = engine.match(line)
    top = result["matches"][0]
    assert top["id"] == "checkpoint-corruption-on-write" and top["causes"][0]["id"] == "disk-full-or-quota"
    assert not result["confident"]  # a full disk is a symptom: which write it cut is for the checks to say


def test_a_filesystem_that_grants_no_locks_is_named_as_the_lock_cause(engine):
    result = engine.match("OSError: Unable to open file (unable to lock file, errno = 37, error message = 'No locks available')")
    assert result["confident"] and ids(result)[0] == "hdf5-corruption"
    assert result["matches"][0]["causes"][0]["id"] == "lock-failure-not-corruption"


def test_a_quota_hit_on_save_points_at_the_checkpoint_write(engine):
    result = engine.match("OSError: [Errno 122] Disk quota exceeded")
    top = result["matches"][0]
    assert top["id"] == "checkpoint-corruption-on-write" and top["causes"][0]["id"] == "disk-full-or-quota"


def test_a_shared_memory_mmap_refused_points_at_the_dataloader(engine):
    result = engine.match("RuntimeError: unable to mmap 72 bytes from file </torch_252640_3072723228_63598>: Cannot allocate memory (12)")
    assert ids(result)[0] == "dataloader-failure" and not result["confident"]


def test_the_nccl_id_fetch_from_rank_0_reads_by_how_it_failed(engine):
    """A timeout while fetching rank 0's NCCL id first points at a long phase on rank 0; a reset
    points at rank 0's store going away."""
    stem = "[1] is setting up NCCL communicator and retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: "
    timeout = engine.match("RuntimeError: " + stem + "Socket Timeout")
    assert ids(timeout)[0] == "training-stuck-no-progress" and not timeout["confident"]
    assert timeout["matches"][0]["causes"][0]["id"] == "long-phase-trips-timers"
    reset = engine.match("torch.distributed.DistBackendError: " + stem + "Connection reset by peer")
    assert ids(reset)[0] == "network-partition" and reset["matches"][0]["causes"][0]["id"] == "store-host-unreachable"


def test_a_failed_verb_on_an_hca_points_at_the_adapter_page_but_memory_registration_does_not(engine):
    qp = engine.match("node1:76786:77145 [3] misc/ibvwrap.cc:284 NCCL WARN Call to ibv_modify_qp failed with error No such device")
    assert ids(qp)[0] == "infiniband-roce-link-faults" and not qp["confident"]
    mr = engine.match("node1:1234:1234 [0] misc/ibvwrap.cc:278 NCCL WARN Call to ibv_reg_mr_iova2 failed with error Cannot allocate memory")
    assert not any(w["kind"] == "signature" and w["signature"] == "nccl-ibv-call-failed"
                   for m in mr["matches"] for w in m["why"])


def test_a_refused_host_allocation_points_at_host_memory_without_a_kill(engine):
    result = engine.match("RuntimeError: [enforce fail at alloc_cpu.cpp:75] err == 0. DefaultCPUAllocator: can't allocate memory: you tried to allocate 132426121216 bytes. Error code 12 (Cannot allocate memory)")
    top = result["matches"][0]
    assert top["id"] == "oom-killed-mid-step" and top["causes"][0]["id"] == "host-ram-exhausted"
    assert not result["confident"]


def test_the_cuda_samples_form_of_error_802_meets_its_signature(engine):
    result = engine.match('"Failed to allocate device vector A (error code system not yet initialized)! [Vector addition of 5000 elements]')
    hit = {w["signature"] for m in result["matches"] for w in m["why"] if w["kind"] == "signature"}
    assert "cuda-802-system-not-yet-initialized" in hit and ids(result)[0] == "nvlink-nvswitch-errors"


def test_a_bare_shell_killed_is_sigkill_led_by_oom_unless_a_container_cue_speaks_for_its_limit(engine):
    paste = "[2020-10-21T08:08:48] Step 0: loss=186.9427\nKilled"
    plain = engine.match(paste)
    assert [c["code"] for c in plain["codes"]] == ["SIGKILL"] and plain["answer"].startswith("SIGKILL")
    assert ids(plain)[0] == "oom-killed-mid-step" and not plain["confident"]
    assert plain["matches"][0]["causes"][0]["id"] == "host-ram-exhausted"
    boxed = engine.match(paste, context="training inside a Docker container")
    assert ids(boxed)[0] == "cgroup-memory-limit" and boxed["matches"][0]["causes"][0]["id"] == "limit-below-peak"


def test_a_repeated_word_is_made_a_term_once_per_text(monkeypatch):
    """Relevance reads up to 65,536 code points of a field; a paste of one word repeated stemmed it
    every time (0.7 s). Each distinct word is turned into a term once per call, and no call keeps
    another's words."""
    from relref.match import tokenize
    made = []
    real = tokenize._term
    monkeypatch.setattr(tokenize, "_term", lambda token: made.append(token) or real(token))
    assert tokenize.tokenize("ba\rba " * 20000 + "stopped resuming") == ["ba"] * 40000 + ["stop", "resum"]
    assert sorted(made) == ["ba", "resuming", "stopped"]
    tokenize.tokenize("ba")
    assert made[-1] == "ba", "a new call makes its terms afresh"
