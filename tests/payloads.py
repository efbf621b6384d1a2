"""Hostile text for every kind of record field, and records that carry it.

Record N carries payload N in every field it fits: title, summary, headings, inline prose,
table cells, code (example, command, printed_by), URLs and the raw-HTML chart and budget
text. Each record is written line by line with JSON-quoted scalars (valid YAML), so the test
knows the line of every field without asking the loader it tests.
"""
import json
from pathlib import Path

# Verbatim output a record must be able to show as it is.
LITERAL = "zombie <defunct> name=<unknown> mount.<type> (<Response [500]>) <class 'int'> 10.216.210.236<54862>"

PAYLOADS = [
    LITERAL,
    '<meta http-equiv="refresh" content="0;url=https://evil.example/">',
    '"><meta http-equiv=refresh content="0;url=https://evil.example/"><x a="',
    "'><meta http-equiv=refresh content=0;url=https://evil.example/>",
    "<script>alert(1)</script>",
    "</title><script>alert(1)</script><title>",
    "<img src=x onerror=alert(1)>",
    "<svg onload=alert(1)><circle r=9></circle></svg>",
    '<iframe src="javascript:alert(1)"></iframe>',
    '<a href="javascript:alert(1)">raw link</a>',
    "<details open ontoggle=alert(1)>x</details>",
    "<style>body{display:none}</style>",
    '<base href="https://evil.example/">',
    '<div markdown="1">*pwn*</div>',
    '<form action="javascript:alert(1)"><button>go</button></form>',
    '<object data="data:text/html,<script>alert(1)</script>"></object>',
    "<<script>script>alert(1)<</script>/script>",
    "&#60;img src=x onerror=alert(1)&#62; and &lt;b&gt;pre-escaped&lt;/b&gt;",
    '<math><mi xlink:href="javascript:alert(1)">m</mi></math>',
    "Title {: onclick=\"alert(1)\" .pwn #pwn }",
    "{: onmouseover=alert(1) }",
    "ends with an attribute list {#pwn-id .pwn-class data-pwn=1}",
    "*emphasis*{: onclick=alert(1)} and `code`{: onclick=alert(1)}",
    "unclosed {: onclick=alert(1)",
    "[click](javascript:alert(1))",
    "[click](JaVaScRiPt:alert(document.domain))",
    "[click]( javascript:alert(1) )",
    "[click](<javascript:alert(1)>)",
    "[click](java&#115;cript:alert(1))",
    "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "[click](vbscript:msgbox(1))",
    '[t](https://example.org/ "title\\" onmouseover=\\"alert(1)")',
    "[r]: javascript:alert(1)",
    "<javascript:alert(1)>",
    "![pixel](https://evil.example/pixel.png)",
    "![svg](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
    "# injected heading",
    '!!! danger "injected admonition"',
    "- injected list item",
    "1. injected numbered item",
    "```\ninjected fence",
    "*** ",
    "x) <img src=x onerror=alert(1)> (",
    "{{ 7*7 }} {% if 1 %}jinja{% endif %} ${alert(1)}",
    "\u202egnp.exe right-to-left override and zero\u200bwidth",
    "]]> <![CDATA[ <!-- comment --> -->",
    "ends with a backslash \\",
]

# Payloads that validation rejects (prose fields only): an attribute list, or a link that is
# neither http(s) nor relative. Everything else, raw HTML included, is text and passes.
REJECTED = {
    "Title {: onclick=\"alert(1)\" .pwn #pwn }", "{: onmouseover=alert(1) }",
    "ends with an attribute list {#pwn-id .pwn-class data-pwn=1}",
    "*emphasis*{: onclick=alert(1)} and `code`{: onclick=alert(1)}",
    "[click](javascript:alert(1))", "[click](JaVaScRiPt:alert(document.domain))", "[click]( javascript:alert(1) )",
    "[click](<javascript:alert(1)>)", "[click](java&#115;cript:alert(1))",
    "[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)", "[click](vbscript:msgbox(1))",
    "[r]: javascript:alert(1)", "![svg](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)",
}

# Long, like the longest payloads, so the theme treats its page the same way (scrollable code,
# shortened headings with a tooltip): the benign page is the baseline a payload page is held to.
BENIGN = " ".join(["benign words only"] * 11)
ALIASED = 2  # this record also has an old id, whose page is the redirect template


def url_payload(n: int, payload: str) -> str:
    """An http(s) URL that the schema accepts (no whitespace), carrying the payload after it."""
    return f"https://example.org/p{n}/)" + "".join(payload.split()).replace("\u200b", "")


def _pad(text: str, minimum: int) -> str:
    return text if len(text) >= minimum else text + " (padded to the minimum length)"


