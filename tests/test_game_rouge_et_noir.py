"""Rouge et Noir, one scenario per rule sentence of the seed text (see docs/sentences/rouge-et-noir.md)."""

from __future__ import annotations

import pytest

from kallisti.interpreter.notation import describe, parse_move

from scenario import RANKS, cards as pile, deal, for_game, legal, play, refusal, win_script_wins, won_line

NAME = "rouge-et-noir"
rules, game = for_game(NAME)


# -- "Remove the eight aces from the pack and place them in a row, to be built up in alternate
#     colors to kings." / "Below the foundations deal a row of eight cards, forming the tableau."


@pytest.mark.parametrize("seed", [1, 77])
def test_the_eight_aces_are_removed_first_and_placed_on_the_foundations(seed):
    r = rules()
    g, order = deal(NAME, seed)
    deck = r.deck
    aces = [c for c in order if deck.rank[c] == 0]
    assert [g.state.piles[p] for p in r.groups["foundation"].piles] == [[a] for a in aces]
    # Nothing but the aces: no ace is left in the tableau or the stock.
    assert all(deck.rank[c] != 0 for name in ("tableau", "stock") for p in r.groups[name].piles for c in g.state.piles[p])


def test_the_foundations_build_up_in_alternate_colours():
    g = game({"f1": "AS", "f2": "AD 2C", "t1": "2H", "t2": "2C", "t3": "3D", "t4": "3S"})
    assert refusal(g, "t2 f1") == (
        "2♣ cannot go on A♠: the foundation builds up in alternate colours (piles.foundation.build, clause alternate-colour)")
    assert "(piles.foundation.build, clause rank-up)" in refusal(g, "t3 f1")
    assert "(piles.foundation.build, clause alternate-colour)" in refusal(g, "t4 f2")  # 3♠ on 2♣
    play(g, "t1 f1")  # a heart on a spade: any suit of the other colour
    play(g, "t4 f1")  # then a black three on the red two
    play(g, "t3 f2")
    assert pile(g, "f1") == ["AS", "2H", "3S"] and pile(g, "f2") == ["AD", "2C", "3D"]
    assert "(piles.foundation.take, clause nothing)" in refusal(g, "f1 t5")


def test_a_row_of_eight_cards_forms_the_tableau_and_the_rest_is_the_stock():
    r = rules()
    g, order = deal(NAME, 5)
    rest = [c for c in order if r.deck.rank[c] != 0]
    tableau = list(r.groups["tableau"].piles)
    assert len(tableau) == 8
    assert [g.state.piles[p] for p in tableau] == [[c] for c in rest[:8]]
    assert all(g.state.down[p] == 0 for p in tableau)
    s = r.pile_of_tag["s"]
    assert len(g.state.piles[s]) == 88 and g.state.down[s] == 88
    play(g, "d")
    assert g.state.piles[r.pile_of_tag["w"]] == [rest[8]]


# -- "These cards may be built on each other downward in alternate color." ----------------------


def test_the_tableau_builds_down_in_alternate_colours():
    g = game({"t1": "9S", "t2": "8S", "t3": "8D", "t4": "7C", "t5": "10H", "t6": "7H"})
    assert refusal(g, "t2 t1") == (
        "8♠ cannot go on 9♠: the tableau builds down in alternate colours (piles.tableau.build, clause alternate-colour)")
    assert "(piles.tableau.build, clause rank-down)" in refusal(g, "t5 t1")  # up is not allowed
    assert "(piles.tableau.build, clause rank-down)" in refusal(g, "t4 t1")  # nor two ranks down
    play(g, "t3 t1")  # red on black
    assert "(piles.tableau.build, clause alternate-colour)" in refusal(g, "t6 t1")  # 7♥ on 8♦
    play(g, "t4 t1")  # black on red, any suit
    assert pile(g, "t1") == ["9S", "8D", "7C"]


# -- "Only one card at a time may be moved in building." ----------------------------------------


def test_only_one_card_at_a_time_is_moved():
    g = game({"t1": "9S 8H", "t2": "10D", "t3": "9C"})
    assert refusal(g, "t1 t2 2") == (
        "9♠ 8♥ cannot leave t1: the tableau moves one card at a time (piles.tableau.take, clause one-card)")
    assert not any(g.decode(m)[3] > 1 for m in g.legal_moves())
    play(g, "t1 t3")  # the top card alone may go
    play(g, "t1 t2")
    assert pile(g, "t3") == ["9C", "8H"] and pile(g, "t2") == ["10D", "9S"] and pile(g, "t1") == []


# -- "The top card of a tableau pile is always available for play on another pile or on
#     foundations." -----------------------------------------------------------------------------


def test_the_top_card_of_a_tableau_pile_plays_to_another_pile_or_a_foundation():
    g = game({"f1": "AD", "t1": "5H 2S", "t2": "6C 3H", "t3": "4C"})
    assert legal(g) >= {"t1 f1", "t2 t3"}
    play(g, "t1 f1")  # 2♠ on A♦
    play(g, "t2 t3")  # 3♥ on 4♣
    assert pile(g, "f1") == ["AD", "2S"] and pile(g, "t3") == ["4C", "3H"]
    assert refusal(g, "t3 f1 2").endswith("(piles.tableau.take, clause one-card)")  # only the top card


# -- "Spaces in the tableau may be filled only from the waste pile, if any, or the hand." --------


