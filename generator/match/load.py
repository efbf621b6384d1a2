"""Where the engine's index comes from: a file, the index packaged in an installed wheel, or one
built now from a checkout's records."""
import json
from importlib import resources
from pathlib import Path

from .. import paths
from .engine import Engine

PACKAGED = "data/index.json"  # written into the wheel by setup.py; absent in a checkout


def load_engine(index_path: Path | None = None, records_dir: Path | None = None) -> Engine:
    """The engine over `index_path`; else over records_dir's records (default: the checkout's
    references/); else, installed without a checkout, over the index packaged with the wheel."""
    if index_path is not None:
        return Engine(_read(Path(index_path).read_text(encoding="utf-8")), paths.site_url())
    records_dir = Path(records_dir) if records_dir is not None else paths.RECORDS
    if records_dir.is_dir() or records_dir != paths.RECORDS:
        from ..records.load import load_records  # only a checkout builds its index: it needs the records stage
        from .index import build_index
        return Engine(build_index(load_records(records_dir)), paths.site_url())
    packaged = resources.files(__package__).joinpath(PACKAGED)
    if not packaged.is_file():
        raise FileNotFoundError(f"no records at {records_dir} and no match index packaged with this install")
    index = _read(packaged.read_text(encoding="utf-8"))
    return Engine(index, paths.site_url(index.get("site_url")))


def _read(text: str) -> dict:
    index = json.loads(text)
    if not isinstance(index, dict) or "references" not in index:
        raise ValueError("not a match index")
    return index
