"""The cost model of expressions: the most steps one evaluation may take, and how often the engine evaluates a rule."""

from __future__ import annotations

from kallisti.grammar.expressions import MAX_EXPRESSION_CHARS, Attr, Call, ListLit, Name, Node, Op, Quant
from kallisti.interpreter.expr_runtime import SEQUENCE_TESTS
from kallisti.interpreter.expr_types import (BUILD_SCOPE, CARD_SCOPE, CARDS, DISCARD_SCOPE, EMPTY_SCOPE, GROUP, MOVE_SCOPE,
                                            MOVES, PILE_STATE_SCOPE, SEQUENCE_SCOPE, STATE_SCOPE, TAKE_SCOPE)
from kallisti.interpreter.history import MAX_HISTORY_MOVES

# The most cases the clause check (model/clause_checks.py) tries for one rule: as often, at most, a rule it judges is
# evaluated while its ruleset loads.
MAX_CASES = 20_000


class CostModel:
    """The part of `Compiler` that counts the steps of an expression just compiled (`steps`) and how often a rule is
    evaluated (`evaluations`); `Compiler._check_cost` holds them to the bounds, beside them in compiler.py."""

    def steps(self, node: Node) -> int:
        """The most steps one evaluation of `node` (just compiled) may take with this ruleset's deck and piles: the
        worst `Ctx.steps` can count. A quantifier takes its collection's steps and, for each item, one step and its
        body's; `and` and `or` are counted as evaluating both sides."""
        if isinstance(node, Quant):
            return self.steps(node.iterable) + self._items(node.iterable) * (1 + self.steps(node.body))
        return self._own_steps(node) + sum(self.steps(k) for k in children(node))

    def _own_steps(self, node: Node) -> int:
        """The steps of `node` itself, without those of its parts."""
        if isinstance(node, Call) and len(node.args) == 1:
            if node.func in SEQUENCE_TESTS or node.func in ("consecutive", "same_family"):
                return self._items(node.args[0])
            if node.func == "totals":
                return self._totals_bound(self._items(node.args[0]))[1]
        elif isinstance(node, Op) and node.op in ("rel_in", "rel_not_in"):
            if self._types.get(id(node.args[1]), "").startswith("list:"):
                return self._items(node.args[1])
        elif isinstance(node, Attr):
            if node.name in ("empty", "piles") and self._types.get(id(node.obj)) == GROUP:
                return self._items(node.obj)
            if node.name == "movable":
                return self._most_moves()
        return 0

    def _items(self, node: Node) -> int:
        """The most items the collection `node` may hold (a group: its piles)."""
        d = self.deck
        if isinstance(node, ListLit):
            return len(node.items)
        if isinstance(node, Name) and node.name in self.groups:
            return len(self.groups[node.name])
        if isinstance(node, Attr):
            if node.name == "piles" and isinstance(node.obj, Name) and node.obj.name in self.groups:
                return len(self.groups[node.obj.name])
            if node.name == "values":
                return max(len(v) for v in d.values)
            if node.name == "marks":
                return len(d.mark_names)
        if isinstance(node, Call) and node.func == "totals" and len(node.args) == 1:
            return self._totals_bound(self._items(node.args[0]))[0]
        if self._types.get(id(node)) == CARDS:
            return d.size  # the moving cards, a pile's, a hand: cards of the deck, each at most once
        if self._types.get(id(node)) == MOVES:
            return MAX_HISTORY_MOVES
        return max(d.size + 1, len(self.group_of), MAX_EXPRESSION_CHARS)  # no list a rule makes is longer

    def _most_moves(self) -> int:
        """The most moves one position may offer: a move of each face-up run (at most one a card, one a pile) to each
        pile, a deal and a redeal from each pile, a discard of each window of adjacent cards."""
        n, p = self.deck.size, len(self.group_of)
        return p * (n + p) + 2 * p + n * (n + 1) // 2

    def evaluations(self, scope: dict, uses: frozenset) -> tuple[tuple[int, str], tuple[int, str]]:
        """How often the engine evaluates a rule of `scope` that reads `uses`: ((times while the ruleset loads, why),
        (times in one position of a game, why)). A pile rule that reads no more than the card, the card under it and
        the count is tabulated or judged at load for every combination of them (and then only looked up); one that
        reads the position is evaluated for each move it may judge."""
        d = self.deck
        n, p, kinds = d.size, len(self.group_of), len(d.representative) + 1  # the kinds, and "no card"
        move_rules = (BUILD_SCOPE, EMPTY_SCOPE, TAKE_SCOPE, SEQUENCE_SCOPE, DISCARD_SCOPE)
        load, position = (0, ""), (1, "once a position")
        if any(scope is s for s in move_rules) and uses <= {"card", "top", "count"}:
            times = (kinds if "card" in uses else 1) * (kinds if "top" in uses else 1) * (n if "count" in uses else 1)
            if {"top", "count"} <= uses:
                times = min(times, MAX_CASES)
            if "count" not in uses:
                pairs = "top" in uses or scope is BUILD_SCOPE or scope is SEQUENCE_SCOPE
                table = kinds * kinds if pairs else n + 1
                load = (times + table, "tabulated over every pair of card kinds, and judged for each" if pairs
                        else "tabulated over every card, and judged for each kind")
                return load, (0, "")
            load = (times, "judged for every kind of card and count it reads")
        if scope is STATE_SCOPE:
            return (1, "once"), position
        if scope is PILE_STATE_SCOPE:
            return load, (p, "once for each pile")
        if scope is CARD_SCOPE:
            return (n + 1, "once for each card"), (p * (n + 1), "once for each card and pile of a deal")
        if scope is BUILD_SCOPE or scope is EMPTY_SCOPE:
            return load, (p * (n + p), "once for each run and pile it may go to")
        if scope is TAKE_SCOPE or scope is SEQUENCE_SCOPE:
            return load, (n + p, "once for each run that may move")
        if scope is DISCARD_SCOPE:
            return load, (n * (n + 1) // 2, "once for each window of adjacent cards")
        if scope is MOVE_SCOPE:
            return load, (self._most_moves(), "once for each move")
        return load, position  # a hand's condition, at most `hands.budget` times a hand; any other rule

    def _heaviest(self, node: Node) -> Node:
        """The outermost quantifier, or else the part, that does most of the work of `node`."""
        while not isinstance(node, Quant):
            kids = [k for k in children(node) if self.steps(k)]
            if self._own_steps(node) or not kids:
                return node
            node = max(kids, key=self.steps)
        return node


def children(node: Node) -> tuple:
    """The parts of an expression node."""
    if isinstance(node, (Op, Call)):
        return node.args
    if isinstance(node, ListLit):
        return node.items
    if isinstance(node, Attr):
        return (node.obj,)
    if isinstance(node, Quant):
        return (node.iterable, node.body)
    return ()
