"""What the numbers of a matched line say. Twin: docs/assets/javascripts/match/readings.js.

Five readings today. Two are of PyTorch's CUDA out-of-memory message, which gives the request,
the GPU's total and free memory and what its own allocator holds:
- gpu-memory-held-elsewhere: what total, free and the allocator's reserve leave over is held "by
  the driver and usage by other programs" (the comment above the message in
  c10/cuda/CUDACachingAllocator.cpp). When that rest is most of the GPU, the process that failed was
  not the one that filled it: another process (a leftover of an earlier run, or a job sharing the
  GPU) is the story to check first, and the reference about this process's own demand cannot be
  `strong`.
- gpu-memory-fragmented: the request was no larger than the free memory plus what the allocator
  holds reserved but unallocated, and still failed. Before raising, the allocator has released
  every cached block it can; what stays cached is split from blocks partly in use (the same
  comment), so the memory existed, in pieces no request of that size could use.
A message that names a memory fraction ("... allowed;") matches no form: there the cap may be what
ran out.

One reading of the NCCL watchdog's timeout line, which prints the timed-out work as
"WorkNCCL(SeqNum=N, OpType=..., NumelIn=N, NumelOut=N, ...)" (torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp):
- early-barrier-timeout: an all-reduce of one element is how ProcessGroupNCCL::barrier() waits
  for every rank ("All reduce to achieve the barrier", on a one-element tensor), and a SeqNum of
  2 to EARLY_SEQ says the job had got no further than its first few collectives. One rank had
  not reached it while the others waited: a rank doing work the others skip (preparing,
  downloading or tokenizing data, loading a model) for longer than the timeout. A scalar
  all-reduce in the first steps prints the same line, so the reading names the story to check
  first, not a certainty. SeqNum 1 is left out: the very first collective also sets up NCCL's
  connections, so a blocked network stops there too.

One reading of several watchdog timeout lines together:
- collective-mismatch: two lines time out in the same collective of the same process group (the
  same SeqNum) with different work (OpType, NumelIn or NumelOut differ), or at different SeqNums of
  collectives such as all-reduce and all-gather, which complete on no rank before every rank joins:
  ranks stuck at different points of one sequence issued different collectives. Each rank's WorkNCCL is its
  own view of the collective it entered; ranks that disagree on it were running different code paths,
  which is what PyTorch's desync debugging reports, so the job is stuck on a collective mismatch, not
  on a slow or lost peer (those leave every rank in the same collective).

One reading of a run of step-time lines (the time per training step as the trainer prints it,
read on every line that prints it, in line order):
- step-time-rose: the median step of the second half of the run is at least STEP_RISE times the
  median of its first half, and nothing failed. In synchronous training every collective waits for
  the slowest rank, so one slow machine or link makes every rank's step slower at once: the
  straggler story, with its slow-machine and slow-link causes to check first. A log of millions of
  lines is read on the step lines the scan keeps (the first and the last few, scan.STEPS_KEPT), so
  it compares the log's start with its end.
"""
import math
import statistics
from dataclasses import dataclass, field

from .dialect import compile_rule, required_literals

SIZE = r"([0-9]{1,9}(?:\.[0-9]{1,4})?) (bytes|KiB|MiB|GiB)"
_SIZE = r"[0-9]{1,9}(?:\.[0-9]{1,4})? (?:bytes|KiB|MiB|GiB)"
GIB = {"bytes": 1 / 2 ** 30, "KiB": 1 / 2 ** 20, "MiB": 1 / 2 ** 10, "GiB": 1.0}
# Each form: its pattern, and the sizes its groups capture, in order.
FORMS = [
    # The newer form (c10/cuda/CUDACachingAllocator.cpp at 001074d2; "capacty" in some reports), with a
    # clause per process NVML lists.
    (r"Tried to allocate " + SIZE + r"\. GPU [0-9]{1,3} has a total capac(?:i)?ty of " + SIZE + r" of which " + SIZE +
     r" is free\. (?:(?:Process [0-9]{1,10}|Including non-PyTorch memory, this process) has " + _SIZE +
     r" memory in use\. ){0,9}Of the allocated memory " + SIZE + r" is allocated by PyTorch, "
     r"(?:with " + _SIZE + r" allocated in private pools \(e\.g\., CUDA Graphs\), )?and " + SIZE +
     r" is reserved by PyTorch but unallocated",
     ("request", "total", "free", "allocated", "unallocated")),
    # The older form ("... reserved in total by PyTorch)")
    (r"Tried to allocate " + SIZE + r" \(GPU [0-9]{1,3}; " + SIZE + r" total capacity; " + SIZE + r" already allocated; " +
     SIZE + r" free; " + SIZE + r" reserved in total by PyTorch\)",
     ("request", "total", "allocated", "free", "reserved")),
]
ELSEWHERE_SHARE = 0.5  # of the GPU, chosen here well above what the driver and libraries hold outside PyTorch
MIN_GIB = 1.0          # held elsewhere, or cached in pieces, for a reading to say so
FRAGMENTED_SHARE = 0.1  # of the GPU cached in pieces, chosen here: below it the GPU is simply full
BARRIER = r"WorkNCCL\(SeqNum=([0-9]{1,12}), OpType=ALLREDUCE, NumelIn=1, NumelOut=1\b"
EARLY_SEQ = 10  # chosen here: a job's setup makes a handful of collectives before its first step
# Collectives whose result on any rank needs every rank's input, so none completes before all join.
ALL_JOIN = ("ALLREDUCE", "ALLGATHER", "REDUCE_SCATTER", "_ALLGATHER_BASE", "_REDUCE_SCATTER_BASE", "ALLTOALL", "ALLTOALL_BASE")
# The work a watchdog line names, with the process group when the line gives it.
WORK = (r"(?:\[PG ID ([0-9]{1,6}) [^\]]{0,80}\][^\n]{0,80}?)?WorkNCCL\(SeqNum=([0-9]{1,12}), OpType=([A-Z_]{2,30}), "
        r"NumelIn=([0-9]{1,15}), NumelOut=([0-9]{1,15})")
