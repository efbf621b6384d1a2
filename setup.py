"""Packaging hook: a wheel carries the match index prebuilt from references/, so `relref match`
works where it is installed (a cluster node) without the checkout. Everything else is in pyproject.toml."""
import json
import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class BuildPyWithIndex(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the checkout's records directly
        os.environ["RELREF_CACHE"] = "off"  # never write a cache into the source tree from a wheel build
        sys.path.insert(0, str(HERE))  # the source folder `generator` is the package relref
        from generator.match.index import build_index
        from generator.records.load import load_records
        index = build_index(load_records(HERE / "references"))
        if os.environ.get("SITE_URL"):
            index["site_url"] = os.environ["SITE_URL"]
        target = Path(self.build_lib) / "relref" / "match" / "data" / "index.json"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(index, separators=(",", ":")), encoding="utf-8")


setup(cmdclass={"build_py": BuildPyWithIndex})
