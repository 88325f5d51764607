"""Benchmark: random playouts of Forty Thieves through kallisti and through the hand-written reference.

Usage: python benchmarks/run.py [--deals N] [--rounds R] [--cap MOVES] [--matches M] [--no-match] [--solver-states N]
                                [--hands N] [--no-targets] [--changes-only]

Then the cost of checking a rule change (Discordian's catalogue, and FORTY_THIEVES_CHANGES below), of whole
Discordian matches between bots (none with --matches 0), of finding the
best partition of random ten-card Cripple Mr Onion hands, and the solver's speed on fixed deals.
Last, unless --no-targets: the random playouts of every shipped patience (benchmarks/playouts.py), the
start-up of four commands (benchmarks/startup.py), `simulate --jobs 2` against `--jobs 1` on 400 greedy
Forty Thieves deals, and a table of every target of issue 24 (speed for every game and command) with
its measurement and its reference.

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
    parser.add_argument("--matches", type=int, default=8, help="Discordian bot-versus-bot matches to time (default 8)")
    parser.add_argument("--no-match", action="store_true", help="leave out the rule changes and the Discordian matches")
    parser.add_argument("--changes-only", action="store_true",
                        help="only the cost of a fresh rule change, in Discordian and in Forty Thieves, and its targets")
    parser.add_argument("--hands", type=int, default=300, help="random Cripple Mr Onion hands to evaluate")
    parser.add_argument("--no-targets", action="store_true",
                        help="leave out the playouts of every game, start-up, --jobs scaling and the targets table")
    parser.add_argument("--solver-states", type=int, default=20_000,
                        help="the solver's budget on each fixed deal (0: leave the solver out)")
    args = parser.parse_args()
    if args.changes_only:
        figures = {"change": rule_changes(args.rounds), "change forty-thieves": forty_thieves_changes(args.rounds)}
        targets(figures)
        return
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
    figures = {"reference": statistics.median(ratios)}
    if not args.no_match:
        figures["change"] = rule_changes(args.rounds)
        figures["change forty-thieves"] = forty_thieves_changes(args.rounds)
        if args.matches:
            figures["match"] = matches(args.matches)
    if args.hands:
        hands(args.hands, args.rounds)
    if args.solver_states:
        from solver import fixed_deals  # benchmarks/solver.py; --resolve there counts a game's deals resolved

        fixed_deals(args.solver_states, "portfolio")
    if not args.no_targets:
        import playouts
        import startup

        figures["playouts"] = playouts.measure(playouts.patiences(), 20, args.rounds, args.cap, 200)
        figures["startup"] = startup.measure(11)
        figures["jobs"] = jobs_scaling(400, args.rounds)
        targets(figures)


# Rule changes a player of Forty Thieves would make: the build, the counts and rows of the piles, redeals and the
# stock's turn, what a space takes, how many cards may move, a move limit and the score. One of them is refused (a
# run could go onto a foundation's space), as a player's change sometimes is: a refusal is timed as well.
FORTY_THIEVES_CHANGES = (
    "set tableau.build down alternate colour",
    "set tableau.build down any suit",
    "replace tableau.build same-suit: card.color == top.color",
    "set tableau.count 12",
    "set tableau.count 8",
    "set tableau.deal [up, up, up]",
    "set tableau.deal [down, down, up, up]",
    "set stock.redeals 1",
    "set stock.redeals unlimited",
    "set stock.turn {to: waste, count: 3}",
    "set tableau.empty last rank",
    "forbid tableau.empty no-aces: card.rank == A",
    "set tableau.take any run",
    "require tableau.take at-most-three: count <= 3",
    "set foundation.build up same colour",
    'lose too-slow when moves.size > 400 "too many moves"',
    "set score foundation.size * 5",
)


def rule_changes(rounds: int) -> float:
    """The cost of checking a rule change (parse, apply, check, compile, trial), fresh and when seen before: the
    changes of Discordian's catalogue; ms of CPU a change never seen (the first round)."""
    from kallisti.catalogue import load_catalogue

    return _changes("Discordian", "discordian", [entry.change for entry in load_catalogue("discordian")], rounds)


def forty_thieves_changes(rounds: int) -> float:
    """The cost of checking a rule change of FORTY_THIEVES_CHANGES; ms of CPU a change never seen (the first round)."""
    return _changes("Forty Thieves", "forty-thieves", FORTY_THIEVES_CHANGES, rounds)