# Step-time forms: (name, RE2 pattern with a number group and a unit group, which group is which,
# seconds per step for each unit, or None for a rate in steps per second).
STEP_FORMS = [
    # Megatron-LM's training_log: " elapsed time per iteration (ms): {:.1f} |"; some
    # Megatron-DeepSpeed releases print seconds, " elapsed time per iteration (s): {:.2f} |".
    ("megatron", r"elapsed time per iteration \((ms|s)\): ([0-9]{1,9}(?:\.[0-9]{1,3})?)", ("unit", "value"),
     {"ms": 0.001, "s": 1.0}),
    # tqdm's format_meter: "{0:5.2f}" then "s/it" when a step takes over a second, else "it/s"; a bar
    # that slows down goes from one to the other.
    ("tqdm", r"\b([0-9]{1,7}\.[0-9]{2}) ?(s/it|it/s)\b", ("value", "unit"), {"s/it": 1.0, "it/s": None}),
    # A training loop of one's own: "Iteration took 32.709 s.", "step 120 took 1.8s". No one printer:
    # the form is the plain sentence, read only after a step word and only with "took".
    ("took", r"\b(?:[Ii]teration|[Ii]ter|[Ss]tep)\b[^|\n]{0,60}?\btook ([0-9]{1,7}(?:\.[0-9]{1,6})?) ?(ms|s|sec|secs|seconds)\b",
     ("value", "unit"), {"ms": 0.001, "s": 1.0, "sec": 1.0, "secs": 1.0, "seconds": 1.0}),
    # DeepSpeed's ThroughputTimer (deepspeed/utils/timer.py): "epoch=0/micro_step=10/global_step=10,
    # RunningAvgSamplesPerSec=..., CurrSamplesPerSec=..., MemAllocated=..." every steps_per_print steps;
    # the current rate is the batch over this step's time, a float as Python prints it.
    ("deepspeed", r"(CurrSamplesPerSec)=([0-9]{1,9}(?:\.[0-9]{1,20})?)\b", ("unit", "value"), {"CurrSamplesPerSec": None}),
]
STEP_RISE = 1.5   # chosen here: well past the jitter of a healthy run's step time
STEP_POINTS = 6   # chosen here: fewer step lines say little about a trend
# What each reading speaks for and against, and the causes of the references it speaks for that it
# points at (tests/test_readings.py checks they exist).
EFFECTS = {
    "gpu-memory-held-elsewhere": {
        "against": ("oom-killed-mid-step", "caching-allocator-fragmentation-stragglers"),
        "supports": ("zombie-gpu-process", "training-restart-stuck"),
        "causes": {"zombie-gpu-process": ("orphaned-live-processes",), "training-restart-stuck": ("gpus-still-held",)}},
    "gpu-memory-fragmented": {
        "against": ("oom-killed-mid-step",),  # the memory was there, so "GPU memory ran out" cannot be sure
        "supports": ("caching-allocator-fragmentation-stragglers",),
        "causes": {"caching-allocator-fragmentation-stragglers": ("segment-fragmentation",)}},
    "early-barrier-timeout": {
        "against": (),
        "supports": ("training-stuck-no-progress", "silent-hang"),
        "causes": {"training-stuck-no-progress": ("long-phase-trips-timers",),
                   "silent-hang": ("rank-blocked-outside-collective",)}},
    "collective-mismatch": {  # against nothing: it says which story to check first, and a line that
        # names a lost GPU must still be able to decide
        "against": (),
        "supports": ("training-stuck-no-progress", "silent-hang"),
        "causes": {"training-stuck-no-progress": ("rank-divergent-collectives",), "silent-hang": ("collective-desync",)}},
    "step-time-rose": {
        "against": (),
        "supports": ("straggler-slow-rank",),
        "causes": {"straggler-slow-rank": ("slow-worker-hardware", "degraded-network-link")}},
}


