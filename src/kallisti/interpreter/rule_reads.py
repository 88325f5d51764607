"""What a pile rule reads of the position, and the shortcuts that follow from it for the move generator."""

from __future__ import annotations

from dataclasses import dataclass

from kallisti.interpreter.expr_types import (BUILD_SCOPE, DISCARD_SCOPE, EMPTY_SCOPE, PILE_STATE_SCOPE, SEQUENCE_SCOPE,
                                            SUM_SLOTS, TAKE_SCOPE, Ctx, RuleRuntimeError)

MEMO_LIMIT = 1 << 16  # verdicts a memo of a rule (see `judges_cards_alone`) holds before it is emptied and refilled
_POSITIONAL = frozenset({"state", "pile", "source", "top"})  # what a rule reads beyond the cards it judges

_SCOPES = {"build": BUILD_SCOPE, "empty": EMPTY_SCOPE, "take": TAKE_SCOPE, "sequence": SEQUENCE_SCOPE,
           "discard": DISCARD_SCOPE, "dealing": PILE_STATE_SCOPE}  # the scope each kind of pile rule is compiled in
_DESTINATION = frozenset({"pile", "top"})  # what a build or empty rule reads of the pile the cards would go to


def rule_places(rules, rule, clauses=None) -> frozenset:
    """What the clauses of `rule` beyond its tables (or `clauses`, some of them) read of the position
    (`Compiled.places`); its tables read only the cards (`card`, and for a pair table `top`)."""
    found: set = set()
    for clause in rule.residual if clauses is None else clauses:
        found |= rules.compiler.places(clause.text, clause.pos, _SCOPES[rule.kind])
    return frozenset(found)


def blind_to_destination(rules, rule) -> bool:
    """Whether a build or empty rule's verdict on a move is the same whichever of its piles the cards go to: it has no
    table of pairs (which reads `top`) and its other clauses read neither `pile` nor `top`. Such a rule is judged
    once for every pile of a listing that it would judge (the position does not change while moves are listed)."""
    return rule.pair_table is None and not (rule_places(rules, rule) & _DESTINATION)


def reads_only_its_pile(rules, rule) -> bool:
    """Whether a take or sequence rule reads nothing of the position but the pile the cards leave: its verdict on a
    run is then a function of that pile alone, and may be kept until the pile changes."""
    return "position" not in rule_places(rules, rule)


def groups_read(rules, rule) -> frozenset | None:
    """The named groups whose piles are all that the clauses of `rule` beyond its tables read of the position, when
    of a move they read only its card (`Compiled.groups`: `any(p in kings: p.cards.bottom.suit == card.suit)`);
    None when they read more, an empty set when nothing of the position."""
    found: set = set()
    for clause in rule.residual:
        scope = _SCOPES[rule.kind]
        read = rules.compiler.compile(clause.text, clause.pos, scope, want=None).groups
        if not clause.uses <= {"card", "state"} or read is None or \
                not rules.compiler.places(clause.text, clause.pos, scope) <= {"position"}:
            return None
        found |= read
    return frozenset(found)


def reads_only(rules, rule, names: set, places: set, clauses=None) -> bool:
    """Whether the clauses of `rule` beyond its tables (or `clauses`, some of them) read none of the values a rule may
    name but `names` (a group's name aside: which piles it has is fixed) and no place of the position but `places`
    (`Compiled.places`): its verdict is then a function of those values, whatever the position, and may be kept from
    one position to the next."""
    clauses = rule.residual if clauses is None else clauses
    return all((clause.uses - {"state"}) <= names for clause in clauses) and \
        rule_places(rules, rule, clauses) <= places


@dataclass(frozen=True)
class WindowSums:
    """A discard rule judged from running sums over a window of adjacent cards (see `window_sums`)."""

    terms: tuple  # per distinct sum, its term for each card id
    slots: tuple  # per slot the clauses read a sum from (SUM_SLOTS), which of `terms` it is
    judges: tuple  # the rule's clauses beyond its tables, in order, each a `holds(ctx)` reading only `count` and sums
    # With one sum, when the clauses after those that read `count` alone do not read it: per count n, whether those
    # clauses let n cards through (2: one of them fails), and the few sums the others let through (`_matched_windows`).
    counts: bytes | None = None
    totals: tuple = ()


# Not limits on what a ruleset may do (kallisti.limits), only where a shortcut stops paying: a discard rule is judged
# in advance for at most SUMS_JUDGED_AHEAD sums, and matched against prefix sums when it lets through at most FEW_SUMS.
SUMS_JUDGED_AHEAD = 1 << 16
FEW_SUMS = 16


