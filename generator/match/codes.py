"""The fault codes a line names: Xid and SXid numbers, NCCL results, CUDA errors, exit statuses and
signals, Kubernetes reasons, Slurm states and reasons, DCGM failure codes. Twin:
docs/assets/javascripts/match/codes.js.

Each detector is an RE2 rule with one group that captures the code as printed; `names` maps printed texts (the strings cudaGetErrorString, ncclGetErrorString or
strsignal print) to the code's name. The code tables (codes/*.yaml) say what each code means; the
index carries the part the engine shows. A signal and the exit statuses it gives are one event:
SIGKILL is exit 137 from a shell or container runtime and -9 from torchrun or Python.
"""
from .dialect import compile_rule, required_literals

# (kind, pattern with one group, ignore case); the literals a line must hold for a detector to be
# tried are read from its pattern (dialect.required_literals), as for signatures.
DETECTORS = [
    # A GPU in MIG mode names the instance after the bus id: "(PCI:0000:3b:00 GPU-I:01 GPU-CI:02)".
    ("xid", r"\bXid (?:\(PCI:[0-9A-Fa-f:.]{4,20}(?: GPU-I:\d{1,3}(?: GPU-CI:\d{1,3})?)?\):? ?)?(\d{1,3})\b", False),
    ("sxid", r"\bSXid \(PCI:[0-9A-Fa-f:.]{4,20}\): (\d{5})\b", False),
    ("cuda", r"\b(cudaError[A-Z][A-Za-z]{2,60})\b", False),
    ("cuda-text", r"CUDA error: ([a-zA-Z][a-zA-Z0-9 ()/,'-]{2,100})", False),
    ("cuda-oom", r"(CUDA out of memory)", False),
    ("nccl", r"\b(ncclUnhandledCudaError|ncclSystemError|ncclInternalError|ncclInvalidArgument|"
             r"ncclInvalidUsage|ncclRemoteError|ncclInProgress)\b", False),
    ("nccl-text", r"NCCL.{0,200}?(unhandled system error|unhandled cuda error|internal error|"
                  r"invalid argument|invalid usage|remote process exited or there was a network error)", False),
    ("exit", r"\bexit ?(?:code|status)[: ]{1,8}(-?\d{1,3})\b", True),
    ("exit", r"\bexitcode ?[:=] ?(-?\d{1,3})\b", False),
    ("exit", r"\b[Ee]xited with code (\d{1,3})\b", False),
    ("signal", r"\b(SIG(?:HUP|INT|QUIT|ILL|ABRT|BUS|FPE|KILL|USR1|SEGV|USR2|PIPE|ALRM|TERM|XCPU|XFSZ))\b", False),
    ("signal-text", r"killed by signal: (Killed|Terminated|Segmentation fault|Bus error|Aborted|"
                    r"Hangup|Interrupt|Floating point exception)", False),
    ("signal-text", r"(?:^|[\s\]:])(Killed)\s{0,3}$", False),
    ("k8s", r"\b(OOMKilled|Evicted|Preempting|DeadlineExceeded|CrashLoopBackOff)\b", False),
    ("slurm", r"\b(OUT_OF_MEMORY|PREEMPTED|NODE_FAIL|"
              r"DUE TO TIME LIMIT|DUE TO PREEMPTION|DUE TO NODE FAILURE|DUE TO JOB REQUEUE)\b", False),
    # sacct's State column is 10 characters wide and marks a cut value with "+" (print_fields_str).
    ("slurm-text", r"\b(OUT_OF_ME\+)(?:\s|$)", False),
    ("dcgm", r"\b(DCGM_FR_[A-Z0-9_]{3,60})\b", False),
]
# Printed texts to code names (cudaGetErrorString, strsignal, and the result codes NCCL prints as text).
NAMES = {
    "cuda-oom": {"CUDA out of memory": "cudaErrorMemoryAllocation"},
    "slurm-text": {"OUT_OF_ME+": "OUT_OF_MEMORY"},
    "signal-text": {"Killed": "SIGKILL", "Terminated": "SIGTERM", "Segmentation fault": "SIGSEGV", "Bus error": "SIGBUS",
                    "Aborted": "SIGABRT", "Hangup": "SIGHUP", "Interrupt": "SIGINT", "Floating point exception": "SIGFPE"},
}
KIND_OF = {"cuda-text": "cuda", "cuda-oom": "cuda", "nccl-text": "nccl", "signal-text": "signal", "slurm-text": "slurm"}


class Detector:
    def __init__(self, table: list | None = None):
        self.rules = [(kind, required_literals(pattern), compile_rule(pattern, ignore_case), ignore_case)
                      for kind, pattern, ignore_case in (table or DETECTORS)]

    def codes_in(self, line: str, texts: dict) -> list[tuple[str, str]]:
        """(kind, name) of each code the line names, in order, without repeats. `texts` maps
        each family's printed texts to names (cuda and nccl from the code tables)."""
        found, lowered = [], None
        for kind, literals, rule, ignore_case in self.rules:
            if ignore_case:
                lowered = lowered if lowered is not None else line.lower()
            hay = lowered if ignore_case else line
            if not any((lit.lower() if ignore_case else lit) in hay for lit in literals):
                continue
            for m in rule.finditer(line):
                code = _name(kind, m.group(1), texts)
                if code is not None and code not in found:
                    found.append(code)
        return found


def _name(kind: str, printed: str, texts: dict):
    family = KIND_OF.get(kind, kind)
    if kind in NAMES:
        return family, NAMES[kind][printed]
    if kind in ("cuda-text", "nccl-text"):
        best = max((t for t in texts.get(family, {}) if printed.startswith(t)), key=len, default=None)
        return (family, texts[family][best]) if best else None
    if kind == "slurm" and printed.startswith("DUE TO "):
        return family, printed
    return family, printed
