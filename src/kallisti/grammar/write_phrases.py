"""The phrases of written `.rules` text: clauses, rules, pile, deck, match and hands phrases, patterns and layout."""

from __future__ import annotations

import re

from kallisti.grammar.rules_words import (MACRO_ALIASES, MATCH_OVER, MATCH_PACKS, MOMENT_PHRASES, ROLES, RULE_LEADS,
                                          macro_phrases, name_reserved)
from kallisti.grammar.write_values import (CLAUSE_ID, DECK_KEYS, GROUP_KEYS, MATCH_KEYS, SAYS, SAYS_AFTER_COLON,
                                           SYMBOL, Unwritable, bare_expression, is_int, name, quote, rank, says_mark)
from kallisti.rule_words import RULE_KEYS
from kallisti.schema import FANS, SHUFFLES


def clause_text(c) -> str | None:
    """`require ID: EXPR  "says"`, or None when the clause cannot be written so."""
    if not isinstance(c, dict) or set(c) - {"id", "require", "forbid", "says"} or "id" not in c:
        return None
    kinds = [k for k in ("require", "forbid") if k in c]
    if len(kinds) != 1 or not isinstance(c["id"], str) or not CLAUSE_ID.fullmatch(c["id"]):
        return None
    e = c[kinds[0]]
    if not isinstance(e, str) or not bare_expression(e) or "says" in c and not isinstance(c["says"], str):
        return None
    return f"{kinds[0]} {c['id']}: {e}{says_mark(c)}"


def macro_bare(s) -> bool:
    return isinstance(s, str) and s in macro_phrases()


def rule_phrase(key: str, value) -> str | None:
    """A rule written after its lead in a pile line, or None (a list is a block; a boolean needs `set`)."""
    lead = RULE_LEADS[key]
    if isinstance(value, str):
        if value in MACRO_ALIASES[key]:
            return MACRO_ALIASES[key][value]
        return f"{lead} {value if macro_bare(value) else quote(value)}"
    if isinstance(value, dict):
        text = clause_text(value)
        return f"{lead} {text.replace(SAYS, '  ')}" if text is not None else None
    return None


def rule_block(value) -> list[str] | None:
    """The item lines of a rule block, or None when an item cannot be written so."""
    if not isinstance(value, list):
        return None
    out = []
    for item in value:
        if isinstance(item, str):
            out.append(item if macro_bare(item) else quote(item))
        else:
            text = clause_text(item)
            if text is None:
                return None
            out.append(text)
    return out


_ROW = re.compile(r"[ud.]( [ud.])*")


def deal_phrase(rows) -> str | None:
    """`deal 2 face down, 2 face up`; a row given pile by pile is `row u d .`."""
    if rows == "rest":
        return "deal the rest"
    if not isinstance(rows, list) or any(not isinstance(r, str) or r not in ("up", "down") and not _ROW.fullmatch(r) for r in rows):
        return None
    if not rows:
        return "deal nothing"
    runs: list[list] = []
    for r in rows:
        if runs and runs[-1][0] == r and r in ("up", "down"):
            runs[-1][1] += 1
        else:
            runs.append([r, 1])
    return "deal " + ", ".join(f"{n} face {r}" if r in ("up", "down") else f"row {r}" for r, n in runs)


def redeal_phrase(r) -> str | None:
    """`redeal gathers tableau and stock shuffled then deals tableau when true`."""
    if not isinstance(r, dict) or set(r) - {"gather", "shuffle", "deal", "when"}:
        return None
    out = "redeal"
    for key, word in (("gather", "gathers"), ("shuffle", None), ("deal", "then deals")):
        if key not in r:
            continue
        v = r[key]
        if key == "shuffle":
            if not isinstance(v, bool):
                return None
            out += " shuffled" if v else " unshuffled"
        elif isinstance(v, list) and all(isinstance(g, str) for g in v):
            out += f" {word} " + (" and ".join(name(g, ("nothing",) if i == 0 else ()) for i, g in enumerate(v)) if v else "nothing")
        else:
            return None
    if "when" in r:
        if not bare_expression(r["when"]):
            return None
        out += f" when {r['when']}"
    return out


