"""Browser tests: headless Debian Chromium driven by Python playwright, against the built site served
on loopback. Skipped with a message where Chromium is missing; under CI (CI=true) they must run."""
import functools
import http.server
import os
import threading
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "test-artifacts"


def pytest_collection_modifyitems(config, items):
    if Path(CHROMIUM).exists():
        return
    if os.environ.get("CI"):
        raise pytest.UsageError(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium; CI must run the browser tests")
    skip = pytest.mark.skip(reason=f"{CHROMIUM} not found: install it with 'apt-get install chromium' to run browser tests")
    for item in items:
        if "browser" in str(item.fspath):
            item.add_marker(skip)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _serve(folder, handler_class=None):
    handler = functools.partial(handler_class or QuietHandler, directory=str(folder))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/"


@pytest.fixture(scope="session")
def server(built_site):
    httpd, url = _serve(built_site)
    yield url
    httpd.shutdown()


@pytest.fixture(scope="session")
def payload_server(payload_site):
    """The site built from tests/payloads.py, on its own loopback port."""
    httpd, url = _serve(payload_site[0])
    yield url
    httpd.shutdown()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


def _page(browser, base_url):
    """A fresh context with clipboard access and a page that records its script errors."""
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"], base_url=base_url)
    pg = context.new_page()
    pg.errors = []
    pg.on("pageerror", lambda e: pg.errors.append(str(e)))
    return context, pg


@pytest.fixture
def page(browser, server):
    context, pg = _page(browser, server)
    yield pg
    context.close()


@pytest.fixture(scope="session")
def artifacts():
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def wait_until(page, expression: str, arg=None, timeout: float = 15.0):
    """Poll a JS function until it returns true. (wait_for_function evaluates strings, which the
    site's Content Security Policy forbids; page.evaluate is not subject to it.)"""
    import time
    from playwright.sync_api import Error
    deadline = time.monotonic() + timeout
    while True:
        try:
            if page.evaluate(expression, arg):
                return
        except Error as e:  # a navigation under way (Back, a link) replaced the page: not true yet
            if "Execution context was destroyed" not in str(e):
                raise
        if time.monotonic() > deadline:
            raise TimeoutError(f"not true after {timeout} s: {expression}")
        page.wait_for_timeout(50)


def open_match(page, path="match/"):
    page.goto(path)
    wait_until(page, "() => document.documentElement.dataset.rrIndexReady === '1'")


def match_in_page(page, text, context=""):
    """Run the browser's engine (in its worker) on one text; returns [[id, confidence, score], ...]."""
    return page.evaluate("""async ([text, context]) => {
        const a = await RelrefClient.match({text, context, top: 5});
        return {confident: a.result.confident, top: a.result.matches.map(m => [m.id, m.confidence, m.score])};
    }""", [text, context])


class AtHomeHandler(QuietHandler):
    """Serves the site as it is served at its SITE_URL: the sitemap names this server's address.
    The theme's instant navigation takes only the links its sitemap lists, compared without the
    port, so on the `server` fixture's random port every link is a full page load."""

    def do_GET(self):
        if self.path.split("?")[0] != "/sitemap.xml":
            return super().do_GET()
        from relref.paths import site_url
        here = f"http://{self.headers['Host']}/"
        body = (Path(self.directory) / "sitemap.xml").read_text(encoding="utf-8").replace(site_url(), here).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="session")
def home_server(built_site):
    httpd, url = _serve(built_site, AtHomeHandler)
    yield url
    httpd.shutdown()


@pytest.fixture
def home_page(browser, home_server):
    """A page on the site served at its own address: instant navigation works as in production."""
    context, pg = _page(browser, home_server)
    yield pg
    context.close()


def paste(page, selector, text):
    """A real paste: the text on the clipboard, then Ctrl+V in the focused field."""
    page.evaluate("t => navigator.clipboard.writeText(t)", text)
    page.focus(selector)
    page.keyboard.press("Control+V")


STORED_JS = """async () => {
    const out = [];
    for (const s of [sessionStorage, localStorage]) for (let i = 0; i < s.length; i++) out.push(s.key(i) + '=' + s.getItem(s.key(i)));
    out.push(document.cookie);
    if (indexedDB.databases) out.push(JSON.stringify(await indexedDB.databases()));
    return out.join('\\n');
}"""


def stored(page) -> str:
    """Everything the page's origin holds in Web Storage, cookies and IndexedDB names."""
    return page.evaluate(STORED_JS)
