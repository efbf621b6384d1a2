"""The identifiers people search by (Xid numbers, NCCL and CUDA error names, signals, exit
statuses, Kubernetes reasons), found in the lines a record's signatures print.

A code is (kind, name): ("xid", "79"), ("nccl", "ncclRemoteError"), ("signal", "SIGKILL"),
("exit", "137"), ("k8s", "OOMKilled"), ("cuda", "cudaErrorUnknown"). Codes are read from each
signature's example (what software really prints) with a small table of regexes; a signal and
the exit statuses it produces (128 + N from a shell or container runtime, -N from torchrun or
Python) are one event, so a mention of either is a mention of all three.
"""
import re
from dataclasses import dataclass

from ..match.dialect import compile_signature

KINDS = {
    "xid": "NVIDIA Xid errors",
    "nccl": "NCCL errors",
    "cuda": "CUDA errors",
    "signal": "Signals",
    "exit": "Exit statuses",
    "k8s": "Kubernetes reasons",
}

# Linux signal numbers (the same on x86-64 and arm64 for these).
SIGNALS = {1: "SIGHUP", 2: "SIGINT", 3: "SIGQUIT", 4: "SIGILL", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE",
           9: "SIGKILL", 10: "SIGUSR1", 11: "SIGSEGV", 12: "SIGUSR2", 13: "SIGPIPE", 14: "SIGALRM", 15: "SIGTERM"}
SIGNAL_NUMBERS = {name: no for no, name in SIGNALS.items()}
# What strsignal() prints, as in PyTorch's "DataLoader worker ... is killed by signal: Killed."
SIGNAL_TEXTS = {"Killed": "SIGKILL", "Terminated": "SIGTERM", "Segmentation fault": "SIGSEGV", "Bus error": "SIGBUS",
                "Aborted": "SIGABRT", "Hangup": "SIGHUP", "Interrupt": "SIGINT", "Floating point exception": "SIGFPE"}

NCCL_NAMES = ("ncclUnhandledCudaError", "ncclSystemError", "ncclInternalError", "ncclInvalidArgument",
              "ncclInvalidUsage", "ncclRemoteError", "ncclInProgress")
# ncclGetErrorString() texts, which PyTorch prints instead of the name ("NCCL error in: ..., unhandled system error").
NCCL_TEXTS = {"unhandled cuda error": "ncclUnhandledCudaError", "unhandled system error": "ncclSystemError",
              "internal error - please report this issue to the NCCL developers": "ncclInternalError",
              "invalid argument": "ncclInvalidArgument", "invalid usage": "ncclInvalidUsage",
              "remote process exited or there was a network error": "ncclRemoteError"}

# cudaGetErrorString() texts, which PyTorch prints as "CUDA error: <text>".
CUDA_TEXTS = {"out of memory": "cudaErrorMemoryAllocation", "unknown error": "cudaErrorUnknown",
              "uncorrectable ECC error encountered": "cudaErrorECCUncorrectable",
              "CUDA-capable device(s) is/are busy or unavailable": "cudaErrorDevicesUnavailable",
              "an illegal memory access was encountered": "cudaErrorIllegalAddress",
              "unspecified launch failure": "cudaErrorLaunchFailure", "device-side assert triggered": "cudaErrorAssert",
              "no CUDA-capable device is detected": "cudaErrorNoDevice", "invalid device ordinal": "cudaErrorInvalidDevice",
              "an illegal instruction was encountered": "cudaErrorIllegalInstruction",
              "misaligned address": "cudaErrorMisalignedAddress", "initialization error": "cudaErrorInitializationError"}

K8S_REASONS = ("OOMKilled", "Evicted", "CrashLoopBackOff", "FailedMount", "FailedScheduling", "ImagePullBackOff",
               "ErrImagePull", "DeadlineExceeded", "ContainerStatusUnknown")


def _alternatives(words) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


XID = re.compile(r"\bXid(?: \(PCI:[0-9A-Fa-f:.]{4,20}\))?:? (\d{1,3})\b")
# (regex, function from the match to the codes it names)
TABLE = [
    (XID, lambda m: [("xid", m.group(1))]),
    (re.compile(r"\b(" + _alternatives(NCCL_NAMES) + r")\b"), lambda m: [("nccl", m.group(1))]),
    (re.compile(r"NCCL.{0,200}?(" + _alternatives(NCCL_TEXTS) + ")"), lambda m: [("nccl", NCCL_TEXTS[m.group(1)])]),
    (re.compile(r"\b(cudaError[A-Z]\w{2,60}|CUDA_ERROR_[A-Z_]{3,60})\b"), lambda m: [("cuda", m.group(1))]),
    (re.compile(r"CUDA error: (" + _alternatives(CUDA_TEXTS) + ")"), lambda m: [("cuda", CUDA_TEXTS[m.group(1)])]),
    # PyTorch's caching allocator says this when cudaMalloc returns cudaErrorMemoryAllocation.
    (re.compile(r"CUDA out of memory"), lambda m: [("cuda", "cudaErrorMemoryAllocation")]),
    (re.compile(r"\b(" + _alternatives(SIGNAL_NUMBERS) + r")\b"), lambda m: [("signal", m.group(1))]),
    (re.compile(r"Received (\d{1,2}) death signal|got signal: (\d{1,2})\b|\bSignal (\d{1,2}) \("),
     lambda m: _signal_number(next(g for g in m.groups() if g))),
    (re.compile(r"killed by signal: (" + _alternatives(SIGNAL_TEXTS) + ")"), lambda m: [("signal", SIGNAL_TEXTS[m.group(1)])]),
    (re.compile(r"\bexit ?(?:code|status):?\s{1,8}(-?\d{1,3})\b", re.I), lambda m: [("exit", m.group(1))]),
    (re.compile(r"\b(" + _alternatives(K8S_REASONS) + r")\b"), lambda m: [("k8s", m.group(1))]),
]


