"""`relref new`: a record skeleton that validates once every TODO is filled in."""
import datetime
import re
from pathlib import Path

from jinja2 import Environment, FileSystemLoader

from . import paths


def slugify(title: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")
    return slug[:80].rstrip("-") or "reference"


def scaffold(title: str, records_dir: Path) -> Path:
    slug = slugify(title)
    path = Path(records_dir) / f"{slug}.yaml"
    if path.exists():
        raise SystemExit(f"relref: {path} exists already; pick another title or edit it")
    env = Environment(loader=FileSystemLoader(paths.TEMPLATES), keep_trailing_newline=True)
    text = env.get_template("new_record.yaml.j2").render(
        id=slug, title=title.replace('"', '\\"'), today=datetime.date.today().isoformat())
    Path(records_dir).mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
