"""`relref match [FILE|-] [--context TEXT] [--top N] [--json] [--verbose] [--follow [--until-confident]]`."""
import argparse
import ctypes
import itertools
import json
import sys
from pathlib import Path

from .engine import WEAK_SHOWN
from .load import load_engine
from .redact import redact_result
from .terminal import Line, quiet_broken_pipe, render

READ_SIZE = 1 << 20
EXIT_CONFIDENT, EXIT_NOT_CONFIDENT, EXIT_UNREADABLE = 0, 1, 2
EXIT_INTERRUPTED = 130  # the shell's own status for a command ended by Ctrl-C
EPILOG = f"""\
exit status:
  0  a confident match (with --follow: the last answer was confident)
  1  no confident match
  2  input it cannot read: the file, the match index or the records, or an option
  130  Ctrl-C before the answer (with --follow, Ctrl-C prints the summary and exits 0 or 1)

--top N lists at most N candidate references (default 5); with no likely candidate at all, it
lists at most {WEAK_SHOWN} closest references. The answer sentence always comes first.

Output is wrapped to the terminal's width and coloured only on a terminal (never with NO_COLOR
set); commands, URLs and quoted log lines are never wrapped.

examples:
  relref match job.log --context "PyTorch 2.4, 64 H100, Slurm"
  kubectl logs -f pod/trainer-0 | relref match --follow -
  kubectl logs -f pod/trainer-0 | relref match --until-confident -
"""


