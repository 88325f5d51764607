"""Hypothesis strategies for the fuzzers: text built from each grammar's own pieces, then mutated, and plain noise.

Every text a stranger can hand kallisti has a generator here: an expression, a `.rules` file, a rule change, a
YAML ruleset and a `kallisti play` session. Each mixes two kinds of grammar-aware text: *plausible* text, made of
the real keywords, pile names and well-typed expressions, so that many examples get past the parser and reach
the later stages (schema, checks, compiler, play); and *wild* text, made of the same keywords with nasty names,
numbers and characters in every slot. `mutated()` then breaks either the way a careless or hostile writer would,
and `noise()` is text with no grammar at all.
"""

from __future__ import annotations

import re

import yaml
from hypothesis import strategies as st

from kallisti.catalogue import load_catalogue

# ---- pieces shared by every grammar ------------------------------------------------------------------------
GROUPS = ("tableau", "foundation", "stock", "waste", "reserve", "cell", "field", "line")
# Names a sandbox escape would try, names the host language reserves, and names too long or too strange to show.
NASTY_NAMES = ("__class__", "__import__", "__builtins__", "__dict__", "__subclasses__", "__globals__", "__init__", "mro",
               "self", "eval", "exec", "os", "None", "True", "null", "constructor", "prototype", "a" * 300, "x" * 3000,
               "ταμπλό", "e\u0301", "ǅ", "ﬁ", "𝔱𝔞𝔟")
# Numbers in range, at the limits, past them, and past what Python reads (`int()` refuses 4,300 digits).
NUMBERS = ("0", "1", "-1", "2", "4", "13", "52", "104", "200", "201", "1000000000", "1000000001", "2147483648",
           "18446744073709551616", "9" * 101, "9" * 5000, "00000000000000000000001", "-0", "1.5", "10.0", "1e308",
           "1e999", "0x1F", "1_000", "٣", "²")
# Text an attacker types: terminal escapes, NUL, bidirectional overrides, line separators, a BOM, a lone
# surrogate (which no UTF-8 output can carry), format strings and template syntax.
ODD_TEXT = ("\x00", "\x07", "\x1b[2J", "\x1b]0;pwned\x07", "\x7f", "\x85", "\u2028", "\u202e", "\u2066", "\ufeff", "\r",
            "\t", "\x0b", "\x0c", "\udc80", "é", "♠", "😀", "\\", "\\u001b", "\\udc80", '"', "'", "#", ":", ",", "{", "}",
            "[", "]", "(", ")", "\n", "\n    ", "    ", "{0.__class__}", "%s%n", "%(x)s", "${HOME}", "{{7*7}}", "9**9**9")
MOMENTS = ("at match start", "at turn start", "before deal", "before move", "at turn end", "before-deal", "at lunch")

names = st.one_of(st.sampled_from(GROUPS), st.sampled_from(NASTY_NAMES), st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True))
numbers = st.one_of(st.sampled_from(NUMBERS), st.integers(-3, 300).map(str))
small = st.integers(0, 12).map(str)
ids = st.one_of(st.sampled_from(("x", "same-suit", "aces-up", "no-kings", "a-b-c", "x" * 300)),
                st.from_regex(r"[a-z][a-z0-9-]{0,10}", fullmatch=True))
says = st.one_of(st.sampled_from(('"says"', '"takes no king"', '""')),
                 st.text(st.characters(min_codepoint=32, max_codepoint=0x2000, blacklist_characters='"\\'), max_size=12)
                 .map(lambda s: f'"{s}"'))
quoted = st.one_of(says, st.sampled_from(('"a \\"quoted\\" word"', '"\\u001b[2J"', '"\\udc80"', '"\\x41"', '"{0.__class__}"',
                                          '"unclosed', '"' + "w" * 3000 + '"')))


def weighted(*pairs):
    """One of several strategies, each `weight` times as likely as a strategy of weight 1."""
    return st.one_of(*[s for weight, s in pairs for _ in range(weight)])


# ---- expressions (grammar/expr.lark, compiled by interpreter/compiler.py) ------------------------------------
COMPARE = ("==", "!=", "<", "<=", ">", ">=")
# Well-typed pieces: game-level (win, score, lose; no card in scope) and move-level (clauses of pile rules).
GAME_INTS = ("foundation.size", "tableau.size", "stock.size", "waste.size", "deck.size", "deck.packs", "tableau.count",
             "count(p in tableau: p.empty)", "sum(p in tableau: p.size)", "max(foundation.size, 3)", "abs(tableau.size - 20)",
             "count(p in foundation: p.top.rank == last)", "sum(p in tableau: count(c in p.cards: c.face_up))")
CARD_INTS = ("count", "pile.size", "pile.face_up", "pile.face_down", "pile.index", "card.value", "top.value", "ranks",
             "cards.size", "source.size")
