"""What a move's number alone tells of whether it may match a compulsory or automatic move pattern, and its use."""

from __future__ import annotations


def pattern_masks(P: int, group_of, patterns) -> tuple | None:
    """What a move's number alone tells of whether it may match one of `patterns` (compulsory or automatic moves), for
    a game of P piles whose groups `group_of` names pile by pile: per pair of piles (src * P + dst), whether a card
    move between them may, and whether it surely does (a pattern with no `when` names both piles' groups:
    Discordian's "a card must be played when one can be"); per stock pile, whether its deal may, and its redeal.
    `_matching` judges only the moves these let through and do not settle. None when the numbers of deals and
    redeals may overlap those of card moves (two piles or fewer)."""
    if P <= 2:
        return None
    moving = [p for p in patterns if p.kind == "move"]
    pairs = bytes(any(group_of[s] in p.sources and group_of[d] in p.targets for p in moving)
                  for s in range(P) for d in range(P))
    sure = bytes(any(p.when is None and group_of[s] in p.sources and group_of[d] in p.targets for p in moving)
                 for s in range(P) for d in range(P))
    deals = bytes(any(p.kind == "deal" and group_of[s] in p.sources for p in patterns) for s in range(P))
    redeals = bytes(any(p.kind == "redeal" and group_of[s] in p.sources for p in patterns) for s in range(P))
    return pairs, deals, redeals, sure


def masked(moves, masks, P: int, windows: int, judge):
    """Yield the moves of `moves` that `judge` finds match, in their order, each judged as it is reached; `masks`
    (from `pattern_masks`, or None), for a game of P piles whose window moves are numbered from `windows` on, pass
    over most of the others by their number alone, and let through without a judgement those that surely match."""
    if masks is None:
        yield from filter(judge, moves)
        return
    pairs, deals, redeals, sure = masks
    PP = P * P
    for m in moves:
        if m >= PP:
            if m < windows:
                if sure[m % PP]:
                    yield m
                    continue
                if not pairs[m % PP]:
                    continue
        elif m < P:
            if not deals[m]:
                continue
        elif not redeals[m - P]:
            continue
        if judge(m):
            yield m
