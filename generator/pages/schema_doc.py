"""The "Record format" page's content, read from the JSON Schema itself."""


def schema_sections(schema: dict) -> list[dict]:
    sections = [{"name": "Record", "anchor": "record", "description": schema.get("description", ""),
                 "fields": _fields(schema)}]
    for name, definition in schema["$defs"].items():
        if definition.get("type") == "object":
            sections.append({"name": name.replace("_", " ").capitalize(), "anchor": f"def-{name.replace('_', '-')}",
                             "description": definition.get("description", ""), "fields": _fields(definition)})
    return sections


def value_lists(schema: dict) -> list[dict]:
    """The fixed lists (frameworks, hardware, ...) that matching compares."""
    lists = []
    for name, definition in schema["$defs"].items():
        if "enum" in definition:
            lists.append({"name": name, "items": definition["enum"]})
    lists.append({"name": "category", "items": [c["const"] for c in schema["properties"]["category"]["oneOf"]]})
    return lists


def _fields(obj: dict) -> list[dict]:
    required = set(obj.get("required", []))
    return [{"name": key, "type": _type(spec), "required": key in required,
             "description": spec.get("description", "")}
            for key, spec in obj.get("properties", {}).items()]


def _type(spec: dict) -> str:
    if "$ref" in spec:
        return _ref_name(spec["$ref"])
    if "enum" in spec:
        return "one of: " + ", ".join(f"`{v}`" for v in spec["enum"])
    if "const" in spec:
        return f"`{spec['const']}`"
    if "oneOf" in spec and all("const" in o for o in spec["oneOf"]):
        return "one of: " + ", ".join(f"`{o['const']}`" for o in spec["oneOf"])
    if spec.get("type") == "array":
        return f"list of {_type(spec.get('items', {}))}" + (f", at most {spec['maxItems']}" if "maxItems" in spec else "")
    if spec.get("type") == "string" and "maxLength" in spec:
        return f"string, at most {spec['maxLength']} characters"
    return spec.get("type", "any")


def _ref_name(ref: str) -> str:
    name = ref.rsplit("/", 1)[-1]
    if name in {"slug", "url", "date"}:
        return name
    return f"[{name.replace('_', ' ')}](#def-{name.replace('_', '-')})" if name not in {
        "framework", "hardware", "driver", "environment"} else f"[{name}](#fixed-lists)"
