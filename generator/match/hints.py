"""What the context line and the log say about the setup, and what the user's words mean.
Twin: docs/assets/javascripts/match/hints.js.

Hints are names (frameworks, GPU models, environments, versions, a scale) read from the context and
from the log. Cues are phrases of the context read for their meaning: where a file came from
(provenance), how the job was scheduled (environment), whether the log is current (replay) and what
the job was doing when it stopped (phase); each has its reason and the references it speaks for or
against. A phase cue acts only on references the paste's lines already match: "while saving the
checkpoint" says which story of a collective timeout to check first, not that there was one. A cue is cancelled by a negation just
before it in the same clause ("NOT replayed", "no spot instances"). The rules are documented on the
matching page (docs/matching.md), each tested on cases written for it (tests/test_cues.py).
"""
from dataclasses import dataclass, field

from .dialect import compile_rule
from .text import ascii_lower

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
SCALE = r"\b(\d{1,6}) ?(?:x ?)?(?:gpus?|gb200s?|b200s?|h200s?|h100s?|a100s?|v100s?)\b|world_size ?[=:] ?(\d{1,6})"
VERSION = (r"\b(deepspeed|vllm|torch|pytorch|nccl|megatron|cuda|transformers|accelerate|driver)"
           r"(?:==| version | v| )v?(\d{1,4}\.\d{1,4}(?:\.\d{1,4})?)")
WINDOW = r"\bwindow ?[=:]? ?(\d{1,5}) ?(s|sec|seconds?|m|min|minutes?|h|hours?|d|days?)\b"
NEGATED = r"\b(?:no|not|without|non)[ -]+[a-z0-9][a-z0-9.-]{0,40}"  # "(no DeepSpeed)" names no framework
# Frameworks that mark a reference as specific to them: a log from another one of these conflicts.
SPECIFIC_FRAMEWORKS = {"deepspeed", "vllm", "megatron-lm", "nixl", "jax", "tensorflow"}
UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
DEFAULT_WINDOW = 3600.0

CHECKPOINT_WRITERS = ["checkpoint-corruption-on-write", "checkpoint-partial-save"]
# Resuming is reading back one's own run; published or downloaded weights are not a resume.
NOT_OWN_RUN = CHECKPOINT_WRITERS + ["training-resume-failure"]
PREEMPTION = ["job-preemption-spot-termination", "spot-instance-preemption"]
# A rank busy with work the others do not do (a save, an evaluation, data preparation) keeps them
# waiting in their next collective until the timeout fires: a timeout with no fault behind it.
STUCK = "training-stuck-no-progress"
ONE_SIDED = {STUCK: ["long-phase-trips-timers"], "silent-hang": ["rank-blocked-outside-collective"]}
# ZeRO-3 prefetches parameters in one mode (training, or evaluation and generation); a switch to the
# other leaves them in flight (the causes of the two in-flight pages say so).
MODE_SWITCH = {"deepspeed-zero3-inflight-params-backward": ["train-eval-switch"],
               "deepspeed-zero3-partition-inflight-save": ["in-flight-left-by-eval"]}


@dataclass(frozen=True)
class Cue:
    id: str
    kind: str              # provenance | environment | replay
    pattern: str           # RE2, on the lower-cased context
    reason: str
    against: tuple = ()    # references that assume otherwise: never strong while the cue holds
    supports: tuple = ()   # references the cue speaks for
    causes: dict = field(default_factory=dict)  # reference -> causes it puts first among those its lines name
    needs_lines: bool = False  # acts only on references a line of the paste matches


# The page about stale or replayed hardware evidence: a replay cue says which of its stories it is.
REPLAY_PAGE = "replayed-logs-false-hardware-diagnosis"
# A copy or download cut short leaves a truncated file that was never this job's writer's fault.
COPIED = {"hdf5-corruption": ["incomplete-copy"]}

