"""`kallisti check`: play-testing rulesets with seeded deals, its findings, its figures and its exit codes."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.cli.check import _progress_bar, check_files
from kallisti.interpreter.game import Game
from kallisti.model.loader import shipped_games
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.check import check_ruleset
from kallisti.solver.simulate import wilson

HERE = Path(__file__).parent / "rulesets"
CHECK = HERE / "check"
OVERFLOW = CHECK / "overflow-win.yaml"
ALL_DEAD = CHECK / "all-dead.yaml"
FAST = ["octave", "tournament", "la-nivernaise"]  # the quickest shipped games to play: 100 deals in about a second each


def run(*args):
    return CliRunner().invoke(app, ["check", *map(str, args)])


@pytest.mark.parametrize("name", sorted(shipped_games()))
def test_every_shipped_ruleset_passes(name):
    result = run(name, "--deals", "3")
    assert result.exit_code == 0, result.output
    assert " error " not in result.output
    assert result.output.rstrip().endswith("1 file checked: 1 passed, 0 failed")


def test_the_fastest_shipped_games_pass_a_hundred_deals():
    result = run(*FAST, "--deals", "100")
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith("3 files checked: 3 passed, 0 failed")


def test_a_rule_that_fails_at_run_time_is_reported_with_seed_strategy_and_move():
    result = run(OVERFLOW, "--deals", "3")
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    line = next(ln for ln in result.output.splitlines() if "check-exception" in ln)
    # The finding points at the win condition, the rule that failed.
    win_line = OVERFLOW.read_text().splitlines().index(
        next(ln for ln in OVERFLOW.read_text().splitlines() if ln.startswith("win:"))) + 1
    assert line.startswith(f"{OVERFLOW}:{win_line}:6: error check-exception: seed 1, random strategy, move ")
    assert "a product exceeds" in line and "(and in 5 other games)" in line
    assert "failed 3" in result.output
    assert result.output.rstrip().endswith("1 file checked: 0 passed, 1 failed")


def test_an_engine_error_is_a_finding_not_a_traceback(monkeypatch):
    real_apply = Game.apply
    calls = {"n": 0}

    def apply(self, m):
        calls["n"] += 1
        if calls["n"] == 4:
            raise ZeroDivisionError("integer division or modulo by zero")
        return real_apply(self, m)

    monkeypatch.setattr(Game, "apply", apply)
    result = run("forty-thieves", "--deals", "2")
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    assert ("error check-exception: seed 1, random strategy, move 4: ZeroDivisionError: integer division or modulo "
            "by zero") in result.output
    # Without a rule to point at, the finding is placed at the ruleset file.
    assert f"{shipped_games()['forty-thieves']}: error check-exception" in result.output


def test_a_move_that_loses_a_card_is_a_conservation_failure(monkeypatch):
    real_apply = Game.apply
    calls = {"n": 0}

    def apply(self, m):
        record = real_apply(self, m)
        calls["n"] += 1
        if calls["n"] == 3:
            self.state.piles[next(p for p, pile in enumerate(self.state.piles) if pile)].pop()
        return record

    monkeypatch.setattr(Game, "apply", apply)
    result = run("forty-thieves", "--deals", "2", "--format", "json")
    assert result.exit_code == 1, result.output
    data = json.loads(result.output)
    findings = data["files"][0]["findings"]
    assert [f["code"] for f in findings] == ["check-conservation"]
    assert findings[0]["message"] == "seed 1, random strategy, move 3: the piles hold 103 cards after the move, the deck 104"
    problems = data["files"][0]["check"]["problems"]
    assert problems == [{"code": "check-conservation", "message": "the piles hold 103 cards after the move, the deck 104",
                         "seed": 1, "strategy": "random", "move": 3}]


def test_a_ruleset_dead_at_every_deal_fails():
    result = run(ALL_DEAD, "--deals", "4")
    assert result.exit_code == 1, result.output
    assert f"{ALL_DEAD}: error check-all-dead: no legal move at the start of any of the 4 deals (seeds 1..4)" \
        in result.output
    assert "dead starts 4 of 4" in result.output


def test_a_rule_that_fails_while_judging_moves_is_a_warning(tmp_path):
    # The clause reads the pile, so it is not tabulated at load: it fails only when a move is judged.
    overflow = tmp_path / "overflow-build.yaml"
    overflow.write_text("extends: forty-thieves\ngame: Builds That Overflow\nchanges:\n"
                        "  - {require: piles.tableau.build, id: overflow,\n"
                        "     expr: 'pile.size * 1000000000 * 1000000000 * 1000000000 > 0'}\n", encoding="utf-8")
    result = run(overflow, "--deals", "1")
    assert result.exit_code == 0, result.output
    assert (f"{overflow}: warning check-rule-error: a rule failed while judging moves, which were refused (2 games): "
            "a product exceeds 1000000000000000000 in `pile.size * 1000000000") in result.output


def test_dead_starts_alone_do_not_fail(monkeypatch):
    # One dead deal among live ones is reported, not failed.
    rules = load_ruleset("forty-thieves")
    real = Game.legal_moves
    monkeypatch.setattr(Game, "legal_moves", lambda self: [] if self.seed == 2 else real(self))
    result = check_ruleset(rules, "ft.yaml", deals=3, seed=1)
    assert result.dead_starts == 1
    assert not result.failed and result.findings == []


def test_the_report_gives_win_rates_intervals_capped_games_and_dead_starts():
    result = run("forty-thieves", "decade", "--deals", "3", "--seed", "5", "--cap", "40")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "Forty Thieves: 3 deals (seeds 5..7), cap 40 moves" in out
    assert "  random  won 0 of 3: win rate 0.0% (95% interval 0.0%–56.2%); lost 0, capped 3" in out
    assert "  greedy  won 0 of 3: win rate 0.0% (95% interval 0.0%–56.2%); lost 0, capped 3" in out
    assert out.count("dead starts 0 of 3") == 2
    assert out.rstrip().endswith("2 files checked: 2 passed, 0 failed")


def test_json_has_the_figures_as_data():
    result = run("decade", ALL_DEAD, "--deals", "5", "--format", "json")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert data["summary"] == {"files": 2, "passed": 1, "failed": 1, "errors": 1, "warnings": 0}
    decade, dead = data["files"]
    assert decade["valid"] and decade["findings"] == []
    check = decade["check"]
    assert check["deals"] == 5 and check["seed"] == 1 and check["played"] and check["dead_starts"] == 0
    assert [s["strategy"] for s in check["strategies"]] == ["random", "greedy"]
    for s in check["strategies"]:
        assert s["deals"] == 5 == s["won"] + s["lost"] + s["capped"] + s["failed"]
        assert s["win_rate"] == s["won"] / 5
        assert s["ci95"] == list(wilson(s["won"], 5))
    assert not dead["valid"] and dead["check"]["dead_starts"] == 5
    assert dead["findings"][0]["code"] == "check-all-dead" and dead["findings"][0]["line"] == 0


def test_github_format_annotates_the_failures():
    result = run(OVERFLOW, ALL_DEAD, "decade", "--deals", "2", "--format", "github")
    assert result.exit_code == 1
    errors = [ln for ln in result.output.splitlines() if ln.startswith("::")]
    assert len(errors) == 2
    assert errors[0].startswith("::error file=") and "check/overflow-win.yaml,line=" in errors[0]
    assert ",title=check-exception::seed 1, random strategy, move " in errors[0]
    assert errors[1].startswith("::error file=") and "check/all-dead.yaml,title=check-all-dead::" in errors[1]
    assert "  greedy  won " in result.output
    assert result.output.rstrip().endswith("3 files checked: 1 passed, 2 failed")


def test_an_invalid_ruleset_gets_validate_findings_and_is_not_played():
    bad = HERE / "bad" / "yaml-syntax.yaml"
    result = run(bad, "--deals", "2")
    assert result.exit_code == 1
    assert "error yaml-syntax:" in result.output
    assert f"{bad}: invalid (1 error), not played" in result.output
    assert "win rate" not in result.output


def test_hands_only_rulesets_and_matches():
    result = run("onion", "discordian", "--deals", "2")
    assert result.exit_code == 0, result.output
    assert "Cripple Mr Onion: no piles to play on (it scores hands): checked by validation only" in result.output
    assert "Discordian Solitaire: 2 deals (seeds 1..2)" in result.output
    assert "each deal is one player's turn, played alone" in result.output
    data = json.loads(run("onion", "--deals", "2", "--format", "json").output)
    assert data["files"][0]["check"]["played"] is False and data["files"][0]["valid"]


def test_folders_are_expanded_and_usage_errors_exit_2():
    result = run(CHECK, "--deals", "1")
    assert result.exit_code == 1
    assert "3 files checked: 0 passed, 3 failed" in result.output
    assert run("no-such-game", "--deals", "1").exit_code == 2
    assert run("decade", "--deals", "0").exit_code == 2


def test_no_progress_bar_without_a_terminal():
    result = CliRunner().invoke(app, ["check", "decade", "--deals", "2"])
    assert result.exit_code == 0
    assert result.stderr == ""


def test_a_progress_bar_on_a_terminal(monkeypatch):
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    with _progress_bar(2 * 2) as progress:
        assert progress is not None
        results = check_files([str(shipped_games()["decade"])], deals=2, progress=progress)
    assert results[0].valid and results[0].check.deals == 2
    assert "Decade" in terminal.getvalue()
