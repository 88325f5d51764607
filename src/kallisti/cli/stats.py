"""`kallisti stats`: the statistics of the games played, read from the local statistics database."""

from __future__ import annotations

import json
from enum import Enum

import typer


class Format(str, Enum):
    text = "text"
    json = "json"


def stats(
    game: str | None = typer.Argument(None, metavar="GAME", help="Only this game: a shipped game's name (see "
                                      "`kallisti list`) or a game's title, e.g. forty-thieves or \"Forty Thieves\"."),
    format: Format = typer.Option(Format.text, "--format", help="text for a person, json for a program."),
) -> None:
    """Print the statistics of the games played, e.g. `kallisti stats forty-thieves --format json`.

    Per game and ruleset (a variant, or a rule changed in play, counts apart,
    under the hash of its rules): games played, won and lost, the win rate,
    the current and the best win streak, the best (highest) score, and the
    fastest win by moves and by time. `kallisti play` and `kallisti serve`
    record each game once: a win when it is reached, a game left unwon after
    a move as lost (abandoned, when it was still on). The database is
    `stats.sqlite3` in the user's data folder, or the file $KALLISTI_STATS
    names; `play --no-stats` or KALLISTI_NO_STATS=1 records nothing.

    Exit codes: 0 shown, 1 the database cannot be read (play is not affected), 2 usage.
    """
    from kallisti.stats import StatsError, as_json, database_path, query

    path = database_path()
    try:
        summaries = query(_title(game), path)
    except StatsError as exc:
        typer.echo(f"error stats-database: {exc}; move the file away to start afresh", err=True)
        raise typer.Exit(1)
    if format == Format.json:
        typer.echo(json.dumps(as_json(summaries), indent=2, ensure_ascii=False))
        return
    if not summaries:
        which = "no game" if game is None else f"no game of {game}"
        typer.echo(f"{which} recorded in {path}")
        return
    for i, s in enumerate(summaries):
        if i:
            typer.echo("")
        for line in summary_lines(s):
            typer.echo(line)
    typer.echo(f"\n(from {path})")


def _title(game: str | None) -> str | None:
    """A shipped game's name stands for its title (the database records titles); any other name is a title."""
    if game is None:
        return None
    from kallisti.model.loader import shipped_games

    path = shipped_games().get(game)
    if path is None:
        return game
    from kallisti.cli.games import heading

    return str(heading(path).get("game", game))


def summary_lines(s) -> list[str]:
    """A summary as four lines of text, e.g. `Forty Thieves  (rules 094da7f922458819)` and its figures."""
    lost = f"lost {s.lost}" + (f" ({s.abandoned} abandoned)" if s.abandoned else "")
    lines = [f"{s.game}  (rules {s.ruleset})",
             f"  played {s.played}, won {s.won} ({s.win_rate:.0%}), {lost}",
             f"  win streak {s.current_streak}, best {s.best_streak}"]
    best = [] if s.best_score is None else [f"best score {s.best_score}"]
    if s.fastest_win_moves is None:
        best.append("no win yet")
    else:
        best += [f"fewest moves to a win {s.fastest_win_moves}", f"quickest win {duration(s.fastest_win_seconds)}"]
    lines.append("  " + "; ".join(best))
    return lines


def duration(seconds: float) -> str:
    """`4:05` for 245 seconds, `1:02:03` past an hour."""
    whole = int(round(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
