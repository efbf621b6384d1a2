"""A reference page as an on-call engineer uses it (issue 19 items 7, 10, 12, 13): what it is and
where to start in the first screens, lines that wrap at spaces on a phone, a printout with the
patterns and source addresses, and no full-text index downloaded until the search box is used."""
import re
from pathlib import Path

import pytest

from .conftest import open_match, wait_until

DESKTOP = {"width": 1366, "height": 900}
PHONE = {"width": 390, "height": 844}
WATCHDOG = ("[rank3]:[E321 02:07:08.408271257 ProcessGroupNCCL.cpp:607] [Rank 3] Watchdog caught collective "
            "operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, NumelIn=4, NumelOut=4, "
            "Timeout(ms)=600000) ran for 600060 milliseconds before timing out.")

# Line breaks inside a word: two letters or digits on either side of a line break, in a word (a run
# of letters and digits between spaces or punctuation) that would have fitted on the line whole. A
# long dotted name or path must break at its punctuation; only a word wider than the line may not.
MID_WORD_BREAKS = """(selector) => {
  const bad = [];
  const word = c => /[\\p{L}\\p{N}]/u.test(c);
  for (const el of document.querySelectorAll(selector)) {
    const rects = el.getClientRects().length;
    // An inline element on one line box has no break at all: only wrapped ones are read letter by letter.
    if (!rects || (rects === 1 && getComputedStyle(el).display === 'inline')) continue;
    const chars = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n; (n = walker.nextNode());) for (let i = 0; i < n.data.length; i++) {
      const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1);
      const rects = r.getClientRects();
      chars.push({c: n.data[i], rect: rects.length ? rects[0] : null});
    }
    const box = el.parentElement.closest("p, li, td, th, dd, dt, div, summary, h1, h2, h3, h4") || el.parentElement;
    const style = getComputedStyle(box);
    const width = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    for (let i = 1; i < chars.length; i++) {
      const a = chars[i - 1], b = chars[i];
      if (!a.rect || !b.rect || !word(a.c) || !word(b.c) || b.rect.top < a.rect.bottom - 1) continue;
      let s = i - 1, e = i;
      while (s > 0 && word(chars[s - 1].c)) s--;
      while (e < chars.length - 1 && word(chars[e + 1].c)) e++;
      const run = chars.slice(s, e + 1);
      const own = getComputedStyle(el);
      const padding = parseFloat(own.paddingLeft) + parseFloat(own.paddingRight);
      if (run.reduce((t, x) => t + (x.rect ? x.rect.width : 0), padding) < width) bad.push(run.map(x => x.c).join(""));
    }
  }
  return bad;
}"""
CODE_PAGES_READ = 25
LINES = """(el) => { const tops = new Set(); for (const r of el.getClientRects()) tops.add(Math.round(r.top)); return tops.size; }"""


def _article_chars(html: str) -> int:
    article = html.split("<article", 1)[1].split("</article>", 1)[0]
    return len(re.sub(r"<[^>]+>", "", article))


def _references(site: Path) -> dict:
    """Reference page path -> its HTML; not the redirect pages of earlier ids."""
    pages = {f"references/{f.parent.name}/": f.read_text(encoding="utf-8")
             for f in sorted((site / "references").glob("*/index.html"))}
    return {path: html for path, html in pages.items() if 'class="rr-meta"' in html}


@pytest.fixture(scope="module")
def longest(built_site, browser, server):
    """The longest reference page: the tallest one on a desktop. Text inside a closed disclosure
    (a signature's pattern and notes) makes a page no longer to scroll, so characters are only the
    first cut: the ten pages with the most text are laid out and measured."""
    pages = {path: _article_chars(html) for path, html in _references(built_site).items()}
    context = _context(browser, server, DESKTOP)
    page = context.new_page()
    heights = {}
    for path in sorted(pages, key=pages.get, reverse=True)[:10]:
        page.goto(path)
        heights[path] = page.evaluate("() => document.documentElement.scrollHeight")
    context.close()
    return max(heights, key=heights.get)


