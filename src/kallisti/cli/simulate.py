"""`kallisti simulate GAME|FILE`: play many deals with a strategy or the solver and report the win rate."""

from __future__ import annotations

import json
import sys
import time
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from kallisti.cli.defaults import DEFAULT_CAP, DEFAULT_STATES
from kallisti.cli.report import refuse
from kallisti.errors import KallistiError

if TYPE_CHECKING:
    from kallisti.solver.simulate import SimulationResult


class Strategy(str, Enum):
    random = "random"
    greedy = "greedy"
    search = "search"
    solver = "solver"


class Backend(str, Enum):
    local = "local"
    ray = "ray"


class Format(str, Enum):
    text = "text"
    json = "json"


class Numbering(str, Enum):
    ms = "ms"
    pysol = "pysol"


def run_simulation(rules, deals: int, seed: int, strategy: str, **options) -> SimulationResult:
    """The solver's simulation (solver/simulate.py), imported when a simulation runs: `--help` needs none of it."""
    from kallisti.solver.simulate import simulate

    return simulate(rules, deals, seed, strategy, **options)


def render_text(result: SimulationResult, seed: int) -> str:
    from kallisti.solver.simulate import NUMBERINGS

    low, high = result.ci95
    last = seed + result.deals - 1
    seeds = f"seed {seed}" if result.deals == 1 else f"seeds {seed}..{last}"
    if result.numbering is not None:
        seeds = NUMBERINGS[result.numbering] + " " + (f"{seed}" if result.deals == 1 else f"{seed}..{last}")
    played = result.deals - result.resumed
    per_second = f", {played / result.seconds:.1f} deals/s" if result.seconds > 0 and played else ""
    if result.solver:
        limit = result.budget["seconds"]
        how = f"solver, at most {result.budget['states']:,} positions" + (f" and {limit:g}s" if limit else "") + " a deal"
        if result.budget.get("safe_moves") is False:
            how += ", safe moves off"
        counts = [f"  lost    {result.lost:>8}   (no win exists)",
                  f"  unknown {result.unknown:>8}   (the budget ran out first)"]
    else:
        how = f"{result.strategy} strategy, cap {result.budget['cap']} moves"
        counts = [f"  lost    {result.lost:>8}", f"  capped  {result.capped:>8}"]
    lines = [f"{result.game}: {result.deals} deals ({seeds}), {how}", f"  won     {result.won:>8}", *counts,
             f"  moves   {result.moves:>8}"]
    if result.solver:
        lines.append(f"  mean    {result.mean_states:,.0f} positions searched and {result.mean_seconds:.3f}s a deal")
    note = "; unknown deals counted lost for its low end, won for its high end" if result.unknown else ""
    lines.append(f"  win rate {100 * result.win_rate:.1f}% (95% interval {100 * low:.1f}%–{100 * high:.1f}%{note})")
    if result.resumed:
        lines.append(f"  resumed {result.resumed} deals from the journal, played {played}")
    lines.append(f"  time    {result.seconds:.2f}s{per_second}")
    return "\n".join(lines)


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
    share = f" ({100 * ch['toggled_back'] / ch['imposed']:.0f}%)" if ch["imposed"] else ""
    lines.append(f"  rule changes imposed {ch['imposed']}, distinct {ch['distinct']}, revoked {ch['revoked']}, "
                 f"toggled back {ch['toggled_back']}{share}; most often:")
    for text, count in list(ch["by_change"].items())[:8]:
        lines.append(f"    {count:>4}  {text}")
    for r in record["results"]:
        lines.append(f"  match {r['seed']}: {r['loser'] or 'nobody'} loses, totals {r['totals']}, {r['turns']} turns, "
                     f"{r['changes']} changes")
    lines.append(f"  time    {record['seconds']:.2f}s")
    return "\n".join(lines)


def _run(rules, deals: int, seed: int, strategy: str, **options) -> SimulationResult:
    """The simulation, with a progress bar on stderr when it is a terminal."""
    if not sys.stderr.isatty():
        return run_simulation(rules, deals, seed, strategy, **options)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    # Drawn by the deals' own progress, at most ten times a second, never by a thread of rich's: a process running
    # another thread spawns its workers afresh instead of forking them (solver/parallel.py).
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True, auto_refresh=False) as bar:
        task = bar.add_task(f"{rules.name} ({strategy})", total=deals)
        drawn = [0.0]

        def advance(_) -> None:
            now = time.monotonic()
            due = now - drawn[0] >= 0.1
            bar.update(task, advance=1, refresh=due)
            if due:
                drawn[0] = now

        return run_simulation(rules, deals, seed, strategy, progress=advance, **options)


