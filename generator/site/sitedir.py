"""The site folder: which folder a build may replace, and replacing it without losing anything.

A build replaces the whole site folder, so it only takes one that is missing, empty, marked
by an earlier build (MARKER), or holding only dotfiles and CNAME (a gh-pages checkout: .git,
.nojekyll, CNAME). Those are carried into every new site. The checkout and its inputs are
never a site folder.

Replacing is two renames (site -> OLD, built -> site), then the carried files move across and
OLD is removed. A build killed part-way leaves OLD behind; the next build finishes the job
(`recover`) before anything else, and removes the work folders killed builds left.
"""
import shutil
from pathlib import Path

from .. import paths

MARKER = ".relref-site"
MARKER_TEXT = "Written by `relref build`, which replaces this whole folder on every build.\n"
WORK_PREFIX = ".relref-build-"
WORK_ENTRIES = {"docs", "mkdocs.yml", "site", ".cache"}  # what a work folder holds (.cache: Zensical's): anything else is not ours
OLD_PREFIX = ".relref-old-"


class SiteDirRefused(Exception):
    """The folder is not one a build may replace; the message says why and what to do."""


def protected(records_dir: Path) -> list[Path]:
    """The checkout and the folders a build reads: never a site folder, nor inside one."""
    return [paths.ROOT, paths.RECORDS, paths.DOCS_STATIC, paths.SCHEMA.parent, paths.TEMPLATES, Path(records_dir)]


def check(site: Path, records_dir: Path) -> None:
    site = site.resolve()
    for kept in protected(records_dir):
        kept = kept.resolve()
        if site == kept or site in kept.parents:
            what = "it is the checkout" if kept == paths.ROOT.resolve() else f"it is {kept}, which the build reads"
            raise SiteDirRefused((what if site == kept else f"it holds {kept}") + ": a build replaces its whole "
                                 "site folder. Pick another --site-dir (the default is site/ in the checkout)")
        if kept != paths.ROOT.resolve() and kept in site.parents:
            raise SiteDirRefused(f"it is inside {kept}, which the build reads: pick another --site-dir")
    if not site.exists() and not site.is_symlink():
        return
    if not site.is_dir():
        raise SiteDirRefused("it exists and is not a folder")
    if (site / MARKER).is_file():
        return
    foreign = sorted(p.name for p in site.iterdir() if not _carried(p.name))
    if foreign:
        shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
        raise SiteDirRefused(f"it holds files an earlier build did not write ({shown}); a build would "
                             f"replace them. Move them away or pick another --site-dir. (A folder is taken "
                             f"when empty, holding only dotfiles and CNAME, or marked {MARKER} by an earlier build.)")


def _carried(name: str) -> bool:
    return name == "CNAME" or (name.startswith(".") and name != MARKER)


def _old(site: Path) -> Path:
    return site.with_name(OLD_PREFIX + site.name)


def recover(site: Path) -> None:
    """Finish what a killed build left: put the previous site back, or complete the swap."""
    old = _old(site)
    if not old.is_dir():
        return
    if not site.exists():
        old.rename(site)
        print(f"relref: put back {site}, which an interrupted build had moved aside")
        return
    _carry(old, site)
    shutil.rmtree(old)


def remove_stale_work(site: Path) -> None:
    """Work folders of builds that were killed. Called with the build lock held, so none is running."""
    for work in site.parent.glob(WORK_PREFIX + "*"):
        if work.is_dir() and not work.is_symlink() and {p.name for p in work.iterdir()} <= WORK_ENTRIES:
            shutil.rmtree(work, ignore_errors=True)


def replace(site: Path, built: Path) -> None:
    (built / MARKER).write_text(MARKER_TEXT, encoding="utf-8")
    old = _old(site)
    if site.exists():
        site.rename(old)
    built.rename(site)
    if old.exists():
        _carry(old, site)
        shutil.rmtree(old)


def _carry(old: Path, new: Path) -> None:
    for entry in old.iterdir():
        if _carried(entry.name) and not (new / entry.name).exists() and not (new / entry.name).is_symlink():
            entry.rename(new / entry.name)
