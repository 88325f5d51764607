"""`kallisti solve GAME|FILE --seed N`: search one deal with every card known, and print a winning line or the verdict."""

from __future__ import annotations

import json
from enum import Enum
from typing import TYPE_CHECKING

import typer

from kallisti.cli.defaults import DEFAULT_MEMORY, DEFAULT_STATES
from kallisti.cli.report import refuse
from kallisti.errors import KallistiError

if TYPE_CHECKING:
    from kallisti.solver.solve import Solution


def exit_code(verdict: str) -> int:
    """The exit code of a verdict (also in the command's help): 0 a win found, 3 no win proved, 5 the budget ran out."""
    from kallisti.solver.solve import NO_WIN, UNKNOWN, WON

    return {WON: 0, NO_WIN: 3, UNKNOWN: 5}[verdict]


class Format(str, Enum):
    text = "text"
    json = "json"


class Search(str, Enum):  # solver/solve.py's PORTFOLIO, DEPTH_FIRST and BEST_FIRST (tests/test_startup.py checks)
    portfolio = "portfolio"
    depth_first = "depth-first"
    best_first = "best-first"


def render_text(name: str, seed: int | str, s: Solution) -> str:
    """The line of moves, one a line, after a `#` comment that `kallisti play` skips: the output pipes into play."""
    from kallisti.solver.solve import NO_WIN, WON

    cost = f"{s.states:,} positions searched, {s.seconds:.2f} s"
    if s.verdict == WON:
        head = f"# {name}, deal {seed}: won in {len(s.line)} moves ({cost})"
    elif s.verdict == NO_WIN:
        head = f"# {name}, deal {seed}: no win — every line from the deal was searched ({cost})"
    elif s.stopped_by == "beam":
        head = f"# {name}, deal {seed}: unknown — no position the beam kept led on; a beam proves no loss ({cost})"
    else:
        head = f"# {name}, deal {seed}: unknown — the search stopped at its {s.stopped_by} budget ({cost})"
    return "\n".join([head, *s.line])


def solve(
    game: str = typer.Argument(..., metavar="GAME|FILE", help="A shipped game's name or a ruleset file."),
    seed: int = typer.Option(1, "--seed", "-s", metavar="N", min=0, help="The deal number, as `kallisti play --seed` takes it."),
    deal: str | None = typer.Option(None, "--deal", metavar="DEAL", help="Instead of --seed: a deal file or a world deal number "
                                    "(`ms:N`, `pysol:N`), as `kallisti play --deal` takes it."),
    states: int = typer.Option(DEFAULT_STATES, "--states", metavar="N", min=1,
                               help="Most positions to search; the verdict is `unknown` beyond it (the same on every machine)."),
    seconds: float | None = typer.Option(None, "--seconds", metavar="SECONDS", min=0.001,
                                         help="Also stop after this many seconds (then `unknown` depends on the machine)."),
    memory: int = typer.Option(DEFAULT_MEMORY, "--memory", metavar="N", min=1, help="Most positions the search remembers."),
    symmetry: bool = typer.Option(True, "--symmetry/--no-symmetry",
                                  help="Treat twin cards and piles the rules treat alike as interchangeable."),
    safe_moves: bool = typer.Option(True, "--safe-moves/--no-safe-moves",
                                    help="Play moves the rules make provably safe without trying the others."),
    loss_proofs: bool | None = typer.Option(None, "--loss-proofs/--no-loss-proofs", show_default=False,
                                            help="Search no further from a position where some card can provably "
                                                 "never leave its pile (by default, where no space takes every card)."),
    search: Search = typer.Option(Search.portfolio, "--search",
                                  help="portfolio (the depth-first and best-first searches in turn, one budget), "
                                       "depth-first or best-first alone: each proves losses, only their cost differs."),
    beam: int | None = typer.Option(None, "--beam", min=1, metavar="WIDTH",
                                    help="Search by a beam of WIDTH positions a level, led by a progress estimate: "
                                         "finds wins the default search is too slow to reach, never proves a loss."),
    format: Format = typer.Option(Format.text, "--format", help="text (the line, ready to pipe into `kallisti play`) or json."),
) -> None:
    """Search one deal with every card known (face-down cards and the stock included) for a win.

    Prints a winning line of moves, one a line, that `kallisti play GAME --seed N` replays when piped
    in (with `--deal FILE|ms:N|pysol:N`, `kallisti play GAME --deal` the same); or says that no win exists (every line was searched) or that the budget ran out first.
    With `--beam`, a win or `unknown`: a beam search drops positions, so it never proves a loss.
    Exit codes: 0 a win was found, 3 no win exists, 5 unknown (the budget ran out), 1 a bad ruleset,
    2 a usage error.
    """
    from kallisti.interpreter.game import Game, require_piles
    from kallisti.model.ruleset import load_ruleset
    from kallisti.solver.beam import beam_solve
    from kallisti.solver.clean import clean_solution
    from kallisti.solver.solve import SearchOptions, solve as run_solve

    try:
        rules = load_ruleset(game)
        require_piles(rules)
    except KallistiError as exc:
        raise refuse(game, exc) from None
    if rules.match is not None:
        typer.echo(f"{rules.name} is played by several players; `solve` searches patiences played alone", err=True)
        raise typer.Exit(2)
    options = SearchOptions(states=states, seconds=seconds, symmetry=symmetry, safe_moves=safe_moves, memory=memory,
                            search=search.value, loss_proofs=loss_proofs)
    if deal is None:
        start = Game(rules, seed=seed)
    else:
        from kallisti.cli.play import deal_option_order

        try:
            start = Game(rules, seed=None, order=deal_option_order(rules, deal))
        except KallistiError as exc:
            raise refuse(deal, exc) from None
    result = run_solve(rules, options=options, game=start) if beam is None else beam_solve(rules, None, beam, options, game=start)
    result = clean_solution(rules, result, start)  # a line that comes back to a position it passed loses the cycle
    if format == Format.json:
        budget = {"states": states, "seconds": seconds, "memory": memory,
                  **({"beam": beam} if beam else {"search": search.value})}
        record = {"game": rules.name, **({"seed": seed} if deal is None else {"deal": deal}), **result.as_dict(),
                  "budget": budget}
        typer.echo(json.dumps(record, ensure_ascii=False))
    else:
        typer.echo(render_text(rules.name, seed if deal is None else deal, result))
    raise typer.Exit(exit_code(result.verdict))
