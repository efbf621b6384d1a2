"""Checks on a record's figures: figures that share a `chart` title must be drawable together
honestly (one unit, one shape). Validation reports these problems; the chart layout in
pages/charts.py groups figures the same way.
"""
from collections import defaultdict


def chart_problems(figures: list[dict]) -> list[tuple[list, str]]:
    """(path, message) for every chart whose figures cannot be drawn together honestly."""
    problems = []
    for title, members in chart_groups(figures).items():
        first_index, first = members[0]
        if len(members) < 2:
            problems.append((["figures", first_index, "chart"], f"chart {title!r} has only this figure: a chart needs two or more"))
            continue
        for index, figure in members[1:]:
            if figure["unit"] != first["unit"]:
                problems.append((["figures", index, "unit"],
                                 f"unit {figure['unit']!r} differs from {first['unit']!r} (figure {first['id']!r}): "
                                 f"figures in chart {title!r} must share one unit"))
        if chart_kind([f for _, f in members]) is None:
            problems.append((["figures", first_index, "chart"],
                             f"chart {title!r}: give every figure a scale of one quantity at different values "
                             "(a scaling chart) or a label (a bar chart)"))
    return problems


def chart_groups(figures):
    groups = defaultdict(list)
    for index, figure in enumerate(figures):
        if figure.get("chart"):
            groups[figure["chart"]].append((index, figure))
    return groups


def chart_kind(figures):
    scales = [f.get("scale") for f in figures]
    if all(scales) and len({s["quantity"] for s in scales}) == 1 and len({s["value"] for s in scales}) == len(scales):
        return "scaling"
    if all(f.get("label") for f in figures):
        return "bars"
    return None
