"""Ranges of the numbers win, lose and score read, and the comparisons among them that never or always hold."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

from kallisti.errors import Finding, KallistiError, Pos
from kallisti.grammar.expressions import Attr, Bool, Call, ListLit, Name, Node, Num, Op, Quant, Str, parse_expression
from kallisti.interpreter import compiler as C
from kallisti.interpreter.cards import NO_CARD_RANK
from kallisti.model import reach

INF = math.inf
UNWINNABLE = frozenset({"win-unreachable", "foundation-capacity"})


# -- abstract values ----------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Span:
    """A number (or a rank's place in the deck's order, when `rank`) somewhere from `lo` to `hi`, ends included
    (either may be infinite). `groups`: it counts some of the cards of these groups, no two the same; `pile`: some of
    the cards of the pile bound to that token. `note` says why `hi` is what it is, for messages."""

    lo: float
    hi: float
    rank: bool = False
    groups: frozenset | None = None
    pile: int | None = None
    note: str = ""

    @property
    def exact(self) -> bool:
        return self.lo == self.hi


@dataclass(frozen=True)
class Truth:
    """The values a condition may take: {True}, {False} or both."""

    values: frozenset


ALWAYS, NEVER, MAYBE = Truth(frozenset({True})), Truth(frozenset({False})), Truth(frozenset({True, False}))


@dataclass(frozen=True)
class CardV:
    """A card; `none` when it may be the "no card" of an empty pile's top or an empty list's end."""

    none: bool = False


@dataclass(frozen=True)
class PileV:
    """A pile of `group` (None: of any group); `token` tells piles bound by different quantifiers apart."""

    group: str | None = None
    token: int | None = None


@dataclass(frozen=True)
class GroupV:
    """A pile group, by name."""

    name: str


@dataclass(frozen=True)
class ListV:
    """A list of `size` items, each like `item`; `items`, for a literal list, each item's own value."""

    size: Span
    item: object
    items: tuple | None = None


@dataclass(frozen=True)
class Other:
    """A suit, colour, mark, text or the deck: `value` when it is a known constant."""

    kind: str
    value: object = None


UNKNOWN = Other("unknown")


def exact(v, rank: bool = False) -> Span:
    return Span(v, v, rank)


def hull(values) -> object:
    """The least value that covers all of `values`."""
    values = list(values)
    if not values:
        return UNKNOWN
    first = values[0]
    if all(isinstance(v, Span) for v in values):
        return Span(min(v.lo for v in values), max(v.hi for v in values), all(v.rank for v in values))
    if all(isinstance(v, Truth) for v in values):
        return Truth(frozenset().union(*(v.values for v in values)))
    if all(isinstance(v, CardV) for v in values):
        return CardV(any(v.none for v in values))
    if all(isinstance(v, Other) and v.kind == first.kind for v in values):
        return first if all(v == first for v in values) else Other(first.kind)
    return UNKNOWN


def truth(value) -> Truth:
    return value if isinstance(value, Truth) else MAYBE


# -- interval arithmetic ------------------------------------------------------------------------------------------

def _mul(a, b):
    return 0 if a == 0 or b == 0 else a * b


def _fdiv(a, b):
    """floor(a / b) for b != 0, either possibly infinite; None when it cannot be told (inf / inf)."""
    if math.isinf(a) and math.isinf(b):
        return None
    if math.isinf(b):  # a finite number over an infinite one: just above or below 0
        return 0 if a == 0 or (a > 0) == (b > 0) else -1
    if math.isinf(a):
        return a if b > 0 else -a
    return a // b


def _add(a: Span, b: Span) -> Span:
    return Span(a.lo + b.lo, a.hi + b.hi, a.rank != b.rank)


def _sub(a: Span, b: Span) -> Span:
    return Span(a.lo - b.hi, a.hi - b.lo, a.rank and not b.rank)


