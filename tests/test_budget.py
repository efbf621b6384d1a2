"""The failure budget: its arithmetic (budget-math.js, run under node) against published worked numbers,
the models the records carry, and the links from the field reports."""
import json
import math
import shutil
import subprocess
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from relref import paths
from relref.pages.budget import budget_links, failure_models
from relref.records.load import load_records

NODE = shutil.which("node")
RUNNER = Path(__file__).parent / "js" / "run_budget_math.js"
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed (apt-get install nodejs)")


def js(*calls):
    """Call budget-math.js functions under node: js(("youngInterval", [0.1, 10]), ...) -> results."""
    out = subprocess.run([NODE, str(RUNNER)], input=json.dumps([list(c) for c in calls]), capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout)


def daly_wall_time(work, interval, checkpoint, restore, mttf):
    """Daly 2006's expected wall-clock time, written out independently of the JS."""
    return mttf * math.exp(restore / mttf) * (math.exp((interval + checkpoint) / mttf) - 1) * work / interval


@needs_node
def test_one_percent_a_year_on_256_and_1024_gpus_for_30_days():
    rate, = js(("ratePerGpuYear", [0.01]))
    n256, n1024 = js(("expectedInterruptions", [rate, 256, 30 * 24]), ("expectedInterruptions", [rate, 1024, 30 * 24]))
    assert n256 == pytest.approx(0.01 * 256 * 30 / 365) and round(n256, 4) == 0.2104
    assert round(n1024, 4) == 0.8416
    p256, p1024 = js(("chanceOfAtLeastOne", [n256]), ("chanceOfAtLeastOne", [n1024]))
    assert round(p256, 2) == 0.19  # "about 19%"
    assert round(p1024, 3) == 0.569  # "about 57%"
    assert p256 == pytest.approx(1 - math.exp(-n256))


@needs_node
def test_young_interval():
    assert js(("youngInterval", [0.1, 10]))[0] == pytest.approx(math.sqrt(2))


@needs_node
@pytest.mark.parametrize("mttf_minutes, published_minutes, digits", [(24 * 60, 117, 0), (6 * 60, 57, 0), (15, 9.1, 1)])
def test_daly_interval_matches_the_papers_examples(mttf_minutes, published_minutes, digits):
    """Daly 2006, figures 3-5: a 5-minute checkpoint with M = 24 h, 6 h and 15 min."""
    interval, = js(("dalyInterval", [5 / 60, mttf_minutes / 60]))
    assert round(interval * 60, digits) == published_minutes


@needs_node
def test_daly_interval_by_its_formula_and_its_limit():
    c, m = 0.1, 10
    x = c / (2 * m)
    expected = math.sqrt(2 * c * m) * (1 + math.sqrt(x) / 3 + x / 9) - c
    got, at_limit = js(("dalyInterval", [c, m]), ("dalyInterval", [3, 1.5]))
    assert got == pytest.approx(expected) and round(got, 3) == 1.348
    assert at_limit == 1.5  # C >= 2M: the interval is M


@needs_node
def test_published_figures_become_per_gpu_rates():
    mttf, weekly, days = js(("perGpuRate", [{"kind": "job-mttf", "value": 7.9, "unit": "hours", "gpus": 1024}]),
                            ("perGpuRate", [{"kind": "job-rate", "value": 2, "per": "week", "gpus": 400}]),
                            ("perGpuRate", [{"kind": "job-mttf", "value": 47.7, "unit": "days", "gpus": 8}]))
    assert mttf == pytest.approx(1 / (7.9 * 1024))  # MTTF_job = MTTF_1 / N
    assert weekly == pytest.approx(2 / (168 * 400))
    assert days == pytest.approx(1 / (47.7 * 24 * 8))


