"""Charts of the records' figures: every number drawn is a figure's number, and nothing else is in them."""
import re
import xml.etree.ElementTree as ET

import pytest

from relref import paths
from relref.pages.charts import chart_views
from relref.records.figures import chart_problems
from relref.records.load import load_records
from relref.records.problems import RecordErrors

SVG_NS = "{http://www.w3.org/2000/svg}"
NUMBER = re.compile(r"(?<![A-Za-z])\d[\d,]*(?:\.\d+)?")  # a quantity, not the digit of a name like HBM3


def charted_records():
    return [r for r in load_records(paths.RECORDS) if chart_views(r.data)]


def svgs_in(html: str) -> list[ET.Element]:
    return [ET.fromstring(m) for m in re.findall(r"<svg\b[^>]*rr-chart-svg.*?</svg>", html, flags=re.S)]


def numbers_in(text: str) -> set[float]:
    return {float(n.replace(",", "")) for n in NUMBER.findall(text or "")}


def test_the_catalog_has_the_charts_the_issue_asks_for():
    kinds = {(r.id, v["kind"]) for r in charted_records() for v in chart_views(r.data)}
    assert ("mttf-scaling-gpu-count", "scaling") in kinds
    assert ("sdc-gpu-hardware-loss-spikes", "bars") in kinds


def test_every_number_on_a_chart_is_one_of_its_figures(built_site):
    for record in charted_records():
        figures = {f["id"]: f for f in record.data["figures"]}
        html = (built_site / "references" / record.id / "index.html").read_text(encoding="utf-8")
        svgs = svgs_in(html)
        assert len(svgs) == len(chart_views(record.data)), record.id
        for svg in svgs:
            drawn = [g for g in svg.iter() if g.get("data-figure")]
            allowed = set()
            for g in drawn:
                figure = figures[g.get("data-figure")]
                assert float(g.get("data-value")) == figure["value"], (record.id, figure["id"])
                if g.get("data-scale"):
                    assert float(g.get("data-scale")) == figure["scale"]["value"], (record.id, figure["id"])
                allowed |= {float(figure["value"])} | ({float(figure["scale"]["value"])} if figure.get("scale") else set())
                projected_mark = "rr-chart-projected" in g.get("class", "")
                assert projected_mark == bool(figure.get("projected")), (record.id, figure["id"])
            for el in svg.iter():
                if el.tag in (SVG_NS + "text", SVG_NS + "desc"):
                    stray = numbers_in("".join(el.itertext())) - allowed
                    assert not stray, f"{record.id}: {sorted(stray)} drawn but not in the chart's figures"
                if el.get("data-scale"):
                    assert float(el.get("data-scale")) in allowed


def test_charts_hold_no_script_and_load_nothing(built_site):
    for record in charted_records():
        html = (built_site / "references" / record.id / "index.html").read_text(encoding="utf-8")
        for svg in svgs_in(html):
            for el in svg.iter():
                assert el.tag != SVG_NS + "script"
                assert not [a for a in el.attrib if a.lower().startswith("on") or a.endswith("href")], el.attrib


def test_charts_have_a_text_alternative_a_source_and_say_where_they_interpolate(built_site):
    for record in charted_records():
        html = (built_site / "references" / record.id / "index.html").read_text(encoding="utf-8")
        for figure in re.findall(r'<figure class="rr-chart.*?</figure>', html, flags=re.S):
            svg = svgs_in(figure)[0]
            assert svg.get("role") == "img" and svg.find(SVG_NS + "title").text and svg.find(SVG_NS + "desc").text
            assert re.search(r'<figcaption>.*Source: <a href="#source-\d+">', figure, flags=re.S)
            if svg.find(f".//{SVG_NS}path[@class='rr-chart-line']") is not None:
                assert "interpolation" in "".join(svg.find(SVG_NS + "desc").itertext())
                assert any("interpolation" in (t.text or "") for t in svg.iter(SVG_NS + "text"))
            assert 'fill="currentColor"' in figure  # drawn in the text colour of whichever palette


def figure(id_, value, unit="hours", **extra):
    return dict(id=id_, value=value, unit=unit, measured="m", source="https://example.org/", **extra)


def test_figures_drawn_together_must_share_a_unit_and_a_shape():
    scale = lambda v: {"quantity": "GPUs", "value": v}
    ok = [figure("a", 1, chart="C", scale=scale(8)), figure("b", 2, chart="C", scale=scale(16))]
    assert chart_problems(ok) == []
    mixed = [figure("a", 1, chart="C", scale=scale(8)), figure("b", 2, unit="days", chart="C", scale=scale(16))]
    assert [p[0] for p in chart_problems(mixed)] == [["figures", 1, "unit"]]
    assert "only this figure" in chart_problems([figure("a", 1, chart="C")])[0][1]
    no_shape = [figure("a", 1, chart="C", scale=scale(8)), figure("b", 2, chart="C", scale=scale(8))]
    assert "label" in chart_problems(no_shape)[0][1]
    bars = [figure("a", 1, chart="C", label="A"), figure("b", 2, chart="C", label="B")]
    assert chart_problems(bars) == []


def test_a_record_mixing_units_in_a_chart_is_rejected(fixture_records):
    path = fixture_records / "fixture-error.yaml"  # it has no figures of its own
    text = path.read_text(encoding="utf-8")
    url = re.search(r"^  - url: (\S+)", text, flags=re.M).group(1)
    extra = (f"figures:\n"
             f"  - {{id: a, value: 1, unit: hours, measured: one, chart: Mixed, label: A, source: '{url}'}}\n"
             f"  - {{id: b, value: 2, unit: days, measured: two, chart: Mixed, label: B, source: '{url}'}}\n")
    path.write_text(text.replace("\nsources:\n", "\n" + extra + "sources:\n", 1), encoding="utf-8")
    with pytest.raises(RecordErrors) as err:
        load_records(fixture_records)
    assert "must share one unit" in str(err.value)
