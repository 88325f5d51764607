"""Game state: piles of card ids with face-down counts, compact and hashable, and the initial deal."""

from __future__ import annotations

from kallisti.errors import Finding, KallistiError, Pos
from kallisti.interpreter.compiler import Ctx
from kallisti.interpreter.rng import Rng, STREAM_DEAL


class State:
    """Mutable piles (lists of card ids, bottom first); `down[p]` cards at the bottom of pile p lie face down."""

    __slots__ = ("piles", "down", "sizes", "redeals", "no_card")

    def __init__(self, pile_count: int, groups, no_card: int):
        self.piles: list[list[int]] = [[] for _ in range(pile_count)]
        self.down: list[int] = [0] * pile_count
        self.sizes: dict[str, int] = {name: 0 for name in groups}
        self.redeals: dict[str, int] = {name: 0 for name in groups}
        self.no_card = no_card

    def key(self) -> tuple:
        """A hashable snapshot of everything that decides the future of the game."""
        return (tuple(map(tuple, self.piles)), tuple(self.down), tuple(self.redeals.values()))

    def card_count(self) -> int:
        return sum(len(p) for p in self.piles)


def shuffled_order(deck_size: int, seed: int, deal_number: int = 0) -> list[int]:
    """The pack in dealing order for (seed, deal number), from the deal stream only."""
    order = list(range(deck_size))
    Rng(seed, deal_number, STREAM_DEAL).shuffle(order)
    return order


def initial_state(rules, order: list[int]) -> State:
    """Lay out the cards of `order` (first card dealt first) as the ruleset's deal says."""
    deck = rules.deck
    st = State(rules.pile_count, rules.groups, deck.size)
    remaining = list(order)
    ctx = Ctx(st)
    for g in rules.groups.values():
        if g.prefill is None:
            continue
        for p in g.piles:
            for i, c in enumerate(remaining):
                ctx.card = c
                if g.prefill(ctx):
                    st.piles[p].append(remaining.pop(i))
                    break
    at = 0
    for g in rules.groups.values():
        if not isinstance(g.deal, list):
            continue
        for row in g.deal:
            for p in g.piles:
                if at >= len(remaining):
                    raise KallistiError(Finding("deal-short", f"the deal runs out of cards in piles.{g.name}", Pos(rules.name)))
                st.piles[p].append(remaining[at])
                at += 1
                if row == "down":
                    st.down[p] += 1
    rest = remaining[at:]
    for g in rules.groups.values():
        if g.deal == "rest":
            p = g.piles[0]
            # The first card left is the next one turned, so it lies on top (the end of the list).
            st.piles[p].extend(reversed(rest))
            st.down[p] = len(st.piles[p])
            rest = []
    for name, g in rules.groups.items():
        st.sizes[name] = sum(len(st.piles[p]) for p in g.piles)
    return st