def _changes(label: str, game: str, changes, rounds: int) -> float:
    """Each change of `changes` checked against `game`'s rules, after every change and trial kept is forgotten
    (fresh), then again (its ruleset seen before); CPU time, a refused change counted as an adopted one is."""
    from kallisti.errors import KallistiError
    from kallisti.interpreter import amend

    rules = load_ruleset(game)
    try:  # the parsers and the validator made once, as any session has them by its first change
        amend.amend(rules.data, "set game Warm", baseline=rules)
    except KallistiError:
        pass
    fresh, again = [], []
    refused = 0
    for _ in range(rounds):
        amend.forget_checked()
        for times in (fresh, again):
            refused = 0
            start = time.process_time()
            for change in changes:
                try:
                    amend.amend(rules.data, change, baseline=rules)
                except KallistiError:
                    refused += 1
            times.append((time.process_time() - start) / len(changes))
    print(f"{label} rule changes: {len(changes)} changes checked ({refused} refused), {rounds} rounds")
    # After the first round the tables of the changes' own clauses are kept (by the deck and the clause text, as the
    # rules in force have theirs): only the first round checks changes never seen in any form, and it is the figure
    # of the target; the later rounds are fresh but for those tables.
    later = f"{1000 * statistics.median(fresh[1:]):.1f}" if len(fresh) > 1 else "-"
    print(f"check      {1000 * fresh[0]:10.1f} ms of CPU a change never seen (the first round); {later} ms with its "
          f"clauses' tables kept (median of later rounds); {1000 * statistics.median(again):.1f} ms when its ruleset "
          "was seen before")
    return 1000 * fresh[0]


def matches(count: int) -> float:
    """Whole bot-versus-bot matches of Discordian Solitaire (search bots, Player X included), seeds 1..count, one after
    another in this process; CPU seconds a match, the mean over the matches.

    A match lasts 35 to 85 turns by its seed (the bots' play and their rule changes decide when a total reaches the
    limit), so a mean over a few matches is mostly the luck of their lengths: the default plays eight. The first match
    also pays what a process does once (the parser of rule changes, Player X's measures of the catalogue on the base
    rules), printed beside it."""
    from kallisti.solver.simulate import simulate_matches

    rules = load_ruleset("discordian")
    cpus, turns, imposed = [], 0, 0
    for seed in range(1, count + 1):
        cpu = time.process_time()
        record = simulate_matches(rules, 1, seed, "search").as_dict()
        cpus.append(time.process_time() - cpu)
        turns += record["turns"]
        imposed += record["changes"]["imposed"]
    mean = sum(cpus) / count
    print(f"Discordian matches: {count} bot-versus-bot matches (seeds 1..{count}), {turns} turns, {imposed} rule changes "
          "imposed")
    print(f"match      {mean:10.2f} s of CPU a match (mean; min {min(cpus):.2f}, max {max(cpus):.2f}; the first, which "
          f"pays the process's one-off costs, {cpus[0]:.2f}), {1000 * sum(cpus) / turns:.1f} ms a turn, "
          f"{turns / count:.0f} turns a match")
    return mean


def jobs_scaling(deals: int, rounds: int) -> float:
    """`simulate --strategy greedy` of Forty Thieves deals 1..deals with --jobs 1 and --jobs 2, in turn each round
    (which goes first alternates); the median of the rounds' ratios of wall-clock time, jobs 1 over jobs 2."""
    from kallisti.solver.simulate import simulate

    rules = load_ruleset("forty-thieves")

    def wall(jobs: int) -> float:
        start = time.perf_counter()
        simulate(rules, deals, 1, "greedy", jobs=jobs)
        return time.perf_counter() - start

    ones, twos, ratios = [], [], []
    for i in range(rounds):
        if i % 2 == 0:
            one = wall(1)
            two = wall(2)
        else:
            two = wall(2)
            one = wall(1)
        ones.append(one)
        twos.append(two)
        ratios.append(one / two)
    print(f"simulate --strategy greedy, Forty Thieves deals 1..{deals}, {rounds} rounds: --jobs 1 "
          f"{statistics.median(ones):.2f} s, --jobs 2 {statistics.median(twos):.2f} s (medians); "
          f"speed-up {statistics.median(ratios):.2f} (min {min(ratios):.2f}, max {max(ratios):.2f})")
    return statistics.median(ratios)


