"""The match engine: a pasted error or a whole log in, ranked references out.

The public API is these two names; every other module in this folder is internal.

    from relref.match import load_engine
    engine = load_engine()
    result = engine.match(open("job.log").read(), context="DeepSpeed 0.14, 64 H100, Kubernetes")
    result["confident"], [m["id"] for m in result["matches"]]

`engine.match(text, context="", top=5)` takes a str or an iterable of str pieces (read in bounded
memory) and returns the object `relref match --json` prints (schema/match-result.schema.json).
"""
from .engine import Engine
from .load import load_engine

__all__ = ["Engine", "load_engine"]
