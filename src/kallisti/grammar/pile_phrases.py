"""The phrases of a pile group's lines (`count`, `deal`, `build`, `take`, …), each read into a key of its group."""

from __future__ import annotations

from lark import Token

from kallisti.grammar.rules_lines import Line, LineError, finding, kind
from kallisti.grammar.rules_values import append, expr_text, name_of, phrase_text, put, rule_value
from kallisti.located import LDict, LList
from kallisti.rule_words import RULE_KEYS
from kallisti.schema import MAX_DEAL_ROWS


def pile_effects(ln: Line, item, text: str) -> list:
    """What one pile phrase sets: [(key, value, key position, value position)]."""
    k = kind(item)
    c = item.children
    start = ln.meta(item)
    if k == "count":
        n, role, _ = c
        out = [("count", int(n), ln.tok(n), ln.tok(n))]
        if role is not None:
            out.append(("role", phrase_text(ln, role), ln.meta(role), ln.meta(role)))
        return out
    if k == "role_only":
        return [("role", phrase_text(ln, c[0]), ln.meta(c[0]), ln.meta(c[0]))]
    if k == "tag":
        value, pos = name_of(ln, c[0], text)
        return [("tag", value, start, pos)]
    if k in ("deal", "deal_more"):
        n, face = c
        _refuse_deal_rows(ln, int(n), n, text)  # before the rows are made: N may be any number of a hundred digits
        rows = [kind(face)[5:]] * int(n)
        return [("deal" if k == "deal" else "+deal", rows, start, ln.tok(n))]
    if k in ("deal_row", "deal_row_more"):
        return [("deal" if k == "deal_row" else "+deal", [str(c[0])], start, ln.tok(c[0]))]
    if k == "deal_rest":
        return [("deal", "rest", start, start)]
    if k == "deal_nothing":
        return [("deal", LList(pos=start), start, start)]
    if k in ("prefill", "reveal"):
        e, epos = expr_text(ln, c[0])
        return [(k, e, start, epos)]
    if k == "divert":
        name, expr = c
        d = LDict(pos=start)
        to, tpos = name_of(ln, name, text)
        put(d, "to", to, tpos, tpos, text)
        e, epos = expr_text(ln, expr)
        put(d, "when", e, epos, epos, text)
        return [("divert", d, start, start)]
    if k == "refill":
        n, _, name = c
        d = LDict(pos=start)
        src, spos = name_of(ln, name, text)
        put(d, "from", src, spos, spos, text)
        put(d, "count", int(n), ln.tok(n), ln.tok(n), text)
        return [("refill", d, start, start)]
    if k == "discard_to":
        value, pos = name_of(ln, c[0], text)
        return [("discard_to", value, start, pos)]
    if k in ("top_face_up", "top_as_dealt"):
        return [("top_face_up", k == "top_face_up", start, start)]
    if k == "take_from":
        modes = LList(pos=start)
        for mode in c:
            append(modes, kind(mode)[len("from_"):], ln.meta(mode))
        return [("take_from", modes, start, start)]
    if k == "redeal":
        gathers, shuffled, deals, when = c
        d = LDict(pos=start)
        for key, node in (("gather", gathers), ("deal", deals)):
            if node is not None:
                lst = LList(pos=ln.meta(node))
                if kind(node) in ("gathers", "deals"):
                    for name in node.children[0].children:
                        value, pos = name_of(ln, name, text)
                        append(lst, value, pos)
                put(d, key, lst, ln.meta(node), ln.meta(node), text)
        if shuffled is not None:
            put(d, "shuffle", kind(shuffled) == "shuffled", ln.meta(shuffled), ln.meta(shuffled), text)
        if when is not None:
            e, epos = expr_text(ln, when)
            put(d, "when", e, epos, epos, text)
        return [("redeal", d, start, start)]
    if k in RULE_KEYS:
        value, vpos = rule_value(ln, c[0], text)
        return [(k, value, start, vpos)]
    if k.endswith("_any") or k.endswith("_none"):
        key, macro = k.rsplit("_", 1)
        return [(key, macro, start, start)]
    if k in ("flip_on", "flip_off"):
        return [("flip", k == "flip_on", start, start)]
    if k in ("turn", "turn_each"):
        if k == "turn":
            n, _, each, name, _ = c
        else:
            n, each, name = None, True, c[0]
        d = LDict(pos=start)
        to, tpos = name_of(ln, name, text)
        put(d, "to", to, tpos, tpos, text)
        if n is not None:
            put(d, "count", int(n), ln.tok(n), ln.tok(n), text)
        if each is not None:
            put(d, "each", True, start, start, text)
        return [("turn", d, start, start)]
    if k == "no_redeal":
        return [("redeals", 0, start, start)]
    if k == "redeals":
        return [("redeals", int(c[0]), start, ln.tok(c[0]))]
    if k == "unlimited_redeals":
        return [("redeals", "unlimited", start, start)]
    raise AssertionError(k)  # pragma: no cover


def _refuse_deal_rows(ln: Line, rows: int, at, text: str) -> None:
    """Refuse a deal of more rows than the schema allows, where it is written (`at`: a token or a position)."""
    if rows > MAX_DEAL_ROWS:
        pos = ln.tok(at) if isinstance(at, Token) else at
        raise LineError(finding(text, "schema", f"a deal of {rows} rows; at most {MAX_DEAL_ROWS}", pos))


def apply_pile_items(ln: Line, items, text: str, group: LDict, last: list, notes) -> None:
    """Set the keys of a group from parsed pile phrases; `last` tells whether the phrase before (perhaps on
    the line before) was a deal, which rows like `2 face up` continue."""
    first = True
    for item in items.children:
        if item is None:
            continue
        for key, value, kpos, vpos in pile_effects(ln, item, text):
            if key == "+deal":
                rows = group.get("deal")
                if last[0] != "deal" or not isinstance(rows, LList):
                    raise LineError(finding(text, "misplaced", "rows of a deal must follow `deal` (like `deal 2 face down, 2 face up`)",
                                            kpos))
                _refuse_deal_rows(ln, len(rows) + len(value), kpos, text)
                for r in value:
                    append(rows, r, vpos)
                continue
            if key == "deal" and isinstance(value, list) and not isinstance(value, LList):
                rows = LList(pos=vpos)
                for r in value:
                    append(rows, r, vpos)
                value = rows
            put(group, key, value, kpos, vpos, text, notes if first else None, what=f"the pile phrase for `{key}`")
            first = False
        last[0] = "deal" if kind(item) in ("deal", "deal_more", "deal_row", "deal_row_more") else None