def _context(browser, server, viewport, **kw):
    return browser.new_context(base_url=server, viewport=viewport, **kw)


@pytest.mark.parametrize("viewport,screens", [(DESKTOP, 2), (PHONE, 3)], ids=["desktop", "phone"])
def test_evidence_starts_within_two_screens_on_a_desktop_and_three_on_a_phone(browser, server, longest, viewport,
                                                                             screens):
    context = _context(browser, server, viewport)
    page = context.new_page()
    page.goto(longest)
    offset = page.evaluate("() => document.getElementById('evidence').getBoundingClientRect().top + scrollY")
    print(f"{longest} at {viewport['width']}x{viewport['height']}: #evidence at {offset / viewport['height']:.2f} screens")
    assert offset <= screens * viewport["height"], f"#evidence at {offset / viewport['height']:.2f} screens"
    context.close()


def test_the_first_screen_says_what_it_is_what_it_prints_and_what_to_check_first(browser, server, longest):
    context = _context(browser, server, DESKTOP)
    page = context.new_page()
    page.goto(longest)
    height = DESKTOP["height"]
    top = page.evaluate("""(sel) => sel.map(s => { const el = document.querySelector(s);
        return el ? el.getBoundingClientRect().top + scrollY : null; })""",
                        [".rr-lede", "details.rr-sig", ".rr-causes table"])
    assert all(y is not None and y < height for y in top), f"lede, first signature, causes table at {top}"
    # One line per signature: its example; the pattern and notes only once it is opened.
    sig = page.locator("details.rr-sig").first
    assert not sig.locator(".rr-pattern").is_visible()
    assert page.evaluate(LINES, sig.locator(".rr-sig-example code").element_handle()) == 1
    sig.locator("summary").click()
    assert sig.locator(".rr-pattern").is_visible()
    # Every cause in the table, each with its first check.
    rows = page.locator(".rr-causes tbody tr")
    assert rows.count() == page.locator("h3[id^='cause-']").count()
    assert all("#check-" in (rows.nth(i).locator("td").nth(2).locator("a").get_attribute("href") or "")
               for i in range(rows.count()))
    context.close()


def test_every_signature_summary_is_one_line_on_a_phone(browser, server, built_site):
    """The compact list holds one line per signature on every page, however long its example: a
    long one is cut with an ellipsis (the whole example is inside the disclosure), never wrapped at
    the break points the page adds to other inline code."""
    context = _context(browser, server, PHONE)
    page = context.new_page()
    wrapped = {}
    for path in _references(built_site):
        page.goto(path)
        wait_until(page, """() => [...document.querySelectorAll('.md-typeset code:not(pre > code):not(.rr-sig-example > code)')]
            .every(c => c.dataset.rrBreaks)""")
        lines = page.evaluate("""() => [...document.querySelectorAll('details.rr-sig > summary')].map(s => {
            const code = s.querySelector('.rr-sig-example code');
            const line = parseFloat(getComputedStyle(s).lineHeight);
            return [s.parentElement.id, code.getClientRects().length, s.getBoundingClientRect().height / line];
          }).filter(([, rects, height]) => rects !== 1 || height >= 2)""")
        if lines:
            wrapped[path] = lines[:3]
    assert not wrapped, wrapped
    context.close()


def test_section_links_show_on_hover_and_focus_only(page):
    page.goto("references/oom-killed-mid-step/")
    link = page.locator("h2#evidence a.headerlink")
    opacity = lambda: float(link.evaluate("a => getComputedStyle(a).opacity"))  # noqa: E731
    assert opacity() == 0
    page.locator("h2#evidence").hover()
    page.wait_for_timeout(400)  # the theme fades it in
    assert opacity() == 1
    page.mouse.move(0, 0)
    link.focus()
    page.wait_for_timeout(400)
    assert opacity() == 1


# Matched lines on the Match page: tests/browser/test_on_call.py::test_matched_lines_and_inline_code_break_between_words_on_a_phone


