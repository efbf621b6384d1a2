"""What the numbers of a matched line say. Twin: docs/assets/javascripts/match/readings.js.

One reading today: where the memory of a GPU that ran out went. PyTorch's out-of-memory message
gives the GPU's total and free memory and what its own allocator holds; the rest is held "by the
driver and usage by other programs" (the comment above the message in
c10/cuda/CUDACachingAllocator.cpp). When that rest is most of the GPU, the process that failed was
not the one that filled it: another process (a leftover of an earlier run, or a job sharing the GPU)
is the story to check first, and the reference about this process's own demand cannot be `strong`.
A message that names a memory fraction ("... allowed;") matches no form: there the cap, not
another process, may be what ran out.
"""
import math
from dataclasses import dataclass, field

from .dialect import compile_rule

SIZE = r"([0-9]{1,9}(?:\.[0-9]{1,4})?) (bytes|KiB|MiB|GiB)"
_SIZE = r"[0-9]{1,9}(?:\.[0-9]{1,4})? (?:bytes|KiB|MiB|GiB)"
GIB = {"bytes": 1 / 2 ** 30, "KiB": 1 / 2 ** 20, "MiB": 1 / 2 ** 10, "GiB": 1.0}
# Each form: its pattern, and the sizes its groups capture, in order.
FORMS = [
    # PyTorch 2.1 and later ("capacty" in some 2.1 builds); up to 8 processes listed by NVML.
    (r"GPU [0-9]{1,3} has a total capac(?:i)?ty of " + SIZE + r" of which " + SIZE + r" is free\. "
     r"(?:(?:Process [0-9]{1,10}|Including non-PyTorch memory, this process) has " + _SIZE + r" memory in use\. ){0,9}"
     r"Of the allocated memory " + SIZE + r" is allocated by PyTorch, "
     r"(?:with " + _SIZE + r" allocated in private pools \(e\.g\., CUDA Graphs\), )?and " + SIZE +
     r" is reserved by PyTorch but unallocated",
     ("total", "free", "allocated", "unallocated")),
    # PyTorch 1.x to 2.0
    (r"\(GPU [0-9]{1,3}; " + SIZE + r" total capacity; " + SIZE + r" already allocated; " + SIZE + r" free; " + SIZE +
     r" reserved in total by PyTorch\)",
     ("total", "allocated", "free", "reserved")),
]
ELSEWHERE_SHARE = 0.5  # of the GPU: far above a CUDA context and library workspaces (a few GiB at most)
ELSEWHERE_MIN_GIB = 1.0
AGAINST = ("oom-killed-mid-step", "caching-allocator-fragmentation-stragglers")
SUPPORTS = ("zombie-gpu-process", "training-restart-stuck")
# The causes of the supported references the reading points at (tests/test_readings.py checks they exist).
CAUSES = {"zombie-gpu-process": ("orphaned-live-processes",), "training-restart-stuck": ("gpus-still-held",)}


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

    def read(self, hits) -> list[Reading]:
        """Readings of the matched lines (objects with .line_no and .text), one per line at most."""
        out = []
        for hit in hits:
            reading = self.memory_elsewhere(hit.line_no, hit.text)
            if reading is not None:
                out.append(reading)
        return out

    def memory_elsewhere(self, line_no: int, text: str) -> Reading | None:
        for rx, names in self.forms:
            m = rx.search(text)
            if m is None:
                continue
            sizes = {name: float(m.group(2 * i + 1)) * GIB[m.group(2 * i + 2)] for i, name in enumerate(names)}
            reserved = sizes["reserved"] if "reserved" in sizes else sizes["allocated"] + sizes["unallocated"]
            elsewhere = sizes["total"] - sizes["free"] - reserved
            if elsewhere < ELSEWHERE_MIN_GIB or elsewhere < ELSEWHERE_SHARE * sizes["total"]:
                return None
            reason = (f"{_gib(elsewhere)} of the GPU's {_gib(sizes['total'])} is neither free nor held by this "
                      f"process's PyTorch allocator ({_gib(reserved)}): another process or the driver holds it")
            return Reading("gpu-memory-held-elsewhere", line_no, m.group(0)[:300], reason, AGAINST, SUPPORTS, CAUSES)
        return None


def _gib(x: float) -> str:
    return f"{math.floor(x * 10 + 0.5) / 10:.1f} GiB"  # half up, as the browser engine rounds


def table(known: set | None = None) -> dict:
    """The rules as the index carries them to the browser engine."""
    def kept(refs):
        return [r for r in refs if known is None or r in known]
    return {"forms": [[p, list(names)] for p, names in FORMS], "gib": GIB, "share": ELSEWHERE_SHARE,
            "min_gib": ELSEWHERE_MIN_GIB, "against": kept(AGAINST), "supports": kept(SUPPORTS),
            "causes": {ref: list(ids) for ref, ids in CAUSES.items() if ref in kept([ref])}}
