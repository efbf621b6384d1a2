"""Charts of a record's figures, laid out at build time and drawn as inline SVG by templates/chart.svg.j2.

Figures that share a `chart` title are drawn together. The record's author vouches that they measure
the same quantity; the checks here hold them to one unit and one shape. Only the figures' own numbers
are written on a chart: points and bars carry their value, and axis ticks sit at the data, never at
round numbers no source gave.
"""
import math
import re
from ..records.figures import chart_groups, chart_kind

WIDTH = 640
MARGIN = {"left": 64, "right": 150, "top": 16, "bottom": 72}  # scaling charts; the right margin holds point labels
PLOT_HEIGHT = 260
BAR_HEIGHT, BAR_GAP, BAR_LABEL_WIDTH, BAR_VALUE_ROOM = 20, 8, 200, 60
LOG_SPAN = 20  # values spread wider than this ratio go on a log axis: MTTF falls by orders of magnitude
TICK_ROOM = 44  # pixels a tick label needs; a tick closer than this to the previous one keeps its mark, not its label


def number(value) -> str:
    """A figure's value as written on a chart: the record's digits with thousands separators."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return f"{value:,}"


def chart_views(data: dict) -> list[dict]:
    """Everything the SVG template needs for each chart of a record, coordinates included."""
    source_no = {s["url"]: i for i, s in enumerate(data["sources"], 1)}
    titles = {s["url"]: s["title"] for s in data["sources"]}
    views = []
    for title, members in chart_groups(data.get("figures", [])).items():
        figures = [f for _, f in members]
        kind = chart_kind(figures)
        if len(figures) < 2 or kind is None:
            continue  # validation reports these; a page is never drawn from them
        view = _scaling(figures) if kind == "scaling" else _bars(figures)
        urls = list(dict.fromkeys(f["source"] for f in figures))
        view.update(id=_slug(title), title=title, kind=kind,
                    sources=[{"no": source_no[u], "title": titles[u]} for u in urls])
        views.append(view)
    return views


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


def _scaling(figures: list[dict]) -> dict:
    figures = sorted(figures, key=lambda f: f["scale"]["value"])
    left, top = MARGIN["left"], MARGIN["top"]
    right, bottom = WIDTH - MARGIN["right"], MARGIN["top"] + PLOT_HEIGHT
    x_axis = _axis([f["scale"]["value"] for f in figures], left, right)
    y_axis = _axis([f["value"] for f in figures], bottom, top)
    unit = figures[0]["unit"]
    points = [{"id": f["id"], "value": f["value"], "scale": f["scale"]["value"], "projected": bool(f.get("projected")),
               "x": x_axis["at"](f["scale"]["value"]), "y": y_axis["at"](f["value"]),
               "text": f"{number(f['value'])} {unit}" + (" (projected)" if f.get("projected") else "")}
              for f in figures]
    scale = figures[0]["scale"]
    scale_units = {f["scale"].get("unit") for f in figures}
    quantity = scale["quantity"] + (f" ({scale['unit']})" if scale.get("unit") and len(scale_units) == 1 else "")
    return {
        "width": WIDTH, "height": bottom + MARGIN["bottom"], "plot": {"left": left, "right": right, "top": top, "bottom": bottom},
        "points": points,
        "line": " ".join(f"{'M' if i == 0 else 'L'}{p['x']:.1f},{p['y']:.1f}" for i, p in enumerate(points)),
        "ticks": _ticks(points),
        "x_label": quantity + (", log scale" if x_axis["log"] else ""),
        "y_label": unit + (", log scale" if y_axis["log"] else ""),
        "any_projected": any(p["projected"] for p in points),
        "desc": _scaling_desc(points, scale["quantity"]),
    }


def _axis(values, start_px, end_px):
    """Map data to pixels: log when the values span orders of magnitude, else linear from zero."""
    log = min(values) > 0 and max(values) / min(values) >= LOG_SPAN
    f = math.log10 if log else float
    low, high = f(min(values)), f(max(values))
    pad = (high - low) * 0.08 or 1
    low, high = (low - pad, high + pad) if log else (0.0, high + pad)
    return {"log": log, "at": lambda v: start_px + (f(v) - low) / (high - low) * (end_px - start_px)}


def _ticks(points):
    ticks, last = [], None
    for p in points:
        show = last is None or p["x"] - last >= TICK_ROOM
        ticks.append({"x": p["x"], "value": p["scale"], "text": number(p["scale"]) if show else ""})
        last = p["x"] if show else last
    return ticks


def _scaling_desc(points, quantity) -> str:
    parts = [f"{p['text']} at {number(p['scale'])} {quantity}" for p in points]
    return ("; ".join(parts) + ". The dashed line joins the published points: values along it between them "
            "are interpolation, not data.")


def _bars(figures: list[dict]) -> dict:
    unit = figures[0]["unit"]
    longest = max(f["value"] for f in figures) or 1
    room = WIDTH - BAR_LABEL_WIDTH - BAR_VALUE_ROOM
    bars = [{"id": f["id"], "value": f["value"], "label": f["label"], "text": number(f["value"]),
             "projected": bool(f.get("projected")),
             "y": MARGIN["top"] + i * (BAR_HEIGHT + BAR_GAP), "width": f["value"] / longest * room}
            for i, f in enumerate(sorted(figures, key=lambda f: -f["value"]))]  # largest first, as bar charts read
    plot_bottom = MARGIN["top"] + len(bars) * (BAR_HEIGHT + BAR_GAP)
    return {
        "width": WIDTH, "height": plot_bottom + 32, "bars": bars, "bar_height": BAR_HEIGHT, "zero": BAR_LABEL_WIDTH,
        "plot_bottom": plot_bottom, "x_label": f"{unit} (bars start at zero)",
        "any_projected": any(b["projected"] for b in bars),
        "desc": "; ".join(f"{b['label']}: {b['text']} {unit}" + (" (projected)" if b["projected"] else "") for b in bars) + ".",
    }
