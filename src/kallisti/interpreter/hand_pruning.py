"""The partition search's sets of cards worth judging: those some grouping of their size may form, by what it needs."""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb

from kallisti.errors import KallistiError, Pos
from kallisti.grammar.expressions import and_parts, parse_expression
from kallisti.interpreter.compiler import HAND_SCOPE, Ctx, RuleRuntimeError
from kallisti.interpreter.hand_needs import Needs, needs_of


@dataclass
class Spec:
    """What the groupings of one set of needs ask of a set of cards (positions in the hand are bits of a mask)."""

    by_size: dict = field(default_factory=dict)  # set size -> the groupings of that size with these needs
    banned: int = 0  # positions whose card fails an `all(c in cards: ...)` test
    some: tuple = ()  # position masks: the set holds a card of each (an `any(c in cards: ...)` test)
    sums: tuple = ()  # (track, totals mask, highest total in it): some total of the set is in the mask (bit t: total t)
    alike: tuple = ()  # tracks: the set's cards share some value of an attribute
    counts: tuple = ()  # (positions passing a test, positions it cannot judge, comparison, n): how many pass, against n


def sets_to_judge(order, specs: list[Spec], steps_of: list[list], alike_of: list[list]) -> list[tuple[tuple, list]]:
    """(positions, groupings) for each set of positions, taken in `order`'s order, that some grouping may form.

    The facts of a set are made from those of the set one card smaller: its totals as a bit mask (bit t: the total t;
    a card adds one of the values `steps_of[track][position]`), and for each attribute the values every card may have
    (`alike_of[track][position]`, a bit mask). Values are never negative (the caller keeps no sum tracks otherwise), so a
    set's lowest total only grows with it: once a set's lowest total passes the highest a spec's groupings want, or it
    fails a test of single cards or of likeness, no larger set meets that spec either, and its search stops there.
    With `order` by the least value each card adds, once a set one card larger is past every spec's totals, so are
    those the cards after that one make: they are not looked at (a track of totals where some card adds less than
    one before it, a null card's, does not allow it).
    """
    out: list[tuple[tuple, list]] = []
    n = len(order)
    rising = [all(min(st[a]) <= min(st[b]) for a, b in zip(order, order[1:])) for st in steps_of]

    def visit(start: int, mask: int, combo: tuple, size: int, sums: list[int], alike: list[int], live: list) -> None:
        size += 1
        for j in range(start, n):
            p = order[j]
            m = mask | 1 << p
            totals, lows = [], []
            for t, bits in enumerate(sums):
                shifts = steps_of[t][p]
                if len(shifts) == 1:
                    bits <<= shifts[0]
                else:
                    made = 0
                    for v in shifts:
                        made |= bits << v
                    bits = made
                totals.append(bits)
                lows.append((bits & -bits).bit_length() - 1)  # the lowest total
            shared = [bits & alike_of[t][p] for t, bits in enumerate(alike)]
            judged, deeper = [], []
            past = True  # every spec is past its totals, on a track where the cards after this one add no less
            for spec in live:
                banned, likeness, wants, by_size, some, most, counted = spec
                if m & banned or (likeness and not all(shared[t] for t in likeness)):
                    past = False
                    continue
                now = later = True
                if counted:
                    now, later = _counts_allow(counted, m, size, most)
                    if not later:
                        past = False
                        continue
                for t, want, top in wants:
                    if not totals[t] & want:
                        now = False
                        if lows[t] > top:  # every total is past the highest wanted: so are a larger set's
                            later = False
                            past = past and rising[t]
                            break
                if later:
                    past = False
                if now and by_size[size] is not None:
                    for x in some:
                        if not m & x:
                            break
                    else:
                        judged.extend(by_size[size])
                if later and most > size:
                    deeper.append(spec)
            if judged or deeper:
                here = combo + (p,)
                if judged:
                    out.append((here, judged))
                if deeper and j + 1 < n:
                    visit(j + 1, m, here, size, totals, shared, deeper)
            elif past:
                break

    live = []
    for s in specs:
        most = max(s.by_size)
        live.append((s.banned, s.alike, s.sums, [s.by_size.get(k) for k in range(most + 1)] + [None] * (n + 1 - most),
                     s.some, most, s.counts))
    visit(0, 0, (), 0, [1] * len(steps_of), [-1] * len(alike_of), live)
    return out


