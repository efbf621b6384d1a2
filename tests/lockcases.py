"""Edits to a copy of the records that the URL lock must survive (rename, retire) or catch (delete)."""
import re
from pathlib import Path

from relref.records.load import load_records


def unreferenced_ids(records) -> list[str]:
    """Ids no other record points at, so removing or renaming one leaves the others valid."""
    pointed = set()
    for r in records:
        pointed |= {a["ref"] for a in r.data.get("look_alikes", []) if "ref" in a}
        pointed |= {o for s in r.data["signatures"] for o in s.get("overlaps", [])}
        pointed |= {r.data["successor"]} if "successor" in r.data else set()
    return [r.id for r in records if r.id not in pointed and not r.data.get("aliases")]


def _set_after_id(path: Path, old_id: str, lines: str, new_id: str | None = None) -> None:
    text = path.read_text(encoding="utf-8")
    new_text = re.sub(rf"^id: {re.escape(old_id)}$", f"id: {new_id or old_id}\n{lines}", text, count=1, flags=re.M)
    assert new_text != text, f"no id line in {path}"
    path.write_text(new_text, encoding="utf-8")


def rename_and_retire(records_dir: Path) -> dict:
    """Rename one reference (its old id kept in aliases) and retire another; returns what changed."""
    records = load_records(records_dir)
    by_id = {r.id: r for r in records}
    free = unreferenced_ids(records)
    old, retired = free[0], free[1]
    new = f"{old}-renamed"
    _set_after_id(records_dir / f"{old}.yaml", old, f"aliases: [{old}]", new_id=new)
    (records_dir / f"{old}.yaml").rename(records_dir / f"{new}.yaml")
    successor = next(r.id for r in records if r.id not in (old, retired))
    _set_after_id(records_dir / f"{retired}.yaml", retired, f"status: retired\nsuccessor: {successor}")
    return {"old": old, "new": new, "cause": by_id[old].data["causes"][-1]["id"],
            "retired": retired, "successor": successor}
