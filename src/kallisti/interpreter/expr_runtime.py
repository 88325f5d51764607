"""The pieces compiled expressions are made of: constants, the step meter, quantifiers, built-in tests, comparisons."""

from __future__ import annotations

from operator import itemgetter

from kallisti.interpreter.expr_types import Ctx


def constant(value):
    """A constant's closure, marked so that operators can fold it."""
    fn = lambda c: value  # noqa: E731
    fn.const = value
    return fn


def metered(c: Ctx, items):
    """`items`, counted on the meter as gone through one by one."""
    c.steps += len(items)
    return items


def quantifier(func: str, var: str, it_fn, body_fn):
    """The closure of a quantifier: `var` takes each item of `it_fn(c)` in turn, for `body_fn`. The variable hides an
    outer value of the same name only inside the body, and is restored however the loop ends; each item gone through
    is a step on the meter."""
    missing = object()

    def restore(c, saved, n):
        c.steps += n
        if saved is missing:
            c.locals.pop(var, None)
        else:
            c.locals[var] = saved

    if func == "all":
        def every(c):
            held = c.locals
            saved, n = held.get(var, missing), 0
            try:
                for item in it_fn(c):
                    n += 1
                    held[var] = item
                    if not body_fn(c):
                        return False
                return True
            finally:
                restore(c, saved, n)
        return every
    if func == "any":
        def some(c):
            held = c.locals
            saved, n = held.get(var, missing), 0
            try:
                for item in it_fn(c):
                    n += 1
                    held[var] = item
                    if body_fn(c):
                        return True
                return False
            finally:
                restore(c, saved, n)
        return some
    counting = func == "count"

    def total(c):
        held = c.locals
        saved, n, t = held.get(var, missing), 0, 0
        try:
            for item in it_fn(c):
                n += 1
                held[var] = item
                v = body_fn(c)
                t += (1 if v else 0) if counting else v
            return t
        finally:
            restore(c, saved, n)
    return total


def pile_quantifier(func: str, piles, empty: bool, group: str):
    """The closure of `all` or `any` over the piles of a named group whose body asks only whether its pile is empty
    (`empty`) or not (`emptiness_read`): what `quantifier` makes of it, each pile's emptiness read off the state
    rather than through the body's closures, the same piles gone through and counted on the meter. It is marked
    with what it asks (`emptiness`: the group, the quantifier, `empty`), which the engine may read off its index
    instead (`rule_reads.emptiness_gates`)."""
    found = func == "any"  # what the quantifier says at the pile that settles it
    settles_with_cards = found != empty  # whether that is the first pile with cards, else the first empty one
    scan, count = (any if settles_with_cards else all), len(piles)  # whether one settles it, asked at C speed
    held_of = itemgetter(*piles) if count > 1 else lambda held: [held[i] for i in piles]  # the piles' cards, in one call

    def judge(c):
        held = c.state.piles
        # Most often no pile settles it (every pile has cards, or none has): that is asked at C speed first, and the
        # piles are gone through one by one only to count those looked at up to the one that settles it.
        if scan(held_of(held)) is not settles_with_cards:
            c.steps += count
            return not found
        n = 0
        for i in piles:
            n += 1
            if bool(held[i]) is settles_with_cards:
                c.steps += n
                return found
        c.steps += n
        return not found
    judge.emptiness = (group, func, empty)
    return judge


def _pairwise(test):
    """A sequence test over a list of cards: `test(lower, upper)` for every card and the one after it."""
    return lambda cards: all(test(cards[i], cards[i + 1]) for i in range(len(cards) - 1))


# Built-in tests of a list of cards, bottom card first (as `cards` and `pile.cards` are).
SEQUENCE_TESTS = {
    "descending": lambda d: _pairwise(lambda a, b: d.rank[b] == d.rank[a] - 1),
    "ascending": lambda d: _pairwise(lambda a, b: d.rank[b] == d.rank[a] + 1),
    "same_suit": lambda d: _pairwise(lambda a, b: d.suit[b] == d.suit[a]),
    "same_color": lambda d: _pairwise(lambda a, b: d.color[b] == d.color[a]),
    "alternating_colors": lambda d: _pairwise(lambda a, b: d.color[b] != d.color[a]),
}


def comparison(op, a, b):
    """A comparison closure; a constant right-hand side is folded in."""
    if hasattr(b, "const"):
        v = b.const
        return _FOLDED[op](a, v)
    return _RELATIONS[op](a, b)


_FOLDED = {
    "rel_eq": lambda a, v: (lambda c: a(c) == v),
    "rel_ne": lambda a, v: (lambda c: a(c) != v),
    "rel_lt": lambda a, v: (lambda c: a(c) < v),
    "rel_le": lambda a, v: (lambda c: a(c) <= v),
    "rel_gt": lambda a, v: (lambda c: a(c) > v),
    "rel_ge": lambda a, v: (lambda c: a(c) >= v),
}

_RELATIONS = {
    "rel_eq": lambda a, b: (lambda c: a(c) == b(c)),
    "rel_ne": lambda a, b: (lambda c: a(c) != b(c)),
    "rel_lt": lambda a, b: (lambda c: a(c) < b(c)),
    "rel_le": lambda a, b: (lambda c: a(c) <= b(c)),
    "rel_gt": lambda a, b: (lambda c: a(c) > b(c)),
    "rel_ge": lambda a, b: (lambda c: a(c) >= b(c)),
}
