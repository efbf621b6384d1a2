"""The URL lock: every URL and anchor the site has published keeps resolving.

urls.lock (committed) lists each published page, data file and stable anchor, one a line, as a
path from the site root: `/references/<id>/#cause-<id>`. Every build checks the built site
against it before the site is put in place; `relref lock` adds what is new and never removes a
line. A locked URL resolves when its file exists and has the anchor, or when it is a redirect
page (an earlier id in `aliases`) whose target has the anchor: the redirect keeps `#section`.

Adding reads the file again and writes it whole under a lock (two `relref lock` runs at once
each keep what they add), keeps every line it had (comments included, where they were), and
replaces the file in one rename, so a reader never sees half of it.
"""
import os
import re
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from .. import paths
from .locking import exclusive

LOCK = paths.URL_LOCK
HEADER = """\
# Every URL and anchor the site has published. Each must keep resolving: the build fails otherwise.
# Add new ones with `relref lock`; never remove a line. A reference is never deleted: retire it
# (status: retired, successor: <id>), or list its old id in the new record's `aliases`.
"""
# Anchors on reference pages that the generator controls: section ids and per-item ids.
# source-N is left out: sources are numbered by position, so the numbers are not stable.
SECTION_IDS = {"discrepancies", "applies-to", "signatures", "causes", "evidence", "mitigations", "look-alikes",
               "figures", "sources", "changes"}
ITEM_ID = re.compile(r"^(cause|check|signature|figure)-[a-z0-9-]+$")
DATA_FILES = ("api/v1/**/*.json", "schema/*.json", "feed.xml")
SKIPPED_DIRS = {"assets", "search"}
REDIRECT_SCRIPT = "redirect.js"


class _Html(HTMLParser):
    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.ids, self.canonical, self.redirect = set(), None, False
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        if tag == "link" and attrs.get("rel") == "canonical":
            self.canonical = attrs.get("href")
        if tag == "script" and (attrs.get("src") or "").endswith(REDIRECT_SCRIPT):
            self.redirect = True


class Site:
    """A built site, read lazily: each page is parsed once."""

    def __init__(self, root: Path):
        self.root = Path(root)
        self._pages: dict = {}

    def file(self, url_path: str) -> Path:
        rel = url_path.lstrip("/")
        return self.root / rel / "index.html" if url_path.endswith("/") else self.root / rel

    def page(self, url_path: str):
        if url_path not in self._pages:
            f = self.file(url_path)
            self._pages[url_path] = _Html(f.read_text(encoding="utf-8")) if f.is_file() and f.suffix == ".html" else None
        return self._pages[url_path]


def published(site_root: Path) -> set[str]:
    """Every URL and stable anchor of a built site."""
    site, urls = Site(site_root), set()
    for index in sorted(Path(site_root).rglob("index.html")):
        rel = index.parent.relative_to(site_root)
        if rel.parts and rel.parts[0] in SKIPPED_DIRS:
            continue
        url = "/" + "".join(f"{p}/" for p in rel.parts)
        urls.add(url)
        page = site.page(url)
        if rel.parts[:1] == ("references",) and not page.redirect:
            urls |= {f"{url}#{i}" for i in page.ids if i in SECTION_IDS or ITEM_ID.match(i)}
    for pattern in DATA_FILES:
        urls |= {"/" + str(f.relative_to(site_root)) for f in Path(site_root).glob(pattern)}
    return urls


def unresolved(site_root: Path, locked) -> list[str]:
    """A line per locked URL the site no longer serves, saying why. A missing page is one line,
    not one per anchor on it."""
    site, lines, gone = Site(site_root), [], {}
    for url in sorted(locked):
        path = urlsplit(url).path
        if not site.file(path).is_file():
            gone[path] = gone.get(path, 0) + (1 if "#" in url else 0)
        elif why := _why_missing(site, url):
            lines.append(f"{url} ({why})")
    lines += [f"{path} (no such page or file" + (f"; {n} locked anchors on it)" if n else ")")
              for path, n in gone.items()]
    return sorted(lines)


def _why_missing(site: Site, url: str, hops: int = 0):
    parts = urlsplit(url)
    path, fragment = parts.path, parts.fragment
    if not site.file(path).is_file():
        return "no such page or file"
    page = site.page(path)
    if page is not None and page.redirect:
        if hops > 3 or not page.canonical:
            return "redirect without a target"
        target = urlsplit(urljoin(path, page.canonical)).path
        why = _why_missing(site, f"{target}#{fragment}" if fragment else target, hops + 1)
        return f"redirects to {target}, which has {why}" if why else None
    if fragment and (page is None or fragment not in page.ids):
        return f"no anchor #{fragment} on {path}"
    return None


def read_lock(path: Path) -> set[str]:
    if not path.exists():
        return set()
    lines = (l.strip() for l in path.read_text(encoding="utf-8").splitlines())
    return {l for l in lines if l and not l.startswith("#")}


def add_to_lock(path: Path, new) -> None:
    """Insert new URLs in sorted place; every existing line stays. A comment stays above the URL
    it precedes, and the comments that open the file stay first."""
    text = path.read_text(encoding="utf-8") if path.exists() else HEADER
    pending, out, comments, seen_url = sorted(set(new) - read_lock(path)), [], [], False
    for line in text.splitlines():
        url = line.strip()
        if not url or url.startswith("#"):
            (comments if seen_url else out).append(line)
            continue
        while pending and pending[0] < url:
            out.append(pending.pop(0))
        out += comments + [line]
        comments, seen_url = [], True
    out += pending + comments
    _replace_file(path, "".join(f"{line}\n" for line in out))


def _replace_file(path: Path, text: str) -> None:
    with tempfile.NamedTemporaryFile("w", dir=path.parent, prefix=f".{path.name}.", suffix=".tmp",
                                     delete=False, encoding="utf-8") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    if path.exists():
        os.chmod(out.name, path.stat().st_mode & 0o7777)
    os.replace(out.name, path)


def _guard(path: Path) -> Path:
    return path.with_name(f".{path.name}.lck")


def locked_codes(path: Path | None) -> set:
    """(kind, name) of every code page in the lock, so a published code keeps its page."""
    from ..records.code_tables import locked_code_pages
    return locked_code_pages(read_lock(path) if path else ())


def enforce(site_root: Path, lock: Path | None, update: bool = False) -> bool:
    """Check a built site against the lock (and add its new URLs when asked). False when a
    locked URL no longer resolves: the caller must not publish that site."""
    if lock is None:
        return True
    if update:
        with exclusive(_guard(lock), f"an update of {_display(lock)}"):
            return _enforce(site_root, lock, update)
    return _enforce(site_root, lock, update)


def _enforce(site_root: Path, lock: Path, update: bool) -> bool:
    locked = read_lock(lock)
    missing = unresolved(site_root, locked)
    if missing:
        print(f"relref: {len(missing)} published URL(s) listed in {_display(lock)} no longer resolve:", file=sys.stderr)
        for line in missing:
            print(f"  {line}", file=sys.stderr)
        print("relref: a published reference is never deleted: keep it with status: retired and a successor, "
              "or list its old id in the new record's aliases (the old URL then redirects, keeping #section). "
              "A cause, check or signature keeps its anchor only while its id stays.", file=sys.stderr)
        return False
    new = published(site_root) - locked
    if update and new:
        add_to_lock(lock, new)
        print(f"relref: added {len(new)} URL(s) to {_display(lock)}")
    elif new:
        print(f"relref: {len(new)} new URL(s) not yet in {_display(lock)}; run `relref lock` to add them")
    return True


def _display(path: Path) -> str:
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)
