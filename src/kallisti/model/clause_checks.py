"""Clauses that can never hold or never fail, and rules whose clauses together refuse every move.

A clause that reads only the moving card, the card it goes on and how many cards move is judged
for every value those can take: every kind of card in the deck, every top card, every count from 1
to the deck's size. What holds for all of them is proved, not guessed, so these findings have no
false alarms; a clause that reads the position (a pile's size, another group) is not judged.
"""

from __future__ import annotations

import functools
import itertools

from kallisti.errors import Finding
from kallisti.interpreter import compiler as C
from kallisti.interpreter.cards import READ_TABLES
from kallisti.interpreter.expr_cost import MAX_CASES

# The variables whose every value the check can try; it tries at most MAX_CASES combinations for one rule.
JUDGED = frozenset({"card", "top", "count"})
_EXPLICIT = ("true", "false")  # `forbid: true` is the `none` macro: a constant written on purpose is no fault
MAX_MEMO = 4096
# What a clause's expression does over all cases depends only on the deck and the text: rulesets that
# share clauses (every variant of a game, each rule change of a match) judge them once.
# The findings of whole rules are kept here too (`_rule_findings`), under keys of their own.
_outcomes: dict[tuple, tuple | None] = {}


def judges(deck, reads: frozenset) -> list[int]:
    """For each card, and for no card (index `deck.size`), the card a clause is judged by in its stead: the first card
    of its kind (twins behave alike, as the rules' tables have them), or, when all a clause reads of cards (`reads`,
    `Compiled.reads`) is held by the deck's tables, the first such card that holds the same in all of them. A clause
    that reads a card only through those tables has the same verdict for the card as for its judge, so a table is
    judged once per judge rather than once per kind (a clause on ranks alone: 14 judges, not 53)."""
    kind = deck.kind
    first: dict[int, int] = {}  # kind -> the first card of it
    for c in range(deck.size + 1):
        first.setdefault(kind[c], c)
    if not reads <= READ_TABLES.keys():  # `identity` (which card it is) or anything else: the kinds judge
        return [first[kind[c]] for c in range(deck.size + 1)]
    tables = [getattr(deck, READ_TABLES[r]) for r in sorted(reads)]
    alike: dict[tuple, int] = {}  # what a card holds in the tables -> the first card of a kind that holds it
    judge_of_kind = {k: alike.setdefault(tuple(t[c] for t in tables), c) for k, c in first.items()}
    return [judge_of_kind[kind[c]] for c in range(deck.size + 1)]


def clause_findings(rules, at) -> list[Finding]:
    """Findings about every pile rule's clauses; `at(*path)` gives a node's position."""
    findings: list[Finding] = []
    for name, group in rules.groups.items():
        for key in ("build", "empty", "take", "sequence", "discard"):
            rule = getattr(group, key)
            if rule is None or rule.never or not rule.clauses:
                continue
            findings += _rule_findings(rules.deck, f"piles.{name}.{key}", rule, at("piles", name, key))
    return findings


def _rule_findings(deck, where: str, rule, rule_pos) -> list[Finding]:
    """The findings of one pile rule's clauses (`_judged_rule`), kept with the clauses' outcomes (bounded by MAX_MEMO
    with them): they depend only on the deck, where the rule is, its clauses (ids, texts and positions), its own position
    and the cases judged at most (MAX_CASES), so a rule a variant left as it was (every rule but the one a change edits)
    is judged once."""
    key = ("rule", deck.signature, MAX_CASES, where, rule_pos,
           tuple((c.id, c.kind, c.text, c.uses, c.pos) for c in rule.clauses))
    found = _outcomes.get(key)
    if found is None:
        found = tuple(_judged_rule(deck, where, rule, rule_pos))
        if len(_outcomes) < MAX_MEMO:
            _outcomes[key] = found
    return list(found)