CARD_TESTS = ("card.suit == top.suit", "card.color != top.color", "card.rank == top.rank - 1", "card.rank == top.rank + 1",
              "card.rank == first", "top.rank == last", "card.suit in [hearts, spades]", "descending(cards)",
              "same_suit(cards)", "alternating_colors(cards)", "source in foundation", "card.face_up", "pile.empty",
              "any(c in cards: c.rank == K)", "all(c in cards: c.color == red)", "card.rank in [A, K]")


def _arith(ints):
    return st.one_of(st.sampled_from(ints), small,
                     st.builds(lambda a, op, b: f"{a} {op} {b}", st.sampled_from(ints), st.sampled_from(("+", "-", "*", "//", "%")),
                               st.one_of(small, st.sampled_from(ints))))


def _conditions(atoms):
    """And, or, not and parentheses over `atoms`."""
    return st.recursive(atoms, lambda inner: st.one_of(
        st.builds(lambda a, op, b: f"{a} {op} {b}", inner, st.sampled_from(("and", "or")), inner),
        inner.map(lambda a: f"not ({a})"), inner.map(lambda a: f"({a})")), max_leaves=4)


game_conditions = _conditions(st.one_of(
    st.builds(lambda a, op, b: f"{a} {op} {b}", _arith(GAME_INTS), st.sampled_from(COMPARE), _arith(GAME_INTS)),
    st.sampled_from(("true", "false", "foundation.empty", "stock.empty", "any(p in tableau: p.size > 3)"))))
game_scores = _arith(GAME_INTS)
card_conditions = _conditions(st.one_of(
    st.builds(lambda a, op, b: f"{a} {op} {b}", _arith(CARD_INTS), st.sampled_from(COMPARE), _arith(CARD_INTS)),
    st.sampled_from(CARD_TESTS)))

SCOPE_NAMES = ("card", "top", "cards", "count", "pile", "source", "deck", "first", "last", "ranks", "red", "black",
               "hearts", "spades", "A", "K", "Q", "J")
ATTRIBUTES = ("rank", "suit", "family", "color", "colour", "value", "values", "marks", "pack", "face_up", "face_down",
              "size", "empty", "top", "bottom", "cards", "index", "count", "piles", "packs", "movable", "__class__",
              "__dict__", "__globals__")
FUNCTIONS = ("abs", "min", "max", "descending", "ascending", "same_suit", "same_color", "alternating_colors", "totals",
             "consecutive", "same_family", "eval", "__import__", "getattr", "open")
QUANTIFIERS = ("all", "any", "count", "sum", "map")
BINARY = ("or", "and", "==", "!=", "<", "<=", ">", ">=", "in", "not in", "+", "-", "*", "//", "%")
# Expressions that are too deep, too long or too costly for the limits, at and just past each limit.
DEEP_EXPRESSIONS = tuple(
    [("(" * n) + "1" + (")" * n) for n in (99, 100, 101, 3000)]
    + ["-" * n + "1" for n in (99, 101, 3000)]
    + ["not " * n + "true" for n in (100, 500)]
    + ["card" + ".rank" * n for n in (2, 200)]
    + ["[" * n + "]" * n for n in (50, 2000)]
    + ["1" + " + 1" * n for n in (150, 700)]
    + ["1000000000" + " * 1000000000" * n for n in (1, 3, 40)]
    + ["9**9**9", "card.rank ** 2", "all(a in tableau: all(b in tableau: all(c in tableau: true)))",
       "count(a in deck: count(b in deck: count(c in deck: true)) > 0) > 0",
       "sum(c in cards: sum(d in cards: sum(e in cards: c.value * d.value * e.value)))", "card.__class__.__mro__",
       '"{0.__class__}"', "x" * 2001, "card.rank % 0 == 0", "count // (count - count) == 1", "min()", "max([])",
       "foundation.size // (stock.size - stock.size) == 0", "tableau.size % 0 == 1", "1000000000 * 1000000000 * deck.size > 0",
       "sum(p in tableau: p.size * 1000000000 * 1000000000 * 1000000000) > 0"]
)
_ATOMS = st.one_of(
    numbers, st.sampled_from(SCOPE_NAMES), st.sampled_from(GROUPS), names, quoted, st.sampled_from(("true", "false", "[]")),
    st.builds(lambda o, a: f"{o}.{a}", st.sampled_from(SCOPE_NAMES + GROUPS), st.sampled_from(ATTRIBUTES)),
)