def test_a_space_is_filled_only_from_the_waste_or_the_hand():
    g = game({"t1": "9S", "t2": "KD", "w": "QC", "s": "7D"}, down={"s": 1})
    assert refusal(g, "t1 t3") == (
        "9♠ cannot go to the empty t3: the tableau takes a card into a space only from the waste or the hand"
        " (piles.tableau.empty, clause from-waste)")
    assert "(piles.tableau.empty, clause from-waste)" in refusal(g, "t2 t4")
    play(g, "w t3")  # from the waste
    assert pile(g, "t3") == ["QC"]
    play(g, "d")  # the card in hand is turned up ...
    play(g, "w t4")  # ... and fills a space
    assert pile(g, "t4") == ["7D"] and pile(g, "w") == []


def test_a_space_need_not_be_filled_at_once():
    g = game({"t1": "9S", "t2": "8D", "w": "QC", "s": "7D"}, down={"s": 1})
    moves = legal(g)
    assert {"t2 t1", "d"} <= moves and "w t3" in moves
    play(g, "t2 t1")
    play(g, "d")
    assert pile(g, "t3") == [] and g.status().outcome == "playing"


# -- "Turn up cards from the hand one by one, placing unplayable cards face up on a single waste
#     pile." / "The top card of this pile, as well as the card in hand, is available for play on
#     foundations or the tableau." ------------------------------------------------------------


def test_the_hand_is_turned_one_card_at_a_time_onto_one_waste_pile():
    g = game({"s": "3H KS 5C", "t1": "9D"}, down={"s": 3})
    play(g, "d")
    play(g, "d")
    assert pile(g, "w") == ["5C", "KS"] and pile(g, "s") == ["3H"]
    w = g.rules.pile_of_tag["w"]
    assert g.state.down[w] == 0  # face up
    assert len(g.rules.groups["waste"].piles) == 1
    g.undo()
    assert pile(g, "w") == ["5C"] and pile(g, "s") == ["3H", "KS"] and g.state.down[g.rules.pile_of_tag["s"]] == 2


def test_the_top_card_of_the_waste_plays_to_a_foundation_or_the_tableau():
    g = game({"f1": "AC", "w": "9C 2H", "t1": "10D"})
    assert refusal(g, "w t1 2").endswith("(piles.waste.take, clause one-card)")
    assert "(piles.tableau.build, clause rank-down)" in refusal(g, "w t1")  # 2♥ is on top, 9♣ under it
    play(g, "w f1")
    play(g, "w t1")
    assert pile(g, "f1") == ["AC", "2H"] and pile(g, "t1") == ["10D", "9C"] and pile(g, "w") == []


# -- "One redeal is permitted." ----------------------------------------------------------------


def test_one_redeal_turns_the_waste_over_into_a_new_stock():
    g = game({"s": "8C", "w": "4H 6S 2D", "t1": "KH"}, down={"s": 1})
    play(g, "d")
    assert pile(g, "s") == [] and pile(g, "w") == ["4H", "6S", "2D", "8C"]
    before = g.state.key()
    m = parse_move(g, "d")
    g.play(m)
    assert g.decode(m)[0] == "redeal"
    # The waste turned over: its bottom card, the first one placed there, is turned first again.
    assert pile(g, "s") == ["8C", "2D", "6S", "4H"] and pile(g, "w") == []
    assert g.state.down[g.rules.pile_of_tag["s"]] == 4
    for card in ("4H", "6S", "2D", "8C"):
        play(g, "d")
        assert pile(g, "w")[-1] == card
    assert refusal(g, "d") == "the stock is empty and its one redeal is used"
    for _ in range(4):
        g.undo()
    g.undo()  # undo of the redeal itself
    assert g.state.key() == before
    assert g.state.redeals["stock"] == 0
    assert describe(g, parse_move(g, "d")) == "d"


# -- "An alternative is to bar it, but allow tableau piles as a whole to be moved in building."
#    (the alternative is not taken) -----------------------------------------------------------


def test_the_alternative_of_no_redeal_and_whole_piles_moving_is_not_taken():
    r = rules()
    assert r.groups["stock"].redeals == 1
    g = game({"t1": "10C 9D", "t2": "JH"})
    assert "(piles.tableau.take, clause one-card)" in refusal(g, "t1 t2 2")


# -- the end ------------------------------------------------------------------------------------


def _full_foundations() -> dict[str, str]:
    """Eight foundations ace to king in alternate colours: black aces take red evens, and so on."""
    layout = {}
    pairs = [("S", "H"), ("S", "H"), ("H", "S"), ("H", "S"), ("C", "D"), ("C", "D"), ("D", "C"), ("D", "C")]
    for i, (odd, even) in enumerate(pairs):
        layout[f"f{i + 1}"] = " ".join(r + (odd if k % 2 == 0 else even) for k, r in enumerate(RANKS))
    return layout


def test_the_game_is_won_when_every_card_is_on_the_foundations():
    assert game(_full_foundations()).status().outcome == "won"
    layout = _full_foundations()
    layout["f8"] = layout["f8"].rsplit(" ", 1)[0]
    layout["t1"] = "KD"
    g = game(layout)
    assert g.status().outcome == "playing"
    play(g, "t1 f8")
    assert g.status().outcome == "won"
    g.undo()
    assert g.status().outcome == "playing" and pile(g, "t1") == ["KD"]


def test_the_game_is_lost_when_no_move_is_left():
    g = game({"f1": "AS", "t1": "QS", "t2": "QC"})
    assert g.legal_moves() == []
    assert g.status().outcome == "lost"


def test_the_committed_winning_deal_is_won_in_a_real_process():
    win_script_wins(NAME, won_line("Rouge et Noir"), "\nredeal s\n", absent=None)  # the line uses the one redeal
