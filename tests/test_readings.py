"""What the numbers of a matched line say (generator/match/readings.py and its twin), on messages
written here in the forms PyTorch's allocator prints (c10/cuda/CUDACachingAllocator.cpp), never taken
from the development set or the test split. Documented on the matching page."""
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from relref.match import load_engine
from relref.match import readings as R
from relref.records.load import load_records

RUNNER = Path(__file__).parent / "js" / "run_readings.js"

TAIL = (" If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True"
        " to avoid fragmentation.  See documentation for Memory Management  "
        "(https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)")


def new_form(total, free, procs, allocated, unallocated, word="capacity", allowed=""):
    clauses = "".join(f"Process {pid} has {size} memory in use. " if pid else
                      f"Including non-PyTorch memory, this process has {size} memory in use. " for pid, size in procs)
    return (f"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB. GPU 0 has a total {word} of "
            f"{total} of which {free} is free. {clauses}{allowed}Of the allocated memory {allocated} is allocated by "
            f"PyTorch, and {unallocated} is reserved by PyTorch but unallocated.{TAIL}")


def old_form(total, allocated, free, reserved, allowed=""):
    return (f"RuntimeError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 1; {total} total capacity; {allocated} "
            f"already allocated; {free} free; {allowed}{reserved} reserved in total by PyTorch)")


# Another process holds most of the GPU: 22 of 24 GiB outside this process's 1.5 GiB.
HELD_OLD = old_form("23.65 GiB", "1.20 GiB", "12.50 MiB", "1.50 GiB")
HELD_NEW = new_form("79.15 GiB", "18.00 MiB", [(73311, "61.02 GiB"), (None, "18.10 GiB")], "17.20 GiB", "402.00 MiB")
# This process filled the GPU itself.
OWN_OLD = old_form("15.78 GiB", "14.10 GiB", "40.00 MiB", "14.60 GiB")
OWN_NEW = new_form("79.15 GiB", "18.00 MiB", [(None, "78.60 GiB")], "76.90 GiB", "1.10 GiB")
# In a container the driver's PID of the failing process itself is shown as "Process N".
OWN_IN_CONTAINER = new_form("47.53 GiB", "94.00 MiB", [(1381433, "47.43 GiB")], "47.03 GiB", "83.00 MiB")
# A small neighbour does not decide it.
SMALL_NEIGHBOUR = new_form("79.10 GiB", "364.31 MiB", [(175080, "1.46 GiB"), (175356, "77.26 GiB")], "72.12 GiB",
                           "3.78 GiB", word="capacty")


# The request fits in the free plus the reserved-but-unallocated memory, and still failed.
FRAG_NEW = new_form("79.15 GiB", "1.20 GiB", [(None, "77.40 GiB")], "40.00 GiB", "36.00 GiB").replace("512.00 MiB", "20.00 GiB")
FRAG_OLD = old_form("15.78 GiB", "9.10 GiB", "1.10 GiB", "14.20 GiB").replace("64.00 MiB", "2.00 GiB")
# The record's own example: 12.73 free + 9.35 unallocated = 22.08 GiB < the 22.78 GiB requested.
TOO_LARGE = new_form("31.47 GiB", "12.73 GiB", [(None, "18.73 GiB")], "9.08 GiB", "9.35 GiB").replace("512.00 MiB", "22.78 GiB")


def read(text, kind, line_no=1):
    """The reading of `kind` that one line gives, or None."""
    return next((r for r in R.Readings().of_line(line_no, text) if r.id == kind), None)


ELSEWHERE, FRAGMENTED = "gpu-memory-held-elsewhere", "gpu-memory-fragmented"
BARRIER = "early-barrier-timeout"


def watchdog(seq, op="ALLREDUCE", numel=1):
    """The watchdog's timeout line in the form ProcessGroupNCCL.cpp prints (WorkNCCL's operator<<)."""
    return (f"[rank3]:[E1202 10:11:12.123456789 ProcessGroupNCCL.cpp:632] [Rank 3] Watchdog caught collective operation "
            f"timeout: WorkNCCL(SeqNum={seq}, OpType={op}, NumelIn={numel}, NumelOut={numel}, Timeout(ms)=600000) "
            "ran for 600082 milliseconds before timing out.")


def read_elsewhere(line_no, text):
    return read(text, ELSEWHERE, line_no)


def read_fragmented(line_no, text):
    return read(text, FRAGMENTED, line_no)


