"""Sort a hand into its best partition of groupings, and compare hands at the showdown (crippling included)."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations, combinations_with_replacement, islice

from kallisti.errors import Pos, error
from kallisti.interpreter.compiler import Ctx, RuleRuntimeError
from kallisti.interpreter.hand_memo import BY_LOOKS, MemoKeys
from kallisti.interpreter.hand_pruning import SetPruning
from kallisti.interpreter.hand_results import BudgetSpent, Evaluation, Group, Steps
from kallisti.interpreter.hand_variants import HandVariants
from kallisti.model.hands import HandRules, WildRule

MAX_MEMO = 200_000  # condition answers kept per grouping (by the kinds of the cards), then forgotten
MAX_JUDGES = 500  # groupings whose answers are kept for sharing between evaluators, then forgotten
MAX_RECENT = 256  # whole-hand evaluations an evaluator keeps (players judge the same hand many times)

# Condition answers by what decides them: a grouping's condition, the deck's cards and values, and the cards that may
# be null or wild in it. Rulesets that differ only by a rule change elsewhere share them.
_JUDGED: dict[tuple, dict] = {}


def forget_answers() -> None:
    """Drop every remembered condition answer (a benchmark's cold start)."""
    _JUDGED.clear()


MAX_STAND_INS = 2_000  # ways of standing in tried for the wild cards of one set; beyond, the evaluation is incomplete
_NO = -1  # a memo answer: the cards do not form the grouping (otherwise the answer is the fewest null cards)


class HandEvaluator(HandVariants, SetPruning, MemoKeys):
    """Evaluates hands under one ruleset's `hands` section; condition answers are shared between hands.

    With `prune` (the default) the search skips the sets of cards that what a condition needs of its cards rules out
    (hand_needs.py, hand_pruning.py), and keys condition answers by what the conditions read of the cards, part by
    part (hand_memo.py); `prune=False` judges every set by its cards' kinds: the same evaluations at a higher cost.
    """

    def __init__(self, rules, prune: bool = True):
        if rules.hands is None:
            raise ValueError(f"{rules.name} declares no hands")
        self.rules = rules
        self.hand_rules: HandRules = rules.hands
        self.deck = rules.deck
        self._recent: dict[tuple, Evaluation] = {}
        self._ctx = Ctx()
        hr = self.hand_rules
        groupings = hr.groupings.values()
        # The simple groupings whose sets matter: enabled ones, and parts of enabled multiples or cripples.
        needed = {g.id for g in groupings if g.enabled}
        for g in groupings:
            if g.enabled and g.of:
                needed.add(g.of)
        for c in hr.cripples:
            if c.enabled:
                needed.add(c.by)
        self.simple = [g for g in groupings if g.of is None and g.id in needed]
        self.multiples = [g for g in groupings if g.of is not None and g.enabled and g.of in needed]
        self._nullable: dict[str, frozenset] = {}  # grouping id -> the kinds that may join it as nothing
        for n in hr.nulls:
            for gid in n.groupings:
                self._nullable[gid] = self._nullable.get(gid, frozenset()) | n.kinds
        self._wild = {}  # kind -> the WildRule that makes it wild (the last that names it: a later rule narrows it)
        for w in hr.wild:
            for k in w.kinds:
                self._wild[k] = w
        self._first = {}  # kind -> a physical card of that kind, to stand in for it
        for c in range(self.deck.size):
            self._first.setdefault(self.deck.kind[c], c)
        self._reps: dict[tuple, tuple] = {}
        self._tie = {"none": 0, "fewer-wins": -1, "more-wins": 1}[hr.wild_ties]
        self._answers: dict[str, dict] = {}  # grouping id -> its condition answers (shared, see _JUDGED)
        # A devaluation reaches wild cards through wild rules of its own (`_devalued_wild`), keyed by the ids of both:
        # their answers depend on the devaluations too.
        devalued = tuple(sorted((d.id, d.kinds, d.to) for d in hr.devalue)) if hr.wild else ()
        self._devalued_rules: dict[tuple, WildRule] = {}  # (wild rule id, devaluation id) -> the wild rule as devalued
        self._devalued_kinds: dict[int, str] = {}  # the kind of a wild card's devalued stand-in -> the devaluation id
        for g in self.simple:
            judge = (g.text, g.sizes, g.uses_hand, self.deck.signature, self._nullable.get(g.id),
                     tuple(sorted((w.id, w.kinds, w.stand_ins) for w in hr.wild)), devalued)
            if judge not in _JUDGED and len(_JUDGED) >= MAX_JUDGES:
                _JUDGED.clear()
            self._answers[g.id] = _JUDGED.setdefault(judge, {})
        self.prune = prune
        self._whole = ()  # the kinds of the hand being judged (what a condition reading `hand` reads)
        self._read_needs()
        self._read_looks()

    # -- one hand -------------------------------------------------------------------------------
    def evaluate(self, cards, budget: int | None = None) -> Evaluation:
        """The best partition of `cards` (physical card ids) into groupings, within the step budget.

        Where the rules devalue or shift cards, every way the player may do so is judged and the best kept.
        """
        cards = tuple(cards)
        key = (cards, budget)
        known = self._recent.get(key)
        if known is None:
            if len(self._recent) >= MAX_RECENT:
                self._recent.clear()
            known = self._recent[key] = self._evaluate(cards, budget)
        return known

    def _evaluate(self, cards: tuple, budget: int | None) -> Evaluation:
        steps = Steps(self.hand_rules.budget if budget is None else budget)
        plain = self._partition(cards, cards, steps)
        best = plain if not (self.hand_rules.devalue or self.hand_rules.shift) else None
        if best is None:
            for effective in self._variants(cards, plain):
                if effective == cards:  # the rules leave the player free to change nothing
                    option = plain
                elif steps.steps > steps.budget:
                    break
                else:
                    kept = tuple(i for i, c in enumerate(effective) if c is not None)
                    option = self._partition(tuple(effective[i] for i in kept), tuple(cards[i] for i in kept), steps)
                    if best is not None and option.keys <= best.keys:
                        continue
                    left_out = tuple(cards[i] for i, c in enumerate(effective) if c is None)
                    option = replace(option, cards=cards, unused=self._sorted(option.unused + left_out),
                                     **self._substitutions(cards, effective))
                if best is None or option.keys > best.keys:
                    best = option
            best = best or plain  # the budget ran out before any way was judged
        return replace(best, steps=steps.steps, complete=best.complete and not steps.approximate)

    def _substitutions(self, cards, effective) -> dict:
        """What the choice `effective` made of the physical `cards`: the cards that stand for others (`stand_ins`) and
        the wild cards whose stand-in the rules devalue (`wild_devalued`, with the value they count)."""
        kinds, devalued = self.deck.kind, self._devalued_kinds
        chosen = [(cards[i], c) for i, c in enumerate(effective) if c is not None]
        return {"stand_ins": tuple((was, c) for was, c in chosen if c != was and kinds[c] not in devalued),
                "wild_devalued": tuple((was, devalued[kinds[c]]) for was, c in chosen if kinds[c] in devalued)}

    def _partition(self, cards, physical, steps: Steps) -> Evaluation:
        """The best partition of `cards` as judged (stand-ins included); groups name the `physical` cards."""
        found: dict[str, dict[int, int]] = {}  # grouping id -> {mask: fewest null cards}
        best: dict[int, tuple[tuple, str]] = {}  # mask -> (key, grouping id) of its best ranked grouping
        wild_mask = 0
        for i, c in enumerate(cards):
            if self.deck.kind[c] in self._wild:
                wild_mask |= 1 << i
        complete = True
        try:
            self._simple_sets(cards, found, steps)
            self._multiple_sets(found, steps)
            for gid, masks in found.items():
                g = self.hand_rules.groupings[gid]
                if g.rank is None or not g.enabled:
                    continue
                for m, nulls in masks.items():
                    key = (g.rank, -nulls, self._tie * (m & wild_mask).bit_count())
                    if m not in best or key > best[m][0]:
                        best[m] = (key, gid)
            candidates = sorted(((k, m, gid) for m, (k, gid) in best.items()), key=lambda t: (t[0], -t[1]), reverse=True)
            full = (1 << len(cards)) - 1
            _, chosen = self._best(full, candidates, steps, {})
        except BudgetSpent:
            complete = False
            chosen = self._greedy(best)
        groups = tuple(self._group(physical, m, gid, found[gid][m], (m & wild_mask).bit_count()) for m, gid in chosen)
        used = 0
        for m, _ in chosen:
            used |= m
        unused = tuple(c for i, c in enumerate(physical) if not used >> i & 1)
        fewest_wild = {gid: min((m & wild_mask).bit_count() for m in masks) for gid, masks in found.items() if masks}
        keys = tuple(best[m][0] for m, _ in chosen)
        return Evaluation(physical, groups, self._sorted(unused), frozenset(fewest_wild), steps.steps, complete, keys,
                          fewest_wild)

    def _simple_sets(self, cards, found, steps, hand=None) -> None:
        """Every set of the hand's cards that forms each simple grouping (masks over the hand's positions), with the
        fewest null cards it needs. `cards` may be a part of the `hand` (what conditions read as `hand`)."""
        n = len(cards)
        kind = self.deck.kind
        by_size: dict[int, list] = {}
        for g in self.simple:
            found[g.id] = {}
            for k in range(g.sizes[0], min(g.sizes[1], n) + 1):
                by_size.setdefault(k, []).append(g)
        hand = cards if hand is None else hand
        self._ctx.locals["hand"] = list(hand)
        whole = self._whole = tuple(sorted(kind[c] for c in hand))
        wild = [self._wild.get(kind[c]) for c in cards]
        # Plain cards in order of kind, wild ones after them: every combination's kinds come out sorted, the memo's
        # key as it is; wild cards are keyed by their rule alone, since each may stand for any card it allows.
        order = sorted(range(n), key=lambda i: (wild[i] is not None, kind[cards[i]]))
        any_wild = any(wild)
        nullable = self._nullable
        ctx = self._ctx
        if self.prune:
            todo = self._sets_worth_judging(cards, order, wild, by_size, MAX_STAND_INS)
            looks = self._looks(cards, wild)
            if len(looks) < len(self.simple):  # a condition keyed by kinds sees its cards in `order`, as ever
                place = {p: r for r, p in enumerate(order)}
                todo = [(tuple(sorted(combo, key=place.__getitem__)), gs) for combo, gs in todo]
        else:
            todo = ((combo, gs) for k, gs in sorted(by_size.items()) for combo in combinations(order, k))
            looks = {}
        for combo, gs in todo:
            k = len(combo)
            subset = [cards[i] for i in combo]
            wilds = tuple(wild[i].id for i in combo if wild[i] is not None) if any_wild else ()
            plain = None  # the kinds of the plain cards, the memo key where the condition's reads give none
            keys: dict[int, tuple] = {}  # the memo key of each list of looks, shared by the groupings reading alike
            mask = 0
            for g in gs:
                answers = self._answers[g.id]
                look = looks.get(g.id)
                if look is not None:  # keyed by what the condition reads of the cards: cards that read alike share it
                    key = keys.get(id(look))
                    if key is None:
                        key = keys[id(look)] = (BY_LOOKS, tuple(sorted([look[i] for i in combo if wild[i] is None])),
                                                tuple(sorted(wilds)))
                else:
                    if plain is None:
                        plain = tuple(kind[cards[i]] for i in combo if wild[i] is None)
                    key = (plain, wilds)
                if g.uses_hand:
                    key += (whole,)
                nulls = answers.get(key)
                if nulls is None:
                    if wilds or g.id in nullable:
                        nulls = self._decide(g, [cards[i] for i in combo if wild[i] is None],
                                             [wild[i] for i in combo if wild[i] is not None], steps)
                    elif self.prune:
                        nulls = 0 if self._holds(g, subset, [], steps) else _NO
                    else:
                        steps.step()
                        ctx.cards, ctx.count = subset, k
                        try:
                            nulls = 0 if g.when(ctx) else _NO
                        except RuleRuntimeError:
                            nulls = _NO  # a condition that fails for these cards does not form the grouping
                    if len(answers) >= MAX_MEMO:
                        answers.clear()
                    answers[key] = nulls
                if nulls != _NO:
                    if not mask:
                        for i in combo:
                            mask |= 1 << i
                    found[g.id][mask] = nulls

    def _decide(self, g, plain: list[int], wilds: list, steps) -> int:
        """The fewest null cards with which `plain` and `wilds` form grouping g, or _NO.

        Null cards join the group as nothing: the condition judges the other cards. Each wild card stands for
        one card it may stand for; only stand-ins that differ in what the condition reads are tried.
        """
        kinds = self._nullable.get(g.id)
        nullable = [c for c in plain if self.deck.kind[c] in kinds] if kinds else []
        if not nullable:
            return 0 if self._holds(g, plain, wilds, steps) else _NO
        for z in range(len(nullable) + 1):
            tried = set()
            for removed in combinations(nullable, z):
                which = tuple(sorted(self.deck.kind[c] for c in removed))
                if which in tried:
                    continue
                tried.add(which)
                rest = list(plain)
                for c in removed:
                    rest.remove(c)
                if self._holds(g, rest, wilds, steps):
                    return z
        return _NO

    def _holds(self, g, rest: list[int], wilds: list, steps) -> bool:
        """Whether grouping g's condition holds for `rest` with the wild cards standing in for some cards.

        Where the condition's `and` parts read different things of a card (its suit, its rank) and the wild
        cards may stand for every combination of those, each part is judged with its own stand-ins."""
        ctx = self._ctx
        ctx.count = len(rest) + len(wilds)
        if not wilds and not self.prune:
            return self._true(g.when, rest, [()], steps)
        rules = list(dict.fromkeys(wilds))
        # Without wild cards, or with one rule's, the parts may be judged apart; with the speed-ups, so they are, each
        # part's answer kept by what it reads (a set's totals and its families are asked of many sets alike).
        split = bool(g.parts) if not wilds else len(rules) == 1 and self._separable(g, rules[0])
        answers = self._answers[g.id]
        for part, (fn, reads) in enumerate(g.parts if split else ((g.when, g.reads),)):
            key = self._part_key(g, part if split else -1, rest, wilds) if self.prune else None
            held = answers.get(key) if key is not None else None
            if held is None:
                options = [()]
                for w in rules:  # each wild rule's cards choose among its stand-ins, as a multiset
                    picks = combinations_with_replacement(self._stand_ins(reads, w), wilds.count(w))
                    options = [o + pick for o in options for pick in islice(picks, MAX_STAND_INS + 1)]
                cut = len(options) > MAX_STAND_INS
                if cut:
                    options = options[:MAX_STAND_INS]  # the wild cards as themselves come first
                    steps.approximate = True
                held = self._true(fn, rest, options, steps)
                if key is not None and not cut:  # a cut answer is judged again, and says so again, each time
                    if len(answers) >= MAX_MEMO:
                        answers.clear()
                    answers[key] = held
            if not held:
                return False
        return True

    def _true(self, fn, rest: list[int], options, steps) -> bool:
        """Whether `fn` holds for `rest` with one of the options of stand-ins added."""
        ctx = self._ctx
        for pick in options:
            steps.step()
            ctx.cards = rest + list(pick) if pick else rest
            try:
                if fn(ctx):
                    return True
            except RuleRuntimeError:
                pass  # a condition that fails for these cards does not form the grouping
        return False

    def _project(self, card: int, reads) -> tuple:
        d = self.deck
        return tuple(card if r == "identity" else getattr(d, r)[card] for r in reads)

    def _separable(self, g, w) -> bool:
        """Whether g's `and` parts read disjoint things of a card, every combination of which some stand-in has."""
        key = ("split", g.id, w.id)
        answer = self._reps.get(key)
        if answer is None:
            # totals read the values: a part reading totals and one reading `value` are not apart
            reads = [sorted({"values" if r == "totals" else r for r in r_}) for _, r_ in g.parts]
            answer = len(g.parts) > 1 and not any("identity" in r for r in reads)
            flat = [r for rs in reads for r in rs]
            answer = answer and len(flat) == len(set(flat))
            if answer:
                whole = {self._project(self._first[k], flat) for k in w.stand_ins}
                count = 1
                for rs in reads:
                    count *= len({self._project(self._first[k], rs) for k in w.stand_ins})
                answer = count == len(whole)  # the stand-ins are every combination of the parts' projections
            self._reps[key] = answer
        return answer

    def _stand_ins(self, reads, w) -> tuple[int, ...]:
        """The cards a wild card of rule w tries as, for a condition reading `reads`: one for each difference it can see."""
        key = (reads, w.id)
        reps = self._reps.get(key)
        if reps is None:
            d = self.deck
            widen = "totals" in reads and "values" not in reads
            seen: dict[tuple, list[int]] = {}
            own = {self._project(self._first[k], sorted(r for r in reads if r != "totals")) for k in w.kinds if k in self._first}
            for k in sorted(w.stand_ins, key=lambda k: self._project(self._first[k], sorted(r for r in reads if r != "totals"))
                            not in own):  # stand-ins like the wild cards themselves first
                card = self._first[k]
                seen.setdefault(self._project(card, sorted(r for r in reads if r != "totals")), []).append(card)
            if widen:  # one stand-in holding every value of its like: the condition only asks whether some total qualifies
                reps = tuple(d.stand_in(like[0], tuple(sorted({v for c in like for v in d.values[c]}))) for like in seen.values())
            else:
                reps = tuple(like[0] for like in seen.values())
            self._reps[key] = reps
        return reps

    def _multiple_sets(self, found, steps) -> None:
        """The sets made of `count` disjoint sets of a multiple grouping's part (with the fewest null cards)."""
        for g in self.multiples:
            parts = list(found.get(g.of, {}).items())
            unions: dict[int, int] = {}

            def extend(start: int, used: int, nulls: int, left: int) -> None:
                if left == 0:
                    if used not in unions or nulls < unions[used]:
                        unions[used] = nulls
                    return
                for i in range(start, len(parts)):
                    steps.step()
                    m, z = parts[i]
                    if not m & used:
                        extend(i + 1, used | m, nulls + z, left - 1)

            extend(0, 0, 0, g.count)
            found[g.id] = dict(sorted(unions.items()))

    def _best(self, left: int, candidates, steps, memo) -> tuple[tuple, tuple]:
        """The best (keys, groups) for the cards in mask `left`.

        The highest group of the best partition is the highest group the cards can form at all, so only
        sets of that key are tried first; the rest is the best partition of what they leave.
        """
        if left in memo:
            return memo[left]
        answer: tuple[tuple, tuple] = ((), ())
        top = None
        for key, m, gid in candidates:
            if top is not None and key < top:
                break
            steps.step()
            if m & ~left:
                continue
            top = key
            keys, groups = self._best(left & ~m, candidates, steps, memo)
            option = ((key,) + keys, ((m, gid),) + groups)
            if option[0] > answer[0]:
                answer = option
        memo[left] = answer
        return answer

    @staticmethod
    def _greedy(best) -> tuple:
        """Highest sets first, skipping any that overlap: the partition reported when the budget runs out."""
        chosen, used = [], 0
        for m, (_, gid) in sorted(best.items(), key=lambda t: (t[1][0], -t[0]), reverse=True):
            if not m & used:
                chosen.append((m, gid))
                used |= m
        return tuple(chosen)

    def _group(self, cards, mask: int, gid: str, nulls: int, wild: int) -> Group:
        g = self.hand_rules.groupings[gid]
        members = [c for i, c in enumerate(cards) if mask >> i & 1]
        return Group(gid, g.name, g.rank, self._sorted(members), nulls, wild)

    def _sorted(self, cards) -> tuple[int, ...]:
        d = self.deck
        return tuple(sorted(cards, key=lambda c: (d.rank[c], d.suit[c], c)))

    # -- an arrangement judged as it lies ---------------------------------------------------------
    def judge_arrangement(self, cards, sets, budget: int | None = None) -> Evaluation:
        """`cards` laid down in the groups `sets` (each a collection of the hand's cards), judged under these rules
        without arranging them again: each set counts as the best grouping all its cards form together, or as nothing
        (its cards are then unused). What the rules leave to the player (which card a devaluation takes, a shift, what
        a wild card stands for) is still the player's best choice. Cripples look at the whole hand, as ever."""
        cards = tuple(cards)
        where = {c: i for i, c in enumerate(cards)}
        sets = [tuple(sorted(where[c] for c in s if c in where)) for s in sets]
        sets = [s for s in sets if s]
        whole = self.evaluate(cards, budget)
        steps = Steps(self.hand_rules.budget if budget is None else budget)
        plain = self._judge_sets(cards, cards, sets, steps)
        best = None if self.hand_rules.devalue or self.hand_rules.shift else plain
        if best is None:
            for effective in self._variants(cards, plain):
                if effective == cards:  # the rules leave the player free to change nothing
                    option = plain
                elif steps.steps > steps.budget:
                    break
                else:
                    option = replace(self._judge_sets(effective, cards, sets, steps), **self._substitutions(cards, effective))
                if best is None or option.keys > best.keys:
                    best = option
            best = best or plain  # the budget ran out before any way was judged
        return replace(best, holds=whole.holds, fewest_wild=whole.fewest_wild, steps=steps.steps,
                       complete=whole.complete and steps.steps <= steps.budget and not steps.approximate)

    def _judge_sets(self, effective, physical, sets, steps) -> Evaluation:
        """The groups the position sets `sets` form as they lie, each judged whole (a card left out of every group, None
        in `effective`, breaks its set)."""
        tie = self._tie
        chosen = []
        for positions in sets:
            if any(effective[i] is None for i in positions):
                continue
            part = [effective[i] for i in positions]
            found: dict[str, dict[int, int]] = {}
            try:
                self._simple_sets(part, found, steps, hand=[c for c in effective if c is not None])
                self._multiple_sets(found, steps)
            except BudgetSpent:
                break
            full = (1 << len(part)) - 1
            wild = sum(self.deck.kind[c] in self._wild for c in part)
            options = [((g.rank, -found[g.id][full], tie * wild), g.id) for g in self.hand_rules.groupings.values()
                       if g.rank is not None and g.enabled and full in found.get(g.id, {})]
            if options:
                key, gid = max(options)
                chosen.append((key, gid, positions, -key[1], wild))
        chosen.sort(key=lambda t: t[0], reverse=True)
        groups = tuple(self._group_of(physical, positions, gid, nulls, wild) for _, gid, positions, nulls, wild in chosen)
        used = {i for _, _, positions, _, _ in chosen for i in positions}
        unused = tuple(c for i, c in enumerate(physical) if i not in used)
        return Evaluation(tuple(physical), groups, self._sorted(unused), frozenset(), steps.steps, True,
                          tuple(key for key, *_ in chosen))

    def _group_of(self, cards, positions, gid: str, nulls: int, wild: int) -> Group:
        g = self.hand_rules.groupings[gid]
        return Group(gid, g.name, g.rank, self._sorted(cards[i] for i in positions), nulls, wild)

    # -- devalued and shifted cards ---------------------------------------------------------------

    def crippler(self, hand: Evaluation, others: list[Evaluation]):
        """The highest enabled Cripple `hand` holds against another hand's best grouping, or None.

        A cripple with `wild_limit` needs a set of its grouping with no more wild cards than the crippled group."""
        held = []
        for c in self.hand_rules.cripples:
            if not c.enabled or c.by not in hand.holds:
                continue
            for o in others:
                if o.top in c.beats and (not c.wild_limit or hand.fewest_wild.get(c.by, 0) <= o.groups[0].wild):
                    held.append(c)
                    break
        return max(held, key=lambda c: c.rank, default=None)

    def cripple_rank(self, hand: Evaluation, others: list[Evaluation]) -> int | None:
        """The rank of the cripple `hand` holds against the others (None: it cripples nobody)."""
        c = self.crippler(hand, others)
        return None if c is None else c.rank

    def showdown(self, hands: list[Evaluation]) -> list[int]:
        """The indexes of the winning hands (more than one on a complete tie, which seniority then decides).

        A hand that cripples another's best grouping beats everybody; between cripplers the higher
        cripple wins. Otherwise partitions compare group by group: rank, then fewer null cards (and wild
        cards as `wild_ties` says), then the next group, and so on.
        """
        crippling = [self.cripple_rank(h, hands[:i] + hands[i + 1:]) for i, h in enumerate(hands)]
        if any(r is not None for r in crippling):
            top = max(r for r in crippling if r is not None)
            return [i for i, r in enumerate(crippling) if r == top]
        best = max(h.keys for h in hands)
        return [i for i, h in enumerate(hands) if h.keys == best]

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
