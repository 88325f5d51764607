"""Simulation: the Wilson interval, the counting of outcomes, the move cap, the solver, determinism, the journal that
an interrupted run resumes from, and the command. Parallel runs: test_simulate_parallel.py."""

from __future__ import annotations

import json
import math
import re

import pytest
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.journal import JournalError
from kallisti.solver.simulate import DealOutcome, Plan, fingerprint, play_deal, simulate, wilson
from kallisti.solver.solve import SearchOptions, solve

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
    "    empty: any", "    empty: any\n    take: [{id: one-card, require: count == 1}, {id: later, require: foundation.size > 0}]")

JSON_KEYS = ["game", "strategy", "deals", "won", "lost", "capped", "moves", "seconds", "win_rate", "ci95", "unknown"]
SOLVER_KEYS = JSON_KEYS + ["states", "mean_states", "mean_seconds", "budget"]


@pytest.fixture(scope="module")
def forty():
    return load_ruleset("forty-thieves")


@pytest.fixture(scope="module")
def lucas():
    return load_ruleset("lucas")


@pytest.fixture(scope="module")
def three():
    return load_ruleset("three-cards.yaml", text=THREE_CARDS)


def without_time(result) -> dict:
    """The JSON record less what depends on the machine's speed."""
    d = result.as_dict() if not isinstance(result, dict) else dict(result)
    del d["seconds"]
    d.pop("mean_seconds", None)
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


# -- the solver --------------------------------------------------------------------------------

def test_the_solver_wins_an_easy_game_by_the_shortest_line(three):
    result = simulate(three, 5, seed=1, strategy="solver")
    assert (result.won, result.lost, result.unknown, result.capped) == (5, 0, 0, 0)
    assert result.moves == 15
    assert all(o.states >= 1 for o in result.outcomes)
    assert result.ci95 == wilson(5, 5)


def test_the_solver_counts_a_deal_without_a_win_as_lost():
    stuck = load_ruleset("stuck.yaml", text=STUCK)
    result = simulate(stuck, 3, seed=1, strategy="solver")
    assert (result.won, result.lost, result.unknown, result.moves) == (0, 3, 0, 0)


def test_the_solver_is_unknown_beyond_its_budget(forty):
    result = simulate(forty, 2, seed=1, strategy="solver", states=50)
    assert (result.won, result.lost, result.unknown, result.moves) == (0, 0, 2, 0)
    assert result.budget == {"states": 50, "seconds": None, "search": "portfolio"}


def test_each_deal_is_the_verdict_of_solve(lucas):
    verdicts = {"won": "won", "no win": "lost", "unknown": "unknown"}
    for o in simulate(lucas, 4, seed=1, strategy="solver", states=3000).outcomes:
        s = solve(lucas, o.seed, SearchOptions(states=3000))
        assert (o.outcome, o.moves, o.states) == (verdicts[s.verdict], len(s.line), s.states)


def test_the_solvers_interval_counts_unknown_deals_lost_below_and_won_above(lucas):
    result = simulate(lucas, 12, seed=1, strategy="solver", states=3000)
    won, unknown = result.won, result.unknown
    assert won and unknown, "the budget is meant to leave some deals unknown"
    assert result.win_rate == won / 12
    assert result.ci95 == (wilson(won, 12)[0], wilson(won + unknown, 12)[1])
    assert result.ci95[1] > wilson(won, 12)[1]
    assert result.mean_states == sum(o.states for o in result.outcomes) / 12


def test_a_plan_refuses_what_it_cannot_play():
    for bad in [dict(strategy="psychic"), dict(strategy="solver", states=0), dict(strategy="random", cap=-1)]:
        with pytest.raises(ValueError):
            Plan(**bad)
    assert Plan("greedy", cap=10).budget == {"cap": 10}
    assert Plan("solver", states=5, seconds=1.5).budget == {"states": 5, "seconds": 1.5, "search": "portfolio"}
    assert Plan("solver", states=5, search="depth-first").budget["search"] == "depth-first"


# -- the journal: resuming an interrupted run ----------------------------------------------------

