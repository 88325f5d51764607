"""The search bot's shortcuts give the answers of the plain computations they stand for.

`_run_finder` shares, between the searches on the same stacks, what they found beneath each stack's top taken first;
their answers must be those of the plain depth-first search within CHAIN_STEPS steps, on any stacks, any
rule of what goes on what, and in any order of calls, including the searches whose steps run out (fewer steps than
CHAIN_STEPS make them run out often, and at every point of a search).

The line search's own shortcuts likewise: the unseen cards listed without counting where every card is a kind of its
own, moves ordered by a reversed sort, and positions filed by the hash of their keys (keys sharing a hash kept apart).
"""

from __future__ import annotations

import random
from collections import Counter

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



def _counted_unseen(game) -> list[tuple[int, int]]:
    """The unseen cards by kind as the plain count finds them: the pack less every face-up card, each kind counted."""
    st = game.state
    seen = Counter(game.kind[c] for pile, down in zip(st.piles, st.down) for c in pile[down:])
    pack = Counter(game.kind[c] for c in range(game.deck.size))
    return [(k, n - seen[k]) for k, n in sorted(pack.items()) if n > seen[k]]


@pytest.mark.parametrize("name", ["discordian", "spider", "midshipman", "forty-thieves"])
def test_a_line_search_counts_the_unseen_cards_as_the_plain_count_does(name):
    # Discordian's cards are kinds of their own, and all of them lie in piles: the search lists its face-down cards
    # without counting them. The other games take the counting ways.
    from scenario import positions_in_play

    compared = 0
    for game in positions_in_play(name, 3, 30, lambda moves, deal: moves[deal % len(moves)]):
        line_search = search._LineSearch(game, 1, set())
        assert line_search.unseen == _counted_unseen(game)
        assert line_search.unseen_total == sum(n for _, n in line_search.unseen)
        compared += 1
    assert compared >= 30


def test_moves_are_ordered_by_score_ties_kept_in_their_order():
    # The reversed sort must keep equal moves in the order they came, as sorting by the negated score did: the first
    # of the moves a search finds equally good is the one it plays when the budget runs out.
    from kallisti.interpreter.game import Game
    from kallisti.solver.measure import move_score
    from shipped import shipped

    checked = 0
    for name in ("discordian", "forty-thieves"):
        game = Game(shipped(name), seed=5)
        line_search = search._LineSearch(game, 1, set())
        for _ in range(40):
            moves = game.legal_moves()
            if game.status(moves).outcome != "playing":
                break
            for order in (moves, moves[::-1]):
                assert line_search.ordered(order) == sorted(order, key=lambda m: -move_score(game, m))
            checked += len(moves) > 1
            game.apply(moves[-1])
    assert checked >= 10


def _played_turn(name: str, deal: int, cap: int = search.TURN_CAP) -> tuple[list[int], list[float], int]:
    """The search bot's moves on deal `deal` of game `name` (at most `cap`), the values of the first moves of its
    decisions, in order, and the positions it settled."""
    from kallisti.interpreter.game import Game
    from shipped import shipped

    game, bot = Game(shipped(name), seed=deal), search.SearchStrategy(deal, name == "discordian")
    line, values = [], []
    value_of = search._LineSearch.value_of
    for _ in range(cap):
        moves = game.legal_moves()
        if game.status(moves).outcome != "playing":
            break
        line.append(bot.choose(game, moves))
        if len(moves) > 1:
            search_now = search._LineSearch(game, -1 if bot.minimize else 1, set(bot.been), shape=bot.shape)
            search_now.limit = search.DEFAULT_BUDGET
            values.append(value_of(search_now, line[-1]))
        game.apply(line[-1])
    return line, values, len(bot.promised[2])


# Discordian's lines never meet a position twice in a decision; Forty Thieves' often do (cards moved to and fro).
TURNS = [("discordian", 1, search.TURN_CAP), ("discordian", 2, search.TURN_CAP), ("forty-thieves", 1, 60),
         ("forty-thieves", 2, 60)]


@pytest.mark.parametrize("collide", [lambda key: 0, lambda key: len(key[0][0]) % 3])
def test_positions_whose_keys_share_a_hash_are_kept_apart(collide, monkeypatch):
    # A search files the positions it values by the hash of their keys: keys that share one (here every key, or many)
    # must still be told apart, so the moves, values and settled positions are those of a search with hashes apart.
    expected = [_played_turn(*turn) for turn in TURNS]
    monkeypatch.setattr(search, "_hash", collide)
    assert [_played_turn(*turn) for turn in TURNS] == expected
