"""The Match page and the header search in a real browser."""
import pytest

from relref.match.evaluation import Answer, devset_cases, evaluate
from relref.match import load_engine

from .conftest import match_in_page, open_match, paste, wait_until

XID79 = "NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus."
WATCHDOG = ("[rank3]:[E321 02:07:08.408271257 ProcessGroupNCCL.cpp:607] [Rank 3] Watchdog caught collective "
            "operation timeout: WorkNCCL(SeqNum=1580, OpType=ALLREDUCE, NumelIn=4, NumelOut=4, "
            "Timeout(ms)=600000) ran for 600060 milliseconds before timing out.")


def ranking(page):
    return [(e.get_attribute("data-reference-id"), e.get_attribute("data-confidence"))
            for e in page.query_selector_all("#rr-results .rr-result")]


def test_browser_and_command_line_give_the_same_ranking(page, built_site):
    open_match(page)
    engine = load_engine(built_site / "assets" / "match" / "index.json")  # the index the page loaded
    differ = []
    for case in devset_cases():
        mine = engine.match(case.text, context=case.context)
        theirs = match_in_page(page, case.text, case.context)
        expected = [[m["id"], m["confidence"]] for m in mine["matches"][:3]]
        if expected != [t[:2] for t in theirs["top"][:3]] or mine["confident"] != theirs["confident"]:
            differ.append(f"{case.id}: cli {expected} browser {theirs['top'][:3]}")
    assert not differ, "\n".join(differ[:20])


def test_results_show_rank_confidence_why_and_checks(page, artifacts):
    open_match(page)
    page.get_by_label("Paste an error").fill(f"{XID79}\n{WATCHDOG}")
    page.get_by_label("Context").fill("PyTorch 2.4, 64 A100, Slurm")
    page.wait_for_selector("#rr-results .rr-result")
    assert ranking(page)[0] == ("gpu-lost-collective-timeout", "strong")
    assert page.inner_text("#rr-results .rr-answer").startswith("Most likely: A worker loses its GPU")
    assert page.inner_text("#rr-results mark").startswith("NVRM: Xid")
    check = page.query_selector("#rr-results .rr-check a")
    assert "#check-" in check.get_attribute("href")
    assert "does not confirm the cause" in page.inner_text("article")
    page.screenshot(path=str(artifacts / "match-page.png"), full_page=True)


def test_a_reading_of_the_numbers_is_said_and_moves_the_answer(page, artifacts):
    """A CUDA out-of-memory message whose numbers show another process holding most of the GPU
    (the 1.x form, written as PyTorch's allocator prints it): the page says what it read, the
    leftover-process references lead and the OOM reference says why it is not the answer."""
    open_match(page)
    paste(page, "#rr-paste", "RuntimeError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 1; 23.65 GiB total "
          "capacity; 1.20 GiB already allocated; 12.50 MiB free; 1.50 GiB reserved in total by PyTorch)")
    page.wait_for_selector("#rr-results .rr-result")
    assert ranking(page)[0][0] in ("zombie-gpu-process", "training-restart-stuck")
    assert "Read from line 1: 22.1 GiB of the GPU's 23.7 GiB is neither free nor held" in page.inner_text("#rr-results")
    oom = page.query_selector('#rr-results .rr-result[data-reference-id="oom-killed-mid-step"]')
    assert oom.get_attribute("data-confidence") == "possible"
    assert "gpu-memory-held-elsewhere" in oom.inner_text()
    page.screenshot(path=str(artifacts / "match-page-reading.png"), full_page=True)


def test_a_code_in_the_paste_is_explained_with_its_page(page):
    open_match(page)
    page.get_by_label("Paste an error").fill("NVRM: Xid (PCI:0000:3b:00): 13, Graphics SM Warp Exception on (GPC 0, TPC 0)")
    page.wait_for_selector("#rr-results .rr-code")
    assert page.inner_text("#rr-results .rr-answer").startswith("Xid 13")
    item = page.query_selector('#rr-results .rr-code[data-code="xid:13"]')
    assert "RESTART_APP" in item.inner_text() and "line 1" in item.inner_text()
    href = item.query_selector("a").get_attribute("href")
    assert href.endswith("codes/xid/13/")
    page.goto(href)
    assert page.inner_text("h1").startswith("Xid 13")


