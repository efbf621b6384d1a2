"""Where things live in the repository, and the one rule for the site's own links."""
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "references"
SCHEMA = ROOT / "schema" / "reference.schema.json"
CODES = ROOT / "codes"
CODES_SCHEMA = ROOT / "schema" / "codes.schema.json"
PLANNED_REFERENCES = ROOT / "tests" / "data" / "planned-references.yaml"
URL_LOCK = ROOT / "urls.lock"
AUDIT = ROOT / "audit"
TEMPLATES = ROOT / "templates"
DOCS_STATIC = ROOT / "docs"
MKDOCS_YML = ROOT / "mkdocs.yml"
BUILD = ROOT / "build"

DEFAULT_SITE_URL = "http://127.0.0.1:8000/"

# The rule for links to the site's own pages (issue 19 item 5), in one place:
#   a link is a page's canonical path (references/<id>/, then #anchor) joined to a root.
#   - SITE_URL given at build time: the root is SITE_URL, everywhere: copy buttons, "Cite as",
#     the canonical <link>, the sitemap, the API, the feed and `relref match`.
#   - SITE_URL not given: pages join the path to the root they are served from (links.js, from the
#     site root the theme computes, never location.href, so an alias still copies the canonical
#     page) and their canonical <link> is relative; files that need an absolute URL (sitemap, API,
#     feed, `relref match`) use the local address DEFAULT_SITE_URL, and `relref build` warns.
# The build records which case it was (public_site_url() in the generated mkdocs config, as
# extra.relref_site_url); main.html hands it to the pages, and links.js applies the browser half.


def public_site_url() -> str | None:
    """SITE_URL from the environment, ending in "/", or None when it was not given."""
    value = os.environ.get("SITE_URL", "").strip()
    return value.rstrip("/") + "/" if value else None


def site_url(default: str | None = None) -> str:
    """The root for links that must be absolute: SITE_URL, else `default` (an index's recorded
    site_url), else the local address. mkdocs.yml reads the same variable."""
    return public_site_url() or default or DEFAULT_SITE_URL


def page_url(path: str, root: str | None = None) -> str:
    """An absolute link to a page of the site: `path` ("references/<id>/", "feed.xml") under `root`
    (default: site_url())."""
    return (root or site_url()).rstrip("/") + "/" + path.lstrip("/")
