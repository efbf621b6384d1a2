"""The site engine is a choice (`relref build --engine mkdocs|zensical`): one flat config that both
read, the same pages, URLs, anchors and data files from each, and the engine's own full-text index."""
import hashlib
import json

import pytest
import yaml

from relref import paths
from relref.cli import main
from relref.site import config, mkdocs, urllock, zensical
from relref.records.load import load_records
from relref.site.build import ENGINES, generate

from engines import require


def test_the_generated_config_is_one_flat_file_with_relative_paths(tmp_path, monkeypatch):
    monkeypatch.setenv("SITE_URL", "https://example.org/relref/")
    written = generate(paths.RECORDS, tmp_path)
    text = written.read_text(encoding="utf-8")
    assert written == tmp_path / "mkdocs.yml"
    assert "INHERIT" not in text and "!ENV" not in text
    data = yaml.safe_load(text)
    assert data["site_url"] == "https://example.org/relref/"
    assert (data["docs_dir"], data["site_dir"]) == ("docs", "site")
    assert not data["theme"]["custom_dir"].startswith("/")
    assert (tmp_path / data["theme"]["custom_dir"]).resolve() == config.OVERRIDES.resolve()
    source = yaml.load(paths.MKDOCS_YML.read_text(encoding="utf-8"), Loader=config._Loader)
    for key in ("nav", "markdown_extensions", "extra_javascript", "extra_css", "plugins", "validation"):
        assert data[key] == source[key], key


def test_env_tags_resolve_like_mkdocs(monkeypatch, tmp_path):
    source = tmp_path / "mkdocs.yml"
    source.write_text('site_name: !ENV [RR_A, RR_B, "fallback"]\nsite_url: !ENV RR_B\ntheme: {name: material}\n')
    monkeypatch.delenv("RR_A", raising=False)
    monkeypatch.setenv("RR_B", "b")
    flat = config.flat_config(source, tmp_path, "http://x/")
    assert flat["site_name"] == "b" and flat["site_url"] == "http://x/"
    monkeypatch.delenv("RR_B")
    assert config.flat_config(source, tmp_path, "http://x/")["site_name"] == "fallback"


def test_each_engine_is_a_small_module_with_the_same_interface():
    assert set(ENGINES) == {"mkdocs", "zensical"}
    for engine in (mkdocs, zensical):
        argv = engine.command(paths.ROOT / "mkdocs.yml")
        assert "--strict" in argv and str(paths.ROOT / "mkdocs.yml") in argv
        assert engine.SEARCH_INDEX and callable(engine.missing) and isinstance(engine.environment(), dict)
    assert zensical.PIN == "0.0.73"
    pyproject = (paths.ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'"zensical=={zensical.PIN}"' in pyproject


def test_a_missing_engine_is_named_with_how_to_install_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(zensical, "version", lambda: None)
    assert main(["build", "--engine", "zensical", "--site-dir", str(tmp_path / "site")]) == 2
    err = capsys.readouterr().err
    assert "zensical==0.0.73" in err and "pip install" in err
    assert not (tmp_path / "site").exists()


@pytest.fixture(scope="module")
def both(request):
    require("zensical")
    return request.getfixturevalue("built_site"), request.getfixturevalue("zensical_site")


def test_both_engines_publish_the_same_urls_and_anchors(both):
    mk, zen = both
    assert urllock.published(mk) == urllock.published(zen)
    assert urllock.unresolved(zen, urllock.read_lock(urllock.LOCK)) == []


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_data_files_and_assets_are_the_generators_own_bytes_from_both(both):
    """The API, schemas, feed, match index, redirects' script and the site's own scripts and styles
    are written by the generator: each engine copies them unchanged."""
    mk, zen = both
    ours = [p.relative_to(paths.DOCS_STATIC) for p in (paths.DOCS_STATIC / "assets").rglob("*") if p.is_file()]
    data = [p.relative_to(mk) for pattern in ("api/**/*.json", "schema/*.json", "feed.xml", "assets/match/index.json")
            for p in mk.glob(pattern)]
    assert len(data) > 40
    differ = [str(rel) for rel in ours + data if not (zen / rel).is_file() or _digest(zen / rel) != _digest(mk / rel)]
    assert not differ, differ[:10]


def test_each_engine_writes_its_own_full_text_index(both):
    mk, zen = both
    assert (mk / mkdocs.SEARCH_INDEX).is_file() and not (mk / zensical.SEARCH_INDEX).exists()
    assert (zen / zensical.SEARCH_INDEX).is_file() and not (zen / mkdocs.SEARCH_INDEX).exists()


def test_zensical_pages_use_its_search_and_no_inline_script(both):
    _, zen = both
    for rel in ("index.html", "references/gpu-lost-collective-timeout/index.html", "match/index.html"):
        text = (zen / rel).read_text(encoding="utf-8")
        assert 'class="md-search__button"' in text and "md-search__input" not in text
        assert "assets/javascripts/engine-zensical.js" in text
        assert "<script>" not in text, f"{rel} has an inline script"
    mk_text = (both[0] / "index.html").read_text(encoding="utf-8")
    assert "md-search__input" in mk_text and "engine-zensical.js" not in mk_text


def _searched_pages(site, engine) -> set:
    data = json.loads((site / engine.SEARCH_INDEX).read_text(encoding="utf-8"))
    return {d["location"].split("#")[0] for d in (data["docs"] if engine is mkdocs else data["items"])}


def test_listings_stay_out_of_keyword_search_and_every_reference_is_in_it(both):
    """The browse listing and the changelog list every reference: in Zensical's index they outgrow
    its field limit at 1,000 records (the build stops), and each reference is found on its own page."""
    for site, engine in zip(both, (mkdocs, zensical)):
        pages = _searched_pages(site, engine)
        assert not pages & {"browse/", "changes/"}, engine.NAME
        assert {f"references/{r.id}/" for r in load_records()} <= pages, engine.NAME
