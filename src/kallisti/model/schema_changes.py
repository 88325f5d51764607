"""Schema errors of ruleset data made from valid data: only the parts that differ from it are judged.

A rule change is applied to a copy that shares with the ruleset it was made from every part no patch changed
(`apply_patch(share=True)`). The ruleset's data passed the schema, and JSON Schema judges a value by its own subschema
alone, so a part shared unchanged, at the same place under the same subschema, is still valid: only the changed parts
need judging. `changed_errors` walks the data beside its base, from the root, through the maps whose subschema is
*plain* (a map schema of `properties`, `additionalProperties`, `required` and the like, whose keywords read a map's
keys but no value, and `anyOf` only of `required`): there it judges the map's own keys (every subschema of a value
set to `true`) and goes on into the values that are not the base's own, each under its subschema. Anywhere else (a
list, a `oneOf`, a `$ref`, a value of another type) the whole changed value is judged by its full subschema. The
errors are those a full validation reports about the same data, each with the same path, message and subschema
(`tests/test_schema_changes.py` compares the two over the change catalogue and the mutation fixtures); only their
order differs, which `schema_findings` settles by sorting them by path, as it does a full validation's.
"""

from __future__ import annotations

from typing import Any, Iterator

# The keywords of a plain map schema: they judge a map's keys, or say what it is for; none reads a value.
_KEY_KEYWORDS = frozenset({"type", "required", "propertyNames", "minProperties", "maxProperties"})
# ... and those that judge nothing, left out of the check of keys (a `$schema` there would choose its own validator).
_NOTES = frozenset({"description", "title", "$schema", "$defs"})
_MISSING = object()  # what the base holds where the data added a key
_SHALLOW: dict[int, Any] = {}  # a plain map schema's own check of keys, by the schema's id (kept alive by the schema)


def changed_errors(validator, data: Any, base: Any) -> Iterator:
    """The jsonschema errors of `data` under `validator`'s schema, judging only what is not shared with `base` (which
    passed the same schema): each error's path is from the root of `data`."""
    yield from _walk(validator, data, base, validator.schema, ())


def _walk(validator, node: Any, old: Any, schema: Any, path: tuple) -> Iterator:
    if node is old:
        return
    shallow = _shallow(schema) if isinstance(node, dict) else None
    if shallow is None:
        yield from _at(validator.descend(node, schema), path)
        return
    yield from _at(validator.descend(node, shallow), path)
    props = schema.get("properties", {})
    more = schema.get("additionalProperties", True)
    for key, value in node.items():
        sub = props.get(key, more)
        if isinstance(sub, dict):  # `true` or `false` judges no value: the key itself was judged above
            yield from _walk(validator, value, old.get(key, _MISSING) if isinstance(old, dict) else _MISSING, sub,
                             path + (key,))


def _at(errors, path: tuple) -> Iterator:
    """The errors of a value found at `path`, their paths made from the root."""
    for error in errors:
        error.path.extendleft(reversed(path))
        yield error


def _shallow(schema: Any) -> dict | None:
    """A plain map schema with every subschema of a value set to `true` (what judges only the map's keys), or None
    when `schema` is not a plain map schema."""
    if not isinstance(schema, dict):
        return None
    kept = _SHALLOW.get(id(schema))
    if kept is not None and kept[0] is schema:
        return kept[1]
    shallow: dict | None = {}
    for keyword, value in schema.items():
        if keyword == "properties":
            shallow[keyword] = {k: True for k in value}
        elif keyword == "additionalProperties":
            shallow[keyword] = value if isinstance(value, bool) else True
        elif keyword == "anyOf" and all(isinstance(a, dict) and set(a) == {"required"} for a in value):
            shallow[keyword] = value
        elif keyword in _KEY_KEYWORDS:
            shallow[keyword] = value
        elif keyword in _NOTES:
            continue
        else:
            shallow = None
            break
    if shallow is not None and shallow.get("type", "object") != "object":
        shallow = None
    _SHALLOW[id(schema)] = (schema, shallow)
    return shallow