@pytest.fixture(scope="module")
def engine():
    return load_engine()


def test_the_rest_of_the_gpu_is_read_from_both_forms_of_the_message():
    old = read_elsewhere(4, HELD_OLD)
    assert old is not None and old.line == 4 and old.id == "gpu-memory-held-elsewhere"
    assert old.reason.startswith("22.1 GiB of the GPU's 23.7 GiB") and "(1.5 GiB)" in old.reason
    new = read_elsewhere(1, HELD_NEW)
    assert new is not None and new.reason.startswith("61.5 GiB of the GPU's 79.2 GiB")
    typo = read_elsewhere(1, new_form("79.15 GiB", "18.00 MiB", [(9, "61.02 GiB")], "17.20 GiB", "402.00 MiB",
                                              word="capacty"))
    assert typo is not None, "some reports show 'total capacty'"


@pytest.mark.parametrize("text", [OWN_OLD, OWN_NEW, OWN_IN_CONTAINER, SMALL_NEIGHBOUR])
def test_a_gpu_this_process_filled_gives_no_reading(text):
    assert read_elsewhere(1, text) is None


def test_a_request_that_fit_in_the_free_and_cached_memory_is_read_as_fragmentation():
    new = read_fragmented(2, FRAG_NEW)
    assert new is not None and new.id == "gpu-memory-fragmented" and new.line == 2
    assert new.reason.startswith("the request of 20.0 GiB was no larger than the free 1.2 GiB plus the 36.0 GiB")
    old = read_fragmented(1, FRAG_OLD)
    assert old is not None and "plus the 5.1 GiB reserved but unallocated" in old.reason
    assert read_fragmented(1, TOO_LARGE) is None, "a request larger than free plus cached is simply too large"
    assert read_elsewhere(1, FRAG_NEW) is None and read_elsewhere(1, TOO_LARGE) is None
    for text in (OWN_OLD, OWN_NEW, OWN_IN_CONTAINER, HELD_OLD):
        assert read_fragmented(1, text) is None, text


def test_fragmentation_brings_up_its_reference_and_names_its_cause(engine):
    result = engine.match(FRAG_NEW)
    assert [r["id"] for r in result["readings"]] == ["gpu-memory-fragmented"]
    frag = next(m for m in result["matches"] if m["id"] == "caching-allocator-fragmentation-stragglers")
    assert frag["causes"][0]["id"] == "segment-fragmentation" and frag["confidence"] != "weak"
    assert "oom-killed-mid-step" in [m["id"] for m in result["matches"][:2]]
    assert result["verdict"] != "confident", "the memory was there, so 'GPU memory ran out' is not sure"
    plain = engine.match(TOO_LARGE)
    assert plain["readings"] == [] and plain["matches"][0]["id"] == "oom-killed-mid-step"


def test_a_memory_fraction_gives_no_reading():
    """With torch.cuda.set_per_process_memory_fraction the cap may be what ran out."""
    assert read_elsewhere(1, old_form("23.65 GiB", "1.20 GiB", "12.50 MiB", "1.50 GiB", allowed="2.00 GiB allowed; ")) is None
    assert read_elsewhere(1, new_form("79.15 GiB", "18.00 MiB", [(73311, "61.02 GiB")], "17.20 GiB", "402.00 MiB",
                                              allowed="18.00 GiB allowed; ")) is None


@pytest.mark.parametrize("text", [HELD_OLD, HELD_NEW])
def test_memory_held_elsewhere_keeps_the_oom_reference_from_being_strong(engine, text):
    result = engine.match("Traceback (most recent call last):\n  File \"train.py\", line 80, in <module>\n" + text)
    assert result["verdict"] != "confident"
    assert [r["id"] for r in result["readings"]] == ["gpu-memory-held-elsewhere"] and result["readings"][0]["line"] == 3
    # The answer opens with what the numbers say, not with "usually an application error".
    assert result["answer"].startswith("Read from line 3: 22.1 GiB" if text is HELD_OLD else "Read from line 3: 61.5 GiB")
    assert "application error" not in result["answer"]
    ids = [m["id"] for m in result["matches"]]
    assert ids[0] in R.EFFECTS["gpu-memory-held-elsewhere"]["supports"] and "oom-killed-mid-step" in ids
    oom = next(m for m in result["matches"] if m["id"] == "oom-killed-mid-step")
    assert oom["confidence"] == "possible"
    assert any(w["kind"] == "context" and not w["fit"] and "gpu-memory-held-elsewhere" in w["text"] for w in oom["why"])
    lead = result["matches"][0]
    assert lead["causes"][0]["id"] in R.EFFECTS["gpu-memory-held-elsewhere"]["causes"][lead["id"]]


