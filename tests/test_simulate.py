"""Simulation: the Wilson interval, the counting of outcomes, the move cap, determinism, and the command."""

from __future__ import annotations

import json
import math
import re

import pytest
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.simulate import play_deal, simulate, wilson

# Three cards of one suit on three tableau piles; a foundation built up from the ace.
# Three moves (A, 2, 3 to the foundation) win it, whatever the deal.
THREE_CARDS = """
game: Three Cards
deck:
  ranks: [A, 2, 3]
  suits: [{name: spades, color: black}]
piles:
  foundation:
    role: foundation
    build: up in suit
    empty: first rank
    take: none
  tableau:
    count: 3
    deal: [up]
    empty: any
win: foundation.size == deck.size
"""

# The same, but no card may leave the tableau: there is never a legal move, so every deal is lost at once.
# Cards leave the tableau only once a foundation holds one, which only the tableau can give it:
# stuck at every deal, though no static check can prove it (the take rule reads the position).
STUCK = THREE_CARDS.replace("game: Three Cards", "game: Stuck").replace(
    "    empty: any", "    empty: any\n    take: [{id: later, require: foundation.size > 0}]")

JSON_KEYS = ["game", "strategy", "deals", "won", "lost", "capped", "moves", "seconds", "win_rate", "ci95"]


@pytest.fixture(scope="module")
def forty():
    return load_ruleset("forty-thieves")


@pytest.fixture(scope="module")
def three():
    return load_ruleset("three-cards.yaml", text=THREE_CARDS)


def without_time(result) -> dict:
    d = result.as_dict()
    del d["seconds"]
    return d


# -- the Wilson score interval -------------------------------------------------------------

