"""Miss Milligan, sentence by sentence of its rule text: each test sets up a position (or a dealt
order) and checks what the rules allow, refuse (and how the refusal reads), deal, weave and undo.
docs/sentences/miss-milligan.md maps every sentence to its test."""

from __future__ import annotations

from kallisti.interpreter.game import Game

from scenario import (all_but_a_king, allowed, cards, deal, dealing_order, for_game, ids, last_move_wins, play, refusal,
                      suit, win_script_wins)

SOME_STOCK = "2C 3C 4C"  # a stock that is neither full (the first row) nor empty (weaving)

NAME = "miss-milligan"
rules, game = for_game(NAME)


def order_starting(*names: str) -> list[int]:
    """A dealing order that begins with the named cards, the rest of the pack after them in id order."""
    return dealing_order(NAME, names)


# -- Foundations -----------------------------------------------------------------------------------

def test_foundations_take_aces_and_build_up_in_suit_to_kings():
    g = game({"t1": "AH", "t2": "2H", "t3": "2S", "t4": "KD", "f2": suit("D", "Q"), "s": SOME_STOCK}, down={"s": 3})
    assert refusal(g, "t2 f1") == ("2♥ cannot go to the empty f1: the foundation takes only the first rank "
                                   "(piles.foundation.empty, clause first-rank)")
    play(g, "t1 f1")
    assert refusal(g, "t3 f1") == "2♠ cannot go on A♥: the foundation builds up in suit (piles.foundation.build, clause same-suit)"
    play(g, "t2 f1")
    assert cards(g, "f1") == ["AH", "2H"]
    play(g, "t4 f2")  # up to the king
    assert cards(g, "f2")[-1] == "KD"
    assert len(rules().groups["foundation"].piles) == 8


def test_foundations_take_one_card_at_a_time():
    g = game({"t1": "3H 2S", "f1": "AS", "f2": "AH 2H", "s": SOME_STOCK}, down={"s": 3})
    assert refusal(g, "t1 f2 2") == "3♥ cannot go on 2♥: the foundation takes one card at a time (piles.foundation.build, clause one-card)"
    play(g, "t1 f1")
    play(g, "t1 f2")
    assert cards(g, "f2") == ["AH", "2H", "3H"]


# -- Layout ----------------------------------------------------------------------------------------

def test_layout_deal_a_row_of_eight_cards():
    g, order = deal(NAME, 11)
    for i in range(8):
        assert ids(g, f"t{i + 1}") == [order[i]]
        assert g.state.down[g.rules.pile_of_tag[f"t{i + 1}"]] == 0
    assert len(ids(g, "s")) == 96 and ids(g, "s")[-1] == order[8]
    assert ids(g, "r") == [] and g.state.sizes["foundation"] == 0


def test_layout_aces_and_other_playable_cards_of_the_first_row_go_up():
    g = Game(rules(), order=order_starting("AS", "KH", "5D", "9C", "2S", "7H", "8D", "3C"))
    play(g, "t1 f")
    play(g, "t5 f")
    assert cards(g, "f1") == ["AS", "2S"]


def test_layout_do_not_fill_spaces_in_the_first_row():
    g = Game(rules(), order=order_starting("AS", "KH", "5D", "9C", "2S", "7H", "8D", "3C"))
    play(g, "t1 f")
    assert refusal(g, "t2 t1") == ("K♥ cannot go to the empty t1: the tableau leaves the spaces of the first row empty "
                                   "until the next deal (piles.tableau.empty, clause not-in-the-first-row)")
    assert allowed(g, "d")


def test_layout_continue_dealing_eight_at_a_time_filling_the_spaces():
    order = order_starting("AS", "KH", "5D", "9C", "2S", "7H", "8D", "3C")
    g = Game(rules(), order=order)
    play(g, "t1 f")
    before = [list(ids(g, f"t{i + 1}")) for i in range(8)]
    play(g, "d")
    for i in range(8):
        assert ids(g, f"t{i + 1}") == before[i] + [order[8 + i]]  # the space t1 gets a card as well
    assert len(ids(g, "s")) == 88
    g.undo()
    assert [ids(g, f"t{i + 1}") for i in range(8)] == before and len(ids(g, "s")) == 96


def test_layout_each_deal_adds_one_card_to_every_column_until_the_pack_is_dealt():
    g, order = deal(NAME, 3)
    for k in range(12):
        play(g, "d")
        assert all(len(ids(g, f"t{i + 1}")) == k + 2 for i in range(8))
        assert all(g.state.down[g.rules.pile_of_tag[f"t{i + 1}"]] == 0 for i in range(8))
    assert ids(g, "s") == []
    assert refusal(g, "d") == "the stock is empty and the rules allow no redeal"


def test_layout_plays_between_deals_and_a_deal_whenever_the_player_likes():
    g = game({"t1": "9S", "t2": "10H", "t3": "QD", "s": SOME_STOCK}, down={"s": 3})
    assert allowed(g, "t1 t2") and allowed(g, "d")  # a deal is not held back by a possible move or by spaces
    play(g, "t1 t2")
    play(g, "d")
    # The stock's top card (the last named) goes on t1; with three cards left, t4 gets none.
    assert cards(g, "t1") == ["4C"] and cards(g, "t3") == ["QD", "2C"] and cards(g, "t4") == []


# -- Play ------------------------------------------------------------------------------------------

