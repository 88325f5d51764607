"""The paths of `set` and `add` (`tableau.build` is `piles.tableau.build`) and the value after a path, read as the path says."""

from __future__ import annotations

import json
import re

from lark import Token

from kallisti.grammar.pile_phrases import apply_pile_items
from kallisti.grammar.rules_lines import Line, LineError, finding, kind, parse_line
from kallisti.grammar.rules_values import expr_text, flow_value, lose_fields, pattern_fields, value_pos
from kallisti.grammar.rules_words import TOP_KEYS
from kallisti.located import LDict
from kallisti.rule_words import RULE_KEYS, path_part


def resolve_path(path: str) -> str:
    """A dotted path with the group shorthand resolved: `tableau.build` is `piles.tableau.build` (a first
    segment that is not a top-level key names a pile group), and `tableau.columns` / `tableau.piles` are
    `piles.tableau.count`."""
    parts = path.split(".")
    if parts[0] not in TOP_KEYS:
        parts = ["piles"] + parts
        if len(parts) == 3 and parts[2] in ("columns", "piles"):
            parts[2] = "count"
    return ".".join(parts)


def path_parts(path: str) -> list:
    return [path_part(p) for p in path.split(".")]


def value_kind(parts: list) -> str:
    """How the value of `set PATH VALUE` is read: an expression, a pile group, a move pattern (`from field to
    foundation`), a loss condition (`when field.size > 30 "says"`), or a flow value."""
    n = len(parts)
    if n == 1 and parts[0] in ("win", "score"):
        return "expr"
    if n == 3 and parts[0] == "piles" and parts[2] in ("prefill", "reveal"):
        return "expr"
    if n == 4 and parts[0] == "piles" and parts[2] in ("divert", "redeal") and parts[3] == "when":
        return "expr"
    # an item of a list is named by its place or by its id (`compulsory.play-first.when`, `tableau.build.same-suit.require`)
    if n == 3 and parts[0] in ("auto", "compulsory", "lose") and parts[2] == "when":
        return "expr"
    if n == 2 and parts[0] in ("auto", "compulsory") and not isinstance(parts[1], int):
        return "pattern"
    if n == 2 and parts[0] == "lose" and not isinstance(parts[1], int):
        return "lose"
    if n == 5 and parts[0] == "piles" and parts[2] in RULE_KEYS and parts[4] in ("require", "forbid"):
        return "expr"
    if n == 4 and parts[:2] == ["hands", "groupings"] and parts[3] == "when":
        return "expr"
    if n == 2 and parts[0] == "piles":
        return "pile"
    return "flow"


_WHOLE_QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*"')


def parse_value(ln: Line, rest: Token, parts: list, text: str):
    """The value after `set PATH` or `add PATH`, read according to the path; and its position."""
    sub = ln.sub(rest)
    how = value_kind(parts)
    if how == "expr":
        stripped = sub.text
        if stripped in ("true", "false"):
            return stripped == "true", sub.at(1)
        if _WHOLE_QUOTED.fullmatch(stripped):
            return json_text(sub, stripped, text), sub.at(2)
        tree = parse_line(sub, "value_expr", text)
        return expr_text(sub, tree.children[0])
    if how == "pile":
        tree = parse_line(sub, "value_pile", text)
        inner = tree.children[0]
        if kind(inner) == "flow_map":
            return flow_value(sub, inner, text), sub.at(1)
        group = LDict(pos=sub.at(1))
        apply_pile_items(sub, inner, text, group, [None], None)
        return group, sub.at(1)
    if how in ("pattern", "lose"):
        tree = parse_line(sub, "value_" + how, text)
        if kind(tree) == "value_map":
            return flow_value(sub, tree.children[0], text), sub.at(1)
        d = LDict(pos=sub.at(1))
        if how == "pattern":
            pattern_fields(sub, d, *tree.children, text)
        else:
            lose_fields(sub, d, *tree.children, text)
        return d, sub.at(1)
    tree = parse_line(sub, "value_flow", text)
    node = tree.children[0]
    return flow_value(sub, node, text), value_pos(sub, node)


def json_text(ln: Line, s: str, text: str) -> str:
    try:
        return json.loads(s, strict=False)
    except ValueError:
        raise LineError(finding(text, "bad-escape", "a quoted text may use only the escapes \\\" \\\\ \\/ \\n \\t \\r \\b \\f \\uXXXX",
                                ln.at(1))) from None
