"""`kallisti simulate GAME|FILE`: play many deals with a strategy and report the win rate."""

from __future__ import annotations

import json
import sys
from enum import Enum

import typer

from kallisti.errors import KallistiError
from kallisti.interpreter.game import require_piles
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.simulate import DEFAULT_CAP, SimulationResult, simulate as run_simulation


class Strategy(str, Enum):
    random = "random"
    greedy = "greedy"
    search = "search"


class Format(str, Enum):
    text = "text"
    json = "json"


def render_text(result: SimulationResult, seed: int, cap: int) -> str:
    low, high = result.ci95
    last = seed + result.deals - 1
    seeds = f"seed {seed}" if result.deals == 1 else f"seeds {seed}..{last}"
    per_second = f", {result.deals / result.seconds:.1f} deals/s" if result.seconds > 0 else ""
    return "\n".join([
        f"{result.game}: {result.deals} deals ({seeds}), {result.strategy} strategy, cap {cap} moves",
        f"  won     {result.won:>8}",
        f"  lost    {result.lost:>8}",
        f"  capped  {result.capped:>8}",
        f"  moves   {result.moves:>8}",
        f"  win rate {100 * result.win_rate:.1f}% (95% interval {100 * low:.1f}%–{100 * high:.1f}%)",
        f"  time    {result.seconds:.2f}s{per_second}",
    ])


def render_matches(record: dict, seed: int) -> str:
    """The text report of bot-versus-bot matches: seats, scores, and the rule changes imposed."""
    last = seed + record["deals"] - 1
    matches = "1 match (seed " + str(seed) + ")" if record["deals"] == 1 else f"{record['deals']} matches (seeds {seed}..{last})"
    lines = [f"{record['game']}: {matches}, {record['strategy']} bots, "
             f"{record['turns']} turns in all"]
    for s in record["seats"]:
        lines.append(f"  {s['name']:<8} wins {s['wins']:>4}   mean total {s['mean_score']:>8}   changes imposed on it "
                     f"{s['changes_imposed_on']:>4}")
    ch = record["changes"]
    lines.append(f"  rule changes imposed {ch['imposed']}, revoked {ch['revoked']}; most often:")
    for text, count in list(ch["by_change"].items())[:8]:
        lines.append(f"    {count:>4}  {text}")
    for r in record["results"]:
        lines.append(f"  match {r['seed']}: {r['loser'] or 'nobody'} loses, totals {r['totals']}, {r['turns']} turns, "
                     f"{r['changes']} changes")
    lines.append(f"  time    {record['seconds']:.2f}s")
    return "\n".join(lines)


def _run(rules, deals: int, seed: int, strategy: str, cap: int) -> SimulationResult:
    """The simulation, with a progress bar on stderr when it is a terminal."""
    if not sys.stderr.isatty():
        return run_simulation(rules, deals, seed, strategy, cap)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(f"{rules.name} ({strategy})", total=deals)
        return run_simulation(rules, deals, seed, strategy, cap, progress=lambda _: bar.advance(task))


def _simulate_table(rules, rounds: int, seed: int, players: str, format) -> int:
    from kallisti.solver.table import BOTS, simulate_rounds

    seats = [p.strip() for p in players.split(",") if p.strip()]
    bad = [s for s in seats if s not in BOTS]
    if bad:
        raise typer.BadParameter(f"no table bot '{bad[0]}'; choose from {', '.join(BOTS)}", param_hint="--players")
    record = simulate_rounds(rules, rounds, seed, seats).as_dict()
    if format == Format.json:
        typer.echo(json.dumps(record, ensure_ascii=False))
        return 0
    typer.echo(f"{rules.name}: {rounds} rounds from seed {seed}, bots only"
               + ("" if "stacks" in record else ", no money: showdown only"))
    for i, (kind, wins) in enumerate(zip(record["players"], record["wins"])):
        typer.echo(f"  seat {i + 1} ({kind:<8}) won {wins:>6}  ({100 * wins / rounds:.1f}%)")
    typer.echo(f"  showdowns {record['showdowns']}, ties won by seniority {record['ties_to_seniority']}, "
               f"cripples {record['cripples']}, cards exchanged {record['cards_exchanged']}")
    typer.echo("  won with: " + ", ".join(f"{g} {n}" for g, n in record["won_with"].items()))
    in_play = ", ".join(f"{m} {n}" for m, n in record["modifiers_in_play"].items()) or "none"
    typer.echo(f"  rounds with each modifier in play: {in_play}; showdowns with a null card {record['nulls_played']}")
    if "stacks" in record:
        typer.echo(f"  chips at the end: {', '.join(map(str, record['stacks']))} (rounds played {record['played']}, "
                   f"seats sat out {record['sat_out']})")
        typer.echo(f"  folds {record['folds']}, dealership auctions {record['auctions']}, dealership passes "
                   f"{record['dealership_passes']}, pots carried over {record['carried_over']}, cards bought {record['cards_bought']}, "
                   f"tables {record['tables']}")
    typer.echo(f"  time    {record['seconds']:.2f}s")
    return 0


def simulate(
    game: str = typer.Argument(..., metavar="GAME|FILE", help="A shipped game's name or a ruleset file."),
    deals: int = typer.Option(100, "--deals", "-n", min=1, help="How many deals to play."),
    seed: int = typer.Option(1, "--seed", "-s", min=0, help="Seed of the first deal; the others follow it."),
    strategy: Strategy = typer.Option(None, "--strategy", help="How moves are chosen (default: greedy for a patience, "
                                      "search for the bots of a match)."),
    cap: int = typer.Option(DEFAULT_CAP, "--cap", min=1, help="Most moves per deal; a deal that reaches it is `capped`."),
    format: Format = typer.Option(Format.text, "--format", help="Output format."),
    players: str = typer.Option("cautious,bold,cautious,bold", "--players",
                                help="A table game's bots, one per seat in turn order: cautious or bold."),
) -> None:
    """Play many deals with a strategy and report how many were won, with a 95% confidence interval.

    For a game of several players, each "deal" is one whole match between bots, and the report
    gives every seat's wins and mean score and the rule changes the bots imposed on each other.
    For a table game (Cripple Mr Onion), each "deal" is one round between bots, the winner dealing
    the next, and the report gives each seat's wins and the groupings that won.
    """
    try:
        rules = load_ruleset(game)
        if rules.table is not None and not rules.pile_count:
            raise typer.Exit(_simulate_table(rules, deals, seed, players, format))
        require_piles(rules)
    except KallistiError as exc:
        for f in exc.findings:
            typer.echo(str(f), err=True)
        raise typer.Exit(2 if any(f.code == "unknown-game" and f.pos.source == game for f in exc.findings) else 1)
    if rules.match is not None:
        from kallisti.solver.simulate import simulate_matches

        result = simulate_matches(rules, deals, seed, (strategy or Strategy.search).value)
        record = result.as_dict()
        typer.echo(json.dumps(record, ensure_ascii=False) if format == Format.json else render_matches(record, seed))
        return
    result = _run(rules, deals, seed, (strategy or Strategy.greedy).value, cap)
    if format == Format.json:
        typer.echo(json.dumps(result.as_dict(), ensure_ascii=False))
    else:
        typer.echo(render_text(result, seed, cap))