def turn_phrase(t) -> str | None:
    if not isinstance(t, dict) or "to" not in t or set(t) - {"to", "count", "each"} or not isinstance(t["to"], str):
        return None
    count, each = t.get("count"), t.get("each")
    if count is not None and not (is_int(count) and count >= 0) or each is not None and each is not True:
        return None
    if each and count is None:
        return f"deal one to each {name(t['to'])} pile"
    out = "turn"
    if count is not None:
        out += f" {count} {'card' if count == 1 else 'cards'}"
    out += " to"
    if each:
        return f"{out} each {name(t['to'])} pile"
    return f"{out} {name(t['to'], ('each',))}"


def pile_phrases(group: dict) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """A group's phrases [(key, text)], the rule keys written as blocks, and the keys that need `set`."""
    phrases, blocks, rest = [], [], []
    count, role = group.get("count"), group.get("role")
    count_ok = "count" in group and is_int(count) and count >= 0
    role_ok = "role" in group and role in ROLES
    if count_ok:
        phrases.append(("count", f"{count} {role + ' ' if role_ok else ''}{'pile' if count == 1 else 'piles'}"))
    elif role_ok:
        phrases.append(("role", f"{role} pile"))
    for key in GROUP_KEYS:
        if key not in group or key in ("count", "role") and (count_ok or key == "role" and role_ok):
            if key == "role" and "role" in group and not role_ok:
                rest.append("role")
            continue
        value = group[key]
        text = None
        if key == "count":
            text = None
        elif key == "tag":
            text = f"tag {name(value)}" if isinstance(value, str) else None
        elif key == "deal":
            text = deal_phrase(value)
        elif key == "prefill":
            text = f"before the deal takes {value}" if bare_expression(value) else None
        elif key == "reveal":
            text = f"reveal {value}" if bare_expression(value) else None
        elif key == "divert":
            if isinstance(value, dict) and set(value) == {"to", "when"} and isinstance(value["to"], str) and bare_expression(value["when"]):
                text = f"divert to {name(value['to'])} when {value['when']}"
        elif key == "refill":
            if isinstance(value, dict) and set(value) == {"from", "count"} and isinstance(value["from"], str) and is_int(value["count"]) \
                    and value["count"] >= 0:
                text = f"refill {value['count']} {'card' if value['count'] == 1 else 'cards'} from {name(value['from'])}"
        elif key == "discard_to":
            text = f"discard to {name(value)}" if isinstance(value, str) else None
        elif key == "top_face_up":
            text = {True: "top card face up", False: "top card as dealt"}.get(value) if isinstance(value, bool) else None
        elif key == "take_from":
            words = {"top": "the top", "bottom": "the bottom", "any": "any card", "runs": "any run"}
            if isinstance(value, list) and value and all(isinstance(v, str) and v in words for v in value):
                text = "take from " + " or ".join(words[v] for v in value)
        elif key == "redeal":
            text = redeal_phrase(value)
        elif key in RULE_KEYS:
            text = rule_phrase(key, value)
            if text is None and rule_block(value) is not None:
                blocks.append(key)
                continue
        elif key == "flip":
            text = {True: "face-down cards turn up", False: "face-down cards stay down"}.get(value) if isinstance(value, bool) else None
        elif key == "turn":
            text = turn_phrase(value)
        elif key == "redeals":
            if value == 0 and is_int(value):
                text = "no redeal"
            elif is_int(value) and value > 0:
                text = f"{value} {'redeal' if value == 1 else 'redeals'}"
            elif value == "unlimited":
                text = "unlimited redeals"
        if text is None:
            rest.append(key)
        else:
            phrases.append((key, text))
    rest += [k for k in group if k not in GROUP_KEYS]
    return phrases, blocks, rest