@needs_node
def test_budget_for_one_job_and_one_model():
    job = {"gpus": 1024, "hours": 30 * 24, "checkpoint": 5 / 60, "restore": 10 / 60}
    rate = 1 / (7.9 * 1024)
    got, = js(("budget", [job, rate]))
    assert got["mttf"] == pytest.approx(7.9)
    assert got["interruptions"] == pytest.approx(720 / 7.9)
    assert got["young"] == pytest.approx(math.sqrt(2 * (5 / 60) * 7.9))
    assert got["lost"] == pytest.approx(daly_wall_time(720, got["daly"], 5 / 60, 10 / 60, 7.9) - 720)
    assert got["lost"] <= got["lostYoung"] + 1e-9  # Daly's interval loses no more than Young's
    assert got["lost"] > (720 / got["daly"]) * (5 / 60)  # at least the checkpoint writes themselves


@needs_node
def test_a_job_that_never_fails_loses_only_its_checkpoint_writes():
    job = {"gpus": 8, "hours": 100, "checkpoint": 0.1, "restore": 0.2}
    wall, = js(("expectedWallTime", [100, 2, 0.1, 0.2, 1e9]))
    assert wall == pytest.approx(100 * (2 + 0.1) / 2, rel=1e-6)
    free, = js(("budget", [job, 0]))
    assert free["interruptions"] == 0 and free["chance"] == 0 and "daly" not in free


def test_the_records_published_models():
    models = {m["id"]: m for m in failure_models(load_records(paths.RECORDS))}
    kokolis = models["mttf-scaling-gpu-count--mttf-1024-gpus"]
    assert (kokolis["kind"], kokolis["value"], kokolis["unit"], kokolis["gpus"]) == ("job-mttf", 7.9, "hours", 1024)
    assert (kokolis["min_gpus"], kokolis["max_gpus"]) == (8, 1024)
    assert kokolis["projections"] == ["1.8 hours at 16,384 GPUs", "0.23 hours at 131,072 GPUs"]
    # the same measurement cited by two references is one model
    assert kokolis["also_in"] == [{"record_id": "mttf-purpose-built-infrastructure", "figure_id": "baseline-mttf-1024-gpus"}]
    assert not any(m.startswith("mttf-purpose-built-infrastructure--") for m in models)
    bloom = models["bloom-gpu-failures-per-week--gpu-failures-per-week-high"]
    assert (bloom["kind"], bloom["per"], bloom["value"], bloom["gpus"]) == ("job-rate", "week", 2, 400)
    assert "sdc-gpu-hardware-loss-spikes--llama3-interruption-interval" in models
    assert not any("projected" in m for m in models)  # projections are not models


def test_field_reports_link_to_the_budget_with_their_own_figures(built_site):
    for record in load_records(paths.RECORDS):
        links = budget_links(record.data)
        if not links:
            continue
        html = (built_site / "references" / record.id / "index.html").read_text(encoding="utf-8")
        figures = {f["id"]: f for f in record.data["figures"]}
        for link in links:
            assert f'href="../../budget/?{link["query"].replace("&", "&amp;")}"' in html, (record.id, link)
            query = {k: float(v[0]) for k, v in parse_qs(link["query"]).items()}
            figure = figures[link["figure_id"]]
            assert query.pop("gpus") == figure["scale"]["value"]
            assert list(query.values()) == [figure["value"]]
    page = (built_site / "references" / "mttf-scaling-gpu-count" / "index.html").read_text(encoding="utf-8")
    assert "budget/?gpus=1024&amp;mttf_hours=7.9" in page


def test_the_budget_page_lists_every_model_with_its_source(built_site):
    page = (built_site / "budget" / "index.html").read_text(encoding="utf-8")
    for model in failure_models(load_records(paths.RECORDS)):
        assert f'data-model="{model["id"]}"' in page
        assert f'href="{model["source_url"]}"' in page
        assert urlsplit(f"../references/{model['record_id']}/").path in page
    text = " ".join(page.split())
    assert "Communications of the ACM</em> 17(9)" in text and "Future Generation Computer Systems</em> 22(3)" in text
    assert (built_site / "failure-models" / "index.html").is_file()
