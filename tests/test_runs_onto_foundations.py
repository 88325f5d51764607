"""Runs of cards and foundations: Emperor's foundations take one card at a time, `validate` proves when a run may land
on a foundation unjudged (`run-onto-foundation`), and `check` holds foundations to their rules card by card in play
(`check-foundation-build`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.cli.check import check_files
from kallisti.errors import KallistiError
from kallisti.interpreter.game import Game
from kallisti.model.loader import shipped_games
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.check import play_checked
from kallisti.solver.simulate import DealPlay
from kallisti.solver.strategies import hint

HERE = Path(__file__).parent
FAULTY = HERE / "rulesets" / "check" / "emperor-runs.rules"  # Emperor whose foundations judge a unit by its bottom card
FORTY = shipped_games()["forty-thieves"]

runner = CliRunner()


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def variant(tmp_path: Path, body: str, name: str = "variant.yaml") -> Path:
    path = tmp_path / name
    path.write_text("extends: forty-thieves\ngame: A Variant\n" + body, encoding="utf-8")
    return path


def codes(path: Path) -> list[str]:
    try:
        load_ruleset(path)
    except KallistiError as exc:
        return [f.code for f in exc.findings if f.severity == "error"]
    return []


# -- Emperor and Midshipman ----------------------------------------------------------------------------------

def test_a_unit_of_face_up_cards_is_refused_by_the_foundation():
    result = runner.invoke(app, ["play", "midshipman", "--seed", "1"], input="t6 f1 2\nq\n")
    assert result.exit_code == 4, result.output
    assert ("refused: A♣ cannot go to the empty f1: the foundation takes one card at a time "
            "(piles.foundation.empty, clause one-card)") in result.output
    assert "A♣ J♦ from t6 to f1" not in result.output


def test_a_unit_still_moves_between_tableau_piles_and_a_foundation_still_takes_one_card():
    game = Game(load_ruleset("midshipman"), seed=1)
    moves = {game.decode(m)[1:] for m in game.legal_moves()}
    t6, f1 = game.rules.pile_of_tag["t6"], game.rules.pile_of_tag["f1"]
    assert (t6, f1, 2) not in moves and (t6, f1, 1) not in moves  # J♦ alone is no ace
    assert not [m for m in moves if m[2] > 1 and game.rules.group_of[m[1]] == "foundation"]
    assert [m for m in moves if m[2] == 2 and game.rules.group_of[m[1]] == "tableau"]  # units still move


def test_the_hint_on_that_deal_is_not_the_unit_onto_the_foundation():
    game = Game(load_ruleset("midshipman"), seed=1)
    kind, src, dst, n = game.decode(hint(game))
    assert not (game.rules.group_of[dst] == "foundation" and n > 1)


# -- validate: run-onto-foundation ---------------------------------------------------------------------------

def test_the_faulty_emperor_fails_validation_at_the_foundations_build_rule():
    result = runner.invoke(app, ["validate", str(FAULTY)])
    assert result.exit_code == 1, result.output
    line = line_of(FORTY, "build: up in suit")
    assert (f"{FORTY}:{line}:12: error run-onto-foundation: piles.tableau may move A♣ 3♣ together into an empty pile "
            "of piles.foundation, whose empty rule judges only the bottom card (A♣), though piles.foundation.build "
            "refuses 3♣ on A♣ (clause rank-up)") in result.output
    assert "add a clause that takes one card at a time (`require: count == 1`) to piles.foundation.empty" in result.output


def test_every_shipped_ruleset_keeps_runs_off_its_foundations():
    result = runner.invoke(app, ["validate", "--strict", str(FORTY.parent)])
    assert result.exit_code == 0, result.output
    assert "run-onto-foundation" not in result.output


def test_a_rule_that_reads_count_or_cards_lets_runs_land_as_a_unit(tmp_path):
    runs = "piles:\n  tableau: {take: any run, sequence: down in suit}\n"
    assert codes(variant(tmp_path, runs)) == ["run-onto-foundation"]
    # The foundation's rules say what becomes of a run: a whole run of a suit, from the ace up, at once.
    whole = runs + ("  foundation:\n    empty:\n      - {id: whole-run, require: \"ascending(cards) and same_suit(cards)\"}\n"
                    "      - first rank\n    build:\n      - {id: one-card, require: count == 1}\n      - up in suit\n")
    assert codes(variant(tmp_path, whole)) == []


def test_a_run_whose_cards_the_build_rule_takes_one_by_one_is_no_fault(tmp_path):
    # Foundations built down in suit take a run down in suit card after card: nothing lands unjudged.
    body = ("piles:\n  tableau: {take: any run, sequence: down in suit}\n"
            "  foundation: {build: down in suit, empty: last rank}\n")
    assert codes(variant(tmp_path, body)) == []


def test_runs_that_only_some_cards_may_lead_are_judged_by_those_cards(tmp_path):
    # Harp's tableau lets a build go only with a king at its bottom: into an empty foundation (aces only) no such run
    # fits, onto a queen one does.
    harp = tmp_path / "harp.yaml"
    harp.write_text("extends: harp\ngame: Harp Variant\nchanges:\n  - {remove: piles.foundation.build, id: one-card}\n",
                    encoding="utf-8")
    result = runner.invoke(app, ["validate", str(harp)])
    assert "piles.tableau may move K♣ Q♦ together onto a pile of piles.foundation, whose build rule judges only the " \
           "bottom card (K♣)" in result.output
    assert "(`require: count == 1`) to piles.foundation.build;" in result.output


def test_a_foundation_that_takes_no_runs_is_not_questioned(tmp_path):
    # The tableau gives runs, but the foundation's rules take one card at a time: no finding.
    body = ("piles:\n  tableau: {take: any run, sequence: down in suit}\n"
            "  foundation:\n    build:\n      - {id: one-card, require: count == 1}\n      - up in suit\n")
    assert codes(variant(tmp_path, body)) == []


# -- check: check-foundation-build ---------------------------------------------------------------------------

def first_run_onto_a_foundation(rules, seed: int, strategy: str) -> int | None:
    """The number of the first move of the game that puts two or more cards on a foundation (played independently)."""
    play = DealPlay(rules, seed, strategy)
    while play.outcome() is None:
        for m in play.step():
            kind, _, dst, n = play.game.decode(m)
            if kind == "move" and n > 1 and rules.group_of[dst] == "foundation":
                return play.made
    return None


def test_check_plays_the_faulty_emperor_to_the_first_run_onto_a_foundation():
    result = runner.invoke(app, ["check", str(FAULTY), "--deals", "2"])
    assert result.exit_code == 1, result.output
    assert "error run-onto-foundation:" in result.output  # validation's finding, and then play's
    found = [ln for ln in result.output.splitlines() if "check-foundation-build" in ln]
    assert len(found) == 1  # one fault, whatever the games that showed it
    rules = load_ruleset(FAULTY, despite=frozenset({"run-onto-foundation"}))
    move = first_run_onto_a_foundation(rules, 1, "random")
    assert move is not None
    line = line_of(FORTY, "build: up in suit")
    assert found[0].startswith(f"{FORTY}:{line}:12: error check-foundation-build: seed 1, random strategy, "
                               f"move {move}: f")
    assert re.search(r"\(placed by t\d+ f\d 2\), but piles\.foundation\.build refuses .+ on .+ when judged card by "
                     r"card \(clause rank-up: `card\.rank == top\.rank \+ 1`\) \(and in 3 other games\)", found[0])
    assert "failed 2" in result.output and f"{FAULTY}: failed (2 errors)" in result.output


def test_every_game_of_the_check_stops_at_its_first_run_onto_a_foundation():
    rules = load_ruleset(FAULTY, despite=frozenset({"run-onto-foundation"}))
    for seed in (1, 2, 3):
        for strategy in ("random", "greedy"):
            outcome = play_checked(rules, seed, strategy)
            assert outcome.outcome == "failed" and outcome.problem.code == "check-foundation-build"
            assert outcome.problem.move == first_run_onto_a_foundation(rules, seed, strategy)


def test_the_fixed_emperor_and_midshipman_pass_the_check():
    result = runner.invoke(app, ["check", "emperor", "midshipman", "--deals", "5"])
    assert result.exit_code == 0, result.output
    assert "check-foundation-build" not in result.output


def test_a_ruleset_with_other_errors_is_still_not_played(tmp_path):
    bad = variant(tmp_path, "piles:\n  tableau: {take: any run, sequence: down in suit}\n  stock: {deal: [up]}\n")
    result = check_files([str(bad)], deals=1)[0]
    assert result.check is None and not result.valid
    assert {f.code for f in result.findings} >= {"run-onto-foundation"}


@pytest.mark.parametrize("game", ["lucas", "tournament", "emperor", "la-nivernaise", "house-on-the-hill"])
def test_foundations_that_are_prefilled_reversed_or_give_back_cards_pass(game):
    # Lucas's aces are laid out first, Tournament reverses foundations onto each other, Emperor and La Nivernaise give
    # cards back from them: each pile still holds cards its rules take one at a time.
    rules = load_ruleset(game)
    for seed in (1, 2):
        for strategy in ("random", "greedy"):
            assert play_checked(rules, seed, strategy).problem is None