def record_lines(n: int, payload: str) -> tuple[str, dict]:
    """The YAML of record N and the line of each payload-carrying field, by field name."""
    q = json.dumps
    rid = f"payload-{n:02d}"
    url = url_payload(n, payload)
    lines, where = [], {}

    def put(text, field=None):
        lines.append(text)
        if field:
            where[field] = len(lines)

    put("schema_version: 2")
    put(f"id: {rid}")
    if n == ALIASED:
        put(f"aliases: [{rid}-old]")
    put(f"title: {q(_pad(payload, 3)[:200])}", "title")
    put(f"summary: {q(_pad(payload, 20))}", "summary")
    put("kind: error")
    put("category: operations")
    put("applies_to:")
    put("  versions:")
    put(f"    - software: {q(_pad(payload, 1)[:200])}", "applies_to.versions[0].software")
    put(f"      versions: {q(payload[:200])}")
    put(f"      note: {q(payload)}", "applies_to.versions[0].note")
    put("signatures:")
    put("  - id: sig")
    put(f"    example: {q(f'ERR-PAYLOAD-{n:02d} ' + payload)}")
    put(f"    pattern: {q(f'ERR-PAYLOAD-{n:02d}')}")
    put(f"    printed_by: {q(_pad(payload, 2))}")
    put(f"    seen_at: {q(url)}")
    put("    role: cause")
    put(f"    note: {q(payload)}", "signatures[0].note")
    put("causes:")
    put("  - id: cause")
    put(f"    title: {q(_pad(payload, 3)[:120])}", "causes[0].title")
    put(f"    description: {q(_pad(payload, 10))}", "causes[0].description")
    put("    checks: [check]")
    put(f"    source: {q(url)}")
    put("evidence:")
    put("  - id: check")
    put(f"    title: {q(_pad(payload, 3)[:200])}", "evidence[0].title")
    put(f"    command: {q(payload)}")
    put(f"    observation: {q(payload)}", "evidence[0].observation")
    put(f"    how_to_read: {q(_pad(payload, 10))}", "evidence[0].how_to_read")
    put("    confirms: [cause]")
    put("mitigations:")
    put(f"  - text: {q(_pad(payload, 10))}", "mitigations[0].text")
    put(f"    command: {q(payload)}")
    put("look_alikes:")
    put(f"  - name: {q(payload[:300])}", "look_alikes[0].name")
    put(f"    how_to_tell: {q(_pad(payload, 10))}", "look_alikes[0].how_to_tell")
    put("discrepancies:")
    put(f"  - text: {q(_pad(payload, 10))}", "discrepancies[0].text")
    put("figures:")
    for i, label in enumerate([payload[:40], ("B " + payload)[:40]]):
        put(f"  - id: bar-{i}")
        put(f"    value: {i + 2}")
        put(f"    unit: {q(_pad(payload, 1)[:100])}", f"figures[{i}].unit")
        put(f"    measured: {q(_pad(payload, 3)[:500])}", f"figures[{i}].measured")
        put(f"    range: {q(payload[:500])}", f"figures[{i}].range")
        put(f"    chart: {q(_pad(payload, 3)[:100])}", f"figures[{i}].chart")
        put(f"    label: {q(label.strip() or 'x')}", f"figures[{i}].label")
        put(f"    source: {q(url)}")
    put("  - id: model")  # a failure model: the budget page lists it in raw HTML
    put("    value: 100")
    put("    unit: hours")
    put(f"    measured: {q('mean time to failure ' + payload)}", "figures[2].measured")
    put("    scale: {quantity: GPUs, value: 8}")
    put(f"    range: {q(payload[:500])}", "figures[2].range")
    put(f"    source: {q(url)}")
    put("sources:")
    put(f"  - url: {q(url)}")
    put(f"    title: {q(_pad(payload, 3)[:500])}", "sources[0].title")
    put("    kind: docs")
    put(f"    supports: {q(_pad(payload, 5))}", "sources[0].supports")
    put("  - url: https://example.org/second")
    put("    title: Second source")
    put("    kind: docs")
    put("    supports: nothing in particular")
    put("last_reviewed: 2026-11-29")
    put("changes:")
    put("  - date: 2026-11-29")
    put(f"    summary: {q(_pad(payload, 5))}", "changes[0].summary")
    return "\n".join(lines) + "\n", where


def write_payload_records(folder: Path) -> dict:
    """Write one record per payload plus a benign one; returns {id: (payload, {field: line})}."""
    folder.mkdir(parents=True, exist_ok=True)
    written = {}
    for n, payload in enumerate([BENIGN] + PAYLOADS):
        text, where = record_lines(n, payload)
        rid = f"payload-{n:02d}"
        (folder / f"{rid}.yaml").write_text(text, encoding="utf-8")
        written[rid] = (payload, where)
    return written
