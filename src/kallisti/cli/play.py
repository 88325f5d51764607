"""`kallisti play`: text-mode play, one command a line, from a terminal or a piped script."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import typer

from kallisti.cli.render import COMPACT_ROLES, entry_lines, legend_lines, table_lines, use_color, wrapped
from kallisti.errors import Finding, KallistiError, Pos
from kallisti.interpreter.honour import AT_NEXT_DEAL, HonourRules
from kallisti.unsafe import visible

# Exit codes of `kallisti play` (also in its --help).
WON, BAD_INPUT, USAGE, LOST, QUIT = 0, 1, 2, 3, 4
MAX_DEAL_BYTES = 100_000
MAX_SEED = 10**9  # a fresh game picks its deal number from 1 to this; `new N` takes as many digits
MAX_COMMAND_CHARS = 10_000  # a piped line longer than this is refused (and read no further than needed)
NEW_LOG = "`new` deals again under the rules as they stand, with a log of its own"

# The commands, as `help` lists them: wrapped to the terminal's width, they fit a screen of 80 by 24 with the prompt.
HELP = (
    ("SRC DST [N]", "move the top card (N cards) of SRC to DST: `t3 f1`, `t2 t7 3`; a group's letter alone, as in "
                    "`t3 f`, is its first pile that takes the card"),
    ("SRC@K DST [N]", "where the rules let cards leave from below the top: the K-th card of SRC from its bottom "
                      "(with the N-1 above it), `c1@1 f`"),
    ("d", "deal from the stock"),
    ("u / r", "undo / redo a step"),
    ("a", "make the automatic moves now: the ruleset's, safe moves home, a game won by force"),
    ("auto on|off", "after each move, send home the cards nothing else needs (on at a terminal unless --no-auto)"),
    ("hint / moves", "a move to make (the command to type) / each legal move once"),
    ("table / legend", "show the table again / what its tags and marks mean"),
    ("rules", "the rules in play (as `kallisti show` prints them)"),
    ("ok", "acknowledge the honour rule shown (do what it says first)"),
    ("rule CHANGE", "change a rule, e.g. `rule set tableau.count 12` (undo takes it back)"),
    ("new [N]", "deal again (deal N);  restart: the same deal from its start"),
    ("save FILE", "save the game;  load FILE: go on from a save"),
    ("help / q", "this list / quit"),
)
HELP_AFTER = ("A game won or lost is announced and play goes on (undo, restart, new, q). Blank lines and lines "
              "starting with # are ignored.")

Out = Callable[[str], None]


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
        g, _stdin_lines(interactive), typer.echo, color=use_color(sys.stdout, no_color), deal_source=source,
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

        return _session(lambda: run_match_session(match, _stdin_lines(interactive), typer.echo, err=_stderr,
                                                  color=color, tip=interactive))
    return _session(lambda: run_session(g, _stdin_lines(interactive), typer.echo, color=color, err=_stderr,
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
                                              _stdin_lines(sys.stdin.isatty()), typer.echo))


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
    return _session(lambda: run_match_session(match, _stdin_lines(interactive), typer.echo,
                                              err=lambda text: typer.echo(text, err=True),
                                              color=use_color(sys.stdout, no_color), tip=interactive))


class RulesWatcher:
    """Watches a ruleset file for `play --watch`: reads it again whenever its text changes.

    It is polled between commands, so an edit takes effect at a well-defined point of play.
    """

    def __init__(self, path: Path, rules):
        self.path = path
        self.text = self._read()

    def _read(self) -> str | None:
        from kallisti.model.located import MAX_FILE_BYTES
        from kallisti.textfiles import read_text

        try:
            return read_text(self.path, MAX_FILE_BYTES, "the ruleset file", "file")
        except (OSError, UnicodeDecodeError, KallistiError):
            return None  # unreadable for now (mid-save, too large): the rules in play stay

    def poll(self):
        """None when the file is unchanged; else the new Ruleset, or the KallistiError that refuses it."""
        from kallisti.model.ruleset import load_ruleset

        text = self._read()
        if text is None or text == self.text:
            return None
        self.text = text
        try:
            return load_ruleset(self.path, text)
        except KallistiError as exc:
            return exc


# The keys of a pile group that make the table's layout (with the group's name and place, and the deck but for its
# shuffle): what Game.same_layout compares, and what a reloaded file cannot change before the next deal.
LAYOUT_KEYS = ("count", "tag")


def rules_on_table(new, game, where: Pos):
    """The rules of `new` on the deck and the piles of `game`'s table, for `play --watch`: what of a reloaded file can
    apply from the next move while its layout waits for the next deal. None when they cannot go without that layout
    (a rule names a pile group the table lacks) or fail the trial a change must pass."""
    from kallisti.interpreter import amend
    from kallisti.interpreter.save import compile_resolved
    from kallisti.model.located import plain

    data, table = plain(new.data), plain(game.rules.data)
    data["deck"] = {**table["deck"], "shuffle": data["deck"].get("shuffle", table["deck"].get("shuffle"))}
    piles = {}
    for name, group in table["piles"].items():
        edited = data["piles"].get(name)
        if edited is None:
            piles[name] = group
        else:
            piles[name] = {k: v for k, v in edited.items() if k not in LAYOUT_KEYS}
            piles[name].update({k: group[k] for k in LAYOUT_KEYS if k in group})
    data["piles"] = piles
    try:
        rules = compile_resolved(data, where.source)
    except KallistiError:
        return None
    if not game.same_layout(rules) or amend.trial_findings(rules, game.rules, where):
        return None
    return rules


def _stdin_lines(interactive: bool) -> Iterable[str]:
    """Lines of standard input; on a terminal, a `> ` prompt and line editing. Ctrl-C or Ctrl-D ends the input."""
    if interactive:
        try:
            import readline  # noqa: F401  (line editing and history for input())
        except ImportError:
            pass
    reconfigure = getattr(sys.stdin, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors="replace")  # bytes that are not UTF-8 become U+FFFD: a refused command, not a traceback
    try:
        while True:
            if interactive:
                yield input("> ")
            else:
                line = sys.stdin.readline(MAX_COMMAND_CHARS + 1)
                if not line:
                    return
                if len(line) > MAX_COMMAND_CHARS and not line.endswith("\n"):
                    _skip_rest_of_line()  # the prefix kept is long enough to be refused as too long
                yield line
    except (EOFError, KeyboardInterrupt):
        if interactive:
            sys.stdout.write("\n")
        return


def _skip_rest_of_line() -> None:
    """Read standard input up to the end of the current line, a bounded piece at a time."""
    while True:
        piece = sys.stdin.readline(MAX_COMMAND_CHARS)
        if not piece or piece.endswith("\n"):
            return


def command_lines(lines: Iterable[str], out: Out, stop: Callable[[], bool] = lambda: False) -> Iterator[str]:
    """The commands of `lines`, stripped: blank lines and lines starting with # skipped, a line over
    MAX_COMMAND_CHARS refused (said through `out`) and skipped, not parsed; no further line is read once `stop()`."""
    for raw in lines:
        if stop():
            return
        if len(raw) > MAX_COMMAND_CHARS:
            out(f"a command is at most {MAX_COMMAND_CHARS:,} characters; that line was not read")
            continue
        line = raw.strip()
        if line and not line.startswith("#"):
            yield line


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
def command_for(game, m: int) -> str:
    """The command that makes exactly move m (naming the card count when the short form means another move)."""
    from kallisti.interpreter.notation import describe

    return describe(game, m)


def distinct_moves(game) -> list[tuple[str, int]]:
    """Each distinct legal move once, as (command, move), by source pile, then destination pile, then card count.

    The same cards going to piles of one group that look alike (the same cards, as many face down: empty foundations,
    two tableau piles holding the same cards) make one move, listed as the first of them; to foundations, as the
    group's shorthand (`w f`) where that names one of them. Only where the rules cannot tell the group's piles apart
    (the solver's symmetry: no rule reads a pile's index, no route reaches or leaves them one pile at a time)."""
    from kallisti.solver.solve import interchangeable_groups

    state, kind, group_of = game.state, game.deck.kind, game.rules.group_of
    alike_groups = interchangeable_groups(game.rules)  # only there may two piles' moves be one
    alike: dict[tuple, list[int]] = {}
    for m in game.legal_moves():
        what, src, dst, n = game.decode(m)
        look = m
        if what == "move" and group_of[dst] in alike_groups:
            look = (group_of[dst], tuple(kind[c] for c in state.piles[dst]), state.down[dst])
        alike.setdefault((what, src, n, look), []).append(m)
    listed = []
    for members in alike.values():
        m = min(members, key=lambda mv: _listing_order(game, mv))
        short = len(members) > 1 and game.rules.groups[group_of[game.decode(m)[2]]].role in COMPACT_ROLES
        listed.append((_shorthand(game, m, members) if short else command_for(game, m), m))
    listed.sort(key=lambda item: _listing_order(game, item[1]))
    return listed


def _listing_order(game, m: int) -> tuple:
    what, src, dst, n = game.decode(m)
    return (src, dst, n, game.window(m)[1:] if what == "discard" else (), m)


def _shorthand(game, m: int, members: list[int]) -> str:
    """`w f` for one of several alike moves to a group's piles, when the session reads it as one of them."""
    from kallisti.interpreter.notation import MoveRefused, parse_move

    words = command_for(game, m).split()
    words[1] = game.rules.groups[game.rules.group_of[game.decode(m)[2]]].tag
    short = " ".join(words)
    try:
        return short if parse_move(game, short) in members else command_for(game, m)
    except MoveRefused:
        return command_for(game, m)


