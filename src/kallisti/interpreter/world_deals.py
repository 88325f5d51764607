"""World deal numbers (`ms:N`, Microsoft FreeCell's numbered deals) turned into a ruleset's dealing order."""

from __future__ import annotations

import re

from pysol_cards.deal_game import Game as _PysolGame
from pysol_cards.random_base import RandomBase

from kallisti.errors import Pos
from kallisti.interpreter.state import initial_state

MS_FIRST, MS_LAST = 1, 2**31 - 1  # the numbers Microsoft's numbering and FreeCell Pro after it define
_MS = re.compile(r"^ms:(\d+)$")
COLUMNS = 8
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


class WorldDealError(ValueError):
    """A world deal number that is malformed, out of range or unfit for the ruleset: a usage error."""


def is_world_deal(text: str) -> bool:
    """Whether `text` names a world deal (`ms:N`) rather than a deal file."""
    return str(text).startswith("ms:")


def ms_cards(number: int) -> list[str]:
    """Microsoft deal `number` as card names (`10H`, `QS`) in the order they are dealt, round the eight columns."""
    if not MS_FIRST <= number <= MS_LAST:
        raise WorldDealError(f"Microsoft deals are numbered {MS_FIRST} to {MS_LAST}; {number} is not one")
    game = _PysolGame("freecell", number, RandomBase.DEALS_MS)
    game.deal()
    return [RANKS[c.rank - 1] + "CSHD"[c.suit] for c in game.cards]


def deals_rows_across(rules, columns: int = COLUMNS) -> bool:
    """Whether the ruleset's deal lays its whole pack out in rows across `columns` piles of one group, left to
    right and bottom row first: card i of the dealing order lands on the (i mod columns)-th pile."""
    size = rules.deck.size
    piles = initial_state(rules, list(range(size))).piles
    dealt = [p for p in range(rules.pile_count) if piles[p]]
    if len(dealt) != columns or len({rules.group_of[p] for p in dealt}) != 1:
        return False
    return all(list(piles[p]) == list(range(j, size, columns)) for j, p in enumerate(dealt))


def world_deal_order(rules, text: str) -> list[int]:
    """The card ids in dealing order for world deal `text` (`ms:N`) under `rules`, or WorldDealError."""
    m = _MS.match(str(text).strip())
    if m is None:
        raise WorldDealError(f"{text!r} is not a world deal number: write ms:N, N from {MS_FIRST} to {MS_LAST}")
    names = ms_cards(int(m.group(1)))
    deck = rules.deck
    if deck.size != len(names) or not deals_rows_across(rules):
        raise WorldDealError(f"{text} is a Microsoft FreeCell deal: it needs a one-pack ruleset of 52 cards whose deal "
                             f"lays the pack out in rows across {COLUMNS} piles; {rules.name} does not")
    pool = list(range(deck.size))
    order = []
    for name in names:
        try:
            kind = deck.parse_card(name, Pos(text))
        except Exception:  # a deck without this card: not the standard pack
            raise WorldDealError(f"{text} deals the standard pack; {rules.name}'s deck has no {name}") from None
        card = next((c for c in pool if deck.kind[c] == kind), None)
        if card is None:
            raise WorldDealError(f"{text} deals the standard pack; {rules.name}'s deck has no {name}")
        pool.remove(card)
        order.append(card)
    return order