def _extend(inner):
    """One level of expression structure over `inner`."""
    return st.one_of(
        st.builds(lambda a, op, b: f"{a} {op} {b}", inner, st.sampled_from(BINARY), inner),
        st.builds(lambda op, a: f"{op}{a}", st.sampled_from(("not ", "-", "- ")), inner),
        st.builds(lambda a: f"({a})", inner),
        st.builds(lambda a, n: f"{a}.{n}", inner, st.sampled_from(ATTRIBUTES)),
        st.builds(lambda f, args: f"{f}({', '.join(args)})", st.sampled_from(FUNCTIONS), st.lists(inner, max_size=3)),
        st.builds(lambda q, v, it, body: f"{q}({v} in {it}: {body})", st.sampled_from(QUANTIFIERS),
                  st.sampled_from(("p", "c", "card", "x")), st.one_of(st.sampled_from(GROUPS + ("cards", "pile.cards")), inner), inner),
        st.builds(lambda items: f"[{', '.join(items)}]", st.lists(inner, max_size=4)),
    )


wild_expressions = st.one_of(st.recursive(_ATOMS, _extend, max_leaves=12), st.sampled_from(DEEP_EXPRESSIONS))
game_expressions = weighted((2, game_conditions), (1, wild_expressions))
card_expressions = weighted((2, card_conditions), (1, wild_expressions))
expressions = st.one_of(game_conditions, game_scores, card_conditions, wild_expressions)

# ---- mutations and noise -----------------------------------------------------------------------------------
_TOKEN = re.compile(r"\s+|\w+|[^\w\s]")
_INSERTS = st.one_of(st.sampled_from(ODD_TEXT), names, numbers, st.sampled_from(BINARY))


@st.composite
def mutated(draw, base):
    """Text of `base`, then a few token edits: delete, duplicate, swap, insert or replace a token, cut the text."""
    tokens = _TOKEN.findall(draw(base))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(("delete", "duplicate", "swap", "insert", "replace", "cut", "repeat")))
        i = draw(st.integers(0, max(len(tokens) - 1, 0)))
        if op == "insert" or not tokens:
            tokens.insert(i, draw(_INSERTS))
        elif op == "delete":
            del tokens[i]
        elif op == "duplicate":
            tokens.insert(i, tokens[i])
        elif op == "swap" and i + 1 < len(tokens):
            tokens[i], tokens[i + 1] = tokens[i + 1], tokens[i]
        elif op == "replace":
            tokens[i] = draw(_INSERTS)
        elif op == "cut":
            tokens = tokens[:i]
        elif op == "repeat":
            tokens[i] = tokens[i] * draw(st.sampled_from((2, 50, 1000)))
    return "".join(tokens)


# Any character, the surrogates and the C0/C1 controls included (st.characters() leaves out the surrogates).
_ANY_CHAR = st.one_of(st.characters(), st.characters(categories=["Cs"]), st.characters(max_codepoint=0x9F))


def noise(pieces: tuple = ()):
    """Plain random text: any characters, or a jumble of `pieces` and odd text."""
    jumble = st.lists(st.sampled_from(tuple(pieces) + ODD_TEXT), max_size=30).map("".join)
    return st.one_of(st.text(_ANY_CHAR, max_size=80), jumble)


def fuzzed(base, pieces: tuple = ()):
    """The three kinds of input of every fuzzer: text from the grammar, that text mutated, and noise."""
    return weighted((3, base), (2, mutated(base)), (1, noise(pieces)))


# ---- rule changes (grammar/change.lark) --------------------------------------------------------------------
CHANGE_PATHS = ("tableau.count", "tableau.columns", "foundation.build", "tableau.build", "stock.redeals", "deck.shuffle",
                "deck.ranks", "deck.packs", "deck.values.A", "win", "score", "game", "match.loses_at", "piles.waste",
                "tableau", "auto", "auto.0", "auto.0.when", "honour.x", "tableau.deal.0", "tableau.deal.99",
                "tableau.deal.-1", "piles", "deck", "__class__", "tableau.__dict__", "a..b", ".", "tableau.build.0.require")
MACROS = ("down in suit", "up in suit", "down alternate colour", "up or down regardless of suit", "down any suit but its own",
          "up same color with wrap", "any", "none", "first rank", "last rank", "top card", "one card", "any run")
