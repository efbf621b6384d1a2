"""Timestamps at the start of log lines, each read on its own clock.

Stamps are compared only within one clock: kernel uptime with uptime, a stamp without
a year or zone only with stamps of its own kind. Twin: docs/assets/javascripts/match/timestamps.js.
Returns (clock, seconds) or None; seconds only need to be comparable within a clock.
"""
import calendar

from .dialect import compile_rule

MONTHS = {m: i for i, m in enumerate(["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep",
                                      "Oct", "Nov", "Dec"], 1)}
_MON = r"(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
FORMS = [
    # ISO 8601 / journald short-iso / Python logging: 2026-11-29T22:20:41.123+00:00, 2026-11-29 22:20:41,123
    ("iso", compile_rule(r"(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?")),
    # dmesg -T: [Sun Nov 29 22:20:41 2026]
    ("dmesg-T", compile_rule(r"\[(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) " + _MON + r" {1,2}(\d{1,2}) (\d{2}):(\d{2}):(\d{2}) (\d{4})\]")),
    # kernel uptime: [ 1234.567890]
    ("uptime", compile_rule(r"\[ {0,12}(\d{1,10})\.(\d{6})\]")),
    # syslog / journald short: Nov 29 22:20:41
    ("syslog", compile_rule(_MON + r" {1,2}(\d{1,2}) (\d{2}):(\d{2}):(\d{2})")),
    # glog (and PyTorch's c10 logging): I1129 22:20:41.123456 or [E321 02:07:08.408271257
    ("glog", compile_rule(r"[IWEF](\d{1,2})(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?")),
]
LEAD = 48  # a stamp must start within the first characters of the line
HEAD = LEAD + 40  # characters of a line read for its stamp


def parse(line: str):
    head = line[:HEAD]
    best = None
    for kind, form in FORMS:
        m = form.search(head)
        if m and m.start() <= LEAD and (best is None or m.start() < best[2]):
            best = (kind, m, m.start())
    if best is None:
        return None
    kind, m, _ = best
    return _READERS[kind](m)


def _iso(m):
    y, mo, d, h, mi, s = (int(m.group(i)) for i in range(1, 7))
    if not (1 <= mo <= 12 and 1 <= d <= 31):
        return None
    frac = float("0." + m.group(7)) if m.group(7) else 0.0
    seconds = calendar.timegm((y, mo, d, h, mi, s)) + frac
    zone = m.group(8)
    if zone is None:
        return ("iso-local", seconds)
    if zone != "Z":
        sign = 1 if zone[0] == "+" else -1
        digits = zone[1:].replace(":", "")
        seconds -= sign * (int(digits[:2]) * 3600 + int(digits[2:]) * 60)
    return ("iso-utc", seconds)


def _dmesg_t(m):
    mo, d, h, mi, s, y = MONTHS[m.group(1)], int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5)), int(m.group(6))
    return ("dmesg-T", float(calendar.timegm((y, mo, d, h, mi, s))))


def _uptime(m):
    return ("uptime", int(m.group(1)) + int(m.group(2)) / 1e6)


def _syslog(m):
    mo, d, h, mi, s = MONTHS[m.group(1)], int(m.group(2)), int(m.group(3)), int(m.group(4)), int(m.group(5))
    return ("syslog", float(((mo * 31 + d) * 24 + h) * 3600 + mi * 60 + s))


def _glog(m):
    mo, d, h, mi, s = (int(m.group(i)) for i in range(1, 6))
    if not (1 <= mo <= 12 and 1 <= d <= 31):
        return None
    frac = float("0." + m.group(6)) if m.group(6) else 0.0
    return ("glog", ((mo * 31 + d) * 24 + h) * 3600 + mi * 60 + s + frac)


_READERS = {"iso": _iso, "dmesg-T": _dmesg_t, "uptime": _uptime, "syslog": _syslog, "glog": _glog}