CUES = [
    Cue("downloaded", "provenance", r"\b(?:down ?load(?:s|ed|ing)?|fetched|pulled)\b",
        "the file came from elsewhere, so no save by this job wrote it", against=tuple(CHECKPOINT_WRITERS),
        causes=COPIED),
    Cue("from-a-hub", "provenance", r"\b(?:hugging ?face|hf hub|from (?:the )?hub|model hub|modelscope)\b",
        "a file from a model hub was written by its publisher, not by this job's save", against=tuple(NOT_OWN_RUN)),
    Cue("pretrained", "provenance", r"\bpre-?trained\b|\bbase model\b|\bofficial (?:weights|checkpoints?)\b",
        "published weights are not this job's own checkpoint, nor a resume of its run", against=tuple(NOT_OWN_RUN)),
    Cue("copied-in", "provenance", r"\b(?:copied|scp|rsync(?:ed)?|transferred|moved) (?:it |them |the \w+ )?(?:from|over|across)\b",
        "a file copied from another place can be cut short by the copy, not by a save", against=tuple(CHECKPOINT_WRITERS),
        causes=COPIED),
    Cue("git-lfs", "provenance", r"\bgit[- ]?lfs\b|\blfs pointer\b",
        "a Git LFS pointer is a small text file standing in for the real one", against=tuple(CHECKPOINT_WRITERS)),
    Cue("someone-else", "provenance", r"\b(?:shared by|sent by|from a colleague|from (?:a|another) team|third[- ]party|someone else'?s?)\b",
        "a file made by someone else was not written by this job", against=tuple(CHECKPOINT_WRITERS)),
    Cue("object-store", "provenance", r"\b(?:from|out of) (?:s3|gcs|an? (?:s3 |gcs )?bucket|object storage|blob storage)\b|\bs3://|\bgs://",
        "a file read from object storage was written there by whatever uploaded it", against=tuple(CHECKPOINT_WRITERS),
        causes=COPIED),
    Cue("released-weights", "provenance", r"\breleased? (?:checkpoints?|weights|models?)\b|\bmodel card\b",
        "released weights are someone else's save, not a resume of this run", against=tuple(NOT_OWN_RUN)),
    Cue("converted", "provenance", r"\bconverted (?:from|with|by|using)\b|\bconversion script\b",
        "a converted file was written by the conversion, not by this job's save", against=tuple(CHECKPOINT_WRITERS)),
    Cue("restored-from-backup", "provenance", r"\brestored (?:it |them )?from (?:a |the )?backup\b|\bfrom (?:a |the )?backup copy\b",
        "a restored copy reflects the backup, not what this job's save wrote", against=tuple(CHECKPOINT_WRITERS)),
    Cue("other-job-same-machine", "environment",
        r"\b(?:another|second|other|a different) (?:jobs?|process(?:es)?|users?|containers?|trainings?) (?:is |are |was |were )?(?:on|sharing|using) (?:the same|this|that|my) (?:machine|node|gpus?|host|box)\b|\bshared (?:gpus?|nodes?|machines?)\b",
        "another job on the machine can hold GPU memory or devices", supports=("zombie-gpu-process",)),
    Cue("preemptible", "environment",
        r"\b(?:preemptible|pre-emptible|preempt(?:ed|ion)?|spot (?:instances?|vms?|nodes?|capacity|pool)|low[- ]priority (?:queue|partition|qos)|scavenger|evictable)\b",
        "machines that can be taken back make a preemption a likely end of the job", supports=tuple(PREEMPTION)),
    # The cloud a job ran on says whose reclaim a spot preemption was (the causes of the spot page).
    Cue("google-cloud", "environment", r"\b(?:gcp|gce|google cloud|compute engine|gke|cloud tpu|tpu ?vms?)\b",
        "on Google Cloud, spot, preemptible and TPU VMs are reclaimed by Compute Engine or the Cloud TPU service",
        causes={"spot-instance-preemption": ["gce-spot-preemption"]}),
    Cue("aws", "environment", r"\b(?:aws|ec2|amazon web services|eks|sagemaker)\b",
        "on AWS, spot instances are reclaimed by EC2", causes={"spot-instance-preemption": ["ec2-spot-reclaim"]}),
    Cue("azure", "environment", r"\b(?:azure|aks)\b",
        "on Azure, spot VMs are evicted by Azure", causes={"spot-instance-preemption": ["azure-spot-eviction"]}),
    # Where the job ran also says which story of a page to check first (each page's cause says so).
    Cue("in-a-container", "environment", r"\b(?:docker|podman|containers?|containeri[sz]ed|kubernetes|k8s|pods?)\b",
        "a container runs within its own /dev/shm size and memory limit, which DataLoader workers and a job's peak meet first",
        causes={"dataloader-failure": ["shm-exhausted"], "cgroup-memory-limit": ["limit-below-peak"],
                "network-partition": ["wrong-interface-or-blocked-port"]}),
    # Slurm's task/cgroup plugin (cgroup-memory-limit's Slurm lines) holds a job to its allocation.
    Cue("slurm-job", "environment", r"\bslurm\b|\bsrun\b|\bsbatch\b|\bsalloc\b",
        "where Slurm's task/cgroup plugin constrains memory, a job is killed at its allocation's limit before the host runs out",
        causes={"oom-killed-mid-step": ["cgroup-limit-hit"], "cgroup-memory-limit": ["limit-below-peak"]}),
    # Several writers of one path are each page's own story of a save gone wrong (their causes say so).
    Cue("several-writers", "environment",
        r"\b(?:every|each|all|multiple|several|many|both|[2-9]|[1-9][0-9]{1,4}) (?:of the |the )?(?:ranks?|nodes?|process(?:es)?|workers?|gpus?|jobs?|trainers?)"
        r"(?: \w+){0,2} (?:(?:writ(?:e|es|ing)|sav(?:e|es|ing)) (?:the |a |an |its |their |one |to )?(?:\w+ )?"
        r"(?:checkpoints?|state|weights|models?|shards?|files?)|call(?:s|ing)? torch\.save)\b|"
        r"\b(?:to|into) the same (?:checkpoint |output |save )?(?:path|file|dir(?:ectory)?|folder|checkpoint)\b",
        "several processes saving to one path at once interleave or replace each other's files, or one writes "
        "before another has made the directory",
        causes={"checkpoint-corruption-on-write": ["concurrent-writers-same-path"],
                "checkpoint-partial-save": ["rank-race-on-save"]}),
    # What the job was doing when a collective timed out (see ONE_SIDED).
    Cue("saving-checkpoint", "phase",
        r"\b(?:sav(?:e|es|ed|ing)|writ(?:e|es|ing)|dump(?:s|ed|ing)?) (?:the |a |its |their |my |our |each |every )?"
        r"(?:model |final |full |sharded |consolidated )?(?:checkpoints?|state(?: dict)?|weights)\b|"
        r"\bcheckpoint (?:save|saving|writes?|writing|consolidation)\b|\b(?:while|during|when) checkpointing\b|"
        r"\bsave_(?:state|checkpoint|pretrained|model)\b",
        "one rank writing a checkpoint while the others wait at their next collective makes a timeout without a fault",
        supports=(STUCK,), causes=ONE_SIDED, needs_lines=True),
    Cue("evaluating", "phase", r"\b(?:evaluation|evaluating|validation|validating|eval loop)\b",
        "an evaluation that runs on some ranks only, or longer on one, leaves the others waiting in a collective; "
        "under ZeRO-3 it switches the model out of training, leaving prefetched parameters in flight",
        supports=(STUCK,), causes=dict(ONE_SIDED, **MODE_SWITCH), needs_lines=True),
    Cue("preparing-data", "phase",
        r"\bpre-?process(?:es|ed|ing)?\b|\btokeni[sz](?:e|es|ed|ing|ation)\b|"
        r"\bbuild(?:s|ing)? (?:the |a |an )?(?:\w+ )?(?:index|indices|offsets|cache)\b|"
        r"\bdataset (?:map|preparation|loading|building)\b",
        "data prepared on one rank, or for longer on one, before the first step leaves the others waiting in a collective",
        supports=(STUCK,), causes=ONE_SIDED, needs_lines=True),
    Cue("one-rank-only", "phase",
        r"\bon (?:rank ?0|the main process|a single gpu|one gpu|one rank)(?: only)?\b|\bis_main_process\b|"
        r"\b(?:rank ?0|main process) only\b|\bonly (?:rank ?0|the main process|one rank|one process)\b",
        "work done on one rank only is work the other ranks wait for in their next collective",
        supports=(STUCK,), causes=ONE_SIDED, needs_lines=True),
    Cue("end-of-epoch", "phase",
        r"\bend of (?:the |each |every |an |one )?(?:first |last |\w+ )?epochs?\b|\bafter (?:the |each |every )?(?:first )?epochs?\b|"
        r"\bepoch end\b",
        "the end of an epoch is where one rank often evaluates, logs or saves while the others go on to a collective",
        supports=(STUCK,), causes=ONE_SIDED, needs_lines=True),
    Cue("rl-rollouts", "phase",
        r"\b(?:rlhf|ppo|grpo|dpo|kto|reinforcement learning|rollouts?|generat(?:e|es|ed|ing) (?:the )?(?:experiences?|rollouts?))\b",
        "RL fine-tuning alternates generation and training on one model: under ZeRO-3 each switch can leave "
        "prefetched parameters in flight, and a generate() on the unwrapped module bypasses the engine's hooks",
        causes=dict(MODE_SWITCH, **{"deepspeed-zero3-embedding-weight-2d": ["unwrapped-forward-or-generate"]}),
        needs_lines=True),
    Cue("replayed", "replay", r"\b(?:replay(?:ed|ing)?|re-?played)\b", "the log is replayed, not live"),
    Cue("archived", "replay", r"\barchived?\b|\bold logs?\b|\bfrom last (?:week|month|year)\b|\bhistorical\b",
        "the log is from the past, not the current run", causes={REPLAY_PAGE: ["archived-log-in-scope"]}),
    Cue("postmortem", "replay", r"\bpost-?mortem\b|\bincident report\b", "the text is a write-up of a past incident",
        causes={REPLAY_PAGE: ["pasted-or-documentation-text"]}),
    # The text pasted is from documentation, not the setup followed from it ("installed following the
    # documentation", "from the README example" say how the job was set up).
    Cue("documentation", "replay",
        r"\b(?:copied|taken|pasted|quoted) from (?:the |a )?(?:[\w-]+ ){0,2}(?:documentation|docs?|readme|manual)\b|"
        r"\b(?:example|sample) (?:kernel |dmesg |nccl )?(?:logs?|output|lines?|messages?)\b|"
        r"\b(?:logs?|lines?|output|messages?) (?:from|in) (?:the |a )?(?:[\w-]+ ){0,2}(?:documentation|docs|readme|manual)\b|"
        r"\bdocs? page\b",
        "example text from documentation is not a current event", causes={REPLAY_PAGE: ["pasted-or-documentation-text"]}),
    # A demonstration's machines or events, not a program called a demo ("the ChatGLM3 API demo") nor
    # synthetic data ("the Synthetic-NeRF scene").
    Cue("demo", "replay",
        r"\bdemo (?:clusters?|environments?|env|setup|systems?|nodes?|machines?|logs?|output|runs?)\b|\bfor a demo\b|"
        r"\b(?:synthetic|simulated|fake) (?:[\w-]+ )?(?:logs?|events?|faults?|errors?|xids?|nodes?|gpus?|dcgm|hardware|output)\b",
        "a demonstration or synthetic log shows no real fault",
        causes={REPLAY_PAGE: ["injected-test-events"]}),
    Cue("injected", "replay", r"\binjected\b|\bfault[- ]?inject(?:ion|ors?|ing)\b|\btest fixtures?\b|\bchaos test\b",
        "injected faults are made by a tool, not by hardware", causes={REPLAY_PAGE: ["injected-test-events"]}),
]

