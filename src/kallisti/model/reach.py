"""Where the rules let cards go: piles no card reaches or leaves, and wins that can never hold.

Every route a card can take between pile groups is read off the ruleset: a move (the source's
`take`, the target's `build` and `empty`, which also judge a diverted card), a stock's `turn`, a
`discard_to`, a `refill` and a `redeal`'s gathering and dealing. A route is assumed open unless the rules close it
for every card (a rule that also reads the position is taken at its most permissive), so each
finding here is a proof, not a guess.

The win is understood when it is written as the usual patience wins, joined by `and`: every card in
some groups (`foundation.size == deck.size`, `deck.size == aces.size + kings.size`), or some groups
empty (`field.size == 0`, `field.empty`). For those it checks that the cards dealt elsewhere can
leave, that every card can land on the groups the win needs, and that those groups can hold the
deck. A win that reads nothing the play changes is judged once.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field

from kallisti.errors import Finding, Pos
from kallisti.grammar.expressions import Attr, Name, Num, Op, parse_expression
from kallisti.interpreter import compiler as C
from kallisti.interpreter.state import row_faces


@dataclass
class Flow:
    """How cards may come into and go out of one group."""

    dealt: int  # cards it holds after the deal
    gives: bool  # some rule lets a card leave it
    receives: bool  # some rule lets a card reach it
    open: bool = False  # cards may land on it other than by its build and empty rules (or those read the position)
    start: set[int] = field(default_factory=set)  # kinds an empty pile of it may take, or be prefilled with
    landing: set[int] = field(default_factory=set)  # kinds that can land on it, when not `open`
    fed: bool = False  # cards reach it by a route other than a move (a `turn`, `discard_to`, `refill`, redeal)


def reach_findings(rules, at) -> list[Finding]:
    """Findings about piles no card reaches or leaves and wins that cannot hold; `at(*path)` gives a position."""
    if not rules.groups:
        return []
    flows = group_flows(rules)
    findings = []
    for name, flow in flows.items():
        if flow.dealt == 0 and not flow.receives and rules.groups[name].turn is None:  # an empty stock: `empty-stock`
            findings.append(Finding("pile-unreachable", f"piles.{name} is dealt no card and no rule lets a card reach it, "
                                    "so it stays empty all game", at("piles", name), severity="warning",
                                    suggestion="give it a `build` or `empty` rule, deal to it, or remove it"))
        elif flow.dealt and not flow.receives and not flow.gives:
            findings.append(Finding("pile-inert", f"no rule lets a card reach or leave piles.{name}, so it keeps its "
                                    f"{flow.dealt} dealt cards all game", at("piles", name), severity="warning",
                                    suggestion="give it a `take` rule, or do not deal to it"))
    return findings + _win_findings(rules, flows, at)


# The flows of a compiled ruleset, worked out once for its checks (reach, bounds and runs each read them), read only;
# kept while the ruleset lives.
_flows: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def group_flows(rules) -> dict[str, Flow]:
    """Each group's dealt cards and whether cards may reach or leave it (shared, never to be changed by its reader)."""
    flows = _flows.get(rules)
    if flows is None:
        flows = _flows[rules] = _group_flows(rules)
    return flows


def _group_flows(rules) -> dict[str, Flow]:
    deck = rules.deck
    fed: dict[str, bool] = {name: False for name in rules.groups}  # reached by a route other than a move
    drained: dict[str, bool] = {name: False for name in rules.groups}  # left by a route other than a move
    for name, g in rules.groups.items():
        if g.turn is not None:
            drained[name] = True
            _mark(fed, g.turn["to"])
        if g.discard is not None and not g.discard.never:
            drained[name] = True
            _mark(fed, g.discard_to)
        # A diverted card goes only to a pile whose rules take it: no way in beyond `build` and `empty`.
        if g.refill is not None:
            fed[name] = True
            _mark(drained, g.refill["from"])
        if g.redeal is not None:
            fed[name] = True
            for other in g.redeal.gather:
                _mark(drained, other)
            for other in g.redeal.deal:
                _mark(fed, other)
    dealt = _dealt(rules)
    runs_leave = {name for name, g in rules.groups.items() if not one_card_at_a_time(deck, g.take)}
    flows = {}
    for name, g in rules.groups.items():
        empty_kinds = _kinds_allowed_empty(deck, g.empty)
        builds = _allows_some_pair(deck, g.build)
        prefilled = _prefilled(deck, g)
        receives = fed[name] or bool(empty_kinds) or (builds and dealt[name] > 0)
        gives = drained[name] or _allows_some_take(deck, g.take)
        flow = Flow(dealt[name], gives, receives, start=empty_kinds | prefilled, fed=fed[name])
        dealt_unknown = dealt[name] > (len(g.piles) if prefilled else 0)  # shuffled cards: any kind
        # A run that lands brings cards its build rule never judged (only its bottom card is `card`).
        runs_land = bool(runs_leave - {name}) and not (
            one_card_at_a_time(deck, g.build) and one_card_at_a_time(deck, g.empty))
        flow.open = fed[name] or dealt_unknown or runs_land
        if not flow.open:
            flow.landing = _closure(deck, g.build, flow.start)
        flows[name] = flow
    return flows


