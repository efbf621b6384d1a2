"""A build replaces only a site folder it may replace, keeps a gh-pages checkout's files, survives
being killed, and takes turns with other builds: no command deletes what it did not write."""
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from relref import paths
from relref.cli import main
from relref.site.sitedir import MARKER

RELREF = str(Path(sys.executable).with_name("relref"))


def build(records, site, *more):
    return [RELREF, "build", "--records", str(records), "--site-dir", str(site), "--no-lock", *more]


@pytest.fixture
def checkout(tmp_path, monkeypatch):
    """A stand-in for the checkout, so a guard that failed would cost a temporary folder only."""
    root = tmp_path / "checkout"
    for folder in (".git", "references", "docs", "schema", "templates"):
        (root / folder).mkdir(parents=True)
    (root / "notes.txt").write_text("uncommitted work")
    monkeypatch.setattr(paths, "ROOT", root)
    monkeypatch.setattr(paths, "RECORDS", root / "references")
    monkeypatch.setattr(paths, "DOCS_STATIC", root / "docs")
    monkeypatch.setattr(paths, "SCHEMA", root / "schema" / "reference.schema.json")
    monkeypatch.setattr(paths, "TEMPLATES", root / "templates")
    return root


def listing(folder: Path) -> list:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.mark.parametrize("target", [".", "references", "docs", "schema", "templates", "..", "/",
                                    "references/site", "docs/site"])
def test_the_checkout_its_inputs_and_their_parents_are_refused(checkout, fixture_records, target, capsys, monkeypatch):
    monkeypatch.chdir(checkout)
    before = listing(checkout)
    assert main(["build", "--records", str(fixture_records), "--site-dir", target, "--no-lock"]) == 2
    assert "not building into" in capsys.readouterr().err
    assert listing(checkout) == before


def test_the_records_folder_is_refused(fixture_records, capsys):
    assert main(["build", "--records", str(fixture_records), "--site-dir", str(fixture_records), "--no-lock"]) == 2
    assert (fixture_records / "fixture-error.yaml").is_file()


def test_a_folder_holding_other_files_is_refused_and_kept(fixture_records, tmp_path, capsys):
    site = tmp_path / "mine"
    (site / "drafts").mkdir(parents=True)
    (site / "report.pdf").write_text("not ours")
    assert main(["build", "--records", str(fixture_records), "--site-dir", str(site), "--no-lock"]) == 2
    err = capsys.readouterr().err
    assert "report.pdf" in err and "drafts" in err and "did not write" in err
    assert listing(site) == ["drafts", "report.pdf"]


def test_a_gh_pages_checkout_keeps_git_cname_and_nojekyll_across_builds(fixture_records, tmp_path):
    """Also: builds that start together take turns (no Errno 39), and leave no work folder."""
    site = tmp_path / "site"
    (site / ".git" / "refs").mkdir(parents=True)
    (site / ".git" / "HEAD").write_text("ref: refs/heads/gh-pages\n")
    (site / "CNAME").write_text("relref.example.org\n")
    (site / ".nojekyll").write_text("")
    runs = [subprocess.Popen(build(fixture_records, site), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(2)]
    outcomes = [(r.wait(timeout=300), r.stderr.read()) for r in runs]
    assert [code for code, _ in outcomes] == [0, 0], outcomes
    assert not any("Errno" in err or "Traceback" in err for _, err in outcomes), outcomes
    assert any("already running" in err for _, err in outcomes), "a build that waits says so"
    assert (site / ".git" / "HEAD").read_text() == "ref: refs/heads/gh-pages\n"
    assert (site / "CNAME").read_text() == "relref.example.org\n" and (site / ".nojekyll").exists()
    assert (site / MARKER).is_file() and (site / "references" / "fixture-error" / "index.html").is_file()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".relref-") and p.is_dir()) == []


def test_a_killed_build_leaves_nothing_the_next_build_does_not_clear(fixture_records, tmp_path):
    site = tmp_path / "site"
    first = subprocess.Popen(build(fixture_records, site), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob(".relref-build-*/site")) and time.monotonic() < deadline:
        time.sleep(0.05)  # mkdocs has started writing
    first.send_signal(signal.SIGKILL)
    first.wait()
    assert list(tmp_path.glob(".relref-build-*")), "the kill left its work folder"
    (fixture_records / "fixture-error.yaml").write_text("kind: [broken")  # the next build may even fail

    done = subprocess.run(build(fixture_records, site), capture_output=True, text=True, timeout=300)

    assert done.returncode == 1, done.stderr
    assert "already running" in done.stderr, "it waited for the killed build's mkdocs, which held the lock"
    assert not list(tmp_path.glob(".relref-build-*")), "the next build removes what killed builds left"


def _previous_site(folder: Path) -> None:
    (folder / ".git").mkdir(parents=True)
    (folder / "CNAME").write_text("relref.example.org\n")
    (folder / "index.html").write_text("previous build")
    (folder / MARKER).write_text("an earlier build")


def test_a_build_killed_between_the_renames_gets_its_site_back(fixture_records, tmp_path, capsys):
    site = tmp_path / "site"
    _previous_site(tmp_path / ".relref-old-site")  # site renamed aside, the new one not yet in place
    (fixture_records / "fixture-error.yaml").write_text("kind: [broken")

    assert main(["build", "--records", str(fixture_records), "--site-dir", str(site), "--no-lock"]) == 1

    assert (site / "index.html").read_text() == "previous build" and (site / ".git").is_dir()
    assert not (tmp_path / ".relref-old-site").exists()
    assert "put back" in capsys.readouterr().out


def test_a_build_killed_after_the_swap_has_its_files_carried(fixture_records, tmp_path):
    site = tmp_path / "site"
    _previous_site(tmp_path / ".relref-old-site")
    site.mkdir()
    (site / "index.html").write_text("new build")
    (site / MARKER).write_text("the new build")
    (fixture_records / "fixture-error.yaml").write_text("kind: [broken")

    assert main(["build", "--records", str(fixture_records), "--site-dir", str(site), "--no-lock"]) == 1

    assert (site / "index.html").read_text() == "new build"
    assert (site / ".git").is_dir() and (site / "CNAME").read_text() == "relref.example.org\n"
    assert not (tmp_path / ".relref-old-site").exists()


def test_an_empty_or_missing_folder_is_taken(fixture_records, tmp_path):
    (tmp_path / "empty").mkdir()
    for site in (tmp_path / "empty", tmp_path / "missing" / "site"):
        (fixture_records / "fixture-error.yaml").write_text("kind: [broken")  # stop before mkdocs: only the guard is tested
        assert main(["build", "--records", str(fixture_records), "--site-dir", str(site), "--no-lock"]) == 1
