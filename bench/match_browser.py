"""Browser matching of a 10 MB paste in headless Chromium: the engine in its worker against one pass
of a single JavaScript regular expression (the alternation of all signature patterns) over the same
text in the same worker; and the longest main-thread task while the Match page takes a 10 MB paste.

    .venv/bin/python bench/match_browser.py [--mb 10] [--runs 3]
"""
import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.make_log import make  # noqa: E402
from bench.browser import ARGS, CHROMIUM, serve  # noqa: E402
from relref.site.build import build_site  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=float, default=10)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    work = Path(tempfile.mkdtemp())
    site = work / "site"
    build_site(ROOT / "references", site)
    shutil.copy(ROOT / "bench" / "browser_worker.js", site / "assets" / "javascripts" / "match" / "bench-worker.js")
    log = work / "paste.log"
    make(log, int(args.mb * 1e6))
    text = log.read_text(encoding="utf-8")
    base = serve(site)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
        page = context.new_page()
        page.goto(base + "match/")
        timing = page.evaluate("""async ([text, runs, base]) => {
            const w = new Worker(base + 'assets/javascripts/match/bench-worker.js');
            return await new Promise(r => { w.onmessage = e => r(e.data);
                w.postMessage({text, runs, indexUrl: base + 'assets/match/index.json'}); });
        }""", [text, args.runs, base])
        page.evaluate("t => navigator.clipboard.writeText(t)", text)
        page.evaluate("""() => { window.__long = []; new PerformanceObserver(l => l.getEntries()
            .forEach(e => window.__long.push(e.duration))).observe({type: 'longtask'}); }""")
        page.focus("#rr-paste")
        page.keyboard.press("Control+V")
        page.wait_for_selector("#rr-results .rr-result", timeout=120000)
        long_tasks = page.evaluate("window.__long")
        browser.close()
    engine, regex = statistics.median(timing["engine"]), statistics.median(timing["regex"])
    print(f"{'paste':>8} {'regex pass ms':>14} {'engine ms':>10} {'ratio':>6} {'longest main-thread task ms':>28}")
    print(f"{args.mb:>6.0f}MB {regex:>14.0f} {engine:>10.0f} {engine / regex:>6.2f} {max(long_tasks, default=0):>28.0f}")
    print(f"(median of {args.runs} runs; top match {timing['top']}; regex matches {timing['count']})")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