def test_the_top_cards_of_the_columns_play_to_foundations_or_on_each_other():
    g = game({"t1": "9D AH", "t2": "10S 2C", "t3": "3D", "s": SOME_STOCK}, down={"s": 3})
    assert allowed(g, "t1 f")
    assert allowed(g, "t2 t3")  # 2♣ on 3♦
    # A card under one not in sequence with it is not available.
    assert "(piles.tableau.sequence, clause rank-down)" in refusal(g, "t2 t3 2")


def test_build_down_in_alternating_colours_and_move_builds():
    g = game({"t1": "8H", "t2": "9S", "t3": "9D", "t4": "10S", "t5": "JD 10C 9H", "t6": "JH", "s": SOME_STOCK},
             down={"s": 3})
    assert allowed(g, "t1 t2")
    assert refusal(g, "t1 t3") == ("8♥ cannot go on 9♦: the tableau builds down in alternate colours "
                                   "(piles.tableau.build, clause alternate-colour)")
    assert refusal(g, "t1 t4") == ("8♥ cannot go on 10♠: the tableau builds down in alternate colours "
                                   "(piles.tableau.build, clause rank-down)")
    assert allowed(g, "t5 t4 1") and allowed(g, "t5 t6 2")  # a build moves in part
    g2 = game({"t1": "QS", "t2": "JD 10C 9H", "s": SOME_STOCK}, down={"s": 3})
    play(g2, "t2 t1")  # or as a whole
    assert cards(g2, "t1") == ["QS", "JD", "10C", "9H"]


def test_a_space_takes_only_a_king_or_a_build_with_a_king_at_the_bottom():
    g = game({"t1": "QH", "t2": "KS", "t3": "KD QC JH", "t4": "5C", "s": SOME_STOCK}, down={"s": 3})
    assert refusal(g, "t1 t5") == ("Q♥ cannot go to the empty t5: the tableau takes only the last rank "
                                   "(piles.tableau.empty, clause last-rank)")
    assert refusal(g, "t3 t5 2") == ("Q♣ cannot go to the empty t5: the tableau takes only the last rank "
                                     "(piles.tableau.empty, clause last-rank)")
    assert allowed(g, "t2 t5")
    play(g, "t3 t5 3")
    assert cards(g, "t5") == ["KD", "QC", "JH"]


# -- Weaving ---------------------------------------------------------------------------------------

def test_weaving_after_the_whole_pack_is_dealt_one_card_or_build_is_set_aside():
    layout = {"t1": "5C KH QS", "t2": "QH JS", "t3": "3D"}
    g = game({**layout, "s": SOME_STOCK}, down={"s": 3})
    assert refusal(g, "t1 r") == ("Q♠ cannot go to the empty r: the reserve takes a card or build set aside only after "
                                  "the entire pack is dealt (piles.reserve.empty, clause after-the-deal)")
    g = game(layout)
    play(g, "t1 r 2")  # a build
    assert cards(g, "r") == ["KH", "QS"] and cards(g, "t1") == ["5C"]
    # One at a time: nothing more while something is set aside.
    assert refusal(g, "t2 r") == "J♠ cannot go on Q♠: the reserve takes no cards (piles.reserve.build, clause nothing)"
    g.undo()
    assert cards(g, "r") == [] and cards(g, "t1") == ["5C", "KH", "QS"]
    play(g, "t2 r 1")  # or a single card
    assert cards(g, "r") == ["JS"]


def test_weaving_continues_once_the_cards_set_aside_are_built_back_on_the_tableau():
    g = game({"t1": "5C KH QS", "t2": "9D", "t3": "8C", "t5": "KD"})
    play(g, "t1 r 2")
    assert refusal(g, "r t2 1") == ("Q♠ cannot go on 9♦: the tableau builds down in alternate colours "
                                      "(piles.tableau.build, clause rank-down)")
    play(g, "r t5 1")  # Q♠ built correctly on K♦, K♥ still set aside
    assert refusal(g, "t3 r") == "8♣ cannot go on K♥: the reserve takes no cards (piles.reserve.build, clause nothing)"
    play(g, "r t4")  # K♥ into a space
    assert cards(g, "r") == [] and cards(g, "t4") == ["KH"]
    assert allowed(g, "t3 r")  # the privilege continues
    g.undo()
    assert cards(g, "r") == ["KH"] and not allowed(g, "t3 r")


def test_weaving_continues_once_the_cards_set_aside_are_played_off_on_foundations():
    g = game({"t1": "5C QS", "t2": "9D", "f2": suit("S", "J")})
    play(g, "t1 r")
    assert not allowed(g, "t2 r")
    play(g, "r f2")
    assert cards(g, "f2")[-1] == "QS"
    play(g, "t2 r")
    assert cards(g, "r") == ["9D"]


def test_the_game_is_won_when_every_card_is_on_the_foundations():
    last_move_wins(game, all_but_a_king("t1"), "t1 f8", score=104, undo=True)


def test_a_puts_every_available_ace_up():
    g = game({"t1": "7D AS", "t2": "AH", "t3": "9C", "s": SOME_STOCK}, down={"s": 3})
    made = g.play_auto()
    assert len(made) == 2 and g.state.sizes["foundation"] == 2
    g.undo()
    assert cards(g, "t1") == ["7D", "AS"] and cards(g, "t2") == ["AH"]


# -- The committed winning deal ----------------------------------------------------------------------

def test_win_script_wins_in_a_real_process():
    win_script_wins(NAME, "*** WON: Miss Milligan in ")