def _mark(flags: dict[str, bool], name) -> None:
    if name in flags:  # an unknown group is reported as `unknown-pile`
        flags[name] = True


def _dealt(rules) -> dict[str, int]:
    """How many cards each group holds after the deal (prefilled cards included)."""
    counts = {}
    rest = None
    for name, g in rules.groups.items():
        if g.deal == "rest":
            rest = name
            counts[name] = 0
            continue
        counts[name] = sum(1 for row in g.deal for face in row_faces(g, row) if face)
        if g.prefill is not None:
            counts[name] += len(g.piles)
    if rest is not None:
        counts[rest] = max(rules.deck.size - sum(counts.values()), 0)
    return counts


def _kinds_allowed_empty(deck, rule) -> set[int]:
    """The kinds an empty pile may take (a superset when the rule also reads the position)."""
    reps = deck.representative
    if rule.never:
        return set()
    if rule.card_table is None:
        return set(reps)
    return {k for k, c in reps.items() if rule.card_table[c]}


def one_card_at_a_time(deck, rule) -> bool:
    """Whether the rule refuses every move of more than one card (by a clause that reads only `count`)."""
    if rule.never:
        return True
    ctx = C.Ctx()
    for clause in rule.clauses:
        if clause.uses <= {"count"}:
            try:
                if not any(clause.holds(_with_count(ctx, n)) for n in range(2, deck.size + 1)):
                    return True
            except C.RuleRuntimeError:
                continue
    return False


def _with_count(ctx: C.Ctx, n: int) -> C.Ctx:
    ctx.count = n
    return ctx


def _allows_some_pair(deck, rule) -> bool:
    """Whether the build rule lets some card go on some card."""
    if rule.never:
        return False
    if rule.pair_table is None:
        return True
    stride = rule.stride
    return any(rule.pair_table[c * stride + t] for c in range(deck.size) for t in range(deck.size))


def _allows_some_take(deck, rule) -> bool:
    """Whether the take rule lets some card or run leave."""
    if rule.never:
        return False
    if rule.card_table is not None:  # the clauses beyond the table can only refuse more
        return any(rule.card_table[c] for c in range(deck.size))
    return True


def _closure(deck, build, start: set[int]) -> set[int]:
    """The kinds that can lie in a pile built by `build` on the kinds of `start`."""
    landed = set(start)
    frontier = list(landed)
    onto = _build_edges(deck, build)
    while frontier:
        top = frontier.pop()
        for k in onto.get(top, ()):
            if k not in landed:
                landed.add(k)
                frontier.append(k)
    return landed


# The edges of a build rule, worked out once for the rule (each ruleset's checks read a group's edges more than once),
# read only; kept while the rule lives.
_edges: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _build_edges(deck, rule) -> dict[int, list[int]]:
    """Kind of a top card -> kinds that may go on it (a superset when the rule also reads the position); shared, never
    to be changed by its reader."""
    reps = deck.representative
    if rule.never:
        return {}
    if rule.pair_table is None:
        return {kt: list(reps) for kt in reps}
    edges = _edges.get(rule)
    if edges is None:
        stride, table = rule.stride, rule.pair_table
        edges = _edges[rule] = {kt: [kc for kc, c in reps.items() if table[c * stride + t]] for kt, t in reps.items()}
    return edges


def _longest_chain(deck, build, start: set[int]) -> int | None:
    """The most cards one pile can hold when built by `build` on the kinds of `start`; None when unbounded (a cycle)."""
    onto = _build_edges(deck, build)
    memo: dict[int, int] = {}
    visiting: set[int] = set()

    def depth(k: int) -> int | None:
        if k in memo:
            return memo[k]
        if k in visiting:
            return None
        visiting.add(k)
        best = 0
        for nxt in onto.get(k, ()):
            d = depth(nxt)
            if d is None:
                return None
            best = max(best, d)
        visiting.discard(k)
        memo[k] = best + 1
        return memo[k]

    longest = 0
    for k in start:
        d = depth(k)
        if d is None:
            return None
        longest = max(longest, d)
    return longest


@dataclass
class WinShape:
    """What a win written in the usual way asks for: every card in `everything_on`, the groups of `emptied` empty."""

    everything_on: list[str] = field(default_factory=list)
    emptied: list[str] = field(default_factory=list)


def win_shape(text: str, groups) -> WinShape | None:
    """The shape of a win expression, or None when it is not of the usual kinds."""
    node = parse_expression(text, Pos("<win>"))  # it compiled, so it parses
    shape = WinShape()
    return shape if _read_win(node, groups, shape) else None


