"""`kallisti report --deals N DIR`: the winnability table of the shipped patiences, as Markdown and an SVG chart."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from kallisti.cli.defaults import CHEAP, DEFAULT_STATES


def report(
    folder: Path = typer.Argument(..., metavar="DIR", help="Where to write winnability.md and winnability.svg."),
    deals: int = typer.Option(200, "--deals", "-n", metavar="N", min=1, help="Deals 1..N of each game."),
    states: int = typer.Option(DEFAULT_STATES, "--states", metavar="N", min=1, help="The solver's budget of positions a deal."),
    at_least: int | None = typer.Option(
        None, "--at-least", metavar="M", min=1, help="Play deals 1..M of each game first, and go on to N only where they were cheap."),
    cheap: int = typer.Option(CHEAP, "--cheap", metavar="N", min=0,
                              help="With --at-least: the mean positions a deal at or under which a game goes on to N."),
    jobs: int | None = typer.Option(None, "--jobs", "-j", metavar="K", min=1, help="Worker processes (default: one per CPU)."),
    games: list[str] = typer.Option(None, "--game", metavar="GAME", help="Only these games (repeatable); default: every shipped patience."),
    safe_moves: bool = typer.Option(True, "--safe-moves/--no-safe-moves",
                                    help="Play the moves the rules make provably safe without trying the others."),
) -> None:
    """Solve deals 1..N of every shipped patience with every card known, and write the table of win rates.

    Each game's finished deals are kept in DIR/journals/GAME.jsonl, so a report stopped part-way goes
    on where it stopped when the same command is given again. The table states the budget and the
    command that regenerates it; a game with more than a fifth of its deals unknown is marked out of
    reach at this budget.

    With --at-least M, each game plays deals 1..M first, and only the games whose mean cost over them is at
    most --cheap positions a deal go on to N: a large sample where it is cheap, M deals elsewhere.
    """
    from kallisti.interpreter.save import write_atomic
    from kallisti.solver.journal import JournalError
    from kallisti.solver.winnability import bar_chart, markdown, patiences, winnability

    names = games or patiences()
    journals = folder / "journals"
    journals.mkdir(parents=True, exist_ok=True)
    progress = None
    if sys.stderr.isatty():
        progress = lambda game, outcome: typer.echo(f"\r{game}: seed {outcome.seed} {outcome.outcome}   ", err=True, nl=False)  # noqa: E731
    try:
        rows = winnability(names, deals, states, jobs, journals, progress, at_least, cheap, safe_moves)
    except JournalError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    only = "".join(f" --game {g}" for g in games or ())
    staged = "" if at_least is None else f" --at-least {at_least}" + ("" if cheap == CHEAP else f" --cheap {cheap}")
    unsafe = "" if safe_moves else " --no-safe-moves"
    command = f"kallisti report --deals {deals}{staged} --states {states}{unsafe}{only} {folder}"
    write_atomic(folder / "winnability.md", markdown(rows, deals, states, command, at_least, cheap, safe_moves))
    write_atomic(folder / "winnability.svg", bar_chart(rows))
    for row in rows:
        r = row.result
        rate = "out of reach" if row.out_of_reach else f"{100 * r.won / r.deals:.1f}%"
        typer.echo(f"{r.game:24} won {r.won:>5}  lost {r.lost:>5}  unknown {r.unknown:>5}  {rate}")
    typer.echo(f"wrote {folder / 'winnability.md'} and {folder / 'winnability.svg'}")
