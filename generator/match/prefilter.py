"""Which of the signatures' literals occur in a chunk: the scan's first pass over every byte.

Hyperscan's literal compiler (python-hyperscan, which bundles the library) where its wheel exists,
else one RE2 set of the literals. Both report the same literals (tests/test_prefilter.py). On 1 MiB
chunks of the three benchmark logs Hyperscan took 0.28-0.39 ms against the RE2 set's 1.62-1.81 ms,
the larger part of a chunk's scan (bench/RESULTS.md, issue 14); the browser engine has its own
automaton (scan.js).
"""
import re2

try:  # a wheel for x86-64 Linux, macOS and Windows; none for Linux on ARM, where RE2 serves
    import hyperscan
except ImportError:  # pragma: no cover - depends on the platform
    hyperscan = None

ENGINES = ("hyperscan", "re2") if hyperscan is not None else ("re2",)


class LiteralSet:
    """`literals`: (text, ignore_case) pairs; found(chunk) gives the positions of those in it."""

    def __init__(self, literals: list, engine: str = ENGINES[0]):
        if engine not in ENGINES:
            raise ValueError(f"no prefilter engine {engine!r} here (have {', '.join(ENGINES)})")
        self.engine = engine
        if engine == "hyperscan":
            self._db = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
            # SINGLEMATCH: one report per literal, so a chunk costs at most one callback per literal.
            flags = [hyperscan.HS_FLAG_SINGLEMATCH | (hyperscan.HS_FLAG_CASELESS if ignore_case else 0)
                     for _, ignore_case in literals]
            self._db.compile(expressions=[text.encode("utf-8") for text, _ in literals],
                             ids=list(range(len(literals))), elements=len(literals), flags=flags, literal=True)
            self._scratch = hyperscan.Scratch(self._db)
        else:
            options = re2.Options()
            options.never_nl = True
            self._set = re2.Set.SearchSet(options)
            for text, ignore_case in literals:
                self._set.Add(("(?i)" if ignore_case else "") + re2.escape(text))
            self._set.Compile()

    def found(self, chunk: bytes) -> list[int]:
        if self.engine == "re2":
            return sorted(set(self._set.Match(chunk) or ()))
        seen: set = set()

        def report(index, start, end, flags, context):
            seen.add(index)
            return 0  # go on: every literal present is wanted

        self._db.scan(chunk, match_event_handler=report, scratch=self._scratch)
        return sorted(seen)
