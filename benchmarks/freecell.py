"""Benchmark of the solver on Microsoft FreeCell deals against fc-solve: agreement, the share resolved, positions, time.

Usage: python benchmarks/freecell.py [--first A] [--last B] [--states N] [--jobs J] [--fc-states M] [--each]

Deals A..B (default 1..1000, laid out as `--deal ms:N` lays them out) are searched by kallisti's solver, as
`kallisti solve freecell --deal ms:N --states N` searches them, within N positions each (default 200,000), J deals
at a time in worker processes (default 2); each is also judged by fc-solve (Debian's freecell-solver-bin, single-card
moves only: benchmarks/fcsolve.py) within M positions, when it is installed. Printed: the agreement (deals where
both reached a verdict and the verdicts are equal, of those where both reached one), kallisti's resolved share, its
positions (min/median/max) and seconds (total, median; by the clock, and of the CPU, which a shared machine does not
inflate), fc-solve's, and every disagreement and deal left unknown by number; `--each` adds a line a deal (CPU seconds).
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing
import resource
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from fcsolve import DEFAULT_ITERATIONS, FC_SOLVE, FcSolveMissing, judge, ms_game, tool  # noqa: E402 (beside this file)
from kallisti.model.ruleset import load_ruleset  # noqa: E402
from kallisti.solver.solve import NO_WIN, UNKNOWN, WON, SearchOptions, solve  # noqa: E402


@functools.cache
def freecell():
    return load_ruleset("freecell")


def play(task: tuple[int, int, int | None]) -> dict:
    """In a worker: deal `number` through kallisti's solver and, unless `fc_states` is None, through fc-solve."""
    number, states, fc_states = task
    rules = freecell()
    cpu = time.process_time()
    ours = solve(rules, options=SearchOptions(states=states), game=ms_game(rules, number))
    row = {"deal": number, "verdict": ours.verdict, "states": ours.states, "seconds": ours.seconds,
           "cpu": time.process_time() - cpu}
    if fc_states is not None:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        theirs = judge(rules, number, fc_states)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        row.update(fc_verdict=theirs.verdict, fc_states=theirs.states, fc_seconds=theirs.seconds,
                   fc_cpu=after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return row


def times(rows: list[dict], wall: str, cpu: str) -> str:
    """Total and median seconds, by the clock and of the CPU (the clock counts the waits of a shared machine)."""
    clock, used = [r[wall] for r in rows], [r[cpu] for r in rows]
    return (f"total {sum(clock):,.1f}, median {statistics.median(clock):.2f} "
            f"(CPU: total {sum(used):,.1f}, median {statistics.median(used):.2f})")


def spread(values: list) -> str:
    return f"min {min(values):,}, median {statistics.median(values):,.0f}, max {max(values):,}"


def tally(rows: list[dict], key: str) -> str:
    counts = {v: sum(1 for r in rows if r[key] == v) for v in (WON, NO_WIN, UNKNOWN)}
    resolved = counts[WON] + counts[NO_WIN]
    return (f"{resolved} of {len(rows)} ({100 * resolved / len(rows):.1f}%): {counts[WON]} won, {counts[NO_WIN]} no win, "
            f"{counts[UNKNOWN]} unknown")


def numbers(rows: list[dict]) -> str:
    return ", ".join(str(r["deal"]) for r in rows) or "none"


def report(rows: list[dict], fc: bool, each: bool) -> None:
    if each:
        for r in rows:
            theirs = f"  fc-solve {r['fc_verdict']:8} {r['fc_states']:>9,} positions {r['fc_cpu']:6.2f} s" if fc else ""
            print(f"  ms:{r['deal']:<6} kallisti {r['verdict']:8} {r['states']:>9,} positions {r['cpu']:7.2f} s{theirs}")
    if fc:
        both = [r for r in rows if UNKNOWN not in (r["verdict"], r["fc_verdict"])]
        agree = sum(1 for r in both if r["verdict"] == r["fc_verdict"])
        print(f"  agreement: {agree} of {len(both)} deals where both reached a verdict"
              + (f" ({100 * agree / len(both):.1f}%)" if both else ""))
    print(f"  kallisti resolved {tally(rows, 'verdict')}")
    print(f"  kallisti positions: {spread([r['states'] for r in rows])}")
    print(f"  kallisti seconds: {times(rows, 'seconds', 'cpu')}")
    if fc:
        print(f"  fc-solve resolved {tally(rows, 'fc_verdict')}")
        print(f"  fc-solve positions: {spread([r['fc_states'] for r in rows])}")
        print(f"  fc-solve seconds: {times(rows, 'fc_seconds', 'fc_cpu')}")
        wrong = [r for r in rows if UNKNOWN not in (r["verdict"], r["fc_verdict"]) and r["verdict"] != r["fc_verdict"]]
        for r in wrong:
            print(f"  DISAGREEMENT ms:{r['deal']}: kallisti {r['verdict']}, fc-solve {r['fc_verdict']}")
        print(f"  disagreements: {numbers(wrong)}")
        print(f"  unknown to fc-solve: {numbers([r for r in rows if r['fc_verdict'] == UNKNOWN])}")
    print(f"  unknown to kallisti: {numbers([r for r in rows if r['verdict'] == UNKNOWN])}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=1, help="the first Microsoft deal")
    parser.add_argument("--last", type=int, default=1000, help="the last Microsoft deal")
    parser.add_argument("--states", type=int, default=200_000, help="positions kallisti's solver may search a deal")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument("--fc-states", type=int, default=DEFAULT_ITERATIONS, help="positions fc-solve may check a deal")
    parser.add_argument("--each", action="store_true", help="also print a line a deal")
    args = parser.parse_args()
    try:
        tool(FC_SOLVE)
        fc = True
    except FcSolveMissing as missing:
        print(f"fc-solve is not run: {missing}")
        fc = False
    deals = range(args.first, args.last + 1)
    print(f"FreeCell, Microsoft deals {args.first}..{args.last}: kallisti within {args.states:,} positions a deal"
          + (f", fc-solve within {args.fc_states:,}" if fc else "") + f", {args.jobs} at a time")
    start = time.perf_counter()
    tasks = [(n, args.states, args.fc_states if fc else None) for n in deals]
    if args.jobs == 1:
        rows = [play(t) for t in tasks]
    else:
        with ProcessPoolExecutor(args.jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
            rows = list(pool.map(play, tasks, chunksize=1))
    report(rows, fc, args.each)
    print(f"  in {time.perf_counter() - start:,.0f} s")


if __name__ == "__main__":
    main()
