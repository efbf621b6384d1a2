"""What the context means, read by the cue tables (generator/match/hints.py), on cases written for
each rule: a cue is found and named in the answer, a negation before it in the same clause cancels
it, and each cue acts on the references it speaks for or against. Documented on the matching page."""
import pytest

from relref import paths
from relref.match import load_engine
from relref.match.hints import CUES, NEGATIONS, Rules
from relref.records.load import load_records

TRUNCATED = "RuntimeError: PytorchStreamReader failed reading zip archive: failed finding central directory\n"
WRITE_FAILED = "RuntimeError: [enforce fail at inline_container.cc:857] . PytorchStreamWriter failed writing file data/2: file write failed\n"
SIGTERM = "[2026-12-01 10:00:00,123] torch.distributed.elastic.multiprocessing.api: [WARNING] Sending process 4242 closing signal SIGTERM\n"
# The watchdog's line as ProcessGroupNCCL.cpp prints it (numbers of our own; SeqNum past the early-barrier reading).
WATCHDOG = ("[rank3]:[E1202 09:14:05.118264917 ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog caught collective operation "
            "timeout: WorkNCCL(SeqNum=4521, OpType=ALLREDUCE, NumelIn=262144, NumelOut=262144, Timeout(ms)=600000) ran for "
            "600046 milliseconds before timing out.\n")
XID79 = "[  812.334455] NVRM: Xid (PCI:0000:3b:00): 79, pid=2312, name=python, GPU has fallen off the bus.\n"
# A context for each cue, written for it (never taken from the test split).
CONTEXTS = {
    "downloaded": "I downloaded the checkpoint yesterday", "from-a-hub": "weights are from the Hub",
    "pretrained": "fine-tuning a pretrained model", "copied-in": "we copied it over from the old cluster",
    "git-lfs": "the repo was cloned with git lfs", "someone-else": "a file shared by a colleague",
    "object-store": "the checkpoint comes from s3://bucket/run", "released-weights": "using the released weights",
    "converted": "converted from safetensors with the script", "restored-from-backup": "restored it from a backup",
    "other-job-same-machine": "another job is on the same node", "preemptible": "the job runs on preemptible VMs",
    "google-cloud": "training on a GKE node pool", "aws": "p4d nodes on EC2", "azure": "an Azure ND A100 v4 VM",
    "in-a-container": "the trainer runs in a docker container", "slurm-job": "8 GPUs per node under Slurm",
    "several-writers": "every rank saves the checkpoint to the same path",
    "saving-checkpoint": "the timeout comes while rank 0 is saving the checkpoint",
    "evaluating": "FSDP on 16 GPUs, evaluation runs every 500 steps", "preparing-data": "the dataset preprocessing takes 40 minutes",
    "one-rank-only": "the eval is on rank 0 only", "rl-rollouts": "PPO with an actor and a critic under ZeRO-3", "end-of-epoch": "it happens at the end of the first epoch",
    "replayed": "this log is replayed", "archived": "an archived log from last week", "postmortem": "pasted from a postmortem",
    "documentation": "the example log from the README", "demo": "a demo cluster", "injected": "fault injection test",
}


@pytest.fixture(scope="module")
def engine():
    return load_engine()


def test_every_cue_has_a_case_here_and_the_lists_are_long_enough():
    assert set(CONTEXTS) == {c.id for c in CUES}
    assert sum(c.kind == "provenance" for c in CUES) >= 10 and len(NEGATIONS) >= 10
    assert all(c.reason for c in CUES) and all(reason for _, reason in NEGATIONS)


@pytest.mark.parametrize("cue_id", sorted(CONTEXTS))
def test_each_cue_is_found_and_a_negation_just_before_it_cancels_it(cue_id):
    rules = Rules()
    found = [c for c in rules.read_cues(CONTEXTS[cue_id]) if c.id == cue_id]
    assert found and found[0].negated_by is None, found
    phrase = found[0].text
    negated = [c for c in rules.read_cues(f"it is not {phrase}") if c.id == cue_id]
    assert negated and all(c.negated_by == "not" for c in negated), negated


@pytest.mark.parametrize("negation", [n for n, _ in NEGATIONS])
def test_each_negation_cancels_a_cue_just_after_it(negation):
    cues = Rules().read_cues(f"live incident, {negation} replayed")
    assert [c.negated_by for c in cues if c.id == "replayed"] == [negation]


@pytest.mark.parametrize("context", ["a fault injection test", "the fault-injector writes kernel messages",
                                     "GPUd's fault injector", "faultinjection suite", "we injected an Xid 79"])
