"""House on the Hill, one scenario per rule sentence of the seed text (see docs/sentences/house-on-the-hill.md)."""

from __future__ import annotations

from scenario import cards as pile, deal, for_game, legal, play, refusal, run, whole_suits, win_script_wins, won_line

NAME = "house-on-the-hill"
rules, game = for_game(NAME)


# -- "Follow the rules for House in the Wood except as regarding foundations." --------------------


def test_the_layout_is_house_in_the_wood_s():
    r = rules()
    g, order = deal(NAME, 8)
    fans = list(r.groups["tableau"].piles)
    assert len(fans) == 35 and r.deck.size == 104
    for i, p in enumerate(fans[:34]):
        assert g.state.piles[p] == [order[i], order[35 + i], order[70 + i]]
    assert g.state.piles[fans[34]] == [order[34], order[69]]
    assert all(g.state.down[p] == 0 for p in fans)
    assert set(r.groups) == {"foundation", "kings", "tableau"}
    assert refusal(g, "d") == "this game has no stock to deal from"


def test_the_fans_play_as_in_house_in_the_wood():
    g = game({"t1": "7H", "t2": "6H", "t3": "8H 5H", "t4": "6S", "t5": "KC", "t6": "AC", "t7": "2C"})
    assert "(piles.tableau.build, clause same-suit)" in refusal(g, "t4 t1")
    assert "(piles.tableau.build, clause rank-up-or-down)" in refusal(g, "t6 t5")  # no wrap
    assert "(piles.tableau.take, clause one-card)" in refusal(g, "t3 t1 2")
    play(g, "t2 t1")  # down in suit
    play(g, "t3 t1")  # up in suit: 5♥ on 6♥
    play(g, "t7 t6")
    assert pile(g, "t1") == ["7H", "6H", "5H"] and pile(g, "t6") == ["AC", "2C"]
    assert "(piles.tableau.empty, clause nothing)" in refusal(g, "t4 t2")  # an emptied fan is not replaced


# -- "Here the foundations are one ace and one king of each suit, placed as they become available."


def test_four_ace_foundations_and_four_king_foundations():
    r = rules()
    assert len(r.groups["foundation"].piles) == 4 and len(r.groups["kings"].piles) == 4
    assert r.groups["kings"].role == "foundation"
    g = game({"t1": "AS", "t2": "KS", "t3": "5C"})
    assert refusal(g, "t2 f1") == (
        "K♠ cannot go to the empty f1: the foundation takes only the first rank (piles.foundation.empty, clause first-rank)")
    assert refusal(g, "t1 k1") == (
        "A♠ cannot go to the empty k1: the kings takes only the last rank (piles.kings.empty, clause last-rank)")
    assert "clause first-rank" in refusal(g, "t3 f1") and "clause last-rank" in refusal(g, "t3 k1")
    play(g, "t1 f1")
    play(g, "t2 k1")
    assert pile(g, "f1") == ["AS"] and pile(g, "k1") == ["KS"]


def test_each_suit_has_one_ace_foundation_and_one_king_foundation():
    g = game({"f1": "AH 2H", "k1": "KH", "t1": "AH", "t2": "KH", "t3": "AC", "t4": "KC"})
    assert refusal(g, "t1 f2") == (
        "A♥ cannot go to the empty f2: the foundation starts only with a suit that has no ace foundation yet"
        " (piles.foundation.empty, clause one-per-suit)")
    assert refusal(g, "t2 k2") == (
        "K♥ cannot go to the empty k2: the kings starts only with a suit that has no king foundation yet"
        " (piles.kings.empty, clause one-per-suit)")
    play(g, "t3 f2")  # another suit is welcome
    play(g, "t4 k2")
    assert pile(g, "f2") == ["AC"] and pile(g, "k2") == ["KC"]
    # The second ace of hearts waits for the king foundation of hearts, the second king for the aces'.
    assert legal(g) == set()


def test_aces_and_kings_go_up_on_request_one_of_each_per_suit():
    g = game({"t1": "9S AS", "t2": "KD", "t3": "AS", "t4": "5C KD"})
    made = g.play_auto()
    assert len(made) == 2
    assert pile(g, "f1") == ["AS"] and pile(g, "k1") == ["KD"]
    # The other ace of spades and king of diamonds stay where they are.
    left = [c for tag in ("t1", "t2", "t3", "t4") for c in pile(g, tag)]
    assert left.count("AS") == 1 and left.count("KD") == 1
    g.undo()
    assert g.state.sizes["foundation"] == 0 and g.state.sizes["kings"] == 0


# -- "Aces are built up in suit to kings, and kings foundations are built down in suit to aces." --


def test_ace_foundations_build_up_and_king_foundations_down_in_suit():
    g = game({"f1": "AS", "k1": "KH", "t1": "2S", "t2": "QH", "t3": "2H", "t4": "QS", "t5": "JH 3S"})
    assert refusal(g, "t3 f1") == "2♥ cannot go on A♠: the foundation builds up in suit (piles.foundation.build, clause same-suit)"
    assert refusal(g, "t4 k1") == "Q♠ cannot go on K♥: the kings builds down in suit (piles.kings.build, clause same-suit)"
    assert "(piles.kings.build, clause rank-down)" in refusal(g, "t5 k1")
    play(g, "t1 f1")
    play(g, "t2 k1")
    play(g, "t5 f1")
    play(g, "t5 k1")
    assert pile(g, "f1") == ["AS", "2S", "3S"] and pile(g, "k1") == ["KH", "QH", "JH"]
    assert "(piles.kings.take, clause nothing)" in refusal(g, "k1 t4")
    assert "(piles.foundation.take, clause nothing)" in refusal(g, "f1 t3")


def test_the_game_is_won_when_every_card_is_on_the_eight_foundations():
    layout = {**whole_suits(4), **whole_suits(4, "k", falling=True)}
    assert game(layout).status().outcome == "won"
    layout["k4"] = run("S", "K", "2")
    layout["t9"] = "AS"
    g = game(layout)
    assert g.status().outcome == "playing"
    assert "(piles.foundation.build, clause rank-up)" in refusal(g, "t9 f4")  # A♠ cannot go on K♠
    play(g, "t9 k4")
    assert g.status().outcome == "won"


def test_the_committed_winning_deal_is_won_in_a_real_process():
    win_script_wins(NAME, won_line("House on the Hill"))
