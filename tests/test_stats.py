"""Statistics of finished games (kallisti.stats): what `kallisti play` and the web API record in the SQLite
database, what `kallisti stats` and GET /api/stats show of it, and a damaged database that never stops play."""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kallisti import stats
from kallisti.cli.app import app
from kallisti.cli.play import QUIT, WON, run_session
from kallisti.interpreter.game import Game
from kallisti.model.ruleset import load_ruleset

EXAMPLES = Path(__file__).parents[1] / "examples"
WIN_DEAL, WIN_MOVES = EXAMPLES / "forty-thieves-win.deal", EXAMPLES / "forty-thieves-win.moves"
LOSE_AT_ONCE = 'rule set lose [{id: gone, when: "true", says: "gone"}]'
runner = CliRunner()


@pytest.fixture
def db(tmp_path, monkeypatch) -> Path:
    """A database of this test's own, recording on."""
    path = tmp_path / "data" / "stats.sqlite3"
    monkeypatch.setenv(stats.PATH_VARIABLE, str(path))
    monkeypatch.delenv(stats.OFF_VARIABLE, raising=False)
    return path


@pytest.fixture(scope="module")
def forty():
    return load_ruleset("forty-thieves")


def rows(path: Path) -> list[tuple]:
    with sqlite3.connect(path) as con:
        return con.execute("SELECT game, ruleset, deal, result, score, moves FROM games ORDER BY id").fetchall()


def play(*args: str, input: str):
    return runner.invoke(app, ["play", *args, "--no-color"], input=input)