def test_inline_code_wraps_at_spaces_and_punctuation_on_a_phone(browser, server, built_site):
    """Every reference page, the codes index and family pages (their tables hold the most inline
    code), and the code pages with the most inline code: the rest share their template."""
    context = _context(browser, server, PHONE)
    page = context.new_page()
    paths = list(_references(built_site))
    codes = sorted((built_site / "codes").glob("**/index.html"))
    families = [f for f in codes if len(f.relative_to(built_site).parts) <= 3]
    inline = lambda f: sum(map(len, re.findall(r"<code>([^<]*)</code>", f.read_text(encoding="utf-8"))))  # noqa: E731
    most = sorted(set(codes) - set(families), key=lambda f: (-inline(f), str(f)))[:CODE_PAGES_READ]
    paths += [str(f.parent.relative_to(built_site)) + "/" for f in families + most]
    broken = {}
    for path in paths:
        page.goto(path)
        if bad := page.evaluate(MID_WORD_BREAKS, "article :not(pre) > code, article kbd, article mark"):
            broken[path] = bad[:5]
    assert not broken, broken
    context.close()


def test_print_opens_patterns_and_notes_hides_buttons_and_prints_source_addresses(page, longest):
    page.goto(longest)
    wait_until(page, "() => document.querySelector('.rr-citation .rr-copy-link') !== null")
    page.emulate_media(media="print")
    assert page.evaluate("""() => [...document.querySelectorAll('details.rr-sig .rr-pattern')]
        .every(el => el.getBoundingClientRect().height > 0)"""), "every pattern prints"
    assert page.evaluate("""() => [...document.querySelectorAll('details.rr-sig')].filter(d => d.querySelector('p:last-child'))
        .every(d => d.querySelector('p:last-child').getBoundingClientRect().height > 0)"""), "notes print"
    assert page.evaluate("""() => [...document.querySelectorAll('details.rr-cause-more > p')]
        .every(p => p.getBoundingClientRect().height > 0)"""), "the rest of each cause prints"
    assert page.locator("details.rr-cause-more").count() > 0
    shown = page.evaluate("""() => [...document.querySelectorAll('button, .md-clipboard, .headerlink, .rr-copy-link')]
        .filter(el => el.getClientRects().length > 0).map(el => el.outerHTML.slice(0, 80))""")
    assert shown == []
    first = page.locator(".rr-source a[href^='http']").first
    after = first.evaluate("a => getComputedStyle(a, '::after').content")
    assert first.get_attribute("href") in after
    pdf = page.pdf()
    assert pdf.startswith(b"%PDF")
    page.emulate_media(media="screen")
    assert not page.locator("details.rr-sig .rr-pattern").first.is_visible(), "back on screen, closed again"
    assert not page.locator("details.rr-cause-more > p").first.is_visible(), "a cause's rest is closed on screen"


def test_the_search_index_loads_on_the_first_focus_of_the_search_box_and_search_works(page):
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto("references/oom-killed-mid-step/")
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)
    assert not [u for u in requests if "search_index.json" in u], "no full-text index on load"
    page.locator("label.md-search__icon, .md-search__input").first.click()
    page.locator(".md-search__input").fill("watchdog")
    page.wait_for_selector(".md-search-result__item")
    assert [u for u in requests if u.endswith("search/search_index.json")]
    assert page.evaluate("() => document.documentElement.dataset.rrSearchIndex") == "requested"


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_screenshots(browser, server, longest, artifacts: Path, scheme, viewport):
    """For a person to look at: the first screens of the longest reference."""
    context = _context(browser, server, viewport, color_scheme=scheme)
    page = context.new_page()
    page.goto(longest)
    expected = "slate" if scheme == "dark" else "default"
    assert page.evaluate("() => document.body.dataset.mdColorScheme") == expected
    name = f"reference-{'desktop' if viewport is DESKTOP else 'phone'}-{scheme}.png"
    page.screenshot(path=str(artifacts / name), full_page=True, clip={"x": 0, "y": 0, "width": viewport["width"],
                                                         "height": viewport["height"] * 2})
    context.close()
