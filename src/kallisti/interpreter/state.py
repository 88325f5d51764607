"""Game state: piles of card ids with face-down counts, compact and hashable, and the initial deal."""

from __future__ import annotations

from functools import partial
from itertools import compress, count

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

    @classmethod
    def laid_out(cls, piles: list[list[int]], down: list[int], sizes: dict[str, int], groups, no_card: int) -> "State":
        """A state of these piles, face-down counts and group sizes, before any redeal."""
        st = cls.__new__(cls)
        st.piles, st.down, st.sizes, st.no_card = piles, down, sizes, no_card
        st.redeals = dict.fromkeys(groups, 0)
        return st

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


def row_faces(group, row) -> list[str | None]:
    """Per pile of the group, how a row deals it: `up`, `down`, or None (no card)."""
    if row in ("up", "down"):
        return [row] * len(group.piles)
    letters = row.split()
    return [{"u": "up", "d": "down"}.get(letter) for letter in letters]


class Dealer:
    """Deals cards into piles as a ruleset says: rows, face up or down, with diverted cards."""

    def __init__(self, rules, st: State):
        self.rules, self.st = rules, st
        self.ctx = Ctx(st)

    def divert_target(self, group, card: int) -> int | None:
        """The pile a card dealt into `group` goes to instead, if the group diverts it and a pile takes it."""
        divert = group.divert
        if divert is None:
            return None
        ctx = self.ctx
        ctx.card = card
        if not (divert.when(ctx) if divert.table is None else divert.table[card]):
            return None
        target = self.rules.groups[divert.to]
        st = self.st
        ctx.cards, ctx.count, ctx.source = [card], 1, -1
        for q in target.piles:
            pile = st.piles[q]
            ctx.pile = q
            if not pile:
                ctx.top = st.no_card
                if target.empty.allows(ctx):
                    return q
            elif len(pile) > st.down[q]:
                ctx.top = pile[-1]
                if target.build.allows(ctx):
                    return q
        return None

    def place(self, group, card: int, pile: int, face: str) -> int:
        """Put a dealt card on `pile` (or where the group diverts it); returns the pile it went to."""
        st = self.st
        target = self.divert_target(group, card)
        if target is not None:
            st.piles[target].append(card)
            return target
        st.piles[pile].append(card)
        if face == "down" and st.down[pile] == len(st.piles[pile]) - 1:
            st.down[pile] += 1
        return pile

    def _short(self, group) -> KallistiError:
        return KallistiError(Finding("deal-short", f"the deal runs out of cards in piles.{group.name}", Pos(self.rules.name)))

    def deal_rows(self, group, next_card, strict: bool) -> None:
        """Deal the group's rows, taking cards from `next_card()` (None when no card is left).

        A diverted card does not fill its place: the next card is dealt there. When cards run
        out, a strict deal (the opening) is an error; a redeal just stops.
        """
        st = self.st
        divert = group.divert
        kept = divert.table if divert is not None else None  # which cards it diverts, when that is known by the card
        for row in group.deal:
            for p, face in zip(group.piles, row_faces(group, row)):
                if face is None:
                    continue
                while True:
                    card = next_card()
                    if card is None:
                        if strict:
                            raise self._short(group)
                        return
                    if divert is None or kept is not None and not kept[card]:
                        # not diverted: `place` without its look for a target
                        pile = st.piles[p]
                        pile.append(card)
                        if face == "down" and st.down[p] == len(pile) - 1:
                            st.down[p] += 1
                        break
                    if self.place(group, card, p, face) == p:
                        break


def initial_state(rules, order: list[int]) -> State:
    """Lay out the cards of `order` (first card dealt first) as the ruleset's deal says."""
    layout = rules.deal_layout
    if layout is None:
        layout = rules.deal_layout = deal_layout(rules)
    if layout and len(order) == rules.deck.size:
        return layout.deal(rules, order)
    return _dealt(rules, order)


def _dealt(rules, order: list[int]) -> State:
    """`initial_state`, card by card: prefilled piles, then each group's rows, then the rest."""
    st = State(rules.pile_count, rules.groups, rules.deck.size)
    remaining = list(order)
    dealer = Dealer(rules, st)
    ctx = dealer.ctx
    for g in rules.groups.values():
        if g.prefill is None:
            continue
        table = g.prefill_table
        for p in g.piles:
            if table is not None:  # it reads only the card: the first card it takes found by look-ups, at C speed
                i = next(compress(count(), map(table.__getitem__, remaining)), None)
                if i is not None:
                    st.piles[p].append(remaining.pop(i))
                continue
            for i, c in enumerate(remaining):
                ctx.card = c
                if g.prefill(ctx):
                    st.piles[p].append(remaining.pop(i))
                    break
    cards = iter(remaining)
    next_card = partial(next, cards, None)  # the next card to deal, None when none is left
    for g in rules.groups.values():
        if isinstance(g.deal, list):
            dealer.deal_rows(g, next_card, strict=True)
    rest = list(cards)
    for g in rules.groups.values():
        if g.deal == "rest":
            p = g.piles[0]
            # The first card left is the next one turned, so it lies on top (the end of the list).
            st.piles[p].extend(reversed(rest))
            st.down[p] = len(st.piles[p])
            rest = []
    recount(rules, st)
    return st


class DealLayout:
    """Where the opening deal of a ruleset puts each place of the dealing order, when that does not depend on the
    cards (no group prefills a pile or diverts a card): per pile, the places it gets, bottom first, as a slice of the
    order where they are evenly spaced (a row deal, the rest turned over), else their list; how many cards of each
    pile lie face down; and each group's size. Dealing is then a slice per pile rather than a call per card."""

    __slots__ = ("places", "sliced", "down", "sizes")

    def __init__(self, st: State):
        positions = list(range(sum(map(len, st.piles))))
        self.places = [_as_slice(pile, positions) for pile in st.piles]
        self.sliced = all(isinstance(s, slice) for s in self.places)
        self.down, self.sizes = st.down, st.sizes

    def deal(self, rules, order: list[int]) -> State:
        """The opening position of `order`, as `_dealt` lays it out."""
        if self.sliced:
            piles = list(map(order.__getitem__, self.places))
        else:
            piles = [order[s] if isinstance(s, slice) else [order[i] for i in s] for s in self.places]
        return State.laid_out(piles, self.down[:], dict(self.sizes), rules.groups, rules.deck.size)


def _as_slice(places: list[int], positions: list[int]):
    """The slice of `positions` (0, 1, ...) that is `places`, when they are evenly spaced; else `places`."""
    if not places:
        return slice(0, 0)
    step = places[1] - places[0] if len(places) > 1 else 1
    stop = places[-1] + step
    cut = slice(places[0], stop if stop >= 0 else None, step)
    return cut if positions[cut] == places else places


def deal_layout(rules) -> DealLayout | bool:
    """The ruleset's `DealLayout`, or False when where a card goes may depend on the cards (a pile prefilled, a card
    diverted) or the opening deal fails (it runs short: the card-by-card deal reports that)."""
    if any(g.prefill is not None or g.divert is not None for g in rules.groups.values()):
        return False
    try:
        st = _dealt(rules, list(range(rules.deck.size)))  # each card is its place in the dealing order
    except KallistiError:
        return False
    return DealLayout(st)


def recount(rules, st: State) -> None:
    """Recompute the per-group card counts from the piles."""
    for name, g in rules.groups.items():
        st.sizes[name] = sum(len(st.piles[p]) for p in g.piles)