def deck_phrases(deck: dict) -> tuple[list[tuple[str, str]], list[str]]:
    """The deck's phrases [(key, text)] and the keys that need `set`."""
    phrases, rest = [], []
    for key in DECK_KEYS:
        if key not in deck:
            continue
        v = deck[key]
        texts = None
        try:
            if key == "packs":
                if is_int(v) and v >= 0:
                    texts = [f"{v} {'pack' if v == 1 else 'packs'}"]
                elif isinstance(v, list) and v and all(isinstance(p, dict) and "suits" in p and not set(p) - {"name", "suits"}
                                                       and isinstance(p["suits"], list) for p in v):
                    texts = []
                    for p in v:
                        head = f"pack {name(p['name'])}:" if "name" in p else "pack:"
                        suits = " ".join(name(s, ("none",)) for s in p["suits"]) if p["suits"] else "none"
                        texts.append(f"{head} {suits}")
            elif key == "ranks":
                if isinstance(v, list) and v:
                    texts = ["ranks " + " ".join(rank(r) for r in v)]
            elif key == "suits":
                if isinstance(v, list) and v and all(isinstance(s, dict) and {"name", "color"} <= set(s) and not set(s) - {
                        "name", "color", "symbol", "letter", "family"} for s in v):
                    texts = []
                    for s in v:
                        t = f"suit {name(s['name'])} {name(s['color'])}"
                        for extra in ("symbol", "letter"):
                            if extra in s:
                                x = s[extra]
                                if not isinstance(x, str):
                                    raise Unwritable(extra)
                                t += f" {extra} {x if SYMBOL.fullmatch(x) and x not in name_reserved() else quote(x)}"
                        if "family" in s:
                            if not isinstance(s["family"], str):
                                raise Unwritable("family")
                            t += f" family {name(s['family'])}"
                        texts.append(t)
            elif key == "values":
                if isinstance(v, dict) and not v:
                    texts = ["no values"]
                elif isinstance(v, dict):
                    texts = []
                    for r, n in v.items():
                        head = f"value {rank(int(r) if r.isdigit() and str(int(r)) == r else r)}"
                        if is_int(n):
                            texts.append(f"{head} {n}")
                        elif isinstance(n, list) and all(is_int(x) for x in n) and len(n) >= 2:
                            texts.append(f"{head} " + " or ".join(str(x) for x in n))
                        elif isinstance(n, list) and all(is_int(x) for x in n):
                            texts.append(f"{head} [{', '.join(str(x) for x in n)}]")
                        else:
                            raise Unwritable(r)
            elif key == "marks":
                if isinstance(v, dict) and not v:
                    texts = ["no marks"]
                elif isinstance(v, dict) and all(isinstance(cards, list) for cards in v.values()):
                    texts = [f"mark {name(m)} " + (" and ".join(card_text(c) for c in cards) if cards else "none")
                             for m, cards in v.items()]
            elif key == "wild":
                if isinstance(v, list):
                    texts = ["wild " + " and ".join(card_text(c) for c in v)] if v else ["no wild cards"]
            elif key == "shuffle":
                if isinstance(v, str) and v in SHUFFLES:
                    texts = [f"shuffle {v}"]
        except (Unwritable, AttributeError, TypeError):
            texts = None
        if texts is None:
            rest.append(key)
        else:
            phrases += [(key, t) for t in texts]
    rest += [k for k in deck if k not in DECK_KEYS]
    return phrases, rest


def match_phrases(match: dict) -> tuple[list[tuple[str, str]], list[str]]:
    """The match's phrases [(key, text)] and the keys that need `set`."""
    phrases, rest = [], []
    for key in MATCH_KEYS:
        if key not in match:
            continue
        v = match[key]
        text = None
        if key == "player_x":
            texts = player_x_phrases(v)
            if texts is None:
                rest.append(key)
            else:
                phrases += [(key, t) for t in texts]
            continue
        if key in ("seats", "max_turns") and is_int(v) and v >= 0:
            text = f"{v} {'seat' if v == 1 else 'seats'}" if key == "seats" else f"at most {v} {'turn' if v == 1 else 'turns'}"
        elif key in ("start_score", "loses_at") and is_int(v):
            text = f"{'start score' if key == 'start_score' else 'loses at'} {v}"
        elif key == "pack" and isinstance(v, str) and v in MATCH_PACKS:
            text = MATCH_PACKS[v]
        elif key == "equal_turns" and isinstance(v, bool):
            text = "equal turns" if v else "no equal turns"
        elif key == "last_turns" and v in ("none", "round", "others"):
            text = f"last turns {v}"
        elif key == "both_over" and isinstance(v, str) and v in MATCH_OVER:
            text = f"both over {MATCH_OVER[v]}"
        if text is None:
            rest.append(key)
        else:
            phrases.append((key, text))
    rest += [k for k in match if k not in MATCH_KEYS]
    return phrases, rest


