"""Write ruleset data as `.rules` text: `to_rules(data)` is the canonical form of a ruleset file.

Every value has one canonical spelling, so writing is deterministic and `parse_rules(to_rules(d))`
gives back `d` as plain data. A value the readable phrases cannot say exactly (a boolean rule, a
clause with a `macro` key, an expression that spans lines…) is written on a `set PATH VALUE` line
in the flow syntax, so nothing is lost. Comments kept by the reader (`LDict.comments`,
`LList.comments`) are written back before the line of their key or item.
"""

from __future__ import annotations

import functools
import json
import math
import re
import textwrap

from kallisti.grammar.rules_front import (
    MACRO_ALIASES, MATCH_OVER, MATCH_PACKS, MOMENT_PHRASES, ROLES, RULE_KEYS, RULE_LEADS, TOP_KEYS, macro_phrases, name_reserved,
)
from kallisti.schema import FANS, SHUFFLES

WIDTH = 100
STEP = "    "
STATEMENT_WORDS = {"game", "extends", "description", "deck", "auto", "compulsory", "lose", "win", "score", "honour", "match", "add",
                   "changes", "set", "hands", "grouping", "cripple", "layout"}
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CID = re.compile(r"[a-z0-9][a-z0-9-]*")
_REF = re.compile(r"[A-Za-z0-9_.\/-]+")
_PATH = re.compile(r"[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*")
_CHANGE_ID = re.compile(r"[A-Za-z0-9_.:-]+")
_FKEY = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")
_FWORDS = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*(?: [A-Za-z_][A-Za-z0-9_.\-]*)*")
_SYM = re.compile(r'[^\s,"#\[\]{}():]+')
GROUP_KEYS = ("count", "role", "tag", "deal", "prefill", "divert", "refill", "top_face_up", "reveal", "build", "empty", "take", "sequence",
              "dealing", "discard", "discard_to", "flip", "turn", "redeals", "redeal")
DECK_KEYS = ("packs", "ranks", "suits", "values", "marks", "wild", "shuffle")
MATCH_KEYS = ("seats", "pack", "start_score", "loses_at", "equal_turns", "last_turns", "both_over", "max_turns", "player_x")


class Unwritable(ValueError):
    """The data holds something no ruleset file can (a key that is not a name, an object)."""


