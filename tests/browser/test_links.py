"""Links in a real browser: an old id's URL lands on the renamed reference with its #section,
and the copy buttons copy canonical links and the citation."""
import functools
import http.server
import threading

import pytest

from relref.paths import site_url

from .conftest import QuietHandler, wait_until


@pytest.fixture(scope="module")
def renamed_server(renamed_site):
    site, case = renamed_site
    handler = functools.partial(QuietHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/", case
    httpd.shutdown()


def test_an_old_url_redirects_to_the_renamed_reference_keeping_its_anchor(browser, renamed_server, artifacts):
    root, case = renamed_server
    context = browser.new_context()
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    anchor = f"cause-{case['cause']}"
    page.goto(f"{root}references/{case['old']}/#{anchor}")
    wait_until(page, "([path, hash]) => location.pathname === path && location.hash === hash",
               [f"/references/{case['new']}/", f"#{anchor}"])
    wait_until(page, "(id) => document.getElementById(id) !== null", anchor)
    top = page.evaluate("(id) => document.getElementById(id).getBoundingClientRect().top", anchor)
    assert top < page.viewport_size["height"], "the browser must scroll to the kept #section"
    page.screenshot(path=str(artifacts / "alias-redirect.png"))
    assert not errors
    context.close()


def test_copy_link_copies_the_canonical_url_of_a_check(page):
    page.goto("references/oom-killed-mid-step/")
    wait_until(page, "() => document.querySelectorAll('.rr-copy-link').length > 5")
    heading = page.locator("h3[id^='check-']").first
    anchor = heading.get_attribute("id")
    heading.locator(".rr-copy-link").click()
    wait_until(page, "() => [...document.querySelectorAll('.rr-copy-link')].some(b => b.textContent === 'Copied')")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied == f"{site_url().rstrip('/')}/references/oom-killed-mid-step/#{anchor}"
    assert not page.errors


def test_every_section_cause_check_and_signature_has_a_copy_link(page):
    page.goto("references/oom-killed-mid-step/")
    wait_until(page, "() => document.querySelectorAll('.rr-copy-link').length > 5")
    missing = page.evaluate("""() => [...document.querySelectorAll(
        "h2#signatures, h2#causes, h2#evidence, h3[id^='cause-'], h3[id^='check-'], .rr-signature[id]")]
        .filter(el => !el.querySelector('.rr-copy-link')).map(el => el.id)""")
    assert missing == []


def test_the_citation_copies_as_one_line(page):
    page.goto("references/oom-killed-mid-step/")
    wait_until(page, "() => document.querySelector('.rr-citation .rr-copy-link') !== null")
    page.click(".rr-citation .rr-copy-link")
    wait_until(page, "() => document.querySelector('.rr-citation .rr-copy-link').textContent === 'Copied'")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied.startswith("OOM Killed Mid-Step, ") and "\n" not in copied
    assert copied.endswith(")") and "(last reviewed 20" in copied
    assert not page.errors