# Words that cancel a cue just after them, in the same clause.
NEGATIONS = [  # longer phrases first: "no longer" is read before "no"
    ("no longer", "no longer true"), ("ruled out", "excluded by the user"), ("instead of", "replacement"),
    ("rather than", "replacement"), ("not", "plain negation"), ("no", "plain negation"), ("never", "negation in time"),
    ("without", "absence"), ("isn't", "negated copula"), ("wasn't", "negated copula"), ("aren't", "negated copula"),
    ("weren't", "negated copula"), ("didn't", "negated verb"), ("doesn't", "negated verb"), ("don't", "negated verb"),
    ("hasn't", "negated verb"), ("nothing", "absence"), ("non", "prefix negation (non-preemptible)"),
    ("neither", "paired negation"), ("nor", "paired negation"),
]
CLAUSE_ENDS = ",;.!?()[]\n"
NEGATION_REACH = 3  # words before a cue that a negation may stand at


@dataclass
class CueHit:
    id: str
    kind: str
    text: str
    reason: str
    negated_by: str | None = None
    against: tuple = ()
    supports: tuple = ()
    causes: dict = field(default_factory=dict)
    needs_lines: bool = False

    def as_json(self) -> dict:
        return {"id": self.id, "kind": self.kind, "text": self.text, "reason": self.reason,
                "negated": self.negated_by is not None, "negated_by": self.negated_by or ""}