FLOW_VALUES = st.one_of(
    numbers, quoted, st.sampled_from(("true", "false", "null", "[]", "{}", "[up, up, down]", "{to: waste, count: 2}",
                                      "{count: 3, build: none}", "[A, 2, 3, J, Q, K]", "optional", "never",
                                      "[" * 60 + "]" * 60, "{a: " * 45 + "1" + "}" * 45)),
    st.builds(lambda items: f"[{', '.join(items)}]", st.lists(numbers, max_size=4)),
)
# Changes Forty Thieves can take: the catalogue's kind of change, with well-typed expressions.
plausible_changes = st.one_of(
    st.builds(lambda g, n: f"set {g}.count {n}", st.sampled_from(("tableau", "foundation")), st.integers(1, 12)),
    st.builds(lambda g, m: f"set {g}.build {m}", st.sampled_from(("tableau", "foundation")), st.sampled_from(MACROS)),
    st.builds(lambda n: f"set stock.redeals {n}", st.integers(0, 3)),
    st.builds(lambda rows: f"set tableau.deal [{', '.join(rows)}]", st.lists(st.sampled_from(("up", "down")), max_size=5)),
    st.sampled_from(("set deck.shuffle optional", "set deck.packs 1", "set stock.turn {to: waste, count: 3}",
                     "remove foundation.build same-suit", "remove tableau.build same-suit", "delete auto",
                     "add reserve 2 reserve piles, deal 1 face up, move top card", 'set game "Forty Thieves, my way"',
                     "honour bow at turn start: \"Bow.\"", "set tableau 4 tableau piles, deal 2 face up, build any, move top card")),
    st.builds(lambda e: f"set win {e}", game_conditions),
    st.builds(lambda e: f"set score {e}", game_scores),
    st.builds(lambda v, g, i, e, s: f"{v} {g}.build {i}: {e} {s}", st.sampled_from(("require", "forbid")),
              st.sampled_from(("tableau", "foundation")), ids, card_conditions, says),
    st.builds(lambda v, g, i, e: f"{v} {g}.take {i}: {e}", st.sampled_from(("require", "forbid")),
              st.sampled_from(("tableau", "waste")), ids, card_conditions),
    st.builds(lambda i, k, e: f"replace tableau.build {i} {k}: {e}", st.sampled_from(("rank-down", "same-suit")),
              st.sampled_from(("", "require", "forbid")), card_conditions),
)
# The catalogue's changes are what Player X really types in Discordian Solitaire: mutated, they are near misses.
CATALOGUE_CHANGES = tuple(entry.change for entry in load_catalogue("discordian"))
wild_changes = st.one_of(
    st.sampled_from(CATALOGUE_CHANGES),
    st.builds(lambda p, v: f"set {p} {v}", st.sampled_from(CHANGE_PATHS), st.one_of(FLOW_VALUES, wild_expressions)),
    st.builds(lambda p, v: f"add {p} {v}", st.sampled_from(CHANGE_PATHS), FLOW_VALUES),
    st.builds(lambda p: f"delete {p}", st.sampled_from(CHANGE_PATHS)),
    st.builds(lambda v, p, i, e, s: f"{v} {p} {i}: {e} {s}", st.sampled_from(("require", "forbid")),
              st.sampled_from(("foundation.build", "tableau.build", "tableau.take", "stock.dealing", "waste.empty", "game")),
              st.one_of(ids, quoted), wild_expressions, st.sampled_from(("", '"says"'))),
    st.builds(lambda p, i: f"remove {p} {i}", st.sampled_from(("foundation.build", "tableau.build", "auto", "lose")), ids),
    st.builds(lambda i: f"revoke {i}", st.one_of(ids, quoted)),
    st.builds(lambda i, m, s: f"honour {i} {m}: {s}", ids, st.sampled_from(MOMENTS), quoted),
    st.builds(lambda v, p, x: f"{{{v}: {p}, value: {x}}}", st.sampled_from(("set", "add", "delete", "revoke", "remove", "eval")),
              st.sampled_from(CHANGE_PATHS), FLOW_VALUES),
)
changes = weighted((2, plausible_changes), (1, st.sampled_from(CATALOGUE_CHANGES)), (1, wild_changes))
CHANGE_PIECES = ("set", "add", "delete", "require", "forbid", "replace", "remove", "revoke", "honour", " tableau.count",
                 " foundation.build", " x", ":", " card.rank", " ==", " 12", ' "t"', " {", "}", "[", "]")

# ---- `.rules` files (grammar/rules.lark) ---------------------------------------------------------------------
def _items(items, n: int = 5):
    return st.lists(items, min_size=1, max_size=n).map(", ".join)


def _block(header: str, lines):
    return st.lists(lines, min_size=1, max_size=3).map(lambda ls: header + "".join(f"\n    {ln}" for ln in ls))