@pytest.mark.parametrize("text", [OWN_OLD, OWN_NEW, OWN_IN_CONTAINER])
def test_a_gpu_this_process_filled_stays_a_strong_oom(engine, text):
    result = engine.match(text)
    assert result["readings"] == []
    assert result["verdict"] == "confident" and result["matches"][0]["id"] == "oom-killed-mid-step"


def test_the_readings_name_references_and_causes_the_records_have():
    records = {r.id: r for r in load_records()}
    for kind, effect in R.EFFECTS.items():
        for ref in effect["against"] + effect["supports"]:
            assert ref in records, (kind, ref)
        for ref, causes in effect["causes"].items():
            assert ref in effect["supports"], (kind, ref)
            assert set(causes) <= {c["id"] for c in records[ref].data["causes"]}, (kind, ref)


@pytest.mark.parametrize("seq", [2, 3, R.EARLY_SEQ])
def test_a_barrier_among_the_first_collectives_is_read_as_a_rank_busy_before_training(seq):
    got = read(watchdog(seq), BARRIER, 7)
    assert got is not None and got.line == 7 and got.text.startswith(f"WorkNCCL(SeqNum={seq}, OpType=ALLREDUCE, NumelIn=1")
    assert got.reason.startswith(f"the timed-out work is collective {seq} of its process group")


@pytest.mark.parametrize("line", [watchdog(1), watchdog(R.EARLY_SEQ + 1), watchdog(1580), watchdog(3, numel=466119168),
                                  watchdog(3, op="BROADCAST"), watchdog(3, op="_ALLGATHER_BASE")])
def test_the_first_collective_a_later_one_or_real_data_gives_no_barrier_reading(line):
    """SeqNum 1 also sets up NCCL's connections (a blocked network stops there); later or larger work
    is training's own."""
    assert read(line, BARRIER) is None


def test_an_early_barrier_timeout_names_the_long_phase_and_the_blocked_rank(engine):
    result = engine.match(watchdog(4))
    assert [r["id"] for r in result["readings"]] == [BARRIER] and result["answer"].startswith("Read from line 1:")
    assert result["verdict"] != "confident"
    top = {m["id"]: m for m in result["matches"][:2]}
    assert set(top) == {"training-stuck-no-progress", "silent-hang"}
    assert top["training-stuck-no-progress"]["causes"][0]["id"] == "long-phase-trips-timers"
    assert top["silent-hang"]["causes"][0]["id"] == "rank-blocked-outside-collective"
    later = engine.match(watchdog(1580))
    assert later["readings"] == []


def test_a_line_two_signatures_matched_is_read_once():
    class Hit:
        def __init__(self, line_no, text):
            self.line_no, self.text = line_no, text
    got = R.Readings().read([Hit(5, HELD_OLD), Hit(2, FRAG_NEW), Hit(5, HELD_OLD)])
    assert [(r.id, r.line) for r in got] == [(FRAGMENTED, 2), (ELSEWHERE, 5)]


@pytest.mark.skipif(shutil.which("node") is None, reason="node is needed to run the browser engine")
def test_the_browser_twin_reads_the_same():
    """readings.js, through node, on the same lines: the same readings, in the same words."""
    lines = [HELD_OLD, HELD_NEW, OWN_OLD, OWN_NEW, OWN_IN_CONTAINER, SMALL_NEIGHBOUR, FRAG_NEW, FRAG_OLD, TOO_LARGE,
             watchdog(1), watchdog(2), watchdog(R.EARLY_SEQ), watchdog(R.EARLY_SEQ + 1), watchdog(3, numel=9801523)]
    out = subprocess.run(["node", str(RUNNER)], input=json.dumps({"table": R.table(), "lines": lines}),
                         capture_output=True, text=True, check=True).stdout
    rules = R.Readings()
    mine = [[[x.id, x.line, x.text, x.reason] for x in rules.of_line(i + 1, t)] for i, t in enumerate(lines)]
    assert json.loads(out) == mine
    assert sum(len(x) for x in mine) == 6


# --- a run of step-time lines ----------------------------------------------------------------

