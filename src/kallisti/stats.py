"""Statistics of finished games: a local SQLite database of every game played, summarised per game and ruleset."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

PATH_VARIABLE = "KALLISTI_STATS"  # the database file to use instead of the one in the user's data folder
OFF_VARIABLE = "KALLISTI_NO_STATS"  # set to anything but "" or "0" to record nothing
FILE_NAME = "stats.sqlite3"
SCHEMA_VERSION = 1  # PRAGMA user_version of a database this kallisti writes; a newer one is read by no older kallisti
WON, LOST, ABANDONED = "won", "lost", "abandoned"
BUSY_SECONDS = 5.0  # how long a write waits for another process holding the database (two games ending at once)

SCHEMA = """CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,          -- the ruleset's title, e.g. Forty Thieves
    ruleset TEXT NOT NULL,       -- 16 hex digits of the hash of the rules in play when the game ended
    deal TEXT NOT NULL,          -- what replays the deal: a seed (7), a world deal (ms:617), or `order` and a hash
    result TEXT NOT NULL CHECK (result IN ('won', 'lost', 'abandoned')),
    score INTEGER,               -- NULL for a ruleset without a score
    moves INTEGER NOT NULL,
    seconds REAL NOT NULL,       -- from the deal (or the resumed save) to the game's end
    ended TEXT NOT NULL          -- when it ended: ISO 8601, UTC
)"""


class StatsError(Exception):
    """The statistics database cannot be used: damaged, written by a newer kallisti, or not to be opened."""


@dataclass(frozen=True)
class GameRecord:
    """One finished game, as a row of the database."""

    game: str
    ruleset: str
    deal: str
    result: str
    score: int | None
    moves: int
    seconds: float
    ended: str


@dataclass(frozen=True)
class Summary:
    """The statistics of one game under one ruleset; `as_dict()` is the JSON form (`kallisti stats --format json`,
    GET /api/stats)."""

    game: str
    ruleset: str
    played: int
    won: int
    lost: int  # abandoned games included
    abandoned: int
    win_rate: float  # won / played
    current_streak: int  # the wins since the last game not won
    best_streak: int
    best_score: int | None  # the highest score of any game (None: the ruleset has no score)
    fastest_win_moves: int | None
    fastest_win_seconds: float | None
    last_played: str

    def as_dict(self) -> dict:
        return asdict(self)


def database_path() -> Path:
    """$KALLISTI_STATS, else `stats.sqlite3` in the user's data folder (platformdirs: ~/.local/share/kallisti on
    Linux, ~/Library/Application Support/kallisti on macOS, %LOCALAPPDATA%\\kallisti on Windows)."""
    given = os.environ.get(PATH_VARIABLE)
    if given:
        return Path(given)
    from platformdirs import user_data_dir  # only when statistics are read or written: not for --help

    return Path(user_data_dir("kallisti", appauthor=False)) / FILE_NAME


def recording_off() -> bool:
    """Whether $KALLISTI_NO_STATS turns recording off."""
    return os.environ.get(OFF_VARIABLE, "") not in ("", "0")


def _open(path: Path, write: bool):
    """A connection to the database at `path`, its schema checked (and made, for a write to a new file); None for a
    read of a file that does not exist or holds nothing yet. StatsError when the file is not a statistics database
    this kallisti reads."""
    import sqlite3

    try:
        if write:
            path.parent.mkdir(parents=True, exist_ok=True)
            con = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
        else:
            if not path.exists():
                return None
            con = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
    except (OSError, sqlite3.Error) as exc:
        raise StatsError(f"{path}: cannot open the statistics database: {exc}") from None
    try:
        if write:
            con.execute("BEGIN IMMEDIATE")  # two processes making the schema at once: one makes it, the other sees it
        version = con.execute("PRAGMA user_version").fetchone()[0]
        if version == 0:
            tables = con.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
            if tables:
                raise StatsError(f"{path}: not a kallisti statistics database (it holds other tables)")
            if not write:  # an empty database: nothing recorded yet
                con.close()
                return None
            con.execute(SCHEMA)
            con.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        elif version > SCHEMA_VERSION:
            raise StatsError(f"{path}: written by a newer kallisti (schema {version}; this one reads {SCHEMA_VERSION})")
        if write and con.in_transaction:
            con.execute("COMMIT")
        return con
    except sqlite3.Error as exc:
        con.close()
        raise StatsError(f"{path}: the statistics database is damaged ({exc})") from None
    except StatsError:
        con.close()
        raise


def record(game: GameRecord, path: Path | None = None) -> None:
    """Add a finished game to the database (made when missing); StatsError when it cannot be written."""
    import sqlite3

    path = path or database_path()
    con = _open(path, write=True)
    try:
        with con:
            con.execute("BEGIN")
            con.execute("INSERT INTO games (game, ruleset, deal, result, score, moves, seconds, ended) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (game.game, game.ruleset, game.deal, game.result, game.score, game.moves, game.seconds,
                         game.ended))
    except sqlite3.Error as exc:
        raise StatsError(f"{path}: the game could not be recorded ({exc})") from None
    finally:
        con.close()


def slug(name: str) -> str:
    """`Forty Thieves` -> `forty-thieves`: how a game's title is matched with a name given on the command line."""
    return re.sub(r"[^0-9a-z]+", "-", name.casefold()).strip("-")


