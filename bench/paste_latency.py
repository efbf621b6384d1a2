"""How long a paste holds the Match page, as a curve over paste sizes, against a paste of the same
text into a bare <textarea> on a page of its own in the same browser run (the floor: what the
browser itself costs). Real Ctrl+V pastes from the clipboard in headless Chromium.

For each size it prints the time from the paste event to the first frame that shows the paste (in
the box, or announced beside it: how long the page is frozen), to the answer shown, the longest main-thread task, and the frozen time as a
ratio of the bare textarea's. A large paste goes to the worker, not into the box, so the Match
page's ratio should stay flat while the bare textarea's own cost grows with the size.

    .venv/bin/python bench/paste_latency.py [--lines 100,500,1000,2000,5000] [--runs 3] [--site DIR]
"""
import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.browser import ARGS, CHROMIUM, serve  # noqa: E402

XID79 = "NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus."
BARE = "<!doctype html><meta charset=utf-8><title>bare</title><textarea id=rr-paste rows=20 cols=80></textarea>"

# Marks the paste event (capture phase, before any handler of the page), then the first frame
# after it, the first answer and every long task. The page's own listeners run after this one.
PROBE = """() => {
    const b = window.__bench = {paste: null, frame: null, answer: null, long: []};
    // Shown: in the box, or (a large paste on the Match page) announced beside it. Checked once a
    // frame, so the first frame that shows it is the end of the freeze, whatever ran before it.
    const box = document.getElementById('rr-paste'), note = document.getElementById('rr-big-note');
    const shown = () => box.value.length > 0 || (note !== null && !note.hidden);
    const frame = () => { if (shown()) b.frame = performance.now(); else requestAnimationFrame(frame); };
    document.addEventListener('paste', () => { b.paste = performance.now(); requestAnimationFrame(frame); }, true);
    const results = document.getElementById('rr-results');
    if (results) new MutationObserver(() => {
        if (b.answer === null && results.querySelector('.rr-answer')) b.answer = performance.now();
    }).observe(results, {childList: true, subtree: true});
    new PerformanceObserver(l => l.getEntries().forEach(e => b.long.push(e.duration))).observe({type: 'longtask'});
}"""


def dmesg(lines: int) -> str:
    body = [f"[{i * 0.013:12.6f}] mlx5_core 0000:{i % 256:02x}:00.0: mlx5e_set_link_ksettings: speed 400000 ok, port {i % 8}"
            for i in range(lines)]
    body[lines * 3 // 4] = f"[{lines * 0.013:12.6f}] {XID79}"
    return "\n".join(body) + "\n"


def one_paste(page, url: str, text: str, answer: bool) -> dict:
    page.goto(url)
    if answer:
        _ready(page)
    page.evaluate(PROBE)
    page.evaluate("t => navigator.clipboard.writeText(t)", text)
    page.focus("#rr-paste")
    page.keyboard.press("Control+V")
    _until(page, "() => window.__bench.frame !== null" + (" && window.__bench.answer !== null" if answer else ""))
    b = page.evaluate("window.__bench")
    return {"frozen": b["frame"] - b["paste"], "answer": (b["answer"] - b["paste"]) if answer else None,
            "long": max(b["long"], default=0.0)}


def _ready(page):
    _until(page, "() => document.documentElement.dataset.rrIndexReady === '1'")


def _until(page, expression: str, timeout_ms: int = 120000):
    # Polled with evaluate: the site's Content Security Policy forbids wait_for_function's strings.
    waited = 0
    while not page.evaluate(expression):
        page.wait_for_timeout(20)
        waited += 20
        if waited > timeout_ms:
            raise TimeoutError(expression)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--lines", default="100,500,1000,2000,5000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--site", type=Path, help="an already built site (default: build one)")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    work = None
    site = args.site
    if site is None:
        from relref.site.build import build_site
        work = Path(tempfile.mkdtemp())
        site = work / "site"
        build_site(ROOT / "references", site)
    base = serve(site)
    rows = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(permissions=["clipboard-read", "clipboard-write"], base_url=base)
        context.route("**/bench-bare.html", lambda route: route.fulfill(body=BARE, content_type="text/html"))
        page = context.new_page()
        for n in [int(x) for x in args.lines.split(",")]:
            text = dmesg(n)
            bare = [one_paste(page, "bench-bare.html", text, False) for _ in range(args.runs)]
            match = [one_paste(page, "match/", text, True) for _ in range(args.runs)]
            med = lambda runs, key: statistics.median(r[key] for r in runs)
            rows.append((n, len(text) / 1024, med(bare, "frozen"), med(match, "frozen"), med(match, "answer"),
                         max(r["long"] for r in match)))
        browser.close()
    print(f"{'lines':>6} {'KB':>7} {'bare frozen ms':>15} {'match frozen ms':>16} {'ratio':>6} {'to answer ms':>13} {'longest task ms':>16}")
    for n, kb, bare, frozen, answer, long in rows:
        print(f"{n:>6} {kb:>7.0f} {bare:>15.0f} {frozen:>16.0f} {frozen / max(bare, 1):>6.2f} {answer:>13.0f} {long:>16.0f}")
    print(f"(median of {args.runs} runs each; ratio = Match page frozen / bare textarea frozen, same browser run)")
    if work:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
