"""Redaction of pasted logs before anyone shares them: IP addresses, host names, user names in home
paths, tokens and cloud keys, e-mail addresses.

The rules are data (RULES below), written once here. The browser's twin,
docs/assets/javascripts/match/redact.js, carries the same table as JSON, generated from this file
(`python -m relref.match.redact --write-js`; a test fails when the two differ), and
tests/data/redact-vectors.json holds the cases both must give alike. The patterns use only the part
of regular-expression syntax that Python's `re` (with re.ASCII) and JavaScript's RegExp (without the
u flag) read the same way: ASCII classes written out, fixed-width lookbehind, no `.`.

How a text is redacted (redact.js does the same steps):
1. every rule finds its matches (a rule's `group` says which part is secret, 0 for all of it);
   a match overlapping one found by an earlier rule is dropped, so the order of RULES matters;
   a value in its kind's `keep` list (or a host under one) is left alone;
2. a value found is also redacted where else it appears as a whole word (see REPEAT), so a host
   name found in an NCCL prefix goes from every line that names it;
3. each distinct value becomes a numbered placeholder of its kind (`<host-1>`, `<host-2>`), numbered
   in order of first appearance, the same value always giving the same placeholder.
A kind can be left out (the pages' "undo"): its matches are still found, so no other rule takes
their text, but they are not replaced.
"""
import json
import re
import sys
from pathlib import Path

SECRET_VALUE = "[^ \\t\\r\\n\"',;&<>]"
HOST_LABEL = "[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
HEX4 = "[0-9A-Fa-f]{1,4}"
# Public hosts name no one's cluster, and a log quoting them says where a download failed.
PUBLIC_HOSTS = ["github.com", "githubusercontent.com", "huggingface.co", "hf.co", "pytorch.org", "python.org",
                "pypi.org", "nvidia.com", "nvcr.io", "anaconda.org", "conda.io", "readthedocs.io", "wandb.ai",
                "tensorflow.org", "docker.io", "docker.com", "example.com", "example.org", "example.net"]

KINDS = [
    {"kind": "token", "placeholder": "secret", "label": "Tokens, keys and passwords"},
    {"kind": "email", "placeholder": "email", "label": "E-mail addresses"},
    # Loopback names no host; some distributions map the host's own name to 127.0.1.1 in /etc/hosts.
    {"kind": "ip", "placeholder": "ip", "label": "IP addresses", "keep": ["127.0.0.1", "127.0.1.1", "0.0.0.0"]},
    {"kind": "host", "placeholder": "host", "label": "Host names", "keep": PUBLIC_HOSTS},
    {"kind": "home", "placeholder": "user", "label": "User names in home paths"},
]