def cli_json(*args: str) -> dict:
    result = runner.invoke(app, ["stats", *args, "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def session(game, *lines: str, err: list | None = None) -> int:
    return run_session(game, list(lines), [].append, err=(err if err is not None else []).append, stats=True)


# -- what `kallisti play` records ---------------------------------------------------------------------------------

def test_play_records_a_win_and_an_abandoned_game_and_stats_shows_them(db):
    won = play("forty-thieves", "--deal", str(WIN_DEAL), input=WIN_MOVES.read_text(encoding="utf-8"))
    assert won.exit_code == WON
    left = play("forty-thieves", "--seed", "3", input="d\nq\n")  # quit after a move: abandoned
    assert left.exit_code == QUIT
    untouched = play("forty-thieves", "--seed", "4", input="q\n")  # quit before any move: not a game played
    assert untouched.exit_code == QUIT
    key = stats.ruleset_key(load_ruleset("forty-thieves"))
    recorded = rows(db)
    assert recorded[0][2].startswith("order ")  # a deal read from a file: a hash of its order
    assert [r[3:] for r in recorded] == [("won", 104, 168), ("abandoned", 0, 1)] and recorded[1][2] == "3"
    assert {r[:2] for r in recorded} == {("Forty Thieves", key)}
    shown = runner.invoke(app, ["stats"])
    assert shown.exit_code == 0
    assert "Forty Thieves  (rules " + key + ")" in shown.stdout
    assert "played 2, won 1 (50%), lost 1 (1 abandoned)" in shown.stdout
    assert "win streak 0, best 1" in shown.stdout
    assert "best score 104; fewest moves to a win 168" in shown.stdout
    [summary] = cli_json("forty-thieves")["games"]
    assert {k: summary[k] for k in ("played", "won", "lost", "abandoned", "win_rate", "current_streak", "best_streak",
                                    "best_score", "fastest_win_moves")} == {
        "played": 2, "won": 1, "lost": 1, "abandoned": 1, "win_rate": 0.5, "current_streak": 0, "best_streak": 1,
        "best_score": 104, "fastest_win_moves": 168}
    assert cli_json("Forty Thieves") == cli_json("forty-thieves")  # a shipped name or a title
    assert cli_json("spider") == {"games": []}


def test_no_stats_and_the_environment_variable_record_nothing(db, monkeypatch):
    assert play("forty-thieves", "--seed", "3", "--no-stats", input="d\nq\n").exit_code == QUIT
    monkeypatch.setenv(stats.OFF_VARIABLE, "1")
    assert play("forty-thieves", "--seed", "3", input="d\nq\n").exit_code == QUIT
    assert not db.exists()
    monkeypatch.setenv(stats.OFF_VARIABLE, "0")  # "0" is off's opposite
    assert play("forty-thieves", "--seed", "3", input="d\nq\n").exit_code == QUIT
    assert len(rows(db)) == 1


def test_a_loss_undone_and_won_counts_once_as_a_win_under_the_rules_in_play(db, forty):
    code = session(Game(forty, seed=1), "d", LOSE_AT_ONCE, "u", "rule set win true", "u", "rule set win true", "q")
    assert code == WON
    [(game, key, deal, result, _, moves)] = rows(db)
    assert (game, deal, result, moves) == ("Forty Thieves", "1", "won", 1)
    assert key != stats.ruleset_key(forty)  # a rule changed in play records under its own rules' hash


def test_a_won_game_saved_and_resumed_is_not_recorded_again(db, tmp_path):
    saved = tmp_path / "won.sav"
    script = WIN_MOVES.read_text(encoding="utf-8") + f"save {saved}\nq\n"
    assert play("forty-thieves", "--deal", str(WIN_DEAL), input=script).exit_code == WON
    assert play(str(saved), input="q\n").exit_code == WON
    assert [r[3] for r in rows(db)] == ["won"]


def test_a_game_left_lost_by_new_or_restart_is_recorded_then_the_next_one(db, forty):
    code = session(Game(forty, seed=1), "d", LOSE_AT_ONCE, "restart", "new 9", "d", "q")
    assert code == QUIT
    assert [r[2:4] for r in rows(db)] == [("1", "lost"), ("9", "abandoned")]  # the restart made no move: not played


def test_streaks_best_score_and_fastest_wins_per_ruleset():
    def row(result, score=None, moves=10, seconds=5.0, ended="2025-01-01T00:00:00+00:00"):
        return (result, score, moves, seconds, ended)

    games = [row("won", 90, 120, 300.0), row("lost", 40), row("won", 104, 150, 200.0), row("won", 104, 110, 250.0),
             row("abandoned"), row("won", 60, 130, 100.0, "2025-02-01T00:00:00+00:00")]
    s = stats.summarise("Forty Thieves", "094da7f922458819", games)
    assert (s.played, s.won, s.lost, s.abandoned, s.win_rate) == (6, 4, 2, 1, 0.6667)
    assert (s.current_streak, s.best_streak) == (1, 2)
    assert (s.best_score, s.fastest_win_moves, s.fastest_win_seconds) == (104, 110, 100.0)
    assert s.last_played == "2025-02-01T00:00:00+00:00"
    never = stats.summarise("Decade", "0" * 16, [row("lost"), row("lost")])
    assert (never.best_score, never.fastest_win_moves, never.fastest_win_seconds, never.current_streak) == (None,) * 3 + (0,)


def test_query_keeps_each_ruleset_apart_and_matches_titles_by_name(tmp_path):
    path = tmp_path / "s.sqlite3"
    for game, key, result in [("Forty Thieves", "a" * 16, "won"), ("Twelve Thieves", "b" * 16, "lost"),
                              ("Forty Thieves", "c" * 16, "lost")]:
        stats.record(stats.GameRecord(game, key, "1", result, None, 5, 1.0, "2025-01-01T00:00:00+00:00"), path)
    assert [(s.game, s.ruleset, s.played) for s in stats.query(None, path)] == [
        ("Forty Thieves", "a" * 16, 1), ("Forty Thieves", "c" * 16, 1), ("Twelve Thieves", "b" * 16, 1)]
    assert [s.ruleset for s in stats.query("twelve-thieves", path)] == ["b" * 16]
    assert stats.query("maria", path) == []
    assert stats.query(None, tmp_path / "none.sqlite3") == [] and not (tmp_path / "none.sqlite3").exists()


# -- a database that cannot be used -------------------------------------------------------------------------------

def test_a_damaged_database_is_reported_once_and_play_goes_on(db, forty):
    db.parent.mkdir(parents=True)
    garbage = bytes(range(256)) * 16
    db.write_bytes(garbage)
    err: list[str] = []
    code = session(Game(forty, seed=1), "d", LOSE_AT_ONCE, "new 2", "d", "rule set win true", "q", err=err)
    assert code == WON  # two games ended and the second was won: play went on through both
    assert len(err) == 1 and err[0].startswith(f"warning: statistics not recorded: {db}: ") and "play goes on" in err[0]
    assert db.read_bytes() == garbage  # left as it was, for the person to look at
    shown = runner.invoke(app, ["stats"])
    assert shown.exit_code == 1
    assert shown.stderr.startswith(f"error stats-database: {db}: the statistics database is damaged")
    played = play("forty-thieves", "--seed", "3", input="d\nq\n")  # the command itself, too
    assert played.exit_code == QUIT and played.stderr.count("warning: statistics not recorded") == 1


@pytest.mark.parametrize("setup, says", [
    ("CREATE TABLE notes (x); ", "not a kallisti statistics database"),
    ("PRAGMA user_version = 99; ", "written by a newer kallisti"),
])
def test_a_database_of_something_else_or_of_a_newer_kallisti_is_refused_untouched(tmp_path, setup, says):
    path = tmp_path / "s.sqlite3"
    with sqlite3.connect(path) as con:
        con.executescript(setup)
    with pytest.raises(stats.StatsError, match=says):
        stats.query(None, path)
    with pytest.raises(stats.StatsError, match=says):
        stats.record(stats.GameRecord("Maria", "0" * 16, "1", "won", None, 1, 1.0, "2025-01-01T00:00:00+00:00"), path)
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT name FROM sqlite_master WHERE name = 'games'").fetchall() == []


def test_stats_help_gives_an_example_and_the_environment():
    result = runner.invoke(app, ["stats", "--help"])
    text = " ".join(result.stdout.replace("│", " ").split())
    assert result.exit_code == 0
    for phrase in ("kallisti stats forty-thieves --format json", "KALLISTI_STATS", "KALLISTI_NO_STATS=1", "--no-stats"):
        assert phrase in text


# -- the web API: the same numbers, from the same database ---------------------------------------------------------

@pytest.fixture
def client(db):
    if os.environ.get("CI") != "true":
        pytest.importorskip("starlette")
        pytest.importorskip("httpx")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from kallisti.web.api import create_app

    with TestClient(create_app(static=None), base_url="http://127.0.0.1") as c:
        yield c


def test_the_web_records_its_games_and_answers_what_kallisti_stats_prints(client, db):
    assert play("forty-thieves", "--seed", "3", input="d\nq\n").exit_code == QUIT  # a game of the terminal
    won = client.post("/api/sessions", json={"game": "forty-thieves", "seed": 5}).json()["id"]
    assert client.post(f"/api/sessions/{won}/deal").status_code == 200
    r = client.post(f"/api/sessions/{won}/rule", json={"text": "set win true"})
    assert r.json()["state"]["status"] == "won"
    assert client.get(f"/api/sessions/{won}").status_code == 200
    assert client.delete(f"/api/sessions/{won}").status_code == 200  # left won: recorded once, when won
    left = client.post("/api/sessions", json={"game": "forty-thieves", "seed": 6}).json()["id"]
    assert client.post(f"/api/sessions/{left}/deal").status_code == 200
    assert client.delete(f"/api/sessions/{left}").status_code == 200  # the page deals another: abandoned
    assert [r[2:4] for r in rows(db)] == [("3", "abandoned"), ("5", "won"), ("6", "abandoned")]
    answer = client.get("/api/stats")
    assert answer.status_code == 200
    assert answer.json() == cli_json()
    assert client.get("/api/stats?game=forty-thieves").json() == cli_json("forty-thieves")
    assert [(s["played"], s["won"]) for s in cli_json()["games"]] == [(2, 0), (1, 1)]  # the base rules, `set win true`
    assert client.get("/api/stats?game=spider").json() == {"games": []}


def test_the_web_reports_a_damaged_database_and_plays_on(client, db):
    db.parent.mkdir(parents=True)
    db.write_bytes(b"not a database" * 100)
    sid = client.post("/api/sessions", json={"game": "forty-thieves", "seed": 5}).json()["id"]
    assert client.post(f"/api/sessions/{sid}/deal").status_code == 200
    assert client.post(f"/api/sessions/{sid}/rule", json={"text": "set win true"}).json()["state"]["status"] == "won"
    r = client.get("/api/stats")
    assert r.status_code == 500 and r.json()["error"]["code"] == "stats-unreadable"
    assert "damaged" in r.json()["error"]["message"]
