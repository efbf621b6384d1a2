"""The browse page's filters narrow the list in the browser."""
from relref import paths
from relref.records.load import load_records


def visible_ids(page):
    return [a.get_attribute("href").split("/")[-2] for a in
            page.query_selector_all(".rr-browse-item:not([hidden]) > p > a, .rr-browse-item:not([hidden]) a[href*='references/']")]


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
