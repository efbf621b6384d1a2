"""The smoke set of the browser tests, on the site from each engine (mkdocs with mkdocs-material, and
Zensical): a reference page, the Match page with a paste, the header search with a paste and with
keywords, no request to another host, no inline script and nothing the CSP blocks, and page weight."""
import re
import sys
from urllib.parse import urlsplit

import pytest

from relref import paths
from engines import ENGINES, site_of

from .conftest import _serve, open_match

XID79 = "NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus."
WATCHDOG = ("[rank3]:[E321 02:07:08.408271257 ProcessGroupNCCL.cpp:607] [Rank 3] Watchdog caught collective "
            "operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, NumelIn=4, NumelOut=4, "
            "Timeout(ms)=600000) ran for 600060 milliseconds before timing out.")
REFERENCE = "references/gpu-lost-collective-timeout/"
# Each engine's search box and its keyword results (Zensical's are in its dialog, in a shadow root:
# playwright's CSS selectors reach into it).
SEARCH = {"mkdocs": (".md-search__input", ".md-search-result__item"),
          "zensical": ("dialog input[role=combobox]", "dialog [role=listbox] [role=option]")}
# Everything the CSP blocks is recorded from the first byte on (an init script is not subject to it).
WATCH_CSP = ("window.__csp = []; document.addEventListener('securitypolicyviolation', "
             "e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));")


@pytest.fixture(scope="module", params=ENGINES)
def engine(request):
    return request.param


@pytest.fixture(scope="module")
def engine_site(request, engine):
    return site_of(request, engine)


@pytest.fixture(scope="module")
def engine_server(engine_site):
    httpd, url = _serve(engine_site)
    yield url
    httpd.shutdown()


@pytest.fixture
def epage(browser, engine_server):
    """A page on the engine's site that records every request and everything the CSP blocks."""
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"], base_url=engine_server)
    context.add_init_script(WATCH_CSP)
    pg = context.new_page()
    pg.errors, pg.requests = [], []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    pg.on("request", lambda r: pg.requests.append(r.url))
    yield pg
    context.close()


def open_search(page, engine) -> str:
    """Open the header search as a person would; returns the selector of its text box."""
    box = SEARCH[engine][0]
    if engine == "zensical":
        page.click(".md-search__button")  # the search is a dialog
    else:
        page.click(box)
    page.wait_for_selector(box)
    page.focus(box)
    return box


def paste(page, selector, text):
    page.locator(selector).evaluate("""(box, t) => {
        const data = new DataTransfer();
        data.setData('text/plain', t);
        box.dispatchEvent(new ClipboardEvent('paste', {clipboardData: data, bubbles: true, cancelable: true, composed: true}));
    }""", text)


def panel_ids(page):
    return [e.get_attribute("data-reference-id") for e in page.query_selector_all("#rr-search-match .rr-result")]


def test_a_reference_page_has_its_sections_and_anchors(epage, engine):
    epage.goto(REFERENCE + "#causes")
    epage.wait_for_load_state("networkidle")
    for anchor in ("signatures", "causes", "evidence", "mitigations", "look-alikes", "sources"):
        assert epage.locator(f"#{anchor}").count() == 1, anchor
    assert epage.locator("[id^=cause-]").count() >= 2 and epage.locator("[id^=check-]").count() >= 2
    assert "loses its GPU" in epage.inner_text("h1")
    assert epage.evaluate("document.getElementById('causes').getBoundingClientRect().top") < 300, "the anchor is scrolled to"
    assert epage.evaluate("window.__csp") == [] and not epage.errors


def test_the_match_page_ranks_a_paste(epage, engine):
    open_match(epage)
    epage.evaluate("t => navigator.clipboard.writeText(t)", f"{XID79}\n{WATCHDOG}")
    epage.get_by_label("Paste an error").focus()
    epage.keyboard.press("Control+V")
    epage.wait_for_selector("#rr-results .rr-result")
    first = epage.query_selector("#rr-results .rr-result")
    assert (first.get_attribute("data-reference-id"), first.get_attribute("data-confidence")) == \
        ("gpu-lost-collective-timeout", "strong")
    assert epage.inner_text("#rr-results .rr-answer").startswith("Most likely: A worker loses its GPU")
    assert epage.evaluate("window.__csp") == [] and not epage.errors