PLAUSIBLE_PILE_ITEMS = st.one_of(
    st.builds(lambda n: f"deal {n} face up", st.integers(0, 4)),
    st.builds(lambda n, m: f"deal {n} face down, {m} face up", st.integers(1, 3), st.integers(1, 2)),
    st.builds(lambda m: f"build {m}", st.sampled_from(MACROS)),
    st.builds(lambda m: f"a space takes {m}", st.sampled_from(("any card", "nothing", "first rank", "last rank"))),
    st.sampled_from(("move top card", "move any cards", "nothing leaves", "move runs in any order", "face-down cards turn up",
                     "top card face up", "no building", "build on any card")),
    st.builds(lambda v, i, e, s: f"build {v} {i}: {e} {s}", st.sampled_from(("require", "forbid")), ids, card_conditions, says),
)
WILD_PILE_ITEMS = st.one_of(
    st.builds(lambda n, r: f"{n} {r} piles", numbers, st.sampled_from(GROUPS + ("hand", "discard"))),
    st.builds(lambda n, f: f"deal {n} face {f}", numbers, st.sampled_from(("up", "down"))),
    st.sampled_from(("deal the rest", "deal nothing", "deal row u d .", "row d d", "unlimited redeals", "deal at any time",
                     "no discards", "redeal gathers waste then deals stock", "tag t", "build sideways")),
    st.builds(lambda n, g: f"turn {n} cards to {g}", numbers, names),
    st.builds(lambda n: f"{n} redeals", numbers),
    st.builds(lambda g, e: f"divert to {g} when {e}", names, wild_expressions),
    st.builds(lambda e: f"before the deal takes {e}", wild_expressions),
    st.builds(lambda e: f"reveal {e}", wild_expressions),
    st.builds(lambda v, i, e, s: f"build {v} {i}: {e} {s}", st.sampled_from(("require", "forbid")), ids, wild_expressions, quoted),
)
pile_items = weighted((2, PLAUSIBLE_PILE_ITEMS), (1, WILD_PILE_ITEMS))
DECK_ITEMS = st.one_of(
    st.builds(lambda n: f"{n} packs", numbers),
    st.sampled_from(("ranks A 2 3 4 5 6 7 8 9 10 J Q K", "ranks A", "ranks", "shuffle never", "no values", "no wild cards",
                     "pack: hearts spades", "pack: none", "wild joker of stars", "suit stars black symbol ★ letter X")),
    st.builds(lambda r, a, b: f"value {r} {a} or {b}", st.sampled_from(("A", "K", "10", "x")), numbers, numbers),
    st.builds(lambda m, r: f"mark {m} {r} of hearts", names, st.sampled_from(("A", "K", "x"))),
)
MATCH_ITEMS = st.one_of(
    st.builds(lambda n: f"{n} seats", numbers),
    st.builds(lambda n: f"start score {n}", numbers),
    st.builds(lambda n: f"loses at {n}", numbers),
    st.builds(lambda n: f"at most {n} turns", numbers),
    st.builds(lambda n: f"player x {n} changes or revoke", numbers),
    st.sampled_from(("pack per seat", "shared pack", "equal turns", "both over draw", "player x may revoke")),
)
# Statements a small game can add without clashing with its own lines: new groups, conditions, blocks.
_PLAUSIBLE_STATEMENT = st.one_of(
    st.builds(lambda e: f"score {e}", game_scores),
    st.builds(lambda i, e, s: f"lose {i} when {e} {s}", ids, game_conditions, says),
    st.builds(lambda i, e: f"auto {i} on request: from tableau or waste to foundation when {e}", ids, card_conditions),
    st.builds(lambda i, e: f"compulsory {i}: from waste to foundation when {e}", ids, card_conditions),
    st.builds(lambda i, m, s: f"honour {i} {m}: {s}", ids, st.sampled_from(MOMENTS[:5]), says),
    st.builds(lambda g, n, items: f"{g}: {n} {g} piles, {items}", st.sampled_from(("reserve", "cell")), st.integers(1, 4),
              _items(PLAUSIBLE_PILE_ITEMS, 3)),
    _block("tableau take:", st.builds(lambda v, i, e, s: f"{v} {i}: {e} {s}", st.sampled_from(("require", "forbid")), ids,
                                      card_conditions, says)),
    _block("changes:", plausible_changes),
)
_WILD_STATEMENT = st.one_of(
    st.builds(lambda n: f"game: {n}", st.one_of(names, quoted)),
    st.sampled_from(("extends forty-thieves", "extends maria", "extends ../../etc/passwd", "extends /etc/passwd",
                     "extends fuzz.rules", "extends discordian", "description: a game", "auto: none", "lose: none",
                     "honour: none", "description:\n    text\n\n    more text")),
    st.builds(lambda d: f"deck: {d}", _items(DECK_ITEMS, 3)),
    st.builds(lambda g, items: f"{g}: {items}", st.one_of(st.sampled_from(GROUPS), names), _items(pile_items)),
    st.builds(lambda e: f"win when {e}", wild_expressions),
    st.builds(lambda e: f"score {e}", wild_expressions),
    st.builds(lambda i, e, s: f"lose {i} when {e} {s}", ids, wild_expressions, quoted),
    st.builds(lambda i, a, b, e: f"auto {i} on request: from {a} to {b} when {e}", ids, names, names, wild_expressions),
    st.builds(lambda i, m, s: f"honour {i} {m}: {s}", ids, st.sampled_from(MOMENTS), quoted),
    st.builds(lambda m: f"match: {m}", _items(MATCH_ITEMS, 4)),
    st.builds(lambda p, v: f"set {p} {v}", st.sampled_from(("tableau.count", "deck.packs", "win", "game", "piles.stock.redeals",
                                                             "__class__.__init__", "tableau.build.0.require")),
              st.one_of(numbers, wild_expressions, quoted)),
    _block("tableau build:", st.builds(lambda v, i, e, s: f"{v} {i}: {e} {s}", st.sampled_from(("require", "forbid")), ids,
                                       wild_expressions, quoted)),
    _block("changes:", wild_changes),
    _block("add:", st.builds(lambda g, items: f"{g}: {items}", names, _items(WILD_PILE_ITEMS, 3))),
)
statements = weighted((2, _PLAUSIBLE_STATEMENT), (1, _WILD_STATEMENT))


