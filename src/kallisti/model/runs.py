"""Runs of cards and foundations: runs that may land on a foundation unjudged, and cards judged one at a time."""

from __future__ import annotations

from kallisti.errors import Finding
from kallisti.interpreter import compiler as C
from kallisti.model.clause_checks import passing
from kallisti.model.reach import group_flows

WHOLE = frozenset({"count", "cards"})  # what a rule reads of the moving cards beyond the bottom one
ALONE = frozenset({"card", "top", "count", "cards"})  # what a clause may read to be judged card by card
_TAKE_USES = frozenset({"card", "count"})


def judges_runs(rule) -> bool:
    """Whether the rule reads `count` or `cards`, and so judges a run as a whole rather than by its bottom card."""
    return bool(rule.uses & WHOLE)


def lands_as_unit(deck, rule) -> bool:
    """Whether the rule lets a run land as a unit on purpose: it judges runs as a whole and refuses not every run."""
    return not rule.never and judges_runs(rule) and bool(_counts_allowed(deck, rule.clauses) - {1})


def refusal(rule, card: int, top: int, ctx: C.Ctx | None = None):
    """The clause of `rule` that refuses `card` on `top` (top = the deck's size: an empty pile) moved alone, judged
    by the clauses that read only the card, the card under it and the count; None when none of them refuses."""
    if rule.never:
        return next(c for c in rule.clauses if c.kind == "forbid" and c.text.strip() == "true")
    ctx = ctx or C.Ctx()
    ctx.card, ctx.top, ctx.count, ctx.cards = card, top, 1, [card]
    for clause in rule.clauses:
        if clause.uses <= ALONE:
            try:
                if not clause.holds(ctx):
                    return clause
            except C.RuleRuntimeError:
                continue
    return None


def verified_groups(rules) -> list[str]:
    """The foundation groups whose piles must hold, at every moment, cards their rules accept one at a time from the
    base: every card reaches them by a move or a divert their rules judged, or by `prefill` (not dealt, turned,
    discarded, refilled or redealt onto them), cards leave them only from the top (no `discard`), and no rule of
    theirs lets a run land as a unit."""
    if not any(g.role == "foundation" for g in rules.groups.values()):
        return []
    flows = group_flows(rules)
    out = []
    for name, g in rules.groups.items():
        if g.role != "foundation" or flows[name].fed:
            continue
        if flows[name].dealt > (len(g.piles) if g.prefill is not None else 0):
            continue
        if g.discard is not None and not g.discard.never:
            continue
        if lands_as_unit(rules.deck, g.build) or lands_as_unit(rules.deck, g.empty):
            continue
        out.append(name)
    return out


def run_findings(rules, at) -> list[Finding]:
    """`run-onto-foundation` for each foundation group a run may land on as a unit though its build rule refuses the
    run's own cards one on another; `at(*path)` gives a position.

    A move of several cards is judged by the target's `build` (or `empty`) rule for its bottom card alone, which is
    what lets a run build on a tableau; on a foundation it would put cards the build rule never judged on one another.
    This proves, over the kinds of card, that a run some group may give (its `take` rule lets two or more cards go,
    its `sequence` rule lets the upper lie on the lower) can land so and that the foundation's build rule refuses
    the upper card on the lower (`refusal`). A rule that also reads the position is taken at its most permissive, as
    in `reach`. A rule that reads `count` or `cards` judges what moves as a whole, as Spider's discard piles take a
    whole suit at once: it is the ruleset's word that runs land there, and it is trusted.
    """
    foundations = [name for name, g in rules.groups.items() if g.role == "foundation"]
    if not foundations:
        return []
    deck = rules.deck
    givers = [(name, bottoms) for name, g in rules.groups.items() if (bottoms := _run_bottoms(deck, g.take))]
    if not givers:
        return []
    findings = []
    for name in foundations:
        g = rules.groups[name]
        landings = [(key, kinds) for key, kinds in (("empty", _empty_bottoms(deck, g.empty)),
                                                     ("build", _build_bottoms(deck, g.build))) if kinds]
        examples = []  # for each rule a run lands by, a run whose cards the build rule refuses one on another
        for key, kinds in landings:
            found = (_refused_run(deck, rules.groups[giver].sequence, g.build, bottoms & kinds, giver, key)
                     for giver, bottoms in givers)
            first = next((example for example in found if example is not None), None)
            if first is not None:
                examples.append(first)
        if not examples:
            continue
        giver, key, low, high, clause = examples[0]
        rules_named = " and ".join(f"piles.{name}.{example[1]}" for example in examples)
        onto = f"into an empty pile of piles.{name}, whose empty rule" if key == "empty" else \
            f"onto a pile of piles.{name}, whose build rule"
        findings.append(Finding(
            "run-onto-foundation",
            f"piles.{giver} may move {deck.name(low)} {deck.name(high)} together {onto} judges only the bottom card "
            f"({deck.name(low)}), though piles.{name}.build refuses {deck.name(high)} on {deck.name(low)} (clause "
            f"{clause.id}): the foundation would hold cards its rules never judged", at("piles", name, "build"),
            suggestion=f"add a clause that takes one card at a time (`require: count == 1`) to {rules_named}; or, if runs "
                       "are meant to land there as a unit, let the rule judge the whole run by reading `count` or `cards`"))
    return findings