def test_the_header_search_sends_a_paste_to_the_match_engine(epage, engine, artifacts):
    epage.goto(REFERENCE)
    epage.wait_for_load_state("networkidle")
    box = open_search(epage, engine)
    paste(epage, box, f"{XID79}\n{WATCHDOG}")
    epage.wait_for_selector("#rr-search-match[data-state=done]")  # the head says "Matching…" before
    assert panel_ids(epage)[0] == "gpu-lost-collective-timeout"
    assert epage.is_visible("#rr-search-match .rr-open-match")
    assert "Xid" in epage.input_value(box), "the box holds a one-line copy of the paste"
    epage.screenshot(path=str(artifacts / f"header-search-paste-{engine}.png"))
    epage.click("#rr-search-match .rr-open-match")
    epage.wait_for_selector("#rr-results .rr-result")
    assert "Xid" in epage.input_value("#rr-paste") and "Xid" not in epage.url
    assert epage.evaluate("window.__csp") == [] and not epage.errors


def poll(check, timeout=15.0):
    import time
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "not true in time"
        time.sleep(0.05)


def test_the_header_search_sends_keywords_to_the_engines_own_search(epage, engine):
    epage.goto("")
    epage.wait_for_load_state("networkidle")
    box, results = SEARCH[engine]
    open_search(epage, engine)
    for query in ("NCCL watchdog", "RuntimeError: NCCL", "~NCCL^2 *NCCL*"):  # operators are made safe for each engine
        epage.fill(box, "")
        poll(lambda: epage.locator(results).count() == 0)
        epage.keyboard.type(query)
        poll(lambda: epage.locator(results).count() > 0)
        assert not epage.is_visible("#rr-search-match"), "keywords are not sent to the match engine"
        hrefs = epage.locator(results).evaluate_all("es => es.map(e => (e.closest('a') || e.querySelector('a')).href)")
        assert all(h.startswith(epage.url.split("#")[0].rsplit("/", 1)[0]) for h in hrefs), hrefs
        assert any("/references/" in h or "/codes/" in h for h in hrefs), hrefs
    assert epage.evaluate("window.__csp") == [] and not epage.errors


PAGES = ["", "browse/", "match/", "codes/", "api/", REFERENCE, "categories/memory/"]


def test_no_request_to_another_host_and_no_inline_script(epage, engine, engine_site, engine_server):
    for path in PAGES:
        epage.goto(path)
        epage.wait_for_load_state("networkidle")
        html = (engine_site / path / "index.html").read_text(encoding="utf-8")
        inline = [m for m in re.findall(r"<script\b([^>]*)>", html) if "src=" not in m and "application/json" not in m]
        assert not inline, f"{path}: inline script {inline}"
        csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1)
        script_src = next(d for d in csp.split(";") if d.strip().startswith("script-src"))
        assert "'unsafe-inline'" not in script_src and "'unsafe-eval'" not in script_src
    open_search(epage, engine)
    epage.keyboard.type("NCCL watchdog")
    epage.wait_for_timeout(500)
    own = urlsplit(engine_server).netloc
    assert [u for u in epage.requests if urlsplit(u).netloc not in (own, "")] == []
    assert epage.evaluate("window.__csp") == [] and not epage.errors


def test_a_reference_page_weighs_at_most_one_and_a_half_plain_pages(browser, engine, engine_site, engine_server,
                                                                    tmp_path):
    """The on-call issue's goal (issue 19, item 13): a reference page's first load at most 1.5 times a
    plain page of the same engine's theme with the same text."""
    sys.path.insert(0, str(paths.ROOT))
    from bench.weight import first_load, plain_site
    plain = plain_site(tmp_path, engine)
    httpd, plain_url = _serve(plain)
    try:
        page_gzip = first_load(browser, engine_server + REFERENCE, engine_site, engine_server)[1]
        plain_gzip = first_load(browser, plain_url, plain, plain_url)[1]
    finally:
        httpd.shutdown()
    assert page_gzip <= 1.5 * plain_gzip, f"{page_gzip / 1024:.0f} KiB gzip vs a plain page's {plain_gzip / 1024:.0f} KiB"
