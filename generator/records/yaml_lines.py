"""Load YAML keeping the line of every value, so problems can name FILE:LINE.

PyYAML's compose() gives nodes with positions; we build plain Python values from
them ourselves, recording each path's line and rejecting what a record never needs
and PyYAML would otherwise accept quietly or crash on: duplicate keys (silently
overwritten), keys that are not text (`on:` is true and `1:` is a number in YAML 1.1),
aliases (a few hundred bytes of them expand to gigabytes), merge keys and tags, and a plain value
cut short by " #123" (YAML reads the rest of the line as a comment, so the text is lost without a word).
"""
import datetime
import re

import yaml

from .problems import field_name

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml is ~20x faster where the wheel has it
TAG = "tag:yaml.org,2002:"
# The tags plain YAML resolves to by itself. Anything else was written as a tag (!!binary,
# !!set, !foo) or is a merge key, and no record field needs one.
PLAIN_TAGS = {TAG + t for t in ("str", "int", "float", "bool", "null", "timestamp", "map", "seq")}
# One space, then "#" and a word ("PR #123", "#L42"): text that YAML reads as a comment. A comment
# meant as one ("kind: error  # or symptom", as the scaffold writes them) has two spaces and a space
# after the "#". Records' own text, never a paste: Python re is fine here.
COMMENT_NEXT = re.compile(r" #[^\s#]")
READ_AS = {"int": "a number", "float": "a number", "bool": "true or false", "null": "null",
           "timestamp": "a date"}


class YamlProblem(Exception):
    def __init__(self, line: int, field: str, message: str):
        self.line, self.field, self.message = line, field, message
        super().__init__(message)


def load_with_lines(text: str):
    """Return (data, lines): lines maps a path tuple to its 1-based line."""
    try:
        node = yaml.compose(text, Loader=LOADER)
    except yaml.reader.ReaderError as exc:
        # The reader gives a character position, not a mark: count the lines before it.
        line = text.count("\n", 0, exc.position) + 1
        char = ord(exc.character) if isinstance(exc.character, str) else exc.character
        raise YamlProblem(line, "(yaml)", f"character U+{char:04X} is not allowed in YAML "
                                          f"({exc.reason}); write it as an escape in a double-quoted string") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else 1
        raise YamlProblem(line, "(yaml)", f"YAML syntax: {getattr(exc, 'problem', exc)}") from None
    except RecursionError:
        raise YamlProblem(1, "(yaml)", "YAML nested too deeply") from None
    lines: dict = {}
    if node is None:
        return None, lines
    builder = _Builder(text, lines)
    return builder.build(node, ()), lines


class _Builder:
    def __init__(self, text: str, lines: dict):
        self.text, self.lines, self.seen = text, lines, set()
        self._lines = None  # the text's lines, split only when a plain value needs looking past
        self.constructor = yaml.SafeLoader("")

    def build(self, node, path):
        # compose() resolves an alias to the very node it names, so meeting a node twice is an alias.
        if id(node) in self.seen:
            line, name = self._alias_at(node)
            raise YamlProblem(line, field_name(path), f"YAML alias *{name}: records use no anchors or aliases; "
                                                  "write the value out")
        self.seen.add(id(node))
        self.lines[path] = node.start_mark.line + 1
        if node.tag not in PLAIN_TAGS:
            raise YamlProblem(node.start_mark.line + 1, field_name(path), f"YAML tag {node.tag!r}: records use no tags")
        if isinstance(node, yaml.MappingNode):
            return self._mapping(node, path)
        if isinstance(node, yaml.SequenceNode):
            return [self.build(item, path + (i,)) for i, item in enumerate(node.value)]
        try:
            value = self.constructor.construct_object(node, deep=True)
        except (ValueError, yaml.YAMLError) as exc:
            raise YamlProblem(node.start_mark.line + 1, field_name(path),
                              f"cannot read value {node.value!r}: {exc}") from None
        if not node.style and self._comment_after(node.end_mark):
            raise YamlProblem(node.end_mark.line + 1, field_name(path), "the value stops at \" #\": YAML reads the "
                              "rest of the line as a comment and drops it; quote the value or write it as a >- block")
        if isinstance(value, (datetime.date, datetime.datetime)):
            return value.isoformat()[:10]  # dates stay strings, as JSON Schema sees them
        return value

    def _comment_after(self, mark) -> bool:
        """A plain scalar ends where a comment starts: does one that reads as text follow this value?"""
        if self._lines is None:
            self._lines = self.text.splitlines()
        return mark.line < len(self._lines) and COMMENT_NEXT.match(self._lines[mark.line], mark.column) is not None

    def _mapping(self, node, path):
        out = {}
        for key_node, value_node in node.value:
            key = self._key(key_node, path)
            if key in out:
                raise YamlProblem(key_node.start_mark.line + 1, field_name(path + (key,)), "duplicate key")
            child = path + (key,)
            out[key] = self.build(value_node, child)
            self.lines[child] = key_node.start_mark.line + 1
        return out

    def _key(self, key_node, path) -> str:
        line = key_node.start_mark.line + 1
        if key_node.tag == TAG + "merge":
            raise YamlProblem(line, field_name(path + ("<<",)), "YAML merge key <<: records use none; write the fields out")
        if not isinstance(key_node, yaml.ScalarNode):
            raise YamlProblem(line, field_name(path), "a key must be a name, not a list or a mapping")
        if key_node.tag not in PLAIN_TAGS:
            raise YamlProblem(line, field_name(path + (key_node.value,)), f"YAML tag {key_node.tag!r}: records use no tags")
        if key_node.tag != TAG + "str":
            what = READ_AS.get(key_node.tag[len(TAG):], "something else")
            raise YamlProblem(line, field_name(path + (key_node.value,)), f"YAML reads the key {key_node.value!r} "
                              f"as {what}, not a name; quote it if it is meant")
        if id(key_node) in self.seen:
            alias_line, name = self._alias_at(key_node)
            raise YamlProblem(alias_line, field_name(path), f"YAML alias *{name}: records use no anchors or aliases")
        self.seen.add(id(key_node))
        return key_node.value

    def _alias_at(self, node):
        """The line and name of the first alias in the text: only read when one was met, so the
        common case parses once."""
        for event in yaml.parse(self.text, Loader=LOADER):
            if isinstance(event, yaml.AliasEvent):
                return event.start_mark.line + 1, event.anchor
        return node.start_mark.line + 1, "?"