def wilson_by_formula(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """(p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n), written out independently."""
    p = k / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return ((centre - spread) / (1 + z * z / n), (centre + spread) / (1 + z * z / n))


# Worked by hand for n = 10, z = 1.96: z² = 3.8416, 1 + z²/n = 1.38416, z²/2n = 0.19208.
#   0/10: centre 0.19208/1.38416 = 0.138770, half-width 1.96·sqrt(0.009604)/1.38416 = 0.138770
#   5/10: centre 0.69208/1.38416 = 0.5, half-width 1.96·sqrt(0.025 + 0.009604)/1.38416 = 0.263411
@pytest.mark.parametrize("k, low, high", [
    (0, 0.0, 0.277540),
    (5, 0.236589, 0.763411),
    (10, 0.722460, 1.0),
])
def test_wilson_known_values(k, low, high):
    got = wilson(k, 10)
    assert got == pytest.approx((low, high), abs=1e-6)
    assert got == pytest.approx(wilson_by_formula(k, 10), abs=1e-12)


@pytest.mark.parametrize("k, n", [(1, 3), (7, 20), (0, 1), (1, 1), (37, 1000)])
def test_wilson_matches_the_formula_and_contains_the_rate(k, n):
    low, high = wilson(k, n)
    assert (low, high) == pytest.approx(wilson_by_formula(k, n), abs=1e-12)
    assert 0.0 <= low <= k / n <= high <= 1.0


def test_wilson_is_wider_for_a_larger_z_and_fewer_trials():
    low95, high95 = wilson(5, 10)
    low99, high99 = wilson(5, 10, z=2.576)
    assert low99 < low95 and high99 > high95
    low_many, high_many = wilson(50, 100)
    assert high_many - low_many < high95 - low95


def test_wilson_with_no_trials_knows_nothing():
    assert wilson(0, 0) == (0.0, 1.0)


def test_wilson_refuses_more_successes_than_trials():
    with pytest.raises(ValueError):
        wilson(11, 10)


# -- counting outcomes -------------------------------------------------------------------------

def test_counts_add_up(forty):
    result = simulate(forty, 6, seed=3, strategy="random", cap=400)
    assert result.deals == 6
    assert result.won + result.lost + result.capped == 6
    assert len(result.outcomes) == 6
    assert [o.seed for o in result.outcomes] == [3, 4, 5, 6, 7, 8]
    assert result.moves == sum(o.moves for o in result.outcomes)
    assert result.capped == sum(o.moves == 400 for o in result.outcomes if o.outcome == "capped")


def test_an_easy_game_is_always_won_by_greedy(three):
    result = simulate(three, 10, seed=1, strategy="greedy")
    assert (result.won, result.lost, result.capped) == (10, 0, 0)
    assert result.moves == 30  # three cards to the foundation, in each deal
    assert result.win_rate == 1.0
    assert result.ci95 == wilson(10, 10)


def test_a_game_without_moves_is_always_lost():
    stuck = load_ruleset("stuck.yaml", text=STUCK)
    result = simulate(stuck, 4, seed=1, strategy="random")
    assert (result.won, result.lost, result.capped, result.moves) == (0, 4, 0, 0)
    assert result.win_rate == 0.0


def test_cap_stops_every_game(forty):
    result = simulate(forty, 5, seed=1, strategy="random", cap=5)
    for o in result.outcomes:
        assert o.moves <= 5
        if o.outcome == "capped":
            assert o.moves == 5
    # Forty Thieves cannot be won or lost in five moves from a full deal.
    assert result.capped == 5 and result.moves == 25


def test_a_game_won_on_its_last_allowed_move_counts_as_won(three):
    assert play_deal(three, 1, "greedy", cap=3).outcome == "won"
    assert play_deal(three, 1, "greedy", cap=2).outcome == "capped"


def test_progress_is_told_after_each_deal(three):
    seen = []
    result = simulate(three, 4, seed=9, strategy="random", cap=50, progress=seen.append)
    assert seen == list(result.outcomes)


def test_unknown_strategy_is_refused(three):
    with pytest.raises(ValueError):
        simulate(three, 1, seed=1, strategy="psychic")


# -- determinism -------------------------------------------------------------------------------

@pytest.mark.parametrize("strategy", ["random", "greedy"])
def test_same_seed_same_result(forty, strategy):
    a = simulate(forty, 4, seed=11, strategy=strategy, cap=300)
    b = simulate(forty, 4, seed=11, strategy=strategy, cap=300)
    assert without_time(a) == without_time(b)
    assert a.outcomes == b.outcomes


def test_each_deal_depends_only_on_its_own_seed(forty):
    run = simulate(forty, 4, seed=20, strategy="random", cap=300)
    alone = play_deal(forty, 22, "random", cap=300)
    assert run.outcomes[2] == alone
    later = simulate(forty, 2, seed=22, strategy="random", cap=300)
    assert later.outcomes == run.outcomes[2:]


def test_different_seeds_play_different_games(forty):
    outcomes = simulate(forty, 8, seed=1, strategy="random", cap=300).outcomes
    assert len({(o.outcome, o.moves) for o in outcomes}) > 1


def test_greedy_forty_thieves_runs(forty):
    result = simulate(forty, 3, seed=1, strategy="greedy")
    assert result.game == "Forty Thieves"
    assert result.strategy == "greedy"
    assert result.won + result.lost + result.capped == 3
    assert all(o.moves > 0 for o in result.outcomes)


# -- the command -------------------------------------------------------------------------------

def run(*args):
    return CliRunner().invoke(app, ["simulate", *map(str, args)])


def test_json_output_has_exactly_the_keys():
    result = run("forty-thieves", "--deals", 3, "--seed", 5, "--strategy", "random", "--cap", 200, "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data) == JSON_KEYS
    assert data["game"] == "Forty Thieves"
    assert data["strategy"] == "random"
    assert data["deals"] == 3
    assert data["won"] + data["lost"] + data["capped"] == 3
    assert data["win_rate"] == data["won"] / 3
    assert data["ci95"] == pytest.approx(list(wilson(data["won"], 3)))
    assert isinstance(data["seconds"], (int, float)) and data["seconds"] >= 0


def test_json_output_is_deterministic():
    args = ("forty-thieves", "--deals", 3, "--seed", 2, "--strategy", "greedy", "--cap", 300, "--format", "json")
    first, second = json.loads(run(*args).stdout), json.loads(run(*args).stdout)
    del first["seconds"], second["seconds"]
    assert first == second


def test_command_agrees_with_the_core(forty):
    data = json.loads(run("forty-thieves", "--deals", 2, "--seed", 4, "--strategy", "random", "--cap", 150,
                          "--format", "json").stdout)
    core = without_time(simulate(forty, 2, seed=4, strategy="random", cap=150))
    del data["seconds"]
    assert data == core


def test_text_output(tmp_path):
    path = tmp_path / "three.yaml"
    path.write_text(THREE_CARDS, encoding="utf-8")
    result = run(path, "--deals", 10, "--seed", 1, "--strategy", "greedy")
    assert result.exit_code == 0, result.output
    assert "Three Cards" in result.output
    assert re.search(r"^\s*won\s+10$", result.output, re.M), result.output
    assert re.search(r"^\s*lost\s+0$", result.output, re.M), result.output
    assert "100.0%" in result.output
    assert "72.2%" in result.output  # the lower end of the 95% interval for 10 of 10


def test_unknown_game_is_a_usage_error():
    result = run("no-such-game", "--deals", 1)
    assert result.exit_code == 2
    assert "no-such-game" in result.output


def test_unknown_strategy_is_a_usage_error():
    assert run("forty-thieves", "--strategy", "psychic").exit_code == 2


def test_zero_deals_is_a_usage_error():
    assert run("forty-thieves", "--deals", 0).exit_code == 2


def test_invalid_ruleset_exits_1(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("extends: forty-thieves\ngame: Bad\npiles:\n  tableau:\n    build: sideways\n", encoding="utf-8")
    result = run(path, "--deals", 1)
    assert result.exit_code == 1
    assert "unknown-macro" in result.output