def _judged_rule(deck, where: str, rule, rule_pos) -> list[Finding]:
    findings = []
    for clause in rule.clauses:
        if clause.text.strip() in _EXPLICIT:
            continue
        values = _outcome(deck, clause, clause.uses)
        if values is not None and len(set(values)) == 1:
            findings.append(_constant_clause(where, clause, values[0]))
    # Clauses that each can hold may still exclude one another: try together those that can be tried
    # (clauses that read the position can only refuse more).
    judged = [c for c in rule.clauses if c.uses <= JUDGED]
    if findings or len(judged) < 2:
        return findings
    uses = frozenset().union(*(c.uses for c in judged))
    verdicts = [_outcome(deck, clause, uses) for clause in judged]
    if None in verdicts or any(all(passes) for passes in zip(*verdicts)):
        return findings
    culprit = _culprit(judged, verdicts)
    others = ", ".join(f"'{c.id}'" for c in judged if c is not culprit)
    findings.append(Finding(
        "rule-contradiction", f"{where}: each clause can hold, but the {culprit.kind} clause '{culprit.id}' ({culprit.text}) "
        f"and {others} together refuse every {_moves(where)}", culprit.pos if culprit.pos.line else rule_pos,
        severity="warning", suggestion="remove or change the clause that contradicts the others"))
    return findings


def _culprit(clauses, verdicts):
    """The last clause without which the others can hold together (the one most likely added by mistake)."""
    for i in reversed(range(len(clauses))):
        rest = verdicts[:i] + verdicts[i + 1:]
        if any(all(passes) for passes in zip(*rest)):
            return clauses[i]
    return clauses[-1]


def _constant_clause(where: str, clause, value) -> Finding:
    """The finding for a clause whose expression has the same value in every case."""
    truth = value if clause.kind == "require" else not value  # the expression's own value
    effect = ("refuses every " + _moves(where)) if not value else "refuses nothing"
    whatever = " and ".join({"card": "the card", "top": "the card it goes on", "count": "the count"}[u]
                            for u in sorted(clause.uses)) or "anything"
    return Finding(
        "clause-always-true" if truth else "clause-never-true",
        f"{where}: the {clause.kind} clause '{clause.id}' ({clause.text}) is {'true' if truth else 'false'} whatever "
        f"{whatever}, so it {effect}", clause.pos, severity="warning",
        suggestion="write `none` for a rule that refuses everything" if not value else "remove the clause")


def _moves(where: str) -> str:
    return {"build": "card", "empty": "card on a space", "take": "move from the pile", "sequence": "run",
            "discard": "discard"}[where.rsplit(".", 1)[1]]


def passing(deck, clauses, uses: frozenset) -> tuple[bool, ...] | None:
    """Whether every one of `clauses` that reads no more than `uses` lets the move through, in each case of the
    variables `uses` (their product, the names in sorted order: every kind of card, every count from 1 to the deck's
    size); the other clauses are taken at their most permissive. None when the cases cannot all be tried or a clause
    fails at run time."""
    if not uses <= JUDGED:
        return None
    total = 1
    for name in uses:
        total *= deck.size if name == "count" else len(deck.representative)
    if total > MAX_CASES:
        return None
    out = [True] * total
    for clause in clauses:
        if clause.uses <= uses:
            values = _outcome(deck, clause, uses)
            if values is None:
                return None
            out = [a and b for a, b in zip(out, values)]
    return tuple(out)


def _cases(deck, uses) -> "Cases | None":
    """Every combination of the values of the variables in `uses`, or None when they cannot all be tried."""
    if not uses <= JUDGED:
        return None
    kinds = list(deck.representative.values())
    ranges = {"card": kinds, "top": kinds, "count": range(1, deck.size + 1)}
    names = sorted(uses)
    total = 1
    for n in names:
        total *= len(ranges[n])
    if total > MAX_CASES:
        return None
    return Cases(frozenset(uses), names, [ranges[n] for n in names], "card" in uses and "cards" not in uses)


