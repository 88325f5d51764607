"""`kallisti play`: text-mode play, one command a line, from a terminal or a piped script."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

import typer

from kallisti.cli.command_lines import command_lines, stdin_lines
from kallisti.cli.play_rules import RulesWatcher
from kallisti.cli.play_session import Session
from kallisti.cli.play_text import (BAD_INPUT, LOST, QUIT, USAGE, WON, Out, command_for, end_summary, file_refused,
                                    moves_text, title)
from kallisti.cli.render import use_color
from kallisti.errors import Finding, KallistiError, Pos
from kallisti.unsafe import visible

# What other modules and tests read here: the exit codes, the session's words and the watcher (play_text.py,
# play_rules.py), as well as this module's own.
__all__ = ["BAD_INPUT", "LOST", "QUIT", "USAGE", "WON", "MAX_DEAL_BYTES", "MAX_SEED", "Out",
           "RulesWatcher", "command_for", "deal_names", "deal_option_order", "deal_order",
           "end_summary", "file_refused", "fresh_seed", "is_save_file", "play", "read_deal_file", "run_session"]

MAX_DEAL_BYTES = 100_000
MAX_SEED = 10**9  # a fresh game picks its deal number from 1 to this; `new N` takes as many digits


def play(
    game: str | None = typer.Argument(None, metavar="GAME|FILE", help="A shipped game's name (see `kallisti list`), a ruleset "
                                      "file, or a save written by `save FILE` in play (resumed where it was saved)."),
    seed: int | None = typer.Option(None, "--seed", "-s", metavar="N", min=0, help="The deal number: the same number gives the same deal everywhere. Default: a fresh one."),
    deal: str | None = typer.Option(None, "--deal", metavar="DEAL", help="A text file listing the whole pack in dealing order (card names like 10H or 10♥, # comments), "
                                    "or a world deal number: `ms:N`, Microsoft FreeCell's deal N, for a one-pack game dealt in rows across 8 piles; "
                                    "`pysol:N`, PySolFC's game N, for a game PySolFC lays out the same way (Forty Thieves, FreeCell…)."),
    no_color: bool = typer.Option(False, "--no-color", help="Plain text even on a terminal."),
    players: str | None = typer.Option(None, "--players", metavar="SEATS", help="The seats of a game for several players, in turn order: "
                                       "names of people or `bot` (`bot:STRATEGY`), e.g. `ann,bob` or `ann,bot:random`. "
                                       "Default for a match: `you,bot`."),
    watch: bool = typer.Option(False, "--watch", help="Reload the ruleset file whenever it is saved: valid edits take "
                               "effect (rules from the next move, the layout from the next deal); invalid ones are "
                               "reported and play goes on under the old rules."),
    load: Path | None = typer.Option(None, "--load", metavar="FILE", help="Resume a save written by `save FILE` in play "
                                     "(as `kallisti play FILE` does)."),
    auto: bool | None = typer.Option(None, "--auto/--no-auto", help="Autoplay: after each move, send home the cards "
                                     "the solver proves nothing else could need, and finish a game won by force "
                                     "(`auto on|off` in play). Default: on at a terminal, off for piped commands, "
                                     "which then replay move for move."),
    no_stats: bool = typer.Option(False, "--no-stats", help="Record nothing in the statistics `kallisti stats` shows "
                                  "(as KALLISTI_NO_STATS=1 does)."),
) -> None:
    """Play a game in text mode: one command a line, from the keyboard or a piped script.

    Type `help` in the game for the commands. The game's end is checked after every step, and
    a marker line is printed that scripts can grep for; play goes on after it (undo, restart, new).
    The exit code is that of the game at `q` or when the input ends. A save written by `save FILE`
    is resumed with `kallisti play FILE` (or `--load FILE`).

    Exit codes:

    * 0 won: `*** WON: <game> in <N> moves ***`
    * 1 a bad ruleset or deal file (each problem printed as file:line:column), or a rule failing at run time
    * 2 usage error
    * 3 lost: `*** LOST: <reason> ***`
    * 4 quit, or the input ended while the game was still on: `*** QUIT ***`
    """
    from kallisti.interpreter.game import Game
    from kallisti.model.ruleset import load_ruleset

    if seed is not None and deal is not None:
        raise typer.BadParameter("give --seed or --deal, not both", param_hint="--seed / --deal")
    if load is not None and game is not None:
        raise typer.BadParameter("give a game or --load FILE, not both", param_hint="GAME / --load")
    if load is None and game is not None and is_save_file(Path(game)):
        load = Path(game)
    if load is not None:
        given = [name for name, value in (("--seed", seed), ("--deal", deal), ("--players", players), ("--watch", watch))
                 if value not in (None, False)]
        if given:
            raise typer.BadParameter(f"a save holds its deal, rules and players: {', '.join(given)} cannot go with it",
                                     param_hint=given[0])
        raise typer.Exit(_resume(load, no_color, not no_stats, auto))
    if game is None:
        raise typer.BadParameter("give a game, a ruleset file or a save", param_hint="GAME|FILE")
    try:
        rules = load_ruleset(game)
        if rules.table is not None and not rules.pile_count:
            raise typer.Exit(_play_table(rules, players or "you,bot,bot:bold,bot", seed))
        if rules.match is not None:
            if deal is not None:
                raise typer.BadParameter("a match deals every turn from its seed; --deal is for games played alone",
                                         param_hint="--deal")
            if watch:
                raise typer.BadParameter("in a match the rules change by Player X's `rule` command; --watch is for games "
                                         "played alone", param_hint="--watch")
            raise typer.Exit(_play_match(rules, players or "you,bot", seed, no_color))
        if players is not None and len([p for p in players.split(",") if p.strip()]) != 1:
            raise typer.BadParameter(f"{rules.name} is played alone: give one name or none", param_hint="--players")
        if deal is not None:
            g = Game(rules, seed=None, order=deal_option_order(rules, deal))
            source = str(deal)
        else:
            g = Game(rules, seed=fresh_seed() if seed is None else seed)
            source = None
    except KallistiError as exc:
        _report(exc.findings)
        raise typer.Exit(BAD_INPUT)
    for finding in rules.findings:
        typer.echo(str(finding), err=True)
    interactive = sys.stdin.isatty()
    watcher = None
    if watch:
        if Path(game).is_file():
            watcher = RulesWatcher(Path(game), rules)
        else:
            raise typer.BadParameter("--watch needs a ruleset file, not a shipped game's name (copy it with `kallisti "
                                     "convert` first)", param_hint="--watch")
    raise typer.Exit(_session(lambda: run_session(
        g, stdin_lines(interactive), typer.echo, color=use_color(sys.stdout, no_color), deal_source=source,
        err=lambda text: typer.echo(text, err=True), tip=interactive, watcher=watcher, stats=not no_stats,
        auto=interactive if auto is None else auto)))


def is_save_file(path: Path) -> bool:
    """Whether `path` is a save to resume: a file named `*.sav`, or one that begins as a kallisti save does (a game's
    or a match's, whatever its name)."""
    from kallisti.interpreter.save import SAVE_HEAD

    try:
        if not path.is_file():
            return False
        if path.suffix.lower() == ".sav":
            return True
        with open(path, "rb") as fh:
            return SAVE_HEAD.match(fh.read(200)) is not None
    except (OSError, ValueError):
        return False


def _resume(path: Path, no_color: bool, stats: bool = True, auto: bool | None = None) -> int:
    """`kallisti play FILE.sav` / `--load FILE`: play on from a save, a game's or a match's, exactly where it was."""
    from kallisti.interpreter.save import MATCH_FORMAT, load_game, load_saved

    interactive = sys.stdin.isatty()
    color = use_color(sys.stdout, no_color)
    try:
        with open(path, "rb") as fh:
            is_match = MATCH_FORMAT.encode() in fh.read(200)
        if is_match:
            match = load_saved(path)
        else:
            g, waiting = load_game(path, with_next_deal=True)
    except OSError as exc:
        typer.echo(f"{visible(str(path))}: error save-read: {visible(exc.strerror or str(exc))}", err=True)
        return BAD_INPUT
    except KallistiError as exc:
        _report(exc.findings)
        return BAD_INPUT
    if is_match:
        from kallisti.cli.match_play import run_match_session

        return _session(lambda: run_match_session(match, stdin_lines(interactive), typer.echo, err=_stderr,
                                                  color=color, tip=interactive))
    return _session(lambda: run_session(g, stdin_lines(interactive), typer.echo, color=color, err=_stderr,
                                        tip=interactive, waiting=waiting, resumed=str(path), stats=stats,
                                        auto=interactive if auto is None else auto))


def _stderr(text: str) -> None:
    typer.echo(text, err=True)


def fresh_seed() -> int:
    """A deal number from 1 to MAX_SEED, for a game given no --seed."""
    import secrets  # it loads OpenSSL: only when a game is dealt

    return secrets.randbelow(MAX_SEED) + 1


def _session(play: Callable[[], int]) -> int:
    """Runs a play session to its exit code: Ctrl-C quits, and a rule that fails at run time ends the game with a
    clear error. Moves judged by a failing rule are refused as the game goes; a win, lose or score rule that fails
    leaves nothing to play on, so the session stops rather than guess the game's state."""
    from kallisti.interpreter.compiler import RuleRuntimeError

    try:
        return play()
    except KeyboardInterrupt:
        typer.echo("\n*** QUIT ***")
        return QUIT
    except RuleRuntimeError as exc:
        typer.echo(f"error rule-runtime: a rule failed while the game was played: {exc}; the game cannot go on "
                   "(`kallisti check` finds such rules before play)", err=True)
        return BAD_INPUT


def _play_table(rules, players: str, seed: int | None) -> int:
    from kallisti.cli.table_play import run_table_session, seats_from_players

    try:
        seats = seats_from_players(players)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--players")
    return _session(lambda: run_table_session(rules, seats, fresh_seed() if seed is None else seed,
                                              stdin_lines(sys.stdin.isatty()), typer.echo))


def _play_match(rules, players: str, seed: int | None, no_color: bool) -> int:
    from kallisti.cli.match_play import run_match_session
    from kallisti.interpreter.match import Match, seats_from_text
    from kallisti.solver.strategies import STRATEGIES

    try:
        seats = seats_from_text(players)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--players")
    for s in seats:
        if s.is_bot and s.strategy not in STRATEGIES:
            raise typer.BadParameter(f"no bot strategy '{s.strategy}'; choose from {', '.join(STRATEGIES)}", param_hint="--players")
    try:
        match = Match(rules, seats, fresh_seed() if seed is None else seed)
    except KallistiError as exc:
        _report(exc.findings)
        return BAD_INPUT
    interactive = sys.stdin.isatty()
    return _session(lambda: run_match_session(match, stdin_lines(interactive), typer.echo,
                                              err=lambda text: typer.echo(text, err=True),
                                              color=use_color(sys.stdout, no_color), tip=interactive))


def _report(findings: list[Finding]) -> None:
    for finding in findings:
        typer.echo(str(finding), err=True)


# -- deal files -----------------------------------------------------------------------------
def deal_option_order(rules, deal: str) -> list[int]:
    """The card order `--deal` gives: a world deal number (`ms:N`, `pysol:N`, a usage error when unfit) or a deal file."""
    from kallisti.interpreter.world_deals import WorldDealError, is_world_deal, world_deal_order

    if is_world_deal(deal):
        try:
            return world_deal_order(rules, deal)
        except WorldDealError as exc:
            raise typer.BadParameter(str(exc), param_hint="--deal") from None
    return read_deal_file(rules.deck, Path(deal))


def read_deal_file(deck, path: Path) -> list[int]:
    """The card order a deal file lists, or KallistiError naming file:line:column of each problem."""
    from kallisti.textfiles import read_text

    text = read_text(Path(path), MAX_DEAL_BYTES, "the deal file", "deal")
    return deal_order(deck, text, str(path))


def deal_order(deck, text: str, source: str) -> list[int]:
    """Card ids in dealing order from deal-file text: names separated by whitespace, `#` to the end of a line ignored."""
    names = deal_names(text, source)
    if not names:
        raise KallistiError(Finding("deal-size", f"the deal lists no cards; the deck has {deck.size}", Pos(source, 1, 1)))
    findings = []
    for name, pos in names:  # every unknown card at once, not only the first
        try:
            deck.parse_card(name, pos)
        except KallistiError as exc:
            findings.extend(exc.findings)
    if findings:
        if len(names) != deck.size:
            findings.append(Finding("deal-size", f"the deal lists {len(names)} cards; the deck has {deck.size}", names[-1][1]))
        raise KallistiError(findings)
    return deck.order_from_names(names)


def deal_names(text: str, source: str) -> list[tuple[str, Pos]]:
    """Every card name of a deal file with its position (1-based line and column)."""
    names = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0]
        for match in re.finditer(r"\S+", line):
            names.append((match.group(), Pos(source, number, match.start() + 1)))
    return names