GAME_NAMES = ("Fuzz", '"Fuzz Patience"')


@st.composite
def small_games(draw):
    """A small patience in the .rules syntax, its lines drawn from plausible phrases: most of them load."""
    lines = [f"game: {draw(st.sampled_from(GAME_NAMES))}",
             f"deck: {draw(st.sampled_from(('1 pack', '2 packs')))}",
             f"foundation: {draw(st.integers(1, 8))} foundation piles, build up in suit, a space takes first rank, nothing leaves",
             f"tableau: {draw(st.integers(1, 10))} tableau piles, {draw(_items(PLAUSIBLE_PILE_ITEMS, 3))}",
             "stock: stock pile, deal the rest, nothing leaves, turn 1 card to waste" + draw(st.sampled_from(("", ", 1 redeal"))),
             "waste: waste pile, move top card",
             f"win when {draw(game_conditions)}"]
    return "\n".join(lines + draw(st.lists(statements, max_size=3)))


@st.composite
def variants(draw):
    """A variant of a shipped game: `extends` and a few statements."""
    parent = draw(st.sampled_from(("forty-thieves", "maria", "spider", "discordian")))
    return "\n".join([f"extends {parent}", "game: Variant"] + draw(st.lists(statements, max_size=3)))


rules_texts = weighted((2, small_games()), (1, variants()), (1, st.lists(_WILD_STATEMENT, min_size=1, max_size=6).map("\n".join)))
RULES_PIECES = ("game:", " G", "deck:", " 2 packs", "tableau:", " build", " down in suit", " deal", " 4 face up", "win when",
                "set", " tableau.count", "auto a:", " from", " when", "changes:", "add:", "description:", "extends")

# ---- YAML rulesets (model/loader.py) -------------------------------------------------------------------------
# Values that are no value of the schema: floats that look like counts, huge and negative numbers, every kind of
# container where a scalar belongs, and strings that are format strings or escapes.
ODD_VALUES = st.one_of(st.sampled_from((10.0, 1.5, -1, 0, 2**63, 10**100, float("inf"), float("nan"), True, False, None, [], {},
                                        [[[]]], {"a": {"b": {}}}, "", "x" * 3000, "{0.__class__}", "__class__", "\x1b[2J",
                                        "\udc80", "2001-12-14")), st.integers(), st.text(max_size=10))
CLAUSE = st.builds(lambda i, verb, e, s: {"id": i, verb: e, **({"says": s} if s else {})}, ids,
                   st.sampled_from(("require", "forbid")), card_expressions, st.sampled_from(("", "takes it")))
GROUP = st.fixed_dictionaries(
    {"count": st.integers(1, 10)},
    optional={"role": st.sampled_from(("tableau", "foundation", "reserve", "cell")), "deal": st.lists(st.sampled_from(("up", "down")), max_size=4),
              "build": st.one_of(st.sampled_from(MACROS), st.lists(CLAUSE, max_size=2)), "empty": st.sampled_from(("any", "none", "first rank")),
              "take": st.sampled_from(("top card", "any", "none", "any run"))})
# Rule changes as a YAML file writes them under `changes:`: one patch a map (docs/model.md §2).
PATCHES = st.one_of(
    st.builds(lambda p, v: {"set": p, "value": v}, st.sampled_from(CHANGE_PATHS), st.one_of(ODD_VALUES, st.integers(1, 12))),
    st.builds(lambda v, p, i, e: {v: p, "id": i, "expr": e}, st.sampled_from(("require", "forbid")),
              st.sampled_from(("piles.tableau.build", "piles.foundation.build", "piles.tableau.take")), ids, card_expressions),
    st.builds(lambda p, i: {"remove": p, "id": i}, st.sampled_from(("piles.tableau.build", "piles.foundation.build")), ids),
    st.builds(lambda p: {"delete": p}, st.sampled_from(CHANGE_PATHS)),
    st.dictionaries(st.sampled_from(("set", "add", "delete", "value", "id", "expr", "revoke")), ODD_VALUES, max_size=3),
)
TOP_EXTRAS = st.fixed_dictionaries({}, optional={
    "score": game_expressions, "description": st.text(max_size=20),
    "auto": st.lists(st.fixed_dictionaries({"id": ids, "from": st.sampled_from(("tableau", ["tableau", "waste"])), "to": st.just("foundation"),
                                            "when": card_expressions}), max_size=2),
    "lose": st.lists(st.fixed_dictionaries({"id": ids, "when": game_expressions}), max_size=2),
    "honour": st.dictionaries(ids, st.fixed_dictionaries({"at": st.sampled_from(("turn-start", "before-move", "lunch")), "says": st.text(max_size=10)}), max_size=2),
    "changes": st.lists(PATCHES, max_size=2),
})