def window_sums(rules, rule) -> WindowSums | None:
    """How a discard rule's verdict on a window of adjacent cards may be worked out from running sums over it (see
    `compiler.Additive`): when every clause beyond the rule's tables reads only `count` or is additive, and it has no
    table of pairs (its table of single cards, for `card`, the window's first card, is looked up as ever); else None.
    Clauses that sum the same term (`require` one total, `forbid` another) share one running sum."""
    if rule.always or rule.never or rule.pair_table is not None or not rule.residual:
        return None
    terms, slots, judges, counting, leading = [], [], [], [], True
    for clause in rule.residual:
        if clause.uses <= {"count"}:
            judges.append(clause.holds)
            if leading:
                counting.append(clause.holds)
            else:
                counting = None  # a clause after a sum's that reads the count
            continue
        leading = False
        additive = rules.compiler.additive(clause.text, clause.pos, DISCARD_SCOPE, len(slots))
        if additive is None:
            return None
        for term in additive.terms:
            if term not in terms:
                terms.append(term)
            slots.append(terms.index(term))
        judge = additive.judge
        judges.append((lambda ctx, j=judge: bool(j(ctx))) if clause.kind == "require" else (lambda ctx, j=judge: not j(ctx)))
        if additive.counts:
            counting = None  # the verdict on a sum depends on the count
    if not terms:
        return None
    plain = WindowSums(tuple(terms), tuple(slots), tuple(judges))
    if len(terms) != 1 or counting is None:
        return plain
    # One sum, and the clauses after the leading `count` ones read the sum alone: the sums they let through are
    # found by judging every sum a window could have (between the sums of the deck's negative and positive terms).
    ctx, size = Ctx(), rules.deck.size
    counts = bytearray(size + 1)
    for n in range(size + 1):
        ctx.count = n
        try:
            counts[n] = all(holds(ctx) for holds in counting)
        except RuleRuntimeError:
            counts[n] = 2
    term, rest = terms[0], judges[len(counting):]
    low, high = sum(t for t in term if t < 0), sum(t for t in term if t > 0)
    if high - low >= SUMS_JUDGED_AHEAD:
        return plain
    totals = []
    for total in range(low, high + 1):
        for slot in range(len(slots)):
            ctx.locals[SUM_SLOTS[slot]] = total
        try:
            if all(holds(ctx) for holds in rest):
                totals.append(total)
        except RuleRuntimeError:
            return plain
        if len(totals) > FEW_SUMS:
            return plain
    return WindowSums(plain.terms, plain.slots, plain.judges, bytes(counts), tuple(totals))


def emptiness_gates(rules, rule) -> tuple | None:
    """A rule every clause of which asks only whether the piles of a named group are empty (`all(p in tableau: not
    p.empty)`, `any(p in line: p.empty)`: `expr_runtime.pile_quantifier`), as per clause (the group's index, its verdict
    by how many of the group's piles are empty): the move index keeps each group's empty piles (`empties`), so the
    rule's verdict is a look-up a clause. None for any other rule, or one with a table."""
    if rule.always or rule.never or rule.card_table is not None or rule.pair_table is not None:
        return None
    names, gates = list(rules.groups), []
    for clause in rule.residual:
        asks = getattr(clause.fn, "emptiness", None)
        if asks is None:
            return None
        name, func, empty = asks
        count = len(rules.groups[name].piles)
        holds = [(n == count if empty else n == 0) if func == "all" else (n > 0 if empty else n < count)
                 for n in range(count + 1)]  # the quantifier's value when n of the group's piles are empty
        gates.append((names.index(name), bytes(h if clause.kind == "require" else not h for h in holds)))
    return tuple(gates)


def judges_cards_alone(rule) -> bool:
    """Whether a rule's verdict is a function of the cards it judges alone (`card`, `cards`, `count` and the names
    its quantifiers bind): it reads no pile, no top, nothing of the position. Such verdicts may be memoised."""
    return all(not (clause.uses & _POSITIONAL) for clause in rule.clauses)


def count_gate(rules, rule, most: int) -> bytes | None:
    """Per count of cards n (0 to `most`): 0 when what `Rule.allows` runs first and reads `count` alone refuses n
    cards, so that the rule refuses any n cards without running anything else; else 1 (also when it fails: the rule is
    then judged as always, its failure noted). What runs first: the clauses that read `count` alone, then, when the
    next clause is a `require`, the parts of its top-level `and` that come first and read `count` alone (`count ==
    ranks and descending(cards)` refuses any other count before it looks at a card). None when nothing such comes
    first."""
    if rule.always or rule.never:
        return None
    leading = []
    for clause in rule.residual:
        if clause.uses <= {"count"}:
            leading.append(clause.holds)
            continue
        if clause.kind == "require":  # `a and b` runs a first, and is false when a is
            for part in rules.compiler.conjuncts(clause.text, clause.pos, _SCOPES[rule.kind]):
                if not part.uses <= {"count"}:
                    break
                leading.append(part.fn)
        break
    if not leading:
        return None
    ctx, gate = Ctx(), bytearray(most + 1)
    for n in range(most + 1):
        ctx.count = n
        try:
            gate[n] = all(holds(ctx) for holds in leading)
        except RuleRuntimeError:
            gate[n] = 1
    return bytes(gate)


def take_limit(rules, group, most: int) -> int:
    """The most cards the source loop tries to take at once from a pile of `group`, whose take rule lets at most
    `most` leave (`take_max`): fewer where what the rule runs first reads `count` alone and refuses every larger
    count (`count_gate`: La Nivernaise's foundations, `count == 1` then `pile.size > 1`), so that those counts are
    not judged one by one. Not where the group's sequence rule is judged clause by clause: it runs before the take
    rule for each count and may fail, its failure noted."""
    seq = group.sequence
    if not (seq.always or seq.pair_table is not None):
        return most
    gate = count_gate(rules, group.take, most)
    if gate is None:
        return most
    return max((n for n in range(most + 1) if gate[n]), default=0)
