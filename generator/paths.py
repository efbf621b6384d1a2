"""Where things live in the repository."""
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORDS = ROOT / "references"
SCHEMA = ROOT / "schema" / "reference.schema.json"
TEMPLATES = ROOT / "templates"
DOCS_STATIC = ROOT / "docs"
MKDOCS_YML = ROOT / "mkdocs.yml"
BUILD = ROOT / "build"
