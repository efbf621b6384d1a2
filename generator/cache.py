"""A content-addressed cache under build/cache: work whose inputs have not changed is not redone.

A key hashes every input of the work (the file's bytes, the schema, the generator's own source),
so an entry can only be used by a build that would compute the same value. Set RELREF_CACHE=off
to bypass it; delete build/cache to empty it.
"""
import functools
import hashlib
import json
import os
import tempfile
from pathlib import Path

from . import paths


def enabled() -> bool:
    return os.environ.get("RELREF_CACHE", "on") != "off"


def folder() -> Path:
    return Path(os.environ.get("RELREF_CACHE_DIR", paths.BUILD / "cache"))


@functools.lru_cache(maxsize=None)
def _code_version() -> str:
    digest = hashlib.sha256()
    for source in sorted(Path(__file__).parent.rglob("*.py")) + [paths.SCHEMA]:
        digest.update(source.read_bytes())
    return digest.hexdigest()


def key(*parts) -> str:
    digest = hashlib.sha256(_code_version().encode())
    for part in parts:
        digest.update(part if isinstance(part, bytes) else str(part).encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()


def get(kind: str, k: str):
    if not enabled():
        return None
    try:
        return json.loads((folder() / kind / f"{k}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def put(kind: str, k: str, value) -> None:
    if not enabled():
        return
    target = folder() / kind
    try:
        target.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=target, delete=False, suffix=".tmp", encoding="utf-8") as out:
            json.dump(value, out, separators=(",", ":"))
        os.replace(out.name, target / f"{k}.json")  # atomic: a reader never sees half an entry
    except OSError:
        pass  # a cache that cannot be written only costs time
