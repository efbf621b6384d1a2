"""The site as an on-call engineer uses it (issue 19 items 1-3, 6-9, 15; issue 16 items 9-10), in
real headless Chromium: pastes through real paste events, the answer first, nothing pasted kept
outside the tab's memory."""
import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml

from relref import paths
from relref.match import load_engine
from relref.match.evaluation import devset_cases
from relref.match.redact import redact

from .conftest import ARGS, CHROMIUM, open_match, paste, stored, wait_until

XID79 = "NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus."
WATCHDOG = ("[rank3]:[E321 02:07:08.408271257 ProcessGroupNCCL.cpp:607] [Rank 3] Watchdog caught collective "
            "operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, NumelIn=4, NumelOut=4, "
            "Timeout(ms)=600000) ran for 600060 milliseconds before timing out.")
MARKER = "ZQXJ7731"   # in every paste below: it must never reach storage, a URL or an issue link
DESKTOP, PHONE = {"width": 1366, "height": 900}, {"width": 390, "height": 844}


def panel_done(page):
    wait_until(page, "() => { const p = document.getElementById('rr-search-match'); return p && !p.hidden && p.dataset.state === 'done'; }")


def results_shown(page):
    wait_until(page, "() => !!document.querySelector('#rr-results .rr-answer')")


def no_pasted_text_stored(page):
    held = stored(page)
    assert MARKER not in held and "fallen off" not in held and "Watchdog" not in held, held


# Item 1 --------------------------------------------------------------------------------------

CONTRAST_JS = r"""(id) => {
    const rgba = c => { const n = c.match(/[\d.]+/g).map(Number); return [n[0], n[1], n[2], n.length > 3 ? n[3] : 1]; };
    const over = (top, bottom) => [0, 1, 2].map(i => top[i] * top[3] + bottom[i] * (1 - top[3])).concat([1]);
    const background = el => {
        const layers = [];
        for (let e = el; e; e = e.parentElement) {
            const c = rgba(getComputedStyle(e).backgroundColor);
            if (c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
        }
        return layers.reverse().reduce((below, layer) => over(layer, below), [255, 255, 255, 1]);
    };
    const lum = c => c.slice(0, 3).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); })
        .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
    const out = [], walk = document.createTreeWalker(document.getElementById(id), NodeFilter.SHOW_TEXT);
    while (walk.nextNode()) {
        const node = walk.currentNode, el = node.parentElement;
        if (!node.textContent.trim() || !el.getClientRects().length) continue;
        const bg = background(el), fg = over(rgba(getComputedStyle(el).color), bg);
        const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
        out.push({text: node.textContent.trim().slice(0, 50), ratio: (a + 0.05) / (b + 0.05)});
    }
    return out;
}"""


def test_header_search_panel_text_passes_wcag_aa_in_both_palettes(browser, server, artifacts):
    low = []
    for scheme in ("light", "dark"):
        # The palette follows the system's preference when the page loads.
        context = browser.new_context(viewport=DESKTOP, base_url=server, color_scheme=scheme,
                                      permissions=["clipboard-read", "clipboard-write"])
        page = context.new_page()
        page.goto("")
        paste(page, ".md-search__input", f"{XID79}\n{WATCHDOG}")
        panel_done(page)
        assert page.evaluate("document.body.dataset.mdColorScheme") == ("slate" if scheme == "dark" else "default")
        for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
            page.set_viewport_size(viewport)
            page.wait_for_timeout(100)
            assert page.is_visible("#rr-search-match .rr-search-head")
            texts = page.evaluate(CONTRAST_JS, "rr-search-match")
            assert len(texts) >= 4, texts
            low += [dict(t, where=f"{scheme} {name}") for t in texts if t["ratio"] < 4.5]
            page.screenshot(path=str(artifacts / f"search-panel-{scheme}-{name}.png"))
        context.close()
    assert not low, f"text below 4.5:1: {low}"


# Item 2 --------------------------------------------------------------------------------------