def test_a_bare_shell_killed_is_explained_as_sigkill_with_one_full_stop(page):
    open_match(page)
    page.get_by_label("Paste an error").fill("Killed")
    page.wait_for_selector('#rr-results .rr-code[data-code="signal:SIGKILL"]')
    assert page.inner_text("#rr-results .rr-answer").startswith("SIGKILL")
    item = page.inner_text('#rr-results .rr-code[data-code="signal:SIGKILL"]').strip()
    assert "Recovery:" in item and item.endswith(".") and not item.endswith("..")


def test_no_confident_match_says_so_and_lists_candidates(page):
    open_match(page)
    page.get_by_label("Paste an error").fill(WATCHDOG)
    page.wait_for_selector("#rr-results .rr-result")
    assert "No confident match" in page.inner_text("#rr-results .rr-banner")
    got = ranking(page)
    assert all(conf != "strong" for _, conf in got)
    assert {"gpu-lost-collective-timeout", "network-partition"} <= {ref for ref, _ in got}
    assert "tell the candidates apart" in page.inner_text("#rr-results")


def test_matching_makes_no_request_and_keeps_text_out_of_the_url(page):
    open_match(page)
    page.wait_for_load_state("networkidle")
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    secret = "SECRET-TOKEN-12345 " + XID79
    page.get_by_label("Paste an error").fill(secret)
    page.get_by_role("button", name="Match").click()
    page.wait_for_selector("#rr-results .rr-result")
    page.wait_for_timeout(300)
    assert requests == []
    assert "SECRET" not in page.url


PAYLOADS = [
    "<script>window.__xss=1</script>", "<img src=x onerror=window.__xss=1>", "<svg onload=window.__xss=1>",
    "<svg><script>window.__xss=1</script></svg>", "javascript:window.__xss=1", "<a href=javascript:window.__xss=1>x</a>",
    "<iframe src=javascript:window.__xss=1>", "<body onload=window.__xss=1>", "<input autofocus onfocus=window.__xss=1>",
    "<details open ontoggle=window.__xss=1>", "&lt;script&gt;window.__xss=1&lt;/script&gt;", "&#60;img src=x onerror=window.__xss=1&#62;",
    "{{constructor.constructor('window.__xss=1')()}}", "${window.__xss=1}", "<%= window.__xss=1 %>", "{% raw %}{{7*7}}",
    "\"><script>window.__xss=1</script>", "'><img src=x onerror=window.__xss=1>", "<math><mtext><img src=x onerror=window.__xss=1>",
    "<style>@import 'http://evil.example/x.css';</style>", "<object data=javascript:window.__xss=1>",
    "<marquee onstart=window.__xss=1>", "`;window.__xss=1;`",
]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_pasted_markup_is_shown_as_text_and_never_runs(page, payload):
    open_match(page)
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.get_by_label("Paste an error").fill(f"{XID79} {payload}\n{payload}")
    page.get_by_label("Context").fill(payload)
    page.wait_for_selector("#rr-results .rr-result")
    page.wait_for_timeout(200)
    assert page.evaluate("window.__xss") is None and not dialogs
    marks = [m.text_content() for m in page.query_selector_all("#rr-results mark")]
    assert any(payload in m for m in marks), "the payload shows as text in the matched line"
    assert page.query_selector("#rr-results img, #rr-results script, #rr-results svg, #rr-results iframe") is None
    assert not page.errors


def test_a_10_mb_paste_gives_results_with_progress_and_no_long_task(page, artifacts):
    open_match(page)
    page.evaluate("""() => {
        window.__long = [];
        new PerformanceObserver(list => list.getEntries().forEach(e => window.__long.push(e.duration)))
            .observe({type: 'longtask', buffered: false});
        const filler = 'step 1234 loss 2.345 lr 3e-4 tokens/s 51234 throughput ok\\n';
        window.__big = filler.repeat(Math.ceil(10 * 1048576 / filler.length));
    }""")
    page.evaluate("t => { window.__big += t; }", f"{XID79}\n{WATCHDOG}\n")
    page.evaluate("() => navigator.clipboard.writeText(window.__big)")
    page.evaluate("() => { window.__long = []; window.__progress = 0;"
                  "new MutationObserver(() => { if (!document.getElementById('rr-progress').hidden) window.__progress++; })"
                  ".observe(document.getElementById('rr-progress'), {attributes: true}); }")
    page.get_by_label("Paste an error").focus()
    page.keyboard.press("Control+V")
    page.wait_for_selector("#rr-results .rr-result", timeout=60000)
    assert ranking(page)[0][0] == "gpu-lost-collective-timeout"
    assert page.input_value("#rr-paste") == "", "a large paste is kept out of the textarea"
    assert "MB" in page.inner_text("#rr-big-note")
    assert page.evaluate("window.__progress") > 0, "progress is shown while the worker reads"
    assert not page.is_hidden("#rr-preview-wrap") and "Xid" in page.inner_text("#rr-preview")
    long_tasks = page.evaluate("window.__long")
    assert all(d <= 200 for d in long_tasks), f"main-thread tasks over 200 ms: {long_tasks}"
    page.screenshot(path=str(artifacts / "match-page-10mb.png"))


