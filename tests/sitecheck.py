"""Reading a built site: pages, their ids, their links and what they load."""
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

RESOURCE_ATTRS = {"script": "src", "img": "src", "iframe": "src", "source": "src", "audio": "src",
                  "video": "src", "embed": "src", "object": "data", "link": "href"}


class Page(HTMLParser):
    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.ids, self.links, self.resources, self.metas = set(), [], [], []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for key in ("id", "name"):
            if attrs.get(key):
                self.ids.add(attrs[key])
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if tag == "meta":
            self.metas.append(attrs)
        attr = RESOURCE_ATTRS.get(tag)
        if attr and attrs.get(attr):
            if tag != "link" or (attrs.get("rel") or "") not in ("canonical", "prev", "next", "alternate"):
                self.resources.append(attrs[attr])


def pages(site: Path):
    for path in sorted(site.rglob("*.html")):
        yield path, Page(path.read_text(encoding="utf-8"))


def resolve(site: Path, page_path: Path, href: str):
    """The file and fragment an internal link points at, or None for external links."""
    parts = urlsplit(href)
    if parts.scheme or href.startswith("//") or href.startswith("mailto:"):
        return None
    if not parts.path:
        return page_path, unquote(parts.fragment)
    base = site if parts.path.startswith("/") else page_path.parent  # 404.html links from the site root
    target = (base / unquote(parts.path).lstrip("/")).resolve()
    if target.is_dir() or parts.path.endswith("/"):
        target = target / "index.html"
    return target, unquote(parts.fragment)


def external_hosts_in_css(text: str) -> list[str]:
    return re.findall(r"(?:url\(\s*['\"]?|@import\s+['\"])(https?:)?//([^/'\")\s]+)", text)
