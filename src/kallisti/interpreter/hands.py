"""Sort a hand into its best partition of groupings, and compare hands at the showdown (crippling included)."""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from kallisti.errors import Pos, error
from kallisti.interpreter.compiler import Ctx, RuleRuntimeError
from kallisti.model.hands import HandRules

MAX_MEMO = 200_000  # condition answers kept per ruleset (by grouping and the kinds of the cards), then forgotten


@dataclass(frozen=True)
class Group:
    """One grouping found in a hand: its grouping's id, name and rank, and its cards (physical card ids)."""

    id: str
    name: str
    rank: int
    cards: tuple[int, ...]
    nulls: int = 0  # cards that joined the group as nothing (`hands.nulls`): fewer wins a tie of equal rank
    wild: int = 0  # wild cards standing in for others (`hands.wild`)


@dataclass(frozen=True)
class Evaluation:
    """A hand's best partition: its groups, highest first, the cards left out, and what the search cost."""

    cards: tuple[int, ...]
    groups: tuple[Group, ...]
    unused: tuple[int, ...]
    holds: frozenset  # every grouping some set of the hand's cards forms (cripples look here)
    steps: int
    complete: bool  # False: the budget ran out and the partition is the best found so far

    @property
    def ranks(self) -> tuple[int, ...]:
        """What partitions compare: the groups' ranks, highest first (a longer tuple wins a tie of its prefix)."""
        return tuple(g.rank for g in self.groups)

    @property
    def top(self) -> str | None:
        """The id of the highest grouping, or None for a hand with no grouping."""
        return self.groups[0].id if self.groups else None


class BudgetSpent(Exception):
    """The search took more steps than the ruleset's `hands.budget`."""


@dataclass
class _Search:
    """The work of evaluating one hand: a step counter checked against the budget."""

    budget: int
    steps: int = 0
    memo: dict = field(default_factory=dict)

    def step(self, n: int = 1) -> None:
        self.steps += n
        if self.steps > self.budget:
            raise BudgetSpent


