"""Every page of the built site, in a real browser, requests nothing from another host."""
from urllib.parse import urlsplit

PAGES = ["", "browse/", "match/", "budget/", "codes/", "changes/", "api/", "record-format/",
         "references/gpu-lost-collective-timeout/", "references/mttf-scaling-gpu-count/", "categories/memory/"]


def test_no_page_requests_another_host(page, server):
    own = urlsplit(server).netloc
    elsewhere = []
    page.on("request", lambda r: elsewhere.append(r.url) if urlsplit(r.url).netloc not in (own, "") else None)
    for path in PAGES:
        page.goto(path)
        page.wait_for_load_state("networkidle")
    page.focus(".md-search__input")
    page.keyboard.type("NCCL watchdog")
    page.wait_for_timeout(500)
    assert elsewhere == []
    assert not page.errors


def test_our_scripts_name_no_other_host(built_site):
    for script in (built_site / "assets" / "javascripts").rglob("*.js"):
        if {"lunr", "workers", "vendor"} & set(script.parts) or script.name.startswith("bundle."):
            continue  # the theme's and lunr's own files, unchanged; the CSP blocks any load they might try
        text = script.read_text(encoding="utf-8")
        assert "http://" not in text and "https://" not in text, script.name