def _read_win(node, groups, shape: WinShape) -> bool:
    if isinstance(node, Op) and node.op == "op_and":
        return all(_read_win(arg, groups, shape) for arg in node.args)
    if isinstance(node, Attr) and node.name == "empty" and _group_name(node.obj, groups):
        shape.emptied.append(node.obj.name)
        return True
    if not (isinstance(node, Op) and node.op == "rel_eq"):
        return False
    left, right = node.args
    for one, other in ((left, right), (right, left)):
        if isinstance(other, Num) and other.value == 0 and _size_of(one, groups):
            shape.emptied.append(_size_of(one, groups))
            return True
        if _is_deck_size(other):
            names = _sum_of_sizes(one, groups)
            if names:
                shape.everything_on += names
                return True
    return False


def _group_name(node, groups) -> str | None:
    return node.name if isinstance(node, Name) and node.name in groups else None


def _size_of(node, groups) -> str | None:
    return _group_name(node.obj, groups) if isinstance(node, Attr) and node.name == "size" else None


def _is_deck_size(node) -> bool:
    return isinstance(node, Attr) and node.name == "size" and isinstance(node.obj, Name) and node.obj.name == "deck"


def _sum_of_sizes(node, groups) -> list[str] | None:
    if isinstance(node, Op) and node.op == "arith_add":
        parts = [_sum_of_sizes(arg, groups) for arg in node.args]
        return None if None in parts else [n for p in parts for n in p]
    name = _size_of(node, groups)
    return [name] if name else None


def _win_findings(rules, flows: dict[str, Flow], at) -> list[Finding]:
    text = " ".join(str(rules.data.get("win", "")).split())
    if rules.win is None or not text:
        return []
    constant = _constant_value(rules, text, at("win"))
    if constant is False:
        return [Finding("win-unreachable", f"the win `{text}` reads nothing that changes in play, and it is false",
                        at("win"), suggestion="say which piles must hold or lose the cards, e.g. foundation.size == deck.size")]
    shape = win_shape(text, rules.groups)
    if shape is None:
        return []
    findings = []
    for name in shape.emptied:
        flow = flows[name]
        if flow.dealt and not flow.gives:
            findings.append(_stuck(rules, name, flow, f"the win needs piles.{name} empty", at))
    if shape.everything_on:
        findings += _everything_on_findings(rules, flows, shape.everything_on, text, at)
    return findings


def _everything_on_findings(rules, flows, targets: list[str], text: str, at) -> list[Finding]:
    where = " and ".join(targets)
    findings = [_stuck(rules, name, flow, f"the win needs every card on {where}", at)
                for name, flow in flows.items() if name not in targets and flow.dealt and not flow.gives]
    if any(flows[t].open for t in targets):
        return findings
    deck = rules.deck
    landing = set().union(*(flows[t].landing for t in targets))
    missing = [c for k, c in deck.representative.items() if k not in landing]
    if missing:
        more = f" (and {len(missing) - 1} other kinds of card)" if len(missing) > 1 else ""
        findings.append(Finding("win-unreachable", f"no rule lets the {deck.name(missing[0])}{more} reach {where}, "
                                f"so the win `{text}` can never hold", at("piles", targets[-1], "build"),
                                suggestion=f"check the `empty` and `build` rules of {where}"))
        return findings
    capacity = 0
    for t in targets:
        g = rules.groups[t]
        chain = _longest_chain(deck, g.build, flows[t].start)
        if chain is None:
            return findings
        capacity += chain * len(g.piles)
    if capacity < deck.size:
        first = rules.groups[targets[0]]
        findings.append(Finding("foundation-capacity", f"the win needs all {deck.size} cards on {where}, but as their "
                                f"rules build they hold at most {capacity}", at("piles", targets[0], "count"),
                                suggestion=f"piles.{first.name} needs more piles or a build rule that goes further"))
    return findings


def _prefilled(deck, group) -> set[int]:
    """The kinds of card the group's `prefill` may put on its piles before the deal."""
    if group.prefill is None:
        return set()
    ctx = C.Ctx()
    out = set()
    for k, c in deck.representative.items():
        ctx.card = c
        if group.prefill(ctx):
            out.add(k)
    return out


def _stuck(rules, name: str, flow: Flow, needs: str, at) -> Finding:
    where = at("piles", name, "take") if "take" in rules.pile_data.get(name, {}) else at("piles", name)
    return Finding("win-unreachable", f"{needs}, but no rule lets the {flow.dealt} cards dealt to piles.{name} leave it",
                   where, suggestion=f"give piles.{name} a `take` rule or a `turn`")


def _constant_value(rules, text: str, pos):
    """The win's value when it reads nothing that changes in play, else None."""
    compiled = rules.compiler.compile(text, pos, C.STATE_SCOPE, C.BOOL)  # it compiled once already
    if compiled.uses:
        return None
    try:
        return bool(compiled.fn(C.Ctx()))
    except C.RuleRuntimeError:
        return None
