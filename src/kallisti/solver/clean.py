"""A winning line with its cycles cut: every stretch of moves that comes back to a position it passed is removed."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence

from kallisti.interpreter.game import Game
from kallisti.interpreter.notation import describe
from kallisti.solver.depth_first import SearchOptions, _Search


def clean_line(rules, moves: Sequence[int], seed: int | None = None, game: Game | None = None) -> tuple[int, ...]:
    """The winning line `moves` (engine move numbers) from deal `seed`, or from the position of `game` (left as it
    was), with every cycle cut: wherever a position comes back, the moves between its first and last visit go.

    Positions are compared by the solver's key without its symmetry (pile order kept, so the rest of the line
    replays from the earlier position move for move), which includes the face-down counts and the redeals that
    matter; failing that, by the game's exact state. The cleaned line is replayed, and returned only when every
    move is legal, no position repeats and it ends won; otherwise the line comes back as it was.
    """
    start = game if game is not None else Game(rules, seed=seed)
    moves = tuple(moves)
    for key in (position_key, _exact_key):
        keys = _replay(start, moves, key)
        if keys is None:  # the line itself does not replay to a win: leave it alone
            return moves
        cut = _cut(moves, keys)
        if len(cut) == len(moves):
            return moves
        if _replay(start, cut, key, distinct=True) is not None:
            return cut
    return moves


def clean_solution(rules, solution, game: Game):
    """`solution` (a `Solution` won from the position of `game`, which is left as it was) with its line cleaned and
    written again; the same solution when there is nothing to cut."""
    if solution.verdict != "won" or not solution.moves:
        return solution
    cut = clean_line(rules, solution.moves, game=game)
    if len(cut) == len(solution.moves):
        return solution
    return replace(solution, moves=cut, line=written(game, cut))


def written(game: Game, moves: Sequence[int]) -> tuple[str, ...]:
    """The moves as the player types them, each described in the position it is made in (on a fork of `game`)."""
    twin = game.fork()
    out = []
    for m in moves:
        out.append(describe(twin, m, exact=True))
        twin._step(m)
    return tuple(out)


def _cut(moves: tuple[int, ...], keys: list) -> tuple[int, ...]:
    """From each position, jump to its last visit on the line and go on from there."""
    last = {k: i for i, k in enumerate(keys)}
    out, i = [], 0
    while i < len(moves):
        j = last[keys[i]]
        if j > i:
            i = j
            continue
        out.append(moves[i])
        i += 1
    return tuple(out)


def _replay(start: Game, moves: Sequence[int], key: Callable, distinct: bool = False) -> list | None:
    """The key of every position along the line, the first included, when each move is legal where it is made,
    the game is still playing before each and won after the last (and, if `distinct`, no key repeats); else None."""
    game = start.fork()
    keyer = key(game)
    keys = [keyer()]
    for m in moves:
        legal = game.legal_moves()
        if m not in legal or game.status(legal).outcome != "playing":
            return None
        game._step(m)
        keys.append(keyer())
    if game.status().outcome != "won":
        return None
    if distinct and len(set(keys)) != len(keys):
        return None
    return keys


def position_key(game: Game) -> Callable:
    """The solver's key of the position of `game` (a function of no argument), without symmetry: piles stay in place."""
    return _Search(game, SearchOptions(symmetry=False, safe_moves=False))._key


def _exact_key(game: Game) -> Callable:
    return lambda: game.state.key()