def test_a_fault_injection_tool_is_read_as_injected_whatever_it_is_called(context):
    assert [c.id for c in Rules().read_cues(context)] == ["injected"]


def test_a_negation_in_another_clause_does_not_cancel(engine):
    cues = Rules().read_cues("not sure why; the log is replayed")
    assert [c.negated_by for c in cues if c.id == "replayed"] == [None]


def test_provenance_keeps_the_save_side_references_from_being_strong_and_says_why(engine):
    plain = engine.match(WRITE_FAILED)
    assert plain["matches"][0]["id"] == "checkpoint-corruption-on-write" and plain["confident"]
    told = engine.match(WRITE_FAILED, context="the checkpoint was freshly downloaded from the Hub")
    top = next(m for m in told["matches"] if m["id"] == "checkpoint-corruption-on-write")
    assert top["confidence"] != "strong"
    assert any(w["kind"] == "context" and not w["fit"] and "downloaded" in w["text"] for w in top["why"])
    assert "downloaded" in {c["id"] for c in told["cues"]}


def test_pretrained_weights_are_not_a_resume(engine):
    told = engine.match(TRUNCATED, context="loading a pretrained model")
    resume = [m for m in told["matches"] if m["id"] == "training-resume-failure"]
    assert resume and resume[0]["confidence"] != "strong"


def test_preemptible_machines_bring_the_preemption_references_up(engine):
    plain = [m["id"] for m in engine.match(SIGTERM)["matches"]]
    told = [m["id"] for m in engine.match(SIGTERM, context="the job ran on preemptible spot instances")["matches"]]
    first = lambda ids: min(ids.index(r) for r in ("job-preemption-spot-termination", "spot-instance-preemption") if r in ids)
    assert first(told) == 0 and first(told) <= first(plain)


def test_replay_makes_hardware_lines_stale_and_its_negation_does_not(engine):
    replayed = engine.match(XID79, context="replayed from the archive")
    assert replayed["warnings"] and not replayed["confident"]
    assert replayed["matches"][0]["id"] == "replayed-logs-false-hardware-diagnosis" or \
        "replayed-logs-false-hardware-diagnosis" in [m["id"] for m in replayed["matches"][:3]]
    live = engine.match(XID79, context="live incident, NOT replayed, no demo")
    assert live["confident"] and live["matches"][0]["id"] == "gpu-lost-collective-timeout" and not live["warnings"]


def test_the_causes_a_cue_puts_first_are_causes_of_their_references():
    causes = {r.id: {c["id"] for c in r.data["causes"]} for r in load_records()}
    for cue in CUES:
        for ref, ids in cue.causes.items():
            assert ref in causes and set(ids) <= causes[ref], (cue.id, ref, ids)


@pytest.mark.parametrize("cue_id", ["downloaded", "copied-in", "object-store"])
def test_a_copy_puts_the_cut_copy_before_the_unclosed_writer(engine, cue_id):
    truncated = "OSError: Unable to open file (truncated file: eof = 4096, sblock->base_addr = 0, stored_eof = 8192)\n"
    assert engine.match(truncated)["matches"][0]["causes"][0]["id"] == "writer-not-closed"
    copied = engine.match(truncated, context=CONTEXTS[cue_id])
    top = copied["matches"][0]
    assert top["id"] == "hdf5-corruption" and top["causes"][0]["id"] == "incomplete-copy"
    assert any(w["kind"] == "context" and "cause incomplete-copy comes first" in w["text"] for w in top["why"])
    negated = engine.match(truncated, context=f"it was not {CONTEXTS[cue_id].split(' ', 1)[1]}")
    assert negated["matches"][0]["causes"][0]["id"] == "writer-not-closed"


@pytest.mark.parametrize("cue_id, cause", [("google-cloud", "gce-spot-preemption"), ("aws", "ec2-spot-reclaim"),
                                            ("azure", "azure-spot-eviction")])
def test_the_cloud_named_puts_its_own_reclaim_first(engine, cue_id, cause):
    preempted = "(sky-1a2b, pid=4242) I 11-30 10:00:00 controller.py:118] Cluster is preempted (status: INIT). Recovering...\n"
    top = engine.match(preempted, context=CONTEXTS[cue_id])["matches"][0]
    assert top["id"] == "spot-instance-preemption"
    assert top["causes"][0] == {"id": cause, "title": top["causes"][0]["title"], "basis": "context", "signature": "", "lines": []}
    assert any(w["kind"] == "context" and f"cause {cause} comes first" in w["text"] for w in top["why"])
    # A cause a line names stays first: the EC2 warning names the EC2 reclaim whatever the context says.
    warned = engine.match("EC2 Spot Instance Interruption Warning\n", context=CONTEXTS["azure"])["matches"][0]
    assert warned["causes"][0]["id"] == "ec2-spot-reclaim" and warned["causes"][0]["basis"] == "line"