RULES = [
    # Tokens and keys first: their text may hold an e-mail address or a host name.
    {"id": "private-key-block", "kind": "token",
     "pattern": "-----BEGIN [A-Z ]*PRIVATE KEY-----[\\s\\S]*?-----END [A-Z ]*PRIVATE KEY-----"},
    {"id": "url-credentials", "kind": "token", "group": 1,
     "pattern": "[A-Za-z][A-Za-z0-9+-]*://([^/ \\t\\r\\n:@]+:[^/ \\t\\r\\n@]+)@"},
    {"id": "huggingface-token", "kind": "token", "pattern": "(?<![A-Za-z0-9_])hf_[A-Za-z0-9]{30,}"},
    {"id": "github-token", "kind": "token",
     "pattern": "(?<![A-Za-z0-9_])(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})"},
    {"id": "slack-token", "kind": "token", "pattern": "(?<![A-Za-z0-9_])xox[abposr]-[A-Za-z0-9-]{10,}"},
    {"id": "openai-style-key", "kind": "token", "pattern": "(?<![A-Za-z0-9_-])sk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}"},
    {"id": "aws-access-key-id", "kind": "token", "pattern": "(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])"},
    {"id": "google-api-key", "kind": "token", "pattern": "(?<![A-Za-z0-9_-])AIza[A-Za-z0-9_-]{35}"},
    {"id": "google-oauth-token", "kind": "token", "pattern": "(?<![A-Za-z0-9_-])ya29\\.[A-Za-z0-9_-]{20,}"},
    {"id": "jwt", "kind": "token",
     "pattern": "(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}"},
    {"id": "authorization-header", "kind": "token", "group": 1,
     "pattern": "(?<![A-Za-z0-9_])(?:Bearer|Basic) +([A-Za-z0-9._~+/-]{16,}=*)"},
    {"id": "sas-signature", "kind": "token", "group": 1, "pattern": "[?&]sig=([A-Za-z0-9%+/=]{16,})"},
    {"id": "key-value-secret", "kind": "token", "group": 1, "flags": "i",
     "pattern": "(?<![A-Za-z0-9_-])(?:[A-Za-z0-9]+[_-])*(?:api[_-]?key|apikey|token|secret|password|passwd|"
                "access[_-]?key|account[_-]?key|private[_-]?key|credentials?)[\"']?[ \\t]*[=:][ \\t]*[\"']?("
                + SECRET_VALUE + "{8,})"},
    {"id": "email", "kind": "email",
     "pattern": "(?<![A-Za-z0-9._%+-])[A-Za-z0-9._%+-]+@" + HOST_LABEL + "(?:\\." + HOST_LABEL + ")*\\.[A-Za-z]{2,}"
                "(?![A-Za-z0-9-])"},
    # Addresses. A version with four parts (cuDNN 8.9.7.29) looks like an IPv4 address: the pages
    # let the reader put IP addresses back.
    {"id": "ipv4", "kind": "ip",
     "pattern": "(?<![0-9A-Za-z._-])(?:" + OCTET + "\\.){3}" + OCTET + "(?![0-9])(?!\\.[0-9])"},
    {"id": "ipv6", "kind": "ip",
     "pattern": "(?<![0-9A-Fa-f:])(?:(?:" + HEX4 + ":){7}" + HEX4 + "|(?:" + HEX4 + ":){1,6}:(?:" + HEX4 +
                "(?::" + HEX4 + "){0,5})?)(?![0-9A-Za-z:])"},
    # Host names where logs put them, then any name under a common domain suffix.
    {"id": "aws-host", "kind": "host",
     "pattern": "(?<![A-Za-z0-9-])ip-[0-9]{1,3}-[0-9]{1,3}-[0-9]{1,3}-[0-9]{1,3}(?:\\." + HOST_LABEL + ")*"},
    {"id": "nccl-prefix", "kind": "host", "group": 1, "flags": "m",
     "pattern": "^[ \\t]*([A-Za-z0-9][A-Za-z0-9._-]*):[0-9]+:[0-9]+ \\[[0-9]+\\]"},
    {"id": "syslog-host", "kind": "host", "group": 1, "flags": "m",
     "pattern": "^(?:[A-Z][a-z]{2} [ 0-9][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2}|[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+"
                "(?:Z|[+-][0-9]{2}:?[0-9]{2})?) ([A-Za-z0-9][A-Za-z0-9._-]*) [A-Za-z0-9_./-]+(?:\\[[0-9]+\\])?:"},
    {"id": "slurm-node", "kind": "host", "group": 1,
     "pattern": "\\*\\*\\* (?:JOB|STEP) [0-9.]+ ON ([A-Za-z0-9._-]+) CANCELLED"},
    {"id": "shell-prompt", "kind": "host",
     "pattern": "(?<![A-Za-z0-9._%+-])[A-Za-z0-9._-]+@[A-Za-z0-9][A-Za-z0-9-]*(?=[ :~])"},
    {"id": "host-setting", "kind": "host", "group": 1, "flags": "i",
     "pattern": "(?<![A-Za-z0-9_])(?:host(?:name)?|node(?:name|list)?|master_addr)[ \\t]*[=:][ \\t]*[\"'\\[]?"
                "([A-Za-z][A-Za-z0-9-]*(?:\\." + HOST_LABEL + ")*)"},
    {"id": "domain-name", "kind": "host", "flags": "i",
     "pattern": "(?<![A-Za-z0-9._%+-])(?:" + HOST_LABEL + "\\.)+(?:com|net|org|io|ai|dev|edu|gov|mil|cloud|local|"
                "localdomain|internal|intra|intranet|lan|corp|cluster|svc|home|site|app|co|us|uk|de|fr|cn|jp|kr|"
                "in|ca|au|eu|ch|nl|se)(?![A-Za-z0-9_-])(?!\\.[A-Za-z0-9])"},
    {"id": "home-path", "kind": "home", "group": 1,
     "pattern": "(?:/home|/Users|/usr/home|/scratch)/([A-Za-z0-9_][A-Za-z0-9._-]*)"},
    {"id": "windows-home-path", "kind": "home", "group": 1, "flags": "i",
     "pattern": "[A-Za-z]:\\\\Users\\\\([A-Za-z0-9._ -]+?)(?=\\\\)"},
]

# A value found is also redacted wherever else it appears as a whole word, if it is this long and
# holds a digit or a separator: `gpu-node-017` or `cn119` are names, while `gpu` or `user` found in
# one place are also plain words the log uses elsewhere.
REPEAT = {"min_length": 4, "pattern": "[0-9._@-]"}
WORD = "[A-Za-z0-9_-]"
PLACEHOLDER = {k["kind"]: k["placeholder"] for k in KINDS}


