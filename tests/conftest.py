import os
import shutil
from pathlib import Path

import pytest

from generator import paths
from generator.site import build_site

FIXTURES = Path(__file__).parent / "fixtures" / "records"


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """The real records, built once with a strict mkdocs build, shared by the site tests."""
    site = tmp_path_factory.mktemp("built") / "site"
    assert build_site(paths.RECORDS, site) == 0
    return site


@pytest.fixture
def fixture_records(tmp_path) -> Path:
    """A private copy of the small valid fixture records, for tests that break them."""
    target = tmp_path / "records"
    shutil.copytree(FIXTURES, target)
    return target