def test_the_matching_page_documents_every_cue_and_negation():
    page = (paths.ROOT / "docs" / "matching.md").read_text(encoding="utf-8")
    for cue in CUES:
        assert f"`{cue.id}`" in page and cue.reason in page, cue.id
    for negation, _ in NEGATIONS:
        assert f"`{negation}`" in page, negation


@pytest.mark.parametrize("context,cause", [
    ("an archived syslog from last month", "archived-log-in-scope"),
    ("copied from the incident report", "pasted-or-documentation-text"),
    ("sample output from the README", "pasted-or-documentation-text"),
    ("a demo cluster", "injected-test-events"),
    ("our fault injector wrote this", "injected-test-events"),
])
def test_a_replay_cue_names_which_story_of_the_replay_page_it_is(engine, context, cause):
    line = "[Tue Dec  1 10:00:00 2026] NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, GPU has fallen off the bus."
    result = engine.match(line, context=context)
    page = next(m for m in result["matches"] if m["id"] == "replayed-logs-false-hardware-diagnosis")
    assert page["causes"][0]["id"] == cause and page["causes"][0]["basis"] == "context"
    assert result["verdict"] != "confident"


def first_cause(engine, paste: str, ref: str, context: str) -> dict:
    """The first cause the answer names for reference `ref` (id None when it names none)."""
    page = next(m for m in engine.match(paste, context=context)["matches"] if m["id"] == ref)
    return page["causes"][0] if page["causes"] else {"id": None, "basis": None}


def test_a_container_puts_shared_memory_first_for_a_dataloader_worker_that_died(engine):
    line = ("RuntimeError: DataLoader worker (pid 4242) exited unexpectedly with exit code 1. "
            "Details are lost due to multiprocessing.")
    assert first_cause(engine, line, "dataloader-failure", "")["id"] != "shm-exhausted"
    got = first_cause(engine, line, "dataloader-failure", "inside a Kubernetes pod")
    assert got["id"] == "shm-exhausted" and got["basis"] == "context"


def test_a_container_puts_its_memory_limit_first_for_a_bare_kill(engine):
    """A bare "Killed" names no cause; inside a container the limit below the peak is the story to check first
    (without the context the paste's words pick another)."""
    assert first_cause(engine, "Killed", "cgroup-memory-limit", "")["id"] != "limit-below-peak"
    got = first_cause(engine, "Killed", "cgroup-memory-limit", "a docker container with a 8g limit")
    assert got["id"] == "limit-below-peak" and got["basis"] == "context"


PHASES = [c.id for c in CUES if c.kind == "phase" and "training-stuck-no-progress" in c.supports]


@pytest.mark.parametrize("cue_id", PHASES)
def test_what_the_job_was_doing_says_which_story_of_a_timeout_comes_first(engine, cue_id):
    plain = engine.match(WATCHDOG)["matches"]
    assert plain[0]["id"] != "training-stuck-no-progress"
    told = engine.match(WATCHDOG, context=CONTEXTS[cue_id])
    top = told["matches"][0]
    assert top["id"] == "training-stuck-no-progress" and top["causes"][0]["id"] == "long-phase-trips-timers"
    assert any(w["kind"] == "context" and w["fit"] and f"({cue_id})" in w["text"] for w in top["why"])
    assert not told["confident"]  # a phase says which story to check first, not that it is the one
    hang = next(m for m in told["matches"] if m["id"] == "silent-hang")
    assert hang["causes"][0]["id"] == "rank-blocked-outside-collective"
    phrase = next(c["text"] for c in told["cues"] if c["id"] == cue_id)
    negated = engine.match(WATCHDOG, context=f"it is not {phrase}")
    assert negated["matches"][0]["id"] == plain[0]["id"]


@pytest.mark.parametrize("cue_id", PHASES)
def test_a_phase_cue_acts_only_on_references_the_lines_match(engine, cue_id):
    """It says which story of a hang to check first, not that there was one."""
    told = engine.match(TRUNCATED, context=CONTEXTS[cue_id])
    assert "training-stuck-no-progress" not in [m["id"] for m in told["matches"]]
    assert told["matches"][0]["id"] == engine.match(TRUNCATED)["matches"][0]["id"]


