"""The types and scopes of the expression language, and the values a compiled expression is and runs with."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

# Types of the expression language. A "list:T" is a finite collection of T.
INT, BOOL, RANK, SUIT, COLOR, CARD, PILE, GROUP, STR, MARK, DECK = (
    "int", "bool", "rank", "suit", "color", "card", "pile", "group", "str", "mark", "deck")
CARDS, PILES, INTS, MARKS = "list:card", "list:pile", "list:int", "list:mark"
MOVE, MOVES = "move", "list:move"  # a move made (kallisti.interpreter.history), and the moves since the deal

# Which variables each kind of rule may name, and their types.
BUILD_SCOPE = {"card": CARD, "top": CARD, "pile": PILE, "source": PILE, "cards": CARDS, "count": INT}
EMPTY_SCOPE = {"card": CARD, "pile": PILE, "source": PILE, "cards": CARDS, "count": INT}
TAKE_SCOPE = {"card": CARD, "cards": CARDS, "count": INT, "pile": PILE}
# A window of adjacent cards: `cards` left to right, `card` the first, the `pile` they lie in. A dict of its own (as
# MOVE_SCOPE is): the engine evaluates a discard rule once for each window, not once for each move (see `evaluations`).
DISCARD_SCOPE = dict(TAKE_SCOPE)
SEQUENCE_SCOPE = {"card": CARD, "top": CARD}
CARD_SCOPE = {"card": CARD}
STATE_SCOPE: dict[str, str] = {}
PILE_STATE_SCOPE = {"pile": PILE}  # a rule about one pile in the whole position (dealing, redealing, revealing)
MOVE_SCOPE = dict(BUILD_SCOPE)  # an automatic or compulsory move's pattern: judged for each legal move, never tabulated
# A grouping's condition: the cards of one group of a hand, in any order, and the whole `hand` they come from.
HAND_SCOPE = {"cards": CARDS, "count": INT, "hand": CARDS}
# The names the rules keep for the values a rule judges, in every rule whether or not its scope has them: no
# quantifier's variable may take one (`any(card in tableau: ...)` would read as the moving card).
RESERVED = {"card": "the card a rule judges", "top": "the card it goes on", "cards": "the cards that move",
            "count": "how many cards move", "pile": "the pile a rule judges", "source": "the pile the cards leave",
            "hand": "the whole hand", "moves": "the moves made since the deal", "last_move": "the last move made"}
# The names of the moves made, in every rule but a hand's (kallisti.interpreter.history): what each is and its type.
HISTORY_NAMES = {"moves": MOVES, "last_move": MOVE}


class Ctx:
    """The values an expression reads while it runs; one instance is reused for many evaluations."""

    __slots__ = ("state", "game", "card", "top", "cards", "count", "pile", "source", "locals", "steps")

    def __init__(self, state=None):
        self.state = state
        self.game = None
        self.card = self.top = self.pile = self.source = -1
        self.cards: list[int] = []
        self.count = 0
        self.locals: dict[str, Any] = {}
        self.steps = 0  # the meter: steps the evaluations made with this context have taken (see compiler.MAX_EVALUATION_STEPS)


@dataclass(frozen=True)
class Compiled:
    """A compiled expression: `fn(ctx)` computes it; `uses` names the variables it reads."""

    fn: Callable[[Ctx], Any]
    type: str
    uses: frozenset
    text: str
    reads: frozenset = frozenset()  # what it reads of cards: attributes, and `identity` when it compares cards themselves
    # The groups whose sizes are all it reads of the position, or None when it reads more (piles, cards' faces,
    # moves): while those sizes stay the same, its value does, and a playout need not work it out again.
    sizes: frozenset | None = frozenset()
    # The ranks it names as constants (`last`, `K`, `king`, the 10 of `card.rank == 10`, `first + 1`), by index in the
    # deck's order: what a clause's explanation may name.
    ranks: frozenset = frozenset()
    steps: int = 0  # the most steps one evaluation may take (see compiler.MAX_EVALUATION_STEPS)
    # What it reads of the position beyond the cards it judges (see PLACES): the engine judges a move rule once for
    # every pile it may go to only when the rule reads that pile (`pile`, `top`); else once for all of them.
    places: frozenset = frozenset()
    # The groups whose piles are all it reads of the position beyond the piles a move names (`any(p in kings: …)`,
    # `foundation.size`), or None when it reads any other (a pile a move made names, the moves made, a card's face):
    # while no pile of those groups changes, its value on the same move does not.
    groups: frozenset | None = frozenset()


# The places of the position an expression may read (`Compiled.places`): `pile`, `top` and `source` when it names that
# value, and `pile.state`, `source.state` when it reads that pile's cards, size or faces too, with `pile.cards`,
# `source.cards` when it reads more than its shape (its size and how many cards lie face down: `size`, `empty`,
# `face_up`, `face_down`); `position` when it reads any other pile's or a group's cards, sizes or faces, or asks the
# move generator (`movable`). A card's `face_up` reads `pile`, `top` and `position`. A group's name, a pile's `index`
# and a group's `count` read nothing of the position: they are fixed.
PLACES = ("pile", "top", "source", "pile.state", "source.state", "pile.cards", "source.cards", "position")


@dataclass(frozen=True)
class Additive:
    """A clause that reads the cards it judges only through sums over them of a term of one card (`sum(c in cards:
    c.value)`, `count(c in cards: c.suit == hearts)`), and beyond them reads nothing but `count`: so a window of
    adjacent cards may be judged from running sums, each card added once, rather than by going through the window.

    `terms[i][c]` is the i-th sum's term for card id c; `judge(ctx)` is the clause's value (true or false, before a
    `forbid` is negated) with the i-th sum read from `ctx.locals[SUM_SLOTS[first + i]]` (see `Compiler.additive`)
    and `ctx.count` the window's length; `counts` says whether it reads `count` at all."""

    terms: tuple
    judge: Callable[[Ctx], Any]
    counts: bool = True


SUM_SLOTS = ("#sum0", "#sum1", "#sum2", "#sum3")  # where `Additive.judge` reads its sums (no rule can name them)


class RuleRuntimeError(Exception):
    """An expression failed while running (e.g. arithmetic overflow); the move is refused."""


def with_article(typ: str) -> str:
    """A type with its article, for messages: `a card`, `an int`, `a list of cards`."""
    if typ.startswith("list:"):
        return f"a list of {typ[5:]}s"
    word = {"int": "number", "bool": "true/false value"}.get(typ, typ)
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"
