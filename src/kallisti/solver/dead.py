"""Loss proofs: a position is lost when some card outside home can never leave its pile, read off the rules.

A card in a pile that gives up only its top card, one at a time, can leave only after every card above it has
left, and only to a pile whose rules take it: onto a card its build rule admits, or onto an empty pile its empty
rule admits. `DeadCards.lost` works out, in a position, the cards that might still leave — those of piles that
other routes drain (a stock, a redealt or discarding pile), then, round after round, each card whose cards above
might all leave and that has somewhere to go among the cards that might be exposed or moved — and the rest are
*stuck*. When the win asks for every card in some groups, a stuck card outside them proves the position lost.

Why it is sound (docs/solver.md, "Loss proofs"): suppose some line of play moves a stuck card, and take the first
stuck card x it moves. Every card above x left before it, so none of them is stuck: x was kept stuck because it had
nowhere to go. But x went onto a card y of some pile d, or onto d empty. If y lay on d from now on, every card above
y left before x did, so they are not stuck and y counts as exposed; if y came to d, it left its own pile first, so y
is not stuck and counts as moved; if d was empty, every card of d left first, so none is stuck and d counts as a
pile that may be emptied. In each case the round that judged x would have found the destination: a contradiction.
The rules' tables are read at their most permissive (a rule that also reads the position admits everything), so a
doubt frees a card, never sticks one.
"""

from __future__ import annotations

from kallisti.model.reach import one_card_at_a_time, win_shape

LOOSE_KEPT = 1 << 14  # piles whose kinds `_loose` keeps before it forgets them


