"""The browse page's filters narrow the list in the browser."""
from relref import paths
from relref.records.load import load_records

from .conftest import wait_until


def visible_ids(page):
    return [a.get_attribute("href").split("/")[-2] for a in
            page.query_selector_all(".rr-browse-item:not([hidden]) > p > a, .rr-browse-item:not([hidden]) a[href*='references/']")]


def wait_for_rows(page, ids: set):
    """Until the count and the visible rows both show `ids`: after a hashchange the theme may also
    swap the page in, and the page that stays is the one to read."""
    wait_until(page, """([n, ids]) => document.getElementById('rr-count').textContent === n
        && [...document.querySelectorAll(".rr-browse-item:not([hidden]) a[href*='references/']")]
            .map(a => a.getAttribute('href').split('/').slice(-2)[0]).sort().join() === ids""",
               [f"{len(ids)} shown", ",".join(sorted(ids))])


def first_fragment_edit(page, fragment: str):
    """Edits the address's fragment on a page just opened, as a person edits the address bar.
    mkdocs-material's instant navigation answers the first such edit by fetching the page and
    swapping it in (document$ emits again), and that page's unfiltered rows can show for a moment:
    this returns once it has come. Later edits swap nothing (the hashchange alone moves the filters)."""
    page.evaluate("() => { window.rrPages = 0; document$.subscribe(() => { window.rrPages += 1; }); }")
    page.evaluate("f => { location.hash = f; }", fragment)
    wait_until(page, "() => window.rrPages >= 2")


def test_filters_narrow_the_list_and_combine(page):
    records = load_records(paths.RECORDS)
    page.goto("browse/")
    assert page.inner_text("#rr-count") == f"{len(records)} shown"
    page.select_option("select[data-filter=category]", "memory")
    memory = {r.id for r in records if r.data["category"] == "memory"}
    assert set(visible_ids(page)) == memory
    assert page.inner_text("#rr-count") == f"{len(memory)} shown"
    page.select_option("select[data-filter=kind]", "error")
    both = {r.id for r in records if r.data["category"] == "memory" and r.data["kind"] == "error"}
    assert set(visible_ids(page)) == both
    page.select_option("select[data-filter=category]", "")
    page.select_option("select[data-filter=kind]", "")
    page.select_option("select[data-filter=hardware]", "gb200")
    gb200 = {r.id for r in records if "gb200" in r.data["applies_to"].get("hardware", [])}
    assert set(visible_ids(page)) == gb200 and gb200
    page.fill("input[data-filter=words]", "no such words anywhere")
    assert visible_ids(page) == [] and page.inner_text("#rr-count") == "0 shown"


def test_the_list_is_a_compact_table_and_filters_live_in_the_fragment(browser, server, artifacts):
    """Issue 19 item 11: one row per reference (title, kind, category, one line), and a filtered
    view that can be linked."""
    records = load_records(paths.RECORDS)
    context = browser.new_context(viewport={"width": 1366, "height": 900}, base_url=server)
    page = context.new_page()
    page.goto("browse/")
    heads = [th.inner_text() for th in page.query_selector_all("table.rr-browse th")]
    assert heads == ["Reference", "Kind", "Category", "In one line"]
    rows = page.query_selector_all("table.rr-browse tr.rr-browse-item")
    assert len(rows) == len(records)
    line = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.rr-browse-line')).lineHeight)")
    # The text's own box, not the cell's: a cell is as tall as its row's tallest cell.
    tall = page.evaluate("""h => [...document.querySelectorAll('.rr-browse-line')].filter(c => {
        const text = document.createRange(); text.selectNodeContents(c);
        return text.getBoundingClientRect().height > 1.5 * h; }).length""", line)
    assert tall == 0, "each summary takes one line"
    height = page.evaluate("document.scrollingElement.scrollHeight")
    assert height < 45 * len(records) + 1500, f"{height} px for {len(records)} references"
    page.screenshot(path=str(artifacts / "browse-desktop.png"), full_page=True)
    page.select_option("select[data-filter=category]", "memory")
    page.select_option("select[data-filter=kind]", "error")
    assert page.evaluate("location.hash") == "#category=memory&kind=error"
    page.fill("input[data-filter=words]", "ZQXJ pasted text")
    assert "ZQXJ" not in page.url, "the words box never goes into the address"
    both = {r.id for r in records if r.data["category"] == "memory" and r.data["kind"] == "error"}
    linked = context.new_page()
    linked.goto("browse/#category=memory&kind=error")
    assert linked.input_value("select[data-filter=category]") == "memory"
    assert set(visible_ids(linked)) == both and linked.inner_text("#rr-count") == f"{len(both)} shown"
    first_fragment_edit(linked, "kind=error")
    errors = {r.id for r in records if r.data["kind"] == "error"}
    wait_for_rows(linked, errors)
    assert set(visible_ids(linked)) == errors
    phone = browser.new_context(viewport={"width": 390, "height": 844}, base_url=server).new_page()
    phone.goto("browse/")
    assert phone.evaluate("document.scrollingElement.scrollWidth <= innerWidth + 1")
    phone.screenshot(path=str(artifacts / "browse-phone.png"))
    phone.context.close()
    context.close()


def test_references_beyond_the_catalog_are_marked_and_can_be_listed(page):
    """Each record with beyond_catalog: true carries the mark in its row, and no other row does;
    the home page shows the mark and says where they are listed."""
    records = load_records(paths.RECORDS)
    beyond = {r.id for r in records if r.data.get("beyond_catalog")}
    assert beyond, "some records are beyond the catalog"
    page.goto("browse/")
    marked = page.evaluate("""() => [...document.querySelectorAll('.rr-browse-item')]
        .filter(row => [...row.querySelectorAll('.rr-beyond')].some(m => m.textContent === 'beyond the catalog'))
        .map(row => row.querySelector("a[href*='references/']").getAttribute('href').split('/').slice(-2)[0])""")
    assert set(marked) == beyond
    assert page.is_visible(".rr-browse-item .rr-beyond")
    first_fragment_edit(page, "origin=beyond")
    wait_for_rows(page, beyond)
    assert set(visible_ids(page)) == beyond
    # A later edit swaps nothing: the hashchange alone moves the filters.
    page.evaluate("() => { location.hash = 'origin=catalog'; }")
    catalog = {r.id for r in records} - beyond
    wait_for_rows(page, catalog)
    assert page.evaluate("window.rrPages") == 2 and page.input_value("select[data-filter=origin]") == "catalog"
    page.goto("")
    assert page.inner_text(".md-typeset .rr-beyond") == "beyond the catalog"
    assert "Origin filter" in page.inner_text(".md-typeset")