SPY_JS = """() => {
    const spy = window.__spy = {exec: [], set: [], range: [], status: [], resultAt: null, long: []};
    const exec = document.execCommand.bind(document);
    document.execCommand = (cmd, ui, value) => { spy.exec.push(String(value || '').length); return exec(cmd, ui, value); };
    const box = document.getElementById('rr-paste');
    const value = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value');
    Object.defineProperty(box, 'value', {configurable: true, get() { return value.get.call(this); },
                                         set(v) { spy.set.push(String(v).length); value.set.call(this, v); }});
    const range = box.setRangeText.bind(box);
    box.setRangeText = (text, ...rest) => { spy.range.push(text.length); return range(text, ...rest); };
    const status = document.getElementById('rr-status');
    new MutationObserver(() => spy.status.push([performance.now(), status.textContent]))
        .observe(status, {childList: true, characterData: true, subtree: true});
    new MutationObserver(() => { if (spy.resultAt === null && document.querySelector('#rr-results .rr-answer')) spy.resultAt = performance.now(); })
        .observe(document.getElementById('rr-results'), {childList: true, subtree: true});
    new PerformanceObserver(l => l.getEntries().forEach(e => spy.long.push(e.duration))).observe({type: 'longtask'});
}"""


def dmesg(lines: int) -> str:
    body = [f"[{i * 0.013:12.6f}] mlx5_core 0000:{i % 256:02x}:00.0: mlx5e_set_link_ksettings: speed 400000 ok, "
            f"port {i % 8} {MARKER}" for i in range(lines)]
    body[lines * 3 // 4] = f"[{lines * 0.013:12.6f}] {XID79}"
    return "\n".join(body) + "\n"


def test_a_paste_over_64_kb_never_enters_the_textarea_and_matching_shows_first(page, artifacts):
    open_match(page)
    page.evaluate(SPY_JS)
    # A short paste goes into the box through execCommand, so Ctrl+Z undoes it.
    paste(page, "#rr-paste", f"{XID79}\n{WATCHDOG}\n")
    results_shown(page)
    assert page.evaluate("window.__spy.exec") == [len(XID79) + len(WATCHDOG) + 2]
    page.keyboard.press("Control+Z")
    assert page.input_value("#rr-paste") == ""
    # 400 lines (about 40 KB): into the box, but not through execCommand (quadratic in lines).
    page.click("#rr-clear")
    mid = dmesg(400)
    paste(page, "#rr-paste", mid)
    wait_until(page, "n => document.getElementById('rr-paste').value.length === n", len(mid))
    assert page.evaluate("window.__spy.exec.filter(n => n > 8192)") == []
    # 2,000 lines (about 200 KB): never in the box, never through execCommand.
    page.click("#rr-clear")
    page.evaluate("() => { window.__spy.status = []; window.__spy.resultAt = null; window.__spy.long = []; }")
    big = dmesg(2000)
    assert len(big) > 64 * 1024 * 2
    paste(page, "#rr-paste", big)
    results_shown(page)
    spy = page.evaluate("window.__spy")
    assert max(spy["exec"] + spy["set"] + spy["range"]) <= 64 * 1024, "a large paste entered the textarea"
    assert page.input_value("#rr-paste") == "" and "KB" in page.inner_text("#rr-big-note")
    matching = [t for t, text in spy["status"] if text.startswith("Matching…")]
    assert matching and matching[0] < spy["resultAt"], f"'Matching…' before the result: {spy['status'][:3]}"
    assert max(spy["long"], default=0) < 1000, f"a main-thread task of {max(spy['long'])} ms"
    assert page.get_attribute("#rr-results .rr-result", "data-reference-id") == "gpu-lost-collective-timeout"
    no_pasted_text_stored(page)
    page.screenshot(path=str(artifacts / "match-page-200kb-paste.png"))


# Item 3 --------------------------------------------------------------------------------------

def test_back_keeps_the_paste_clear_drops_it_and_a_new_tab_starts_empty(home_page, artifacts):
    page = home_page
    open_match(page)
    text, context = f"{XID79} {MARKER}\n{WATCHDOG}", "PyTorch 2.4, 64 A100, Slurm"
    page.fill("#rr-paste", text)
    page.fill("#rr-context", context)
    page.wait_for_selector("#rr-results .rr-result")
    page.evaluate("window.__sameDocument = 1")
    page.click("#rr-results .rr-result h3 a")
    # The theme pushes the new address on the click, before the page arrives: until the Match
    # page's own content is gone, Back would find the old page, which is then swapped for a fresh one.
    wait_until(page, "() => location.pathname.startsWith('/references/') && !document.getElementById('rr-match')")
    assert page.evaluate("window.__sameDocument") == 1, "instant navigation keeps the scripts"
    page.go_back(wait_until="commit")
    # The results can be on the page before the two fields are restored: wait for all three.
    wait_until(page, "() => location.pathname === '/match/' && !!document.querySelector('#rr-results .rr-result')"
                     " && document.getElementById('rr-paste').value !== '' && document.getElementById('rr-context').value !== ''")
    assert page.input_value("#rr-paste") == text and page.input_value("#rr-context") == context
    assert page.get_attribute("#rr-results .rr-result", "data-reference-id") == "gpu-lost-collective-timeout"
    assert "in this tab's memory" in page.inner_text("#rr-status")
    no_pasted_text_stored(page)
    assert MARKER not in page.url
    page.screenshot(path=str(artifacts / "match-page-after-back.png"))
    # Clear drops it: out and back again finds an empty page.
    page.click("#rr-clear")
    page.evaluate("() => [...document.querySelectorAll('nav a')].find(a => a.textContent.trim() === 'Browse').click()")
    wait_until(page, "() => location.pathname === '/browse/' && !document.getElementById('rr-match')")
    page.go_back(wait_until="commit")
    wait_until(page, "() => location.pathname === '/match/' && !!document.getElementById('rr-paste')")
    page.wait_for_timeout(300)
    assert page.input_value("#rr-paste") == "" and page.query_selector("#rr-results .rr-result") is None
    # A new tab starts empty, and says why.
    other = page.context.new_page()
    other.goto("match/")
    assert other.input_value("#rr-paste") == ""
    assert "a new tab or a reload starts empty" in other.inner_text("#rr-memory-note")
    other.close()


def test_after_a_full_load_back_restores_the_page_from_the_back_forward_cache(browser, server):
    # Playwright turns the back/forward cache off by default; a person's browser has it on.
    own = browser.browser_type.launch(executable_path=CHROMIUM, args=ARGS, ignore_default_args=["--disable-back-forward-cache"])
    try:
        page = own.new_page(base_url=server)
        open_match(page)
        page.fill("#rr-paste", f"{XID79} {MARKER}")
        page.wait_for_selector("#rr-results .rr-result")
        page.evaluate("window.__sameDocument = 1")
        page.goto("references/gpu-lost-collective-timeout/")
        page.go_back(wait_until="commit")
        wait_until(page, "() => location.pathname === '/match/' && !!document.getElementById('rr-paste')")
        assert page.evaluate("window.__sameDocument") == 1, page.evaluate(
            "JSON.stringify(performance.getEntriesByType('navigation')[0].notRestoredReasons)")
        assert MARKER in page.input_value("#rr-paste") and page.query_selector("#rr-results .rr-result")
        no_pasted_text_stored(page)
    finally:
        own.close()


# Item 6, issue 16 items 9 and 10 --------------------------------------------------------------

def test_enter_after_a_pasted_error_opens_the_top_match_or_the_match_page(home_page):
    page = home_page
    page.goto("")
    paste(page, ".md-search__input", f"{XID79}\n{WATCHDOG}\n")
    panel_done(page)
    assert "Most likely" in page.inner_text("#rr-search-match .rr-search-head")
    page.keyboard.press("Enter")
    wait_until(page, "() => location.pathname === '/references/gpu-lost-collective-timeout/'")
    # Not confident: Enter opens the Match page, holding the text (handed over in memory). Enter
    # pressed at once, while the paste is still being read, waits for it: the panel still holds
    # the confident answer to the paste before, which must not be what Enter opens.
    paste(page, ".md-search__input", f"{WATCHDOG} {MARKER}\n")
    page.keyboard.press("Enter")
    wait_until(page, "() => location.pathname === '/match/' && !!document.querySelector('#rr-results .rr-result')")
    assert MARKER in page.input_value("#rr-paste")
    no_pasted_text_stored(page)
    assert MARKER not in page.url


def test_a_one_line_error_under_160_characters_is_matched_and_searched(page):
    page.goto("")
    line = f"RuntimeError: Triton Error [CUDA]: an illegal memory access was encountered {MARKER}"
    assert len(line) < 160
    paste(page, ".md-search__input", line)
    panel_done(page)
    assert page.query_selector("#rr-search-match .rr-result") is not None
    initial = "Type to start searching"
    wait_until(page, "(t) => !document.querySelector('.md-search-result__meta').textContent.includes(t)", initial)
    # A keyword paste stays a keyword search.
    page.fill(".md-search__input", "")
    paste(page, ".md-search__input", "NCCL watchdog")
    wait_until(page, "() => document.querySelector('.md-search__input').dataset.rrPaste === 'keywords'")
    assert page.is_hidden("#rr-search-match")
    no_pasted_text_stored(page)


def test_the_header_box_gets_only_a_few_kb_of_a_large_paste_and_the_worker_all_of_it(page):
    page.goto("")
    page.evaluate("""() => {
        window.__replaced = 0;
        const replace = String.prototype.replace;
        String.prototype.replace = function (pattern, by) {
            if (pattern instanceof RegExp && pattern.source === '\\\\s+') window.__replaced = Math.max(window.__replaced, this.length);
            return replace.apply(this, arguments);
        };
    }""")
    filler = f"step 1234 loss 2.345 lr 3e-4 tokens/s 51234 {MARKER}\n"
    big = filler * (5 * 1048576 // len(filler)) + XID79 + "\n"
    paste(page, ".md-search__input", big)
    panel_done(page)
    assert page.evaluate("window.__replaced") <= 4096, "replace(/\\s+/) ran over more than the head of the paste"
    assert len(page.input_value(".md-search__input")) <= 320
    assert page.get_attribute("#rr-search-match .rr-result", "data-reference-id") == "gpu-lost-collective-timeout", \
        "the worker matched the whole paste (the Xid line is its last)"
    no_pasted_text_stored(page)


# Item 7 --------------------------------------------------------------------------------------

BREAKS_JS = r"""(selector) => {
    const out = [];
    document.querySelectorAll(selector).forEach(root => {
        const walk = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        let prev = null;
        while (walk.nextNode()) {
            const node = walk.currentNode;
            for (let i = 0; i < node.length; i++) {
                const range = document.createRange();
                range.setStart(node, i); range.setEnd(node, i + 1);
                const rect = range.getClientRects()[0];
                if (!rect) continue;
                if (prev && rect.top > prev.top + 2) out.push(prev.ch + node.data[i]);
                prev = {top: rect.top, ch: node.data[i]};
            }
        }
    });
    return out;
}"""
# A break is between words when the character before it is a space or punctuation (the
# underscore of CUDA_ERROR_LAUNCH_FAILED included), or the one after it opens a bracket.
BETWEEN_WORDS = re.compile(r"^(?:[^A-Za-z0-9].|.[\s(\[{<])$")


def test_matched_lines_and_inline_code_break_between_words_on_a_phone(browser, server, artifacts):
    context = browser.new_context(viewport=PHONE, base_url=server)
    page = context.new_page()
    open_match(page)
    page.fill("#rr-paste", WATCHDOG)
    page.wait_for_selector("#rr-results .rr-why .rr-line")
    breaks = page.evaluate(BREAKS_JS, "#rr-results .rr-line")
    assert len(breaks) >= 3, "the matched line wraps on a phone"
    assert all(BETWEEN_WORDS.match(b) for b in breaks), f"breaks inside a word: {[b for b in breaks if not BETWEEN_WORDS.match(b)]}"
    page.screenshot(path=str(artifacts / "match-page-phone-line-breaks.png"))
    page.goto("references/gpu-lost-collective-timeout/")
    wait_until(page, "() => !!document.querySelector('.md-typeset code[data-rr-breaks]')")
    breaks = page.evaluate(BREAKS_JS, ".md-typeset :not(pre) > code")
    assert breaks, "some inline code wraps on a phone"
    assert all(BETWEEN_WORDS.match(b) for b in breaks), f"inline code broken inside a word: {[b for b in breaks if not BETWEEN_WORDS.match(b)]}"
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth + 1")
    context.close()


# Item 8 --------------------------------------------------------------------------------------

SECTIONS_JS = """() => [...document.getElementById('rr-results').children].map(e =>
    e.tagName === 'H2' ? 'h2:' + e.textContent : e.tagName === 'OL' || e.tagName === 'UL' ? e.tagName.toLowerCase() + '.' + e.className :
    e.className.split(' ')[0])"""


def test_results_lead_with_the_answer_then_candidates_checks_and_further_reading(page, built_site, artifacts):
    engine = load_engine(built_site / "assets" / "match" / "index.json")
    text, context = f"{XID79}\n{WATCHDOG}", "PyTorch 2.4, 64 A100, Slurm"
    expected = engine.match(text, context=context)
    assert expected["further_reading"], "this paste has further reading"
    page.set_viewport_size(DESKTOP)
    open_match(page)
    page.fill("#rr-paste", text)
    page.fill("#rr-context", context)
    results_shown(page)
    wait_until(page, "(n) => document.querySelectorAll('#rr-results .rr-further-item').length === n", len(expected["further_reading"]))
    sections = page.evaluate(SECTIONS_JS)
    assert sections[0] == "rr-answer-block" and page.inner_text("#rr-results .rr-answer") == expected["answer"]
    # The codes the paste prints belong to the answer: right under it, before the candidates.
    if "h2:Codes in this paste" in sections:
        assert sections.index("h2:Codes in this paste") == 1, sections
    heads = [s for s in sections if s.startswith("h2:") and s != "h2:Codes in this paste"]
    assert heads == ["h2:Candidates", "h2:Checks to run next", "h2:Further reading"], sections
    for i, s in enumerate(sections):  # every list has its heading: no two headless numbered lists
        if s.startswith(("ol.", "ul.")):
            assert any(x.startswith("h2:") for x in sections[max(0, i - 2):i]), sections
    candidates = [e.get_attribute("data-reference-id") for e in page.query_selector_all("#rr-results .rr-results-list > .rr-result")]
    further = [e.get_attribute("data-reference-id") for e in page.query_selector_all("#rr-results .rr-further-item")]
    assert candidates == [m["id"] for m in expected["matches"]] and not set(candidates) & set(further)
    top = page.query_selector("#rr-results .rr-result")
    assert "Cause:" in top.inner_text() and expected["matches"][0]["causes"][0]["title"] in top.inner_text()
    on_desktop_and_phone(page, artifacts, "match-page-confident")
    # A context that conflicts with the top match is shown beside it.
    case = next(c for c in devset_cases() if c.id == "fw-ds-grpo-reward-model-padding-idx")
    expected = engine.match(case.text, context=case.context)
    conflict = next(w["text"] for w in expected["matches"][0]["why"] if w["kind"] == "context" and not w["fit"])
    page.fill("#rr-paste", case.text)
    page.fill("#rr-context", case.context)
    wait_until(page, "(id) => { const r = document.querySelector('#rr-results .rr-result'); return r && r.dataset.referenceId === id; }",
               expected["matches"][0]["id"])
    assert conflict in page.inner_text("#rr-results .rr-result .rr-conflicts")
    assert page.inner_text("#rr-results .rr-answer") == expected["answer"]
    assert not expected["confident"] and page.inner_text("#rr-results .rr-answer").startswith("No confident match")
    on_desktop_and_phone(page, artifacts, "match-page-no-confidence")


def on_desktop_and_phone(page, artifacts, name):
    """Screenshots of the whole page at both sizes; on the phone nothing is wider than the screen."""
    page.screenshot(path=str(artifacts / f"{name}-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.wait_for_timeout(100)
    assert page.evaluate("document.scrollingElement.scrollWidth <= innerWidth + 1"), f"{name}: wider than a phone"
    page.screenshot(path=str(artifacts / f"{name}-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)


def test_match_results_text_passes_wcag_aa_in_both_palettes(browser, server):
    """Every text of the Match page's form and results (answer, candidates, causes, a context that
    conflicts, checks, buttons) reads at 4.5:1 or better in both palettes."""
    case = next(c for c in devset_cases() if c.id == "fw-ds-grpo-reward-model-padding-idx")
    low = []
    for scheme in ("light", "dark"):
        context = browser.new_context(viewport=DESKTOP, base_url=server, color_scheme=scheme)
        page = context.new_page()
        for text, ctx in ((case.text, case.context), (f"{XID79}\n{WATCHDOG}", "PyTorch 2.4, 64 A100, Slurm")):
            open_match(page)
            page.fill("#rr-paste", text)
            page.fill("#rr-context", ctx)
            wait_until(page, "t => { const a = document.querySelector('#rr-results .rr-answer');"
                             "return !!a && document.getElementById('rr-paste').value === t; }", text)
            page.wait_for_timeout(200)
            if text == case.text:
                assert page.query_selector("#rr-results .rr-conflict"), "this context does not support a candidate"
            texts = page.evaluate(CONTRAST_JS, "rr-match")  # the form and its buttons too
            assert len(texts) >= 10, texts
            low += [dict(t, where=scheme) for t in texts if t["ratio"] < 4.5]
        context.close()
    assert not low, f"text below 4.5:1: { {(t['text'], t['where'], round(t['ratio'], 2)) for t in low} }"


# Item 9 --------------------------------------------------------------------------------------

def test_the_home_page_leads_to_the_match_page_in_one_tap_on_a_phone(browser, server, artifacts):
    for name, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        context = browser.new_context(viewport=viewport, base_url=server)
        page = context.new_page()
        page.goto("")
        link = page.query_selector(".rr-home-match-link")
        box = link.bounding_box()
        assert link.is_visible() and box["y"] + box["height"] <= viewport["height"], "the Match link is on the first screen"
        first = page.evaluate("() => document.querySelector('.md-typeset h1').nextElementSibling.className")
        assert "rr-home-match" in first
        assert "stays there" in page.inner_text(".rr-home-match")
        page.screenshot(path=str(artifacts / f"home-{name}.png"))
        if name == "phone":
            link.click()
            page.wait_for_selector("#rr-paste")
            assert urlsplit(page.url).path == "/match/"
        context.close()


# Item 15 -------------------------------------------------------------------------------------

SECRET_PASTE = (
    "gpu-node-017:2312:2312 [0] NCCL WARN NET/IB : Got completion from peer 10.216.210.236<54862> with status=12 "
    "opcode=129 len=0 vendor err 129 (Recv)\n"
    f"[  812.334455] {XID79} {MARKER}\n"
    '  File "/home/alice/venv/lib/python3.11/site-packages/torch/distributed/c10d.py", line 3\n'
    "HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyzABCDEFGH AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE mail oncall@example.org\n")
SECRETS = ["gpu-node-017", "10.216.210.236", "alice", "hf_abcdefghij", "AKIAIOSFODNN7EXAMPLE", "oncall@example.org"]


def test_wrong_match_opens_an_issue_with_ids_verdict_confidence_and_versions_only(page, built_site):
    open_match(page)
    assert page.get_attribute("#rr-search-match", "data-repo-url") == ""
    page.fill("#rr-paste", SECRET_PASTE)
    results_shown(page)
    assert page.query_selector(".rr-wrong-match") is None, "no repo_url: no link"
    page.evaluate("document.getElementById('rr-search-match').dataset.repoUrl = 'https://github.com/example/relref/'")
    page.click("#rr-match-button")
    page.wait_for_selector("#rr-results .rr-wrong-match")
    href = page.get_attribute("#rr-results .rr-wrong-match", "href")
    url = urlsplit(href)
    assert (url.scheme, url.netloc, url.path) == ("https", "github.com", "/example/relref/issues/new")
    query = parse_qs(url.query)
    assert set(query) == {"title", "body"}
    body = query["body"][0]
    expected = load_engine(built_site / "assets" / "match" / "index.json").match(SECRET_PASTE)
    for m in expected["matches"]:
        assert f"{m['id']} ({m['confidence']})" in body
    assert f"Verdict: {expected['verdict']}" in body
    assert expected["engine_version"] in body and expected["index_version"] in body
    for piece in [MARKER, "NVRM", "Xid (PCI", "fallen off", *SECRETS]:
        assert piece not in href and piece not in body, piece


def test_copy_case_copies_only_after_a_visible_undoable_redaction(page, artifacts):
    schema = json.loads((paths.ROOT / "schema" / "case.schema.json").read_text(encoding="utf-8"))
    open_match(page)
    page.fill("#rr-paste", SECRET_PASTE)
    page.fill("#rr-context", "PyTorch 2.4 on gpu-node-017")
    results_shown(page)
    page.evaluate("() => navigator.clipboard.writeText('untouched')")
    page.click("#rr-copy-case")
    page.wait_for_selector("#rr-review:not([hidden]) .rr-review-text")
    shown = page.inner_text("#rr-review .rr-review-text")
    assert page.evaluate("() => navigator.clipboard.readText()") == "untouched", "nothing is copied before Copy"
    assert not any(s in shown for s in SECRETS), shown
    assert page.query_selector_all("#rr-review mark.rr-redacted"), "each redaction is highlighted"
    page.uncheck("#rr-review input[data-kind=ip]")  # undo one kind
    assert "10.216.210.236" in page.inner_text("#rr-review .rr-review-text")
    page.screenshot(path=str(artifacts / "match-page-copy-case.png"), full_page=True)
    page.check("#rr-review input[data-kind=ip]")
    page.click("#rr-review .rr-review-copy")
    wait_until(page, "() => document.getElementById('rr-status').textContent.includes('Copied the case')")
    copied = page.evaluate("() => navigator.clipboard.readText()")
    entries = yaml.safe_load(copied)
    assert isinstance(entries, list) and len(entries) == 1
    entry = entries[0]
    assert entry["text"] == redact(SECRET_PASTE)[0], "the page redacts as redact.py does"
    assert entry["accept"] == [page.get_attribute("#rr-results .rr-result", "data-reference-id")]
    assert "gpu-node-017" not in entry["context"]
    import jsonschema
    jsonschema.validate([dict(entry, source="https://github.com/example/relref/issues/1")], schema)
    assert not any(s in copied for s in SECRETS)
    # Copy as Markdown goes through the same check.
    page.click("#rr-copy-markdown")
    page.wait_for_selector("#rr-review:not([hidden]) .rr-review-text")
    page.click("#rr-review .rr-review-copy")
    wait_until(page, "() => document.getElementById('rr-status').textContent.includes('as Markdown')")
    markdown = page.evaluate("() => navigator.clipboard.readText()")
    assert markdown.startswith("**" + page.inner_text("#rr-results .rr-answer")) and "<host-1>" in markdown
    assert not any(s in markdown for s in SECRETS)
    no_pasted_text_stored(page)


def test_the_browser_redacts_every_shared_vector_as_python_does(page):
    vectors = json.loads((paths.ROOT / "tests" / "data" / "redact-vectors.json").read_text(encoding="utf-8"))
    open_match(page)
    wait_until(page, "() => !!window.RelrefRedact")
    got = page.evaluate("""v => ({
        cases: v.cases.map(c => RelrefRedact.redact(c.text, c.skip)),
        sequences: v.sequences.map(s => { const r = new RelrefRedact.Redactor(s.skip); return s.texts.map(t => r.redact(t)); }),
    })""", vectors)
    for case, mine in zip(vectors["cases"], got["cases"]):
        assert (mine["text"], mine["found"]) == (case["redacted"], case["found"]), case["name"]
    assert got["sequences"] == [s["redacted"] for s in vectors["sequences"]]