@st.composite
def yaml_games(draw):
    """A small patience as YAML data, with a few of its values swapped for odd ones, dumped as YAML text."""
    data = {"game": "Fuzz", "deck": {"packs": draw(st.integers(1, 2))},
            "piles": {"foundation": {"role": "foundation", "count": draw(st.integers(1, 8)), "build": "up in suit",
                                     "empty": "first rank", "take": "none"},
                      "tableau": draw(GROUP),
                      "stock": {"role": "stock", "deal": "rest", "take": "none", "turn": {"to": "waste", "count": 1}},
                      "waste": {"role": "waste", "take": "top card"}},
            "win": draw(game_expressions), **draw(TOP_EXTRAS)}
    for _ in range(draw(st.integers(0, 2))):
        _replace_somewhere(draw, data, draw(ODD_VALUES))
    return yaml.safe_dump(data, allow_unicode=draw(st.booleans()), sort_keys=False, default_flow_style=draw(st.sampled_from((False, None))))


def _replace_somewhere(draw, data, value) -> None:
    """Put `value` in place of one value of the nested maps and lists of `data`."""
    node = data
    while True:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            return
        key = draw(st.sampled_from(keys))
        if isinstance(node[key], (dict, list)) and node[key] and draw(st.booleans()):
            node = node[key]
            continue
        node[key] = value
        return


@st.composite
def yaml_variants(draw):
    """A variant of a shipped game in YAML: overrides, additions and changes."""
    data = {"extends": draw(st.sampled_from(("forty-thieves", "spider", "discordian", "maria.rules", "../x.yaml", "/etc/passwd"))),
            "game": "Variant"}
    data.update(draw(st.fixed_dictionaries({}, optional={
        "piles": st.fixed_dictionaries({}, optional={"tableau": st.fixed_dictionaries({}, optional={"count": st.integers(0, 12), "build": st.sampled_from(MACROS)})}),
        "add": st.fixed_dictionaries({}, optional={"piles": st.fixed_dictionaries({"reserve": GROUP})}),
        "changes": st.lists(PATCHES, max_size=3), "win": game_expressions})))
    if draw(st.booleans()):
        _replace_somewhere(draw, data, draw(ODD_VALUES))
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


YAML_SCALARS = st.one_of(
    numbers, quoted, names,
    st.sampled_from(("~", "null", "true", "yes", "no", "on", ".inf", "-.inf", ".nan", "2001-12-14", "2001-12-14t21:59:43.10-05:00",
                     "190:20:30", "0b" + "1" * 120, "0o777", "0x" + "f" * 120, "!!binary aGVsbG8=", "!!python/object/apply:os.system [ls]",
                     "!!python/name:os.system", "!!set {a, b}", "!!omap [a: 1]", "!!str 5", "!!int x", "!!float x", "!!timestamp x",
                     "!custom x", "&a 1", "*a", "|\n  block\n", ">-\n  folded\n", "'single ''quoted'''", '"\\x1b[2J"',
                     '"\\udc80"', '"\\0"', '"\\N\\_\\L\\P"', "[1, 2", "{a: 1", "@reserved", "`reserved", "%YAML 1.1")),
)
YAML_KEYS = st.one_of(st.sampled_from(("game", "deck", "piles", "win", "score", "auto", "lose", "extends", "changes", "add",
                                       "honour", "match", "hands", "description", "count", "build", "deal", "role", "packs",
                                       "ranks", "1", "1.5", "true", "null", "~", "2001-01-01", "? [a]", "<<", "[a]", "{a: 1}",
                                       '"quoted key"', "'k'")), names)


def _yaml_map(entries: list, indent: int) -> str:
    pad = " " * indent
    return "".join(f"\n{pad}{key}:{value}" for key, value in entries)