def test_the_page_is_usable_by_keyboard_alone(page):
    open_match(page)
    page.keyboard.press("Tab")
    for _ in range(40):
        if page.evaluate("document.activeElement.id") == "rr-paste":
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "rr-paste"
    page.keyboard.insert_text(XID79)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "rr-context"
    page.keyboard.type("64 A100")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "rr-match-button"
    page.keyboard.press("Enter")
    page.wait_for_selector("#rr-results .rr-result")
    assert ranking(page)[0][0] == "gpu-lost-collective-timeout"


def test_phone_sized_screen_in_the_dark_palette(browser, server, artifacts):
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark", base_url=server)
    page = context.new_page()
    open_match(page)
    page.get_by_label("Paste an error").fill(f"{XID79}\n{WATCHDOG}")
    page.wait_for_selector("#rr-results .rr-result")
    assert page.evaluate("document.body.getAttribute('data-md-color-scheme')") == "slate"
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth + 1")
    page.screenshot(path=str(artifacts / "match-page-phone-dark.png"), full_page=True)
    context.close()


def test_opened_from_disk_the_page_says_to_serve_the_site(browser, built_site):
    page = browser.new_page()
    page.goto((built_site / "match" / "index.html").as_uri())
    assert page.is_visible("#rr-file-warning")
    assert "make serve" in page.inner_text("#rr-file-warning")
    page.close()


def paste_into_search(page, text):
    page.evaluate("""t => {
        const input = document.querySelector('.md-search__input');
        input.value = '';  // a new paste replaces what the box held
        input.dispatchEvent(new Event('input', {bubbles: true}));
        input.focus();
        const data = new DataTransfer();
        data.setData('text/plain', t);
        input.dispatchEvent(new ClipboardEvent('paste', {clipboardData: data, bubbles: true, cancelable: true}));
    }""", text)


PANEL_SAMPLE = 6  # every sixth positive goes through the real panel; the rest through its engine


def test_header_search_ranks_pasted_errors(page):
    """Top-3 over the development set's positives, counted as the quality figures count it
    (evaluation.evaluate): a field report or practice is right in the panel's further reading,
    a two-failure case by either failure, an unscored case not at all. Every positive, one line
    or many, is taken for a paste to match, not for keywords. A sample goes through the real panel
    (paste event, worker, rendering), which must show the ranking its engine gives; the engine's
    answers for all of them (in the page's worker, one round trip) give the figure."""
    page.goto("")
    page.wait_for_load_state("networkidle")
    cases = [c for c in devset_cases() if c.accept]
    taken = page.evaluate("texts => texts.map(t => RelrefSearch.matchable(t))", [c.text for c in cases])
    keywords = [c.id for c, ok in zip(cases, taken) if not ok]
    assert not keywords, f"positives taken for keywords: {keywords}"
    answers = page.evaluate("""async texts => {
        const out = [];
        for (const text of texts) {
            const r = (await RelrefClient.match({text, context: "", top: 5})).result;
            out.push([r.matches.map(m => m.id), r.further_reading.map(m => m.id)]);
        }
        return out;
    }""", [c.text for c in cases])
    by_text = {c.text: a for c, a in zip(cases, answers)}

    def panel_answer(case):
        paste_into_search(page, case.text)
        # Waited for in the page (one round trip per case, not one per poll).
        assert page.evaluate("""() => new Promise(resolve => {
            const done = () => document.getElementById('rr-search-match').dataset.state === 'done'
                || document.querySelector('.md-search__input').dataset.rrPaste === 'keywords';
            const deadline = performance.now() + 15000;
            const poll = () => done() ? resolve(true) : performance.now() > deadline ? resolve(false) : setTimeout(poll, 5);
            poll();
        })"""), f"no answer in the panel after 15 s: {case.id}"
        ids = lambda sel: [e.get_attribute("data-reference-id") for e in page.query_selector_all(sel)]
        shown = [ids("#rr-search-match .rr-result"), ids("#rr-search-match .rr-further-item")]
        page.evaluate("() => { const p = document.getElementById('rr-search-match'); p.textContent = ''; delete p.dataset.state;"
                      "delete document.querySelector('.md-search__input').dataset.rrPaste; }")
        return shown

    differ = [c.id for c in cases[::PANEL_SAMPLE] if panel_answer(c) != by_text[c.text]]
    assert len(cases[::PANEL_SAMPLE]) >= 25 and not differ, f"the panel shows another ranking than its engine: {differ}"
    tallies = evaluate(cases, lambda case: Answer(by_text[case.text][0], False, by_text[case.text][1]))["tallies"]
    top3, further = tallies["top3"], tallies["further_reading"]
    right, total = top3.right + further.right, top3.total + further.total
    # Pastes alone, without their context; reset on 2026-12-02 when 117 harder cases joined the set.
    assert right / total >= 0.87, f"{right}/{total} (top-3 {top3}, further reading {further})"


