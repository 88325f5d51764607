"""Benchmark of the thoughtful solver: positions per second and solve time on fixed deals, and how many
deals of a game it resolves (a win found or a loss proved) within a time limit each.

Usage: python benchmarks/solver.py [--states N] [--resolve GAME] [--seeds K] [--seconds S] [--jobs J]

The first part searches fixed deals of Forty Thieves, Spider and Decade with a budget of N positions
each and prints the verdict, positions, seconds and positions per second. The second part, with
`--resolve GAME`, solves seeds 1..K of GAME with a limit of S seconds each (and no position budget
beyond memory), J deals at a time in separate processes, and prints how many were resolved.
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from kallisti.model.ruleset import load_ruleset  # noqa: E402
from kallisti.solver.solve import NO_WIN, UNKNOWN, WON, SearchOptions, solve  # noqa: E402

FIXED = [("forty-thieves", 5), ("forty-thieves", 1), ("spider", 1), ("decade", 1), ("decade", 2)]


def fixed_deals(states: int) -> None:
    print(f"Solver on fixed deals, budget {states:,} positions each")
    for game, seed in FIXED:
        rules = load_ruleset(game)
        result = solve(rules, seed, SearchOptions(states=states))
        rate = result.states / result.seconds if result.seconds else 0
        print(f"  {game:14} seed {seed:<4} {result.verdict:8} {result.states:>9,} positions {result.seconds:7.2f} s "
              f"{rate:9,.0f} positions/s")


def _solve_one(args) -> tuple[int, str, int, float]:
    game, seed, seconds = args
    result = solve(load_ruleset(game), seed, SearchOptions(states=10**9, seconds=seconds))
    return seed, result.verdict, result.states, result.seconds


def resolve(game: str, seeds: int, seconds: float, jobs: int) -> None:
    print(f"{game}: seeds 1..{seeds}, at most {seconds:g} s each, {jobs} at a time")
    start = time.perf_counter()
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        results = sorted(pool.map(_solve_one, [(game, s, seconds) for s in range(1, seeds + 1)]))
    counts = {v: sum(1 for r in results if r[1] == v) for v in (WON, NO_WIN, UNKNOWN)}
    for seed, verdict, states, took in results:
        print(f"  seed {seed:<4} {verdict:8} {states:>10,} positions {took:7.1f} s")
    resolved = counts[WON] + counts[NO_WIN]
    print(f"  resolved {resolved} of {seeds} ({counts[WON]} won, {counts[NO_WIN]} no win, {counts[UNKNOWN]} unknown) "
          f"in {time.perf_counter() - start:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=20_000, help="position budget for the fixed deals")
    parser.add_argument("--resolve", metavar="GAME", help="also count the deals of GAME resolved within --seconds")
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    fixed_deals(args.states)
    if args.resolve:
        resolve(args.resolve, args.seeds, args.seconds, args.jobs)


if __name__ == "__main__":
    main()