def add_parser(sub) -> None:
    p = sub.add_parser("match", help="match a pasted error or a log against the references",
                       description="Match a pasted error or a log against the references: the answer "
                                   "first, then the candidates, the lines that point at them and the checks to run next.",
                       epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", nargs="?", default="-", help="a log file, or - for standard input (default)")
    p.add_argument("--context", default="", help='free text, e.g. "DeepSpeed 0.14, ZeRO-3, 64 H100, Kubernetes"')
    p.add_argument("--top", type=_positive, default=5, metavar="N",
                   help="list at most N candidate references (default 5)")
    p.add_argument("--json", action="store_true", help="print one JSON object (schema/match-result.schema.json); "
                                                       "with --follow, one JSON object a line")
    p.add_argument("--verbose", action="store_true", help="also print each reference's score (the engine's ranking number)")
    p.add_argument("--follow", action="store_true",
                   help="read a live stream: print the answer when it is first found and each time it changes, "
                        "and the full report when the stream ends or on Ctrl-C")
    p.add_argument("--until-confident", action="store_true",
                   help="with --follow (implied): stop at the first confident answer, exit 0")
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


def run(args) -> int:
    try:
        return _run(args)
    except KeyboardInterrupt:  # before an answer (--follow answers Ctrl-C with its summary instead)
        return EXIT_INTERRUPTED


def _run(args) -> int:
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
    result = None
    try:
        with stream:
            if args.follow or args.until_confident:
                result = _follow(engine, stream, args)
            else:
                result = engine.match(_blocks(stream), context=args.context, top=args.top)
                _print(args, result)
    except BrokenPipeError:  # the reader has what it wanted (`| head`); the answer still sets the status
        quiet_broken_pipe()
        return EXIT_CONFIDENT if result and result["confident"] else EXIT_NOT_CONFIDENT
    except OSError as exc:
        print(f"relref match: cannot read {args.file}: {exc}", file=sys.stderr)
        return EXIT_UNREADABLE
    return EXIT_CONFIDENT if result["confident"] else EXIT_NOT_CONFIDENT


def _print(args, result: dict) -> None:
    if args.redact:
        result = redact_result(result)
    if args.json:
        print(json.dumps(result, indent=2))  # json.dumps escapes control characters itself
    else:
        print(render(report_lines(result, args.verbose)))


def _follow(engine, stream, args) -> dict:
    from .follow import Follower, follow

    def say(result):
        shown = redact_result(result) if args.redact else result
        if args.json:
            print(json.dumps({"event": "answer", "lines": follower.lines, "result": shown}), flush=True)
        else:
            print(render([Line(f"[{_count(follower.lines)}] {shown['answer']}", "answer")]), flush=True)

    follower = Follower(engine, args.context, args.top)
    try:
        result, how = follow(stream, follower, say, stop_when_confident=args.until_confident)
        shown = redact_result(result) if args.redact else result
        if args.json:
            print(json.dumps({"event": "summary", "lines": follower.lines, "ended": how, "result": shown}), flush=True)
        else:
            ended = {"end": "the stream ended", "interrupt": "interrupted",
                     "confident": "stopped at the first confident answer"}[how]
            print(render([Line(""), Line(f"Summary after {_count(follower.lines)} ({ended}):", "heading"), Line("")]
                         + report_lines(shown, args.verbose)), flush=True)
    except BrokenPipeError:  # `| head -1` took the first answer: stop reading, the latest answer sets the status
        quiet_broken_pipe()
        return follower.last or {"confident": False}
    return result


def _count(lines: int) -> str:
    return "1 line" if lines == 1 else f"{lines} lines"


def _blocks(stream):
    """The input in bounded pieces of bytes (the engine decodes what it shows, undecodable bytes
    as U+FFFD), handing the heap's free space back now and then (_give_back)."""
    for n in itertools.count(1):
        block = stream.read(READ_SIZE)
        if not block:
            return
        yield block
        if n % GIVE_BACK_EVERY == 0:
            _give_back()


GIVE_BACK_EVERY = 8  # blocks read between two _give_back calls


def _give_back() -> None:
    """Return the heap's free space to the system (glibc's malloc_trim; elsewhere nothing). The
    scan allocates and frees megabyte chunks in no fixed order, and glibc kept their free space:
    a one-line log of 1 GB peaked at 137 MB, 93 MB with this."""
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


try:
    _LIBC = ctypes.CDLL(None)
    _LIBC.malloc_trim  # glibc only: look it up once, here
except (OSError, AttributeError):
    _LIBC = None


def render_text(result: dict, verbose: bool = False) -> str:
    """The report as plain text, unescaped (terminal.render escapes what it prints)."""
    return "\n".join(line.text for line in report_lines(result, verbose))


def report_lines(result: dict, verbose: bool = False) -> list[Line]:
    """The answer first, then the candidates with the lines and causes that point at them, the
    checks to run next, and further reading apart. Scores are the engine's internals: the
    confidence label says what they mean, so they show only with --verbose."""
    out = [Line(result["answer"], "answer")]
    candidates = [m for m in result["matches"] if m["confidence"] != "weak"] if result["verdict"] != "none" else []
    shown = candidates or result["matches"]
    if shown:
        out += [Line(""), Line("Candidates:" if candidates else
                               "Closest references (words only; nothing names a fault they cover):", "heading")]
    for n, m in enumerate(shown, 1):
        score = f" (score {m['score']})" if verbose else ""
        out += [Line(""), Line(f"{n}. [{m['confidence']}] {m['title']}{score}", m["confidence"]),
                Line(f"   {m['url']}", "url", verbatim=True)]
        for cause in m.get("causes", []):
            where = f" ({_line_numbers(cause['lines'])})" if cause["lines"] else ""  # not "(line )"
            out.append(Line(f"   cause: {cause['title']}{where}"))
        for w in m["why"]:
            out.append(_why_line(w))
    codes = result.get("codes", [])
    if codes:  # from the code tables: what each code means and what to do, with its page
        out += [Line(""), Line("Codes in this paste:", "heading")]
        for c in codes:
            name = f" ({c['name']})" if c.get("name") and c["name"] != c["code"] else ""
            recovery = f" Recovery: {c['recovery']}." if c.get("recovery") else ""
            out += [Line(f"  {c['kind']} {c['code']}{name}, {_line_numbers(c['lines'])}: {c.get('gloss', '')}{recovery}"),
                    Line(f"      {c['url']}", "url", verbatim=True)]
    checks = result["next_checks"]
    if checks:
        apart = result["verdict"] == "ambiguous" and len(candidates) > 1
        out += [Line(""), Line("Checks to run next" + (" (they tell the candidates apart):" if apart else ":"), "heading")]
        for c in checks:
            out.append(Line(f"  * {c['title']}  [{c['reference']}]"))
            out.append(Line(f"      $ {c['command']}", "command", verbatim=True) if c["command"]
                       else Line(f"      look at: {c['observation']}"))
            out.append(Line(f"      {c['url']}", "url", verbatim=True))
    for finding in result.get("findings", []):
        out += [Line(""), Line(f"Separate failure: {finding['answer']} ({_line_numbers(finding['lines'])})")]
    further = result.get("further_reading", [])
    if further:
        out += [Line(""), Line("Further reading (field reports and practices):", "heading")]
        out += [Line(f"  - {m['title']}  {m['url']}") for m in further]
    for w in result["warnings"]:
        out += [Line(""), Line(f"warning: {w['text']}", "warning")]
    read = describe_hints(result.get("hints", {}))
    if read:
        out += [Line(""), Line(f"Read from the paste and context: {read}.")]
    cues = [c for c in result.get("cues", []) if not c["negated"]]
    if cues:
        out.append(Line("Read from the context: " + "; ".join(f"\"{c['text']}\" ({c['reason']})" for c in cues) + "."))
    for r in result.get("readings", []):
        out.append(Line(f"Read from line {r['line']}: {r['reason']}."))
    return out


def describe_hints(hints: dict) -> str:
    parts = [", ".join(hints.get(k, [])) for k in ("frameworks", "versions", "hardware", "environments")]
    if hints.get("scale"):
        parts.append(f"{hints['scale']} GPUs")
    return "; ".join(p for p in parts if p)


def _line_numbers(numbers: list) -> str:
    """"line 3" or "lines 3, 7", as the Match page writes them."""
    return ("lines " if len(numbers) > 1 else "line ") + ", ".join(map(str, numbers))


def _why_line(w: dict) -> Line:
    if w["kind"] == "signature":
        role = "names the fault" if w["role"] == "cause" else "downstream symptom"
        extra = " (stale)" if w["stale"] else (" (shared with other references)" if w["shared"] else "")
        quote = w["text"][:160]
        return Line(f"   - {_line_numbers(w['lines'])}: signature {w['signature']} ({role}){extra}: {quote}", quote=quote)
    if w["kind"] == "words":
        return Line(f"   - words: {', '.join(w['terms'])}")
    return Line("   - " + ("fits: " if w["fit"] else "against: ") + w["text"])