def test_header_search_opens_the_match_page_with_the_text_not_in_the_url(page):
    page.goto("")
    paste_into_search(page, f"{XID79}\n{WATCHDOG}")
    page.wait_for_selector("#rr-search-match .rr-open-match")
    page.click("#rr-search-match .rr-open-match")
    page.wait_for_selector("#rr-results .rr-result")
    assert "Xid" in page.input_value("#rr-paste")
    assert "Xid" not in page.url and "fallen" not in page.url


@pytest.mark.parametrize("query", ["RuntimeError: NCCL", "NCCL +watchdog -timeout", "~NCCL^2 *NCCL*",
                                  "[NCCL] (watchdog) {x}", "\"NCCL watchdog", "NCCL:watchdog", "/usr/lib/NCCL 0xdeadbeef"])
def test_header_search_is_safe_for_any_query(page, query):
    page.goto("")
    page.wait_for_load_state("networkidle")
    page.focus(".md-search__input")
    page.keyboard.type(query)
    wait_until(page, "() => document.querySelectorAll('.md-search-result__item').length > 0")
    assert not page.errors


def test_copy_as_markdown_gives_a_ticket_ready_summary(page):
    open_match(page)
    page.get_by_label("Paste an error").fill(f"{XID79}\n{WATCHDOG}")
    page.wait_for_selector("#rr-results .rr-result")
    page.get_by_role("button", name="Copy as Markdown").click()
    page.click("#rr-review .rr-review-copy")  # after the check of what is copied (redacted)
    wait_until(page, "() => document.getElementById('rr-status').textContent.includes('Copied')")
    text = page.evaluate("() => navigator.clipboard.readText()")
    assert text.startswith("**Most likely: A worker loses its GPU")
    assert "[A worker loses its GPU mid-run" in text and "/references/gpu-lost-collective-timeout/" in text
    assert "line 1: `NVRM: Xid" in text and "Checks to run next:" in text and "#check-" in text


def test_a_log_file_can_be_opened_or_dropped(page, tmp_path):
    log = tmp_path / "job.log"
    log.write_text("step 1 loss 2.0\n" * 50000 + XID79 + "\n" + WATCHDOG + "\n")
    open_match(page)
    page.set_input_files("#rr-file", str(log))
    page.wait_for_selector("#rr-results .rr-result")
    assert ranking(page)[0] == ("gpu-lost-collective-timeout", "strong")
    assert "job.log" in page.inner_text("#rr-big-note") and "50001" in page.inner_text("#rr-preview")
    page.click("#rr-clear")
    page.evaluate("""([a, b]) => {
        const file = new File([a + '\\n' + b + '\\n'], 'dropped.log', {type: 'text/plain'});
        const data = new DataTransfer();
        data.items.add(file);
        document.getElementById('rr-paste').dispatchEvent(new DragEvent('drop', {dataTransfer: data, bubbles: true, cancelable: true}));
    }""", [XID79, WATCHDOG])
    wait_until(page, "() => document.getElementById('rr-big-note').textContent.includes('dropped.log')")
    page.wait_for_selector("#rr-results .rr-result")
    assert ranking(page)[0][0] == "gpu-lost-collective-timeout"
