"""The small values of written `.rules` text: quoted and bare names, ranks, flow values, expressions and paths."""

from __future__ import annotations

import functools
import json
import math
import re

from kallisti.grammar.rules_words import TOP_KEYS, name_reserved

WIDTH = 100
STEP = "    "
STATEMENT_WORDS = {"game", "extends", "description", "deck", "auto", "compulsory", "lose", "win", "score", "honour", "match", "add",
                   "changes", "set", "hands", "grouping", "cripple", "layout"}
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
CLAUSE_ID = re.compile(r"[a-z0-9][a-z0-9-]*")
FILE_REF = re.compile(r"[A-Za-z0-9_.\/-]+")
DOTTED_PATH = re.compile(r"[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*")
CHANGE_ID = re.compile(r"[A-Za-z0-9_.:-]+")
_FKEY = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")
_FWORDS = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*(?: [A-Za-z_][A-Za-z0-9_.\-]*)*")
SYMBOL = re.compile(r'[^\s,"#\[\]{}():]+')
GROUP_KEYS = ("count", "role", "tag", "deal", "prefill", "divert", "refill", "top_face_up", "reveal", "build", "empty", "take", "take_from",
              "sequence", "dealing", "discard", "discard_to", "flip", "turn", "redeals", "redeal")
DECK_KEYS = ("packs", "ranks", "suits", "values", "marks", "wild", "shuffle")
MATCH_KEYS = ("seats", "pack", "start_score", "loses_at", "equal_turns", "last_turns", "both_over", "max_turns", "player_x")


class Unwritable(ValueError):
    """The data holds something no ruleset file can (a key that is not a name, an object)."""


# ---- small values -----------------------------------------------------------------------------
def quote(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def is_int(v) -> bool:
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
    if is_int(r) and r >= 0:
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
    if is_int(v):
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

    from kallisti.grammar.rules_lines import Line
    from kallisti.grammar.rules_values import expr_text
    from kallisti.grammar.rules_words import rules_parser

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


def says_mark(d) -> str:
    return f"{SAYS}{quote(d['says'])}" if "says" in d else ""