class HandEvaluator:
    """Evaluates hands under one ruleset's `hands` section; condition answers are shared between hands."""

    def __init__(self, rules):
        if rules.hands is None:
            raise ValueError(f"{rules.name} declares no hands")
        self.rules = rules
        self.hand_rules: HandRules = rules.hands
        self.deck = rules.deck
        self._answers: dict[tuple, bool] = {}
        self._ctx = Ctx()
        groupings = self.hand_rules.groupings.values()
        # The simple groupings whose sets matter: enabled ones, and parts of enabled multiples or cripples.
        needed = {g.id for g in groupings if g.enabled}
        for g in groupings:
            if g.enabled and g.of:
                needed.add(g.of)
        for c in self.hand_rules.cripples:
            if c.enabled:
                needed.add(c.by)
        self.simple = [g for g in groupings if g.of is None and g.id in needed]
        self.multiples = [g for g in groupings if g.of is not None and g.enabled and g.of in needed]

    # -- one hand -------------------------------------------------------------------------------
    def evaluate(self, cards, budget: int | None = None) -> Evaluation:
        """The best partition of `cards` (physical card ids) into groupings, within the step budget."""
        cards = tuple(cards)
        search = _Search(self.hand_rules.budget if budget is None else budget)
        found: dict[str, list[int]] = {}
        best: dict[int, tuple[int, str]] = {}  # mask -> (rank, grouping id) of its best ranked grouping
        complete = True
        try:
            self._simple_sets(cards, found, search)
            self._multiple_sets(found, search)
            for gid, masks in found.items():
                g = self.hand_rules.groupings[gid]
                if g.rank is None or not g.enabled:
                    continue
                for m in masks:
                    if m not in best or g.rank > best[m][0]:
                        best[m] = (g.rank, gid)
            candidates = sorted(((r, m, gid) for m, (r, gid) in best.items()), key=lambda t: (-t[0], t[1]))
            full = (1 << len(cards)) - 1
            _, chosen = self._best(full, candidates, search)
        except BudgetSpent:
            complete = False
            chosen = self._greedy(best)
        groups = tuple(self._group(cards, m, gid) for m, gid in chosen)
        used = 0
        for m, _ in chosen:
            used |= m
        unused = tuple(c for i, c in enumerate(cards) if not used >> i & 1)
        return Evaluation(cards, groups, self._sorted(unused), frozenset(gid for gid, masks in found.items() if masks),
                          search.steps, complete)

    def _simple_sets(self, cards, found, search) -> None:
        """Every set of the hand's cards that forms each simple grouping (masks over the hand's positions)."""
        n = len(cards)
        kind = self.deck.kind
        by_size: dict[int, list] = {}
        for g in self.simple:
            found[g.id] = []
            for k in range(g.sizes[0], min(g.sizes[1], n) + 1):
                by_size.setdefault(k, []).append(g)
        answers, ctx = self._answers, self._ctx
        ctx.locals["hand"] = list(cards)
        whole = tuple(sorted(kind[c] for c in cards))
        # Positions in order of kind, so every combination's kinds come out sorted: the memo's key as it is.
        order = sorted(range(n), key=lambda i: kind[cards[i]])
        for k, gs in sorted(by_size.items()):
            for combo in combinations(order, k):
                subset = [cards[i] for i in combo]
                kinds = tuple(kind[c] for c in subset)
                mask = 0
                for g in gs:
                    key = (g.id, kinds, whole) if g.uses_hand else (g.id, kinds)
                    ok = answers.get(key)
                    if ok is None:
                        search.step()
                        ctx.cards, ctx.count = subset, k
                        try:
                            ok = bool(g.when(ctx))
                        except RuleRuntimeError:
                            ok = False  # a condition that fails for these cards does not form the grouping
                        if len(answers) >= MAX_MEMO:
                            answers.clear()
                        answers[key] = ok
                    if ok:
                        if not mask:
                            for i in combo:
                                mask |= 1 << i
                        found[g.id].append(mask)

    def _multiple_sets(self, found, search) -> None:
        """The sets made of `count` disjoint sets of a multiple grouping's part."""
        for g in self.multiples:
            parts = found.get(g.of, [])
            unions: set[int] = set()

            def extend(start: int, used: int, left: int) -> None:
                if left == 0:
                    unions.add(used)
                    return
                for i in range(start, len(parts)):
                    search.step()
                    if not parts[i] & used:
                        extend(i + 1, used | parts[i], left - 1)

            extend(0, 0, g.count)
            found[g.id] = sorted(unions)

    def _best(self, left: int, candidates, search) -> tuple[tuple, tuple]:
        """The best (ranks, groups) for the cards in mask `left`.

        The highest grouping of the best partition is the highest grouping the cards can form at all,
        so only sets of that rank are tried first; the rest is the best partition of what they leave.
        """
        memo = search.memo
        if left in memo:
            return memo[left]
        answer: tuple[tuple, tuple] = ((), ())
        top = None
        for rank, m, gid in candidates:
            if top is not None and rank < top:
                break
            search.step()
            if m & ~left:
                continue
            top = rank
            ranks, groups = self._best(left & ~m, candidates, search)
            option = ((rank,) + ranks, ((m, gid),) + groups)
            if option[0] > answer[0]:
                answer = option
        memo[left] = answer
        return answer

    @staticmethod
    def _greedy(best) -> tuple:
        """Highest sets first, skipping any that overlap: the partition reported when the budget runs out."""
        chosen, used = [], 0
        for m, (_, gid) in sorted(best.items(), key=lambda t: (-t[1][0], t[0])):
            if not m & used:
                chosen.append((m, gid))
                used |= m
        return tuple(chosen)

    def _group(self, cards, mask: int, gid: str) -> Group:
        g = self.hand_rules.groupings[gid]
        members = [c for i, c in enumerate(cards) if mask >> i & 1]
        return Group(gid, g.name, g.rank, self._sorted(members))

    def _sorted(self, cards) -> tuple[int, ...]:
        d = self.deck
        return tuple(sorted(cards, key=lambda c: (d.rank[c], d.suit[c], c)))

    # -- the showdown ----------------------------------------------------------------------------
    def crippler(self, hand: Evaluation, others: list[Evaluation]):
        """The highest enabled Cripple `hand` holds against another hand's best grouping, or None."""
        tops = {o.top for o in others}
        held = [c for c in self.hand_rules.cripples if c.enabled and c.by in hand.holds and tops.intersection(c.beats)]
        return max(held, key=lambda c: c.rank, default=None)

    def cripple_rank(self, hand: Evaluation, others: list[Evaluation]) -> int | None:
        """The rank of the cripple `hand` holds against the others (None: it cripples nobody)."""
        c = self.crippler(hand, others)
        return None if c is None else c.rank

    def showdown(self, hands: list[Evaluation]) -> list[int]:
        """The indexes of the winning hands (more than one on a complete tie, which seniority then decides).

        A hand that cripples another's best grouping beats everybody; between cripplers the higher
        cripple wins. Otherwise partitions compare by their highest grouping, then the next, and so on.
        """
        crippling = [self.cripple_rank(h, hands[:i] + hands[i + 1:]) for i, h in enumerate(hands)]
        if any(r is not None for r in crippling):
            top = max(r for r in crippling if r is not None)
            return [i for i, r in enumerate(crippling) if r == top]
        best = max(h.ranks for h in hands)
        return [i for i, h in enumerate(hands) if h.ranks == best]

    def compare(self, a: Evaluation, b: Evaluation) -> int:
        """1 if hand a beats hand b at the showdown, -1 if b beats a, 0 on a complete tie."""
        winners = self.showdown([a, b])
        return 0 if len(winners) == 2 else (1 if winners == [0] else -1)


def parse_hands(deck, texts: list[str]) -> list[list[int]]:
    """Physical cards for hands written as card names (`2C 2D 3S`), each name taking the next unused twin,
    so that no card is used twice across the hands; a bad name is reported at its column (`<hand N>:1:C`)."""
    free: dict[int, list[int]] = {}
    for c in range(deck.size - 1, -1, -1):
        free.setdefault(deck.kind[c], []).append(c)
    hands = []
    for n, text in enumerate(texts, start=1):
        cards, col = [], 0
        for word in text.replace(",", " ").split(" "):
            if word:
                pos = Pos(f"<hand {n}>", 1, col + 1)
                kind = deck.parse_card(word, pos)
                if not free.get(kind):
                    raise error("hand-too-many", f"'{word}' appears more often than the deck holds it", pos)
                cards.append(free[kind].pop())
            col += len(word) + 1
        hands.append(cards)
    return hands