def _times(a: Span, b: Span) -> Span:
    corners = [_mul(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
    lo, hi = min(corners), max(corners)
    # A product beyond the limit fails at run time instead of giving a value.
    clamped = max(lo, -C.MAX_INT_RESULT), min(hi, C.MAX_INT_RESULT)
    return Span(*clamped) if clamped[0] <= clamped[1] else Span(lo, hi)


def _nonzero_parts(b: Span) -> list[tuple]:
    parts = []
    if b.hi >= 1:
        parts.append((max(b.lo, 1), b.hi))
    if b.lo <= -1:
        parts.append((b.lo, min(b.hi, -1)))
    return parts


def _divide(a: Span, b: Span) -> Span:
    """a // b, which is 0 when b is 0."""
    pieces = [exact(0)] if b.lo <= 0 <= b.hi else []
    for lo, hi in _nonzero_parts(b):
        corners = [_fdiv(x, y) for x in (a.lo, a.hi) for y in (lo, hi)]
        if None in corners:
            return Span(-INF, INF)
        pieces.append(Span(min(corners), max(corners)))
    return hull(pieces)


def _modulo(a: Span, b: Span) -> Span:
    """a % b (the sign of b), which is 0 when b is 0."""
    pieces = [exact(0)] if b.lo <= 0 <= b.hi else []
    for lo, hi in _nonzero_parts(b):
        if lo > 0:
            if a.lo >= 0 and a.hi < lo:
                pieces.append(Span(a.lo, a.hi))  # smaller than every divisor: itself
            else:
                pieces.append(Span(0, min(hi - 1, a.hi) if a.lo >= 0 else hi - 1))
        else:
            pieces.append(Span(lo + 1, 0))
    return hull(pieces)


def _abs(a: Span) -> Span:
    if a.lo >= 0:
        return Span(a.lo, a.hi)
    if a.hi <= 0:
        return Span(-a.hi, -a.lo)
    return Span(0, max(-a.lo, a.hi))


def compare(op: str, a: Span, b: Span) -> Truth:
    """Whether `a op b` always, never or maybe holds."""
    if op in ("rel_gt", "rel_ge"):
        return compare("rel_lt" if op == "rel_gt" else "rel_le", b, a)
    if op in ("rel_eq", "rel_ne"):
        if a.hi < b.lo or a.lo > b.hi:
            same = NEVER
        elif a.exact and b.exact:
            same = ALWAYS
        else:
            same = MAYBE
        return same if op == "rel_eq" else Truth(frozenset(not v for v in same.values))
    strict = op == "rel_lt"
    if (a.hi < b.lo) if strict else (a.hi <= b.lo):
        return ALWAYS
    if (a.lo >= b.hi) if strict else (a.lo > b.hi):
        return NEVER
    return MAYBE


_ORDERS = ("rel_eq", "rel_ne", "rel_lt", "rel_le", "rel_gt", "rel_ge")


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


@dataclass
class Analysis:
    """An expression analysed: its value, and every node's value and comparison operands (by the node's id)."""

    node: Node
    value: object
    values: dict
    operands: dict


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
                return _abs(args[0]) if len(args) == 1 else UNKNOWN
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
        lo = min(_mul(n.lo, body.lo), _mul(n.hi, body.lo))
        hi = max(_mul(n.lo, body.hi), _mul(n.hi, body.hi))
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
            return _sub(a, b)
        if op == "arith_mul":
            return _times(a, b)
        if op == "arith_div":
            return _divide(a, b)
        if op == "arith_mod":
            return _modulo(a, b)
        return UNKNOWN

    def _sum(self, a: Span, b: Span) -> Span:
        total = _add(a, b)
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


# -- writing expressions back ---------------------------------------------------------------------------------------

_SYMBOLS = {"rel_eq": "==", "rel_ne": "!=", "rel_lt": "<", "rel_le": "<=", "rel_gt": ">", "rel_ge": ">=",
            "rel_in": "in", "rel_not_in": "not in", "arith_add": "+", "arith_sub": "-", "arith_mul": "*",
            "arith_div": "//", "arith_mod": "%", "op_and": "and", "op_or": "or"}
_LEVEL = {"op_or": 1, "op_and": 2, "op_not": 3, "arith_add": 5, "arith_sub": 5, "arith_mul": 6, "arith_div": 6,
          "arith_mod": 6, "arith_neg": 7, **{op: 4 for op in _SYMBOLS if op.startswith("rel_")}}


def render(node: Node, least: int = 0) -> str:
    """An expression tree written back as text, with the brackets it needs where it stands (`least`: the binding the
    place needs)."""
    if isinstance(node, Op):
        level = _LEVEL[node.op]
        if node.op == "op_not":
            text = "not " + render(node.args[0], 3)
        elif node.op == "arith_neg":
            text = "-" + render(node.args[0], 7)
        else:
            left, right = node.args
            if level == 4:
                text = f"{render(left, 5)} {_SYMBOLS[node.op]} {render(right, 5)}"
            else:
                text = f"{render(left, level)} {_SYMBOLS[node.op]} {render(right, level + 1)}"
        return f"({text})" if level < least else text
    if isinstance(node, Attr):
        return f"{render(node.obj, 8)}.{node.name}"
    if isinstance(node, Call):
        return f"{node.func}({', '.join(render(a) for a in node.args)})"
    if isinstance(node, Quant):
        return f"{node.func}({node.var} in {render(node.iterable)}: {render(node.body)})"
    if isinstance(node, ListLit):
        return f"[{', '.join(render(i) for i in node.items)}]"
    if isinstance(node, Bool):
        return "true" if node.value else "false"
    if isinstance(node, Str):
        return f'"{node.value}"'
    if isinstance(node, Num):
        return str(node.value)
    if isinstance(node, Name):
        return node.name
    return "?"


# -- explaining a verdict -----------------------------------------------------------------------------------------

def reasons(analysis: Analysis, node: Node, value: bool) -> list[Node]:
    """The comparisons that make `node` constantly `value` (as far as the analysis can say which)."""
    if isinstance(node, Op):
        if node.op == "op_not":
            return reasons(analysis, node.args[0], not value)
        if node.op in ("op_and", "op_or"):
            deciding = value is (node.op == "op_or")  # one part decides: a true part of `or`, a false part of `and`
            parts = [a for a in node.args if analysis.values.get(id(a)) == Truth(frozenset({value}))]
            if deciding:
                return reasons(analysis, parts[0], value) if parts else []
            return [r for a in node.args for r in reasons(analysis, a, value)]
        if node.op.startswith("rel_"):
            return [node]
    if isinstance(node, Quant) and node.func in ("all", "any"):
        if analysis.values.get(id(node.body)) == Truth(frozenset({value})):
            return reasons(analysis, node.body, value)
    return []


def _bound(value: float, rank: bool, ranks) -> str:
    if rank and value == int(value) and 0 <= value < len(ranks):
        return ranks[int(value)]
    return str(int(value)) if not math.isinf(value) else str(value)


def describe(analysis: Analysis, node: Op, ranks) -> str:
    """Why the comparison `node` is constant: what each side can be, the side written as a number left out."""
    operands = analysis.operands.get(id(node))
    if not operands:
        return ""
    a, b = operands
    left, right = node.args
    if b is None:  # membership: where the value lies
        if isinstance(left, Num):
            return ""
        where = (f"is {_bound(a.lo, a.rank, ranks)}" if a.exact else
                 f"is from {_bound(a.lo, a.rank, ranks)} to {_bound(a.hi, a.rank, ranks)}")
        return f"{render(left)} {where}"
    below = a.hi <= b.lo  # the comparison is decided by a's most against b's least, or the other way round
    parts = []
    for side, val, hi in ((left, a, below), (right, b, not below)):
        if isinstance(side, Num):
            continue
        if val.exact:
            what = f"is {_bound(val.lo, val.rank, ranks)}"
        elif hi:
            what = f"is at most {_bound(val.hi, val.rank, ranks)}"
        else:
            what = f"is at least {_bound(val.lo, val.rank, ranks)}"
        if what == f"is {render(side)}":
            continue  # a constant by its name: `Q is Q` says nothing
        note = f" ({val.note})" if val.note and (hi or val.exact) else ""
        parts.append(f"{render(side)} {what}{note}")
    return " and ".join(parts)


def why(analysis: Analysis, node: Node, value: bool, whole: str, ranks) -> str:
    """The reasons `node` (whose text is `whole`) is constantly `value`, in words."""
    out = []
    for cmp in reasons(analysis, node, value):
        sides = describe(analysis, cmp, ranks)
        text = render(cmp)
        holds = "always" if analysis.values[id(cmp)] == ALWAYS else "never"
        said = sides or f"`{text}` {holds} holds whatever the position"
        if sides and text != whole:
            said += f", so `{text}` {holds} holds"
        out.append(said)
    return "; ".join(out)


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
