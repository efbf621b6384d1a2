"""The parts of an answer both engines must agree on (tests/js/run_engine.js prints the same)."""


def summary(r: dict) -> dict:
    return {
        "verdict": r["verdict"], "confident": r["confident"], "answer": r["answer"], "hints": r["hints"],
        "warnings": [w["text"] for w in r["warnings"]], "cues": [c["id"] + ("!" if c["negated"] else "") for c in r["cues"]],
        "top": [[m["id"], m["confidence"], m["score"], [c["id"] + "@" + ",".join(map(str, c["lines"])) for c in m["causes"]]]
                for m in r["matches"]],
        "lines": [[f"{w['signature']}:{','.join(map(str, w['lines']))}:{w['text']}" for w in m["why"] if w["kind"] == "signature"]
                  for m in r["matches"]],
        "words": [next((w["terms"] for w in m["why"] if w["kind"] == "words"), []) for m in r["matches"]],
        "further": [m["id"] for m in r["further_reading"]],
        "next": [f"{c['reference']}#{c['id']}" for c in r["next_checks"]],
        "findings": [[m["id"] for m in f["matches"]] for f in r["findings"]],
        "codes": [f"{c['kind']}:{c['code']}@{','.join(map(str, c['lines']))}" for c in r["codes"]],
        "readings": [f"{x['id']}@{x['line']}:{x['text']}:{x['reason']}" for x in r["readings"]],
        "context": [[("+" if w["fit"] else "-") + w["text"] for w in m["why"] if w["kind"] == "context"] for m in r["matches"]],
    }
