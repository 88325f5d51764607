"""Operators on the expressions of a shipped ruleset's resolved data (clauses, win, score, lose, move patterns, pile
options, hand groupings), written back as a standalone YAML file: the "expression" stage."""

from __future__ import annotations

import re

from .base import (JUDGED_KEYS, Expr, Shipped, add_clause, attributes, expressions, fresh_name, misspell,
                   operator, pick, piles, replace_span, set_in, standalone, where, words)

KEYWORDS = ("and", "or", "not", "in", "true", "false")
VARIABLES = ("card", "top", "cards", "count", "pile", "source", "deck", "first", "last", "ranks", "hand", "moves",
             "last_move")
FUNCTIONS = ("abs", "min", "max", "descending", "ascending", "same_suit", "same_color", "alternating_colors", "totals",
             "consecutive", "same_family", "all", "any", "count", "sum")
ATTRIBUTES = ("rank", "suit", "family", "color", "colour", "value", "values", "marks", "pack", "face_up", "size", "empty",
              "top", "face_down", "index", "cards", "movable", "count", "piles", "packs", "bottom", "played", "dealt",
              "to")
CALL = re.compile(r"\b([a-z_]+)\s*\(")
BINDER = re.compile(r"\(\s*([A-Za-z_]\w*)\s+in\b")
NUMBER = re.compile(r"(?<![\w.])\d+(?![\w.])")
MAX_CHARS, MAX_DEPTH = 2000, 100


def vocabulary(data: dict) -> set[str]:
    """Every name an expression of the ruleset may use: words of the language, groups, ranks, suits, colours, marks."""
    deck = data["deck"]
    return (set(KEYWORDS + VARIABLES + FUNCTIONS) | set(piles(data)) | {str(r) for r in deck["ranks"]}
            | {s["name"] for s in deck["suits"]} | {s["color"] for s in deck["suits"]} | set(deck.get("marks", {})))


def rewritten(game: Shipped, rng, exprs: list[Expr], change, what: str) -> list:
    """One mutant per chosen expression: `change(expr)` gives its new text."""
    out = []
    for e in pick(rng, exprs):
        data = game.fresh()
        text = change(e)
        set_in(data, e.path, text)
        out.append(standalone(data, f"{where(e.path)}: {what}: `{text[:80]}`"))
    return out


def token_edits(game: Shipped, rng, find, change, what: str) -> list:
    """One mutant per chosen token of the game's expressions: `find(text)` gives the tokens (matches), `change(token)`
    the token's new text."""
    places = [(e, m) for e in expressions(game.data) if '"' not in e.text for m in find(e.text)]
    out = []
    for e, m in pick(rng, places):
        data = game.fresh()
        new = change(m)
        set_in(data, e.path, replace_span(e.text, m, new))
        out.append(standalone(data, f"{where(e.path)}: '{m.group()}' written '{new}'"))
    return out


def conditions(game: Shipped) -> list[Expr]:
    return [e for e in expressions(game.data) if e.type == "bool"]


@operator("dangling-and", "expr-syntax")
def dangling_and(game, rng):
    """An expression ends in a dangling `and`, which needs something after it."""
    return rewritten(game, rng, expressions(game.data), lambda e: e.text + " and", "dangling and")


@operator("mistyped-expression", "expr-type")
def mistyped_expression(game, rng):
    """A condition is added to a number (`(C) + 1`), or a number joined to a condition (`(N) and true`): `+` needs
    numbers and `and` true/false."""
    return rewritten(game, rng, expressions(game.data),
                     lambda e: f"({e.text}) + 1" if e.type == "bool" else f"({e.text}) and true", "wrong type")


def with_clause(game: Shipped, rng, keys: tuple, kind: str, clause, what) -> list:
    """One mutant per chosen pile rule (of `keys`) that has a clause added: `clause()` gives its expression, and
    `what(place, text)` the mutant's description (`place` is `piles.NAME.KEY`)."""
    places = [(n, k) for n, g in piles(game.data).items() for k in keys if k in g]
    out = []
    for name, key in pick(rng, places):
        text = clause()
        out.append(standalone(add_clause(game.fresh(), name, key, kind, text), what(f"piles.{name}.{key}", text)))
    return out


@operator("moves-within-moves", "expr-too-costly")
def moves_within_moves(game, rng):
    """A pile rule gets a clause that goes through the moves made once for each move made: a million steps an
    evaluation, past the bound of one evaluation (the moves a rule reads are bounded: MAX_HISTORY_MOVES)."""
    return with_clause(game, rng, ("build", "empty", "take"), "forbid",
                       lambda: "count(m in moves: count(n in moves: n.dealt) > 0) > 3",
                       lambda place, _: f"{place} goes through the moves made for each move made")


@operator("misspelt-move-attribute", "unknown-attribute")
def misspelt_move_attribute(game, rng):
    """A pile rule reads the last move made by an attribute it does not have (`last_move.dealed`)."""
    return with_clause(game, rng, ("build", "empty", "take"), "forbid",
                       lambda: f"last_move.{misspell('dealt', rng, ATTRIBUTES)} and card.rank == first",
                       lambda place, text: f"{place} reads {text.split()[0]}")


@operator("movable-in-rule", "expr-scope")
def movable_in_rule(game, rng):
    """A pile rule gets a clause reading `pile.movable`, which only win, lose and score conditions may read."""
    return with_clause(game, rng, ("build", "empty", "take", "dealing"), "require", lambda: "pile.movable or pile.empty",
                       lambda place, _: f"{place} reads pile.movable")


