"""Ranges of the numbers win, lose and score read, and the comparisons among them that never or always hold."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from kallisti.errors import Finding, KallistiError, Pos
from kallisti.grammar.expressions import Attr, Call, ListLit, Node, Num, Op, Quant, parse_expression
from kallisti.interpreter import compiler as C
from kallisti.interpreter.cards import NO_CARD_RANK
from kallisti.model import reach
from kallisti.model.bounds_text import describe, render, why
from kallisti.model.spans import (ALWAYS, INF, MAYBE, NEVER, UNKNOWN, Analysis, CardV, GroupV, ListV, Other, PileV,
                                  Span, Truth, absolute, add, compare, divide, exact, hull, modulo, mul, sub, times,
                                  truth)

UNWINNABLE = frozenset({"win-unreachable", "foundation-capacity"})


# -- the analysis -------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GroupRange:
    """The most cards a group, and one of its piles, can hold, and why."""

    most: int
    pile_most: int
    note: str = ""
    pile_note: str = ""


def group_ranges(rules, flows=None) -> dict[str, GroupRange]:
    """For each group, the most cards it can ever hold: those that can reach it (reach.py), never more than the deck."""
    deck = rules.deck
    flows = flows if flows is not None else reach.group_flows(rules)
    copies: dict[int, int] = {}
    for c in range(deck.size):
        copies[deck.kind[c]] = copies.get(deck.kind[c], 0) + 1
    out = {}
    for name, flow in flows.items():
        g = rules.groups[name]
        most, note = deck.size, f"the deck has {deck.size} cards"
        pile_most = deck.size
        if not flow.receives:
            if flow.dealt < most:
                most, note = flow.dealt, f"{flow.dealt} cards are dealt to {name} and no rule lets a card reach it"
        elif not flow.open:
            reachable = sum(copies.get(k, 0) for k in flow.landing)
            if reachable < most:
                most, note = reachable, f"only {reachable} cards of the deck can reach {name}"
            chain = reach._longest_chain(deck, g.build, flow.start)
            if chain is not None:
                pile_most = chain
                if chain * len(g.piles) < most:
                    most = chain * len(g.piles)
                    note = f"as its rules build, each of the {len(g.piles)} piles of {name} holds at most {chain} cards"
        pile_note = note if pile_most >= most else f"as its rules build, a pile of {name} holds at most {pile_most}"
        out[name] = GroupRange(most, min(pile_most, most), note, pile_note)
    return out


class Ranges:
    """Works out the range of every number an expression in the whole position (win, lose, score) may take."""

    def __init__(self, rules, flows=None):
        self.rules = rules
        self.deck = rules.deck
        self.groups = group_ranges(rules, flows)
        d = self.deck
        real = range(d.size)
        self.rank_span = (min((d.rank[c] for c in real), default=0), max((d.rank[c] for c in real), default=0))
        self.value_span = (min((v for c in real for v in d.values[c]), default=0),
                           max((v for c in real for v in d.values[c]), default=0))
        self.pack_span = (min((d.pack[c] for c in real), default=0), max((d.pack[c] for c in real), default=0))
        self.most_values = max((len(d.values[c]) for c in real), default=1)
        self._tokens = itertools.count(1)

    def analyse(self, node: Node) -> Analysis:
        self._values, self._operands = {}, {}
        value = self._eval(node, {})
        return Analysis(node, value, self._values, self._operands)

    # -- evaluation -----------------------------------------------------------------------------------------------
    def _eval(self, node: Node, env: dict):
        method = getattr(self, "_e_" + type(node).__name__, None)
        value = method(node, env) if method is not None else UNKNOWN
        self._values[id(node)] = value
        return value

    def _e_Num(self, node, env):
        return exact(node.value)

    def _e_Str(self, node, env):
        return Other("str", node.value)

    def _e_Bool(self, node, env):
        return ALWAYS if node.value else NEVER

    def _e_Name(self, node, env):
        name = node.name
        if name in env:
            return env[name]
        if name in self.rules.groups:
            return GroupV(name)
        if name == "deck":
            return Other("deck")
        typ, v = self.rules.compiler.constants.get(name, (None, None))
        if typ == C.INT:
            return exact(v)
        if typ == C.RANK:
            return exact(v, rank=True)
        if typ == C.BOOL:
            return ALWAYS if v else NEVER
        return Other(typ, v) if typ is not None else UNKNOWN

    def _e_ListLit(self, node, env):
        items = tuple(self._eval(i, env) for i in node.items)
        return ListV(exact(len(items)), hull(items), items)

    def _e_Attr(self, node, env):
        obj = self._eval(node.obj, env)
        name = node.name
        if isinstance(obj, GroupV):
            return self._group_attr(obj.name, name)
        if isinstance(obj, PileV):
            return self._pile_attr(obj, name)
        if isinstance(obj, CardV):
            return self._card_attr(obj, name)
        if isinstance(obj, ListV):
            if name == "size":
                return obj.size
            if name in ("top", "bottom") and isinstance(obj.item, CardV):
                return CardV(none=obj.size.lo == 0 or obj.item.none)
            return UNKNOWN
        if obj == Other("deck"):
            if name == "size":
                return exact(self.deck.size)
            if name == "packs":
                return exact(self.deck.packs)
        return UNKNOWN

    def _group_attr(self, group: str, name: str):
        most = self.groups[group]
        count = len(self.rules.groups[group].piles)
        if name == "size":
            return Span(0, most.most, groups=frozenset({group}), note=most.note)
        if name == "count":
            return exact(count)
        if name == "empty":
            return ALWAYS if most.most == 0 else MAYBE
        if name == "piles":
            return ListV(exact(count), PileV(group))
        return UNKNOWN

    def _pile_attr(self, pile: PileV, name: str):
        if pile.group is not None:
            most, note = self.groups[pile.group].pile_most, self.groups[pile.group].pile_note
            count = len(self.rules.groups[pile.group].piles)
        else:
            most, note, count = self.deck.size, f"the deck has {self.deck.size} cards", self.rules.pile_count
        if name in ("size", "face_up", "face_down"):
            return Span(0, most, pile=pile.token, note=note)
        if name == "empty":
            return ALWAYS if most == 0 else MAYBE
        if name == "top":
            return CardV(none=True)
        if name == "cards":
            return ListV(Span(0, most, pile=pile.token), CardV())
        if name == "index":
            return Span(1, count)
        if name == "movable":
            return NEVER if most == 0 else MAYBE
        return UNKNOWN

    def _card_attr(self, card: CardV, name: str):
        def with_none(bounds, none_value):
            lo, hi = bounds
            return (min(lo, none_value), max(hi, none_value)) if card.none else (lo, hi)
        if name == "rank":
            return Span(*with_none(self.rank_span, NO_CARD_RANK), rank=True)
        if name == "value":
            return Span(*with_none(self.value_span, 0))
        if name == "pack":
            return Span(*with_none(self.pack_span, -1))
        if name == "values":
            return ListV(Span(1, self.most_values), Span(*with_none(self.value_span, 0)))
        if name in ("suit", "family"):
            return Other(C.SUIT)
        if name in ("color", "colour"):
            return Other(C.COLOR)
        if name == "marks":
            return ListV(Span(0, len(self.deck.mark_names)), Other(C.MARK))
        if name == "face_up":
            return MAYBE
        return UNKNOWN

    def _e_Call(self, node, env):
        args = [self._eval(a, env) for a in node.args]
        if node.func in ("abs", "min", "max") and args and all(isinstance(a, Span) for a in args):
            if node.func == "abs":
                return absolute(args[0]) if len(args) == 1 else UNKNOWN
            pick = min if node.func == "min" else max
            return Span(pick(a.lo for a in args), pick(a.hi for a in args))
        if node.func == "totals":
            return ListV(Span(1, INF), Span(-INF, INF))
        if node.func in ("descending", "ascending", "same_suit", "same_color", "alternating_colors", "consecutive",
                         "same_family"):
            return MAYBE
        return UNKNOWN

    def _e_Quant(self, node, env):
        domain = self._eval(node.iterable, env)
        note = ""
        if isinstance(domain, GroupV):
            count = len(self.rules.groups[domain.name].piles)
            domain, note = ListV(exact(count), PileV(domain.name)), f"{domain.name} has {count} piles"
        elif isinstance(domain, ListV) and domain.size.note:
            note = domain.size.note
        if not isinstance(domain, ListV):
            self._eval(node.body, {**env, node.var: UNKNOWN})
            return MAYBE if node.func in ("all", "any") else Span(-INF, INF)
        item = domain.item
        if isinstance(item, PileV):
            item = PileV(item.group, next(self._tokens))
        body = self._eval(node.body, {**env, node.var: item})
        n = domain.size
        if node.func in ("all", "any"):
            body = truth(body)
            empty = ALWAYS if node.func == "all" else NEVER  # the value over no item
            if n.hi == 0 or body == empty:
                return empty
            if body != MAYBE:  # every item gives the other value: so does the whole, unless there is no item
                return body if n.lo > 0 else MAYBE
            return MAYBE
        if node.func == "count":
            body = truth(body)
            lo = n.lo if body == ALWAYS else 0
            hi = 0 if body == NEVER else n.hi
            return Span(lo, hi, groups=n.groups, pile=n.pile, note=note if hi == n.hi else "")
        if not isinstance(body, Span):
            return Span(-INF, INF)
        lo = min(mul(n.lo, body.lo), mul(n.hi, body.lo))
        hi = max(mul(n.lo, body.hi), mul(n.hi, body.hi))
        if isinstance(item, PileV) and item.token is not None and body.pile == item.token and body.lo >= 0 \
                and item.group is not None and n.exact and n.lo == len(self.rules.groups[item.group].piles):
            # Some cards of each pile of the group, each pile once: some cards of the group.
            most = self.groups[item.group]
            return Span(lo, min(hi, most.most), groups=frozenset({item.group}),
                        note=most.note if most.most < hi else "")
        return Span(lo, hi)

    def _e_Op(self, node, env):
        op = node.op
        if op == "op_not":
            value = truth(self._eval(node.args[0], env))
            return Truth(frozenset(not v for v in value.values))
        if op in ("op_and", "op_or"):
            a, b = (truth(self._eval(x, env)) for x in node.args)
            join = (lambda x, y: x and y) if op == "op_and" else (lambda x, y: x or y)
            return Truth(frozenset(join(x, y) for x in a.values for y in b.values))
        if op == "arith_neg":
            a = self._eval(node.args[0], env)
            return Span(-a.hi, -a.lo) if isinstance(a, Span) else UNKNOWN
        left, right = node.args
        a, b = self._eval(left, env), self._eval(right, env)
        if op.startswith("rel_"):
            return self._relation(node, op, left, a, right, b)
        if not (isinstance(a, Span) and isinstance(b, Span)):
            return UNKNOWN
        if op == "arith_add":
            return self._sum(a, b)
        if op == "arith_sub":
            return sub(a, b)
        if op == "arith_mul":
            return times(a, b)
        if op == "arith_div":
            return divide(a, b)
        if op == "arith_mod":
            return modulo(a, b)
        return UNKNOWN

    def _sum(self, a: Span, b: Span) -> Span:
        total = add(a, b)
        if a.groups and b.groups and not (a.groups & b.groups) and a.lo >= 0 and b.lo >= 0:
            # Cards of different groups: together no more than the deck.
            most = min(total.hi, self.deck.size)
            note = f"the deck has {self.deck.size} cards" if most < total.hi else ""
            return Span(total.lo, most, total.rank, a.groups | b.groups, note=note)
        return total

    def _rank_literal(self, node: Node, value):
        """A number written where a rank is meant names that rank (as the compiler reads it)."""
        if isinstance(node, Num):
            name = str(node.value)
            return exact(self.deck.ranks.index(name), rank=True) if name in self.deck.ranks else UNKNOWN
        return value

    def _relation(self, node, op, left, a, right, b):
        if op in ("rel_in", "rel_not_in"):
            found = self._membership(node, left, a, right, b)
            return found if op == "rel_in" else Truth(frozenset(not v for v in found.values))
        if isinstance(a, Span) and isinstance(b, Span):
            if a.rank and not b.rank:
                b = self._rank_literal(right, b)
            elif b.rank and not a.rank:
                a = self._rank_literal(left, a)
            if isinstance(a, Span) and isinstance(b, Span):
                self._operands[id(node)] = (a, b)
                return compare(op, a, b)
            return MAYBE
        if op in ("rel_eq", "rel_ne"):
            if isinstance(a, Truth) and isinstance(b, Truth):
                same = frozenset(x == y for x in a.values for y in b.values)
            elif isinstance(a, Other) and a == b and a.value is not None and a.kind not in ("unknown", "deck"):
                same = frozenset({True})
            elif isinstance(a, Other) and isinstance(b, Other) and a.kind == b.kind != "unknown" \
                    and None not in (a.value, b.value):
                same = frozenset({a.value == b.value})
            elif isinstance(a, PileV) and isinstance(b, PileV) and None not in (a.group, b.group) \
                    and a.group != b.group:
                same = frozenset({False})
            else:
                return MAYBE
            return Truth(same if op == "rel_eq" else frozenset(not v for v in same))
        return MAYBE

    def _membership(self, node, left, a, right, b) -> Truth:
        if isinstance(a, PileV) and isinstance(b, GroupV):
            return MAYBE if a.group is None else ALWAYS if a.group == b.name else NEVER
        if not isinstance(b, ListV):
            return MAYBE
        if b.size.hi == 0:
            return NEVER
        if not isinstance(a, Span):
            return MAYBE
        items = b.items
        if items is not None and all(isinstance(i, Span) for i in items):
            if a.rank and not all(i.rank for i in items):
                items = tuple(self._rank_literal(n, i) for n, i in zip(right.items, items))
            elif not a.rank and items and all(i.rank for i in items):
                a = self._rank_literal(left, a)
            if not (isinstance(a, Span) and all(isinstance(i, Span) for i in items)):
                return MAYBE
            self._operands[id(node)] = (a, None)
            verdicts = [compare("rel_eq", a, i) for i in items]
            if any(v == ALWAYS for v in verdicts):
                return ALWAYS
            if all(v == NEVER for v in verdicts):
                return NEVER
            return MAYBE
        if isinstance(b.item, Span) and not (a.rank or b.item.rank) and compare("rel_eq", a, b.item) == NEVER:
            self._operands[id(node)] = (a, None)
            return NEVER
        return MAYBE


# -- findings -----------------------------------------------------------------------------------------------------


def bounds_findings(rules, at, reported=frozenset(), flows=None) -> list[Finding]:
    """Win, lose and score conditions whose numbers can never make them hold, and comparisons in them that always or
    never hold. `reported`: codes already reported about the win (a win already proved unreachable is not again)."""
    if not rules.groups:
        return []
    ranges = None
    findings = []
    for key, path, want, label in _conditions(rules):
        text = rules.data
        for part in path:
            text = text[part]
        pos = at(*path)
        try:
            rules.compiler.compile(text, pos, C.STATE_SCOPE, want)  # only what compiles is analysed
        except KallistiError:
            continue
        raw = ("true" if text else "false") if isinstance(text, bool) else str(text)
        node = parse_expression(raw, pos)
        ranges = ranges or Ranges(rules, flows)
        analysis = ranges.analyse(node)
        whole = " ".join(raw.split())
        never = analysis.value == NEVER and whole not in ("false", "true")  # a constant written as one is meant
        because = _because(why(analysis, node, False, whole, rules.deck.ranks)) if never else ""
        if key == "win" and never:
            if not set(reported) & UNWINNABLE:  # said already, by the analysis of where cards go
                findings.append(Finding(
                    "win-unreachable", f"the win `{whole}` can never hold{because}", pos,
                    suggestion="compare with numbers the position can reach, e.g. foundation.size == deck.size"))
            continue
        if key == "lose" and never:
            findings.append(Finding("lose-never-true", f"the {label} `{whole}` can never hold{because}", pos,
                                    severity="warning", suggestion="correct the condition, or remove it"))
            continue
        findings += _constant_comparisons(analysis, node, pos, raw, label, rules.deck.ranks)
    return findings


def _because(text: str) -> str:
    return f": {text}" if text else ""


def _conditions(rules):
    """(kind, data path, type, name in messages) of each win, lose and score expression."""
    data = rules.data
    if "win" in data:
        yield "win", ("win",), C.BOOL, "win"
    for i, item in enumerate(data.get("lose", [])):
        yield "lose", ("lose", i, "when"), C.BOOL, f"lose condition '{item['id']}'"
    if "score" in data:
        yield "score", ("score",), C.INT, "score"


def _constant_comparisons(analysis: Analysis, node: Node, pos: Pos, raw: str, label: str, ranks) -> list[Finding]:
    out = []
    for cmp in _comparisons(node):
        value = analysis.values.get(id(cmp))
        if value not in (ALWAYS, NEVER):
            continue
        holds = value == ALWAYS
        text = render(cmp)
        sides = describe(analysis, cmp, ranks)
        reason = f": {sides}" if sides else " whatever the position"
        where = pos.shifted(cmp.col) if "\n" not in raw else pos
        out.append(Finding(
            "constant-comparison", f"`{text}` in the {label} {'always' if holds else 'never'} holds{reason}", where,
            severity="warning", suggestion=f"correct the comparison, or write {'true' if holds else 'false'} if meant"))
    return out


def _comparisons(node: Node):
    """Every comparison in the tree, in the order written."""
    if isinstance(node, Op):
        if node.op.startswith("rel_"):
            yield node
        for a in node.args:
            yield from _comparisons(a)
    elif isinstance(node, Attr):
        yield from _comparisons(node.obj)
    elif isinstance(node, Call):
        for a in node.args:
            yield from _comparisons(a)
    elif isinstance(node, Quant):
        yield from _comparisons(node.iterable)
        yield from _comparisons(node.body)
    elif isinstance(node, ListLit):
        for i in node.items:
            yield from _comparisons(i)