def records(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def interrupt_after(k: int):
    """A progress callback that stops the run, as ^C would, once `k` deals have finished."""
    seen = []

    def progress(outcome):
        seen.append(outcome)
        if len(seen) == k:
            raise KeyboardInterrupt

    return progress


def test_a_journal_holds_a_header_and_a_line_per_deal(tmp_path, forty):
    path = tmp_path / "run.jsonl"
    result = simulate(forty, 5, seed=3, strategy="random", cap=200, journal=path)
    header, *deals = records(path)
    assert header == {"format": "kallisti-simulate", "game": "Forty Thieves", "ruleset": fingerprint(forty),
                      "strategy": "random", "seed": 3, "deals": 5, "budget": {"cap": 200}}
    assert [DealOutcome(**d) for d in deals] == list(result.outcomes)
    assert list(deals[0]) == ["seed", "outcome", "moves", "states", "seconds"]


@pytest.mark.parametrize("strategy, budget", [("random", {"cap": 300}), ("greedy", {"cap": 300}),
                                              ("solver", {"states": 3000})])
def test_an_interrupted_run_resumed_gives_the_totals_of_an_uninterrupted_one(tmp_path, lucas, strategy, budget):
    whole = simulate(lucas, 10, seed=4, strategy=strategy, **budget)
    path = tmp_path / "run.jsonl"
    with pytest.raises(KeyboardInterrupt):
        simulate(lucas, 10, seed=4, strategy=strategy, progress=interrupt_after(4), journal=path, **budget)
    assert len(records(path)) == 1 + 4
    told = []
    resumed = simulate(lucas, 10, seed=4, strategy=strategy, progress=told.append, journal=path, **budget)
    assert resumed.resumed == 4 and len(told) == 10
    assert resumed.outcomes == whole.outcomes
    assert without_time(resumed) == without_time(whole)
    assert sorted(r["seed"] for r in records(path)[1:]) == list(range(4, 14))


def test_a_line_cut_short_is_dropped_and_its_deal_played_again(tmp_path, forty):
    path = tmp_path / "run.jsonl"
    whole = simulate(forty, 6, seed=1, strategy="random", cap=300, journal=path)
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join(lines[:4]) + lines[4][: len(lines[4]) // 2])  # the header, 3 deals, half of the 4th
    resumed = simulate(forty, 6, seed=1, strategy="random", cap=300, journal=path)
    assert resumed.resumed == 3
    assert resumed.outcomes == whole.outcomes
    assert without_time(resumed) == without_time(whole)
    assert [r["seed"] for r in records(path)[1:]] == [1, 2, 3, 4, 5, 6]  # every line whole again


def test_a_journal_cut_inside_its_header_starts_afresh(tmp_path, three):
    path = tmp_path / "run.jsonl"
    path.write_bytes(b'{"format": "kallisti-sim')
    result = simulate(three, 2, seed=1, strategy="greedy", journal=path)
    assert result.resumed == 0
    assert records(path)[0]["format"] == "kallisti-simulate" and len(records(path)) == 3


def test_a_finished_journal_plays_nothing_again(tmp_path, forty):
    path = tmp_path / "run.jsonl"
    first = simulate(forty, 4, seed=1, strategy="greedy", cap=200, journal=path)
    before = path.read_bytes()
    again = simulate(forty, 4, seed=1, strategy="greedy", cap=200, journal=path)
    assert again.resumed == 4 and again.outcomes == first.outcomes
    assert path.read_bytes() == before


@pytest.mark.parametrize("change, key", [({"strategy": "greedy"}, "strategy"), ({"seed": 2}, "seed"),
                                         ({"deals": 5}, "deals"), ({"cap": 100}, "budget")])
def test_a_journal_of_another_run_is_refused(tmp_path, forty, change, key):
    path = tmp_path / "run.jsonl"
    run_args = dict(deals=4, seed=1, strategy="random", cap=200)
    simulate(forty, journal=path, **run_args)
    before = path.read_bytes()
    with pytest.raises(JournalError, match=rf"records another run \({key} "):
        simulate(forty, journal=path, **{**run_args, **change})
    assert path.read_bytes() == before


def test_a_journal_of_other_rules_is_refused(tmp_path, three):
    path = tmp_path / "run.jsonl"
    simulate(three, 2, seed=1, strategy="greedy", journal=path)
    changed = load_ruleset("three.yaml", text=THREE_CARDS + "description: the same name, other rules\n")
    with pytest.raises(JournalError, match=r"another run \(ruleset "):
        simulate(changed, 2, seed=1, strategy="greedy", journal=path)


@pytest.mark.parametrize("damage, message", [
    (lambda lines: ['{"deals": 4}\n'] + lines[1:], "is not a journal of `kallisti simulate`"),
    (lambda lines: lines[:2] + ["not json\n"] + lines[3:], r"run.jsonl:3: not a JSON object"),
    (lambda lines: lines + ['{"seed": 99, "outcome": "won", "moves": 1}\n'], r"run.jsonl:6: no deal of this run"),
    (lambda lines: lines[:1] + ['{"seed": 1, "outcome": "drawn", "moves": 1}\n'], "not a deal"),
    (lambda lines: lines[:1] + ['{"seed": 1, "colour": "red"}\n'], "not a deal"),
])
def test_a_damaged_journal_is_refused(tmp_path, forty, damage, message):
    path = tmp_path / "run.jsonl"
    simulate(forty, 4, seed=1, strategy="random", cap=100, journal=path)
    path.write_text("".join(damage(path.read_text(encoding="utf-8").splitlines(keepends=True))), encoding="utf-8")
    with pytest.raises(JournalError, match=message):
        simulate(forty, 4, seed=1, strategy="random", cap=100, journal=path)


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


# -- the command: the solver, the journal ------------------------------------------------------------

def test_the_solvers_json_record(lucas):
    result = run("lucas", "--deals", 3, "--strategy", "solver", "--states", 3000, "--format", "json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert list(data) == SOLVER_KEYS
    assert data["budget"] == {"states": 3000, "seconds": None, "search": "portfolio"}
    assert data["won"] + data["lost"] + data["unknown"] == 3 and data["capped"] == 0
    assert data["mean_states"] == pytest.approx(data["states"] / 3, abs=0.05)
    assert without_time(data) == without_time(simulate(lucas, 3, seed=1, strategy="solver", states=3000))


def test_the_solvers_text_report(lucas):
    result = run("lucas", "--deals", 12, "--strategy", "solver", "--states", 3000)
    assert result.exit_code == 0, result.output
    core = simulate(lucas, 12, seed=1, strategy="solver", states=3000)
    assert "solver, at most 3,000 positions a deal" in result.output
    assert re.search(rf"^\s*unknown\s+{core.unknown}\s+\(the budget ran out first\)$", result.output, re.M), result.output
    assert re.search(r"^\s*lost\s+0\s+\(no win exists\)$", result.output, re.M), result.output
    low, high = core.ci95
    assert f"95% interval {100 * low:.1f}%–{100 * high:.1f}%; unknown deals counted lost" in result.output


def test_the_command_resumes_from_its_journal(tmp_path):
    path = tmp_path / "run.jsonl"
    args = ("forty-thieves", "--deals", 4, "--strategy", "random", "--cap", 200, "--resume", path, "--format", "json")
    first = run(*args)
    assert first.exit_code == 0, first.output
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(lines[:3]), encoding="utf-8")  # as if stopped after two deals
    again = run(*args[:-2])
    assert again.exit_code == 0, again.output
    assert "resumed 2 deals from the journal, played 2" in again.output
    assert without_time(json.loads(run(*args).stdout)) == without_time(json.loads(first.stdout))


def test_the_command_refuses_a_journal_of_another_run(tmp_path):
    path = tmp_path / "run.jsonl"
    assert run("forty-thieves", "--deals", 2, "--cap", 100, "--resume", path).exit_code == 0
    result = run("forty-thieves", "--deals", 3, "--cap", 100, "--resume", path)
    assert result.exit_code == 2
    assert "records another run (deals 2 there, 3 here)" in result.output


def test_an_interrupted_command_says_how_to_go_on(tmp_path, monkeypatch):
    import kallisti.cli.simulate as command

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(command, "run_simulation", interrupted)
    result = run("forty-thieves", "--deals", 2, "--resume", tmp_path / "run.jsonl")
    assert result.exit_code == 130
    assert "the same command goes on from there" in result.output


def test_a_terminal_gets_a_progress_bar(tmp_path, monkeypatch, three):
    import io

    import kallisti.cli.simulate as command

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    path = tmp_path / "run.jsonl"
    with pytest.raises(KeyboardInterrupt):
        simulate(three, 5, seed=1, strategy="greedy", progress=interrupt_after(2), journal=path)
    terminal = Terminal()
    monkeypatch.setattr(command.sys, "stderr", terminal)
    result = command._run(three, 5, 1, "greedy", journal=path)
    assert result.resumed == 2 and result.won == 5
    assert "5/5" in terminal.getvalue()  # the deals from the journal count too


@pytest.mark.parametrize("game, option", [("discordian", ["--strategy", "solver"]), ("discordian", ["--jobs", 2]),
                                          ("onion", ["--resume", "x.jsonl"]), ("onion", ["--backend", "ray"])])
def test_patience_options_are_refused_for_matches_and_tables(game, option):
    result = run(game, "--deals", 1, *option)
    assert result.exit_code == 2
    assert "is for patiences played alone" in result.output


def test_a_ray_address_needs_the_ray_backend():
    result = run("forty-thieves", "--deals", 1, "--ray-address", "auto")
    assert result.exit_code == 2
    assert "--backend ray" in result.output