def _counts_allowed(deck, clauses) -> set[int]:
    """The counts the clauses that read only `count` let through (every count when none does)."""
    counts = set(range(1, deck.size + 1))
    ctx = C.Ctx()
    for clause in clauses:
        if clause.uses <= {"count"}:
            for n in list(counts):
                ctx.count = n
                try:
                    if not clause.holds(ctx):
                        counts.discard(n)
                except C.RuleRuntimeError:
                    continue
    return counts


def _run_bottoms(deck, take) -> set[int]:
    """The kinds of card that may be the bottom of a run of two or more cards leaving a pile under `take` (its clauses
    that read more than the card and the count taken at their most permissive)."""
    kinds = list(deck.representative)
    if take.never or not any(n > 1 for n in _counts_allowed(deck, take.clauses)):
        return set()
    if not any(c.uses <= _TAKE_USES for c in take.clauses):
        return set(kinds)
    verdicts = passing(deck, take.clauses, _TAKE_USES)
    if verdicts is None:
        return set(kinds)
    size = deck.size  # cases: every kind, then every count 1..size
    return {k for i, k in enumerate(kinds) if any(verdicts[i * size + 1:(i + 1) * size])}


def _empty_bottoms(deck, empty) -> set[int]:
    """The kinds an empty pile may take as the bottom of a run, when the rule judges only that card."""
    if empty.never or judges_runs(empty):
        return set()
    reps = deck.representative
    if empty.pair_table is not None:
        return {k for k, c in reps.items() if empty.pair_table[c * empty.stride + deck.size]}
    if empty.card_table is not None:
        return {k for k, c in reps.items() if empty.card_table[c]}
    return set(reps)


def _build_bottoms(deck, build) -> set[int]:
    """The kinds the build rule lets go on some card, when it judges only the bottom card of what moves."""
    if build.never or judges_runs(build):
        return set()
    reps = deck.representative
    if build.pair_table is None:
        return set(reps)
    table, stride = build.pair_table, build.stride
    return {k for k, c in reps.items() if any(table[c * stride + t] for t in reps.values())}


def _refused_run(deck, sequence, build, bottoms: set[int], giver: str, key: str):
    """(giver, key, low card, high card, clause): a pair of a run the `sequence` rule lets lie one on the other, its
    bottom among `bottoms`, whose upper card the foundation's `build` refuses on the lower; None when there is none.
    A different card above is preferred, for a clearer example."""
    if sequence.never:
        return None
    reps = deck.representative
    ctx = C.Ctx()
    for low_kind in sorted(bottoms):
        low = reps[low_kind]
        uppers = sorted(reps.items(), key=lambda kc: kc[0] == low_kind)
        for _, high in uppers:
            if sequence.pair_table is not None and not sequence.pair_table[high * sequence.stride + low]:
                continue
            clause = refusal(build, high, low, ctx)
            if clause is not None:
                return giver, key, low, high, clause
    return None
