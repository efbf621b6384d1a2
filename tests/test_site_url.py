"""The rule for the site's own links (issue 19 item 5, relref.paths): with SITE_URL given, every
absolute link the build writes (canonical link, "Cite as", sitemap, API, feed) and the ones
`relref match` prints use it; without it, pages name no host and `relref build` says links will be
local. The browser half (copy buttons) is in tests/browser/test_copied_links.py."""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from relref import paths

from conftest import FIXTURES

PUBLIC = "https://errors.example.org/relref/"
XID = "NVRM: Xid (PCI:0000:3b:00): 79, pid=2312, name=python, GPU has fallen off the bus.\n"


def _env(site_url=None):
    env = {k: v for k, v in os.environ.items() if k != "SITE_URL"}
    if site_url:
        env["SITE_URL"] = site_url
    return env


def _build(tmp_path, site_url=None):
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "relref.cli", "build", "--records", str(FIXTURES),
                           "--site-dir", str(site), "--no-lock"], env=_env(site_url),
                          capture_output=True, text=True, cwd=paths.ROOT)
    assert done.returncode == 0, done.stderr
    return site, done.stderr


@pytest.fixture(scope="module")
def public_site(tmp_path_factory):
    return _build(tmp_path_factory.mktemp("public"), PUBLIC)


@pytest.fixture(scope="module")
def local_site(tmp_path_factory):
    return _build(tmp_path_factory.mktemp("local"))


def test_with_site_url_every_written_link_uses_it(public_site):
    site, stderr = public_site
    assert "links will be local" not in stderr
    page = (site / "references" / "fixture-error" / "index.html").read_text()
    assert f'<link rel="canonical" href="{PUBLIC}references/fixture-error/">' in page
    assert f'<meta name="relref:site-url" content="{PUBLIC}">' in page
    assert f"{PUBLIC}references/fixture-error/</span> (last reviewed" in page
    locs = [e.text for e in ET.parse(site / "sitemap.xml").getroot().iter() if e.tag.endswith("loc")]
    assert locs and all(loc.startswith(PUBLIC) for loc in locs)
    catalog = json.loads((site / "api" / "v1" / "references.json").read_text())
    assert catalog["site_url"] == PUBLIC
    assert all(e["url"].startswith(PUBLIC) and e["json_url"].startswith(PUBLIC) for e in catalog["references"])
    feed = (site / "feed.xml").read_text()
    assert f'href="{PUBLIC}feed.xml"' in feed and f"{PUBLIC}references/fixture-error/#changes" in feed
    for written in [site / "sitemap.xml", site / "feed.xml", site / "api" / "v1" / "references.json",
                    *(site / "references").glob("*/index.html")]:
        assert "127.0.0.1" not in written.read_text(), f"{written.relative_to(site)} names the local address"


def test_without_site_url_pages_name_no_host_and_the_build_says_links_are_local(local_site):
    site, stderr = local_site
    assert "SITE_URL is not set, so links will be local" in stderr
    page = (site / "references" / "fixture-error" / "index.html").read_text()
    assert '<link rel="canonical" href="./">' in page
    assert "relref:site-url" not in page and "127.0.0.1" not in page.split("<article", 1)[1]
    catalog = json.loads((site / "api" / "v1" / "references.json").read_text())
    assert catalog["site_url"] == paths.DEFAULT_SITE_URL  # files that need an absolute URL: the local one


@pytest.mark.parametrize("site_url", [PUBLIC, None])
def test_relref_match_links_follow_the_same_rule(site_url):
    done = subprocess.run([sys.executable, "-m", "relref.cli", "match", "-", "--json"], input=XID,
                          env=_env(site_url), capture_output=True, text=True, cwd=paths.ROOT)
    result = json.loads(done.stdout)
    root = site_url or paths.DEFAULT_SITE_URL
    urls = [m["url"] for m in result["matches"]] + [c["url"] for c in result["next_checks"]]
    assert urls and all(u.startswith(root + "references/") for u in urls)


def test_the_rule_is_one_function():
    env = dict(os.environ)
    try:
        os.environ["SITE_URL"] = "https://x.example/docs"
        assert paths.public_site_url() == "https://x.example/docs/"
        assert paths.page_url("references/a/") == "https://x.example/docs/references/a/"
        os.environ["SITE_URL"] = ""
        assert paths.public_site_url() is None and paths.site_url() == paths.DEFAULT_SITE_URL
    finally:
        os.environ.clear()
        os.environ.update(env)
