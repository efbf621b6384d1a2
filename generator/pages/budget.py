"""The failure-budget page: the published failure models the records carry, and links to the page.

A figure is a failure model when it was measured on a number of GPUs (scale quantity `GPUs`), is not
a projection, and either gives a job's mean time to failure or interruption in a time unit, or a count
of failures or interruptions per hour, day or week. The page (docs/assets/javascripts/budget.js) does
all the arithmetic in the browser with budget-math.js; this module only passes the figures through,
so the numbers on the page are the records' numbers.
"""
import re
from collections import defaultdict
from pathlib import Path
from urllib.parse import urlencode

from .charts import number
from ..records.load import Record

TIME_UNITS = {"hours", "days", "weeks"}
MTTF_WORDS = re.compile(r"mean time (?:to|between) (?:failure|interruption)|\bMTTF\b|\bMTBF\b"
                        r"|interval between (?:unexpected )?(?:failures|interruptions)", re.IGNORECASE)
RATE_UNIT = re.compile(r"^(?:GPU )?(?:failures|interruptions) per (hour|day|week)$", re.IGNORECASE)


def model_kind(figure: dict):
    """('job-mttf' | 'job-rate', period) for a figure usable as a failure model, else None."""
    if figure.get("projected") or (figure.get("scale") or {}).get("quantity") != "GPUs":
        return None
    if figure["unit"] in TIME_UNITS and MTTF_WORDS.search(figure["measured"]):
        return "job-mttf", None
    rate = RATE_UNIT.match(figure["unit"])
    return ("job-rate", rate.group(1)) if rate else None


def failure_models(records: list[Record]) -> list[dict]:
    """One model per distinct published figure. A figure cited by several records is listed once, under
    the record that cites its source most (the one with the fuller picture), the others as `also_in`."""
    found = defaultdict(list)
    for record in records:
        for figure in record.data.get("figures", []):
            if model_kind(figure):
                key = (figure["source"], figure["value"], figure["unit"], figure["scale"]["value"])
                found[key].append((record, figure))
    models = []
    for citing in found.values():
        citing.sort(key=lambda rf: -sum(f["source"] == rf[1]["source"] for f in rf[0].data["figures"]))
        record, figure = citing[0]
        titles = {s["url"]: s["title"] for s in record.data["sources"]}
        model = _model(record, figure, model_kind(figure), titles[figure["source"]])
        model["also_in"] = [{"record_id": r.id, "figure_id": f["id"]} for r, f in citing[1:]]
        models.append(model)
    _add_ranges(models, records)
    return sorted(models, key=lambda m: (m["source_title"].lower(), m["gpus"], m["value"]))


def _model(record: Record, figure: dict, kind: tuple, source_title: str) -> dict:
    gpus = figure["scale"]["value"]
    what = "job MTTF " if kind[0] == "job-mttf" else ""
    return {"id": f"{record.id}--{figure['id']}", "kind": kind[0], "per": kind[1], "value": figure["value"],
            "unit": figure["unit"], "gpus": gpus, "record_id": record.id, "figure_id": figure["id"],
            "source_url": figure["source"], "source_title": source_title,
            "basis": f"{what}{number(figure['value'])} {figure['unit']} on {number(gpus)} GPUs",
            "period": figure.get("range", "")}


def _add_ranges(models: list[dict], records: list[Record]) -> None:
    """A model's range is the job sizes its source measured; its projections are the source's own."""
    sizes = defaultdict(set)
    for m in models:
        sizes[m["source_url"]].add(m["gpus"])
    projections = defaultdict(list)
    for record in records:
        for f in record.data.get("figures", []):
            if f.get("projected") and (f.get("scale") or {}).get("quantity") == "GPUs" and f["unit"] in TIME_UNITS:
                text = f"{number(f['value'])} {f['unit']} at {number(f['scale']['value'])} GPUs"
                if text not in projections[f["source"]]:
                    projections[f["source"]].append(text)
    for m in models:
        m["min_gpus"], m["max_gpus"] = min(sizes[m["source_url"]]), max(sizes[m["source_url"]])
        m["sizes"] = (f"{number(m['min_gpus'])} to {number(m['max_gpus'])} GPUs" if m["min_gpus"] != m["max_gpus"]
                      else f"{number(m['min_gpus'])} GPUs only")
        m["projections"] = projections[m["source_url"]] if m["kind"] == "job-mttf" else []


def budget_links(data: dict) -> list[dict]:
    """The budget page filled in with each of a record's failure-model figures: link text and query."""
    links = []
    for figure in data.get("figures", []):
        kind = model_kind(figure)
        if kind is None:
            continue
        gpus = figure["scale"]["value"]
        if kind[0] == "job-mttf":
            param, text = f"mttf_{figure['unit']}", f"job MTTF of {number(figure['value'])} {figure['unit']}"
        else:
            param, text = f"failures_per_{kind[1]}", f"{number(figure['value'])} {figure['unit']}"
        links.append({"figure_id": figure["id"], "text": f"{text} on {number(gpus)} GPUs",
                      "query": urlencode({"gpus": gpus, param: figure["value"]})})
    return links


def write_budget_page(records: list[Record], docs: Path, env) -> None:
    models = failure_models(records)
    urls = list(dict.fromkeys(m["source_url"] for m in models))
    for m in models:
        m["warn"] = f"source-{urls.index(m['source_url']) + 1}"  # a source's models share one range warning
    sources = [next(m for m in models if m["source_url"] == url) for url in urls]
    page = env.get_template("budget.md.j2").render(models=models, sources=sources)
    (docs / "budget.md").write_text(page, encoding="utf-8")
