"""The README's walk-through variant, examples/twelve-thieves.rules, means what it says."""

from pathlib import Path

import pytest

from kallisti.interpreter.game import Game
from kallisti.interpreter.notation import MoveRefused, parse_move
from kallisti.model.ruleset import load_ruleset

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "twelve-thieves.rules"


@pytest.fixture(scope="module")
def rules():
    return load_ruleset(EXAMPLE)


def test_twelve_piles_of_three_with_the_bottom_card_face_down(rules):
    game = Game(rules, seed=3)
    tableau = rules.groups["tableau"]
    assert len(tableau.piles) == 12
    assert all(len(game.state.piles[p]) == 3 and game.state.down[p] == 1 for p in tableau.piles)
    assert game.state.sizes["stock"] == 104 - 36


def test_building_is_down_in_alternate_colours(rules):
    game = Game(rules).arrange({"t1": "9S", "t2": "8H", "t3": "8C"})
    parse_move(game, "t2 t1")
    with pytest.raises(MoveRefused, match="builds down in alternate colours"):
        parse_move(game, "t3 t1")


def test_the_added_clause_bites(rules):
    game = Game(rules).arrange({"t1": "2S", "t2": "AH"})
    with pytest.raises(MoveRefused, match=r"clause aces-go-home"):
        parse_move(game, "t2 t1")


def test_a_space_takes_only_a_king(rules):
    game = Game(rules).arrange({"t1": "QS", "t2": "KH"})
    parse_move(game, "t2 t3")
    with pytest.raises(MoveRefused, match="clause last-rank"):
        parse_move(game, "t1 t3")


def test_one_redeal(rules):
    game = Game(rules).arrange({"w": "5S 6S", "t1": "KH"})
    game.play(parse_move(game, "d"))  # the stock is empty: turn the waste over
    assert game.state.sizes["stock"] == 2 and game.state.sizes["waste"] == 0
    game.play(parse_move(game, "d"))
    game.play(parse_move(game, "d"))
    with pytest.raises(MoveRefused, match="its one redeal is used"):
        parse_move(game, "d")
