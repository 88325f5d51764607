"""What a grouping's condition needs of its cards, read from its text: the facts that let the search skip sets unjudged."""

from __future__ import annotations

from dataclasses import dataclass
from math import inf

from kallisti.errors import Pos
from kallisti.grammar.expressions import (Attr, Bool, Call, ListLit, Name, Node, Num, Op, Quant, Str, and_parts,
                                         parse_expression)

ANY_TOTAL = ((0, inf),)  # totals as intervals (lowest, highest) of whole numbers, sorted and apart: every total

# Built-ins of a list of cards that hold only when every card has the same attribute: (built-in, attribute).
SAME = {"same_family": "family", "same_suit": "suit", "same_color": "color"}

# The names a grouping's condition reads besides constants: a test of one card must read none of them.
_SCOPE = ("cards", "count", "hand")


@dataclass(frozen=True)
class Needs:
    """Necessary conditions of a grouping: when one fails for a set of cards, the condition cannot hold for it.

    Each comes from one top-level `and` part of the condition; a part that says nothing certain adds none.
    """

    totals: tuple[tuple, ...] = ()  # for each, intervals of totals: some total of the cards falls in one of them
    same: tuple[str, ...] = ()  # attributes (`family`, `suit`, `color`) every card has alike
    every: tuple[int, ...] = ()  # indexes of `and` parts `all(c in cards: P)`, P reading only c: each card passes P
    some: tuple[int, ...] = ()  # indexes of `and` parts `any(c in cards: P)`, P reading only c: some card passes P
    fixed: tuple[int, ...] = ()  # indexes of `and` parts reading neither `cards` nor `count`: one answer for a hand
    # (`all(c in cards: P)`, comparison, n) for each `and` part `count(c in cards: P) OP n`, P reading only c: how many
    # cards pass P, compared with n (`rel_eq`, `rel_ge`…), the test of each card alone written as an `all`
    counts: tuple[tuple[str, str, int], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.totals or self.same or self.every or self.some or self.fixed or self.counts)


# Built-ins of a list of cards whose answer does not depend on the list's order.
ORDER_FREE_CALLS = frozenset(("totals", "consecutive", *SAME))


def needs_of(text: str) -> Needs:
    """The needs of a condition, read from its text (an evaluator reads each of its conditions once)."""
    return _read(parse_expression(text, Pos("<grouping>")), text)


def order_free(text: str) -> bool:
    """Whether a condition's answer is the same for its cards in any order, reading each card only through its
    attributes: `cards` and `hand` are only gone through by quantifiers or handed to order-free built-ins (`totals`,
    `consecutive`, `same_family`…), and nothing multiplies (a product may fail at run time on one card, and whether a
    quantifier reaches that card first depends on the order)."""
    return _order_free(parse_expression(text, Pos("<grouping>")))


def _order_free(node: Node, held: bool = False) -> bool:
    """`held`: the node is a quantifier's collection or an order-free built-in's argument, where the cards may be."""
    if isinstance(node, Name):
        return held or node.name not in ("cards", "hand")
    if isinstance(node, (Num, Str, Bool)):
        return True
    if isinstance(node, Op):
        return node.op != "arith_mul" and all(_order_free(a) for a in node.args)
    if isinstance(node, Call):
        return all(_order_free(a, node.func in ORDER_FREE_CALLS) for a in node.args)
    if isinstance(node, Quant):
        return _order_free(node.iterable, True) and _order_free(node.body)
    if isinstance(node, ListLit):
        return all(_order_free(a) for a in node.items)
    if isinstance(node, Attr):
        return _order_free(node.obj)  # `cards.top` reads the order: the name alone is refused
    return False


def _read(node: Node, text: str) -> Needs:
    totals, same, every, some, fixed, counts = [], [], [], [], [], []
    for i, part in enumerate(and_parts(node)):  # in the order the compiler compiles them (`Grouping.parts`)
        if not _reads_scope(part, ("cards", "count")):
            fixed.append(i)
            continue
        wanted = _totals_wanted(part)
        if wanted is not None and wanted != ANY_TOTAL:
            totals.append(wanted)
        elif isinstance(part, Call) and part.func in SAME and _is_cards(part.args):
            same.append(SAME[part.func])
        elif isinstance(part, Quant) and part.func in ("all", "any") and _is_cards((part.iterable,)) \
                and not _reads_scope(part.body):
            (every if part.func == "all" else some).append(i)
        elif (counted := _counted(part, text)) is not None:
            counts.append(counted)
    return Needs(tuple(totals), tuple(same), tuple(every), tuple(some), tuple(fixed), tuple(counts))


def _counted(node: Node, text: str) -> tuple[str, str, int] | None:
    """(`all(c in cards: P)`, comparison, n) for `count(c in cards: P) OP n` (either way round), P reading only c."""
    if not (isinstance(node, Op) and node.op in _COMPARISONS and len(node.args) == 2):
        return None
    quant, n, op = node.args[0], node.args[1], node.op
    if isinstance(quant, Num):
        quant, n, op = n, quant, _FLIPPED[op]
    if not (isinstance(quant, Quant) and quant.func == "count" and _is_cards((quant.iterable,)) and isinstance(n, Num)
            and not _reads_scope(quant.body)):
        return None
    test = _body_text(text, quant)
    return None if test is None else (f"all({quant.var} in cards: {test})", op, n.value)


