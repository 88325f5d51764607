"""Where a table puts each group of piles: rows, order within a row, and how a pile's cards fan out.

Computed from the groups' roles (stock and waste, cells, foundations and discard piles on the top row;
reserves, tableau, field, line and hands below), then overridden group by group by a ruleset's
top-level `layout` mapping when it has one (layout hints: docs/language.md, docs/web.md).
"""

from __future__ import annotations

from kallisti.located import plain

FANS = ("down", "right", "none")
TOP_ROW = ("stock", "waste", "cell", "foundation", "discard")  # in this order, left to right
FAN_OF_ROLE = {"tableau": "down", "field": "down", "reserve": "down", "line": "right", "hand": "right"}


def group_layouts(rules) -> dict[str, dict]:
    """Per group name: `{"row", "column", "fan"}`."""
    groups = list(rules.groups.values())
    top = sorted((g for g in groups if g.role in TOP_ROW), key=lambda g: TOP_ROW.index(g.role))
    below = [g for g in groups if g.role not in TOP_ROW]
    below.sort(key=lambda g: 0 if g.role == "reserve" else 1)  # a reserve beside the tableau, on its left
    rows = [row for row in (top, below) if row]
    out = {}
    for r, row in enumerate(rows):
        for c, g in enumerate(row):
            out[g.name] = {"row": r, "column": c, "fan": FAN_OF_ROLE.get(g.role, "none")}
    for name, hint in _hints(rules).items():
        if name in out:
            out[name] = {**out[name], **hint}
    return out


def _hints(rules) -> dict[str, dict]:
    """The valid entries of a ruleset's `layout` mapping (group name to row, column, fan); others are ignored."""
    raw = rules.data.get("layout") if hasattr(rules.data, "get") else None
    if not isinstance(raw, dict):
        return {}
    hints = {}
    for name, spec in plain(raw).items():
        if not isinstance(spec, dict):
            continue
        hint = {}
        for key in ("row", "column"):
            value = spec.get(key)
            if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 100:
                hint[key] = value
        if spec.get("fan") in FANS:
            hint["fan"] = spec["fan"]
        hints[str(name)] = hint
    return hints