def _compile(rule: dict):
    flags = re.ASCII | (re.IGNORECASE if "i" in rule.get("flags", "") else 0) | \
        (re.MULTILINE if "m" in rule.get("flags", "") else 0)
    return re.compile(rule["pattern"], flags)


COMPILED = [(rule, _compile(rule)) for rule in RULES]


KEEP = {k["kind"]: k.get("keep", []) for k in KINDS}
WORD_RX = re.compile(WORD, re.ASCII)
REPEAT_RX = re.compile(REPEAT["pattern"], re.ASCII)


def _kept(kind: str, value: str) -> bool:
    value = value.lower()
    return any(value == k or value.endswith("." + k) for k in KEEP[kind])


def _repeats(value: str) -> bool:
    return len(value) >= REPEAT["min_length"] and REPEAT_RX.search(value) is not None


class Redactor:
    """Redacts one text or several (the lines of one result), numbering placeholders across them.
    `skip`: kinds found but left as they are."""

    def __init__(self, skip=()):
        self.skip = set(skip)
        self.names = {}      # (kind, value) -> placeholder
        self.counts = {}     # kind -> placeholders given
        self.found = []      # [{kind, value, placeholder}] in order of first appearance

    def spans(self, text: str) -> list:
        taken = []  # (start, end, kind)
        for rule, rx in COMPILED:
            group = rule.get("group", 0)
            for m in rx.finditer(text):
                start, end = m.span(group)
                if start < 0 or start == end or _kept(rule["kind"], text[start:end]):
                    continue
                if not any(start < e and s < end for s, e, _ in taken):
                    taken.append((start, end, rule["kind"]))
        known = {value: kind for (kind, value) in self.names}
        known.update({text[s:e]: kind for s, e, kind in taken})
        for value, kind in known.items():  # step 2: the same value elsewhere, as a whole word
            if not _repeats(value):
                continue
            at = text.find(value)
            while at != -1:
                end = at + len(value)
                whole = (at == 0 or not WORD_RX.match(text[at - 1])) and (end == len(text) or not WORD_RX.match(text[end]))
                if whole and not any(at < e and s < end for s, e, _ in taken):
                    taken.append((at, end, kind))
                at = text.find(value, at + 1)
        return sorted(taken)

    def redact(self, text: str) -> str:
        out, pos = [], 0
        for start, end, kind in self.spans(text):
            value = text[start:end]
            name = self.names.get((kind, value))
            if name is None:
                self.counts[kind] = self.counts.get(kind, 0) + 1
                name = f"<{PLACEHOLDER[kind]}-{self.counts[kind]}>"
                self.names[(kind, value)] = name
                self.found.append({"kind": kind, "value": value, "placeholder": name})
            out.append(text[pos:start])
            out.append(value if kind in self.skip else name)
            pos = end
        out.append(text[pos:])
        return "".join(out)


def redact(text: str, skip=()) -> tuple[str, list]:
    """(the redacted text, what was found: [{kind, value, placeholder}])."""
    r = Redactor(skip)
    return r.redact(text), r.found


def redact_result(result: dict, skip=()) -> dict:
    """A copy of a match result with the pasted text it quotes (matched lines, warnings) redacted:
    what `relref match --redact` prints, and what the pages copy."""
    r = Redactor(skip)
    out = json.loads(json.dumps(result))
    for m in out.get("matches", []) + out.get("further_reading", []):
        for w in m.get("why", []):
            if w.get("kind") == "signature":
                w["text"] = r.redact(w["text"])
    for w in out.get("warnings", []):
        w["text"] = r.redact(w["text"])
    return out


# The browser's copy: redact.js holds this JSON between these two lines.
JS_FILE = Path(__file__).resolve().parent.parent.parent / "docs" / "assets" / "javascripts" / "match" / "redact.js"
JS_BEGIN = "  // BEGIN RULES: generated by `python -m relref.match.redact --write-js` from generator/match/redact.py"
JS_END = "  // END RULES"


def rules_json() -> str:
    return json.dumps({"kinds": KINDS, "rules": RULES, "repeat": REPEAT, "word": WORD}, indent=1)


def js_rules_block() -> str:
    return f"{JS_BEGIN}\n  var TABLE = {rules_json()};\n{JS_END}"


def write_js(path: Path = JS_FILE) -> None:
    text = path.read_text(encoding="utf-8")
    head, rest = text.split(JS_BEGIN, 1)
    _, tail = rest.split(JS_END, 1)
    path.write_text(head + js_rules_block() + tail, encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write-js"]:
        write_js()
    else:
        text = sys.stdin.read()
        sys.stdout.write(redact(text)[0])