class Cases:
    """The combinations of values a check tries (`combos`, each a tuple of the values of `names`), and one context
    that `at` sets to each in turn: a clause judged here reads only the moving card, the card it goes on, the count
    (and the cards moving, the one card), so one context set anew for each case is a fresh one, and making thousands
    of contexts cost more than judging the clauses."""

    def __init__(self, uses: frozenset, names: list[str], ranges: list, cards_too: bool):
        self.uses, self.names, self.ranges, self.cards_too = uses, names, ranges, cards_too
        self.ctx = C.Ctx()
        if names == ["card", "top"] and cards_too:  # the common case (a build clause), set without a loop
            self.at = self._card_on_top

    def each(self):
        """The combinations one by one, in the order of `combos` (a clause judged once over them needs no list)."""
        return itertools.product(*self.ranges)

    @functools.cached_property
    def combos(self) -> list[tuple]:
        """Every combination, as a list, for a reader that goes through them more than once."""
        return list(self.each())

    def at(self, combo: tuple) -> C.Ctx:
        """The context set to the case `combo` (until the next call)."""
        ctx = self.ctx
        for name, value in zip(self.names, combo):
            setattr(ctx, name, value)
        if self.cards_too:
            ctx.cards = [ctx.card]
        return ctx

    def _card_on_top(self, combo: tuple) -> C.Ctx:
        ctx = self.ctx
        ctx.card, ctx.top = combo
        ctx.cards = [ctx.card]
        return ctx


def _outcome(deck, clause, uses: frozenset) -> tuple[bool, ...] | None:
    """Whether the clause lets the move through in each case of the variables `uses` (a superset of
    the clause's own); None when they cannot all be tried or the clause fails at run time."""
    key = (deck.signature, clause.kind, clause.text, uses)
    if key in _outcomes:
        return _outcomes[key]
    cases = _cases(deck, uses)
    if cases is not None and clause.uses < uses:
        # The clause reads only its own variables: its verdicts over them, spread over the others, are its verdicts in
        # every case (and it fails in some case of `uses` exactly when it fails in some case of its own).
        values = _spread(deck, _outcome(deck, clause, clause.uses), clause.uses, cases.names)
    else:
        try:
            values = None if cases is None else _judged(deck, clause, cases)
        except C.RuleRuntimeError:
            values = None
    if len(_outcomes) < MAX_MEMO:
        _outcomes[key] = values
    return values


def _judged(deck, clause, cases: "Cases") -> tuple[bool, ...]:
    """The clause's verdict in each case, judged once for each case of the cards that judge the others (`judges`:
    cards alike in all the clause reads of them), each case's verdict its judges' (RuleRuntimeError when the clause
    fails at run time in some case)."""
    slots = [i for i, name in enumerate(cases.names) if name in ("card", "top")]
    if not slots:
        return tuple(clause.holds(cases.at(combo)) for combo in cases.each())
    judge = judges(deck, clause.reads)
    # Each variable's values as their judges, and the judges each takes, in the order of its values.
    judged = [[judge[v] for v in values] if i in slots else list(values) for i, values in enumerate(cases.ranges)]
    distinct = [list(dict.fromkeys(values)) for values in judged]
    known = {combo: clause.holds(cases.at(combo)) for combo in itertools.product(*distinct)}
    return tuple(map(known.__getitem__, itertools.product(*judged)))


def _spread(deck, own: tuple[bool, ...] | None, own_uses: frozenset, names: list[str]) -> tuple[bool, ...] | None:
    """Verdicts over the cases of `own_uses` (in `_cases` order) as verdicts over the cases of `names`, a superset in
    sorted order: each case's verdict is that of its values of `own_uses`."""
    if own is None:
        return None
    sizes = {"card": len(deck.representative), "top": len(deck.representative), "count": deck.size}
    # The index of a case among the clause's own cases: its own variables' values, the last varying fastest.
    stride, strides = 1, {}
    for name in reversed(sorted(own_uses)):
        strides[name] = stride
        stride *= sizes[name]
    steps = [[i * strides[n] for i in range(sizes[n])] if n in strides else [0] * sizes[n] for n in names]
    return tuple(own[sum(offsets)] for offsets in itertools.product(*steps))
