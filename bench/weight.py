"""Weight: the match index size per reference (gzip), and the bytes a reference page and the Match
page transfer on first load, beside a plain page with the same text from the same engine (the theme's
defaults, none of this site's overrides, scripts or index), for each site engine.

    .venv/bin/python bench/weight.py [--engines mkdocs,zensical]
"""
import argparse
import gzip
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.browser import ARGS, CHROMIUM, serve  # noqa: E402
from relref.site.build import ENGINES, build_site, generate  # noqa: E402

PAGE = "references/gpu-lost-collective-timeout/"


INDEXES = tuple(e.SEARCH_INDEX for e in ENGINES.values()) + ("assets/match/index.json",)


def first_load(browser, url: str, site: Path, base: str) -> tuple[int, int, int]:
    """Raw and gzip bytes of every response a first visit loads (gzip: what a compressing host sends),
    and the gzip bytes of the two site-wide indexes among them (the theme's search, the match index)."""
    context = browser.new_context()
    page = context.new_page()
    urls = []
    page.on("response", lambda r: urls.append(r.url))
    page.goto(url)
    page.wait_for_load_state("networkidle")
    context.close()
    raw = packed = indexes = 0
    for u in urls:
        path = u[len(base):].split("#")[0].split("?")[0]
        file = site / path
        if file.is_dir() or path.endswith("/") or path == "":
            file = file / "index.html"
        if file.is_file():
            data = file.read_bytes()
            raw += len(data)
            packed += len(gzip.compress(data, 6))
            indexes += len(gzip.compress(data, 6)) if path in INDEXES else 0
    return raw, packed, indexes


def plain_site(work: Path, engine: str = "mkdocs") -> Path:
    """The same reference page's Markdown as a plain page of the engine's theme (defaults, no extras;
    the classic look for Zensical, as the site has)."""
    generate(ROOT / "references", work / "generated")
    plain = work / f"plain-{engine}"
    (plain / "docs").mkdir(parents=True)
    shutil.copy(work / "generated" / "docs" / (PAGE.rstrip("/") + ".md"), plain / "docs" / "index.md")
    (plain / "mkdocs.yml").write_text("site_name: plain\ntheme:\n  name: material\n  variant: classic\n"
                                      "markdown_extensions: [admonition, attr_list, md_in_html, tables, "
                                      "pymdownx.superfences, pymdownx.details]\n")
    command = [arg for arg in ENGINES[engine].command(plain / "mkdocs.yml") if arg != "--strict"]  # one page alone
    subprocess.run(command, cwd=plain, env=ENGINES[engine].environment(), check=True, capture_output=True)
    return plain / "site"


def main() -> int:
    from playwright.sync_api import sync_playwright
    parser = argparse.ArgumentParser()
    parser.add_argument("--engines", default=",".join(ENGINES))
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp())
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        for engine in args.engines.split(","):
            site = work / f"site-{engine}"
            build_site(ROOT / "references", site, engine=engine)
            index = site / "assets" / "match" / "index.json"
            refs = len(json.loads(index.read_text())["references"])
            packed = len(gzip.compress(index.read_bytes(), 6))
            theme_index = site / ENGINES[engine].SEARCH_INDEX
            theme_packed = len(gzip.compress(theme_index.read_bytes(), 6))
            print(f"[{engine}] match index: {index.stat().st_size / 1024:.0f} KiB raw, {packed / 1024:.0f} KiB gzip, "
                  f"{packed / refs / 1024:.1f} KiB gzip per reference ({refs} references); the theme's full-text "
                  f"index ({ENGINES[engine].SEARCH_INDEX}): {theme_packed / 1024:.0f} KiB gzip, "
                  f"{theme_packed / refs / 1024:.1f} KiB per reference")
            plain = plain_site(work, engine)
            base, plain_base = serve(site), serve(plain)
            rows = [("reference page", first_load(browser, base + PAGE, site, base)),
                    ("Match page", first_load(browser, base + "match/", site, base)),
                    (f"plain {engine} page, same text", first_load(browser, plain_base, plain, plain_base))]
            plain_packed, plain_rest = rows[-1][1][1], rows[-1][1][1] - rows[-1][1][2]
            print(f"[{engine}] {'first load':31} {'raw KiB':>8} {'gzip KiB':>9} {'vs plain':>9} {'indexes KiB':>12} "
                  f"{'rest KiB':>9} {'rest vs plain':>14}")
            for name, (raw, gz, idx) in rows:
                print(f"[{engine}] {name:31} {raw / 1024:>8.0f} {gz / 1024:>9.0f} {gz / plain_packed:>9.2f} "
                      f"{idx / 1024:>12.0f} {(gz - idx) / 1024:>9.0f} {(gz - idx) / plain_rest:>14.2f}")
        browser.close()
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