def targets(figures: dict) -> None:
    """Issue 24's targets, each beside what this run measured and the reference it is measured against (the rows of
    what this run left out are left out)."""
    rows = []
    if "playouts" in figures:
        ratios = figures["playouts"]["ratios"]
        slowest = min(ratios, key=ratios.get)
        rows += [
            ("random playouts, every patience >= 1/3 of Forty Thieves", f"slowest {slowest} x{ratios[slowest]:.2f}",
             "Forty Thieves' moves/s in the same round", ratios[slowest] >= 1 / 3),
            ("Forty Thieves playouts >= 1x the hand-written reference", f"x{figures['reference']:.2f}",
             "benchmarks/reference_forty_thieves.py", figures["reference"] >= 1),
            ("simulate --strategy random >= 0.9x the engine's loop", f"x{figures['playouts']['simulate']:.2f}",
             "Game.playout on the same moves", figures["playouts"]["simulate"] >= 0.9),
        ]
    if "startup" in figures:
        start = figures["startup"]
        import startup  # benchmarks/startup.py: its targets, and the typer floor under each command

        for label, limit in startup.TARGETS.items():
            floor = startup.FLOORS[label]
            rows.append((f"kallisti {label} under {limit} s of CPU", f"{start[label]:.3f} s",
                         f"python -c pass (subtracted); typer's own floor, '{floor}': {start[floor]:.3f} s",
                         start[label] < limit))
    if "change" in figures:
        rows.append(("a fresh rule change under 5 ms (Discordian catalogue, never seen)", f"{figures['change']:.1f} ms",
                     "none: an absolute figure (CPU)", figures["change"] < 5))
        rows.append(("a fresh rule change under 5 ms (Forty Thieves, never seen)", f"{figures['change forty-thieves']:.1f} ms",
                     "none: an absolute figure (CPU)", figures["change forty-thieves"] < 5))
    if "match" in figures:
        rows.append(("a bots' match of Discordian under 1 s of CPU", f"{figures['match']:.2f} s",
                     "none: an absolute figure (the mean over the matches played)", figures["match"] < 1))
    if "jobs" in figures:
        rows.append(("--jobs 2 >= 1.7x --jobs 1 (400 greedy Forty Thieves deals)", f"x{figures['jobs']:.2f}",
                     "--jobs 1 in the same round", figures["jobs"] >= 1.7))
    print()
    print("Targets (issue 24), this run:")
    width = max(len(r[0]) for r in rows)
    for label, measured, reference, met in rows:
        print(f"  {label:<{width}}  {measured:>18}  {'met' if met else 'NOT met':<7}  against {reference}")
    if "playouts" in figures:
        print("  the full test suite under 12 minutes on 2 cores: the CI run's own time (`issues ci`), not measured here")


def hands(count: int, rounds: int) -> None:
    """Best partitions of random ten-card Cripple Mr Onion hands, each round with a fresh evaluator: the plain
    rules, with null eights, and with wild eights (hands holding at least one eight, so every hand has one)."""
    from kallisti.interpreter.hands import HandEvaluator, forget_answers
    from kallisti.model.modifiers import overlaid

    rules = load_ruleset("onion")
    variants = {"plain": rules, "null eights": overlaid(rules, ["null-eights"]),
                "wild eights": overlaid(rules, ["wild-eights"])}  # the shipped modifiers #1 i and #1 ii
    rnd = random.Random(1)
    deck = rules.deck
    eights = [c for c in range(deck.size) if deck.ranks[deck.rank[c]] == "8"]
    sample = [rnd.sample(range(deck.size), rules.hands.size) for _ in range(count)]
    with_eight = [[rnd.choice(eights)] + rnd.sample([c for c in range(deck.size) if c not in eights], rules.hands.size - 1)
                  for _ in range(count)]
    print(f"Cripple Mr Onion hands: {count} random ten-card hands, {rounds} rounds (median of rounds; min, max)")
    for name, variant in variants.items():
        hands_of = with_eight if name != "plain" else sample
        rates, steps, incomplete = [], 0, 0
        for _ in range(rounds):
            forget_answers()  # cold, as a round of new hands mostly is
            evaluator = HandEvaluator(variant)
            start = time.perf_counter()
            results = [evaluator.evaluate(h) for h in hands_of]
            rates.append(count / (time.perf_counter() - start))
            steps = sum(r.steps for r in results)
            incomplete = sum(not r.complete for r in results)
        print(f"best partition, {name:11} {statistics.median(rates):8,.0f} hands/s ({min(rates):,.0f}, {max(rates):,.0f}); "
              f"{steps / count:,.0f} search steps a hand; {incomplete} incomplete")


if __name__ == "__main__":
    main()
