"""The phrases of the `deck:`, `match:` and `hands:` lines, each read into the keys of its map."""

from __future__ import annotations

from kallisti.grammar.rules_lines import Line, LineError, finding, kind
from kallisti.grammar.rules_values import append, name_of, phrase_text, put, token_value
from kallisti.located import LDict, LList


def _rank(ln: Line, node, text: str):
    tok = node.children[0]
    if kind(tok) == "INT":
        return int(tok), ln.tok(tok)
    return token_value(ln, tok, text)


def _card(ln: Line, node, text: str) -> LDict:
    rank_node, suit_node = node.children
    d = LDict(pos=ln.meta(node))
    rank, rpos = _rank(ln, rank_node, text)
    put(d, "rank", rank, rpos, rpos, text)
    suit, spos = name_of(ln, suit_node, text)
    put(d, "suit", suit, spos, spos, text)
    return d


def _number(node) -> int:
    n = int(node.children[0])
    return -n if kind(node) == "negative" else n


def deck_effects(ln: Line, item, text: str) -> list:
    """What one deck phrase sets: [(key, value, key position, value position)]; "+key" adds to a list or map."""
    k = kind(item)
    c = item.children
    start = ln.meta(item)
    if k == "packs":
        return [("packs", int(c[0]), start, ln.tok(c[0]))]
    if k == "pack":
        name, suits = c
        d = LDict(pos=start)
        if name is not None:
            value, pos = name_of(ln, name, text)
            put(d, "name", value, pos, pos, text)
        lst = LList(pos=ln.meta(suits))
        if kind(suits) == "suit_list":
            for s in suits.children:
                value, pos = name_of(ln, s, text)
                append(lst, value, pos)
        put(d, "suits", lst, ln.meta(suits), ln.meta(suits), text)
        return [("+packs", d, start, start)]
    if k == "ranks":
        lst = LList(pos=ln.meta(c[0]))
        for r in c:
            value, pos = _rank(ln, r, text)
            append(lst, value, pos)
        return [("ranks", lst, start, ln.meta(c[0]))]
    if k == "suit":
        name, color, symbol, letter, family = c
        d = LDict(pos=start)
        for key, node in (("name", name), ("color", color), ("symbol", symbol), ("letter", letter), ("family", family)):
            if node is not None:
                value, pos = name_of(ln, node, text) if key in ("name", "color", "family") else token_value(ln, node.children[0], text)
                put(d, key, value, pos, pos, text)
        return [("+suits", d, start, start)]
    if k in ("value", "value_list"):
        rank, *numbers = c
        key, kpos = _rank(ln, rank, text)
        numbers = [n for n in numbers if n is not None]
        if k == "value" and len(numbers) == 1:
            value = _number(numbers[0])
        else:
            value = LList([_number(n) for n in numbers], pos=ln.meta(numbers[0]) if numbers else start)
            value.item_pos = [ln.meta(n) for n in numbers]
        vpos = ln.meta(numbers[0]) if numbers else start
        return [("+values", (str(key), value, kpos, vpos), start, start)]
    if k in ("mark", "mark_none"):
        name = c[0]
        value, pos = name_of(ln, name, text)
        lst = LList(pos=start)
        for card in c[1:]:
            append(lst, _card(ln, card, text), ln.meta(card))
        return [("+marks", (value, lst, pos, ln.meta(c[1]) if len(c) > 1 else start), start, start)]
    if k == "wild":
        lst = LList(pos=ln.meta(c[0]))
        for card in c:
            append(lst, _card(ln, card, text), ln.meta(card))
        return [("wild", lst, start, ln.meta(c[0]))]
    if k == "no_values":
        return [("values", LDict(pos=start), start, start)]
    if k == "no_marks":
        return [("marks", LDict(pos=start), start, start)]
    if k == "no_wild":
        return [("wild", LList(pos=start), start, start)]
    if k == "shuffle":
        mode = c[0]
        return [("shuffle", phrase_text(ln, mode), start, ln.meta(mode))]
    raise AssertionError(k)  # pragma: no cover


