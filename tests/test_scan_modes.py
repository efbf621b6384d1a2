"""The scan's ways of finding and keeping hits give the same result. Finding: each signature
searched through the chunk, or the line mode (lines holding a rare literal tested against all
their signatures in one RE2 set, or one signature at a time when a set is not worth compiling).
Keeping: past STAMPED_HITS, hits are kept per signature and only the kept ones are numbered; the
result must be the one keeping every hit one by one gives."""
import dataclasses
import random

import pytest

from relref.match import load_engine, scan
from relref.match.evaluation import devset_cases
from relref.records.load import load_records


@pytest.fixture(scope="module")
def engine():
    return load_engine()


def _log(seed: int, lines: int) -> str:
    """Every signature example and development paste, mixed with filler and with the cases the
    line mode handles apart: lines over MAX_LINE holding a literal, soft line ends (CR),
    upper-case copies (for the case-blind signatures)."""
    rng = random.Random(seed)
    shapes = [s["example"] for r in load_records() for s in r.data["signatures"] if s.get("example")]
    shapes += [line for c in devset_cases() for line in c.text.splitlines() if line.strip()]
    filler = ["[{t:.6f}] audit: type=1400 op=profile_load pid={n}", "step {n} loss 1.{n} lr 3e-4",
              "node-1:{n}:{n} [0] NCCL INFO Channel 0{d}/0 : 0 -> 1 via P2P/IPC"]
    out = []
    for i in range(lines):
        roll = rng.random()
        if roll < 0.25:
            line = rng.choice(shapes)
        elif roll < 0.27:
            line = "x" * rng.randrange(4000, 9000) + " " + rng.choice(shapes) + " " + "y" * rng.randrange(0, 3000)
        elif roll < 0.29:
            line = rng.choice(shapes).upper()
        elif roll < 0.31:
            line = rng.choice(shapes) + "\r" + rng.choice(shapes)
        else:
            line = rng.choice(filler).format(t=i / 100, n=rng.randrange(10**6), d=rng.randrange(10))
        out.append(line)
    return "\n".join(out)


def _scan(engine, text: str, chunk: int, **compiled) -> dict:
    scanner = scan.Scanner(engine.signatures, scan._Compiled(engine.compiled.signatures, **compiled))
    for piece, cut in scan.chunks(text, size=chunk):
        scanner.feed(piece, cut)
    return dataclasses.asdict(scanner.finish())


@pytest.mark.parametrize("seed, lines, chunk", [(1, 3000, 1 << 20), (2, 40000, 1 << 16), (3, 40000, 1 << 20)])
def test_line_mode_and_chunk_search_find_the_same_hits(engine, seed, lines, chunk, monkeypatch):
    text = _log(seed, lines)
    chunk_wise = _scan(engine, text, chunk, line_budget=0)
    assert sum(chunk_wise["counts"].values()) > scan.STAMPED_HITS or lines < 40000, "past the stamped hits"
    assert chunk_wise["long_lines"] > 0
    # a budget of 4 sends most literals back to the chunk search; set_worth 0 always compiles a set
    for budget in (4, scan.LINE_BUDGET):
        for set_worth in (0, 10**9):
            assert _scan(engine, text, chunk, line_budget=budget, set_worth=set_worth) == chunk_wise, (budget, set_worth)
    monkeypatch.setattr(scan, "STAMPED_HITS", 10**9)  # every hit kept one by one (and its stamp read)
    one_by_one = _scan(engine, text, chunk, line_budget=0)
    for field in ("newest", "last_boot"):  # they read more stamps
        del one_by_one[field], chunk_wise[field]
    assert one_by_one == chunk_wise


def test_the_line_mode_is_taken_and_left(engine):
    """A rare literal goes to the line mode; one on more lines than the budget is searched
    chunk-wise from then on (the test above would pass with either path alone)."""
    xid = "[12.000000] NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus."
    scanner = scan.Scanner(engine.signatures, scan._Compiled(engine.compiled.signatures, line_budget=50))
    taken = []
    split = scanner._split
    scanner._split = lambda data, present: taken.append(split(data, present)) or taken[-1]
    for piece, cut in scan.chunks("\n".join([xid] * 10 + ["filler"] * 1000 + [xid] * 200), size=4096):
        scanner.feed(piece, cut)
    index = next(i for i, s in enumerate(engine.signatures) if s["id"] == "xid-79-fallen-off-bus")
    first_by_chunk, first_lines, _ = taken[0]
    assert index in dict(first_lines) and index not in first_by_chunk
    last_by_chunk, last_lines, _ = taken[-1]
    assert index in last_by_chunk and index not in dict(last_lines)
    assert scanner.finish().counts[index] == 210


@pytest.mark.parametrize("piece", [1, 977, 1 << 16])
def test_one_big_piece_is_chunked_as_the_same_text_streamed_in_pieces(piece):
    """The chunks of a whole text in one piece (the library's `match(text)`) are those of the same
    bytes arriving in pieces (the command's reads): line ends, CRLF, a line longer than a chunk
    and a multi-byte character at the cut all land the same."""
    line = "é" * 3000 + "\r\n" + "step 1 loss 2\n" + "x" * 9000 + "\n"
    data = (line * 40).encode("utf-8")
    whole = list(scan.chunks(data, size=4096))
    streamed = list(scan.chunks((data[i:i + piece] for i in range(0, len(data), piece)), size=4096))
    assert whole == streamed
    assert b"\n".join(c for c, _ in whole).count(b"step 1 loss 2") == 40
    assert all(c.decode("utf-8") for c, _ in whole), "no cut inside a UTF-8 sequence"


