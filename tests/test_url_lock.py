"""Links never break: every URL and anchor in urls.lock resolves in the built site, directly or
through an alias redirect that keeps the #section; removing a reference fails the build."""
import shutil

from relref import paths
from relref.site import urllock
from relref.cli import main
from relref.site.sitedir import MARKER
from relref.records.load import load_records
from lockcases import unreferenced_ids
from engines import on_both_engines

built_site = on_both_engines()  # each test here that reads the built site reads mkdocs' and Zensical's


def test_every_locked_url_and_anchor_resolves(built_site):
    locked = urllock.read_lock(urllock.LOCK)
    assert any(u.startswith("/references/") and "#cause-" in u for u in locked), "the lock must list anchors"
    assert urllock.unresolved(built_site, locked) == []


RECORD_URLS = ("/references/", "/codes/", "/api/", "/schema/", "/feed.xml", "/changes/")


def test_the_lock_lists_every_url_built_from_the_records(built_site):
    """Hand-written pages join the lock whenever `relref lock` runs (the build reports them);
    pages built from the records must be locked as soon as they appear."""
    new = sorted(u for u in urllock.published(built_site) - urllock.read_lock(urllock.LOCK)
                 if u.startswith(RECORD_URLS))
    assert not new, f"{len(new)} published URL(s) are not in urls.lock; run `relref lock` and commit it:\n" + \
        "\n".join(new[:20])


def test_the_lock_covers_each_reference_section_cause_check_and_signature(built_site):
    locked = urllock.read_lock(urllock.LOCK)
    for record in load_records(paths.RECORDS):
        base = f"/references/{record.id}/"
        wanted = [base, base + "#signatures", base + "#causes", base + "#evidence",
                  f"/api/v1/references/{record.id}.json"]
        wanted += [f"{base}#cause-{c['id']}" for c in record.data["causes"]]
        wanted += [f"{base}#check-{e['id']}" for e in record.data["evidence"]]
        wanted += [f"{base}#signature-{s['id']}" for s in record.data["signatures"]]
        missing = [u for u in wanted if u not in locked]
        assert not missing, f"not locked (run `relref lock`): {missing[:5]}"


def test_removing_a_reference_fails_the_build_and_names_its_urls(tmp_path, capsys):
    records = tmp_path / "records"
    shutil.copytree(paths.RECORDS, records)
    gone = unreferenced_ids(load_records(records))[0]
    (records / f"{gone}.yaml").unlink()
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("previous build")
    (site / MARKER).write_text("an earlier build")

    assert main(["build", "--records", str(records), "--site-dir", str(site)]) == 1

    err = capsys.readouterr().err
    assert f"/references/{gone}/ (no such page or file; " in err
    assert f"/api/v1/references/{gone}.json (no such page or file)" in err
    assert f"/references/{gone}/#" not in err, "a missing page is reported once, not once per anchor"
    assert "status: retired" in err and "aliases" in err, "the message must say what to do instead"
    assert (site / "index.html").read_text() == "previous build"


def test_a_renamed_reference_keeps_its_old_urls_and_anchors(renamed_site):
    site, case = renamed_site
    old_anchor = f"/references/{case['old']}/#cause-{case['cause']}"
    assert old_anchor in urllock.read_lock(urllock.LOCK)
    assert urllock.unresolved(site, [old_anchor, f"/api/v1/references/{case['old']}.json"]) == []
    redirect = urllock.Site(site).page(f"/references/{case['old']}/")
    assert redirect.redirect and redirect.canonical == f"../{case['new']}/"


def test_a_retired_reference_keeps_its_page_and_names_its_successor(renamed_site):
    site, case = renamed_site
    text = (site / "references" / case["retired"] / "index.html").read_text()
    assert "Retired reference" in text and f"../{case['successor']}/" in text


def _site(tmp_path, pages: dict):
    for rel, html in pages.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(html)
    return tmp_path


REDIRECT = ('<link rel="canonical" href="../new/"><script src="../../assets/javascripts/redirect.js"></script>')


def test_a_redirect_resolves_only_to_anchors_its_target_has(tmp_path):
    site = _site(tmp_path, {"references/new/index.html": '<h2 id="causes">Causes</h2>',
                            "references/old/index.html": REDIRECT})
    assert urllock.unresolved(site, ["/references/old/#causes", "/references/new/"]) == []
    [problem] = urllock.unresolved(site, ["/references/old/#cause-gone"])
    assert problem.startswith("/references/old/#cause-gone (redirects to /references/new/")
    assert "no anchor #cause-gone" in problem


def test_updating_the_lock_adds_and_never_removes(tmp_path):
    site = _site(tmp_path / "site", {"index.html": "", "references/a/index.html": '<h2 id="causes"></h2>',
                                     "references/a/old/index.html": ""})
    lock = tmp_path / "urls.lock"
    lock.write_text("# comment\n/references/a/old/\n")
    assert urllock.enforce(site, lock, update=True)
    assert urllock.read_lock(lock) == {"/", "/references/a/", "/references/a/#causes", "/references/a/old/"}
    (site / "references" / "a" / "old" / "index.html").unlink()
    assert not urllock.enforce(site, lock, update=True)
    assert "/references/a/old/" in urllock.read_lock(lock)


def test_adding_keeps_every_comment_where_it_was(tmp_path):
    site = _site(tmp_path / "site", {"index.html": "", "b/index.html": "", "d/index.html": ""})
    lock = tmp_path / "urls.lock"
    lock.write_text("# header\n/a/\n# why /c/ is kept: a runbook links it\n/c/\n# trailing note\n")
    (site / "a" / "index.html").parent.mkdir()
    (site / "a" / "index.html").write_text("")
    (site / "c" / "index.html").parent.mkdir()
    (site / "c" / "index.html").write_text("")
    assert urllock.enforce(site, lock, update=True)
    assert lock.read_text() == ("# header\n/\n/a/\n/b/\n# why /c/ is kept: a runbook links it\n/c/\n/d/\n"
                                "# trailing note\n")


def _add_many(args):
    site, lock, start = args
    start.wait()
    return urllock.enforce(site, lock, update=True)


def test_locks_updated_at_once_keep_every_addition_they_report(tmp_path, capsys):
    """Eight `relref lock` runs finishing together, each with its own new pages. Each reads the
    lock again once it holds it: a run then either adds its pages, and they stay, or finds that
    its site lacks pages another run has just locked, and says so."""
    import multiprocessing
    lock = tmp_path / "urls.lock"
    lock.write_text(urllock.HEADER + "/\n")
    sites = [_site(tmp_path / f"site{n}", {"index.html": "", **{f"p{n}-{i}/index.html": "" for i in range(300)}})
             for n in range(8)]
    with multiprocessing.Manager() as manager:
        start = manager.Barrier(len(sites))
        with multiprocessing.get_context("fork").Pool(len(sites)) as pool:
            added = pool.map(_add_many, [(s, lock, start) for s in sites])
    locked = urllock.read_lock(lock)
    assert any(added)
    lost = [n for n, ok in enumerate(added) if ok and not {f"/p{n}-{i}/" for i in range(300)} <= locked]
    assert not lost, f"runs {lost} reported their URLs added, and they are gone"
    assert lock.read_text().startswith(urllock.HEADER)
