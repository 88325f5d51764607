"""The thoughtful solver: a search of one deal with every card known, for a win or a proof that none exists.

`solve` is its entry: the portfolio of the depth-first search (`kallisti.solver.depth_first`, which describes the
search) and the best-first one (`kallisti.solver.bestfirst`), or one of them alone.
"""

from __future__ import annotations

from kallisti.interpreter.game import Game
from kallisti.solver.depth_first import (BEST_FIRST, DEFAULT_STATES, DEPTH_FIRST, MAX_TABLE, NO_WIN, PORTFOLIO,
                                         SEARCHES, UNKNOWN, WON, SearchOptions, Solution, _Search,
                                         interchangeable_groups, safe_moves_of)
from kallisti.solver.portfolio import portfolio_solve

# What callers read here: the entry, its options and verdicts, and the ruleset facts the solver shares with play.
__all__ = ["BEST_FIRST", "DEFAULT_STATES", "DEPTH_FIRST", "MAX_TABLE", "NO_WIN", "PORTFOLIO", "SEARCHES", "UNKNOWN",
           "WON", "SearchOptions", "Solution", "interchangeable_groups", "safe_moves_of", "solve"]


def solve(rules, seed: int | None = None, options: SearchOptions | None = None, game: Game | None = None) -> Solution:
    """Search the deal `seed` of `rules`, or the position of `game` (left as it was), for a win: by default with
    the portfolio of the depth-first and best-first searches (`kallisti.solver.portfolio`), or by one of them alone."""
    options = options or SearchOptions()
    game = game or Game(rules, seed=seed)
    if options.search == DEPTH_FIRST:
        return _Search(game, options).run()
    if options.search not in SEARCHES:
        raise ValueError(f"unknown search {options.search!r}: one of {', '.join(SEARCHES)}")
    return portfolio_solve(rules, options=options, game=game)