def title(game, deal_source: str | None = None) -> str:
    """`Forty Thieves, deal 7`: what someone needs to play the same deal."""
    if deal_source is not None and deal_source.startswith(("ms:", "pysol:")):
        return f"{game.rules.name}, deal {deal_source}"
    if deal_source is not None:
        return f"{game.rules.name}, deal from {deal_source}"
    if game.seed is not None:
        return f"{game.rules.name}, deal {game.seed}"
    return f"{game.rules.name}, a dealt order"


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
    session = _Session(game, out, err, color, deal_source, auto)
    session.watcher = watcher
    session.stats = recorder(err, stats)
    if session.stats is not None:  # a save of a game already won was recorded when it was won
        session.stats.follow(game, deal_source, recorded=resumed is not None and game.status().outcome == "won")
    session.waiting = [(event, len(game.history)) for event in waiting]  # a save's changes waiting for the next deal
    out(title(game, deal_source))
    if resumed is not None:
        out(f"resumed from {visible(resumed)}, {_moves(game.moves_made)} made")
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


def file_refused(exc: KallistiError, err: Out, out: Out, goes_on: str) -> None:
    """A save or load refused: its findings (each names the file and says why), then that play goes on."""
    for finding in exc.findings:
        err(str(finding))
    out(goes_on)


