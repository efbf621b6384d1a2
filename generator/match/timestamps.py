"""Timestamps at the start of log lines, each read on its own clock.

Stamps are compared only within one clock: kernel uptime with uptime, a stamp without
a year or zone only with stamps of its own kind. Twin: docs/assets/javascripts/match/timestamps.js.
Returns (clock, seconds) or None; seconds only need to be comparable within a clock.
"""
import calendar

import re2

from .dialect import compile_rule

MONTHS = {m: i for i, m in enumerate(["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep",
                                      "Oct", "Nov", "Dec"], 1)}
_MON = r"(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
FORMS = [
    # ISO 8601 / journald short-iso / Python logging: 2026-11-29T22:20:41.123+00:00, 2026-11-29 22:20:41,123
    ("iso", r"(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?"),
    # dmesg -T: [Sun Nov 29 22:20:41 2026]
    ("dmesg-T", r"\[(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) " + _MON + r" {1,2}(\d{1,2}) (\d{2}):(\d{2}):(\d{2}) (\d{4})\]"),
    # kernel uptime: [ 1234.567890]
    ("uptime", r"\[ {0,12}(\d{1,10})\.(\d{6})\]"),
    # syslog / journald short: Nov 29 22:20:41
    ("syslog", _MON + r" {1,2}(\d{1,2}) (\d{2}):(\d{2}):(\d{2})"),
    # glog (and PyTorch's c10 logging): I1129 22:20:41.123456 or [E321 02:07:08.408271257
    ("glog", r"[IWEF](\d{1,2})(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?"),
]
LEAD = 48  # a stamp must start within the first characters of the line
HEAD = LEAD + 40  # characters of a line read for its stamp

# All forms in one RE2 search: its leftmost match, and of the forms matching there the first
# listed, is the form that starts first. The raw object gives every group's span at once (the
# public wrapper builds a match object and converts offsets per group, most of parse()'s time).
_ANY = compile_rule("|".join(f"({pattern})" for _, pattern in FORMS))._regexp
_GROUPS = []  # (kind, group of the whole form, its first inner group, number of inner groups)
_at = 1
for _kind, _pattern in FORMS:
    _inner = compile_rule(_pattern)._regexp.NumberOfCapturingGroups()
    _GROUPS.append((_kind, _at, _at + 1, _inner))
    _at += 1 + _inner


def parse(line: str):
    head = line[:HEAD].encode("utf-8")
    spans = _ANY.Match(re2._Anchor.UNANCHORED, head, 0, len(head))
    start = spans[0][0]
    if start < 0 or (start > LEAD and len(head[:start].decode("utf-8", "replace")) > LEAD):
        return None
    for kind, whole, inner, count in _GROUPS:
        if spans[whole][0] >= 0:
            groups = [None] + [head[a:b].decode("utf-8") if a >= 0 else None for a, b in spans[inner:inner + count]]
            return _READERS[kind](groups)
    return None


def _iso(g):
    y, mo, d, h, mi, s = (int(g[i]) for i in range(1, 7))
    if not (1 <= mo <= 12 and 1 <= d <= 31):
        return None
    frac = float("0." + g[7]) if g[7] else 0.0
    seconds = calendar.timegm((y, mo, d, h, mi, s)) + frac
    zone = g[8]
    if zone is None:
        return ("iso-local", seconds)
    if zone != "Z":
        sign = 1 if zone[0] == "+" else -1
        digits = zone[1:].replace(":", "")
        seconds -= sign * (int(digits[:2]) * 3600 + int(digits[2:]) * 60)
    return ("iso-utc", seconds)


def _dmesg_t(g):
    mo, d, h, mi, s, y = MONTHS[g[1]], int(g[2]), int(g[3]), int(g[4]), int(g[5]), int(g[6])
    return ("dmesg-T", float(calendar.timegm((y, mo, d, h, mi, s))))


def _uptime(g):
    return ("uptime", int(g[1]) + int(g[2]) / 1e6)


def _syslog(g):
    mo, d, h, mi, s = MONTHS[g[1]], int(g[2]), int(g[3]), int(g[4]), int(g[5])
    return ("syslog", float(((mo * 31 + d) * 24 + h) * 3600 + mi * 60 + s))


def _glog(g):
    mo, d, h, mi, s = (int(g[i]) for i in range(1, 6))
    if not (1 <= mo <= 12 and 1 <= d <= 31):
        return None
    frac = float("0." + g[6]) if g[6] else 0.0
    return ("glog", ((mo * 31 + d) * 24 + h) * 3600 + mi * 60 + s + frac)


_READERS = {"iso": _iso, "dmesg-T": _dmesg_t, "uptime": _uptime, "syslog": _syslog, "glog": _glog}
