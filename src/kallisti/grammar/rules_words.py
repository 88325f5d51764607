"""The `.rules` and rule-change parsers, and the words of the `.rules` syntax that its reader and writer share."""

from __future__ import annotations

import functools
import re

from lark import Lark

from kallisti.grammar.cache import lark_parser
from kallisti.rule_words import DIRECTIONS, SIMPLE, SUITS
from kallisti.schema import MOMENTS, schema

STARTS = ["statement", "pile_items", "deck_items", "match_items", "hands_items", "rule_item", "says_line", "value_flow", "value_expr", "value_pile",
          "value_pattern", "value_lose"]
# Top-level keys of a ruleset file (every key its schema knows): a path whose first segment is none of
# these starts with a pile group.
TOP_KEYS = tuple(schema("file")["properties"])
MACRO_ALIASES = {  # the readable phrases of a pile line for the macros `any` and `none`
    "build": {"any": "build on any card", "none": "no building"},
    "empty": {"any": "a space takes any card", "none": "a space takes nothing"},
    "take": {"any": "move any cards", "none": "nothing leaves"},
    "sequence": {"any": "move runs in any order", "none": "move no runs"},
    "dealing": {"any": "deal at any time", "none": "no dealing"},
    "discard": {"any": "discard any cards", "none": "no discards"},
}
RULE_LEADS = {"build": "build", "empty": "a space takes", "take": "move", "sequence": "move runs", "dealing": "dealing", "discard": "discard"}
ROLES = ("tableau", "foundation", "stock", "waste", "reserve", "cell", "line", "field", "hand", "discard")
# The words of each moment of play: the moment's name read as words, `at` before the ones that are not
# `before` something. A moment may also be written as its name (`before-deal`).
MOMENT_PHRASES = {m: ("" if m.startswith("before-") else "at ") + m.replace("-", " ") for m in MOMENTS}
MATCH_PACKS = {"per-seat": "pack per seat", "shared": "shared pack"}
MATCH_OVER = {"higher-loses": "higher loses", "first-loses": "first loses", "draw": "draw"}


@functools.lru_cache(maxsize=1)
def rules_parser() -> Lark:
    """The LALR parser of rules.lark (with the expression grammar imported), made once a process when first needed
    (from the parser cache: grammar/cache.py)."""
    return lark_parser("rules.lark", parser="lalr", lexer="contextual", start=STARTS, propagate_positions=True,
                       maybe_placeholders=True)


@functools.lru_cache(maxsize=1)
def change_parser() -> Lark:
    """The LALR parser of change.lark (with the expression grammar imported), made once a process when first needed
    (from the parser cache: grammar/cache.py)."""
    return lark_parser("change.lark", parser="lalr", lexer="contextual", start="change", propagate_positions=True,
                       maybe_placeholders=True)


@functools.lru_cache(maxsize=1)
def keywords() -> frozenset:
    """Every keyword of the .rules and rule-change grammars (words the writer quotes when they are names)."""
    out = set()
    for parser in (rules_parser(), change_parser()):
        for term in parser.terminals:
            if type(term.pattern).__name__ == "PatternStr" and re.fullmatch(r"[a-z][a-z-]*", term.pattern.value):
                out.add(term.pattern.value)
    return frozenset(out)


@functools.lru_cache(maxsize=1)
def name_reserved() -> frozenset:
    """The keywords that may come right after a name, rank or symbol somewhere in the grammar (`of`, `and`,
    `or`, `to`, `pile`, …). The contextual lexer reads such a word there as the keyword, so a name
    spelled like one is written quoted; `each`, `nothing` and `none` open some name lists."""
    from lark.parsers.lalr_analysis import Reduce

    parser = rules_parser()
    words = {t.name: t.pattern.value for t in parser.terminals if type(t.pattern).__name__ == "PatternStr"}
    out = {"each", "nothing", "none", "of", "and", "or", "to", "when", "pile", "piles", "letter", "symbol"}
    try:
        states = parser.parser.parser.parser.parse_table.states
    except AttributeError:  # pragma: no cover - a Lark without these internals: the list above
        return frozenset(out)
    for actions in states.values():
        if any(a is Reduce and arg.origin.name in ("name", "rank", "symbol") for a, arg in actions.values()):
            out |= {words[t] for t in actions if t in words and words[t].isalpha()}
    return frozenset(out)


@functools.lru_cache(maxsize=1)
def macro_phrases() -> tuple:
    """Every macro phrase the grammar reads bare (kallisti/rule_words.py knows them all)."""
    out = list(SIMPLE)
    for d in DIRECTIONS:
        for s in [""] + list(SUITS):
            for w in ("", " with wrap", " wrapping"):
                out.append(f"{d}{' ' + s if s else ''}{w}")
    return tuple(out)


# ---- lines -----------------------------------------------------------------------------------
