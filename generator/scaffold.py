"""`relref new`: a record skeleton that validates once every TODO is filled in."""
import datetime
import re
from pathlib import Path

import yaml
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
    # The skeleton is a template for its comments; the title is a YAML scalar written by the YAML
    # library, so a backslash or a quote in it reads back as typed.
    text = env.get_template("new_record.yaml.j2").render(
        id=slug, title=_scalar(title), today=datetime.date.today().isoformat())
    if yaml.safe_load(text)["title"] != title:
        raise SystemExit(f"relref: cannot write the title {title!r} so that it reads back the same")
    Path(records_dir).mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def _scalar(value: str) -> str:
    return yaml.safe_dump(value, default_style='"', allow_unicode=True, width=1 << 30).rstrip("\n")
