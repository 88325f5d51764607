"""`kallisti play` for a match: the --players option, Player X's commands, rules, diff, save and load."""

from __future__ import annotations

from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.cli.match_play import run_match_session
from kallisti.interpreter.match import Match, Seat
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.strategies import hint
from kallisti.interpreter.notation import describe

runner = CliRunner()


def session(lines, seats=("ann", "bob"), seed=2):
    match = Match(load_ruleset("discordian"), [Seat(n) for n in seats], seed)
    out = []
    code = run_match_session(match, lines, out.append)
    return match, "\n".join(out), code


def first_turn(seed=2):
    """The commands of ann's first turn (politeness acknowledged by both), played by the hint."""
    match = Match(load_ruleset("discordian"), [Seat("ann"), Seat("bob")], seed)
    lines = []
    while match.waiting().what != "player-x":
        w = match.waiting()
        if w.what == "ack":
            match.acknowledge(w.seat)
            lines.append("ok")
        else:
            m = hint(match.game)
            lines.append(describe(match.game, m))
            match.move(w.seat, m)
    return lines


def test_players_must_fill_the_seats_and_name_known_bots():
    result = runner.invoke(app, ["play", "discordian", "--players", "ann,bot:clever"], input="q\n")
    assert result.exit_code == 2 and "no bot strategy 'clever'" in result.output
    result = runner.invoke(app, ["play", "discordian", "--players", "ann", "--seed", "1"], input="q\n")
    assert result.exit_code == 1 and "played by 2 players" in result.output
    result = runner.invoke(app, ["play", "forty-thieves", "--players", "ann,bob"], input="q\n")
    assert result.exit_code == 2 and "played alone" in result.output


def test_a_person_against_a_bot_sees_the_bot_play_its_turn():
    lines = first_turn() + ["pass"]
    result = runner.invoke(app, ["play", "discordian", "--seed", "2", "--players", "ann,bot:greedy"], input="\n".join(lines) + "\n")
    assert result.exit_code == 4, result.output  # the input ends during the match
    assert "-- turn 2: bot" in result.output and "plays:" in result.output


def test_player_x_commands_rules_and_diff():
    lines = first_turn() + [
        "rule set field.count 0",  # refused: the schema's minimum
        'rule forbid foundation.build "black on black": card.color == black and top.color == black',
        "rules", "diff ann", "diff bob", "q"]
    match, out, code = session(lines)
    assert code == 4
    assert "change refused; the rules stay as they were:" in out and "<change>:1:" in out
    assert "bob imposes c1 on ann, from hir next turn" in out
    assert "+ piles.foundation.build black-on-black: forbid card.color == black and top.color == black" in out
    assert "c1 (by bob, after turn 1)" in out
    assert "bob's rules against the base: the same" in out
    assert len(match.changes) == 1


def test_commands_out_of_turn_are_refused_politely():
    match, out, code = session(["c1 f", "pass", "shuffle", "q"])
    assert "not now: ann must first acknowledge" in out
    assert code == 4 and match.events == []


def test_a_match_saved_in_the_session_loads_in_another(tmp_path):
    path = tmp_path / "m.json"
    lines = first_turn() + ["rule set field.count 5", f"save {path}", "q"]
    match, out, _ = session(lines)
    assert f"saved to {path}" in out
    other, out2, _ = session([f"load {path}", "rules", "q"])
    assert "loaded" in out2 and "c1 (by bob, after turn 1): set field.count 5" in out2


def test_simulate_plays_bot_matches_and_reports_seats_and_changes():
    import json

    result = runner.invoke(app, ["simulate", "discordian", "--deals", "2", "--strategy", "greedy", "--format", "json"])
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["deals"] == 2 and record["won"] + record["lost"] <= 2
    assert [s["name"] for s in record["seats"]] == ["bot1", "bot2"]
    assert sum(s["wins"] for s in record["seats"]) <= 2
    assert all(isinstance(s["mean_score"], float) for s in record["seats"])
    assert record["changes"]["imposed"] == sum(r["changes"] for r in record["results"]) > 0
    assert sum(record["changes"]["by_change"].values()) == record["changes"]["imposed"]
    text = runner.invoke(app, ["simulate", "discordian", "--deals", "1", "--strategy", "random"]).output
    assert "1 match (seed 1)" in text and "rule changes imposed" in text
