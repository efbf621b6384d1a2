"""Context hints: frameworks, hardware, environment, scale and the staleness window,
read from the user's context line and from the log itself. Twin: docs/assets/javascripts/match/hints.js."""
import re

FRAMEWORKS = [
    ("deepspeed", r"deepspeed"), ("vllm", r"vllm"), ("megatron-lm", r"megatron"), ("nixl", r"\bnixl\b"),
    ("ucx", r"\bucx\b"), ("jax", r"\bjax(?:lib)?\b"), ("tensorflow", r"tensorflow"), ("h5py", r"h5py|hdf5"),
    ("wandb", r"\bwandb\b"), ("tensorboard", r"tensorboard"), ("pytorch", r"\btorch\b|pytorch"),
    ("nccl", r"\bnccl\b"),
]
HARDWARE = [(m, rf"\b{m}\b") for m in ("gb200", "b200", "h200", "h100", "a100", "v100")] + [
    ("other-gpu", r"\brtx\b|\bl40s?\b|\ba10g?\b|\bt4\b|\ba40\b|\ba6000\b|\bmi[0-9]{3}x?\b|geforce|quadro")]
ENVIRONMENTS = [("kubernetes", r"kubernetes|\bk8s\b|kubectl|\bpod\b|oomkilled"),
                ("slurm", r"\bslurm|\bsrun\b|\bsbatch\b|slurmstepd"),
                ("spot-instances", r"\bspot\b")]
SCALE = re.compile(r"\b(\d{1,6})\s*(?:x\s*)?(?:gpus?|gb200s?|b200s?|h200s?|h100s?|a100s?|v100s?)\b|world_size\s*[=:]\s*(\d{1,6})")
VERSION = re.compile(r"\b(deepspeed|vllm|torch|pytorch|nccl|megatron|cuda|transformers|accelerate|driver)"
                     r"(?:==| version | v| )v?(\d{1,4}\.\d{1,4}(?:\.\d{1,4})?)")
WINDOW = re.compile(r"window\s*[=:]?\s*(\d{1,5})\s*(s|sec|seconds?|m|min|minutes?|h|hours?|d|days?)\b")
# Frameworks that mark a reference as specific to them: a log from another one of these conflicts.
SPECIFIC_FRAMEWORKS = {"deepspeed", "vllm", "megatron-lm", "nixl", "jax", "tensorflow"}
REPLAYED = re.compile(r"\b(archived?|postmortem|post-mortem|replay(ed)?|old log|documentation|readme|demo|"
                      r"synthetic|test fixture|injected|example log)\b")
UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
DEFAULT_WINDOW = 3600.0
_COMPILED = {name: [(key, re.compile(p)) for key, p in table]
             for name, table in (("frameworks", FRAMEWORKS), ("hardware", HARDWARE), ("environments", ENVIRONMENTS))}


NEGATED = re.compile(r"\b(?:no|not|without|non)[ -]+[a-z0-9][a-z0-9.-]*")  # "(no DeepSpeed)" is no hint


def read_hints(text: str) -> dict:
    """Hints found in `text` (lower-cased): sets of names, a scale in GPUs or None."""
    text = NEGATED.sub(" ", text.lower())
    hints = {name: sorted({key for key, rx in table if rx.search(text)}) for name, table in _COMPILED.items()}
    scales = [int(a or b) for a, b in SCALE.findall(text)]
    hints["scale"] = max(scales) if scales else None
    hints["versions"] = sorted({f"{name} {version}" for name, version in VERSION.findall(text)})
    return hints


def window_seconds(context: str) -> float:
    m = WINDOW.search(context.lower())
    if not m:
        return DEFAULT_WINDOW
    return float(int(m.group(1)) * UNIT_SECONDS[m.group(2)[0]])


def says_replayed(context: str) -> bool:
    """The user says the log is archived, replayed or an example, not live."""
    return bool(REPLAYED.search(context.lower()))