def _signal_number(text: str) -> list:
    name = SIGNALS.get(int(text))
    return [("signal", name)] if name else []


def mentioned(text: str) -> set:
    """The codes a line names itself."""
    found = set()
    for regex, codes in TABLE:
        for m in regex.finditer(text):
            found.update(codes(m))
    return found


def with_equivalents(codes: set) -> set:
    """Add the exit statuses of each signal and the signal behind each signal exit status."""
    out = set(codes)
    for kind, name in codes:
        if kind == "signal" and name in SIGNAL_NUMBERS:
            no = SIGNAL_NUMBERS[name]
            out |= {("exit", str(128 + no)), ("exit", str(-no))}
        elif kind == "exit":
            status = int(name)
            no = -status if status < 0 else status - 128
            if no in SIGNALS:
                out |= {("signal", SIGNALS[no]), ("exit", str(128 + no)), ("exit", str(-no))}
    return out


def direct_codes(signature: dict) -> set:
    """The codes a signature's example names, and the other Xid numbers its pattern accepts."""
    return mentioned(signature["example"]) | _xid_variants(signature)


def signature_codes(signature: dict) -> set:
    """Every code a signature mentions, its signal equivalents included."""
    return with_equivalents(direct_codes(signature))


MAX_XID_VARIANTS = 12  # more than this means the pattern accepts any Xid: keep only the example's


def _xid_variants(signature: dict) -> set:
    """Other Xid numbers the pattern accepts in the example's place, e.g. (?:62|94)."""
    m = XID.search(signature["example"])
    if not m:
        return set()
    regex = compile_signature(signature["pattern"], signature.get("ignore_case", False))
    text = signature["example"]
    accepted = [n for n in range(1, 1000)
                if regex.search(text[:m.start(1)] + str(n) + text[m.end(1):])]
    return {("xid", str(n)) for n in accepted} if len(accepted) <= MAX_XID_VARIANTS else set()


@dataclass
class Mention:
    ref_id: str
    title: str
    signature_id: str
    example: str
    direct: bool  # False when only an equivalent (SIGKILL for exit 137) is named
    printed_as: list  # for an equivalent: the codes the line does name


def code_index(records) -> dict:
    """{(kind, name): [Mention, ...]} over every signature of every record."""
    index: dict = {}
    for record in records:
        for sig in record.data["signatures"]:
            direct = direct_codes(sig)
            for code in with_equivalents(direct):
                printed_as = [] if code in direct else sorted(direct & with_equivalents({code}), key=sort_key)
                index.setdefault(code, []).append(Mention(record.id, record.data["title"], sig["id"],
                                                          sig["example"], code in direct, printed_as))
    return index


def sort_key(code):
    kind, name = code
    order = list(KINDS).index(kind)
    number = name.lstrip("-").isdigit()
    return (order, 0 if number else 1, (int(name) < 0, abs(int(name))) if number else (False, 0), name.lower())


def title(code) -> str:
    kind, name = code
    if kind == "xid":
        return f"Xid {name}"
    if kind == "signal":
        return f"{name} (signal {SIGNAL_NUMBERS[name]})" if name in SIGNAL_NUMBERS else name
    if kind == "exit":
        return f"Exit status {name}"
    return name


def describe(code) -> str:
    """One line on what the code is; equivalences spelled out for signals and exit statuses."""
    kind, name = code
    if kind == "xid":
        return f"NVIDIA driver error {name}, printed to the kernel log as `NVRM: Xid (PCI:…): {name}, …`."
    if kind == "nccl":
        return f"The NCCL result `{name}`, raised by a collective or by communicator setup."
    if kind == "cuda":
        text = next((t for t, n in CUDA_TEXTS.items() if n == name), None)
        return f"The CUDA error `{name}`" + (f", printed as `CUDA error: {text}`." if text else ".")
    if kind == "k8s":
        return f"The Kubernetes reason `{name}`, shown by `kubectl describe pod` and in pod status and events."
    if kind == "signal" and name in SIGNAL_NUMBERS:
        no = SIGNAL_NUMBERS[name]
        return (f"Signal {no}. A process it kills exits with status {128 + no} as a shell or container runtime "
                f"reports it, and {-no} as torchrun or Python's subprocess reports it.")
    if kind == "exit":
        status = int(name)
        no = -status if status < 0 else status - 128
        if no in SIGNALS:
            how = "torchrun or Python's subprocess" if status < 0 else "a shell or container runtime"
            return f"The process was killed by {SIGNALS[no]} (signal {no}), as {how} reports it."
        return f"The process exited with status {name}."
    return ""


def slug(code) -> str:
    """The page's path under /codes/: names are kept as printed, so URLs read like the logs."""
    kind, name = code
    return f"{kind}/{name}"