def player_x_phrases(px) -> list[str] | None:
    """`player x 1 change or revoke`; `player x 2 changes` and `player x may not revoke`; …; None for a map
    the phrases cannot say (empty, or with other keys or values)."""
    if not isinstance(px, dict) or not px or set(px) - {"changes", "revoke"}:
        return None
    changes, revoke = px.get("changes"), px.get("revoke")
    if "changes" in px and not (is_int(changes) and changes >= 0) or "revoke" in px and not isinstance(revoke, bool):
        return None
    parts = []
    if "changes" in px:
        parts.append(f"player x {changes} {'change' if changes == 1 else 'changes'}{' or revoke' if revoke is True else ''}")
    if revoke is False or "changes" not in px:
        parts.append("player x may revoke" if revoke else "player x may not revoke")
    return parts


def honour_text(hid, rule) -> str | None:
    """`honour ID MOMENT: "says"`, or None when the rule cannot be written so."""
    if not isinstance(hid, str) or not CLAUSE_ID.fullmatch(hid) or not isinstance(rule, dict) or set(rule) != {"at", "says"}:
        return None
    at, says = rule["at"], rule["says"]
    if not isinstance(at, str) or at not in MOMENT_PHRASES or not isinstance(says, str):
        return None
    return f"honour {hid} {MOMENT_PHRASES[at]}:{SAYS_AFTER_COLON}{quote(says)}"


GROUPING_KEYS = {"name", "says", "rank", "cards", "when", "of", "count", "enabled"}


def _options(d) -> str | None:
    """` rank N named "X" on|off` of a grouping or cripple, or None when a value cannot be written so."""
    out = ""
    if "rank" in d:
        if not is_int(d["rank"]) or d["rank"] < 0:
            return None
        out += f" rank {d['rank']}"
    if "name" in d:
        if not isinstance(d["name"], str):
            return None
        out += f" named {quote(d['name'])}"
    if "enabled" in d:
        if not isinstance(d["enabled"], bool):
            return None
        out += " on" if d["enabled"] else " off"
    return out


def grouping_text(gid, g) -> str | None:
    """`grouping ID [rank N] [named "X"] [on|off]: BODY ["says"]`, or None when it cannot be written so."""
    if not isinstance(gid, str) or not CLAUSE_ID.fullmatch(gid) or not isinstance(g, dict) or set(g) - GROUPING_KEYS:
        return None
    opts = _options(g)
    if opts is None or "says" in g and not isinstance(g["says"], str):
        return None
    if set(g) >= {"of", "count"} and not {"cards", "when"} & set(g):
        if not isinstance(g["of"], str) or not CLAUSE_ID.fullmatch(g["of"]) or not is_int(g["count"]) or g["count"] < 0:
            return None
        body = f"{g['count']} of {g['of']}"
    elif set(g) >= {"cards", "when"} and not {"of", "count"} & set(g):
        cards, when = g["cards"], g["when"]
        if not bare_expression(when):
            return None
        if is_int(cards) and cards >= 0:
            body = f"{cards} {'card' if cards == 1 else 'cards'} when {when}"
        elif isinstance(cards, list) and len(cards) == 2 and all(is_int(x) and x >= 0 for x in cards) and cards[0] <= cards[1]:
            body = f"{cards[0]} to {cards[1]} cards when {when}"
        else:
            return None
    else:
        return None
    return f"grouping {gid}{opts}: {body}{says_mark(g)}"


def cripple_text(cid, c) -> str | None:
    """`cripple ID [rank N] [on|off]: BY beats A or B ["says"]`, or None when it cannot be written so."""
    if not isinstance(cid, str) or not CLAUSE_ID.fullmatch(cid) or not isinstance(c, dict) or set(c) - {"by", "beats", "rank", "enabled", "says"}:
        return None
    if "name" in c or not {"by", "beats"} <= set(c):
        return None
    opts = _options(c)
    by, beats = c["by"], c["beats"]
    if opts is None or not isinstance(by, str) or not CLAUSE_ID.fullmatch(by) or not isinstance(beats, list) or not beats:
        return None
    if not all(isinstance(b, str) and CLAUSE_ID.fullmatch(b) for b in beats) or "says" in c and not isinstance(c["says"], str):
        return None
    return f"cripple {cid}{opts}: {by} beats {' or '.join(beats)}{says_mark(c)}"