# ---- small values -----------------------------------------------------------------------------
def quote(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def name(s, reserved=()) -> str:
    """A name written bare when the grammar reads it back as the same string, quoted otherwise. A name
    that is a keyword anywhere in the grammar is quoted: the lexer takes the words that may follow a
    name (`of`, `and`, `or`, `to`, `pile`…) as keywords."""
    if not isinstance(s, str):
        raise Unwritable(f"{s!r} is not a name")
    if _WORD.fullmatch(s) and s not in reserved and s not in name_reserved():
        return s
    return quote(s)


def rank(r, reserved=()) -> str:
    if _is_int(r) and r >= 0:
        return str(r)
    if isinstance(r, str):
        return name(r, reserved)
    raise Unwritable(f"{r!r} is not a rank")


def plain_text(s) -> str:
    """Free text to the end of a line (game, description): bare when it reads back the same."""
    if isinstance(s, str) and s and s == s.strip() and not any(c in s for c in '"#') and s.isprintable():
        return s
    if isinstance(s, str):
        return quote(s)
    raise Unwritable(f"{s!r} is not text")


def flow(v) -> str:
    """A value in the flow syntax."""
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    if _is_int(v):
        return str(v)
    if isinstance(v, float):
        text = repr(v)
        if not math.isfinite(v) or not re.fullmatch(r"-?[0-9]+\.[0-9]+([eE][+-]?[0-9]+)?", text):
            raise Unwritable(f"the number {v!r} has no flow spelling")
        return text
    if isinstance(v, str):
        if _FWORDS.fullmatch(v) and v.split(" ")[0] not in ("true", "false", "null"):
            return v
        return quote(v)
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(flow(x) for x in v) + "]"
    if isinstance(v, dict):
        items = []
        for k, x in v.items():
            if not isinstance(k, str):
                raise Unwritable(f"the key {k!r} is not a string")
            items.append(f"{k if _FKEY.fullmatch(k) else quote(k)}: {flow(x)}")
        return "{" + ", ".join(items) + "}"
    raise Unwritable(f"{v!r} has no flow spelling")


@functools.lru_cache(maxsize=4096)
def bare_expression(s) -> bool:
    """Whether an expression string can be written bare: one line, and read back as exactly itself."""
    if not isinstance(s, str) or not s or s != s.strip() or "\n" in s or "#" in s or not s.isprintable():
        return False
    from lark.exceptions import UnexpectedInput

    from kallisti.grammar.rules_front import Line, expr_text, rules_parser

    try:
        tree = rules_parser().parse(s, start="value_expr")
    except UnexpectedInput:
        return False
    return expr_text(Line("", 1, 0, s), tree.children[0])[0] == s


def expr_value(v) -> str:
    """The value of `set` at an expression path: bare, true/false, or a quoted text kept as written."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str) and bare_expression(v) and v not in ("true", "false") and not v.startswith('"'):
        return v
    if isinstance(v, str):
        return quote(v)
    raise Unwritable(f"{v!r} is not an expression")


def short_path(path: str) -> str:
    """A patch path as a change statement writes it: `piles.` left out when the reader puts it back."""
    parts = path.split(".")
    if len(parts) >= 2 and parts[0] == "piles" and parts[1] not in TOP_KEYS and not (len(parts) == 3 and parts[2] in ("columns", "piles")):
        return ".".join(parts[1:])
    return path


SAYS = "  \x00"  # where a line's quoted `says` text begins (the writer may move it to a continuation line)
SAYS_AFTER_COLON = " \x01"  # the same after a colon, where one blank comes before the text (an honour rule)


def _says_mark(d) -> str:
    return f"{SAYS}{quote(d['says'])}" if "says" in d else ""


# ---- clauses, rules, pile phrases ----------------------------------------------------------------
def clause_text(c) -> str | None:
    """`require ID: EXPR  "says"`, or None when the clause cannot be written so."""
    if not isinstance(c, dict) or set(c) - {"id", "require", "forbid", "says"} or "id" not in c:
        return None
    kinds = [k for k in ("require", "forbid") if k in c]
    if len(kinds) != 1 or not isinstance(c["id"], str) or not _CID.fullmatch(c["id"]):
        return None
    e = c[kinds[0]]
    if not isinstance(e, str) or not bare_expression(e) or "says" in c and not isinstance(c["says"], str):
        return None
    return f"{kinds[0]} {c['id']}: {e}{_says_mark(c)}"


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
    if count is not None and not (_is_int(count) and count >= 0) or each is not None and each is not True:
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
    count_ok = "count" in group and _is_int(count) and count >= 0
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
            if isinstance(value, dict) and set(value) == {"from", "count"} and isinstance(value["from"], str) and _is_int(value["count"]) \
                    and value["count"] >= 0:
                text = f"refill {value['count']} {'card' if value['count'] == 1 else 'cards'} from {name(value['from'])}"
        elif key == "discard_to":
            text = f"discard to {name(value)}" if isinstance(value, str) else None
        elif key == "top_face_up":
            text = {True: "top card face up", False: "top card as dealt"}.get(value) if isinstance(value, bool) else None
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
            if value == 0 and _is_int(value):
                text = "no redeal"
            elif _is_int(value) and value > 0:
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
                if _is_int(v) and v >= 0:
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
                                t += f" {extra} {x if _SYM.fullmatch(x) and x not in name_reserved() else quote(x)}"
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
                        if _is_int(n):
                            texts.append(f"{head} {n}")
                        elif isinstance(n, list) and all(_is_int(x) for x in n) and len(n) >= 2:
                            texts.append(f"{head} " + " or ".join(str(x) for x in n))
                        elif isinstance(n, list) and all(_is_int(x) for x in n):
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
        if key in ("seats", "max_turns") and _is_int(v) and v >= 0:
            text = f"{v} {'seat' if v == 1 else 'seats'}" if key == "seats" else f"at most {v} {'turn' if v == 1 else 'turns'}"
        elif key in ("start_score", "loses_at") and _is_int(v):
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
    if "changes" in px and not (_is_int(changes) and changes >= 0) or "revoke" in px and not isinstance(revoke, bool):
        return None
    parts = []
    if "changes" in px:
        parts.append(f"player x {changes} {'change' if changes == 1 else 'changes'}{' or revoke' if revoke is True else ''}")
    if revoke is False or "changes" not in px:
        parts.append("player x may revoke" if revoke else "player x may not revoke")
    return parts


def honour_text(hid, rule) -> str | None:
    """`honour ID MOMENT: "says"`, or None when the rule cannot be written so."""
    if not isinstance(hid, str) or not _CID.fullmatch(hid) or not isinstance(rule, dict) or set(rule) != {"at", "says"}:
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
        if not _is_int(d["rank"]) or d["rank"] < 0:
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
    if not isinstance(gid, str) or not _CID.fullmatch(gid) or not isinstance(g, dict) or set(g) - GROUPING_KEYS:
        return None
    opts = _options(g)
    if opts is None or "says" in g and not isinstance(g["says"], str):
        return None
    if set(g) >= {"of", "count"} and not {"cards", "when"} & set(g):
        if not isinstance(g["of"], str) or not _CID.fullmatch(g["of"]) or not _is_int(g["count"]) or g["count"] < 0:
            return None
        body = f"{g['count']} of {g['of']}"
    elif set(g) >= {"cards", "when"} and not {"of", "count"} & set(g):
        cards, when = g["cards"], g["when"]
        if not bare_expression(when):
            return None
        if _is_int(cards) and cards >= 0:
            body = f"{cards} {'card' if cards == 1 else 'cards'} when {when}"
        elif isinstance(cards, list) and len(cards) == 2 and all(_is_int(x) and x >= 0 for x in cards) and cards[0] <= cards[1]:
            body = f"{cards[0]} to {cards[1]} cards when {when}"
        else:
            return None
    else:
        return None
    return f"grouping {gid}{opts}: {body}{_says_mark(g)}"


def cripple_text(cid, c) -> str | None:
    """`cripple ID [rank N] [on|off]: BY beats A or B ["says"]`, or None when it cannot be written so."""
    if not isinstance(cid, str) or not _CID.fullmatch(cid) or not isinstance(c, dict) or set(c) - {"by", "beats", "rank", "enabled", "says"}:
        return None
    if "name" in c or not {"by", "beats"} <= set(c):
        return None
    opts = _options(c)
    by, beats = c["by"], c["beats"]
    if opts is None or not isinstance(by, str) or not _CID.fullmatch(by) or not isinstance(beats, list) or not beats:
        return None
    if not all(isinstance(b, str) and _CID.fullmatch(b) for b in beats) or "says" in c and not isinstance(c["says"], str):
        return None
    return f"cripple {cid}{opts}: {by} beats {' or '.join(beats)}{_says_mark(c)}"


def hands_phrases(hands: dict) -> tuple[list[tuple[str, str]], list[str]]:
    """The phrases of the `hands:` line [(key, text)] and the keys of `hands` that need `set` (or statements)."""
    phrases, rest = [], []
    for key in ("size", "budget"):
        if key in hands:
            v = hands[key]
            if _is_int(v) and v >= 0:
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
    if not isinstance(p, dict) or "id" not in p or not isinstance(p["id"], str) or not _CID.fullmatch(p["id"]):
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
        out += _says_mark(p)
    return head, out


def lose_text(item) -> str | None:
    if not isinstance(item, dict) or set(item) - {"id", "when", "says"} or not {"id", "when"} <= set(item):
        return None
    if not isinstance(item["id"], str) or not _CID.fullmatch(item["id"]) or not bare_expression(item["when"]):
        return None
    if "says" in item and not isinstance(item["says"], str):
        return None
    return f"lose {item['id']} when {item['when']}{_says_mark(item)}"


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
            if not _is_int(hint[key]) or hint[key] < 0:
                return None
            phrases.append(f"{key} {hint[key]}")
    if "fan" in hint:
        if hint["fan"] not in FANS:
            return None
        phrases.append(f"fan {hint['fan']}")
    return f"layout {name(group)}: {', '.join(phrases)}"


def change_text(p) -> str:
    """A patch as a rule-change statement (`forbid foundation.build x: …`), or as a flow map when no
    statement says it exactly; parse_change reads it back as the same patch."""
    return _change_line(p).replace(SAYS, "  ").replace(SAYS_AFTER_COLON, " ")


def _change_line(p) -> str:
    try:
        text = _change_statement(p)
    except Unwritable:
        text = None
    return text if text is not None else flow(p)


def _change_statement(p) -> str | None:
    if not isinstance(p, dict) or len(p) == 0:
        return None
    verbs = [v for v in ("set", "add", "delete", "require", "forbid", "replace", "remove", "revoke") if v in p]
    if "replace" in p:  # its clause's kind is a key too
        verbs = [v for v in verbs if v not in ("require", "forbid")]
    if len(verbs) != 1:
        return None
    verb = verbs[0]
    target = p[verb]
    if not isinstance(target, str):
        return None
    if verb == "revoke":
        if set(p) != {"revoke"}:
            return None
        return f"revoke {target if _CHANGE_ID.fullmatch(target) else quote(target)}"
    if verb == "add" and set(p) == {"add", "value"} and target.startswith("honour."):
        text = honour_text(target[len("honour."):], p["value"])
        if text is not None:
            return text
    head, _, item = target.partition(".")
    if verb == "add" and set(p) == {"add", "value"} and head in ("auto", "compulsory", "lose") and _CID.fullmatch(item) \
            and isinstance(p["value"], dict) and "id" not in p["value"]:
        # a new move pattern or loss condition, declared as in a ruleset file
        text = lose_text({"id": item, **p["value"]}) if head == "lose" else pattern_text(head, {"id": item, **p["value"]})
        if text is not None:
            return text
    if not _PATH.fullmatch(target):
        return None
    from kallisti.grammar.rules_front import path_parts, resolve_path, value_kind

    path = short_path(target)
    if resolve_path(path) != target:
        return None
    if verb in ("set", "add"):
        if set(p) != {verb, "value"}:
            return None
        how = value_kind(path_parts(target))
        v = p["value"]
        if how == "expr":
            value = expr_value(v)
        elif how == "pile":
            value = _pile_value(v)
        elif how in ("pattern", "lose"):
            # the words of a pattern or loss condition, or a map; anything else only the raw map can say
            value = (pattern_value(v) if how == "pattern" else lose_value(v)) or (flow(v) if isinstance(v, dict) else None)
            if value is None:
                return None
        else:
            value = flow(v)
        return f"{verb} {path} {value}"
    if verb == "delete":
        return f"delete {path}" if set(p) == {"delete"} else None
    cid = p.get("id")
    if not isinstance(cid, str) or not _CID.fullmatch(cid):
        return None
    if verb == "remove":
        return f"remove {path} {cid}" if set(p) == {"remove", "id"} else None
    if "says" in p and not isinstance(p["says"], str):
        return None
    if verb in ("require", "forbid"):
        if set(p) - {verb, "id", "expr", "says"} or "expr" not in p or not bare_expression(p["expr"]):
            return None
        return f"{verb} {path} {cid}: {p['expr']}{_says_mark(p)}"
    kinds = [k for k in ("require", "forbid", "expr") if k in p]
    if len(kinds) != 1 or set(p) - {"replace", "id", kinds[0], "says"} or not bare_expression(p[kinds[0]]):
        return None
    kind = "" if kinds[0] == "expr" else f" {kinds[0]}"  # `expr`: the clause keeps its kind
    return f"replace {path} {cid}{kind}: {p[kinds[0]]}{_says_mark(p)}"


def _pile_value(v) -> str:
    """A whole pile group after `set piles.G` / `add piles.G`: pile phrases when they say everything."""
    if isinstance(v, dict):
        phrases, blocks, rest = pile_phrases(v)
        if not blocks and not rest and phrases:
            return ", ".join(t for _, t in phrases)
        return flow(v)
    raise Unwritable("a pile group must be a map")


# ---- the document ---------------------------------------------------------------------------------
class _Writer:
    def __init__(self):
        self.out: list[str] = []

    def emit(self, ind: str, text: str) -> None:
        """Write a line; a quoted `says` text that would make it long goes on a continuation line."""
        for mark, gap in ((SAYS, "  "), (SAYS_AFTER_COLON, " ")):
            if mark in text:
                head, says = text.split(mark, 1)
                if len(ind) + len(head) + len(gap) + len(says) > WIDTH:
                    self.out.append(ind + head)
                    self.out.append(ind + STEP + says)
                    return
                text = f"{head}{gap}{says}"
        self.out.append(ind + text)

    def comments(self, ind: str, node, key) -> None:
        notes = getattr(node, "comments", {}).get(key) if hasattr(node, "comments") else None
        for note in notes or ():
            self.out.append(f"{ind}# {note}".rstrip() if note else f"{ind}#")

    def blank(self) -> None:
        if self.out and self.out[-1].strip():
            self.out.append("")

    def items(self, ind: str, head: str, node, phrases: list[tuple[str, str]]) -> None:
        """A line of phrases, continued on indented lines when it grows long; a phrase with comments
        starts a continuation line, below its comments."""
        line, has = head, False
        seen = set()
        for key, text in phrases:
            noted = key not in seen and bool(getattr(node, "comments", {}).get(key))
            seen.add(key)
            if noted or has and len(ind) + len(line) + 2 + len(text) > WIDTH:
                self.emit(ind, line)
                self.comments(ind + STEP, node, key)
                line = STEP + text
            elif has:
                line = f"{line}, {text}"
            else:
                line = f"{line} {text}"
            has = True
        self.emit(ind, line)

    def set_line(self, ind: str, container, key, path: str, value) -> None:
        from kallisti.grammar.rules_front import path_parts, value_kind

        self.comments(ind, container, key)
        how = value_kind(path_parts(path))
        if how == "expr":
            text = expr_value(value)
        elif how == "pile":
            text = _pile_value(value)
        else:
            text = flow(value)
        if not _PATH.fullmatch(path):
            raise Unwritable(f"the path {path!r} cannot be written")
        self.emit(ind, f"set {short_path(path)} {text}")

    def document(self, d: dict, ind: str) -> None:
        if not isinstance(d, dict):
            raise Unwritable("a ruleset is a map of keys")
        head = len(self.out)
        for key in ("game", "extends", "description"):
            if key in d:
                self.comments(ind, d, key)
                getattr(self, "w_" + key)(d, ind)
        if "deck" in d:
            self.w_deck(d, ind)
        if len(self.out) > head:
            self.blank()
        if "piles" in d:
            self.w_piles(d, ind)
            self.blank()
        for key in ("auto", "compulsory"):
            if key in d:
                self.w_patterns(d, key, ind)
        if "lose" in d:
            self.w_lose(d, ind)
        for key, lead in (("win", "win when"), ("score", "score")):
            if key in d:
                v = d[key]
                if isinstance(v, str) and bare_expression(v):
                    self.comments(ind, d, key)
                    self.emit(ind, f"{lead} {v}")
                else:
                    self.set_line(ind, d, key, key, v)
        if "honour" in d or "match" in d or "hands" in d:
            self.blank()
        if "honour" in d:
            self.w_honour(d, ind)
        if "match" in d:
            self.w_match(d, ind)
        if "hands" in d:
            self.w_hands(d, ind)
        for key in ("table", "modifiers"):
            if key in d:
                self.set_line(ind, d, key, key, d[key])  # no phrases yet: a flow map
        if "layout" in d:
            self.blank()
            self.w_layout(d, ind)
        if "add" in d:
            self.blank()
            block = None
            if isinstance(d["add"], dict) and all(k in TOP_KEYS for k in d["add"]):
                inner = _Writer()
                try:
                    inner.document(d["add"], ind + STEP)
                    block = inner.out
                except Unwritable:
                    block = None
            if block is not None:
                self.comments(ind, d, "add")
                self.emit(ind, "add:")
                self.out += block
                while self.out and not self.out[-1].strip():
                    self.out.pop()
            else:
                self.set_line(ind, d, "add", "add", d["add"])
        if "changes" in d:
            self.blank()
            changes = d["changes"]
            if isinstance(changes, list):
                self.comments(ind, d, "changes")
                self.emit(ind, "changes:")
                for i, p in enumerate(changes):
                    self.comments(ind + STEP, changes, i)
                    self.emit(ind + STEP, _change_line(p))
            else:
                self.set_line(ind, d, "changes", "changes", changes)
        others = [k for k in d if k not in TOP_KEYS and k != ""]
        if others:
            raise Unwritable(f"{', '.join(map(repr, others))} {'is not a key' if len(others) == 1 else 'are not keys'} of a ruleset file")
        if ind == "" and getattr(d, "comments", {}).get(""):
            self.blank()
            self.comments(ind, d, "")

    def w_game(self, d, ind):
        if isinstance(d["game"], str):
            self.emit(ind, f"game: {plain_text(d['game'])}")
        else:
            self.emit(ind, f"set game {flow(d['game'])}")

    def w_extends(self, d, ind):
        v = d["extends"]
        if isinstance(v, str):
            self.emit(ind, f"extends {v if _REF.fullmatch(v) else quote(v)}")
        else:
            self.emit(ind, f"set extends {flow(v)}")

    def w_description(self, d, ind):
        v = d["description"]
        if not isinstance(v, str):
            self.emit(ind, f"set description {flow(v)}")
            return
        block = _description_block(v)
        if block is not None:
            self.emit(ind, "description:")
            for line in block:
                self.out.append(ind + STEP + line if line else "")
        elif v and "\n" not in v:
            self.emit(ind, f"description: {plain_text(v)}")
        else:
            self.emit(ind, f"description: {quote(v)}")

    def w_deck(self, d, ind):
        deck = d["deck"]
        self.comments(ind, d, "deck")
        if not isinstance(deck, dict):
            self.emit(ind, f"set deck {flow(deck)}")
            return
        phrases, rest = deck_phrases(deck)
        self.items(ind, "deck:", deck, phrases)
        for key in rest:
            self.set_line(ind, deck, key, f"deck.{key}", deck[key])

    def w_match(self, d, ind):
        match = d["match"]
        self.comments(ind, d, "match")
        if not isinstance(match, dict):
            self.emit(ind, f"set match {flow(match)}")
            return
        phrases, rest = match_phrases(match)
        self.items(ind, "match:", match, phrases)
        for key in rest:
            self.set_line(ind, match, key, f"match.{key}", match[key])

    def w_hands(self, d, ind):
        hands = d["hands"]
        self.comments(ind, d, "hands")
        if not isinstance(hands, dict):
            self.emit(ind, f"set hands {flow(hands)}")
            return
        phrases, rest = hands_phrases(hands)
        self.items(ind, "hands:", hands, phrases)
        for key, text_of in (("groupings", grouping_text), ("cripples", cripple_text)):
            if key not in rest:
                continue
            box = hands[key]
            texts = [text_of(k, v) for k, v in box.items()] if isinstance(box, dict) and box else [None]
            if any(t is None for t in texts):
                continue  # written with `set` below
            rest.remove(key)
            for k, text in zip(box, texts):
                self.comments(ind, box, k)
                self.emit(ind, text)
        for key in rest:
            self.set_line(ind, hands, key, f"hands.{key}", hands[key])

    def w_honour(self, d, ind):
        honour = d["honour"]
        texts = [honour_text(k, v) for k, v in honour.items()] if isinstance(honour, dict) else [None]
        if any(t is None for t in texts):
            self.set_line(ind, d, "honour", "honour", honour)
            return
        self.comments(ind, d, "honour")
        if not honour:
            self.emit(ind, "honour: none")
            return
        for key, text in zip(honour, texts):
            self.comments(ind, honour, key)
            self.emit(ind, text)

    def w_layout(self, d, ind):
        layout = d["layout"]
        texts = [layout_text(k, v) for k, v in layout.items()] if isinstance(layout, dict) else [None]
        if any(t is None for t in texts):
            self.set_line(ind, d, "layout", "layout", layout)
            return
        self.comments(ind, d, "layout")
        if not layout:
            self.emit(ind, "layout: none")
            return
        for key, text in zip(layout, texts):
            self.comments(ind, layout, key)
            self.emit(ind, text)

    def w_piles(self, d, ind):
        piles = d["piles"]
        if not isinstance(piles, dict) or not piles:
            self.comments(ind, d, "piles")
            self.emit(ind, f"set piles {flow(piles)}")
            return
        self.comments(ind, d, "piles")
        for g, group in piles.items():
            if not isinstance(g, str) or not _WORD.fullmatch(g) or g in STATEMENT_WORDS or not isinstance(group, dict):
                self.set_line(ind, piles, g, f"piles.{g}", group)
                continue
            phrases, blocks, rest = pile_phrases(group)
            self.comments(ind, piles, g)
            self.items(ind, f"{g}:", group, phrases)
            for key in blocks:
                self.comments(ind, group, key)
                self.emit(ind, f"{g} {key}:")
                rule = group[key]
                for i, line in enumerate(rule_block(rule)):
                    self.comments(ind + STEP, rule, i)
                    self.emit(ind + STEP, line)
            for key in rest:
                self.set_line(ind, group, key, f"piles.{g}.{key}", group[key])

    def w_patterns(self, d, key, ind):
        items = d[key]
        texts = [pattern_text(key, p) for p in items] if isinstance(items, list) else [None]
        self._list(d, key, ind, items, texts)

    def w_lose(self, d, ind):
        items = d["lose"]
        texts = [lose_text(p) for p in items] if isinstance(items, list) else [None]
        self._list(d, "lose", ind, items, texts)

    def _list(self, d, key, ind, items, texts):
        if any(t is None for t in texts):
            self.set_line(ind, d, key, key, items)
            return
        if not items:
            self.comments(ind, d, key)
            self.emit(ind, f"{key}: none")
            return
        for i, text in enumerate(texts):
            if i == 0 and not getattr(items, "comments", {}).get(0):
                self.comments(ind, d, key)
            self.comments(ind, items, i)
            self.emit(ind, text)


def _description_block(v: str) -> list[str] | None:
    """The lines of a description block (folded text ending in a newline), or None when it cannot be one."""
    if not v.endswith("\n") or v.endswith("\n\n") or not v.strip():
        return None
    return fold_paragraphs(v[:-1], WIDTH - len(STEP))


def fold_paragraphs(core: str, width: int) -> list[str] | None:
    """Lines that fold back into `core` (paragraphs split by newlines, blank lines between), or None
    when folding would change the text (edge spaces, double spaces, unprintable characters)."""
    segments = core.split("\n")
    if not segments[0] or not segments[-1]:
        return None
    lines: list[str] = []
    for i, seg in enumerate(segments):
        if i:
            lines.append("")
        if not seg:
            continue
        if seg != seg.strip() or "  " in seg or not seg.isprintable():
            return None
        lines += textwrap.wrap(seg, width, break_long_words=False, break_on_hyphens=False)
    return lines


def to_rules(data) -> str:
    """Ruleset file data (as the YAML loader or parse_rules gives it) as canonical `.rules` text."""
    w = _Writer()
    w.document(data, "")
    while w.out and not w.out[-1].strip():
        w.out.pop()
    return "\n".join(w.out) + "\n"