def _compile(table):
    return [(key, compile_rule(p)) for key, p in table]


class Rules:
    """The compiled hint and cue tables."""

    def __init__(self):
        self.tables = {"frameworks": _compile(FRAMEWORKS), "hardware": _compile(HARDWARE),
                       "environments": _compile(ENVIRONMENTS)}
        self.scale, self.version = compile_rule(SCALE), compile_rule(VERSION)
        self.window, self.negated = compile_rule(WINDOW), compile_rule(NEGATED)
        self.cues = [(cue, compile_rule(cue.pattern)) for cue in CUES]

    def read_hints(self, text: str) -> dict:
        """Hints found in `text`: sets of names, a scale in GPUs or None."""
        text = self.negated.sub(" ", ascii_lower(text))
        hints = {name: sorted({key for key, rx in table if rx.search(text)}) for name, table in self.tables.items()}
        scales = [int(m.group(1) or m.group(2)) for m in self.scale.finditer(text)]
        hints["scale"] = max(scales) if scales else None
        hints["versions"] = sorted({f"{m.group(1)} {m.group(2)}" for m in self.version.finditer(text)})
        return hints

    def window_seconds(self, context: str) -> float:
        m = self.window.search(ascii_lower(context))
        return DEFAULT_WINDOW if m is None else float(int(m.group(1)) * UNIT_SECONDS[m.group(2)[0]])

    def read_cues(self, context: str) -> list[CueHit]:
        """Every cue the context holds, negated or not, in the order of the table."""
        text, found = ascii_lower(context), []
        for cue, rx in self.cues:
            m = rx.search(text)
            while m is not None:
                negation = negated_before(text, m.start())
                found.append(CueHit(cue.id, cue.kind, context[m.start():m.end()], cue.reason, negation,
                                    cue.against, cue.supports, cue.causes, cue.needs_lines))
                if negation is None:
                    break  # one live occurrence is enough
                m = rx.search(text, m.end())
        return found