class DeadCards:
    """The loss proof of one ruleset; build it with `DeadCards.of`, which gives None where it cannot hold."""

    def __init__(self, rules, home: list[str]):
        deck, names = rules.deck, list(rules.groups)
        self.kinds = sorted(deck.representative)
        rep = deck.representative
        every = 0
        for k in self.kinds:
            every |= 1 << k
        drained = drained_groups(rules)
        # Per group (by index): whether its piles give up their top card alone and only by a move (else every card
        # in it counts as one that may leave), the kinds that may leave it, its empty rule's kinds, and per top kind
        # the kinds its build rule admits onto it; all as bit masks of kinds.
        self.stacked: list[bool] = []
        self.takes: list[int] = []
        self.empty: list[int] = []
        self.onto: list[list[int]] = []
        for name in names:
            group = rules.groups[name]
            self.stacked.append(name not in drained and one_card_at_a_time(deck, group.take))
            self.takes.append(_card_mask(group.take, rep, every))
            self.empty.append(_card_mask(group.empty, rep, every))
            self.onto.append([_pair_mask(group.build, rep, k, every) for k in range(max(self.kinds) + 1)])
        # Per top kind: the kinds some group's build rule admits onto it (a card that may move may go to any group).
        self.onto_any = [0] * len(self.onto[0]) if self.onto else []
        for masks in self.onto:
            for t, mask in enumerate(masks):
                self.onto_any[t] |= mask
        self.home_piles = frozenset(p for g in home for p in rules.groups[g].piles)
        self.gindex = rules.gindex
        self.every = every
        # When every card outside home may leave its group, a position where every kind may go somewhere (a pile
        # that takes any card may empty, say) frees every card: `lost` stops there.
        home_index = {names.index(g) for g in home}
        self.all_take = all(self.takes[gi] == every for gi, s in enumerate(self.stacked) if s and gi not in home_index)
        # Where a pile outside home that may empty then takes any card, the proof bites only once no such pile can
        # ever empty: measured, it then costs more than it saves (docs/solver.md, "Loss proofs"), so the search
        # uses it by default only where no space takes every card.
        self.pays = not any(self.stacked[gi] and gi not in home_index and self.empty[gi] == every
                            for gi in range(len(names)))
        # The same tables by card id, as `lost` reads them.
        kind_of = deck.kind
        self.bit = [1 << kind_of[c] for c in range(deck.size)]
        self.onto_card = [[masks[kind_of[c]] for c in range(deck.size)] for masks in self.onto]
        self.onto_any_card = [self.onto_any[kind_of[c]] for c in range(deck.size)]
        pile_groups = [(p, gi) for p, gi in enumerate(rules.gindex)]
        self.stacked_piles = [(p, gi) for p, gi in pile_groups if self.stacked[gi]]
        # Stacked piles that give some card, and those that give none (a foundation nothing leaves).
        self.giving_piles = [(p, gi) for p, gi in self.stacked_piles if self.takes[gi]]
        self.holding_piles = [(p, gi, p in self.home_piles) for p, gi in self.stacked_piles if not self.takes[gi]]
        self.loose_piles = [(p, gi) for p, gi in pile_groups if not self.stacked[gi]]
        self.small = deck.size < 256
        self.loose_seen: dict = {}

    @classmethod
    def of(cls, rules) -> DeadCards | None:
        """The loss proof of `rules`, or None when its win does not ask for every card in some groups or no pile
        outside those gives up its top card alone."""
        if rules.reads_history:
            return None  # which card may leave a pile may depend on the moves made, not the position alone
        if any(g.take_from != ("top",) for g in rules.groups.values()):
            return None  # a card may leave from under others: the proof's "every card above it must leave first" fails
        win = win_shape(" ".join(str(rules.data.get("win", "")).split()), rules.groups) if rules.win else None
        if win is None or not win.everything_on or not rules.groups:
            return None
        proof = cls(rules, list(dict.fromkeys(win.everything_on)))
        return proof if any(p not in proof.home_piles for p, _ in proof.stacked_piles) else None

    def lost(self, game) -> bool:
        """Whether some card outside home in the game's position can never leave its pile (so the game is lost)."""
        piles = game.state.piles
        bit, onto, empty, takes = self.bit, self.onto_card, self.empty, self.takes
        accept = 0  # the kinds some card may go onto: on an exposed or moving card, or on a pile that may empty
        free_kinds = 0  # kinds of the cards that may leave (seen so far)
        # Per stacked pile with a card that may stay: how many of its cards, from the bottom, are not (yet) free.
        waiting: dict[int, int] = {}
        for p, g in self.giving_piles:
            pile = piles[p]
            if pile:
                waiting[p] = len(pile)
                accept |= onto[g][pile[-1]]  # its top card is exposed
            else:
                accept |= empty[g]
        held = False  # whether a pile outside home that gives no card holds one
        for p, g, is_home in self.holding_piles:  # only their top cards matter: exposed for good
            pile = piles[p]
            if pile:
                accept |= onto[g][pile[-1]]
                held = held or not is_home
            else:
                accept |= empty[g]
        if held:
            return True
        for p, g in self.loose_piles:  # every card may leave, and the pile may empty
            pile = piles[p]
            accept |= empty[g]
            if pile:
                kinds, onto_kinds = self._loose(pile)
                free_kinds |= kinds
                accept |= onto_kinds
        done = self.every if self.all_take else -1  # `accept` at which every card is known to be free
        if accept == done:
            return False
        gindex, onto_any, home = self.gindex, self.onto_any_card, self.home_piles
        # Each pile is looked at again only when `accept` gains the kind of the card it is held at (`blocked`).
        blocked: dict[int, list[int]] = {}
        queue = list(waiting)
        while queue:
            p = queue.pop()
            g, pile = gindex[p], piles[p]
            n = waiting[p]
            before = accept
            while n:
                c = pile[n - 1]
                b = bit[c]
                if not accept & b:
                    if takes[g] & b:
                        blocked.setdefault(b, []).append(p)
                    break
                if not takes[g] & b:
                    break
                n -= 1
                if not free_kinds & b:
                    free_kinds |= b
                    accept |= onto_any[c]
                if n:
                    accept |= onto[g][pile[n - 1]]  # the card below it may be exposed
            if n:
                waiting[p] = n
            else:
                del waiting[p]
                accept |= empty[g]
            if accept != before:
                if accept == done:
                    return False
                gained = accept & ~before
                for b in [b for b in blocked if b & gained]:
                    queue += blocked.pop(b)
        return any(p not in home for p in waiting)

    def _loose(self, pile: list[int]) -> tuple[int, int]:
        """The kinds of a pile whose cards may all leave, and the kinds that may go onto them anywhere; kept by the
        pile's cards (a stock changes only when it deals)."""
        key = bytes(pile) if self.small else tuple(pile)
        found = self.loose_seen.get(key)
        if found is None:
            kinds = onto_kinds = 0
            for c in pile:
                if not kinds & self.bit[c]:
                    kinds |= self.bit[c]
                    onto_kinds |= self.onto_any_card[c]
            if len(self.loose_seen) >= LOOSE_KEPT:
                self.loose_seen.clear()
            found = self.loose_seen[key] = (kinds, onto_kinds)
        return found


def drained_groups(rules) -> set[str]:
    """The groups that cards leave by a route other than a player's move of their top card: a stock's turn, a
    discard, a refill's source and a redeal's gathering (a card may leave those from anywhere in the pile)."""
    out = set()
    for name, g in rules.groups.items():
        if g.turn is not None:
            out.add(name)
        if g.discard is not None and not g.discard.never:
            out.add(name)
        if g.refill is not None:
            out.add(g.refill["from"])
        if g.redeal is not None:
            out.update(g.redeal.gather)
    return out


def _card_mask(rule, rep: dict, every: int) -> int:
    """The kinds a rule of one card (take, empty) admits, by its table; every kind when it has none."""
    if rule.never:
        return 0
    table = getattr(rule, "card_table", None)
    if rule.always or table is None:
        return every
    mask = 0
    for k, c in rep.items():
        if table[c]:
            mask |= 1 << k
    return mask


def _pair_mask(rule, rep: dict, top: int, every: int) -> int:
    """The kinds a build rule admits onto a card of kind `top`, by its table; every kind when it has none."""
    if rule.never or top not in rep:
        return 0
    if rule.always or rule.pair_table is None:
        return every
    table, stride, t = rule.pair_table, rule.stride, rep[top]
    mask = 0
    for k, c in rep.items():
        if table[c * stride + t]:
            mask |= 1 << k
    return mask