def hands_phrases(hands: dict) -> tuple[list[tuple[str, str]], list[str]]:
    """The phrases of the `hands:` line [(key, text)] and the keys of `hands` that need `set` (or statements)."""
    phrases, rest = [], []
    for key in ("size", "budget"):
        if key in hands:
            v = hands[key]
            if is_int(v) and v >= 0:
                phrases.append((key, f"{v} {'card' if v == 1 else 'cards'}" if key == "size" else f"budget {v}"))
            else:
                rest.append(key)
    rest += [k for k in hands if k not in ("size", "budget")]
    return phrases, rest


def card_text(c) -> str:
    if not isinstance(c, dict) or set(c) != {"rank", "suit"}:
        raise Unwritable("card")
    return f"{rank(c['rank'], ('none',))} of {name(c['suit'])}"


def pattern_text(key: str, p) -> str | None:
    """`compulsory ID [trigger]: PATTERN` (or `auto …`), or None when the pattern cannot be written so."""
    if not isinstance(p, dict) or "id" not in p or not isinstance(p["id"], str) or not CLAUSE_ID.fullmatch(p["id"]):
        return None
    body = pattern_body({k: v for k, v in p.items() if k != "id"})
    if body is None:
        return None
    trigger, rest = body
    return f"{key} {p['id']}{trigger}:{rest}"


def pattern_value(p) -> str | None:
    """A move pattern as the value of `set compulsory.ID …`: `[on request] from field to foundation …`."""
    body = pattern_body(p)
    if body is None or not (body[0] + body[1]).strip():
        return None
    return (body[0] + body[1]).strip()


def pattern_body(p) -> tuple[str, str] | None:
    """(the trigger's words, the pattern's words) of a move pattern without its id, each with a leading blank, or
    None when it cannot be written so."""
    if not isinstance(p, dict) or set(p) - {"kind", "from", "to", "when", "trigger", "says"}:
        return None
    head = ""
    trigger = p.get("trigger")
    if trigger is not None:
        if trigger not in ("on-request", "each-move"):
            return None
        head = " on request" if trigger == "on-request" else " after each move"
    out = ""
    if "kind" in p:
        if p["kind"] not in ("move", "deal", "redeal", "discard"):
            return None
        out += f" {p['kind']}"
    for field_ in ("from", "to"):
        if field_ not in p:
            continue
        g = p[field_]
        if isinstance(g, str):
            out += f" {field_} {name(g)}"
        elif isinstance(g, list) and all(isinstance(x, str) for x in g):
            if len(g) >= 2:
                out += f" {field_} " + " or ".join(name(x) for x in g)
            else:
                out += f" {field_} [{', '.join(name(x) for x in g)}]"
        else:
            return None
    if "when" in p:
        if not bare_expression(p["when"]):
            return None
        out += f" when {p['when']}"
    if "says" in p:
        if not isinstance(p["says"], str):
            return None
        out += says_mark(p)
    return head, out


def lose_text(item) -> str | None:
    if not isinstance(item, dict) or set(item) - {"id", "when", "says"} or not {"id", "when"} <= set(item):
        return None
    if not isinstance(item["id"], str) or not CLAUSE_ID.fullmatch(item["id"]) or not bare_expression(item["when"]):
        return None
    if "says" in item and not isinstance(item["says"], str):
        return None
    return f"lose {item['id']} when {item['when']}{says_mark(item)}"


def lose_value(item) -> str | None:
    """A loss condition as the value of `set lose.ID …`: `when EXPR "says"`."""
    if not isinstance(item, dict) or "id" in item:
        return None
    text = lose_text({"id": "x", **item})
    return None if text is None else text[len("lose x "):]


def layout_text(group, hint) -> str | None:
    """`layout GROUP: row R, column C, fan F` (the phrases given, in that order), or None when a hint cannot be
    written so."""
    if not isinstance(group, str) or not isinstance(hint, dict) or not hint or set(hint) - {"row", "column", "fan"}:
        return None
    phrases = []
    for key in ("row", "column"):
        if key in hint:
            if not is_int(hint[key]) or hint[key] < 0:
                return None
            phrases.append(f"{key} {hint[key]}")
    if "fan" in hint:
        if hint["fan"] not in FANS:
            return None
        phrases.append(f"fan {hint['fan']}")
    return f"layout {name(group)}: {', '.join(phrases)}"
