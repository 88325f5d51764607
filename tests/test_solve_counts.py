"""The depth-first search visits the same positions in the same order as it always has: its speed-ups (keys kept
up to date pile by pile, moves into a position already searched passed over without being made) change how fast it
goes, never where.

A search that stops at its first win reaches it after a number of positions that any change in the order of the
moves tried, the canonical key or the safe moves would almost surely change; so does the length of the line found.
The figures below were recorded from these very searches on the code before those speed-ups (commit 8bba363), and
must not move. Each search runs to its verdict within its budget.
"""

from __future__ import annotations

import pytest

from kallisti.interpreter.game import Game
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.depth_first import NO_WIN, WON, SearchOptions, _Search

FULL, NO_SYMMETRY, NO_SAFE_MOVES = {}, {"symmetry": False}, {"safe_moves": False}

# (game, seed, options, budget, verdict, positions, moves in the line)
PINNED = [
    ("forty-thieves", 5, FULL, 20_000, WON, 2273, 241),
    ("freecell", 1, FULL, 20_000, WON, 2657, 1700),
    ("congress", 1, FULL, 3000, WON, 2457, 1115),
    ("indian", 1, FULL, 3000, WON, 1866, 1823),
    ("emperor", 2, FULL, 3000, WON, 381, 381),
    ("lucas", 2, NO_SYMMETRY, 1500, WON, 486, 246),
    ("harp", 3, NO_SYMMETRY, 1500, WON, 367, 367),
    ("limited", 2, NO_SAFE_MOVES, 1500, WON, 376, 255),
    ("decade", 2, FULL, 20_000, WON, 65, 65),
    ("decade", 1, FULL, 20_000, NO_WIN, 135, 0),
]


@pytest.mark.parametrize("game, seed, options, budget, verdict, positions, length", PINNED,
                         ids=[f"{p[0]}-{p[1]}-{'-'.join(p[2]) or 'full'}" for p in PINNED])
def test_the_depth_first_search_visits_as_many_positions_as_before(game, seed, options, budget, verdict, positions,
                                                                    length):
    found = _Search(Game(load_ruleset(game), seed=seed), SearchOptions(states=budget, **options)).run()
    assert (found.verdict, found.states, len(found.moves)) == (verdict, positions, length)
