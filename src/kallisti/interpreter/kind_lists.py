"""The move index's lists by kind of card: which kinds share a list, and a game's fresh lists."""

from __future__ import annotations

from itertools import accumulate


def list_slots(P: int, kind_class: list[int], class_count: int, filed: tuple, checked_of: tuple,
               share: bool) -> tuple[list, list[int]]:
    """Per kind, which of a game's fresh `dests` lists it reads, and which of its `checked` lists, with how many lists
    each: one list per class of kinds (`kind_class`) some pile may be filed under there, numbered from 1, and list 0,
    never filed in, for every other kind, so that a game makes no list that would stay empty for good (Forty Thieves
    files nothing in `checked`); None where each kind has a list of its own, in order. Without `share`, a list per
    class. `filed`: per pile, the kinds it is filed under by top kind (`filed_under`) and as a space
    (`space_filed_under`); `checked_of`: per pile, 1 where those are `checked` lists (`build_checked_of`,
    `space_checked_of`)."""
    filed_under, space_filed_under = filed
    marks = [[not share] * class_count for _ in range(2)]  # [dests, checked], by class: whether a list is needed
    for p in range(P):
        into = marks[checked_of[0][p]]
        for taken in filed_under[p]:
            for k in taken:
                into[kind_class[k]] = True
        into = marks[checked_of[1][p]]
        for k in space_filed_under[p]:
            into[kind_class[k]] = True
    numbers = [list(accumulate(flags, initial=0)) for flags in marks]  # per class, the marked classes before it
    slots = [[numbers[i][c] + 1 if marks[i][c] else 0 for c in kind_class] for i in range(2)]
    return ([None if s == list(range(1, len(s) + 1)) else s for s in slots],
            [numbers[0][-1] + 1, numbers[1][-1] + 1])


def kind_lists(slots: list[int] | None, count: int) -> list[list[int]]:
    """A game's fresh index lists by kind: per kind, the list of its slot of `count` (`list_slots`; None: each kind
    its own, in order), made at once where each kind has its own or none has one (list 0, shared by all)."""
    if slots is None or count == 1:
        return [[] for _ in range(count - 1)] if slots is None else [[]] * len(slots)
    lists = [[] for _ in range(count)]
    return list(map(lists.__getitem__, slots))