# -- the session ----------------------------------------------------------------------------
def run_session(game, lines: Iterable[str], out: Out, *, color: bool = False, deal_source: str | None = None,
                err: Out | None = None, tip: bool = False, watcher=None, waiting: Iterable[dict] = (),
                resumed: str | None = None, stats: bool = False, auto: bool = False) -> int:
    """Play `game` with one command per line of `lines`, writing to `out`; returns the exit code.

    A won or lost game is announced once, and play goes on: undo, `restart`, `new` or `q`. The exit code is that
    of the game when the lines run out or at `q`: 0 won, 3 lost, 4 still playing. A save that cannot be loaded, or
    a file that `save` must not replace, is refused and the game goes on. With `stats`, each game played is
    recorded for `kallisti stats` (kallisti.stats.Recorder: a win when reached, a game left unwon when left).
    With `auto`, autoplay is on from the start (`auto on|off` in play; kallisti.solver.autoplay).
    """
    from kallisti.stats import recorder

    err = err or out
    session = Session(game, out, err, color, deal_source, auto, most_seed=MAX_SEED)
    session.watcher = watcher
    session.stats = recorder(err, stats)
    if session.stats is not None:  # a save of a game already won was recorded when it was won
        session.stats.follow(game, deal_source, recorded=resumed is not None and game.status().outcome == "won")
    session.waiting = [(event, len(game.history)) for event in waiting]  # a save's changes waiting for the next deal
    out(title(game, deal_source))
    if resumed is not None:
        out(f"resumed from {visible(resumed)}, {moves_text(game.moves_made)} made")
    if tip:
        out("type `help` for the commands, `q` to quit")
    session.show_table()
    if session.check_end() is None:
        session.show_honour()
    try:
        for line in command_lines(lines, out):
            session.check_watch()
            result = session.command(line)
            if session.stats is not None:  # `new`, `restart` or `load` left the game that was in play
                session.stats.follow(session.game, session.deal_source)
            if result is not None:
                return result
            session.check_end()
        return session.leave()
    finally:  # the game in play is left: at `q`, at the end of the input, at ^C
        if session.stats is not None:
            session.stats.leave()
