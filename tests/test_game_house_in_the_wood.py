"""House in the Wood, one scenario per rule sentence of the seed text (see docs/sentences/house-in-the-wood.md)."""

from __future__ import annotations

import pytest

from scenario import (all_but_a_king, cards as pile, deal, for_game, last_move_wins, legal, play, refusal, whole_suits,
                      win_script_wins, won_line)

NAME = "house-in-the-wood"
rules, game = for_game(NAME)


# -- "Deal the cards face up in 34 fans of three cards each and one fan of two." -----------------


@pytest.mark.parametrize("seed", [1, 50])
def test_the_whole_pack_is_dealt_face_up_in_34_fans_of_three_and_one_of_two(seed):
    r = rules()
    assert r.deck.size == 104  # La Belle Lucie with two packs
    g, order = deal(NAME, seed)
    fans = list(r.groups["tableau"].piles)
    assert len(fans) == 35
    for i, p in enumerate(fans[:34]):
        assert g.state.piles[p] == [order[i], order[35 + i], order[70 + i]]
    assert g.state.piles[fans[34]] == [order[34], order[69]]  # the last fan is short
    assert all(g.state.down[p] == 0 for p in fans)
    assert g.state.sizes["tableau"] == 104 and g.state.sizes["foundation"] == 0
    assert set(r.groups) == {"foundation", "tableau"}  # no stock, no waste


# -- "All aces are foundations, to be put in a row as they become available, and to be built up in
#     suit to kings." -------------------------------------------------------------------------------


def test_aces_start_the_foundations_which_build_up_in_suit():
    g = game({"f1": "AS", "t1": "2S", "t2": "2H", "t3": "3S", "t4": "5C", "t5": "9D AD"})
    assert len(rules().groups["foundation"].piles) == 8
    assert refusal(g, "t2 f1") == "2♥ cannot go on A♠: the foundation builds up in suit (piles.foundation.build, clause same-suit)"
    assert "(piles.foundation.build, clause rank-up)" in refusal(g, "t3 f1")
    assert "(piles.foundation.empty, clause first-rank)" in refusal(g, "t4 f2")
    play(g, "t1 f1")
    play(g, "t3 f1")
    play(g, "t5 f2")
    assert pile(g, "f1") == ["AS", "2S", "3S"] and pile(g, "f2") == ["AD"]
    assert "(piles.foundation.take, clause nothing)" in refusal(g, "f1 t4")


def test_available_aces_go_up_on_request():
    g = game({"t1": "9S AS", "t2": "AH 4C", "t3": "AD"})
    made = g.play_auto()
    assert len(made) == 2  # A♥ lies under 4♣: it is not available
    assert pile(g, "t1") == ["9S"] and pile(g, "t3") == [] and g.state.sizes["foundation"] == 2
    g.undo()
    assert pile(g, "t1") == ["9S", "AS"] and pile(g, "t3") == ["AD"] and g.state.sizes["foundation"] == 0


# -- "Only the top card of each fan is available." ----------------------------------------------


def test_only_the_top_card_of_each_fan_is_available():
    g = game({"t1": "7H 8H 9S", "t2": "10S", "t3": "9H"})
    assert refusal(g, "t1 t3 2") == (
        "8♥ 9♠ cannot leave t1: the tableau moves one card at a time (piles.tableau.take, clause one-card)")
    assert not any(g.decode(m)[3] > 1 for m in g.legal_moves())
    assert legal(g) == {"t1 t2", "t2 t1"}  # 9♠ and 10♠ on each other; the 8♥ under 9♠ may not go on 9♥
    play(g, "t1 t2")
    assert legal(g) >= {"t1 t3"}


# -- "Available cards may be built on foundations or upon each other, in suit, up or down." -------


def test_fans_build_up_or_down_in_suit():
    g = game({"t1": "7H", "t2": "6H", "t3": "8H", "t4": "6S", "t5": "9H", "t6": "5H"})
    assert refusal(g, "t4 t1") == (
        "6♠ cannot go on 7♥: the tableau builds up or down in suit (piles.tableau.build, clause same-suit)")
    assert refusal(g, "t5 t1") == (
        "9♥ cannot go on 7♥: the tableau builds up or down in suit (piles.tableau.build, clause rank-up-or-down)")
    assert {"t2 t1", "t3 t1"} <= legal(g)
    play(g, "t2 t1")  # down
    assert pile(g, "t1") == ["7H", "6H"]
    play(g, "t1 t6")  # and up: 6♥ on 5♥
    play(g, "t3 t1")  # 8♥ on 7♥
    assert pile(g, "t6") == ["5H", "6H"] and pile(g, "t1") == ["7H", "8H"]


# -- "Only a queen may go on a king and only a deuce on an ace." ---------------------------------


def test_ranks_do_not_wrap_only_a_queen_on_a_king_and_a_deuce_on_an_ace():
    g = game({"t1": "KC", "t2": "AC", "t3": "QC", "t4": "2C", "t5": "AC", "t6": "KC"})
    assert "(piles.tableau.build, clause rank-up-or-down)" in refusal(g, "t2 t1")  # no ace on a king
    assert "(piles.tableau.build, clause rank-up-or-down)" in refusal(g, "t1 t2")  # no king on an ace
    assert "(piles.tableau.build, clause rank-up-or-down)" in refusal(g, "t6 t5")
    assert {"t3 t1", "t4 t2", "t1 t3", "t2 t4"} <= legal(g)
    play(g, "t3 t1")
    play(g, "t4 t2")
    assert pile(g, "t1") == ["KC", "QC"] and pile(g, "t2") == ["AC", "2C"]


# -- "If all cards of a fan are removed, it is not replaced." ------------------------------------


def test_an_emptied_fan_is_not_replaced():
    g = game({"t1": "5D", "t2": "6D", "t3": "KS"})
    play(g, "t1 t2")
    assert pile(g, "t1") == []
    assert refusal(g, "t3 t1") == (
        "K♠ cannot go to the empty t1: the tableau takes no cards, even when empty (piles.tableau.empty, clause nothing)")
    assert "(piles.tableau.empty, clause nothing)" in refusal(g, "t2 t1")
    assert not any(g.decode(m)[2] == g.rules.pile_of_tag["t1"] for m in g.legal_moves())


# -- "There is no redeal." / "Though restricted to one deal, ..." ---------------------------------


def test_there_is_no_stock_and_no_redeal_and_a_stuck_game_is_lost():
    g = game({"t1": "5D", "t2": "9C", "t3": "KS"})
    assert refusal(g, "d") == "this game has no stock to deal from"
    assert g.legal_moves() == []
    assert g.status().outcome == "lost" and g.status().reason == "no legal move is left"


# -- the end ------------------------------------------------------------------------------------


def test_the_game_is_won_when_every_card_is_on_the_foundations():
    assert game(whole_suits()).status().outcome == "won"
    last_move_wins(game, all_but_a_king("t35"), "t35 f8")


def test_the_committed_winning_deal_is_won_in_a_real_process():
    win_script_wins(NAME, won_line("House in the Wood"))
