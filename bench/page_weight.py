"""Page weight for the on-call issue (issue 19 item 13), with 42 records and optionally more (copies
of the real records under new ids, as bench/build.py makes them):

- a reference page's first load (gzip, every response) as a ratio to a plain page of the same
  engine's theme with the same text (goal <= 1.5);
- what the first keyword search downloads (gzip: the full-text index and the theme's search
  worker, which the page holds until the search box is first focused), per reference (goal <= 8 KB);
- the match index, gzip, per reference (goal <= 4 KB).

    .venv/bin/python bench/page_weight.py [--counts 42,1000] [--engines mkdocs,zensical]

gzip is level 6 of each file as the site holds it: what a compressing host sends.
"""
import argparse
import gzip
import json
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.browser import ARGS, CHROMIUM, serve  # noqa: E402
from bench.build import make_records  # noqa: E402
from bench.weight import PAGE, first_load, plain_site  # noqa: E402
from relref.site.build import ENGINES, build_site  # noqa: E402

GOALS = {"ratio": 1.5, "search": 8 * 1024, "match": 4 * 1024}
# The search box, and what a person clicks to reach it (Zensical's search is a dialog).
SEARCH_BOX = {"mkdocs": ".md-search__input", "zensical": "dialog input[role=combobox]"}
OPEN_SEARCH = {"mkdocs": ".md-search__input", "zensical": ".md-search__button"}


def _gzip_of(site: Path, base: str, url: str) -> int:
    path = url[len(base):].split("#")[0].split("?")[0]
    file = site / path
    if file.is_dir() or path.endswith("/") or path == "":
        file = file / "index.html"
    return len(gzip.compress(file.read_bytes(), 6)) if file.is_file() else 0


def first_search(browser, engine: str, site: Path, base: str) -> tuple[int, list[str]]:
    """gzip bytes of everything a reference page fetches between load and the first keyword's results."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(base + PAGE)
    page.wait_for_load_state("networkidle")
    urls = []
    page.on("response", lambda r: urls.append(r.url))
    page.click(OPEN_SEARCH[engine])
    page.locator(SEARCH_BOX[engine]).first.fill("watchdog")
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)
    context.close()
    own = [u for u in urls if u.startswith(base)]
    return sum(_gzip_of(site, base, u) for u in own), [u[len(base):] for u in own]


def measure(browser, engine: str, records: Path, work: Path) -> dict:
    site = work / f"site-{engine}"
    assert build_site(records, site, engine=engine, lock=None) == 0
    index = site / "assets" / "match" / "index.json"
    refs = len(json.loads(index.read_text(encoding="utf-8"))["references"])
    plain = plain_site(work / f"plain-{engine}", engine)
    base, plain_base = serve(site), serve(plain)
    page_gzip = first_load(browser, base + PAGE, site, base)[1]
    plain_gzip = first_load(browser, plain_base, plain, plain_base)[1]
    search_gzip, fetched = first_search(browser, engine, site, base)
    return {"references": refs, "page": page_gzip, "plain": plain_gzip, "ratio": page_gzip / plain_gzip,
            "search": search_gzip / refs, "search_files": fetched,
            "match": len(gzip.compress(index.read_bytes(), 6)) / refs}


def main() -> int:
    from playwright.sync_api import sync_playwright
    parser = argparse.ArgumentParser()
    parser.add_argument("--counts", default="42")
    parser.add_argument("--engines", default="mkdocs")
    args = parser.parse_args()
    print(f"{'engine':9} {'records':>7} {'page KiB':>9} {'plain KiB':>10} {'ratio':>6} {'(goal)':>7} "
          f"{'search/ref KB':>14} {'(goal)':>7} {'match/ref KB':>13} {'(goal)':>7}")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for count in (int(c) for c in args.counts.split(",")):
            work = Path(tempfile.mkdtemp())
            try:
                if count <= len(list((ROOT / "references").glob("*.yaml"))):
                    records = ROOT / "references"
                else:
                    records = work / "records"
                    records.mkdir()
                    make_records(records, count)
                for engine in args.engines.split(","):
                    m = measure(browser, engine, records, work)
                    print(f"{engine:9} {m['references']:>7} {m['page'] / 1024:>9.1f} {m['plain'] / 1024:>10.1f} "
                          f"{m['ratio']:>6.2f} {'<=' + str(GOALS['ratio']):>7} {m['search'] / 1000:>14.2f} "
                          f"{'<=8':>7} {m['match'] / 1000:>13.2f} {'<=4':>7}")
                    print(f"{'':9} first search fetched: {', '.join(m['search_files']) or 'nothing'}")
            finally:
                shutil.rmtree(work, ignore_errors=True)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
