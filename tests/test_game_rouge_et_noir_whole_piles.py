"""Rouge et Noir, Whole Piles: the seed's alternative rule, "to bar [the redeal], but allow tableau piles as a whole
to be moved in building" (see docs/sentences/rouge-et-noir.md, sentence 13). Everything else is Rouge et Noir's and
tested in tests/test_game_rouge_et_noir.py."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.interpreter.game import Game

from scenario import cards as pile, for_game, legal, play, refusal

NAME = "rouge-et-noir-whole-piles"
rules, game = for_game(NAME)
LINE = Path(__file__).parent / "solutions" / f"{NAME}-1.moves"  # the stored win of deal 1


def line() -> list[str]:
    return [m for m in LINE.read_text(encoding="utf-8").splitlines() if m and not m.startswith("#")]


def test_it_extends_rouge_et_noir_and_says_which_alternative_it_takes():
    r = rules()
    assert r.name == "Rouge et Noir, Whole Piles"
    assert "allow tableau piles as a whole to be moved in building" in r.description
    assert r.groups["stock"].redeals == 0
    shown = CliRunner().invoke(app, ["show", NAME])
    assert shown.exit_code == 0 and "lets go its top card alone or the whole pile at once" in shown.output
    listed = CliRunner().invoke(app, ["list"]).output.splitlines()
    assert any(entry.split()[0] == NAME and entry.endswith("(extends rouge-et-noir)") for entry in listed)


# -- on a fixed deal: deal 1, played along its stored win ----------------------------------------------------------
def test_on_deal_1_a_whole_pile_moves_in_building_but_never_part_of_one():
    moves = line()
    g = Game(rules(), seed=1)
    for m in moves[:132]:
        play(g, m)
    assert moves[132] == "t3 t6 4"
    assert pile(g, "t3") == ["JH", "10C", "9H", "8C"] and pile(g, "t6") == ["QC"]
    for n in (2, 3):
        assert refusal(g, f"t3 t6 {n}").endswith("the tableau lets go its top card alone or the whole pile at once"
                                                 " (piles.tableau.take, clause top-card-or-whole-pile)")
    assert {m for m in legal(g) if m.startswith("t3 ")} >= {"t3 t6 4"}
    assert not any(m.startswith("t3 ") and m.split()[-1] in ("2", "3") for m in legal(g))
    play(g, "t3 t6")  # without a count: the whole pile, the longest run that may go
    assert pile(g, "t3") == [] and pile(g, "t6") == ["QC", "JH", "10C", "9H", "8C"]


def test_on_deal_1_the_stock_is_turned_once_and_never_redealt():
    moves = line()
    g = Game(rules(), seed=1)
    for m in moves[:243]:
        play(g, m)
    assert pile(g, "s") == [] and pile(g, "w") != []
    assert refusal(g, "d") == "the stock is empty and the rules allow no redeal"
    assert not any(g.decode(m)[0] == "redeal" for m in g.legal_moves())
    for m in moves[243:]:
        play(g, m)
    assert g.status().outcome == "won" and g.state.redeals["stock"] == 0


# -- the rule in set positions ---------------------------------------------------------------------------------------
def test_a_whole_pile_goes_onto_a_tableau_card_but_not_into_a_space_nor_onto_a_foundation():
    g = game({"f1": "AS 2H 3C 4D 5S 6H 7C 8D 9S 10H", "t1": "10C 9D 8S", "t2": "JH", "t3": "JC 10D", "t4": "10S",
              "w": "2D"})
    assert "(piles.tableau.build, clause rank-down)" in refusal(g, "t1 t4 3")  # its bottom card must fit
    play(g, "t1 t2")  # 10♣ 9♦ 8♠ onto J♥, the whole pile
    assert pile(g, "t2") == ["JH", "10C", "9D", "8S"] and pile(g, "t1") == []
    assert refusal(g, "t2 t5 4").endswith("(piles.tableau.empty, clause from-waste)")  # not into a space
    assert refusal(g, "t3 f1 2").endswith("(piles.foundation.build, clause one-card)")  # J♣ fits on 10♥, 10♦ would not
    play(g, "w t1")  # a space still takes a card from the waste
    assert pile(g, "t1") == ["2D"]
