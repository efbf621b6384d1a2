"""Copied links with SITE_URL given (issue 19 item 5): a site built for https://errors.example.org/relref/
and opened from a local server still copies links under the public address (the browser half of the
rule in relref.paths; without SITE_URL, tests/browser/test_links.py checks the served root)."""
import functools
import http.server
import os
import subprocess
import sys
import threading

import pytest

from relref import paths

from conftest import FIXTURES
from .conftest import QuietHandler, wait_until

PUBLIC = "https://errors.example.org/relref/"


@pytest.fixture(scope="module")
def public_server(tmp_path_factory):
    site = tmp_path_factory.mktemp("public-browser") / "site"
    env = dict(os.environ, SITE_URL=PUBLIC)
    subprocess.run([sys.executable, "-m", "relref.cli", "build", "--records", str(FIXTURES), "--site-dir", str(site),
                    "--no-lock"], env=env, check=True, capture_output=True, cwd=paths.ROOT)
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


def test_with_site_url_copies_use_it_wherever_the_page_is_served(browser, public_server):
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(f"{public_server}references/fixture-error/#evidence")
    wait_until(page, "() => document.querySelector('.rr-citation .rr-copy-link') !== null")
    assert page.evaluate("() => RelrefLinks.url('references/fixture-error/')") == f"{PUBLIC}references/fixture-error/"
    page.click(".rr-citation .rr-copy-link")
    wait_until(page, "() => document.querySelector('.rr-citation .rr-copy-link').textContent === 'Copied'")
    assert f", {PUBLIC}references/fixture-error/ (last reviewed" in page.evaluate("() => navigator.clipboard.readText()")
    check = page.locator("h3[id^='check-']").first
    check.hover()
    check.locator("a.headerlink").click()
    wait_until(page, "() => document.querySelector('a.headerlink[data-rr-copied]') !== null")
    assert page.evaluate("() => navigator.clipboard.readText()") == f"{PUBLIC}references/fixture-error/#{check.get_attribute('id')}"
    context.close()
