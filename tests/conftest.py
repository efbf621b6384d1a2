import os
import pickle
import shutil
from pathlib import Path

import pytest

from relref import paths
from relref.site.build import build_site

FIXTURES = Path(__file__).parent / "fixtures" / "records"


def pytest_configure(config):
    # Tests build many sites; they share one private cache, never the repository's build/cache.
    import tempfile
    os.environ.setdefault("RELREF_CACHE_DIR", tempfile.mkdtemp(prefix="relref-test-cache-"))


def once_per_run(tmp_path_factory, name: str, build):
    """`build(folder)`'s result, computed once per test run. Alone, in a fresh folder; under
    pytest-xdist (make test runs two workers), the first worker to ask builds it in a folder both
    share while holding its lock, and the other waits for it and reads the result."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return build(tmp_path_factory.mktemp(name))
    from filelock import FileLock
    folder = tmp_path_factory.getbasetemp().parent / name
    done = folder.with_suffix(".result")
    with FileLock(str(folder) + ".lock"):
        if not done.is_file():
            shutil.rmtree(folder, ignore_errors=True)  # what a failed build of ours left
            folder.mkdir()
            done.write_bytes(pickle.dumps(build(folder)))
    return pickle.loads(done.read_bytes())


def _built(records: Path, **options):
    def build(folder: Path) -> Path:
        site = folder / "site"
        assert build_site(records, site, **options) == 0
        return site
    return build


@pytest.fixture(scope="session")
def mkdocs_site(tmp_path_factory) -> Path:
    """The real records, built once with a strict mkdocs build, shared by the site tests."""
    return once_per_run(tmp_path_factory, "built", _built(paths.RECORDS))


@pytest.fixture(scope="session")
def built_site(mkdocs_site) -> Path:
    """The site the tests read: mkdocs's, unless a module runs on both engines (engines.py).
    (A module's override must not request this fixture by name: pytest would then key the
    session build by the module's engine parameter and rebuild it for every module.)"""
    return mkdocs_site


@pytest.fixture(scope="session")
def zensical_site(tmp_path_factory) -> Path:
    """The same records built with Zensical (`relref build --engine zensical`), URL lock checked."""
    from engines import require
    require("zensical")
    return once_per_run(tmp_path_factory, "built-zensical", _built(paths.RECORDS, engine="zensical"))


@pytest.fixture
def fixture_records(tmp_path) -> Path:
    """A private copy of the small valid fixture records, for tests that break them."""
    target = tmp_path / "records"
    shutil.copytree(FIXTURES, target)
    return target


@pytest.fixture(scope="session", params=["mkdocs", "zensical"])
def renamed_site(request, tmp_path_factory):
    """The real records with one reference renamed (old id kept in aliases) and one retired, built
    against the real URL lock with each engine: every published URL must still resolve. Returns
    (site, what changed)."""
    from engines import require
    from lockcases import rename_and_retire
    require(request.param)

    def build(folder: Path):
        records = folder / "records"
        shutil.copytree(paths.RECORDS, records)
        case = rename_and_retire(records)
        site = folder / "site"
        assert build_site(records, site, engine=request.param) == 0, \
            "renaming with an alias and retiring must keep every locked URL"
        return site, case
    return once_per_run(tmp_path_factory, f"renamed-{request.param}", build)


@pytest.fixture(scope="session")
def payload_site(tmp_path_factory):
    """Records carrying hostile text in every field (tests/payloads.py), built with the prose
    checks off so that what is tested is the pages' own escaping. Returns (site, {id: (payload, lines)})."""
    from payloads import write_payload_records

    def build(root: Path):
        written = write_payload_records(root / "records")
        site = root / "site"
        with pytest.MonkeyPatch.context() as patch:
            patch.setenv("RELREF_CACHE", "off")
            patch.setattr("relref.records.load.prose_problems", lambda text: [])
            assert build_site(root / "records", site, lock=None) == 0
        return site, written
    return once_per_run(tmp_path_factory, "payloads", build)
