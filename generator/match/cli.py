"""`relref match [FILE|-] [--context TEXT] [--top N] [--json] [--index FILE]`."""
import argparse
import json
import sys
from pathlib import Path

from .load import load_engine
from .redact import redact_result

READ_SIZE = 1 << 20
EXIT_CONFIDENT, EXIT_NOT_CONFIDENT, EXIT_UNREADABLE = 0, 1, 2
# Matched lines come from pasted logs: an escape sequence in one (a title change, a clear screen,
# an OSC 52 clipboard write) would act on the reader's terminal. Every control character but the
# newlines of the report prints as an escape, and so do the bidirectional overrides.
CONTROL = [*range(0x00, 0x0A), *range(0x0B, 0x20), *range(0x7F, 0xA0), 0x2028, 0x2029, *range(0x202A, 0x202F),
           *range(0x2066, 0x206A)]
VISIBLE = str.maketrans({code: f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" for code in CONTROL})


def add_parser(sub) -> None:
    p = sub.add_parser("match", help="match a pasted error or a log against the references")
    p.add_argument("file", nargs="?", default="-", help="a log file, or - for standard input (default)")
    p.add_argument("--context", default="", help='free text, e.g. "DeepSpeed 0.14, ZeRO-3, 64 H100, Kubernetes"')
    p.add_argument("--top", type=_positive, default=5, help="how many references to show (default 5)")
    p.add_argument("--json", action="store_true", help="print one JSON object (schema/match-result.schema.json)")
    p.add_argument("--redact", action="store_true",
                   help="replace IP addresses, host names, home-path user names, tokens and keys, and e-mail "
                        "addresses in the log lines printed (the Match page's rules)")
    p.add_argument("--index", type=Path, help="a match index file (default: built from the repository's records)")
    p.add_argument("--records", type=Path,
                   help="records to build the index from when --index is not given "
                        "(default: the checkout's references/, else the index installed with the package)")
    p.set_defaults(func=run)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of references, 1 or more")
    return value


def visible(text: str) -> str:
    return text.translate(VISIBLE)


def run(args) -> int:
    try:
        engine = load_engine(args.index, args.records)
    except (OSError, ValueError) as exc:
        print(f"relref match: cannot read the match index {args.index}: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    except (KeyError, TypeError, AttributeError, IndexError) as exc:  # JSON of another shape
        print(f"relref match: cannot read the match index {args.index}: not a match index "
              f"({type(exc).__name__}: {exc})", file=sys.stderr)
        return EXIT_UNREADABLE
    try:
        stream = sys.stdin.buffer if args.file == "-" else open(args.file, "rb")
    except OSError as exc:
        print(f"relref match: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return EXIT_UNREADABLE
    with stream:
        try:
            result = engine.match(_blocks(stream), context=args.context, top=args.top)
        except OSError as exc:
            print(f"relref match: cannot read {args.file}: {exc}", file=sys.stderr)
            return EXIT_UNREADABLE
    if args.redact:
        result = redact_result(result)
    print(json.dumps(result, indent=2) if args.json else visible(render_text(result)))  # json.dumps escapes them itself
    return EXIT_CONFIDENT if result["confident"] else EXIT_NOT_CONFIDENT


def _blocks(stream):
    """The input in bounded pieces of bytes (the engine decodes what it shows, undecodable bytes
    as U+FFFD)."""
    while True:
        block = stream.read(READ_SIZE)
        if not block:
            return
        yield block


def render_text(result: dict) -> str:
    """The answer first, then the candidates with the lines and causes that point at them, the
    checks to run next, and further reading apart."""
    out = [result["answer"]]
    candidates = [m for m in result["matches"] if m["confidence"] != "weak"] if result["verdict"] != "none" else []
    shown = candidates or result["matches"]
    if shown:
        out.append("\nCandidates:" if candidates else "\nClosest references (words only; nothing names a fault they cover):")
    for n, m in enumerate(shown, 1):
        out.append(f"\n{n}. [{m['confidence']}] {m['title']}\n   {m['url']}")
        for cause in m.get("causes", []):
            out.append(f"   cause: {cause['title']} (line {', '.join(map(str, cause['lines']))})")
        for w in m["why"]:
            out.append("   - " + _why_line(w))
    checks = result["next_checks"]
    if checks:
        apart = result["verdict"] == "ambiguous" and len(candidates) > 1
        out.append("\nChecks to run next" + (" (they tell the candidates apart):" if apart else ":"))
        for c in checks:
            out.append(f"  * {c['title']}  [{c['reference']}]")
            out.append(f"      $ {c['command']}" if c["command"] else f"      look at: {c['observation']}")
            out.append(f"      {c['url']}")
    for finding in result.get("findings", []):
        out.append(f"\nSeparate failure: {finding['answer']} (lines {', '.join(map(str, finding['lines']))})")
    further = result.get("further_reading", [])
    if further:
        out.append("\nFurther reading (field reports and practices):")
        out += [f"  - {m['title']}  {m['url']}" for m in further]
    for w in result["warnings"]:
        out.append(f"\nwarning: {w['text']}")
    read = describe_hints(result.get("hints", {}))
    if read:
        out.append(f"\nRead from the paste and context: {read}.")
    cues = [c for c in result.get("cues", []) if not c["negated"]]
    if cues:
        out.append("Read from the context: " + "; ".join(f"\"{c['text']}\" ({c['reason']})" for c in cues) + ".")
    return "\n".join(out)


def describe_hints(hints: dict) -> str:
    parts = [", ".join(hints.get(k, [])) for k in ("frameworks", "versions", "hardware", "environments")]
    if hints.get("scale"):
        parts.append(f"{hints['scale']} GPUs")
    return "; ".join(p for p in parts if p)


def _why_line(w: dict) -> str:
    if w["kind"] == "signature":
        lines = ", ".join(map(str, w["lines"]))
        role = "names the fault" if w["role"] == "cause" else "downstream symptom"
        extra = " (stale)" if w["stale"] else (" (shared with other references)" if w["shared"] else "")
        return f"line {lines}: signature {w['signature']} ({role}){extra}: {w['text'][:160]}"
    if w["kind"] == "words":
        return f"words: {', '.join(w['terms'])}"
    return ("context fits: " if w["fit"] else "context conflicts: ") + w["text"]
