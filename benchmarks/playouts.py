"""Benchmark: random playouts of every shipped patience beside Forty Thieves, and `simulate --strategy random` beside
the engine's own playout loop.

Usage: python benchmarks/playouts.py [--deals N] [--rounds R] [--cap MOVES] [--games NAME,...] [--simulate-deals N]

Part one: for every shipped patience (a ruleset of src/kallisti/rulesets/ with piles, played alone: no match, no
table), `Game.playout` plays random legal moves (`random.Random(i).randrange`) from kallisti's deals 1..N until the
game ends or the cap, as benchmarks/run.py does for Forty Thieves; each round times every game in turn, and a game's
figure is its moves per CPU second (`time.process_time`, so other work on a shared machine counts less), the median
of the rounds with the min and max. The ratio beside it is the median of the per-round ratios to Forty Thieves' rate
timed beside it deal by deal (Forty Thieves' deal i just before the game's deal i, for every game), which holds up
when the machine's speed drifts within a round.

For every game below a third of Forty Thieves' rate, a last table says where its time goes: the deal's set-up a deal
(shuffle, deal, filing every pile), play a move, moves a deal, and three ratios to Forty Thieves: the one play alone
would give, the one set-up alone would give (the most a game of so few moves a deal could reach, however fast its
moves were), and deals a second.

Part two: `kallisti simulate forty-thieves --strategy random` (the `simulate` function it calls, played in this
process) over seeds 1..N, against the engine's loop making the same moves: `Game(rules, seed=s).playout` with the
strategy's own random stream (`Rng(s, 0, STREAM_STRATEGY).below`) and the same cap. Both count the player moves
made; the ratio is simulate's rate over the loop's, the median of the rounds (which of the two goes first
alternates from round to round).

Seeds are fixed, so every run makes the same moves; loading and compiling a ruleset happens once, before timing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from kallisti.interpreter.game import Game  # noqa: E402
from kallisti.interpreter.rng import STREAM_STRATEGY, Rng  # noqa: E402
from kallisti.model.ruleset import load_ruleset  # noqa: E402
from kallisti.solver.simulate import simulate  # noqa: E402

RULESETS = Path(__file__).resolve().parent.parent / "src" / "kallisti" / "rulesets"
REFERENCE = "forty-thieves"


def patiences() -> list[str]:
    """The shipped rulesets played alone: piles to play on, no match between seats, no card table."""
    names = []
    for path in sorted(RULESETS.iterdir()):
        if path.suffix not in (".yaml", ".rules"):
            continue
        rules = load_ruleset(path.stem)
        if rules.pile_count and rules.match is None and rules.table is None:
            names.append(path.stem)
    return names


def random_playouts(rules, deals: int, cap: int) -> tuple[int, float]:
    """Moves made and CPU seconds taken by random playouts of deals 1..deals."""
    start = time.process_time()
    moves = 0
    for seed in range(1, deals + 1):
        game = Game(rules, seed=seed)
        moves += game.playout(random.Random(seed).randrange, cap)
    return moves, time.process_time() - start


def paired_playouts(rules, reference, deals: int, cap: int) -> tuple[int, float, int, float]:
    """`random_playouts` of a game and of the reference game, interleaved deal by deal (the reference's deal i, then
    the game's deal i): moves and CPU seconds of the game, then of the reference."""
    clock = time.process_time
    moves = seconds = ref_moves = ref_seconds = 0
    for seed in range(1, deals + 1):
        start = clock()
        ref_moves += Game(reference, seed=seed).playout(random.Random(seed).randrange, cap)
        middle = clock()
        moves += Game(rules, seed=seed).playout(random.Random(seed).randrange, cap)
        end = clock()
        ref_seconds += middle - start
        seconds += end - middle
    return moves, seconds, ref_moves, ref_seconds


def engine_loop(rules, deals: int, cap: int) -> tuple[int, float]:
    """The engine's loop making the moves `simulate --strategy random` makes: its deals, its random stream."""
    start = time.process_time()
    moves = 0
    for seed in range(1, deals + 1):
        game = Game(rules, seed=seed)
        moves += game.playout(Rng(seed, 0, STREAM_STRATEGY).below, cap)
        game.status()  # as simulate asks how each deal ended
    return moves, time.process_time() - start


def simulated(rules, deals: int, cap: int) -> tuple[int, float]:
    start = time.process_time()
    result = simulate(rules, deals, 1, "random", cap)
    return result.moves, time.process_time() - start


def spread(values: list[float], fmt: str) -> str:
    return f"{format(statistics.median(values), fmt)} ({format(min(values), fmt)}..{format(max(values), fmt)})"


def measure(names: list[str], deals: int, rounds: int, cap: int, simulate_deals: int) -> dict:
    """Print both parts; return the figures benchmarks/run.py checks against issue 24's targets: each game's median
    ratio to Forty Thieves (`ratios`) and simulate's median ratio to the engine loop (`simulate`, None if skipped)."""
    if REFERENCE not in names:
        names = [REFERENCE, *names]
    rules = {name: load_ruleset(name) for name in names}
    rates: dict[str, list[float]] = {name: [] for name in names}
    ratios: dict[str, list[float]] = {name: [] for name in names}
    made: dict[str, int] = {}
    for _ in range(rounds):
        for name in names:
            if name == REFERENCE:
                moves, seconds = random_playouts(rules[name], deals, cap)
            else:  # Forty Thieves beside each game, deal by deal, for the game's ratio
                moves, seconds, ref_moves, ref_seconds = paired_playouts(rules[name], rules[REFERENCE], deals, cap)
                rates[REFERENCE].append(ref_moves / ref_seconds)
                made[REFERENCE] = ref_moves
            rates[name].append(moves / seconds)
            made[name] = moves
            ratios[name].append(rates[name][-1] / rates[REFERENCE][-1])
    print(f"Random playouts: {deals} deals x {rounds} rounds, cap {cap} moves; moves per CPU second, "
          "median of rounds (min..max); ratio to Forty Thieves, median of rounds (min..max)")
    for name in sorted(names, key=lambda n: -statistics.median(rates[n])):
        print(f"  {name:26} {spread(rates[name], '>9,.0f')} moves/s   x{spread(ratios[name], '.2f')}   "
              f"{made[name]:>7,} moves a round")
    others = [n for n in names if n != REFERENCE]
    if others:
        slowest = min(others, key=lambda n: statistics.median(ratios[n]))
        print(f"  slowest beside Forty Thieves: {slowest}, x{statistics.median(ratios[slowest]):.2f}")
    figures = {"ratios": {n: statistics.median(ratios[n]) for n in others}, "simulate": None}
    below = [n for n in others if figures["ratios"][n] < 1 / 3]
    if below:
        split_costs([REFERENCE, *below], rules, deals, cap)
    if simulate_deals:
        forty = rules[REFERENCE]
        sim, loop, ratio = [], [], []
        for i in range(rounds):
            if i % 2:
                lm, lt = engine_loop(forty, simulate_deals, cap)
                sm, st = simulated(forty, simulate_deals, cap)
            else:
                sm, st = simulated(forty, simulate_deals, cap)
                lm, lt = engine_loop(forty, simulate_deals, cap)
            sim.append(sm / st)
            loop.append(lm / lt)
            ratio.append(sim[-1] / loop[-1])
        print(f"simulate --strategy random on Forty Thieves: {simulate_deals} deals x {rounds} rounds, "
              f"cap {cap} moves")
        print(f"  simulate     {spread(sim, '>9,.0f')} moves/s  ({sm:,} moves a round)")
        print(f"  engine loop  {spread(loop, '>9,.0f')} moves/s  ({lm:,} moves a round)")
        print(f"  ratio        {spread(ratio, '.2f')}  (simulate / engine loop)")
        figures["simulate"] = statistics.median(ratio)
    return figures


def split_costs(names: list[str], rules: dict, deals: int, cap: int) -> None:
    """Print where a playout's time goes for each game: dealing (`Game(...)`: the shuffle, the deal, filing every
    pile) and playing, per deal and per move, one pass over the deals; a game whose random player is stuck after a
    few dozen moves spends much of a deal's time dealing it. Beside them, three ratios to Forty Thieves: the one play
    alone would give (the set-up free), the one set-up alone would give (play free: a short game's bound, however
    fast its moves), and deals a second (what `simulate` over many deals waits for)."""
    print("Where the time goes (one pass): the deal's set-up a deal, play a move, moves a deal; the ratio to Forty "
          "Thieves play alone would give, set-up alone would give, and of deals a second")
    clock = time.process_time
    costs = {}
    for name in names:
        setup = play = 0.0
        moves = 0
        for seed in range(1, deals + 1):
            start = clock()
            game = Game(rules[name], seed=seed)
            middle = clock()
            moves += game.playout(random.Random(seed).randrange, cap)
            setup += middle - start
            play += clock() - middle
        costs[name] = (setup, play, max(moves, 1))
    ref_setup, ref_play, ref_moves = costs[REFERENCE]
    ref_move = (ref_setup + ref_play) / ref_moves  # Forty Thieves' time a move, set-up included
    for name in names:
        setup, play, moves = costs[name]
        alone = (ref_play / ref_moves) / (play / moves) if play else 0.0
        bound = ref_move / (setup / moves) if setup else 0.0
        per_deal = (ref_setup + ref_play) / (setup + play) if setup + play else 0.0
        print(f"  {name:26} set-up {1e6 * setup / deals:7.0f} us a deal   play {1e6 * play / moves:6.2f} us a move"
              f"   {moves / deals:6.0f} moves a deal   play alone x{alone:.2f}   set-up alone x{bound:.2f}"
              f"   deals a second x{per_deal:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20, help="deals per game and round (seeds 1..N)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cap", type=int, default=1000, help="most moves a playout makes")
    parser.add_argument("--games", default="", help="comma-separated games to time (default: every shipped patience)")
    parser.add_argument("--simulate-deals", type=int, default=200, help="Forty Thieves deals for part two (0: skip it)")
    args = parser.parse_args()
    names = [n.strip() for n in args.games.split(",") if n.strip()] or patiences()
    measure(names, args.deals, args.rounds, args.cap, args.simulate_deals)


if __name__ == "__main__":
    main()