def query(game: str | None = None, path: Path | None = None) -> list[Summary]:
    """The statistics of every game recorded (of the game titled `game` only, matched by `slug`), one summary per
    game and ruleset, by title and then most recently played first; StatsError when the database cannot be read."""
    import sqlite3

    path = path or database_path()
    con = _open(path, write=False)
    if con is None:
        return []
    try:
        rows = con.execute("SELECT game, ruleset, result, score, moves, seconds, ended FROM games ORDER BY id").fetchall()
    except sqlite3.Error as exc:
        raise StatsError(f"{path}: the statistics database is damaged ({exc})") from None
    finally:
        con.close()
    wanted = None if game is None else slug(game)
    groups: dict[tuple[str, str], list[tuple]] = {}
    for row in rows:
        if wanted is None or slug(str(row[0])) == wanted:
            groups.setdefault((str(row[0]), str(row[1])), []).append(row[2:])
    summaries = [summarise(title, ruleset, games) for (title, ruleset), games in groups.items()]
    summaries.sort(key=lambda s: s.last_played, reverse=True)
    summaries.sort(key=lambda s: s.game.casefold())
    return summaries


def summarise(title: str, ruleset: str, games: list[tuple]) -> Summary:
    """The summary of `games`, rows (result, score, moves, seconds, ended) in the order they were recorded."""
    won = streak = best_streak = abandoned = 0
    scores, win_moves, win_seconds = [], [], []
    for result, score, moves, seconds, _ in games:
        if score is not None:
            scores.append(score)
        if result == WON:
            won += 1
            streak += 1
            best_streak = max(best_streak, streak)
            win_moves.append(moves)
            win_seconds.append(seconds)
        else:
            streak = 0
            abandoned += result == ABANDONED
    played = len(games)
    return Summary(game=title, ruleset=ruleset, played=played, won=won, lost=played - won, abandoned=abandoned,
                   win_rate=round(won / played, 4), current_streak=streak, best_streak=best_streak,
                   best_score=max(scores, default=None), fastest_win_moves=min(win_moves, default=None),
                   fastest_win_seconds=min(win_seconds, default=None), last_played=max(g[4] for g in games))


def as_json(summaries: list[Summary]) -> dict:
    """The JSON form shared by `kallisti stats --format json` and GET /api/stats."""
    return {"games": [s.as_dict() for s in summaries]}


def ruleset_key(rules) -> str:
    """16 hex digits of the hash saves record for a ruleset (as simulate's journals shorten it): a variant, or a rule
    changed in play, records under a key of its own."""
    from kallisti.interpreter.save import ruleset_hash

    return ruleset_hash(rules.plain())[:16]


def deal_text(game, source: str | None = None) -> str:
    """What replays the deal of `game`: its seed, the world deal `source` names (`ms:617`), else `order` and a hash
    of the dealing order (a deal read from a file)."""
    import hashlib

    if source is not None and source.startswith(("ms:", "pysol:")):
        return source
    if game.seed is not None:
        return str(game.seed) if not game.deal_number else f"{game.seed}/{game.deal_number}"
    return "order " + hashlib.sha256(",".join(map(str, game.order)).encode()).hexdigest()[:12]


class Recorder:
    """Records the games one person plays in a session, each once (as Aisleriot and PySolFC count them): a win as
    soon as it is reached; a game left unwon after a move (another deal, restart, load, quit) as lost, or abandoned
    while it was still on, both counted as not won; a game left before any move, not at all. A loss undone and then
    won is a win. A database that cannot be written is reported once through `warn`, and play goes on."""

    def __init__(self, warn: Callable[[str], None], path: Path | None = None):
        self.warn = warn
        self.path = path
        self.game = None
        self.deal = ""
        self.started = 0.0
        self.done = False  # the game followed is recorded
        self.broken = False  # the database failed once: nothing more is tried this session

    def follow(self, game, source: str | None = None, recorded: bool = False) -> None:
        """The game in play is `game` (`source`: the world deal it came from, if any; `recorded`: it is recorded
        already, as a game won before it was saved and brought back); the game it replaces is left."""
        if game is self.game:
            return
        self.leave()
        self.game, self.deal, self.started, self.done = game, deal_text(game, source), time.monotonic(), recorded

    def won(self, game, source: str | None = None) -> None:
        """`game` has just been won: recorded unless it was already."""
        self.follow(game, source)
        if not self.done:
            self._write(WON)

    def leave(self) -> None:
        """The game followed is left: recorded as won, lost or abandoned, unless it was already or never moved."""
        game = self.game
        if game is None or self.done or game.moves_made == 0:
            return
        try:
            outcome = game.status().outcome
        except Exception:  # a rule failing at run time: the game cannot be judged, and was not won
            outcome = ABANDONED
        self._write(outcome if outcome in (WON, LOST) else ABANDONED)

    def _write(self, result: str) -> None:
        self.done = True
        if self.broken:
            return
        game = self.game
        try:
            score = None if game.rules.score is None else int(game.score())
        except Exception:  # a score rule failing at run time: the game is recorded without one
            score = None
        from datetime import datetime, timezone

        ended = datetime.now(timezone.utc).isoformat(timespec="seconds")
        row = GameRecord(game=game.rules.name, ruleset=ruleset_key(game.rules), deal=self.deal, result=result,
                         score=score, moves=game.moves_made, seconds=round(time.monotonic() - self.started, 1),
                         ended=ended)
        try:
            record(row, self.path)
        except StatsError as exc:
            self.broken = True
            self.warn(f"warning: statistics not recorded: {exc}; play goes on")


def recorder(warn: Callable[[str], None], wanted: bool = True) -> Recorder | None:
    """A Recorder for a play session, or None when recording is off (`wanted` False, or $KALLISTI_NO_STATS)."""
    return Recorder(warn) if wanted and not recording_off() else None