def test_bytes_that_are_not_utf8_after_a_cr_are_chunked_not_looped_on():
    """A CR followed by more than a chunk of UTF-8 continuation bytes: the cut once stepped back
    over all of them and the CR to nothing, and yielded an empty chunk forever (`relref match`
    on such a file hung). Every byte arrives once, in chunks of at most the size."""
    data = b"\r" + b"\x80" * (3 * 4096) + b"\nNVRM: Xid 79\n"
    out = list(scan.chunks(data, size=4096))
    assert all(0 < len(c) <= 4096 for c, _ in out)
    assert sum(len(c) for c, _ in out) == len(data) - 1  # all but the last LF


def test_lines_without_an_error_word_or_a_step_literal_are_not_read_one_by_one(engine, monkeypatch):
    """The informative and step-time samples come from the lines a search of the whole chunk finds;
    reading each of a million empty lines, as before, took seconds."""
    read = []
    real = scan.Scanner._step_parts
    monkeypatch.setattr(scan.Scanner, "_step_parts", lambda self, *a, **k: read.append(a) or real(self, *a, **k))
    chunk = b"\n" * 300000 + b"NCCL error: unhandled system error\n" + b"\r" * 300000 + b"step 7 took 2.5 s\n" + b"\n" * 1000
    s = scan.Scanner(engine.signatures, engine.compiled)
    searched = []
    rule = s.compiled.informative
    monkeypatch.setattr(s.compiled, "informative", type("Counted", (), {
        "search": staticmethod(lambda line: searched.append(line) or rule.search(line))})())
    head = s._informative(chunk, 1, scan.INFORMATIVE_KEPT)
    tail = s._informative(chunk, 1, scan.INFORMATIVE_KEPT, from_end=True)
    assert head == tail == [(300001, "NCCL error: unhandled system error")]
    assert len(searched) == 2, "only the line holding the words was read, once each way"
    assert s._steps(chunk, 1) == s._steps(chunk, 1, from_end=True) == [((300002, 300000), "step 7 took 2.5 s")]  # CRs end no line for numbering
    assert len(read) == 2


def test_unicode_spaces_line_ends_and_quotes_normalise_alike_as_bytes_and_as_text():
    from relref.match import text
    rng = random.Random(7)
    alphabet = list(text.SPACES + text.SOFT_ENDS) + [c for forms in text.QUOTES.values() for c in forms] + list("ab \n\r'\"é😀")
    for _ in range(200):
        sample = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 400)))
        assert text.normalise_bytes(sample.encode("utf-8")) == text.normalise_text(sample).encode("utf-8"), repr(sample)


def test_the_error_words_are_plain_words_so_their_shortest_length_is_read_right():
    """The browser's scan passes over lines shorter than INFORMATIVE_LEAST, read off the pattern as
    words: each alternative must stay letters and spaces (and a closing \\b)."""
    import re
    words = scan.INFORMATIVE.split("|")
    assert all(re.fullmatch(r"[a-z ]+(?:\\b)?", word) for word in words), words
    assert scan.INFORMATIVE_LEAST == min(len(w.removesuffix("\\b")) for w in words) == 3


def _every_line(chunk: str, first: int, keep, limit: int, from_end: bool, dedup: bool) -> list:
    """The samples as reading every line gives them (the scan's way before it searched chunks)."""
    numbered = list(enumerate(chunk.split("\n"), first))
    kept, seen = [], set()
    for no, whole in (reversed(numbered) if from_end else numbered):
        parts = list(enumerate(whole.split("\r")))
        for part, line in (reversed(parts) if from_end and not dedup else parts):
            line = line[:4096]
            if keep(line) and not (dedup and line in seen):
                seen.add(line)
                kept.append((no, line) if dedup else ((no, part), line))
                if not dedup and len(kept) >= limit:
                    return kept
        if len(kept) >= limit:
            break
    return kept[:limit]


@pytest.mark.parametrize("seed", range(6))
def test_the_samples_are_those_reading_every_line_gives(engine, seed):
    rng = random.Random(seed)
    units = ["", "step 3 took 2.5 s", "12.3 it/s", "NCCL error: timeout", "x" * 5000 + " fatal", "ok", "a\rerror b",
             "elapsed time per iteration (ms): 812.3", "\r", "warn  " * 3, "é😀 oom"]
    s = scan.Scanner(engine.signatures, engine.compiled)
    for _ in range(40):
        chunk = "\n".join(rng.choice(units) for _ in range(rng.randrange(0, 400)))
        data = chunk.encode("utf-8")
        for from_end in (False, True):
            assert s._informative(data, 5, 20, from_end) == _every_line(
                chunk, 5, lambda line: s.compiled.informative.search(line) is not None, 20, from_end, True)
            assert s._steps(data, 5, from_end) == _every_line(
                chunk, 5, lambda line: any(lit in line for lit in s.compiled.step_literals), scan.STEPS_KEPT, from_end, False)