def _counts_allow(counts, m: int, size: int, most: int) -> tuple[bool, bool]:
    """(whether the set `m` of `size` cards may meet every count, whether some larger set of at most `most` cards may).

    The cards that pass a test are at least those sure to pass and at most those and the cards it cannot judge (wild
    or null ones); those sure to fail only grow in number, and the count asked for leaves room for so many."""
    now = later = True
    for passing, unsure, op, n in counts:
        low = (m & passing).bit_count()
        high = low + (m & unsure).bit_count()
        failing = size - high
        if op == "rel_eq":
            now = now and low <= n <= high
            later = later and low <= n and failing <= most - n
        elif op == "rel_ge":
            now = now and high >= n
            later = later and failing <= most - n
        elif op == "rel_gt":
            now = now and high > n
            later = later and failing < most - n
        elif op == "rel_le":
            now = now and low <= n
            later = later and low <= n
        elif op == "rel_lt":
            now = now and low < n
            later = later and low < n
        else:  # rel_ne: only a set whose count is sure and equal fails, and a larger one may differ
            now = now and not (low == high == n)
    return now, later


class SetPruning:
    """The part of HandEvaluator that picks the sets of a hand worth judging (it reads the evaluator's rules and cards)."""

    def _read_needs(self) -> None:
        """Each simple grouping's needs, from its condition's text; tests of single cards only where the compiler's
        `and` parts line up with the text's."""
        self._needs: dict[str, Needs] = {}
        # (grouping id, part, card) -> whether the card passes the part: as many as the rules' parts and the deck's cards
        self._card_tests: dict[tuple, bool] = {}
        self._one_card = Ctx()
        self._kinds_of_reps: dict[tuple, int] = {}
        self._count_tests: dict[str, object] = {}  # `all(c in cards: P)` of a count's test -> compiled (None: it fails)
        for g in self.simple:
            try:
                needs = needs_of(g.text)
                aligned = len(and_parts(parse_expression(g.text, Pos("<grouping>")))) == len(g.parts)
            except KallistiError:
                needs, aligned = Needs(), False
            if not aligned:
                needs = Needs(needs.totals, needs.same, counts=needs.counts)
            for test, _, _ in needs.counts:
                if test not in self._count_tests:
                    try:
                        self._count_tests[test] = self.rules.compiler.compile(test, Pos("<grouping>"), HAND_SCOPE).fn
                    except KallistiError:
                        self._count_tests[test] = None
            self._needs[g.id] = Needs(needs.totals, needs.same, needs.every, needs.some, needs.fixed,
                                      tuple(c for c in needs.counts if self._count_tests[c[0]] is not None))

    def _sets_worth_judging(self, cards, order, wild, by_size, limit: int) -> list[tuple[tuple, list]]:
        """(positions, groupings) for every set of `cards` that some grouping of its size may form, as far as what each
        condition needs can tell; the sets left out are those each grouping's condition would judge not to form it.
        `wild[i]` is the wild rule of the card at position i (or None); `limit` is MAX_STAND_INS."""
        deck, kind = self.deck, self.deck.kind
        n = len(cards)
        options = [self._wild_values(w) if w is not None else deck.values[c] for c, w in zip(cards, wild)]
        can_sum = all(v >= 0 for vs in options for v in vs)  # totals as bit masks need values of no sign
        most = sum(max(vs) for vs in options) if can_sum else 0  # no set of these cards totals more
        counts: dict = {}
        for w in wild:
            if w is not None:
                counts[w] = counts.get(w, 0) + 1
        tracks: dict[tuple, int] = {}  # (what, nullable kinds) -> track number, sums and likeness apart
        steps_of, alike_of = [], []
        specs: dict[tuple, Spec] = {}
        sizes: dict[str, tuple] = {}  # grouping id -> (grouping, the sizes asked of it)
        for size, gs in by_size.items():
            for g in gs:
                sizes.setdefault(g.id, (g, []))[1].append(size)
        modes: dict = {}  # nullable kinds -> (whether each card may be null, whether a test of one card cannot judge it)
        for g, asked in sizes.values():
            needs = self._needs[g.id]
            if not needs or (counts and self._may_go_approximate(g, counts, limit)):
                needs = Needs()  # judged as ever: where stand-ins are cut short, the evaluation says so
            if needs.fixed and not self._holds_for_hand(g, needs.fixed):
                continue  # a part that reads only the hand fails: no set of it forms g
            mode = self._nullable.get(g.id)
            if mode not in modes:
                nullable = [bool(mode) and w is None and kind[c] in mode for c, w in zip(cards, wild)]
                modes[mode] = nullable, [w is not None or z for w, z in zip(wild, nullable)]
            nullable, free = modes[mode]
            sums = []
            for want in needs.totals if can_sum else ():
                key = ("totals", mode)
                if key not in tracks:
                    tracks[key] = len(steps_of)
                    steps_of.append([tuple(sorted(set(vs) | ({0} if z else set()))) for vs, z in zip(options, nullable)])
                mask = _bits(want, most)
                sums.append((tracks[key], mask, mask.bit_length() - 1))
            alike = []
            for attr in needs.same:
                key = (attr, mode)
                if key not in tracks:
                    tracks[key] = len(alike_of)
                    alike_of.append([-1 if z else self._attr_mask(c, w, attr) for c, w, z in zip(cards, wild, nullable)])
                alike.append(tracks[key])
            banned = 0
            if needs.every:
                for i in range(n):
                    if not free[i] and not all(self._passes(g, part, cards[i]) for part in needs.every):
                        banned |= 1 << i
            some = tuple(sum(1 << i for i in range(n) if free[i] or self._passes(g, part, cards[i])) for part in needs.some)
            unsure = sum(1 << i for i in range(n) if free[i])
            counted = tuple((sum(1 << i for i in range(n) if not free[i] and self._passes_test(test, cards[i])), unsure, op,
                             count) for test, op, count in needs.counts)
            key = (tuple(sums), tuple(alike), banned, some, counted)
            spec = specs.get(key)
            if spec is None:
                spec = specs[key] = Spec(banned=banned, some=some, sums=tuple(sums), alike=tuple(alike), counts=counted)
            for size in asked:
                spec.by_size.setdefault(size, []).append(g)
        if steps_of:  # the cards by the least value they add: see sets_to_judge
            order = sorted(order, key=lambda i: min(steps_of[0][i]))
        return sets_to_judge(order, list(specs.values()), steps_of, alike_of)

    def _holds_for_hand(self, g, parts) -> bool:
        """Whether the `and` parts `parts` of g's condition, which read the hand but not the set, hold for this hand
        (the evaluator's context holds it as `hand`)."""
        ctx = self._ctx
        for part in parts:
            try:
                if not g.parts[part][0](ctx):
                    return False
            except RuleRuntimeError:
                return False  # failing for this hand, it fails for every set of it
        return True

    def _passes(self, g, part: int, card: int) -> bool:
        """Whether the `and` part `part` of g's condition, a test of each card alone, holds for the one card `card` (a
        test that fails at run time does not hold: the set holding the card would not form g either)."""
        return self._one_card_holds((g.id, part, card), g.parts[part][0], card)

    def _passes_test(self, test: str, card: int) -> bool:
        """Whether the one card `card` passes a count's test (`Needs.counts`; failing at run time is not passing)."""
        return self._one_card_holds((test, card), self._count_tests[test], card)

    def _one_card_holds(self, key: tuple, test, card: int) -> bool:
        """Whether the compiled `test` holds for the one card `card`, worked out once under `key` (failing at run time
        is not holding)."""
        known = self._card_tests.get(key)
        if known is None:
            ctx = self._one_card
            ctx.cards, ctx.count = [card], 1
            try:
                known = bool(test(ctx))
            except RuleRuntimeError:
                known = False
            self._card_tests[key] = known
        return known

    def _wild_values(self, w) -> tuple[int, ...]:
        """Every value a wild card of rule w may count, whatever it stands for."""
        key = ("values", w.id)
        found = self._reps.get(key)
        if found is None:
            values = self.deck.values
            found = self._reps[key] = tuple(sorted({v for k in w.stand_ins for v in values[self._first[k]]}))
        return found

    def _attr_mask(self, card: int, w, attr: str) -> int:
        """The values of `attr` a card may have, as a bit mask: its own, or for a wild card those of every stand-in."""
        table = getattr(self.deck, attr)
        if w is None:
            return 1 << table[card]
        key = (attr, w.id)
        found = self._reps.get(key)
        if found is None:
            found = self._reps[key] = sum(1 << v for v in {table[self._first[k]] for k in w.stand_ins})
        return found

    def _may_go_approximate(self, g, counts: dict, limit: int) -> bool:
        """Whether some set of these wild cards might have more ways of standing in for g than `limit` (then `_holds`
        cuts them short and the evaluation says so): such sets are judged as ever, never skipped."""
        for _, reads in g.parts + ((g.when, g.reads),):
            ways = 1
            for w, count in counts.items():
                ways *= comb(self._kinds_of_stand_ins(reads, w) + count - 1, count)
            if ways > limit:
                return True
        return False

    def _kinds_of_stand_ins(self, reads, w) -> int:
        """How many stand-ins `_stand_ins(reads, w)` tries (one for each difference the condition can see)."""
        key = (reads, w.id)
        found = self._kinds_of_reps.get(key)
        if found is None:
            seen = sorted(r for r in reads if r != "totals")
            found = self._kinds_of_reps[key] = len({self._project(self._first[k], seen) for k in w.stand_ins})
        return found



def _bits(intervals: tuple, most: int) -> int:
    """The totals of `intervals` up to `most`, as a bit mask (bit t: the total t)."""
    mask = 0
    for lo, hi in intervals:
        if lo <= most:
            mask |= (1 << (min(hi, most) + 1)) - (1 << lo)
    return mask
