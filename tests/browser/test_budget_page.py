"""The failure-budget page in a real browser: the same worked numbers as tests/test_budget.py, read off
the page after filling in the form, and the charts in both palettes."""
import math

import pytest

from .conftest import wait_until

READ_ROW = """(model) => {
    const row = document.querySelector(`#rr-budget-results tr[data-model="${model}"]`);
    const out = {hidden: row.hidden};
    row.querySelectorAll("[data-out]").forEach(c => { out[c.dataset.out] = parseFloat(c.dataset.value);
                                                        out[c.dataset.out + "_text"] = c.textContent; });
    out.young = parseFloat(row.querySelector('[data-out="interval"]').dataset.young);
    return out;
}"""


WARNING_OF = """(model) => {
    const key = document.querySelector(`#rr-budget-results tr[data-model="${model}"]`).dataset.warnKey;
    const item = document.querySelector(`[data-warn="${key}"]`);
    return item.hidden ? null : item.innerText;
}"""


def open_budget(page, query=""):
    page.goto("budget/" + query)
    wait_until(page, "() => document.getElementById('rr-budget').dataset.computed !== undefined")


def describe(page, gpus, days, checkpoint_minutes, own, unit):
    page.fill("#rr-gpus", str(gpus))
    page.fill("#rr-days", str(days))
    page.fill("#rr-checkpoint", str(checkpoint_minutes))
    page.select_option("#rr-own-unit", unit)
    page.fill("#rr-own", str(own))
    return page.evaluate(READ_ROW, "own")


def test_one_percent_a_year_gives_19_and_57_percent(page):
    open_budget(page)
    small = describe(page, 256, 30, 5, 0.01, "rate")
    assert not small["hidden"]
    assert round(small["interruptions"], 4) == 0.2104 and round(small["chance"], 2) == 0.19
    assert small["chance_text"] == "19.0%"
    large = describe(page, 1024, 30, 5, 0.01, "rate")
    assert round(large["interruptions"], 4) == 0.8416 and round(large["chance"], 3) == 0.569
    assert large["chance_text"] == "56.9%"
    assert not page.errors


def test_young_and_daly_intervals(page):
    open_budget(page)
    got = describe(page, 1024, 30, 6, 10, "mttf_hours")  # C = 0.1 h, M = 10 h
    assert got["mttf"] == pytest.approx(10)
    assert got["young"] == pytest.approx(math.sqrt(2))
    x = 0.1 / 20
    assert got["interval"] == pytest.approx(math.sqrt(2) * (1 + math.sqrt(x) / 3 + x / 9) - 0.1)
    assert got["interval_text"] == "1.41 h / 1.35 h"
    daly = describe(page, 1024, 30, 5, 24, "mttf_hours")  # Daly 2006, figure 3: 117 minutes
    assert round(daly["interval"] * 60) == 117
    assert daly["lost"] > 0 and "% of the planned time" in daly["lost_text"]
    assert not page.errors


def test_a_field_report_link_fills_the_form_and_warns_outside_the_measured_range(page):
    open_budget(page, "?gpus=1024&mttf_hours=7.9")
    assert page.input_value("#rr-gpus") == "1024" and page.input_value("#rr-own") == "7.9"
    own = page.evaluate(READ_ROW, "own")
    kokolis = page.evaluate(READ_ROW, "mttf-scaling-gpu-count--mttf-1024-gpus")
    assert own["mttf"] == pytest.approx(7.9) and kokolis["mttf"] == pytest.approx(7.9)
    warning_of = lambda model: page.evaluate(WARNING_OF, model)
    assert warning_of("mttf-scaling-gpu-count--mttf-1024-gpus") is None  # 1,024 GPUs is inside 8 to 1,024
    assert "400 GPUs only" in warning_of("bloom-gpu-failures-per-week--gpu-failures-per-week-high")
    page.fill("#rr-gpus", "16384")
    warning = warning_of("mttf-scaling-gpu-count--mttf-1024-gpus")
    assert "16384" in warning and "1.8 hours at 16,384 GPUs" in warning
    assert not page.errors


def test_following_the_link_from_a_field_report(page):
    page.goto("references/mttf-scaling-gpu-count/")
    page.click('a[href$="budget/?gpus=1024&mttf_hours=7.9"]')
    wait_until(page, "() => !!document.getElementById('rr-budget') && document.getElementById('rr-budget').dataset.computed !== undefined")
    assert page.input_value("#rr-own") == "7.9"
    assert not page.evaluate(READ_ROW, "own")["hidden"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_charts_draw_in_the_palettes_text_colour(browser, server, artifacts, scheme):
    context = browser.new_context(base_url=server, color_scheme=scheme)
    page = context.new_page()
    page.goto("references/mttf-scaling-gpu-count/")
    colours = page.evaluate("""() => {
        const svg = document.querySelector(".rr-chart-svg");
        const label = svg.querySelector(".rr-chart-value");
        return {text: getComputedStyle(label).fill, page: getComputedStyle(document.querySelector("article")).color,
                background: getComputedStyle(document.body).backgroundColor};
    }""")
    assert colours["text"] == colours["page"] != colours["background"]
    page.locator(".rr-chart").first.screenshot(path=str(artifacts / f"chart-mttf-{scheme}.png"))
    context.close()


@pytest.mark.parametrize("query, own, unit", [("?gpus=8&mttf_days=47.7", 47.7 * 24, "mttf_hours"),
                                              ("?gpus=400&failures_per_day=1", 7, "failures_per_week")])
def test_a_figure_in_other_units_is_converted_into_the_form(page, query, own, unit):
    open_budget(page, query)
    assert float(page.input_value("#rr-own")) == pytest.approx(own)
    assert page.input_value("#rr-own-unit") == unit