def negated_before(text: str, start: int) -> str | None:
    """The negation standing within NEGATION_REACH words before `start`, in the same clause."""
    head = text[:start]
    cut = max(head.rfind(ch) for ch in CLAUSE_ENDS)
    words = [w for w in head[cut + 1:].replace("-", " ").split(" ") if w][-NEGATION_REACH - 1:]
    joined = " " + " ".join(words) + " "
    for negation, _reason in NEGATIONS:
        if f" {negation} " in joined:
            return negation
    return None


def live(cues: list[CueHit], kind: str) -> list[CueHit]:
    return [c for c in cues if c.kind == kind and c.negated_by is None]


def merge(a: dict, b: dict) -> dict:
    merged = {k: sorted(set(a[k]) | set(b[k])) for k in ("frameworks", "hardware", "environments", "versions")}
    merged["scale"] = a["scale"] or b["scale"]
    return merged


def table(known: set | None = None) -> dict:
    """The rules as the index carries them to the browser engine (cues naming only `known` references)."""
    def kept(refs):
        return [r for r in refs if known is None or r in known]
    return {"frameworks": FRAMEWORKS, "hardware": HARDWARE, "environments": ENVIRONMENTS, "scale": SCALE,
            "version": VERSION, "window": WINDOW, "negated": NEGATED, "default_window": DEFAULT_WINDOW,
            "specific_frameworks": sorted(SPECIFIC_FRAMEWORKS), "units": UNIT_SECONDS,
            "cues": [{"id": c.id, "kind": c.kind, "pattern": c.pattern, "reason": c.reason,
                      "against": kept(c.against), "supports": kept(c.supports),
                      **({"needs_lines": True} if c.needs_lines else {}),
                      **({"causes": {r: cs for r, cs in c.causes.items() if kept([r])}} if c.causes else {})}
                     for c in CUES],
            "negations": [n for n, _ in NEGATIONS], "clause_ends": CLAUSE_ENDS, "negation_reach": NEGATION_REACH}
