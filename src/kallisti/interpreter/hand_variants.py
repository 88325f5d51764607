"""The hands a player may hold under `devalue` and `shift`: each card judged as it is, devalued, or shifted."""

from __future__ import annotations

from itertools import combinations

from kallisti.interpreter.hand_results import Evaluation
from kallisti.model.hands import WildRule


class HandVariants:
    """The part of HandEvaluator that lists a hand's variants (it reads the evaluator's deck and hand rules)."""

    def _variants(self, cards, plain: Evaluation):
        """The hands the player may have judged under `devalue` and `shift`: each a tuple of the card judged at each
        position (a stand-in, or None for a card left out of every group); the hand itself where nothing need change."""
        per_rule = [self._devaluations(cards, d, plain) for d in self.hand_rules.devalue]
        per_rule += [self._shifts(cards, s) for s in self.hand_rules.shift]
        combined = [{}]
        for options in per_rule:
            combined = [a | b for a in combined for b in options if not set(a) & set(b)]
        seen = set()
        for change in combined:
            effective = tuple(change.get(i, c) for i, c in enumerate(cards))
            if effective not in seen:
                seen.add(effective)
                yield effective

    def _devaluations(self, cards, d, plain: Evaluation) -> list[dict]:
        """The ways devaluation d may apply to the hand: {position: stand-in or None}; [{}] when it does not.

        A wild card is devalued by what it stands for: one that may stand for d's cards stays wild, but stands for them
        only as devalued (a wild eight standing for an ace counts one under the Lady)."""
        kind = self.deck.kind
        matched = [i for i, c in enumerate(cards)
                   if (kind[c] in d.kinds and kind[c] not in self._wild)
                   or (kind[c] in self._wild and d.kinds.intersection(self._wild[kind[c]].stand_ins))]
        if not matched or (plain.top in d.spare):
            return [{}]

        def devalued(i: int) -> int:
            w = self._wild.get(kind[cards[i]])
            return self.deck.stand_in(cards[i], d.to) if w is None else self._devalued_wild(cards[i], w, d)

        options = []
        if d.count is None:
            options.append({i: devalued(i) for i in matched})
        else:
            seen = set()
            for chosen in combinations(matched, min(d.count, len(matched))):
                which = tuple(sorted(kind[cards[i]] for i in chosen))
                if which not in seen:
                    seen.add(which)
                    options.append({i: devalued(i) for i in chosen})
        if d.if_uses:
            triggers = [i for i, c in enumerate(cards) if kind[c] in d.if_uses]
            if not triggers:
                return [{}]
            options.append({i: None for i in triggers})  # the player leaves those cards out instead
        return options

    def _devalued_wild(self, card: int, w, d) -> int:
        """A stand-in for wild card `card` (of rule w) under devaluation d: as wild, but standing for d's cards only as
        devalued. Its wild rule (made once per pair of rules) is w with each such stand-in replaced by its devalued one."""
        deck = self.deck
        rule = self._devalued_rules.get((w.id, d.id))
        if rule is None:
            stand_ins = []
            for k in w.stand_ins:
                if k in d.kinds and k in self._first:
                    made = deck.stand_in(self._first[k], d.to)
                    self._first.setdefault(deck.kind[made], made)
                    k = deck.kind[made]
                stand_ins.append(k)
            rule = self._devalued_rules[(w.id, d.id)] = WildRule(f"{w.id}~{d.id}", w.kinds, tuple(stand_ins))
        made = deck.stand_in(card, deck.values[card], None, tag=rule.id)
        self._first.setdefault(deck.kind[made], made)
        self._wild[deck.kind[made]] = rule
        self._devalued_kinds[deck.kind[made]] = d.id
        return made

    def _shifts(self, cards, s) -> list[dict]:
        """The ways shift s may apply: no shift, or `points` moved from one card to another of the hand."""
        d = self.deck
        options, seen = [{}], set()
        for a, ca in enumerate(cards):
            for va in d.values[ca]:
                if not s.low <= va - s.points <= s.high:
                    continue
                for b, cb in enumerate(cards):
                    for vb in d.values[cb]:
                        if a == b or not s.low <= vb + s.points <= s.high:
                            continue
                        key = (d.kind[ca], va, d.kind[cb], vb)
                        if key in seen:
                            continue
                        seen.add(key)
                        options.append({a: self._valued(ca, va - s.points), b: self._valued(cb, vb + s.points)})
        return options

    def _valued(self, card: int, value: int) -> int:
        """A stand-in for `card` worth `value` alone, of the highest rank that may be worth that (a ten shifted to two
        is a two; a two shifted to ten counts as a picture; eleven and one are the ace's)."""
        d = self.deck
        ranks = [r for r in range(len(d.ranks)) if value in d.values[self._first.get(d.suit[card] * len(d.ranks) + r, card)]]
        return d.stand_in(card, (value,), ranks[-1] if ranks else None)

    # -- the showdown ----------------------------------------------------------------------------