@operator("misspelt-name", "unknown-name")
def misspelt_name(game, rng):
    """A name an expression reads (a pile group, `card`, `top`, a quantifier's variable in its body, a rank or suit...)
    is misspelt, so it names nothing. Function names and the variables quantifiers bind are left alone (a misspelt
    binder that its body did not read would make no fault)."""
    known = vocabulary(game.data)

    def names(text):
        calls = {m.start(1) for m in CALL.finditer(text)}
        binders = {m.start(1) for m in BINDER.finditer(text)}
        return [m for m in words(text) if m.group() not in KEYWORDS and m.start() not in calls | binders]
    return token_edits(game, rng, names, lambda m: misspell(m.group(), rng, known | {w.group() for w in words(m.string)}),
                       "name")


@operator("misspelt-attribute", "unknown-attribute")
def misspelt_attribute(game, rng):
    """An attribute in an expression (`card.rank`, `foundation.size`) is misspelt, so nothing has it."""
    return token_edits(game, rng, attributes, lambda m: misspell(m.group(), rng, ATTRIBUTES), "attribute")


@operator("misspelt-function", "unknown-function")
def misspelt_function(game, rng):
    """A call in an expression names a misspelt function or quantifier (`sun(...)` for `sum`), which does not exist."""
    def calls(text):
        return [m for m in re.finditer(r"\b[a-z_]+(?=\s*\()", text) if m.group() in FUNCTIONS]
    return token_edits(game, rng, calls, lambda m: misspell(m.group(), rng, FUNCTIONS + KEYWORDS + VARIABLES), "call")


@operator("huge-number", "number-too-large")
def huge_number(game, rng):
    """A number in an expression, not 0, gets ten more zeros, past 10^9, the largest number an expression may write."""
    def numbers(text):
        return [m for m in NUMBER.finditer(text) if int(m.group())]
    return token_edits(game, rng, numbers, lambda m: m.group() + "0" * 10, "number")


@operator("sprawling-expression", "expr-too-long")
def sprawling_expression(game, rng):
    """An expression is repeated, joined by `and` (a number by `+`), until it is longer than the 2,000 characters an
    expression may have."""
    def sprawl(e):
        join = " and " if e.type == "bool" else " + "
        return join.join([f"({e.text})"] * (MAX_CHARS // (len(e.text) + len(join)) + 2))
    return rewritten(game, rng, expressions(game.data), sprawl, "repeated")


@operator("double-negations", "expr-too-deep")
def double_negations(game, rng):
    """A condition is negated 102 times (`not not ... (C)`, which means C), nesting deeper than the 100 levels an
    expression may nest."""
    return rewritten(game, rng, conditions(game), lambda e: "not " * (MAX_DEPTH + 2) + f"({e.text})", "102 negations")


@operator("cubed-quantifiers", "expr-too-costly")
def cubed_quantifiers(game, rng):
    """A condition is joined to three quantifiers nested over the piles of a group (true, but counted as 2,880
    items each: one evaluation could take 2.4 x 10^10 steps)."""
    if not game.data.get("piles"):
        return []  # a game of hands only: no group to go through
    group = next(iter(game.data["piles"]))
    cube = f"count(p in {group}: count(q in {group}: count(r in {group}: p == r) >= 0) >= 0) >= 0"
    return rewritten(game, rng, conditions(game), lambda e: f"({e.text}) and {cube}", "three nested quantifiers")


@operator("reserved-variable", "reserved-variable")
def reserved_variable(game, rng):
    """A condition is joined to a quantifier over a written list whose variable takes a name the rules keep for what a
    rule judges (`all(card in [1, 2]: card > 0)`): true, and well typed inside, but `card` would mean two things."""
    def join(e):
        name = rng.choice(("card", "top", "cards", "count", "pile", "source", "hand"))
        return f"({e.text}) and all({name} in [1, 2]: {name} > 0)"
    return rewritten(game, rng, conditions(game), join, "a quantifier's variable named like a value a rule judges")


@operator("control-character", "expr-control-char")
def control_character(game, rng):
    """A control character (U+0001 to U+001F, but tab, newline and carriage return) is put into an expression."""
    chars = [chr(c) for c in range(1, 32) if chr(c) not in "\t\n\r"]

    def insert(e):
        at = rng.randrange(len(e.text) + 1)
        return e.text[:at] + rng.choice(chars) + e.text[at:]
    return rewritten(game, rng, expressions(game.data), insert, "control character")


@operator("rank-off-the-deck", "unknown-rank")
def rank_off_the_deck(game, rng):
    """A rank the deck does not have (the number one past the last rank) is named: `deck.values` gives it a value, or a
    clause compares a card with it (`card.rank == 14`)."""
    missing = str(len(game.ranks) + 1)
    out = []
    for name, key in pick(rng, [(None, None)] + [(n, k) for n in piles(game.data) for k in JUDGED_KEYS]):
        data = game.fresh()
        if name is None:
            data["deck"]["values"] = {**data["deck"]["values"], missing: 1}
            out.append(standalone(data, f"deck.values names rank {missing}"))
        else:
            add_clause(data, name, key, "forbid", f"card.rank == {missing}")
            out.append(standalone(data, f"piles.{name}.{key} compares card.rank with {missing}"))
    return out


@operator("suit-off-the-deck", "unknown-suit")
def suit_off_the_deck(game, rng):
    """A new mark (`deck.marks`) names its card with a misspelt suit, which the deck does not have."""
    suits = [s["name"] for s in game.data["deck"]["suits"]]
    out = []
    for suit in pick(rng, suits):
        data = game.fresh()
        wrong = misspell(suit, rng, suits)
        mark = fresh_name(data["deck"]["marks"], "lucky")
        data["deck"]["marks"] = {**data["deck"]["marks"], mark: [{"rank": rng.choice(game.ranks), "suit": wrong}]}
        out.append(standalone(data, f"deck.marks.{mark} names suit '{wrong}'"))
    return out

