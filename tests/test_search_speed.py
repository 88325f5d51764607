"""The search bot's shortcuts give the answers of the plain computations they stand for.

`_run_finder` shares, between the searches on the same stacks, what they found beneath each stack's top taken first;
their answers must be those of the plain depth-first search within CHAIN_STEPS steps, on any stacks, any
rule of what goes on what, and in any order of calls, including the searches whose steps run out (fewer steps than
CHAIN_STEPS make them run out often, and at every point of a search).
"""

from __future__ import annotations

import random

import pytest

from kallisti.solver import search
from kallisti.solver.search import _longest_run, _run_finder

KINDS = 13


def plain_longest_run(takes: dict, top: int, stacks: list[list[int]]) -> int:
    """The plain search: depth first, a step per card tried, the stacks in order, nothing kept between calls."""
    steps = [search.CHAIN_STEPS]

    def longest(top: int) -> int:
        steps[0] -= 1
        best = 0
        onto = takes.get(top, ())
        for stack in stacks:
            if stack and stack[-1] in onto and steps[0] > 0:
                k = stack.pop()
                length = 1 + longest(k)
                stack.append(k)
                best = max(best, length)
        return best

    return longest(top)


def up_or_down() -> dict:
    """Discordian's foundation: one rank higher or lower, nothing on the last rank."""
    return {k: frozenset(j for j in (k - 1, k + 1) if 0 <= j < KINDS) for k in range(KINDS - 1)}


def random_takes(rng: random.Random) -> dict:
    """Each kind takes a few kinds drawn at random (some none, some itself)."""
    return {k: frozenset(rng.sample(range(KINDS), rng.randint(0, 3))) for k in range(KINDS) if rng.random() < 0.9}


def random_stacks(rng: random.Random) -> list[list[int]]:
    """From one to eight stacks of up to nine kinds (long ones, so that the steps run out in some searches)."""
    return [[rng.randrange(KINDS) for _ in range(rng.randint(0, 9))] for _ in range(rng.randint(1, 8))]


class CountedTakes(dict):
    """A rule of what goes on what that counts the searches' look-ups: one per card a search stands on."""

    looked = 0

    def get(self, key, default=None):
        CountedTakes.looked += 1
        return super().get(key, default)


@pytest.mark.parametrize("seed, steps", [(0, search.CHAIN_STEPS), (1, search.CHAIN_STEPS), (2, 3), (3, 5), (4, 8),
                                         (5, 13), (6, 21)])
def test_the_shared_search_beneath_first_cards_gives_the_plain_searchs_runs(seed, steps, monkeypatch):
    monkeypatch.setattr(search, "CHAIN_STEPS", steps)
    rng = random.Random(seed)
    shared = plain = 0
    for _ in range(600):
        takes = CountedTakes(up_or_down() if rng.random() < 0.5 else random_takes(rng))
        stacks = random_stacks(rng)
        as_dealt = [list(s) for s in stacks]
        longest_from = _run_finder(takes, stacks)
        tops = list(range(KINDS)) * 2
        rng.shuffle(tops)
        for top in tops[:rng.randint(1, len(tops))]:
            CountedTakes.looked = 0
            found = longest_from(top)
            shared += CountedTakes.looked
            CountedTakes.looked = 0
            assert found == plain_longest_run(takes, top, stacks), (dict(takes), top, stacks)
            plain += CountedTakes.looked
            assert stacks == as_dealt  # the stacks are left as they were
    assert shared < 0.9 * plain  # the shared search stood on fewer cards


def test_a_search_on_its_own_is_the_plain_search():
    rng = random.Random(7)
    for _ in range(300):
        takes, stacks = up_or_down(), random_stacks(rng)
        top = rng.randrange(KINDS)
        assert _longest_run(takes, top, stacks) == plain_longest_run(takes, top, stacks)

