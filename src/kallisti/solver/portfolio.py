"""A portfolio of searches sharing one budget, run in turn: the first to find a win, or to search every position, decides."""

from __future__ import annotations

import time
from dataclasses import replace

from kallisti.interpreter.game import Game
from kallisti.solver.bestfirst import CELL_WEIGHTS, WEIGHTS, BestFirst, estimates_differ
from kallisti.solver.clean import written
from kallisti.solver.depth_first import BEST_FIRST, NO_WIN, UNKNOWN, WON, SearchOptions, Solution, _Search, _Stop

SLICE = 1_000  # positions each search is given per turn


def portfolio_solve(rules, seed: int | None = None, options: SearchOptions | None = None,
                    game: Game | None = None) -> Solution:
    """Search the deal `seed` of `rules` (or the position of `game`, left as it was) with the depth-first search and
    the best-first search in turn, a slice of positions each, until one finds a win or proves there is none.

    The two see the same positions in different orders: the depth-first search follows the move order to the
    end of a line and proves losses cheaply where lines are short; the best-first search jumps to whatever
    position looks nearest a win, and finds the wins that lie off the move order's first lines. Each keeps its
    own table of positions (neither's "seen" means "searched to the end" for the other), and either one
    running out of positions is a proof that no win exists. The budget (`options.states`) counts the positions
    of both, so the verdict is the same on every machine. Where the game has cells (a group that builds nothing),
    a second best-first search weighs them apart (`bestfirst.CELL_WEIGHTS`), and the two share the best-first
    search's half of the positions.
    """
    options = options or SearchOptions()
    game = game or Game(rules, seed=seed)
    start = time.monotonic()
    searches = _Portfolio(game, options)
    try:
        verdict, moves, why = searches.run()
    finally:
        searches.close()
    line = written(game, moves)
    return Solution(verdict, line, searches.states, time.monotonic() - start, why, tuple(moves))


class _Portfolio:
    def __init__(self, game: Game, options: SearchOptions):
        self.game = game
        # Each search enforces the memory and time limits itself; the positions budget is the portfolio's.
        own = replace(options, states=options.states + SLICE)
        self.budget = options.states
        self.dfs = _Search(game, own)
        self.dfs_line: list[int] = []
        # The best-first searches: one on the progress estimate, and one weighing cells apart where the game has any.
        bests = [BestFirst(game.fork(), own)]
        if estimates_differ(game, self.dfs.shape, WEIGHTS, CELL_WEIGHTS):
            bests.append(BestFirst(game.fork(), own, CELL_WEIGHTS))
        self.best = bests[0]
        # (search, its walk, its slice of positions a turn): the depth-first search, which proves losses, is given
        # as many positions as the best-first searches together, which find wins.
        self.walks = [(b, b.walk(), SLICE // len(bests)) for b in bests]
        if options.search != BEST_FIRST:  # `--search best-first` runs the best-first searches alone
            self.walks.insert(0, (self.dfs, self.dfs.walk(self.dfs_line), SLICE))

    @property
    def states(self) -> int:
        return sum(search.states for search, _, _ in self.walks)

    def run(self) -> tuple[str, list[int], str | None]:
        """(verdict, the winning moves from the start, why the verdict is unknown)."""
        try:
            while self.states < self.budget:
                for search, walk, share in self.walks:
                    search.pause = search.states + min(share, self.budget - self.states)
                    if search.pause <= search.states:
                        break
                    try:
                        next(walk)
                    except StopIteration as done:
                        return self._verdict(search, done.value)
        except _Stop as stop:
            return UNKNOWN, [], stop.why
        return UNKNOWN, [], "states"

    def _verdict(self, search, result) -> tuple[str, list[int], str | None]:
        if search is self.dfs:
            return (WON, list(self.dfs_line), None) if result else (NO_WIN, [], None)
        return (NO_WIN, [], None) if result is None else (WON, result, None)

    def close(self) -> None:
        """Leave the game where the search found it: the depth-first search walks the game itself."""
        for _ in self.dfs_line:
            self.game.take_back_step()
        self.dfs_line.clear()