def test_gradient_checkpointing_is_not_a_save():
    assert "saving-checkpoint" not in {c.id for c in Rules().read_cues("8 GPUs with gradient checkpointing enabled")}


def test_under_slurm_a_kill_is_the_jobs_cgroup_first(engine):
    killed = "Killed\n"  # a shell's report of SIGKILL, which does not say who sent it
    def first(context):
        page = next(m for m in engine.match(killed, context=context)["matches"] if m["id"] == "oom-killed-mid-step")
        return page["causes"][0]["id"]
    assert first("") != "cgroup-limit-hit"
    assert first(CONTEXTS["slurm-job"]) == "cgroup-limit-hit"
    assert first("8 GPUs per node, not under slurm") != "cgroup-limit-hit"


INFLIGHT = ("RuntimeError: still have inflight params [{'id': 586, 'status': 'AVAILABLE', 'numel': 65536, 'ds_numel': 65536, "
            "'shape': (16, 4096), 'ds_shape': (16, 4096), 'requires_grad': True, 'grad_shape': None, 'persist': False, "
            "'active_sub_modules': set(), 'ds_tensor.shape': torch.Size([8192])}]\n")


@pytest.mark.parametrize("context", [CONTEXTS["rl-rollouts"], "evaluation runs every 200 steps"])
def test_rl_rollouts_and_evaluation_put_the_zero3_mode_switch_first(engine, context):
    """RL fine-tuning and evaluation switch a ZeRO-3 model out of training: the in-flight page's
    mode-switch cause comes first; without the context another does."""
    page = "deepspeed-zero3-inflight-params-backward"
    assert first_cause(engine, INFLIGHT, page, "")["id"] != "train-eval-switch"
    assert first_cause(engine, INFLIGHT, page, context)["id"] == "train-eval-switch"


def test_rl_rollouts_do_not_act_without_a_matching_line(engine):
    result = engine.match("the reward went flat after 200 steps", context=CONTEXTS["rl-rollouts"])
    assert all(not any(c["basis"] == "context" for c in m["causes"]) for m in result["matches"])


def test_a_container_puts_the_wrong_interface_first_when_no_line_names_a_cause(engine):
    """The watchdog's timeout line names none of the network page's causes; in a container, an
    interface that cannot reach the other nodes (a bridge) is that page's story to check first."""
    assert first_cause(engine, WATCHDOG, "network-partition", "two nodes")["id"] != "wrong-interface-or-blocked-port"
    got = first_cause(engine, WATCHDOG, "network-partition", "two nodes, each job in a docker container")
    assert got["id"] == "wrong-interface-or-blocked-port" and got["basis"] == "context"


@pytest.mark.parametrize("context", [
    "ChatGLM3 openai_api demo modified only to pick which GPUs to use", "running the PromptHMR demo",
    "detectron2 installed following the documentation", "SentimentAnalyzer from the README example",
    "training on the Synthetic-NeRF Lego scene", "a hello-world batch script from the cluster documentation",
])
def test_a_program_called_a_demo_or_a_setup_from_the_docs_is_not_a_replayed_log(context):
    """The replay cues are about the pasted text (a demonstration's events, lines copied from
    documentation), not about a demo program or a setup followed from the docs."""
    assert not [c for c in Rules().read_cues(context) if c.kind == "replay"]


@pytest.mark.parametrize("context", ["the script downloads its model files on first use", "downloading the weights from figshare"])
def test_every_form_of_download_is_the_downloaded_cue(context):
    assert [c.id for c in Rules().read_cues(context) if c.negated_by is None] == ["downloaded"]


@pytest.mark.parametrize("context", [CONTEXTS["several-writers"], "4 nodes writing checkpoints to a shared output directory",
                                     "each process calls torch.save on one file"])
def test_several_writers_of_one_path_put_each_save_pages_race_first(engine, context):
    """A truncated archive names no cause of the two save pages; several writers of one path is the
    story each page's own cause tells (interleaved writes, a rank ahead of the directory)."""
    for ref, cause in (("checkpoint-corruption-on-write", "concurrent-writers-same-path"),
                       ("checkpoint-partial-save", "rank-race-on-save")):
        assert first_cause(engine, TRUNCATED, ref, "")["id"] != cause
        got = first_cause(engine, TRUNCATED, ref, context)
        assert got["id"] == cause and got["basis"] == "context"
    assert first_cause(engine, TRUNCATED, "checkpoint-corruption-on-write", "not all ranks save")["id"] != "concurrent-writers-same-path"
