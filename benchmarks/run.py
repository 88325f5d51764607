"""Benchmark: random playouts of Forty Thieves through kallisti and through the hand-written reference.

Usage: python benchmarks/run.py [--deals N] [--rounds R] [--cap MOVES]

Both play random legal moves from the same deals (kallisti's own shuffle of seeds 1..N) until no
move is left or the cap; each round times the two in turn, and the ratio quoted is the median of the
per-round ratios (kallisti moves/s ÷ reference moves/s), which holds up when the machine's speed drifts.
Loading and compiling the ruleset happens once, before timing, as it does in any real use.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import reference_forty_thieves as reference  # noqa: E402

from kallisti.interpreter.game import Game  # noqa: E402
from kallisti.interpreter.state import shuffled_order  # noqa: E402
from kallisti.model.ruleset import load_ruleset  # noqa: E402


def run_kallisti(rules, orders, cap: int) -> tuple[int, float]:
    start = time.perf_counter()
    moves = 0
    for i, order in enumerate(orders):
        game = Game(rules, order=order)
        moves += game.playout(random.Random(i).randrange, cap)
    return moves, time.perf_counter() - start


def run_reference(decks, cap: int) -> tuple[int, float]:
    start = time.perf_counter()
    moves = 0
    for i, deck in enumerate(decks):
        moves += reference.playout(deck, random.Random(i).randrange, cap)
    return moves, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cap", type=int, default=1000)
    args = parser.parse_args()
    rules = load_ruleset("forty-thieves")
    deck = rules.deck
    orders = [shuffled_order(deck.size, seed) for seed in range(1, args.deals + 1)]
    decks = [[(deck.rank[c] + 1, deck.suit[c]) for c in order] for order in orders]
    ratios, ours, theirs = [], [], []
    for _ in range(args.rounds):
        km, kt = run_kallisti(rules, orders, args.cap)
        rm, rt = run_reference(decks, args.cap)
        ours.append(km / kt)
        theirs.append(rm / rt)
        ratios.append((km / kt) / (rm / rt))
    print(f"Forty Thieves random playouts: {args.deals} deals x {args.rounds} rounds, cap {args.cap} moves")
    print(f"kallisti   {statistics.median(ours):>10,.0f} moves/s  ({km:,} moves a round)")
    print(f"reference  {statistics.median(theirs):>10,.0f} moves/s  ({rm:,} moves a round)")
    print(f"ratio      {statistics.median(ratios):10.2f}  (kallisti / reference, median of rounds; min {min(ratios):.2f}, max {max(ratios):.2f})")


if __name__ == "__main__":
    main()
