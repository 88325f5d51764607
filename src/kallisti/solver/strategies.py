"""Move-choosing strategies (random, greedy, search) and hints; each draws from its own random stream."""

from __future__ import annotations

from dataclasses import dataclass

from kallisti.interpreter.rng import Rng, STREAM_STRATEGY
from kallisti.solver import solve as solver
from kallisti.solver.measure import fresh_moves, move_score
from kallisti.solver.search import SearchStrategy

STRATEGIES = ("random", "greedy", "search")


class RandomStrategy:
    """Uniform among the legal moves."""

    name = "random"

    def __init__(self, seed: int):
        self.rng = Rng(seed, 0, STREAM_STRATEGY)

    def choose(self, game, moves: list[int]) -> int:
        return moves[self.rng.below(len(moves))]


class GreedyStrategy:
    """Prefers moves to foundations, then moves that turn up or clear a pile; deals last; never goes back to a position.

    It remembers the positions of the game it has been asked to move in (`seen`, state keys, as `SearchStrategy`
    keeps `been`) and chooses only among the moves whose step leads to a position not among them (`fresh_moves`,
    which the hint uses too). When every move would lead back, a patience played alone has come to a standstill for
    this player: it deals from the stock if the rules let it, and otherwise concedes (`choose` returns None, and
    `simulate` counts the deal lost, as it does a pass through the stock that changed nothing). Under the state
    key a deal or a redeal always leads to a new position (the stock is shorter, or one more redeal is done), so
    in practice a standstill is a concession. A bot at a match cannot concede: it plays the move it likes best.
    """

    name = "greedy"

    def __init__(self, seed: int):
        self.rng = Rng(seed, 0, STREAM_STRATEGY)
        self.game = None
        self.seen: set[tuple] = set()  # positions this game has already been in

    def choose(self, game, moves: list[int]) -> int | None:
        if game is not self.game:
            self.game, self.seen = game, set()
        self.seen.add(game.state.key())
        tiers: dict[int, list[int]] = {}
        for m in moves:
            tiers.setdefault(move_score(game, m), []).append(m)
        for score in sorted(tiers, reverse=True):  # moves are stepped only down to the best tier with a new position
            fresh = fresh_moves(game, tiers[score], self.seen)
            if fresh:
                return fresh[self.rng.below(len(fresh))]
        stuck = [m for m in moves if game.decode(m)[0] in ("deal", "redeal")]  # from a stock, wherever it leads
        if not stuck:
            if game.rules.match is None:
                return None
            stuck = moves
        top = max(move_score(game, m) for m in stuck)
        best = [m for m in stuck if move_score(game, m) == top]
        return best[self.rng.below(len(best))]


def make_strategy(name: str, seed: int):
    if name == "random":
        return RandomStrategy(seed)
    if name == "greedy":
        return GreedyStrategy(seed)
    if name == "search":
        return SearchStrategy(seed)
    raise ValueError(f"unknown strategy '{name}'; choose from {', '.join(STRATEGIES)}")


HINT_STATES = 2000  # positions the solver may search for a hint before the greedy measure answers instead


@dataclass(frozen=True)
class Hint:
    """A hint and where it comes from.

    `source` is "line" (the next move of a winning line the solver found, in `positions` positions),
    "guess" (the move the greedy measure likes best: the solver found no win within `positions`
    positions, or a match, where it does not search and `positions` is 0), "circle" (every legal move
    goes back to a position the game has already been in; no move) or "none" (no legal move is left).
    `why` says it in words, as the terminal and the web API show it.
    """

    move: int | None
    source: str
    positions: int
    why: str


def hint(game) -> int | None:
    """The move of `hint_with_source` alone: a good legal move, or None."""
    return hint_with_source(game).move


def hint_with_source(game) -> Hint:
    """A good legal move for the player and where it comes from (deterministic).

    In a patience played alone, the next move of a win the solver finds within HINT_STATES
    positions (it knows the face-down cards and the stock, and says nothing of them but the move).
    The rest of that win is kept, so a player who follows the hints follows one line to its end
    instead of a new search's each time. Otherwise the move the greedy measure likes best. In a
    patience a hint never leads back to a position the game has already been in since the deal: a
    line that would is not followed, the greedy measure passes over such moves, and when every move
    would, the hint says so and suggests none. Asking changes nothing in the game but the plan it
    keeps: not its position, its history, nor the order of its legal moves.
    """
    moves = game.legal_moves()
    if not moves:
        return Hint(None, "none", 0, "no move is left")
    if game.rules.match is not None:  # the same cards with another player to move are not the same position
        return Hint(_best(game, moves), "guess", 0, "best guess by the greedy measure")
    visited = game.visited_positions()
    planned = _planned(game)
    line, searched, verdict = (planned[0], planned[1], None) if planned else (None, 0, None)
    # The search and the steps below are made on forks: searching the game itself would leave its position but
    # not the order of its legal moves, so a hint would change where `t7 f` or a double-click sends a card.
    if line is None:
        twin = game.fork()
        found = solver.solve(twin.rules, options=solver.SearchOptions(states=HINT_STATES), game=twin)
        searched, verdict = found.states, found.verdict
        if found.verdict == solver.WON and found.moves:
            from kallisti.solver.clean import clean_line

            line = list(clean_line(twin.rules, found.moves, game=twin))
    if line and line[0] in moves:
        after = _line_positions(game, line)
        if after is not None and visited.isdisjoint(after):
            game.hint_plan = (after[0], line[1:], searched)  # where the line goes next, from which position, found how
            return Hint(line[0], "line", searched, f"follows a winning line found in {searched} positions")
    fresh = fresh_moves(game.fork(), moves, visited)
    if not fresh:
        return Hint(None, "circle", searched, "every move goes back to a position already visited")
    if line:
        why = "best guess: the winning line found goes back to a position already visited"
    elif verdict == "no win":
        why = f"best guess: no win from here, all {searched} positions searched"
    else:
        why = f"best guess: no win found within {searched} positions"
    return Hint(_best(game, fresh), "guess", searched, why)


def _best(game, moves: list[int]) -> int:
    return max(moves, key=lambda m: (move_score(game, m), -m))  # ties: the lower move number, whatever the engine's order


def _line_positions(game, line: list[int]) -> list | None:
    """The state key after each move of `line` played from the game's position (on a fork), or None if one is
    not legal there."""
    twin, keys = game.fork(), []
    for m in line:
        if m not in twin.legal_moves():
            return None
        twin._step(m)
        keys.append(twin.state.key())
    return keys


def _planned(game) -> tuple[list[int], int] | None:
    """The rest of the line of the last hint, when the game stands where that hint led, and the positions searched
    to find it."""
    plan = game.hint_plan
    if plan is not None and plan[0] == game.state.key() and plan[1]:
        return plan[1], plan[2]
    return None