@dataclass(frozen=True)
class Reading:
    id: str
    line: int
    text: str
    reason: str
    against: tuple = ()
    supports: tuple = ()
    causes: dict = field(default_factory=dict)

    def as_json(self) -> dict:
        return {"id": self.id, "line": self.line, "text": self.text, "reason": self.reason}


class Readings:
    def __init__(self):
        self.forms = [(compile_rule(pattern), names) for pattern, names in FORMS]
        self.barrier = compile_rule(BARRIER)
        self.work = compile_rule(WORK)
        self.steps = [(name, compile_rule(pattern), groups, units) for name, pattern, groups, units in STEP_FORMS]

    def read(self, hits) -> list[Reading]:
        """Readings of the matched lines (objects with .line_no and .text), first line first; a line
        several signatures matched is read once."""
        lines = {hit.line_no: hit.text for hit in hits}
        return [reading for line_no in sorted(lines) for reading in self.of_line(line_no, lines[line_no])] + \
            self.of_collectives(lines)

    def of_collectives(self, lines: dict) -> list[Reading]:
        """The collective-mismatch reading of the watchdog lines among `lines` (line number -> text):
        two lines of one process group at the same SeqNum with different work, or at different
        SeqNums of collectives that complete on no rank before every rank joins (ALL_JOIN)."""
        seen = {}  # process group -> [(SeqNum, work, line)] of its lines so far
        for line_no in sorted(lines):
            m = self.work.search(lines[line_no])
            if m is None:
                continue
            seq, work = m.group(2), (m.group(3), m.group(4), m.group(5))
            for other_seq, other, other_line in seen.get(m.group(1) or "", []):
                if other_seq == seq and other != work:
                    why = (f"lines {other_line} and {line_no} time out in the same collective (SeqNum {seq}) with different "
                           f"work ({_work(other)}; {_work(work)}): the ranks were not running the same collective, so "
                           "their code took different paths, not a slow or lost peer")
                elif other_seq != seq and other[0] in ALL_JOIN and work[0] in ALL_JOIN:
                    why = (f"lines {other_line} and {line_no} time out in different collectives of one process group "
                           f"({other[0]} at SeqNum {other_seq}, {work[0]} at SeqNum {seq}): such a collective completes on no "
                           "rank until every rank joins it, so ranks stuck at different points of one sequence issued "
                           "different collectives: their code took different paths, not a slow or lost peer")
                else:
                    continue
                return [Reading("collective-mismatch", line_no, m.group(0)[:300], why, **EFFECTS["collective-mismatch"])]
            seen.setdefault(m.group(1) or "", []).append((seq, work, line_no))
        return []

    def of_line(self, line_no: int, text: str) -> list[Reading]:
        sizes, clause = self.sizes(text)
        if sizes is None:
            return self.of_watchdog(line_no, text)
        said = ((kind, reason(sizes)) for kind, reason in READERS)
        return [Reading(kind, line_no, clause, why, **EFFECTS[kind]) for kind, why in said if why]

    def of_watchdog(self, line_no: int, text: str) -> list[Reading]:
        m = self.barrier.search(text)
        if m is None or not 2 <= int(m.group(1)) <= EARLY_SEQ:
            return []
        why = (f"the timed-out work is collective {int(m.group(1))} of its process group, an all-reduce of one element "
               "(how barrier() waits for all ranks): among the job's first few collectives a rank had not "
               "reached it, doing work the other ranks were not (preparing data, loading) for longer than the timeout")
        return [Reading("early-barrier-timeout", line_no, m.group(0)[:300], why, **EFFECTS["early-barrier-timeout"])]

    def of_steps(self, lines: list) -> list[Reading]:
        """The step-time reading of the step-time lines the scan kept ((line number, text), in log
        order): of the STEP_FORMS form that reads the most of them."""
        best = []
        for _, rx, groups, units in self.steps:
            points = []
            for line_no, text in lines:
                m = rx.search(text)
                if m is None:
                    continue
                value, unit = float(m.group(groups.index("value") + 1)), m.group(groups.index("unit") + 1)
                if value > 0:
                    points.append((line_no, value * units[unit] if units[unit] else 1 / value, m.group(0)))
            best = points if len(points) > len(best) else best
        if len(best) < STEP_POINTS:
            return []
        half = len(best) // 2
        before, after = statistics.median([p[1] for p in best[:half]]), statistics.median([p[1] for p in best[half:]])
        if after < STEP_RISE * before:
            return []
        line_no, _, shown = next(p for p in best if p[1] >= STEP_RISE * before)
        where = f"on line {best[0][0]}" if best[0][0] == best[-1][0] else f"between line {best[0][0]} and line {best[-1][0]}"
        why = (f"the time per step went from {_secs(before)} to {_secs(after)} ({_tenth(after / before)} times) {where}, "
               "with no error: in synchronous training one slow rank or link makes every rank wait at each collective")
        return [Reading("step-time-rose", line_no, shown[:300], why, **EFFECTS["step-time-rose"])]

    def sizes(self, text: str):
        """The sizes the message gives, in GiB (with `reserved`), and the clause they were read from."""
        for rx, names in self.forms:
            m = rx.search(text)
            if m is not None:
                sizes = {name: float(m.group(2 * i + 1)) * GIB[m.group(2 * i + 2)] for i, name in enumerate(names)}
                if "reserved" in sizes:
                    sizes["unallocated"] = sizes["reserved"] - sizes["allocated"]
                else:
                    sizes["reserved"] = sizes["allocated"] + sizes["unallocated"]
                return sizes, m.group(0)[:300]
        return None, ""


