"""Where things live in the repository."""
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "references"
SCHEMA = ROOT / "schema" / "reference.schema.json"
CODES = ROOT / "codes"
CODES_SCHEMA = ROOT / "schema" / "codes.schema.json"
PLANNED_REFERENCES = ROOT / "tests" / "data" / "planned-references.yaml"
URL_LOCK = ROOT / "urls.lock"
TEMPLATES = ROOT / "templates"
DOCS_STATIC = ROOT / "docs"
MKDOCS_YML = ROOT / "mkdocs.yml"
BUILD = ROOT / "build"

DEFAULT_SITE_URL = "http://127.0.0.1:8000/"


def site_url(default: str | None = None) -> str:
    """One setting: SITE_URL in the environment (mkdocs.yml reads the same variable)."""
    return os.environ.get("SITE_URL", default or DEFAULT_SITE_URL)