def _patience_only(strategy, jobs, resume, backend, numbering=None) -> None:
    """Refuse the options that only a patience played alone takes."""
    given = [name for name, on in [("--strategy solver", strategy == Strategy.solver), ("--jobs", jobs not in (None, 1)),
                                   ("--resume", resume is not None), ("--backend ray", backend == Backend.ray),
                                   ("--numbering", numbering is not None)] if on]
    if given:
        typer.echo(f"{given[0]} is for patiences played alone, not for matches or table games", err=True)
        raise typer.Exit(2)


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
    deals: int = typer.Option(100, "--deals", "-n", metavar="N", min=1, help="How many deals to play."),
    seed: int = typer.Option(1, "--seed", "-s", metavar="N", min=0, help="Seed of the first deal; the others follow it."),
    numbering: Numbering = typer.Option(None, "--numbering", help="Play the world's numbered deals, the seeds being "
                                        "their numbers: ms, Microsoft FreeCell's (as `--deal ms:N`); pysol, PySolFC's "
                                        "game numbers (as `--deal pysol:N`). Default: kallisti's own seeds."),
    strategy: Strategy = typer.Option(None, "--strategy", help="How moves are chosen (default: greedy for a patience, "
                                      "search for the bots of a match); solver: search each deal with every card known."),
    cap: int = typer.Option(DEFAULT_CAP, "--cap", metavar="MOVES", min=1, help="Most moves per deal; a deal that reaches it is `capped`."),
    states: int = typer.Option(DEFAULT_STATES, "--states", metavar="N", min=1,
                               help="The solver: most positions to search a deal; beyond it the deal is `unknown`."),
    seconds: float | None = typer.Option(None, "--seconds", metavar="SECONDS", min=0.001, help="The solver: also stop a deal after this "
                                         "many seconds (then `unknown` depends on the machine)."),
    safe_moves: bool = typer.Option(True, "--safe-moves/--no-safe-moves", help="The solver: play the moves the rules "
                                    "make provably safe without trying the others (as `kallisti solve` does)."),
    jobs: int | None = typer.Option(None, "--jobs", "-j", metavar="K", min=1, help="Worker processes (default 1); with the Ray "
                                    "backend, the CPUs of the local Ray instance (default all)."),
    resume: Path | None = typer.Option(None, "--resume", metavar="FILE", dir_okay=False, help="A JSONL journal: each finished deal is "
                                       "appended to it, and the deals it holds already are not played again."),
    backend: Backend = typer.Option(Backend.local, "--backend", help="Where deals are played: local processes, or "
                                    "Ray (pip install 'kallisti\\[ray]')."),
    ray_address: str | None = typer.Option(None, "--ray-address", metavar="ADDRESS", help="The Ray cluster to use (default: start a "
                                           "local Ray instance)."),
    format: Format = typer.Option(Format.text, "--format", help="Output format."),
    players: str = typer.Option("cautious,bold,cautious,bold", "--players", metavar="BOTS",
                                help="A table game's bots, one per seat in turn order: cautious or bold."),
) -> None:
    """Play many deals with a strategy and report how many were won, with a 95% confidence interval.

    With `--strategy solver` each deal is searched with every card known, within `--states`
    positions: won, lost (no win exists) or unknown (the budget ran out), and the interval counts the
    unknown deals lost for its low end and won for its high end. The totals are the same whatever
    `--jobs` and `--backend` are (with `--seconds`, unknown deals depend on the machine).

    For a game of several players, each "deal" is one whole match between bots, and the report
    gives every seat's wins and mean score and the rule changes the bots imposed on each other.
    For a table game (Cripple Mr Onion), each "deal" is one round between bots, the winner dealing
    the next, and the report gives each seat's wins and the groupings that won.
    """
    if ray_address is not None and backend != Backend.ray:
        raise typer.BadParameter("a Ray cluster's address needs --backend ray", param_hint="--ray-address")
    from kallisti.interpreter.game import require_piles
    from kallisti.interpreter.world_deals import WorldDealError
    from kallisti.model.ruleset import load_ruleset
    from kallisti.solver.journal import JournalError
    from kallisti.solver.parallel import BackendUnavailable

    try:
        rules = load_ruleset(game)
        if rules.table is not None and not rules.pile_count:
            _patience_only(strategy, jobs, resume, backend, numbering)
            raise typer.Exit(_simulate_table(rules, deals, seed, players, format))
        require_piles(rules)
    except KallistiError as exc:
        raise refuse(game, exc) from None
    if rules.match is not None:
        from kallisti.solver.simulate import simulate_matches

        _patience_only(strategy, jobs, resume, backend, numbering)
        result = simulate_matches(rules, deals, seed, (strategy or Strategy.search).value)
        record = result.as_dict()
        typer.echo(json.dumps(record, ensure_ascii=False) if format == Format.json else render_matches(record, seed))
        return
    try:
        result = _run(rules, deals, seed, (strategy or Strategy.greedy).value, cap=cap, states=states, seconds=seconds,
                      jobs=jobs, backend=backend.value, address=ray_address, journal=resume, safe_moves=safe_moves,
                      numbering=None if numbering is None else numbering.value)
    except WorldDealError as exc:
        raise typer.BadParameter(str(exc), param_hint="--numbering") from None
    except (JournalError, BackendUnavailable) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        again = f"; the finished deals are in {resume}, and the same command goes on from there" if resume else ""
        typer.echo(f"interrupted{again}", err=True)
        raise typer.Exit(130) from None
    if format == Format.json:
        typer.echo(json.dumps(result.as_dict(), ensure_ascii=False))
    else:
        typer.echo(render_text(result, seed))
