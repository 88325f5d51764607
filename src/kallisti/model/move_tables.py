"""The move tables of a compiled ruleset: per group, what goes on what, what a space takes, how many cards may leave."""

from __future__ import annotations

from kallisti.interpreter import compiler as C

# A build rule's table read as the top kinds each card may go on, by (deck, table): rulesets that share a build table
# (a rule change leaves most groups' rules alone, and the rule tables are shared, model/ruleset.py) share its reading,
# kept for as many tables as model/ruleset.py keeps (`most`).
_onto: dict[tuple, tuple] = {}


def move_tables(rules, most: int) -> tuple:
    """Per group of `rules`: which top kinds each card may go on (None: the engine asks the rule pile by pile), which
    cards a space takes, the most cards that may leave at once, and which counts may (when the take rule reads only
    `count`); the readings of at most `most` build tables are kept."""
    deck = rules.deck
    reps = deck.representative
    onto, empty_ok, take_max, take_counts = [], [], [], []
    for g in rules.groups.values():
        b = g.build
        if b.never:
            onto.append(())
        elif b.pair_table is not None:
            key = (deck.signature, b.pair_table)
            read = _onto.get(key)
            if read is None:
                stride, table = b.stride, b.pair_table
                read = tuple(tuple(k for k, t in reps.items() if table[c * stride + t]) for c in range(deck.size))
                if len(_onto) >= most:
                    _onto.pop(next(iter(_onto)))
                _onto[key] = read
            onto.append(read)
        else:
            onto.append(None)  # the engine evaluates the rule pile by pile
        e = g.empty
        if e.always:
            empty_ok.append(b"\x01" * deck.size)
        elif e.never:
            empty_ok.append(b"\x00" * deck.size)
        else:
            empty_ok.append(e.card_table)  # None: evaluate per move
        t = g.take
        if t.never:
            take_max.append(0)
            take_counts.append(None)
        elif t.always:
            take_max.append(deck.size)
            take_counts.append(None)
        elif t.uses <= {"count"} and not t.pair_table and not t.card_table:
            ctx = C.Ctx()
            ok = bytearray(deck.size + 1)
            for n in range(1, deck.size + 1):
                ctx.count = n
                ok[n] = t.allows(ctx)
            take_counts.append(bytes(ok))
            take_max.append(max((n for n in range(deck.size + 1) if ok[n]), default=0))
        else:
            take_max.append(deck.size)
            take_counts.append(False)  # evaluate per run
    return tuple(onto), tuple(empty_ok), tuple(take_max), tuple(take_counts)
