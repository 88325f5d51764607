"""Benchmark of following the hint: deals played from the deal to the end by always playing `kallisti play`'s hint.

Usage: python benchmarks/hints.py [--game GAME --seeds K|A-B|A,B,...] [--jobs J]

Each deal is played on a fresh game by asking for the hint at every position, as the `hint` command of `kallisti
play` computes it (`hint_with_source`, the function that command calls), and playing it, until the game is won or
lost or the hint has no move to offer (every move goes back to a position already visited, or none is left). For
each deal it prints the moves played, how many of them led to a position the game had already stood in (by the
state key the hint itself compares, `Game.visited_positions`; the target is 0), the result (won, lost or stuck),
how many hints followed a winning line and how many were best guesses, the positions the hint's searches visited in
all and the CPU seconds; and whether the solver within the hint's budget (`kallisti solve GAME --seed N --states
2000`) finds a win from the deal. A summary counts the deals with a repeated position (target 0), the deals the
solver wins within that budget but hint-following does not (target 0), and the deals won.

Without `--game`: Forty Thieves seeds 1..20 and Spider seeds 1..5. `--seeds` is a count (1..K), a range A-B or a
list; `--jobs J` plays J deals at a time in worker processes (default 1).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from kallisti.interpreter.game import Game  # noqa: E402
from kallisti.model.ruleset import load_ruleset  # noqa: E402
from kallisti.solver.solve import WON, SearchOptions, solve  # noqa: E402
from kallisti.solver.strategies import HINT_STATES, _planned, hint_with_source  # noqa: E402

DEFAULT = [("forty-thieves", range(1, 21)), ("spider", range(1, 6))]
CAP = 5_000  # moves; the hint never revisits a position, so a deal reaching this would itself be a finding


@dataclass(frozen=True)
class Followed:
    game: str
    seed: int
    moves: int
    repeats: int  # moves that led to a position the game had already stood in
    result: str  # won, lost, stuck (the hint offered no move) or capped
    why: str  # the last hint's words when stuck, the loss's reason when lost
    from_line: int  # hints that followed a winning line
    guesses: int  # best guesses of the greedy measure
    searched: int  # positions the hint's searches visited, all hints together
    cpu: float
    solvable: bool  # `solve` within HINT_STATES positions from the deal finds a win
    solve_states: int


def follow(game_name: str, seed: int) -> Followed:
    """Deal `seed` of `game_name` played by the hint alone to its end, and the solver's verdict on it at the hint's
    budget."""
    rules = load_ruleset(game_name)
    start = time.process_time()
    game = Game(rules, seed=seed)
    seen = {game.state.key()}
    repeats = from_line = guesses = searched = 0
    result, why = "capped", ""
    while game.moves_made < CAP:
        status = game.status()
        if status.outcome != "playing":
            result, why = status.outcome, status.reason or ""
            break
        # A hint that goes on along the line an earlier one kept searches nothing; any other runs a new search.
        searches = _planned(game) is None
        h = hint_with_source(game)
        if h.move is None:
            result, why = "stuck", h.why
            break
        if searches:
            searched += h.positions
        if h.source == "line":
            from_line += 1
        else:
            guesses += 1
        game.play(h.move)
        key = game.state.key()
        repeats += key in seen
        seen.add(key)
    cpu = time.process_time() - start
    found = solve(rules, seed, SearchOptions(states=HINT_STATES))
    return Followed(game_name, seed, game.moves_made, repeats, result, why, from_line, guesses, searched, cpu,
                    found.verdict == WON, found.states)


def _follow(task: tuple[str, int]) -> Followed:
    return follow(*task)


class _Inline:
    """Plays the deals in this process, one after the other, with the pool's `map` (`--jobs 1`)."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    @staticmethod
    def map(fn, tasks):
        return (fn(t) for t in tasks)


def parse_seeds(text: str) -> list[int]:
    if "," in text:
        return [int(s) for s in text.split(",") if s.strip()]
    if "-" in text:
        low, high = text.split("-", 1)
        return list(range(int(low), int(high) + 1))
    return list(range(1, int(text) + 1))


HEADER = (f"{'game':14} {'seed':>4} {'moves':>6} {'repeats':>7} {'result':7} {'line':>5} {'guess':>5} "
          f"{'searched':>9} {'cpu s':>7}  solve within {HINT_STATES} positions")


def row(r: Followed) -> str:
    verdict = f"won ({r.solve_states} positions)" if r.solvable else f"no win found ({r.solve_states} positions)"
    text = (f"{r.game:14} {r.seed:>4} {r.moves:>6} {r.repeats:>7} {r.result:7} {r.from_line:>5} {r.guesses:>5} "
            f"{r.searched:>9,} {r.cpu:>7.1f}  {verdict}")
    return text + (f"\n{'':20} {r.result}: {r.why}" if r.result in ("stuck", "lost") else "")


def summary(results: list[Followed]) -> None:
    for name in dict.fromkeys(r.game for r in results):
        mine = [r for r in results if r.game == name]
        print(f"{name}: {len(mine)} deals, {sum(r.result == 'won' for r in mine)} won, "
              f"{sum(r.result == 'stuck' for r in mine)} stuck, {sum(r.result == 'lost' for r in mine)} lost, "
              f"{sum(r.result == 'capped' for r in mine)} capped; {sum(r.moves for r in mine):,} moves, "
              f"{sum(r.repeats for r in mine)} repeats, {sum(r.from_line for r in mine):,} hints from a winning line, "
              f"{sum(r.guesses for r in mine):,} best guesses, {sum(r.searched for r in mine):,} positions searched, "
              f"{sum(r.cpu for r in mine):.0f} CPU s; solve within {HINT_STATES} positions wins "
              f"{sum(r.solvable for r in mine)}")
    repeated = [r for r in results if r.repeats]
    missed = [r for r in results if r.solvable and r.result != "won"]
    print(f"deals with a repeated position: {len(repeated)} (target 0){_names(repeated)}")
    print(f"deals solve wins within {HINT_STATES} positions but hint-following does not: {len(missed)} (target 0)"
          f"{_names(missed)}")
    print(f"deals won: {sum(r.result == 'won' for r in results)} of {len(results)}")


def _names(results: list[Followed]) -> str:
    return ": " + ", ".join(f"{r.game} {r.seed}" for r in results) if results else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", help="one game (default: forty-thieves 1..20 and spider 1..5)")
    parser.add_argument("--seeds", default="20", help="with --game: a count K (1..K), a range A-B or a list A,B,...")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    plan = [(args.game, parse_seeds(args.seeds))] if args.game else DEFAULT
    tasks = [(name, seed) for name, seeds in plan for seed in seeds]
    start = time.perf_counter()
    print(HEADER)
    results = []
    # Each deal's row is printed as it ends (in the order of the deals), so a long run shows its progress.
    with ProcessPoolExecutor(args.jobs) if args.jobs > 1 else _Inline() as pool:
        for r in pool.map(_follow, tasks):
            print(row(r), flush=True)
            results.append(r)
    print()
    summary(results)
    print(f"in {time.perf_counter() - start:.0f} s wall clock, {args.jobs} at a time")


if __name__ == "__main__":
    main()
