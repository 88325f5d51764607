"""The abstract values of the bounds check: spans of numbers, truths, cards, piles, groups, lists, and their arithmetic."""

from __future__ import annotations

import math
from dataclasses import dataclass

from kallisti.grammar.expressions import Node
from kallisti.interpreter import compiler as C

INF = math.inf


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


def mul(a, b):
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


def add(a: Span, b: Span) -> Span:
    return Span(a.lo + b.lo, a.hi + b.hi, a.rank != b.rank)


def sub(a: Span, b: Span) -> Span:
    return Span(a.lo - b.hi, a.hi - b.lo, a.rank and not b.rank)


def times(a: Span, b: Span) -> Span:
    corners = [mul(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
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


def divide(a: Span, b: Span) -> Span:
    """a // b, which is 0 when b is 0."""
    pieces = [exact(0)] if b.lo <= 0 <= b.hi else []
    for lo, hi in _nonzero_parts(b):
        corners = [_fdiv(x, y) for x in (a.lo, a.hi) for y in (lo, hi)]
        if None in corners:
            return Span(-INF, INF)
        pieces.append(Span(min(corners), max(corners)))
    return hull(pieces)


def modulo(a: Span, b: Span) -> Span:
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


def absolute(a: Span) -> Span:
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


@dataclass
class Analysis:
    """An expression analysed: its value, and every node's value and comparison operands (by the node's id)."""

    node: Node
    value: object
    values: dict
    operands: dict
