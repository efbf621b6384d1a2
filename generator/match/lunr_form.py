"""The lunr index as the match index carries it, and back. Twin: `expandLunr` in
docs/assets/javascripts/match/engine.js.

lunr's own serialisation writes every term's postings beside the field vectors, though the
vectors already say which documents hold which terms: the postings were a fifth of the match
index (gzip, 56 of 262 KB for 48 references). The carried form keeps the vectors (term numbers renumbered to the terms' sorted order, each
written as the step from the one before it; documents and fields by number) and the sorted terms;
`expand` rebuilds what lunr's `Index.load` reads, in lunr.py and lunr.js alike.
"""

# lunr writes three decimals of each term's weight; two change no answer on the development set or
# the third-party corpus, and save a seventh of the vectors.
SCORE_DIGITS = 2


def compact(built: dict) -> dict:
    """lunr's serialised index (postings without metadata, as ours are) in the carried form."""
    fields = built["fields"]
    terms = [term for term, _ in built["invertedIndex"]]
    place = {posting["_index"]: i for i, (_, posting) in enumerate(built["invertedIndex"])}
    refs = list(dict.fromkeys(field_ref.split("/", 1)[1] for field_ref, _ in built["fieldVectors"]))
    number = {ref: i for i, ref in enumerate(refs)}
    vectors = []
    for field_ref, elements in built["fieldVectors"]:
        field, ref = field_ref.split("/", 1)
        pairs = sorted((place[elements[i]], elements[i + 1]) for i in range(0, len(elements), 2))
        steps = [pair[0] - before[0] for pair, before in zip(pairs, [(0, 0)] + pairs)]
        carried = [x for step, (_, score) in zip(steps, pairs) for x in (step, round(score, SCORE_DIGITS))]
        vectors.append([fields.index(field), number[ref], carried])
    return {"version": built["version"], "fields": fields, "refs": refs, "terms": terms, "vectors": vectors,
            "pipeline": built["pipeline"]}


def expand(carried: dict) -> dict:
    """What lunr's Index.load reads: the postings rebuilt from the vectors."""
    fields, refs, terms = carried["fields"], carried["refs"], carried["terms"]
    postings = [{field: {} for field in fields} for _ in terms]
    vectors = []
    for field_number, ref_number, steps in carried["vectors"]:
        field, ref = fields[field_number], refs[ref_number]
        elements, term_number = [], 0
        for i in range(0, len(steps), 2):
            term_number += steps[i]
            elements += [term_number, steps[i + 1]]
            postings[term_number][field][ref] = {}
        vectors.append([f"{field}/{ref}", elements])
    inverted = [[term, dict(posting, _index=i)] for i, (term, posting) in enumerate(zip(terms, postings))]
    return {"version": carried["version"], "fields": fields, "fieldVectors": vectors, "invertedIndex": inverted,
            "pipeline": carried["pipeline"]}
