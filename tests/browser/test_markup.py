"""Hostile record text in a real browser: no page redirects, opens a dialog, trips the Content
Security Policy or gains an element or attribute, and verbatim output reads as written."""
from urllib.parse import urlsplit

import pytest

from payloads import ALIASED, LITERAL, REJECTED

SITE_NAME = " - Reliability Error References"
# A record's inline Markdown, and the break points page scripts put in long inline code (a <wbr>
# has no attributes and no text).
INLINE = {"em|", "strong|", "code|", "span|", "a|href", "a|href,title", "wbr|"}
SITE_WIDE = ["browse/", "changes/", "categories/operations/", "categories/", "budget/", "codes/"]
# Records CSP violations and every element's tag and attribute names, before and after scripts ran.
# One attribute is the theme's, not the record's: a navigation link whose text overflows gets its
# own text as a tooltip (title = the .md-ellipsis span's innerText), which a payload's long
# unbreakable token triggers in the table of contents; it is left out only when it is exactly that.
WATCH = "window.__violations = []; document.addEventListener('securitypolicyviolation', e => " \
        "window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));"
SIGNATURES = """() => Array.from(new Set(Array.from(document.querySelectorAll('*')).map(e => {
    const ellipsis = e.matches('a.md-nav__link') && e.querySelector('.md-ellipsis');
    const tooltip = ellipsis && e.getAttribute('title') === ellipsis.innerText;
    return e.localName + '|' + Array.from(e.attributes).map(a => a.name)
        .filter(name => !(tooltip && name === 'title')).sort().join(',');
})))"""


def shown(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture
def watched(browser, payload_server):
    context = browser.new_context(base_url=payload_server)
    context.add_init_script(WATCH)
    page = context.new_page()
    page.dialogs, page.navigations, page.errors, page.elsewhere = [], [], [], []
    own = urlsplit(payload_server).netloc
    page.on("request", lambda r: page.elsewhere.append(r.url) if urlsplit(r.url).netloc != own else None)
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    page.on("framenavigated", lambda f: page.navigations.append(f.url) if f == page.main_frame else None)
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    yield page
    context.close()


def visit(page, path: str) -> dict:
    """Open a page, give a refresh or handler the time to fire, and say what happened."""
    from playwright.sync_api import Error
    before = page.url
    for seen in (page.navigations, page.dialogs, page.elsewhere, page.errors):
        seen.clear()
    try:
        page.goto(path, wait_until="load")
        # The page left behind may report a same-document navigation of its own (the theme's
        # history update) after the lists were cleared: that is not this page going anywhere.
        while page.navigations and page.navigations[0] == before != page.url:
            page.navigations.pop(0)
        page.wait_for_timeout(50)
        state = page.evaluate("() => ({violations: window.__violations, title: document.title, signatures: ("
                              + SIGNATURES + ")()})")
    except Error as exc:  # the page went elsewhere while being read
        state = {"violations": [], "title": None, "signatures": [], "navigations": [f"away ({exc.message[:60]})"]}
    return {"url": page.url, "navigations": list(page.navigations) + state.get("navigations", []),
            "dialogs": list(page.dialogs), "elsewhere": list(page.elsewhere), "violations": state["violations"],
            "signatures": set(state["signatures"]), "title": state["title"], "errors": list(page.errors)}


def test_no_payload_redirects_opens_a_dialog_or_injects_markup(watched, payload_site, payload_server):
    _, written = payload_site
    baseline = visit(watched, "references/payload-00/")
    assert not baseline["violations"] and not baseline["dialogs"], baseline
    allowed = baseline["signatures"] | INLINE
    problems = []
    # The pages a real site can have: payloads that validation rejects are held to the same rules
    # in the built HTML (tests/test_markup.py), and appear here in the site-wide pages.
    publishable = [rid for rid, (payload, _) in written.items() if payload not in REJECTED]
    assert len(publishable) >= 31
    for path in [f"references/{rid}/" for rid in publishable] + SITE_WIDE:
        seen = visit(watched, path)
        expected_url = payload_server + path
        if seen["url"] != expected_url or any(u != expected_url for u in seen["navigations"]):
            problems.append(f"{path}: navigated to {seen['navigations']}")
        if seen["dialogs"] or seen["violations"] or seen["errors"] or seen["elsewhere"]:
            problems.append(f"{path}: dialogs {seen['dialogs']} CSP {seen['violations']} errors {seen['errors']} "
                            f"requests elsewhere {seen['elsewhere']}")
        if path in SITE_WIDE:
            continue  # their markup is held to the real site's same page in tests/test_markup.py
        if extra := seen["signatures"] - allowed:
            problems.append(f"{path}: injected {sorted(extra)}")
        if seen["title"] != shown(written[path.split("/")[1]][0]) + SITE_NAME:
            problems.append(f"{path}: title {seen['title']!r}")
    assert not problems, "\n".join(problems)


def test_verbatim_output_reads_as_written_in_the_browser(watched, payload_site):
    _, written = payload_site
    rid = next(r for r, (p, _) in written.items() if p == LITERAL)
    visit(watched, f"references/{rid}/")
    text = watched.inner_text("article")
    description = watched.get_attribute('meta[name="description"]', "content")
    for needle in ("<defunct>", "name=<unknown>", "mount.<type>", "(<Response [500]>)", "<class 'int'>",
                   "10.216.210.236<54862>"):
        assert needle in watched.title() and needle in description and needle in text, needle
    assert watched.inner_text("article h1").startswith(LITERAL)


def test_the_alias_page_goes_only_to_its_reference(watched, payload_server):
    rid = f"payload-{ALIASED:02d}"
    watched.goto(f"references/{rid}-old/#causes", wait_until="load")
    watched.wait_for_url(f"**/references/{rid}/#causes")
    watched.wait_for_timeout(150)
    assert all(urlsplit(u).netloc == urlsplit(payload_server).netloc for u in watched.navigations), watched.navigations
    assert watched.url == f"{payload_server}references/{rid}/#causes"
    assert not watched.dialogs and not watched.evaluate("() => window.__violations")
