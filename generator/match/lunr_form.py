"""The lunr index as the match index carries it, and back. Twin: `expandLunr` in
docs/assets/javascripts/match/engine.js.

lunr's own serialisation writes every term's postings and every field vector's weights, though
both follow from how often each term occurs in each field: the postings say which fields hold a
term, and a weight is lunr's BM25 of the term's count, the field's length and the term's
document frequency. The carried form keeps only those counts (for each field of each document, its
terms by number in sorted order, each written as the step from the one before it, with its count)
and the sorted terms and field boosts; `expand` computes what lunr's `Index.load` reads, in lunr.py
and lunr.js alike, with lunr.py's arithmetic in the same order so that both engines get the same
weights, bit for bit, as lunr.py's builder (tests/test_lunr_form.py). Counts are small integers,
mostly 1: they take half the bytes of the weights.
"""
import math

VERSION = "2.3.9"   # the lunr release whose Index.load reads the expanded form (vendored lunr.js, pinned lunr.py)
K1, B = 1.2, 0.75   # lunr's BM25 parameters (its builder's defaults)
# lunr writes three decimals of each term's weight; two change no answer on the development set or
# the third-party corpus, and save a seventh of the vectors.
SCORE_DIGITS = 2


def compact(docs: list[dict], fields: list[tuple[str, int]], ref: str = "id") -> dict:
    """The carried form of a lunr index over `docs`, whose fields (name, boost) hold lists of terms,
    read as lunr's builder reads a list: each element a term, lowercased."""
    names = [name for name, _ in fields]
    counts = []
    for doc in docs:
        for number, name in enumerate(names):
            tally: dict = {}
            for term in doc.get(name) or ():
                term = str(term).lower()
                tally[term] = tally.get(term, 0) + 1
            counts.append((number, doc[ref], tally))
    terms = sorted({term for _, _, tally in counts for term in tally})
    place = {term: i for i, term in enumerate(terms)}
    refs = list(dict.fromkeys(doc[ref] for doc in docs))
    number = {r: i for i, r in enumerate(refs)}
    vectors = []
    for field_number, doc_ref, tally in counts:
        pairs = sorted((place[term], count) for term, count in tally.items())
        steps = [pair[0] - before[0] for pair, before in zip(pairs, [(0, 0)] + pairs)]
        vectors.append([field_number, number[doc_ref], [x for step, (_, count) in zip(steps, pairs) for x in (step, count)]])
    return {"version": VERSION, "fields": names, "boosts": [boost for _, boost in fields], "refs": refs,
            "terms": terms, "vectors": vectors, "pipeline": []}


def expand(carried: dict) -> dict:
    """What lunr's Index.load reads: postings and weighted field vectors, from the counts."""
    fields, refs, terms, boosts = carried["fields"], carried["refs"], carried["terms"], carried["boosts"]
    postings = [{field: {} for field in fields} for _ in terms]
    held = [0] * len(terms)                  # fields of documents holding each term
    total, seen = [0] * len(fields), [0] * len(fields)
    read = []
    for field_number, ref_number, steps in carried["vectors"]:
        field, ref = fields[field_number], refs[ref_number]
        pairs, term_number = [], 0
        for i in range(0, len(steps), 2):
            term_number += steps[i]
            pairs.append((term_number, steps[i + 1]))
            postings[term_number][field][ref] = {}
            held[term_number] += 1
        length = sum(count for _, count in pairs)
        total[field_number] += length
        seen[field_number] += 1
        read.append((field_number, f"{field}/{ref}", length, pairs))
    average = [t / n if n else 0 for t, n in zip(total, seen)]
    count = len(refs)
    idf = [math.log(1 + abs((count - h + 0.5) / (h + 0.5))) for h in held]
    vectors = []
    for field_number, field_ref, length, pairs in read:
        norm = K1 * (1 - B + B * (length / average[field_number]))
        boost, elements = boosts[field_number], []
        for term_number, tf in pairs:
            elements.append(term_number)
            elements.append(round(round(idf[term_number] * ((K1 + 1) * tf) / (norm + tf) * boost, 3), SCORE_DIGITS))
        vectors.append([field_ref, elements])
    inverted = [[term, dict(posting, _index=i)] for i, (term, posting) in enumerate(zip(terms, postings))]
    return {"version": carried["version"], "fields": fields, "fieldVectors": vectors, "invertedIndex": inverted,
            "pipeline": carried["pipeline"]}