def _body_text(text: str, quant: Quant) -> str | None:
    """The text of a quantifier's body: from where it starts to the parenthesis closing the quantifier."""
    depth, quoted = 0, False
    for i in range(quant.col, len(text)):
        ch = text[i]
        if quoted:
            quoted = ch != '"'
        elif ch == '"':
            quoted = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return text[quant.body.col:i] if quant.body.col < i else None
    return None


def _is_cards(args) -> bool:
    return len(args) == 1 and isinstance(args[0], Name) and args[0].name == "cards"


def _is_totals_of_cards(node: Node) -> bool:
    return isinstance(node, Call) and node.func == "totals" and _is_cards(node.args)


def _reads_scope(node: Node, names=_SCOPE) -> bool:
    """Whether the expression names any of `names` (by default `cards`, `count` or `hand`) anywhere (quantifier
    variables may never take them)."""
    if isinstance(node, Name):
        return node.name in names
    if isinstance(node, Op):
        return any(_reads_scope(a, names) for a in node.args)
    if isinstance(node, Call):
        return any(_reads_scope(a, names) for a in node.args)
    if isinstance(node, Quant):
        return _reads_scope(node.iterable, names) or _reads_scope(node.body, names)
    if isinstance(node, ListLit):
        return any(_reads_scope(a, names) for a in node.items)
    if isinstance(node, Attr):
        return _reads_scope(node.obj, names)
    return not isinstance(node, (Num, Str, Bool))  # a node of another kind might read anything


def _totals_wanted(node: Node) -> tuple | None:
    """Intervals of totals some total of the cards must fall in for `node` to hold, or None when it says nothing certain.

    Sound, never exact: `21 in totals(cards)` gives 21 alone; `any(t in totals(cards): t >= 16 and t <= 21)` 16 to 21;
    of an `or`, the union of its sides'; of an `and`, either side's."""
    if isinstance(node, Op):
        if node.op == "rel_in" and _is_totals_of_cards(node.args[1]) and isinstance(node.args[0], Num):
            return ((node.args[0].value, node.args[0].value),)
        if node.op == "op_or":
            sides = [_totals_wanted(a) for a in node.args]
            return None if None in sides else _union(*sides)
        if node.op == "op_and":
            sides = [m for m in (_totals_wanted(a) for a in node.args) if m is not None]
            return sides[0] if sides else None
        return None
    if isinstance(node, Quant) and node.func == "any" and _is_totals_of_cards(node.iterable):
        return _values_where(node.body, node.var)[0]
    return None


def _values_where(node: Node, var: str) -> tuple[tuple, bool]:
    """(intervals holding every whole number >= 0 for which `node` may hold with `var` that number, whether exactly).

    Only comparisons of the variable with numbers, `and`, `or` and `not` are read; anything else may hold for any value,
    so it gives every number, inexactly (and a `not` of inexact intervals is every number again)."""
    if isinstance(node, Op):
        if node.op in _COMPARISONS and len(node.args) == 2:
            a, b = node.args
            if isinstance(b, Name) and isinstance(a, Num):
                a, b, op = b, a, _FLIPPED[node.op]
            else:
                op = node.op
            if isinstance(a, Name) and a.name == var and isinstance(b, Num):
                return _COMPARISONS[op](b.value), True
            return ANY_TOTAL, False
        if node.op in ("op_and", "op_or"):
            (ma, ea), (mb, eb) = (_values_where(x, var) for x in node.args)
            return (_intersection(ma, mb) if node.op == "op_and" else _union(ma, mb)), ea and eb
        if node.op == "op_not":
            got, exact = _values_where(node.args[0], var)
            return (_complement(got), True) if exact else (ANY_TOTAL, False)
    return ANY_TOTAL, False


def _union(a: tuple, b: tuple) -> tuple:
    out: list[list] = []
    for lo, hi in sorted(a + b):
        if out and lo <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return tuple((lo, hi) for lo, hi in out)


def _intersection(a: tuple, b: tuple) -> tuple:
    return _union((), tuple((max(l1, l2), min(h1, h2)) for l1, h1 in a for l2, h2 in b if max(l1, l2) <= min(h1, h2)))


def _complement(a: tuple) -> tuple:
    out, low = [], 0
    for lo, hi in a:
        if lo > low:
            out.append((low, lo - 1))
        low = hi + 1
    return tuple(out) + (((low, inf),) if low != inf else ())


# rel_* -> the intervals of the whole numbers t >= 0 with `t OP v` (v a number written, never negative); and each
# comparison with its sides swapped.
_COMPARISONS = {
    "rel_eq": lambda v: ((v, v),),
    "rel_ne": lambda v: _complement(((v, v),)),
    "rel_ge": lambda v: ((v, inf),),
    "rel_gt": lambda v: ((v + 1, inf),),
    "rel_le": lambda v: ((0, v),),
    "rel_lt": lambda v: ((0, v - 1),) if v > 0 else (),
}
_FLIPPED = {"rel_eq": "rel_eq", "rel_ne": "rel_ne", "rel_ge": "rel_le", "rel_gt": "rel_lt", "rel_le": "rel_ge",
            "rel_lt": "rel_gt"}
