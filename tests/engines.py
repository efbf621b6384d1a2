"""The two site engines the tests build with. mkdocs (the default) always; Zensical unless
RELREF_SKIP_ZENSICAL=1 says explicitly to skip it: a missing Zensical is a failure, not a skip
(the test extra pins it, so a failed install shows here)."""
import os

import pytest

ENGINES = ("mkdocs", "zensical")
SKIP = "RELREF_SKIP_ZENSICAL"


def require(engine: str) -> None:
    if engine != "zensical":
        return
    if os.environ.get(SKIP) == "1":
        pytest.skip(f"{SKIP}=1: the Zensical tests are skipped on request")
    from relref.site import zensical
    if why := zensical.missing():
        pytest.fail(f"the Zensical tests cannot run: relref {why}. (To skip them on purpose, set {SKIP}=1.)")


def site_of(request, engine: str):
    """The real records built with `engine` (session fixtures mkdocs_site and zensical_site in
    conftest.py), each built once per session."""
    require(engine)
    return request.getfixturevalue(f"{engine}_site")


def on_both_engines():
    """A module's own `built_site`: `built_site = on_both_engines()` runs each of the module's
    tests on the site from each engine."""
    @pytest.fixture(scope="module", params=ENGINES)
    def built_site(request):
        return site_of(request, request.param)
    return built_site
