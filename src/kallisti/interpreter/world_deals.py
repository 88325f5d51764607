"""World deal numbers turned into a ruleset's dealing order: `ms:N`, Microsoft FreeCell's deal N, and `pysol:N`,
PySolFC's game N.

A world number names a shuffle and the way a program lays it out. Microsoft's deals are one pack dealt in rows
across 8 piles (`deals_rows_across`). PySolFC numbers every game alike: game N creates the pack pack by pack, each
in clubs, spades, hearts, diamonds, ace to king; shuffles it with the generator N seeds (Microsoft's below 32,000,
on the pack reordered as Microsoft's when it is a single pack; the Mersenne Twister from 32,000 on); and puts it on
the talon, the last card on top. The game's own deal then takes cards from the talon's top: a row gives a card to
each pile it names, left to right, the first row lying at the bottom, and what is left stays in the talon, the next
card on top. That is kallisti's own way of dealing (docs/model.md §10), so a talon read from the top is a dealing
order.

Which rows a game deals is PySolFC's knowledge, and the ruleset of a game of the same name need not share it:
PySolFC's House in the Wood deals its short row first, where kallisti's deals it last, and PySolFC's Spider puts its
four extra cards on piles 1, 4, 7 and 10, where kallisti's puts them on the first four. Trusting the ruleset's rows
would lay out a deal PySolFC never dealt. So `PYSOL_LAYOUTS` lists the layouts of PySolFC's games as PySolFC deals
them, each read from PySolFC's source and checked against PySolFC run on its own, and `pysol:N` is known for a
ruleset whose deal has one of their shapes: rows into a single group of piles (no `prefill`, no `divert`) that hold,
pile by pile, as many cards as the layout's piles, and the rest in one stock. Every card then goes where PySolFC puts
it, whatever order kallisti's rows take to get there, and the stock is PySolFC's talon, top first. The shape is what
decides, never a game's name, and no ruleset key is needed: a variant that deals as Forty Thieves gets PySolFC's
Forty Thieves deals, and a ruleset that deals otherwise (Spider) gets a usage error naming the layouts known. A key
naming PySolFC's game would have to be repeated in every variant, and could claim a layout the ruleset's deal does
not have; the shape cannot. No two layouts share a shape, or a shape would not say which to lay out.

Several of these games (Forty Thieves, Congress, Double Klondike) end PySolFC's deal by turning the talon's top card
onto the waste; kallisti leaves it on top of the stock, the first card to turn: the same position one turn earlier.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pysol_cards.cards import createCards, ms_rearrange
from pysol_cards.deal_game import Game as _PysolGame
from pysol_cards.random import LCRandom31, MTRandom
from pysol_cards.random_base import RandomBase

from kallisti.errors import Pos
from kallisti.interpreter.state import initial_state

MS_FIRST, MS_LAST = 1, 2**31 - 1  # the numbers Microsoft's numbering and FreeCell Pro after it define
PYSOL_FIRST, PYSOL_LAST = 1, MTRandom.MAX_SEED  # PySolFC refuses game 0; its own game numbers reach 10**20
PYSOL_MS_BELOW = 32000  # PySolFC shuffles its games below this number with Microsoft's generator
_NUMBER = re.compile(r"^(ms|pysol):(\d+)$")
COLUMNS = 8
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = "CSHD"  # the order of suits in PySolFC's pack and pysol-cards' Card.suit
PACK = 52


class WorldDealError(ValueError):
    """A world deal number that is malformed, out of range or unfit for the ruleset: a usage error."""


def is_world_deal(text: str) -> bool:
    """Whether `text` names a world deal (`ms:N`, `pysol:N`) rather than a deal file."""
    return str(text).startswith(("ms:", "pysol:"))


def ms_cards(number: int) -> list[str]:
    """Microsoft deal `number` as card names (`10H`, `QS`) in the order they are dealt, round the eight columns."""
    if not MS_FIRST <= number <= MS_LAST:
        raise WorldDealError(f"Microsoft deals are numbered {MS_FIRST} to {MS_LAST}; {number} is not one")
    game = _PysolGame("freecell", number, RandomBase.DEALS_MS)
    game.deal()
    return [RANKS[c.rank - 1] + SUITS[c.suit] for c in game.cards]


def pysol_talon(number: int, packs: int) -> list[str]:
    """PySolFC's game `number` for a game of `packs` standard packs: its talon as card names, the top card (the first
    dealt) first."""
    if not PYSOL_FIRST <= number <= PYSOL_LAST:
        raise WorldDealError(f"PySolFC's games are numbered {PYSOL_FIRST} to {PYSOL_LAST}; {number} is not one")
    cards = createCards(packs)
    if number < PYSOL_MS_BELOW:
        generator = LCRandom31(number)
        cards = ms_rearrange(cards)  # a single pack only: it leaves others as they are
    else:
        generator = MTRandom(number)
    generator.shuffle(cards)
    return [RANKS[c.rank - 1] + SUITS[c.suit] for c in reversed(cards)]


@dataclass(frozen=True)
class PysolLayout:
    """A layout PySolFC deals from its talon: `rows` in order, each giving a card to the listed piles (0 the leftmost),
    the rest left in the talon."""

    games: str  # the PySolFC games that deal it, for messages
    packs: int
    piles: int
    rows: tuple[tuple[int, ...], ...]
    source: str  # where PySolFC deals it

    def held(self) -> list[list[int]]:
        """What each pile holds, bottom first, as talon positions (0: the talon's top card, dealt first)."""
        held: list[list[int]] = [[] for _ in range(self.piles)]
        position = 0
        for row in self.rows:
            for p in row:
                held[p].append(position)
                position += 1
        return held

    def shape(self) -> tuple:
        return (self.packs, tuple(len(h) for h in self.held()))


def _across(piles: int, rows: int) -> tuple[tuple[int, ...], ...]:
    """`rows` whole rows across `piles` piles."""
    return (tuple(range(piles)),) * rows


def _forty_thieves(games: str, piles: int, rows: int, classes: str) -> PysolLayout:
    """A game of PySolFC's Forty Thieves family: its `DEAL` rows (face down, then face up) across `piles` piles."""
    return PysolLayout(games, 2, piles, _across(piles, rows),
                       f"pysollib/games/fortythieves.py, {classes}: FortyThieves.startGame deals DEAL's rows")


PYSOL_LAYOUTS = (
    PysolLayout("FreeCell", 1, 8, (*_across(8, 6), tuple(range(4))),
                "pysollib/games/freecell.py, FreeCell.startGame: six rows across the 8 piles, a 7th on the first 4"),
    _forty_thieves("Forty Thieves, Number Ten, Rank and File, Emperor", 10, 4,
                   "FortyThieves, NumberTen, RankAndFile, Emperor"),
    _forty_thieves("Indian", 10, 3, "Indian"),
    _forty_thieves("Maria, Midshipman", 9, 4, "Maria, Midshipman"),
    _forty_thieves("Limited", 12, 3, "Limited"),
    PysolLayout("Busy Aces, Blockade", 2, 12, _across(12, 1),
                "pysollib/games/fortythieves.py, BusyAces; pysollib/games/gypsy.py, Blockade: a row across 12 piles"),
    PysolLayout("Miss Milligan, Congress", 2, 8, _across(8, 1),
                "pysollib/games/gypsy.py, MissMilligan; pysollib/games/diplomat.py, Congress: a row across 8 piles"),
    PysolLayout("Double Klondike", 2, 9, (*(tuple(range(i + 1, 9)) for i in range(8)), tuple(range(9))),
                "pysollib/games/harp.py, DoubleKlondike.startGame: rows face down starting one pile further right each "
                "time, then a row face up across all 9"),
    PysolLayout("House in the Wood, House on the Hill", 2, 35, (tuple(range(34)), *_across(35, 2)),
                "pysollib/games/fan.py, HouseInTheWood.startGame: a row across the first 34 piles, then two across "
                "all 35"),
)


def deals_rows_across(rules, columns: int = COLUMNS) -> bool:
    """Whether the ruleset's deal lays its whole pack out in rows across `columns` piles of one group, left to
    right and bottom row first: card i of the dealing order lands on the (i mod columns)-th pile."""
    size = rules.deck.size
    piles = initial_state(rules, list(range(size))).piles
    dealt = [p for p in range(rules.pile_count) if piles[p]]
    if len(dealt) != columns or len({rules.group_of[p] for p in dealt}) != 1:
        return False
    return all(list(piles[p]) == list(range(j, size, columns)) for j, p in enumerate(dealt))


def dealt_in_rows(rules) -> tuple[list[list[int]], list[int]] | None:
    """When the ruleset deals rows into one group of piles and the rest to one stock: what each pile of the group
    holds of the dealing order 0, 1, 2, … (bottom first), and the stock's cards, top first; else None."""
    groups = list(rules.groups.values())
    if any(g.prefill is not None or g.divert is not None for g in groups):
        return None
    rowed = [g for g in groups if isinstance(g.deal, list) and g.deal]
    if len(rowed) != 1:
        return None
    size = rules.deck.size
    st = initial_state(rules, list(range(size)))
    held = [list(st.piles[p]) for p in rowed[0].piles]
    rests = [g.piles[0] for g in groups if g.deal == "rest"]
    stock = list(reversed(st.piles[rests[0]])) if rests else []
    if sum(map(len, held)) + len(stock) != size:  # some other pile is dealt cards too
        return None
    return held, stock


def pysol_layout(rules) -> PysolLayout | None:
    """The PySolFC layout the ruleset's deal has the shape of, if any."""
    dealt = dealt_in_rows(rules)
    if dealt is None or rules.deck.size % PACK:
        return None
    shape = (rules.deck.size // PACK, tuple(map(len, dealt[0])))
    return next((layout for layout in PYSOL_LAYOUTS if layout.shape() == shape), None)


def known_games() -> str:
    """The PySolFC games whose layouts `pysol:N` knows, as a phrase: `FreeCell, Forty Thieves, … or Spider`."""
    games = [game for layout in PYSOL_LAYOUTS for game in layout.games.split(", ")]
    return ", ".join(games[:-1]) + " or " + games[-1]


def pysol_order(rules, number: int, text: str | None = None) -> list[int]:
    """The card ids in dealing order that lay out PySolFC's game `number` under `rules`, or WorldDealError."""
    text = text or f"pysol:{number}"
    if not PYSOL_FIRST <= number <= PYSOL_LAST:
        raise WorldDealError(f"PySolFC's games are numbered {PYSOL_FIRST} to {PYSOL_LAST}; {number} is not one")
    layout = pysol_layout(rules)
    if layout is None:
        raise WorldDealError(f"{text} is PySolFC's game {number}, which kallisti lays out for a deal that PySolFC lays "
                             f"out the same way: that of {known_games()}; {rules.name}'s deal is laid out otherwise")
    talon = _cards(rules, text, pysol_talon(number, layout.packs))
    held, stock = dealt_in_rows(rules)
    order = [0] * rules.deck.size
    for ours, theirs in zip(held, layout.held()):
        for place, position in zip(ours, theirs):
            order[place] = talon[position]
    dealt = sum(map(len, held))
    for i, place in enumerate(stock):
        order[place] = talon[dealt + i]
    return order


def _cards(rules, text: str, names: list[str]) -> list[int]:
    """The ruleset's card ids for these names, each copy used once, or WorldDealError for a deck that lacks one."""
    deck = rules.deck
    pool = list(range(deck.size))
    cards = []
    for name in names:
        try:
            kind = deck.parse_card(name, Pos(text))
        except Exception:  # a deck without this card: not the standard pack
            raise WorldDealError(f"{text} deals the standard pack; {rules.name}'s deck has no {name}") from None
        card = next((c for c in pool if deck.kind[c] == kind), None)
        if card is None:
            raise WorldDealError(f"{text} deals the standard pack; {rules.name}'s deck has no {name}")
        pool.remove(card)
        cards.append(card)
    return cards


def world_deal_order(rules, text: str) -> list[int]:
    """The card ids in dealing order for world deal `text` (`ms:N` or `pysol:N`) under `rules`, or WorldDealError."""
    m = _NUMBER.match(str(text).strip())
    if m is None:
        raise WorldDealError(f"{text!r} is not a world deal number: write ms:N (Microsoft FreeCell's deal N, from "
                             f"{MS_FIRST} to {MS_LAST}) or pysol:N (PySolFC's game N, from {PYSOL_FIRST} to "
                             f"{PYSOL_LAST})")
    numbering, number = m.group(1), int(m.group(2))
    if numbering == "pysol":
        return pysol_order(rules, number, text)
    names = ms_cards(number)
    if rules.deck.size != len(names) or not deals_rows_across(rules):
        raise WorldDealError(f"{text} is a Microsoft FreeCell deal: it needs a one-pack ruleset of 52 cards whose deal "
                             f"lays the pack out in rows across {COLUMNS} piles; {rules.name} does not")
    return _cards(rules, text, names)
