"""What a move's number alone tells of the compulsory or automatic move patterns it may match."""

from __future__ import annotations


def pattern_masks(P: int, span: int, group_of, patterns) -> tuple | None:
    """What a move's number alone tells of whether it may match one of `patterns` (compulsory or automatic moves):
    per pair of piles (src * P + dst), whether a card move between them may, and whether it surely does (a
    pattern with no `when` names both piles' groups: Discordian's "a card must be played when one can be"); per
    stock pile, whether its deal may, and its redeal; per pile, whether a discard of a window of its cards (`span`
    the window span) may, and whether it surely does. `matches` judges only the moves these let through and do not
    settle. None when the numbers of deals and redeals may overlap those of card moves (two piles or fewer)."""
    if P <= 2:
        return None
    moving = [p for p in patterns if p.kind == "move"]
    pairs = _pair_table(P, group_of, moving)
    sure = _pair_table(P, group_of, [p for p in moving if p.when is None])
    deals = bytes(any(p.kind == "deal" and group_of[s] in p.sources for p in patterns) for s in range(P))
    redeals = bytes(any(p.kind == "redeal" and group_of[s] in p.sources for p in patterns) for s in range(P))
    discards = [p for p in patterns if p.kind == "discard"]
    windows = (bytes(any(group_of[s] in p.sources for p in discards) for s in range(P)),
               bytes(any(p.when is None and group_of[s] in p.sources for p in discards) for s in range(P)), span * span)
    return pairs, deals, redeals, sure, windows


def _pair_table(P: int, group_of, moving) -> bytes:
    """Per pair of piles (src * P + dst), 1 where one of the card-move patterns `moving` names both piles' groups: each
    source pile's row of destinations made once as bits, and each distinct row written out once (a table of P * P,
    made for every ruleset a change brings, so not pair by pair)."""
    rows = [0] * P  # per source pile, its destinations as bits
    for p in moving:
        targets = sum(1 << d for d in range(P) if group_of[d] in p.targets)
        for s in range(P):
            if group_of[s] in p.sources:
                rows[s] |= targets
    written: dict[int, bytes] = {}
    for bits in rows:
        if bits not in written:
            written[bits] = bytes((bits >> d) & 1 for d in range(P))
    return b"".join(written[bits] for bits in rows)


def stock_bound(P: int, patterns) -> int | None:
    """The number below which every move that may match one of `patterns` lies, when they are all deals and redeals
    (numbered below P, and from P below 2P: `Game.decode`), so that the other moves need not even be sorted before
    they are matched; None when a pattern may match other moves, or when deals and redeals may share their numbers
    with card moves (two piles or fewer: no masks either)."""
    if P <= 2 or not patterns or any(p.kind not in ("deal", "redeal") for p in patterns):
        return None
    return 2 * P


def matches(game, patterns, moves, masks):
    """Yield the moves of `moves` that match one of `patterns`, in their order, each judged as it is reached
    (`game._matches_any`); `masks` (from `pattern_masks`, or None) pass over most of the others by their number
    alone."""
    if masks is None:
        yield from (m for m in moves if game._matches_any(patterns, m))
        return
    pairs, deals, redeals, sure, (discards, sure_discards, window_rows) = masks
    P = game.P
    PP, windows, reach = P * P, game.discard_base, game.reach_base
    for m in moves:
        if m >= PP:
            if m < windows:
                if sure[m % PP]:
                    yield m
                    continue
                if not pairs[m % PP]:
                    continue
            elif m < reach:  # a discard of a window of pile (m - windows) // window_rows
                if sure_discards[(m - windows) // window_rows]:
                    yield m
                    continue
                if not discards[(m - windows) // window_rows]:
                    continue
        elif m < P:
            if not deals[m]:
                continue
        elif not redeals[m - P]:
            continue
        if game._matches_any(patterns, m):
            yield m
