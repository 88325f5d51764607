"""The beam search (`kallisti solve --beam WIDTH`): its wins replay in play, it never claims a loss, it repeats itself.

Every budget here is counted in positions, and every deal is one the beam settles in well under a second.
"""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.interpreter.game import Game
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.beam import beam_solve
from kallisti.solver.solve import NO_WIN, UNKNOWN, WON, SearchOptions, solve


def run(*args):
    return CliRunner().invoke(app, ["solve", *args])


def test_a_beam_win_replays_to_a_win_in_play():
    found = run("busy-aces", "--seed", "1", "--beam", "10", "--states", "20000")
    assert found.exit_code == 0, found.output
    head, *moves = found.output.strip().splitlines()
    assert head.startswith("# Busy Aces, deal 1: won in ")
    played = CliRunner().invoke(app, ["play", "busy-aces", "--seed", "1"], input=found.output)
    assert played.exit_code == 0, played.output[-400:]
    assert f"WON: Busy Aces in {len(moves)} moves" in played.output


def test_a_beam_says_unknown_where_the_full_search_proves_no_win():
    rules = load_ruleset("decade")
    assert solve(rules, 1, SearchOptions(states=20_000)).verdict == NO_WIN
    result = beam_solve(rules, 1, 10, SearchOptions(states=20_000))
    assert (result.verdict, result.stopped_by, result.line) == (UNKNOWN, "beam", ())
    cli = run("decade", "--seed", "1", "--beam", "10")
    assert cli.exit_code == 5
    assert "unknown — no position the beam kept led on; a beam proves no loss" in cli.output


def test_a_beam_out_of_budget_says_unknown():
    result = beam_solve(load_ruleset("busy-aces"), 1, 10, SearchOptions(states=100))
    assert (result.verdict, result.stopped_by, result.states, result.line) == (UNKNOWN, "states", 101, ())
    cli = run("busy-aces", "--seed", "1", "--beam", "10", "--states", "100", "--format", "json")
    assert cli.exit_code == 5
    record = json.loads(cli.output)
    assert record["verdict"] == "unknown" and record["stopped_by"] == "states"
    assert record["budget"]["beam"] == 10 and record["budget"]["states"] == 100


def test_a_beam_search_gives_the_same_result_twice():
    rules = load_ruleset("busy-aces")
    first = beam_solve(rules, 2, 10, SearchOptions(states=20_000))
    again = beam_solve(load_ruleset("busy-aces"), 2, 10, SearchOptions(states=20_000))
    assert first.verdict == WON
    assert (again.line, again.states) == (first.line, first.states)


@pytest.mark.parametrize("states", [50, 20_000])
def test_a_beam_search_leaves_the_game_as_it_was(states):
    game = Game(load_ruleset("busy-aces"), seed=1)
    game.play(game.legal_moves()[0])
    before, history, played = game.state.key(), list(game.history), game.moves_played
    result = beam_solve(game.rules, width=10, options=SearchOptions(states=states), game=game)
    assert result.verdict == (UNKNOWN if states == 50 else WON)
    assert (game.state.key(), game.history, game.moves_played) == (before, history, played)
    fresh = Game(game.rules, seed=1)
    fresh.play(fresh.legal_moves()[0])
    assert sorted(game.legal_moves()) == sorted(fresh.legal_moves())  # the move index was rebuilt too


def test_the_width_must_be_positive():
    assert run("busy-aces", "--beam", "0").exit_code == 2
    with pytest.raises(ValueError):
        beam_solve(load_ruleset("busy-aces"), 1, 0)
