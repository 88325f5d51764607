"""Sizes checked before the schema: every list and map of ruleset data against the most the schema allows there.

The schema gives every list a `maxItems` and every map with keys of the author's choosing a `maxProperties`, but a
JSON Schema validator reports a list too long only after it has judged every item of it, one error each: a `deal`
of 240,000 rows cost minutes and gigabytes. `refuse_oversized` walks the data once, alongside the schema, before the
validator is run, and refuses the first list or map too large at its first item or key too many (a `schema` finding,
said as the validator says it). Only counts are checked here; the validator still judges everything else, on data
whose size is now bounded.
"""

from __future__ import annotations

from typing import Any

from kallisti.errors import Finding, Pos
from kallisti.located import LDict, LList, position_at
from kallisti.schema import schema

_COMBINATORS = ("oneOf", "anyOf")
_ANYTHING: dict = {}  # a schema that says nothing: any value, of any size (a change's `value`)
_NO_BASE = object()  # where the data have no base to compare with (or the base has no such part)
# What each set of schemas allows, worked out once: by the kind of schema and the ids of the schemas (kept alive by the
# place, and by the cached schema they are parts of). There are as many as the schema has places, a few hundred.
_PLACES: dict[tuple, "_Place"] = {}


def refuse_oversized(data: Any, kind: str, default: Pos, base: Any = None) -> Finding | None:
    """The finding for the first list or map of `data` larger than the schema `kind` allows where it is, or None.

    A file's `add:` holds keys of a ruleset, so it is counted as a ruleset is; a change's `value` is counted only
    once it is in place, when the resolved ruleset is checked. With `base`, data that passed this check and that
    `data` was made from, a part of `data` that is the base's own part at the same place is not walked again: it is
    the same size as when it passed."""
    root = schema(kind)

    def place(candidates: tuple) -> _Place:
        key = (kind,) + tuple(map(id, candidates))
        if key not in _PLACES:
            _PLACES[key] = _Place(candidates, root)
        return _PLACES[key]

    stack: list[tuple[Any, Any, tuple, _Place]] = [(data, base if base is not None else _NO_BASE, (), place((root,)))]
    while stack:
        node, old, path, here = stack.pop()
        if node is old:
            continue
        if isinstance(node, list):
            if here.most_items is not None and len(node) > here.most_items:
                where = ".".join(map(str, path)) or "the ruleset"
                return Finding("schema", f"{where}: {len(node)} items; at most {here.most_items}",
                               _item_pos(data, node, path, here.most_items, default))
            items = place(here.items)
            olds = old if isinstance(old, list) else ()
            stack.extend((item, olds[i] if i < len(olds) else _NO_BASE, path + (i,), items)
                         for i, item in reversed(list(enumerate(node))))
        elif isinstance(node, dict):
            if here.most_keys is not None and len(node) > here.most_keys:
                where = ".".join(map(str, path)) or "the ruleset"
                return Finding("schema", f"{where}: {len(node)} keys; at most {here.most_keys}",
                               _key_pos(data, node, path, here.most_keys, default))
            olds = old if isinstance(old, dict) else {}
            children = []
            for key, value in node.items():
                if kind == "file" and not path and key == "add":
                    children.append((value, _NO_BASE, (key,), place((root,))))
                else:
                    children.append((value, olds.get(key, _NO_BASE), path + (key,), place(here.child(key))))
            stack.extend(reversed(children))
    return None


class _Place:
    """What the schemas `candidates` allow a value (it must meet one of them): the most items of a list and the
    schemas of its items, the most keys of a map and the schemas of each key's value."""

    def __init__(self, candidates: tuple, root: dict):
        self.candidates = candidates  # kept: the places are found again by the ids of these
        self.leaves = _leaves(candidates, root)
        self.most_items, self.items = _list_limit(self.leaves)
        self.most_keys = _map_limit(self.leaves)
        self.named = {key for leaf in self.leaves for key in leaf.get("properties", {})}
        self._children: dict[str | None, tuple] = {}  # by the keys the schemas name; None: any other key

    def child(self, key: str) -> tuple:
        """The schemas of the value of `key`: any key the schemas do not name has the same ones, kept once."""
        known = key if key in self.named else None
        if known not in self._children:
            self._children[known] = _child(self.leaves, key)
        return self._children[known]


def _leaves(candidates: tuple, root: dict) -> list[dict]:
    """The schemas a value must meet one of: references followed, and each `oneOf`/`anyOf` alternative merged with
    the keywords around it."""
    out: list[dict] = []
    todo = list(candidates)
    while todo:
        node = todo.pop()
        if not isinstance(node, dict):
            continue
        while "$ref" in node:
            node = root["$defs"][node["$ref"].rsplit("/", 1)[-1]]
        combinator = next((c for c in _COMBINATORS if c in node), None)
        if combinator is None:
            out.append(node)
            continue
        around = {k: v for k, v in node.items() if k != combinator}
        for alternative in node[combinator]:
            while isinstance(alternative, dict) and "$ref" in alternative:
                alternative = root["$defs"][alternative["$ref"].rsplit("/", 1)[-1]]
            todo.append({**around, **alternative})
    return out


def _types(leaf: dict) -> set[str] | None:
    """The JSON types a schema takes, or None when it takes any."""
    types = leaf.get("type")
    if types is not None:
        return {types} if isinstance(types, str) else set(types)
    if "items" in leaf:
        return {"array"}
    if "properties" in leaf or "additionalProperties" in leaf:
        return {"object"}
    if "const" in leaf or "enum" in leaf:
        return {"scalar"}
    return None


def _list_limit(leaves: list[dict]) -> tuple[int | None, tuple]:
    """The most items a list may have here (None: no limit, or no list is valid here) and its items' schemas."""
    takers = [leaf for leaf in leaves if _types(leaf) is None or "array" in _types(leaf)]
    if not takers or any(leaf.get("maxItems") is None for leaf in takers):
        return None, tuple(leaf.get("items", _ANYTHING) for leaf in takers)
    return max(leaf["maxItems"] for leaf in takers), tuple(leaf.get("items", _ANYTHING) for leaf in takers)


def _map_limit(leaves: list[dict]) -> int | None:
    """The most keys a map may have here (None: no limit here, or no map is valid here); a map whose keys the schema
    all names is left to the schema, which names the keys it does not know."""
    takers = [leaf for leaf in leaves if _types(leaf) is None or "object" in _types(leaf)]
    if not takers or any(leaf.get("maxProperties") is None for leaf in takers):
        return None
    return max(leaf["maxProperties"] for leaf in takers)


def _child(leaves: list[dict], key: str) -> tuple:
    """The schemas of the value of `key` in a map that meets one of `leaves`."""
    out = []
    for leaf in leaves:
        types = _types(leaf)
        if types is not None and "object" not in types:
            continue
        if key in leaf.get("properties", {}):
            out.append(leaf["properties"][key])
        elif isinstance(leaf.get("additionalProperties"), dict):
            out.append(leaf["additionalProperties"])
        elif leaf.get("additionalProperties", True) is True:
            out.append(_ANYTHING)
    return tuple(out)


def _item_pos(data, node, path: tuple, index: int, default: Pos) -> Pos:
    if isinstance(node, LList) and index < len(node.item_pos) and node.item_pos[index] is not None:
        return node.item_pos[index]
    return position_at(data, list(path) + [index], default) or default


def _key_pos(data, node, path: tuple, index: int, default: Pos) -> Pos:
    key = list(node)[index]
    if isinstance(node, LDict) and node.key_pos.get(key) is not None:
        return node.key_pos[key]
    return position_at(data, list(path) + [key], default) or default