_yaml_value = st.recursive(
    YAML_SCALARS.map(lambda s: " " + s),
    lambda inner: st.one_of(
        st.lists(st.tuples(YAML_KEYS, inner), max_size=3).map(lambda es: _yaml_map(es, 2).replace("\n", "\n  ")),
        st.lists(inner, max_size=3).map(lambda vs: "".join(f"\n  -{v}" for v in vs).replace("\n", "\n  ")),
        st.lists(YAML_SCALARS, max_size=3).map(lambda vs: " [" + ", ".join(vs) + "]"),
    ),
    max_leaves=8,
)
# Inputs that attack the YAML parser itself: alias bombs, deep nesting, documents, directives, huge keys.
YAML_BOMBS = (
    "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(f"{c}: &{c} [*{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}, *{p}]\n"
                                                   for p, c in zip("abcdefgh", "bcdefghi")),
    "game: &x G\nwin: *x\n",
    "<<: {game: G}\n",
    "game: " + "[" * 5000 + "]" * 5000 + "\n",
    "game: " + "{a: " * 2000 + "1" + "}" * 2000 + "\n",
    "\n".join(" " * i + "a:" for i in range(0, 200, 2)) + " 1\n",
    "game: G\n---\ngame: H\n",
    "%YAML 1.1\n---\ngame: G\n",
    "%TAG ! tag:yaml.org,2002:python/\n---\ngame: !object:os.system x\n",
    "? " + "k" * 2000 + "\n: 1\n",
    "\ufeffgame: G\n",
    "game: G\x00\n",
    "game:\tG\n",
    "game: G\ngame: H\n",
    "",
    "- a\n- b\n",
    "just text",
)
wild_yaml = st.one_of(
    st.lists(st.tuples(YAML_KEYS, _yaml_value), min_size=1, max_size=5).map(lambda es: _yaml_map(es, 0).lstrip("\n") + "\n"),
    st.sampled_from(YAML_BOMBS),
)
yaml_texts = weighted((2, yaml_games()), (1, yaml_variants()), (1, wild_yaml))
YAML_PIECES = ("game:", " G", "\n", "  ", "- ", "piles:", "deck:", "&a", "*a", "!!", "? ", "---", "...", "|", ">", "%")

# ---- `kallisti play` sessions (cli/play.py) --------------------------------------------------------------------
TAGS = ("t1", "t2", "t10", "t99", "t0", "t-1", "f", "f1", "f8", "s", "w", "x", "T1", "t" * 300, "t1" + "0" * 400)
COMMANDS = st.one_of(
    st.builds(lambda a, b: f"{a} {b}", st.sampled_from(TAGS), st.sampled_from(TAGS)),
    st.builds(lambda a, b, n: f"{a} {b} {n}", st.sampled_from(TAGS), st.sampled_from(TAGS), numbers),
    st.sampled_from(("d", "u", "r", "a", "hint", "moves", "table", "ok", "help", "?", "undo", "redo", "new", "new 7",
                     "new 99999999999999999999", "new -1", "new ٣", "l 2-4", "l 9-1", "l x", "rule", "save", "load",
                     "load /dev/zero", "load /etc/passwd", "load nonexistent.json", "save game.json", "load game.json",
                     "# comment", "", "   ", "u u u", "d d", "t1 t2 3 4")),
    st.builds(lambda c: f"rule {c}", changes),
)
# The session ends on its own words or when the input ends; `q` is not added, so every command is reached.
play_scripts = st.lists(weighted((3, COMMANDS), (1, mutated(COMMANDS)), (1, noise(("t1", "t2", " ", "d", "rule", "set")))),
                        min_size=1, max_size=8).map(lambda lines: "\n".join(line.replace("\n", " ") for line in lines) + "\n")

# ---- a match of Discordian Solitaire in `kallisti play` (cli/match_play.py) ----------------------------------------
MATCH_TAGS = ("c1", "c3", "c7", "c99", "f", "f1", "f2", "s", "x")
MATCH_COMMANDS = weighted(
    (2, st.just("ok")),  # honour rules are shown at every turn start and before every deal
    (3, st.sampled_from(("d", "shuffle", "keep", "pass", "rules", "scores", "diff", "diff bob", "diff nobody", "moves",
                         "table", "u", "r", "revoke c1", "revoke", "revoke \"c 1\"", "help", "save match.json",
                         "load match.json", "load nothing.json"))),
    (2, st.builds(lambda a, b: f"{a} {b}", st.sampled_from(MATCH_TAGS), st.sampled_from(MATCH_TAGS))),
    (3, st.builds(lambda c: f"rule {c}", changes)),
)
# Played as `--players bot,ann`: the bot plays the first turn, and after ann's two acknowledgements she is Player X,
# so the script's `rule` lines reach the match's rule changes (checked, tried and imposed on the bot).
match_scripts = st.lists(weighted((4, MATCH_COMMANDS), (1, mutated(MATCH_COMMANDS))), min_size=1, max_size=10).map(
    lambda lines: "ok\nok\n" + "\n".join(line.replace("\n", " ") for line in lines) + "\n")