def _moves(n: int) -> str:
    return f"{n} move{'' if n == 1 else 's'}"


HOME_ROLES = ("foundation", "discard")  # where cards go for good: the piles the status line counts as home


def status_line(game) -> str:
    """`12 moves | score 40 | 12/104 home | deal 7`: where the game stands, after each move (within 80 columns)."""
    home = sum(game.state.sizes.get(name, 0) for name, g in game.rules.groups.items() if g.role in HOME_ROLES)
    parts = [_moves(game.moves_made)]
    if game.rules.score is not None:
        parts.append(f"score {game.score()}")
    parts.append(f"{home}/{game.deck.size} home")
    parts.append(f"deal {game.seed}" if game.seed is not None else "a dealt order")
    return " | ".join(parts)[:80]


def end_summary(game) -> str:
    """`score 12, 40 moves` (`40 moves` for a ruleset without a score)."""
    moves = _moves(game.moves_made)
    return moves if game.rules.score is None else f"score {game.score()}, {moves}"


class _Session:
    """The state of one text session: the game being played and how to print it."""

    def __init__(self, game, out: Out, err: Out, color: bool, deal_source: str | None = None, auto: bool = False):
        from kallisti.solver.autoplay import Autoplay

        self.game, self.out, self.err, self.color = game, out, err, color
        # Autoplay (`auto on|off`): after each move, the safe moves home and the end of a game won by force; the
        # same moves are made on request by `a` whether it is on or off.
        self.auto = auto
        self.autoplay = Autoplay()
        self.deal_source = deal_source  # where the deal in play came from (`--deal`), for `restart`'s title
        self.watcher = None
        # The game's status as last judged, and what it was judged on (the game and its log's length): an end is
        # announced once, when the outcome changes to won or lost, and judged again only after a step.
        self.outcome: str | None = None
        self.judged: tuple | None = None
        # Changes that cannot apply to the cards on the table wait for the next deal: `rule` and `rules`
        # events in order, each with the number of the game's steps done when it was made (its place among
        # the steps undo and redo walk), so that undo takes back the latest one once the steps after it are
        # undone. Undo and redo log events of their own, so the log's length cannot place a change.
        self.waiting: list[tuple[dict, int]] = []
        # Waiting changes taken back by undo, for redo: each with its place and how many game steps were done
        # and waiting to be redone when it was taken back; redo makes it again from there only (a step undone
        # after it is redone first). A new step clears them, as it clears the game's redo.
        self.unwaited: list[tuple[dict, int, tuple[int, int]]] = []
        self.honour = HonourRules(game)

    # -- honour rules ----------------------------------------------------------------------------
    def honour_due(self) -> list:
        """The honour rules to acknowledge before the next move, in order."""
        return self.honour.due(self.game)

    def show_honour(self) -> None:
        due = self.honour_due()
        if due:
            h = due[0]
            self.out(f"honour rule ({h.at.replace('-', ' ')}): {h.says}  [do it, then type `ok`]")

    def acknowledge(self) -> None:
        h = self.honour.acknowledge(self.game)
        if h is None:
            self.out("no honour rule is waiting to be acknowledged")
            return
        self.out(f"acknowledged: {h.says}")
        self.show_honour()

    def honour_first(self, m: int | None = None) -> bool:
        """Whether a move (`m`, when known: a deal makes the `before deal` rules due) must wait for an honour rule
        (said so when it must)."""
        due = self.honour.ask(self.game, m) if m is not None else self.honour_due()
        if due:
            self.out(f"first acknowledge: {due[0].says} (type `ok`)")
        return bool(due)

    def moved(self) -> None:
        """After a move: the before-move rules are due again, and nothing undone before it can be redone."""
        self.unwaited.clear()
        self.honour.moved()
        if self.game.status().outcome == "playing":
            self.show_honour()

    # -- rule changes during play ------------------------------------------------------------
    def next_rules(self):
        """The rules the next deal is dealt under: those in play with the waiting changes applied."""
        from kallisti.interpreter.save import next_deal_rules

        return next_deal_rules(self.game.rules, [event for event, _ in self.waiting])

    def rule(self, text: str) -> None:
        """`rule CHANGE`: check the change completely, then play on under it (undo steps back over it)."""
        from kallisti.interpreter import amend
        from kallisti.interpreter.game import LayoutChanged
        from kallisti.interpreter.save import adopt_change, refuse_another_change
        from kallisti.model.ruleset import UNWINNABLE

        if not text:
            self.out("rule needs a change, e.g. `rule forbid foundation.build \"no kings\": card.rank == K`")
            return
        before = self.game.rules
        try:
            refuse_another_change(self.game.events, len(self.waiting), Pos("<change>", 1, 1), NEW_LOG)
            upcoming = self.next_rules()
            # Checked against the rules of the next deal: with nothing waiting, those in play.
            amend.amend(upcoming.data, text, baseline=upcoming)
        except KallistiError as exc:
            self._refused("change refused; the rules stay as they were:", exc.findings)
            return
        try:
            adopted = adopt_change(self.game, text)
        except LayoutChanged:
            self._wait({"type": "rule", "text": text}, upcoming,
                       "this changes the deck or the piles: it takes effect from the next deal (`new` deals again)")
            return
        except KallistiError:
            self._wait({"type": "rule", "text": text}, upcoming,
                       "this fits only the rules of the next deal, with the changes waiting for it: it takes effect from "
                       "the next deal too")
            return
        self.out(f"rule changed, from the next move: {text}")
        self.unwaited.clear()  # a new step: what undo took back before it is not redone
        for finding in adopted.rules.findings:
            if finding.code in UNWINNABLE:
                self.out(f"note: the game can no longer be won: {finding.message}")
        self._show_diff(before, self.game.rules)
        self.show_honour()

    def _wait(self, event: dict, upcoming, why: str) -> None:
        """Keep a change for the next deal and show what it does to that deal's rules."""
        self.waiting.append((event, len(self.game.history)))
        self.unwaited.clear()
        self.out(why)
        self._show_diff(upcoming, self.next_rules())

    def _refused(self, headline: str, findings) -> None:
        self.out(headline)
        for finding in findings:
            self.out(f"  {finding}")

    def _show_diff(self, before, after) -> None:
        from kallisti.model.diff import ruleset_diff

        for line in ruleset_diff(before.data, after.data):
            self.out("   " + line)

    def check_watch(self) -> None:
        """Between commands: adopt the watched file's new rules, or report why they are refused.

        The file describes the whole ruleset: when it is adopted, nothing typed before waits for the next deal.
        """
        from kallisti.interpreter import amend
        from kallisti.interpreter.game import LayoutChanged
        from kallisti.interpreter.save import adopt_rules, refuse_another_change

        if self.watcher is None:
            return
        new = self.watcher.poll()
        if new is None:
            return
        path = self.watcher.path
        refused = f"{path} changed but cannot be used; play goes on under the old rules:"
        if isinstance(new, KallistiError):
            self._refused(refused, new.findings)
            return
        try:
            refuse_another_change(self.game.events, 0, Pos(str(path), 1, 1), NEW_LOG)  # it replaces what waits
        except KallistiError as exc:
            self._refused(refused, exc.findings)
            return
        before = self.game.rules
        findings = amend.trial_findings(new, before, Pos(str(path), 1, 1))
        if findings:
            self._refused(refused, findings)
            return
        for finding in new.findings:  # warnings: the rules are used all the same
            self.out(f"  {finding}")
        if amend.data_key(new.data) == amend.data_key(before.data):
            if self.waiting:
                self.out(f"{path} reloaded: it says the rules in play; nothing waits for the next deal any more")
                self.waiting.clear()
                self.unwaited.clear()
            else:
                self.out(f"{path} reloaded: no rule changed")
            return
        layout_waits = not self.game.same_layout(new)
        # What applies from the next move: the file's rules, on the deck and the piles of the table when its own
        # wait for the next deal (so that an edit of rules alone never waits behind an edit of the layout).
        now = rules_on_table(new, self.game, Pos(str(path), 1, 1)) if layout_waits else new
        had_waiting = bool(self.waiting)
        self.waiting.clear()  # the file is the whole ruleset: it replaces whatever waited
        self.unwaited.clear()
        if now is not None and amend.data_key(now.data) != amend.data_key(before.data):
            try:
                adopt_rules(self.game, now, str(path))
            except LayoutChanged:  # rules_on_table keeps the table's layout; kept as a guard all the same
                now = None
            else:
                self.out(f"{path} reloaded: the new rules apply from the next move")
                self._show_diff(before, now)
        if not layout_waits:
            if had_waiting:
                self.out("nothing waits for the next deal any more")
            return
        adopted = now is not None and self.game.rules is now
        # Shown against the rules in play: everything that still waits, earlier edits of the layout included.
        self._wait({"type": "rules", "file": str(path), "resolved": new.plain()}, self.game.rules,
                   f"{path} also changes the deck or the piles: they take effect from the next deal (`new` deals again)"
                   if adopted else
                   f"{path} reloaded: it changes the deck or the piles, so it takes effect from the next deal "
                   "(`new` deals again)")

    def undo(self) -> None:
        """`u`: take back the last step: a change waiting for the next deal, a rule change or a move."""
        from kallisti.interpreter.game import RuleStep

        game = self.game
        if self.waiting and self.waiting[-1][1] == len(game.history):
            before = self.next_rules()
            self.unwaited.append((*self.waiting.pop(), self._steps()))
            self.out("undone: the change waiting for the next deal")
            self._show_diff(before, self.next_rules())
            return
        if not game.undo():
            self.out("nothing to undo")
            return
        undone = game.redo_stack[-1]
        steps = [rec for rec in undone if isinstance(rec, RuleStep)]
        if steps:
            self.out("undone: the rule change")
        elif len(undone) > 1:  # a move and the automatic moves it set off, autoplay's among them: one step
            self.out(f"undone: {len(undone)} moves in one step (automatic moves go back with the move or `a` that "
                     "made them)")
        else:
            self.out("undone")
        for step in steps:
            self._show_diff(step.after, step.before)
        self.show_table()

    def _steps(self) -> tuple[int, int]:
        """Where the game's undo and redo stand: the steps done and the steps waiting to be redone."""
        return len(self.game.history), len(self.game.redo_stack)

    def redo(self) -> None:
        """`r`: make again the step undo took back last."""
        from kallisti.interpreter.game import RuleStep

        game = self.game
        if self.unwaited and self.unwaited[-1][2] == self._steps():
            before = self.next_rules()
            self.waiting.append(self.unwaited.pop()[:2])
            self.out("redone: the change waits for the next deal again")
            self._show_diff(before, self.next_rules())
            return
        if not game.redo():
            self.out("nothing to redo")
            return
        steps = [rec for rec in game.history[-1] if isinstance(rec, RuleStep)]
        self.out("redone: the rule change" if steps else "redone")
        for step in steps:
            self._show_diff(step.before, step.after)
        self.show_table()

    def new_deal(self, arg: str) -> None:
        """`new [SEED]`: a new deal, under the changes waiting for it if any."""
        from kallisti.interpreter.game import Game

        if arg and not (arg.isascii() and arg.isdigit() and len(arg) <= len(str(MAX_SEED))):
            self.out("new takes a deal number, e.g. `new 7`")
            return
        try:
            rules = self.next_rules()
        except KallistiError as exc:
            self._refused("the changes waiting for the next deal no longer fit the rules in play; they are dropped:",
                          exc.findings)
            rules = self.game.rules
        seed = int(arg) if arg else (self.game.seed or 0) + 1
        try:
            game = Game(rules, seed=seed)
        except KallistiError as exc:
            self._refused("the new deal cannot be made:", exc.findings)
            return
        self.game, self.deal_source, self.outcome = game, None, None
        self.waiting.clear()
        self.unwaited.clear()
        self.honour = HonourRules(game, AT_NEXT_DEAL)
        self.out(title(self.game))
        self.show_table()
        self.show_honour()

    def restart(self) -> None:
        """`restart`: the same deal again from its start, under the rules it was dealt with (a rule change made in
        play is gone with the moves; one waiting for the next deal waits on). Undo does not step back over it."""
        from kallisti.interpreter.game import Game

        old = self.game
        self.game = Game(old.initial_rules, seed=old.seed, order=old.order, deal_number=old.deal_number)
        self.outcome = None
        self.waiting = [(event, 0) for event, _ in self.waiting]
        self.unwaited.clear()
        self.honour = HonourRules(self.game)
        self.out(f"restarted: {title(self.game, self.deal_source)}")
        self.show_table()
        self.show_honour()

    def show_table(self) -> None:
        for line in table_lines(self.game, self.color):
            self.out(line)

    def check_end(self) -> int | None:
        """After a step: the exit code of a game that has ended (announced when it has just ended), else None.

        The end line keeps its greppable form (`*** WON: <game> in <N> moves ***`, `*** LOST: <reason> ***`) and
        stays the last line printed; the line before it gives the score, where the ruleset has one, the moves made
        and what the player may do next."""
        game = self.game
        if self.judged is None or self.judged[0] is not game or self.judged[1] != len(game.events):
            self.judged = (game, len(game.events))
            status = game.status()
            if status.outcome != self.outcome and status.outcome != "playing":
                self._announce(status)
            self.outcome = status.outcome
        return {"won": WON, "lost": LOST}.get(self.outcome or "playing")

    def _announce(self, status) -> None:
        game = self.game
        for h in game.rules.honour:
            if h.at == "turn-end":
                self.out(f"honour rule (turn end): {h.says}")
        self.out(f"game over, {end_summary(game)}; play on: u (undo), restart, new [N], q (quit)")
        if status.outcome == "won" and self.stats is not None:  # a loss is recorded when the game is left
            self.stats.won(game, self.deal_source)
        if status.outcome == "won":
            self.out(f"*** WON: {game.rules.name} in {_moves(game.moves_made)} ***")
        else:
            self.out(f"*** LOST: {status.reason} ***")

    def leave(self) -> int:
        """`q`, or the end of the input: the exit code of the game as it stands (QUIT while it is still on)."""
        code = self.check_end()
        if code is None:
            self.out("*** QUIT ***")
            return QUIT
        return code

    def command(self, line: str) -> int | None:
        """Carry out one command line; an exit code when the session ends."""
        from kallisti.interpreter.notation import describe, narrate

        words = line.split()
        verb = words[0].lower()
        game = self.game
        if len(words) == 1 and verb in ("q", "quit", "exit"):
            return self.leave()
        if len(words) == 1 and verb in ("help", "?"):
            for text in ["commands:", *entry_lines(HELP), *wrapped(HELP_AFTER)]:
                self.out(text)
        elif len(words) == 1 and verb == "rules":
            from kallisti.cli.show import rules_text

            self.out(rules_text(game.rules))
        elif len(words) == 1 and verb == "legend":
            for text in legend_lines(game):
                self.out(text)
        elif len(words) == 1 and verb in ("table", "l"):
            self.show_table()
        elif len(words) == 1 and verb in ("u", "undo"):
            self.undo()
        elif len(words) == 1 and verb in ("r", "redo"):
            self.redo()
        elif len(words) == 1 and verb in ("ok", "ack", "done"):
            self.acknowledge()
        elif len(words) <= 2 and verb in ("a", "auto"):
            self.automatic(words[1].lower() if len(words) == 2 else "")
        elif len(words) == 1 and verb == "hint":
            from kallisti.solver.strategies import hint_with_source

            h = hint_with_source(game)
            self.out(f"hint: {command_for(game, h.move)} ({h.why})" if h.move is not None else f"hint: {h.why}")
        elif len(words) == 1 and verb == "moves":
            moves = distinct_moves(game)
            self.out(f"{_moves(len(moves))}:")
            for command, m in moves:
                self.out(f"  {command:<10} {narrate(game, m)}")
        elif verb in ("save", "load"):
            return self._file_command(verb, line)
        elif verb == "rule":
            self.rule(line.split(None, 1)[1].strip() if len(words) > 1 else "")
        elif verb == "new" and len(words) <= 2:
            self.new_deal(words[1] if len(words) == 2 else "")
        elif len(words) == 1 and verb == "restart":
            self.restart()
        else:
            self._move(line)
        return None

    def _move(self, line: str) -> None:
        from kallisti.interpreter.notation import MoveRefused, describe, narrate, parse_move

        game = self.game
        try:
            m = parse_move(game, line.lower())  # tags are lower case
        except MoveRefused as exc:
            self.out(f"refused: {exc}{self._compulsory_note()}")
            return
        if self.honour_first(m):
            return
        said = narrate(game, m)
        made = game.play(m)
        if self.auto:
            made += self.autoplay.follow(game)  # part of the move's step: one undo takes them back with it
        self.out(said)
        if len(made) > 1:
            self.out("auto: " + ", ".join(describe(game, am) for am in made[1:]))
        self.out(status_line(game))
        self.show_table()
        self.moved()

    def _compulsory_note(self) -> str:
        """For a refusal: the compulsory move that must be played, when it is the only legal move (else '')."""
        from kallisti.interpreter.notation import describe
        from kallisti.solver.autoplay import sole_compulsory

        m = sole_compulsory(self.game)
        return "" if m is None else f"; the only legal move is the compulsory `{describe(self.game, m)}` (`a` plays it)"

    def automatic(self, arg: str) -> None:
        """`a` (`auto`): make the automatic moves now, as one step: the ruleset's own, then the safe moves home and
        the end of a game won by force; else the compulsory move, when it is the only legal move. `auto on|off`:
        autoplay after each move."""
        from kallisti.interpreter.notation import describe, narrate
        from kallisti.solver.autoplay import sole_compulsory

        if arg in ("on", "off"):
            self.auto = arg == "on"
            self.out("autoplay on: after each move, cards nothing else could need go home, and a game won by force is "
                     "finished (undo takes them back with the move)" if self.auto else
                     "autoplay off: `a` makes the automatic moves on request")
            return
        if arg:
            self.out("auto takes on or off (`auto on`, `auto off`); `a` alone makes the automatic moves now")
            return
        if self.honour_first():
            return
        game = self.game
        made = game.play_auto()
        made += self.autoplay.follow(game, new_step=not made)
        if not made:
            m = sole_compulsory(game)
            if m is None:
                moves = game.legal_moves()
                forced = bool(game.rules.compulsory and moves) and all(
                    game._matches_any(game.rules.compulsory, mv) for mv in moves)
                self.out("no automatic move to make" + ("; choose among the compulsory moves (`moves` lists them)"
                                                         if forced else ""))
                return
            self.out(narrate(game, m))
            made = game.play(m)
            if self.auto:
                made += self.autoplay.follow(game)
            if len(made) > 1:
                self.out("auto: " + ", ".join(describe(game, am) for am in made[1:]))
        else:
            self.out("auto: " + ", ".join(describe(game, m) for m in made))
        self.out(status_line(game))
        self.show_table()
        self.moved()

    def _file_command(self, verb: str, line: str) -> None:
        """`save FILE` or `load FILE`. Neither ever ends the session: a save that cannot be loaded and a file that
        saving must not replace are refused, with the findings that say why, and the game in progress goes on."""
        from kallisti.interpreter.save import load_game, save_game

        name = line.split(None, 1)[1].strip() if len(line.split(None, 1)) > 1 else ""
        if not name:
            self.out(f"{verb} needs a file name, e.g. `{verb} game.json`")
            return None
        if verb == "save":
            try:
                kept = save_game(self.game, Path(name), [event for event, _ in self.waiting])
            except (OSError, ValueError) as exc:  # ValueError: a name holding NUL
                self.out(f"cannot save to {visible(name)}: {visible(getattr(exc, 'strerror', None) or str(exc))}; "
                         "the game goes on unsaved")
                return None
            except KallistiError as exc:
                file_refused(exc, self.err, self.out, "not saved; the game goes on unsaved")
                return None
            self.out(f"saved to {visible(name)}" + ("" if kept is None else f" (the save it replaced is kept in "
                                                      f"{visible(str(kept))})"))
            return None
        try:
            self.game, waiting = load_game(Path(name), with_next_deal=True)
        except KallistiError as exc:
            file_refused(exc, self.err, self.out, "not loaded; the game goes on as it was")
            return None
        self.waiting = [(event, len(self.game.history)) for event in waiting]
        self.unwaited.clear()
        self.deal_source, self.outcome = None, None
        self.out(f"loaded {visible(name)}: {title(self.game)}, {_moves(self.game.moves_made)} made")
        self.show_table()
        return None
