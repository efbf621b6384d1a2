"""Load YAML keeping the line of every value, so problems can name FILE:LINE.

PyYAML's compose() gives nodes with positions; we build plain Python values from
them ourselves, recording each path's line and rejecting duplicate keys (which
PyYAML would otherwise silently overwrite).
"""
import datetime

import yaml

LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml is ~20x faster where the wheel has it


class YamlProblem(Exception):
    def __init__(self, line: int, field: str, message: str):
        self.line, self.field, self.message = line, field, message
        super().__init__(message)


def load_with_lines(text: str):
    """Return (data, lines): lines maps a path tuple to its 1-based line."""
    try:
        node = yaml.compose(text, Loader=LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark else 1
        raise YamlProblem(line, "(yaml)", f"YAML syntax: {getattr(exc, 'problem', exc)}") from None
    lines: dict = {}
    if node is None:
        return None, lines
    constructor = yaml.SafeLoader("")
    return _build(node, (), lines, constructor), lines


def _build(node, path, lines, constructor):
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        out = {}
        for key_node, value_node in node.value:
            key = constructor.construct_object(key_node, deep=True)
            if key in out:
                raise YamlProblem(key_node.start_mark.line + 1, ".".join(map(str, path + (key,))),
                                  "duplicate key")
            child = path + (key,)
            out[key] = _build(value_node, child, lines, constructor)
            lines[child] = key_node.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, path + (i,), lines, constructor) for i, item in enumerate(node.value)]
    try:
        value = constructor.construct_object(node, deep=True)
    except (ValueError, yaml.YAMLError) as exc:
        raise YamlProblem(node.start_mark.line + 1, ".".join(map(str, path)) or "(record)",
                          f"cannot read value {node.value!r}: {exc}") from None
    if isinstance(value, (datetime.date, datetime.datetime)):
        return value.isoformat()[:10]  # dates stay strings, as JSON Schema sees them
    return value
