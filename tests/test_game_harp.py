"""Harp, sentence by sentence of its rule text: each test sets up a position (or a dealt order)
and checks what the rules allow, refuse (and how the refusal reads), deal, redeal and undo.
docs/sentences/harp.md maps every sentence to its test."""

from __future__ import annotations

from functools import partial

from scenario import (all_but_a_king, allowed, cards, deal, down, for_game, foundations_take_aces_and_build_up_in_suit,
                      ids, last_move_wins, play, refusal, suit, win_script_wins)

NAME = "harp"
rules, game = for_game(NAME)
dealt = partial(deal, NAME, seed=13)


def test_harp_is_played_with_two_packs():
    assert rules().deck.size == 104


def test_only_the_top_card_is_available_not_whole_builds():
    g = game({"t1": "10S 9H", "t2": "JD", "t3": "8S", "f1": "AH 2H 3H 4H 5H 6H 7H 8H"})
    assert refusal(g, "t1 t2 2") == ("10♠ 9♥ cannot leave t1: the tableau lets only its top card go, or a build with a king "
                                     "at the bottom (into a space) (piles.tableau.take, clause top-card-or-king-build)")
    assert allowed(g, "t1 f1")
    play(g, "t1 f1")
    assert cards(g, "f1")[-1] == "9H"


# -- Layout ----------------------------------------------------------------------------------------

def test_layout_one_card_face_up_and_beside_it_a_row_of_eight_face_down():
    g, order = dealt()
    assert ids(g, "t1") == [order[0]] and down(g, "t1") == 0
    for k in range(2, 10):
        assert ids(g, f"t{k}")[0] == order[k - 1] and down(g, f"t{k}") == k - 1


def test_layout_next_card_face_up_on_the_second_pile_then_seven_face_down():
    g, order = dealt()
    assert ids(g, "t2") == [order[1], order[9]] and down(g, "t2") == 1
    for k in range(3, 10):
        assert ids(g, f"t{k}")[1] == order[7 + k]


def test_layout_nine_piles_of_one_to_nine_cards_top_card_face_up():
    g, order = dealt()
    for k in range(1, 10):
        assert len(ids(g, f"t{k}")) == k and down(g, f"t{k}") == k - 1
    assert ids(g, "t9")[-1] == order[44]
    assert len(ids(g, "s")) == 59 and ids(g, "s")[-1] == order[45] and ids(g, "w") == []


# -- Foundations and play --------------------------------------------------------------------------

def test_foundations_take_the_aces_and_build_up_in_suit_to_kings():
    foundations_take_aces_and_build_up_in_suit(game)


def test_tableau_builds_down_in_alternating_colours():
    g = game({"t1": "8H", "t2": "9S", "t3": "9D", "t4": "10S"})
    assert allowed(g, "t1 t2")
    assert refusal(g, "t1 t3") == ("8♥ cannot go on 9♦: the tableau builds down in alternate colours "
                                   "(piles.tableau.build, clause alternate-colour)")
    assert refusal(g, "t1 t4") == ("8♥ cannot go on 10♠: the tableau builds down in alternate colours "
                                   "(piles.tableau.build, clause rank-down)")


def test_only_the_top_card_plays_to_foundations_or_tableau():
    g = game({"t1": "9C 8D", "t2": "10H", "t3": "KS QH", "f1": suit("D", "7"), "f2": suit("S", "Q")})
    assert refusal(g, "t1 t2 2") == ("9♣ 8♦ cannot leave t1: the tableau lets only its top card go, or a build with a king "
                                     "at the bottom (into a space) (piles.tableau.take, clause top-card-or-king-build)")
    assert allowed(g, "t1 f1")
    # Even a build with a king at the bottom goes to a foundation only card by card.
    assert refusal(g, "t3 f2 2") == "K♠ cannot go on Q♠: the foundation takes one card at a time (piles.foundation.build, clause one-card)"


def test_removing_the_last_face_up_card_turns_up_the_top_face_down_card():
    g = game({"t1": "7D 4S 6C", "t2": "7H", "t3": "5H"}, down={"t1": 2})
    play(g, "t1 t2")
    assert cards(g, "t1") == ["7D", "4S"] and down(g, "t1") == 1
    assert allowed(g, "t1 t3")
    g.undo()
    assert cards(g, "t1") == ["7D", "4S", "6C"] and down(g, "t1") == 2