def _held_elsewhere(sizes: dict) -> str:
    elsewhere = sizes["total"] - sizes["free"] - sizes["reserved"]
    if elsewhere < MIN_GIB or elsewhere < ELSEWHERE_SHARE * sizes["total"]:
        return ""
    return (f"{_gib(elsewhere)} of the GPU's {_gib(sizes['total'])} is neither free nor held by this "
            f"process's PyTorch allocator ({_gib(sizes['reserved'])}): another process or the driver holds it")


def _fragmented(sizes: dict) -> str:
    if sizes["unallocated"] < max(MIN_GIB, FRAGMENTED_SHARE * sizes["total"]) or \
            sizes["request"] > sizes["free"] + sizes["unallocated"]:
        return ""
    return (f"the request of {_gib(sizes['request'])} was no larger than the free {_gib(sizes['free'])} plus "
            f"the {_gib(sizes['unallocated'])} reserved but unallocated, and still failed: the memory was there, "
            "in pieces too small for it")


# Each reading: its id (a key of EFFECTS) and what it says of the sizes, or "" when it does not hold.
READERS = [("gpu-memory-held-elsewhere", _held_elsewhere), ("gpu-memory-fragmented", _fragmented)]


def _gib(x: float) -> str:
    return f"{_tenth(x)} GiB"


def _work(work: tuple) -> str:
    op, numel_in, numel_out = work
    return f"{op} of {numel_in} elements" if numel_in == numel_out else f"{op} of {numel_in} in, {numel_out} out"


def _tenth(x: float) -> str:
    return f"{math.floor(x * 10 + 0.5) / 10:.1f}"  # half up, as the browser engine rounds


def _secs(x: float) -> str:
    return f"{_tenth(x)} s" if x >= 1 else f"{_tenth(x * 1000)} ms"




def table(known: set | None = None) -> dict:
    """The rules as the index carries them to the browser engine."""
    def kept(refs):
        return [r for r in refs if known is None or r in known]
    return {"forms": [[p, list(names)] for p, names in FORMS], "barrier": BARRIER, "work": WORK, "all_join": list(ALL_JOIN), "early_seq": EARLY_SEQ, "gib": GIB, "share": ELSEWHERE_SHARE, "min_gib": MIN_GIB,
            "fragmented_share": FRAGMENTED_SHARE, "steps": step_rules(), "step_rise": STEP_RISE, "step_points": STEP_POINTS,
            "effects": {kind: {"against": kept(e["against"]), "supports": kept(e["supports"]),
                               "causes": {ref: list(ids) for ref, ids in e["causes"].items() if known is None or ref in known}}
                        for kind, e in EFFECTS.items()}}


def step_rules() -> list[dict]:
    """The step-time forms as the index carries them (the scan keeps the lines holding their literals)."""
    return [{"id": name, "pattern": pattern, "groups": list(groups), "units": units, "literals": list(required_literals(pattern)),
             "ignore_case": False} for name, pattern, groups, units in STEP_FORMS]
