"""Blockade, sentence by sentence of its rule text: each test sets up a position (or a dealt order)
and checks what the rules allow, refuse (and how the refusal reads), deal and undo.
docs/sentences/blockade.md maps every sentence to its test."""

from __future__ import annotations

from kallisti.interpreter.game import Game

from scenario import (FILL, all_but_a_king, allowed, cards, deal, for_game, foundations_take_aces_and_build_up_in_suit,
                      ids, last_move_wins, play, refusal, win_script_wins)

NAME = "blockade"
rules, game = for_game(NAME)


def hand(*names: str) -> dict:
    """The hand (stock) holding these cards, the last named on top."""
    return {"s": " ".join(names)}


def face_up(g: Game, tag: str) -> int:
    p = g.rules.pile_of_tag[tag]
    return len(g.state.piles[p]) - g.state.down[p]


# -- Foundations -----------------------------------------------------------------------------------

def test_foundations_take_the_aces_and_build_up_in_suit_to_kings():
    foundations_take_aces_and_build_up_in_suit(game)


# -- Play ------------------------------------------------------------------------------------------

def test_deal_a_row_of_12_cards_face_up_starting_the_tableau():
    g, order = deal(NAME, 5)
    for i in range(12):
        assert ids(g, f"t{i + 1}") == [order[i]] and face_up(g, f"t{i + 1}") == 1
    # The rest is the hand, its first card on top and face up, the others face down.
    assert len(ids(g, "s")) == 92 and ids(g, "s")[-1] == order[12] and face_up(g, "s") == 1


def test_play_up_what_you_can():
    g = game({"t1": "7D AS", "t2": "AH", "t3": "9C", "t4": "2H", **hand("3C")})
    made = g.play_auto()  # the `a` command puts every available ace up
    assert len(made) == 2 and g.state.sizes["foundation"] == 2
    play(g, "t4 f")
    assert g.state.sizes["foundation"] == 3
    g.undo()
    g.undo()
    assert cards(g, "t1") == ["7D", "AS"] and cards(g, "t2") == ["AH"]


def test_tableau_cards_build_down_in_suit():
    g = game({"t1": "8S", "t2": "9S", "t3": "8H", "t4": "7S"})
    assert allowed(g, "t1 t2")
    assert refusal(g, "t3 t2") == "8♥ cannot go on 9♠: the tableau builds down in suit (piles.tableau.build, clause same-suit)"
    assert refusal(g, "t4 t2") == "7♠ cannot go on 9♠: the tableau builds down in suit (piles.tableau.build, clause rank-down)"


def test_the_top_card_of_a_pile_plays_on_foundations_or_another_pile():
    g = game({"t1": "9D 3H", "t2": "4H", "t3": "4D 3D 2D", "f1": "AH 2H", "f2": "AD"})
    assert allowed(g, "t1 f1") and allowed(g, "t1 t2")
    # A run goes to a foundation only card by card.
    assert refusal(g, "t3 f2 2") == "3♦ cannot go on A♦: the foundation takes one card at a time (piles.foundation.build, clause one-card)"
    play(g, "t3 f2 1")
    assert cards(g, "f2") == ["AD", "2D"]


def test_a_group_in_sequence_and_suit_moves_in_whole_or_in_part():
    g = game({"t1": "9S 8S 7S", "t2": "10S", "t3": "9S", "t4": "8S", "t5": "9H 8D"})
    assert allowed(g, "t1 t2 3") and allowed(g, "t1 t3 2") and allowed(g, "t1 t4 1")
    play(g, "t1 t2")
    assert cards(g, "t2") == ["10S", "9S", "8S", "7S"] and cards(g, "t1") == []
    g2 = game({"t1": "9H 8D", "t2": "10H"})
    assert refusal(g2, "t1 t2 2") == ("9♥ 8♦ is not a run the tableau may move: 8♦ on 9♥: the tableau builds down in suit "
                                      "(piles.tableau.sequence, clause same-suit)")


def test_a_space_takes_any_tableau_card_or_group_or_a_card_from_the_hand():
    g = game({"t1": "QH", "t2": "9S 8S", "t3": "JC", **hand("4D", "2C", "5H")}, down={"s": 2})
    assert allowed(g, "t1 t4")
    assert allowed(g, "t2 t4 2") and allowed(g, "t2 t4 1")
    play(g, "s t4")
    assert cards(g, "t4") == ["5H"]
    # The next card of the hand turns up and is available in its turn; undo turns it down again.
    assert cards(g, "s") == ["4D", "2C"] and face_up(g, "s") == 1
    assert allowed(g, "s t5")
    g.undo()
    assert cards(g, "s") == ["4D", "2C", "5H"] and face_up(g, "s") == 1 and cards(g, "t4") == []


def test_the_hand_card_fills_only_spaces():
    g = game({"t1": "6H", "t2": "QS", "f1": "AH 2H 3H 4H", **hand("2C", "5H")})
    assert refusal(g, "s t1") == ("5♥ cannot go on 6♥: the tableau takes a card from the hand only into a space "
                                  "(piles.tableau.build, clause not-from-the-hand)")
    assert refusal(g, "s f1") == ("5♥ cannot go on 4♥: the foundation takes no card from the hand, which only fills "
                                  "spaces (piles.foundation.build, clause not-from-the-hand)")
    assert refusal(g, "s t2 2") == "s has only 1 face-up card"


def test_every_space_must_have_a_card_before_a_new_row_is_dealt():
    layout = {f"t{i + 1}": FILL[i] for i in range(11)}
    g = game({**layout, **hand("2C", "3C")})
    stock = g.rules.pile_of_tag["s"]
    assert stock not in g.legal_moves()
    play(g, "s t12")  # the hand's own card fills the last space
    assert stock in g.legal_moves()


def test_a_deal_refused_for_a_space_names_the_rule():
    layout = {f"t{i + 1}": FILL[i] for i in range(11)}
    g = game({**layout, **hand("2C", "3C")})
    text = refusal(g, "d")
    assert "each of the tableau's spaces has a card" in text
    assert "piles.stock.dealing, clause no-space" in text


def test_deal_a_new_row_of_twelve_one_on_each_pile():
    g, order = deal(NAME, 9)
    before = [list(ids(g, f"t{i + 1}")) for i in range(12)]
    play(g, "d")  # the player decides when play has come to a stand
    for i in range(12):
        assert ids(g, f"t{i + 1}") == before[i] + [order[12 + i]] and face_up(g, f"t{i + 1}") == 2
    assert len(ids(g, "s")) == 80 and ids(g, "s")[-1] == order[24] and face_up(g, "s") == 1
    g.undo()
    assert [ids(g, f"t{i + 1}") for i in range(12)] == before
    assert len(ids(g, "s")) == 92 and ids(g, "s")[-1] == order[12] and face_up(g, "s") == 1
    # Seven full rows, then the last eight cards on t1..t8; no redeal.
    for _ in range(8):
        play(g, "d")
    assert [len(ids(g, f"t{i + 1}")) for i in range(12)] == [9] * 8 + [8] * 4
    assert refusal(g, "d") == "the stock is empty and the rules allow no redeal"


def test_the_game_is_won_when_every_card_is_on_the_foundations():
    last_move_wins(game, all_but_a_king("t1"), "t1 f8", score=104, undo=True)


# -- The committed winning deal ----------------------------------------------------------------------

def test_win_script_wins_in_a_real_process():
    win_script_wins(NAME, "*** WON: Blockade in ")