def megatron(times_ms):
    """Megatron-LM's training_log line (megatron/training/training.py), numbers of our own."""
    return "".join(f" iteration {1000 + 10 * k:8d}/   20000 | consumed samples:      {256000 + 2560 * k:8d} | "
                   f"elapsed time per iteration (ms): {t:.1f} | learning rate: 3.000E-04 | global batch size:   256 |\n"
                   for k, t in enumerate(times_ms))


def steps_read(engine, text):
    return [r for r in engine.match(text)["readings"] if r["id"] == "step-time-rose"]


def test_a_step_time_that_doubles_brings_up_the_straggler_page_with_its_numbers(engine):
    result = engine.match(megatron([812, 810, 815, 811, 811, 814, 1650, 1663, 1648, 1671, 1655, 1660]))
    reading = next(r for r in result["readings"] if r["id"] == "step-time-rose")
    assert reading["line"] == 7 and "elapsed time per iteration (ms): 1650.0" in reading["text"]
    assert "from 811.5 ms to 1.7 s (2.0 times) between line 1 and line 12" in reading["reason"]
    top = result["matches"][0]
    assert top["id"] == "straggler-slow-rank" and top["confidence"] == "possible" and not result["confident"]
    assert top["causes"][0]["id"] == "slow-worker-hardware"
    assert result["answer"].startswith("Read from line 7: the time per step went from")


@pytest.mark.parametrize("times", [
    [812, 810, 815, 811, 811, 814, 818, 809, 820, 815],   # steady
    [2400, 1900, 1200, 900, 850, 820, 815, 812, 818, 811],  # warm-up: faster, not slower
    [812, 810, 815, 1650, 1663],                          # too few lines to say
    [812, 810, 815, 811, 811, 814, 1100, 1120, 1090, 1105, 1111, 1098],  # a third slower: within what is read as jitter
])
def test_a_steady_faster_short_or_slightly_slower_run_says_nothing(engine, times):
    assert steps_read(engine, megatron(times)) == []


@pytest.mark.parametrize("end", ["\n", "\r"])
def test_a_tqdm_bar_that_slows_from_it_per_second_to_seconds_per_it_is_one_series(engine, end):
    """A pasted bar has a line per update; a log file keeps tqdm's carriage returns, and one LF
    line holds every update (line numbers count LF ends)."""
    rates = ["4.12it/s", "4.10it/s", "4.15it/s", "4.11it/s", "1.35s/it", "1.41s/it", "1.38s/it", "1.44s/it"]
    bar = end.join(f"{p:3d}%|####      | {p}/100 [00:{p:02d}<00:40, {r}]" for p, r in zip(range(10, 100, 8), rates))
    reading = steps_read(engine, bar + "\n")
    assert reading and "from 243.0 ms to 1.4 s (5.7 times)" in reading[0]["reason"]
    assert ("between line 1 and line 8" if end == "\n" else "on line 1") in reading[0]["reason"]


def test_deepspeed_samples_per_second_that_halve_are_steps_twice_as_long(engine):
    """DeepSpeed's ThroughputTimer line (deepspeed/utils/timer.py), numbers of our own: a rate, so
    half the samples per second is twice the time per step; a steady rate says nothing."""
    def log(rates):
        return "".join(f"[2026-12-03 10:{k:02d}:00,000] [INFO] [timer.py:264:stop] epoch=0/micro_step={100 * k}/"
                       f"global_step={100 * k}, RunningAvgSamplesPerSec=61.2, CurrSamplesPerSec={r}, "
                       "MemAllocated=10.21GB, MaxMemAllocated=18.7GB\n" for k, r in enumerate(rates, 1))
    reading = steps_read(engine, log([61.23, 60.98, 61.5, 61.07, 60.87, 29.96, 30.12, 29.85, 30.2, 30.05]))
    assert reading and reading[0]["line"] == 6 and "(2.0 times) between line 1 and line 10" in reading[0]["reason"]
    assert steps_read(engine, log([61.23, 60.98, 61.5, 61.07, 60.87, 61.2, 61.1, 60.9])) == []


