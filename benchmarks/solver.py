"""Benchmark of the thoughtful solver: positions per second and solve time on fixed deals, and how many
deals of a game it resolves (a win found or a loss proved) within a time limit each.

Usage: python benchmarks/solver.py [--states N] [--search S] [--resolve GAME] [--seeds K] [--seconds S] [--jobs J]

The first part searches fixed deals of Forty Thieves, Spider and Decade with a budget of N positions
each and prints the verdict, positions, seconds and positions per second (with the solver's default search, or
the one `--search` names: `depth-first` measures the depth-first search alone). The second part, with
`--resolve GAME`, solves seeds 1..K of GAME with a limit of S seconds each (and no position budget
beyond memory), J deals at a time in worker processes (as `simulate --jobs` plays them), and prints how many were resolved.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from kallisti.model.ruleset import load_ruleset  # noqa: E402
from kallisti.solver.parallel import outcomes  # noqa: E402
from kallisti.solver.simulate import LOST, SOLVER, UNKNOWN, WON, Plan  # noqa: E402
from kallisti.solver.solve import SEARCHES, SearchOptions, solve  # noqa: E402

FIXED = [("forty-thieves", 5), ("forty-thieves", 1), ("spider", 1), ("decade", 1), ("decade", 2)]


def fixed_deals(states: int, search: str) -> None:
    print(f"Solver ({search}) on fixed deals, budget {states:,} positions each")
    for game, seed in FIXED:
        rules = load_ruleset(game)
        result = solve(rules, seed, SearchOptions(states=states, search=search))
        rate = result.states / result.seconds if result.seconds else 0
        print(f"  {game:14} seed {seed:<4} {result.verdict:8} {result.states:>9,} positions {result.seconds:7.2f} s "
              f"{rate:9,.0f} positions/s")


def resolve(game: str, seeds: int, seconds: float, jobs: int) -> None:
    print(f"{game}: seeds 1..{seeds}, at most {seconds:g} s each, {jobs} at a time")
    start = time.perf_counter()
    plan = Plan(SOLVER, states=10**9, seconds=seconds)  # the time limit alone bounds each deal
    results = sorted(outcomes(load_ruleset(game), plan, list(range(1, seeds + 1)), jobs), key=lambda o: o.seed)
    counts = {v: sum(1 for o in results if o.outcome == v) for v in (WON, LOST, UNKNOWN)}
    for o in results:
        verdict = "no win" if o.outcome == LOST else o.outcome
        print(f"  seed {o.seed:<4} {verdict:8} {o.states:>10,} positions {o.seconds:7.1f} s")
    resolved = counts[WON] + counts[LOST]
    print(f"  resolved {resolved} of {seeds} ({counts[WON]} won, {counts[LOST]} no win, {counts[UNKNOWN]} unknown) "
          f"in {time.perf_counter() - start:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=20_000, help="position budget for the fixed deals")
    parser.add_argument("--search", choices=SEARCHES, default=SearchOptions.search,
                        help="the search for the fixed deals (default: the solver's)")
    parser.add_argument("--resolve", metavar="GAME", help="also count the deals of GAME resolved within --seconds")
    parser.add_argument("--seeds", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    fixed_deals(args.states, args.search)
    if args.resolve:
        resolve(args.resolve, args.seeds, args.seconds, args.jobs)


if __name__ == "__main__":
    main()