def match_effects(ln: Line, item, text: str) -> list:
    """What one match phrase sets: [(key, value, key position, value position)]; a key `player_x.K` is a
    key of the player_x map."""
    k = kind(item)
    c = item.children
    start = ln.meta(item)
    if k == "seats":
        return [("seats", int(c[0]), start, ln.tok(c[0]))]
    if k in ("pack_per_seat", "pack_shared"):
        return [("pack", "per-seat" if k == "pack_per_seat" else "shared", start, start)]
    if k in ("start_score", "loses_at"):
        return [(k, _number(c[0]), start, ln.meta(c[0]))]
    if k in ("equal_turns", "no_equal_turns"):
        return [("equal_turns", k == "equal_turns", start, start)]
    if k == "both_over":
        rule = c[0]
        return [("both_over", kind(rule).replace("_", "-"), start, ln.meta(rule))]
    if k == "last_turns":
        rule = c[0]
        return [("last_turns", kind(rule)[len("last_"):], start, ln.meta(rule))]
    if k == "max_turns":
        return [("max_turns", int(c[0]), start, ln.tok(c[0]))]
    if k == "player_x_changes":
        n, _, revoke = c
        out = [("player_x.changes", int(n), start, ln.tok(n))]
        if revoke is not None:
            out.append(("player_x.revoke", True, start, ln.meta(revoke)))
        return out
    if k in ("player_x_revoke", "player_x_no_revoke"):
        return [("player_x.revoke", k == "player_x_revoke", start, start)]
    raise AssertionError(k)  # pragma: no cover


def hand_effects(ln: Line, item, text: str) -> list:
    """What one phrase of `hands:` sets: [(key, value, key position, value position)]."""
    k = kind(item)
    n = item.children[0]
    return [("size" if k == "hand_size" else "budget", int(n), ln.meta(item), ln.tok(n))]


def apply_hand_items(ln: Line, items, text: str, hands: LDict, notes) -> None:
    """Set the keys of `hands` from the phrases of a `hands:` line."""
    first = True
    for item in items.children:
        if item is None:
            continue
        for key, value, kpos, vpos in hand_effects(ln, item, text):
            put(hands, key, value, kpos, vpos, text, notes if first else None, what=f"'hands.{key}'")
            first = False


def apply_deck_items(ln: Line, items, text: str, deck: LDict, notes, declared: set) -> None:
    """Set the keys of the deck from parsed deck phrases; `suit`, `pack`, `value` and `mark` phrases add up.
    `declared` holds the ids of the maps and lists written empty (`no values`), which take nothing more."""
    first = True
    for item in items.children:
        if item is None:
            continue
        for key, value, kpos, vpos in deck_effects(ln, item, text):
            note = notes if first else None
            first = False
            if key.startswith("+"):
                real = key[1:]
                make = LList if real in ("packs", "suits") else LDict
                if real not in deck:
                    put(deck, real, make(pos=kpos), kpos, kpos, text, note)
                box = deck[real]
                if not isinstance(box, make) or id(box) in declared:
                    raise LineError(finding(text, "duplicate-key", f"'{real}' is given twice", kpos))
                if make is LList:
                    append(box, value, kpos)
                else:
                    sub_key, sub_value, skpos, svpos = value
                    put(box, sub_key, sub_value, skpos, svpos, text, what=f"'{real}' of '{sub_key}'")
            else:
                if isinstance(value, (LDict, LList)) and not value:
                    declared.add(id(value))
                put(deck, key, value, kpos, vpos, text, note, what=f"'{key}'")


def apply_match_items(ln: Line, items, text: str, match: LDict, notes) -> None:
    """Set the keys of `match` (and of its player_x map) from parsed match phrases. The comments of a line
    that starts with a `player x` phrase belong to player_x, where the writer puts them back."""
    first = True
    for item in items.children:
        if item is None:
            continue
        for key, value, kpos, vpos in match_effects(ln, item, text):
            note = notes if first else None
            first = False
            if key.startswith("player_x."):
                if "player_x" not in match:
                    put(match, "player_x", LDict(pos=kpos), kpos, kpos, text)
                px = match["player_x"]
                if not isinstance(px, LDict):
                    raise LineError(finding(text, "duplicate-key", "'player_x' is given twice", kpos))
                if note:
                    match.comments.setdefault("player_x", []).extend(note)
                sub = key.split(".", 1)[1]
                put(px, sub, value, kpos, vpos, text, what=f"'player_x.{sub}'")
            else:
                put(match, key, value, kpos, vpos, text, note, what=f"'{key}'")