def test_a_space_takes_only_a_king_or_a_build_with_a_king_at_the_bottom():
    g = game({"t1": "QH", "t2": "KS", "t3": "4D KD QC JH", "t5": "KC QH JH"}, down={"t3": 1})
    assert refusal(g, "t1 t4") == ("Q♥ cannot go to the empty t4: the tableau takes only the last rank "
                                   "(piles.tableau.empty, clause last-rank)")
    assert allowed(g, "t2 t4")
    # Part of a king's build is not a unit.
    assert "clause top-card-or-king-build" in refusal(g, "t3 t4 2")
    # Out of alternation, even a king's group does not move as one.
    assert refusal(g, "t5 t4 3") == ("K♣ Q♥ J♥ is not a run the tableau may move: J♥ on Q♥: the tableau builds down in "
                                     "alternate colours (piles.tableau.sequence, clause alternate-colour)")
    play(g, "t3 t4 3")
    assert cards(g, "t4") == ["KD", "QC", "JH"] and cards(g, "t3") == ["4D"] and down(g, "t3") == 0
    g.undo()
    assert cards(g, "t3") == ["4D", "KD", "QC", "JH"] and down(g, "t3") == 1 and cards(g, "t4") == []


def test_turn_cards_from_the_hand_one_by_one_onto_one_waste_pile():
    g, order = dealt()
    play(g, "d")
    assert ids(g, "w") == [order[45]] and len(ids(g, "s")) == 58
    play(g, "d")
    assert ids(g, "w") == [order[45], order[46]]
    g.undo()
    assert ids(g, "w") == [order[45]] and ids(g, "s")[-1] == order[46] and down(g, "s") == 58


def test_the_top_card_of_the_waste_is_available_for_foundations_or_tableau():
    g = game({"t1": "10S", "w": "AC 9D", "f1": suit("D", "8"), "s": "5C"}, down={"s": 1})
    assert allowed(g, "w t1") and allowed(g, "w f1")
    assert refusal(g, "w f2 2") == "A♣ 9♦ cannot leave w: the waste moves one card at a time (piles.waste.take, clause one-card)"
    assert refusal(g, "s t1") == "the top card of s is face down"


def test_redeals_are_unlimited_until_the_game_is_blocked():
    g = game({"t1": "5C", "t2": "5S", "s": "9H 9D"}, down={"s": 2})
    stock = g.rules.pile_of_tag["s"]
    play(g, "d")
    play(g, "d")
    assert cards(g, "w") == ["9D", "9H"] and g.status().outcome == "playing"
    play(g, "d")  # the redeal: the waste turned over, its first card on top again
    assert cards(g, "s") == ["9H", "9D"] and cards(g, "w") == [] and g.state.redeals["stock"] == 1
    g.undo()
    assert cards(g, "w") == ["9D", "9H"] and g.state.redeals["stock"] == 0
    play(g, "d")
    play(g, "d")
    play(g, "d")
    # A whole pass changed nothing: only a redeal is left, from a position already redealt from.
    assert g.legal_moves() == [g.P + stock]
    assert g.status().outcome == "lost" and g.status().reason.startswith("blocked")
    # A redeal after which a card can be used is not blocked.
    g2 = game({"t1": "10S", "t2": "5S", "s": "9H 9D"}, down={"s": 2})
    for _ in range(3):
        play(g2, "d")
    play(g2, "d")
    assert cards(g2, "w") == ["9D"] and g2.status().outcome == "playing"
    play(g2, "w t1")
    play(g2, "d")
    play(g2, "d")
    assert g2.state.redeals["stock"] == 2 and g2.status().outcome == "playing"


def test_the_game_is_won_when_every_card_is_on_the_foundations():
    last_move_wins(game, all_but_a_king("w"), "w f8", score=104, undo=True)


# -- The committed winning deal ----------------------------------------------------------------------

def test_win_script_wins_in_a_real_process():
    win_script_wins(NAME, "*** WON: Harp in ")