def test_a_loop_of_ones_own_that_says_a_step_took_longer_is_read_and_other_durations_are_not(engine):
    """"Iteration took N s." after a step word is a step time; a save or an epoch that took long is not."""
    times = [32.7, 32.4, 32.8, 31.7, 30.5, 32.5, 108.5, 102.5, 101.5, 102.8, 105.7, 101.4]
    log = "".join(f"2026-12-03 05:{k:02d}:18,834: Iteration took {t:.3f} s.\n" for k, t in enumerate(times))
    reading = steps_read(engine, log)
    assert reading and reading[0]["line"] == 7 and "(3.2 times)" in reading[0]["reason"]
    other = "".join(f"Saving the checkpoint took {t:.3f} s.\nEpoch {k} took {t * 60:.1f} seconds\n" for k, t in enumerate(times))
    assert steps_read(engine, other) == []


def test_a_long_log_compares_its_first_steps_with_its_last(engine):
    """The scan keeps the first and last few lines of each form, so a log of any length is read
    as its start against its end, in bounded memory."""
    text = megatron([800 + (k % 7) for k in range(3000)] + [1700 + (k % 5) for k in range(3000)])
    reading = steps_read(engine, text)
    assert reading and reading[0]["line"] > 3000 and "between line 1 and line 6000" in reading[0]["reason"]


# --- several watchdog lines together ----------------------------------------------------------

def timeout_line(rank, seq, op, numel, pg=None):
    """The watchdog's timeout line as ProcessGroupNCCL.cpp prints it (numbers of our own)."""
    who = f"[PG ID {pg} PG GUID {pg}(default_pg) Rank {rank}]" if pg is not None else f"[Rank {rank}]"
    return (f"[rank{rank}]:[E918 19:29:2{rank}.436955737 ProcessGroupNCCL.cpp:689] {who} Watchdog caught collective "
            f"operation timeout: WorkNCCL(SeqNum={seq}, OpType={op}, NumelIn={numel}, NumelOut={numel}, "
            f"Timeout(ms)=600000) ran for 600097 milliseconds before timing out.\n")


def mismatch(engine, text):
    return [r for r in engine.match(text)["readings"] if r["id"] == "collective-mismatch"]


def test_two_ranks_timing_out_in_one_collective_with_different_sizes_read_as_a_desync(engine):
    text = timeout_line(3, 7219, "BROADCAST", 64) + timeout_line(2, 7219, "BROADCAST", 24084544)
    result = engine.match(text)
    reading = next(r for r in result["readings"] if r["id"] == "collective-mismatch")
    assert reading["line"] == 2
    assert "(BROADCAST of 64 elements; BROADCAST of 24084544 elements)" in reading["reason"]
    top = result["matches"][0]
    assert top["id"] in ("silent-hang", "training-stuck-no-progress") and not result["confident"]
    assert top["causes"][0]["id"] in ("collective-desync", "rank-divergent-collectives")
    lost = next(m for m in result["matches"] if m["id"] == "gpu-lost-collective-timeout")
    assert lost["confidence"] != "strong" and lost["score"] < top["score"]


@pytest.mark.parametrize("lines", [
    [(3, 7219, "ALLREDUCE", 1024), (2, 7219, "ALLREDUCE", 1024)],        # every rank in the same collective
    [(3, 7219, "BROADCAST", 1024), (2, 7220, "BROADCAST", 64)],          # a broadcast's root may finish first
    [(3, 7219, "ALLREDUCE", 1024, 0), (2, 7219, "ALLGATHER", 64, 1)],    # two process groups
])
def test_the_same_work_another_collective_or_another_group_is_no_mismatch(engine, lines):
    assert mismatch(engine, "".join(timeout_line(*line) for line in lines)) == []


def test_an_operation_that_differs_at_the_same_seqnum_is_a_mismatch_too(engine):
    text = timeout_line(0, 88, "ALLREDUCE", 4096, 0) + timeout_line(1, 88, "ALLGATHER", 4096, 0)
    assert "(ALLREDUCE of 4096 elements; ALLGATHER of 4096 elements)" in mismatch(engine, text)[0]["reason"]


def test_ranks_stuck_at_different_all_reduces_of_one_group_read_as_a_desync(engine):
    """An all-reduce completes on no rank until every rank joins, so one rank at SeqNum 959 and the
    others at 963 issued different collectives."""
    text = timeout_line(0, 959, "ALLREDUCE", 544997376) + timeout_line(1, 963, "ALLREDUCE", 2560) + \
        timeout_line(5, 963, "ALLREDUCE", 2560)
    reading = mismatch(engine, text)
    assert reading and reading[0]["line"] == 2
    assert "(ALLREDUCE at SeqNum 959, ALLREDUCE at SeqNum 963)" in reading[0]["reason"]
