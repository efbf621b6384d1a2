"""Links in a real browser: an old id's URL lands on the renamed reference with its #section, the
section permalinks copy canonical links, and the citation copies as one line."""
import functools
import http.server
import threading

import pytest

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


def test_an_alias_still_copies_the_canonical_page(browser, renamed_server):
    root, case = renamed_server
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(f"{root}references/{case['old']}/?from=runbook#signatures")
    wait_until(page, "(p) => location.pathname === p", f"/references/{case['new']}/")
    wait_until(page, "() => document.querySelector('.rr-citation .rr-copy-link') !== null")
    page.click(".rr-citation .rr-copy-link")
    wait_until(page, "() => document.querySelector('.rr-citation .rr-copy-link').textContent === 'Copied'")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert f", {root}references/{case['new']}/ (last reviewed" in copied
    assert case["old"] + "/" not in copied and "?" not in copied and "#" not in copied
    context.close()


def test_a_permalink_copies_the_canonical_url_of_a_check(page, server):
    page.goto("references/oom-killed-mid-step/?utm=x#causes")
    wait_until(page, "() => document.querySelector('h3[id^=check-] a.headerlink[data-rr-copy]') !== null")
    heading = page.locator("h3[id^='check-']").first
    anchor = heading.get_attribute("id")
    heading.hover()
    heading.locator("a.headerlink").click()
    wait_until(page, "() => document.querySelector('a.headerlink[data-rr-copied]') !== null")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied == f"{server}references/oom-killed-mid-step/#{anchor}"
    assert page.evaluate("() => location.hash") == f"#{anchor}", "the permalink still jumps to its section"
    assert not page.errors


def test_every_section_cause_check_and_signature_has_a_permalink_and_no_copy_button(page):
    page.goto("references/oom-killed-mid-step/")
    wait_until(page, "() => document.querySelector('a.headerlink[data-rr-copy]') !== null")
    missing = page.evaluate("""() => [...document.querySelectorAll(
        "h2#signatures, h2#causes, h2#evidence, h3[id^='cause-'], h3[id^='check-'], details.rr-sig[id]")]
        .filter(el => ![...el.querySelectorAll('a.headerlink')].some(a => a.hash === '#' + el.id)).map(el => el.id)""")
    assert missing == []
    buttons = page.evaluate("() => [...document.querySelectorAll('article button:not(.md-code__button)')].map(b => b.textContent)")
    assert buttons == ["Copy"], "one Copy button (the citation's); sections have permalinks, not buttons"


def test_the_citation_copies_as_one_line(page, server):
    page.goto("references/oom-killed-mid-step/")
    wait_until(page, "() => document.querySelector('.rr-citation .rr-copy-link') !== null")
    page.click(".rr-citation .rr-copy-link")
    wait_until(page, "() => document.querySelector('.rr-citation .rr-copy-link').textContent === 'Copied'")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    assert copied.startswith(f"OOM Killed Mid-Step, {server}references/oom-killed-mid-step/ ") and "\n" not in copied
    assert copied.endswith(")") and "(last reviewed 20" in copied
    assert not page.errors
