"""Congress, one scenario per rule sentence of the seed text (see docs/sentences/congress.md)."""

from __future__ import annotations

import pytest

from scenario import (all_but_a_king, cards as pile, deal, for_game, last_move_wins, legal, play, refusal, whole_suits,
                      win_script_wins, won_line)

NAME = "congress"
rules, game = for_game(NAME)


def full(layout: dict[str, str]) -> dict[str, str]:
    """A layout whose tableau piles not named hold a king each, so no space forces a move."""
    kings = ["KC", "KD", "KH", "KS"] * 2
    return {**{f"t{i + 1}": kings[i] for i in range(8)}, **layout}


# -- "Deal two columns of four cards each, leaving room between the columns for two more
#     columns." / "These eight cards start the tableau." ------------------------------------------


@pytest.mark.parametrize("seed", [1, 31])
def test_eight_single_cards_start_the_tableau_and_the_rest_is_the_stock(seed):
    r = rules()
    g, order = deal(NAME, seed)
    tableau = list(r.groups["tableau"].piles)
    assert len(tableau) == 8
    assert [g.state.piles[p] for p in tableau] == [[c] for c in order[:8]]
    assert all(g.state.down[p] == 0 for p in tableau)
    assert all(not g.state.piles[p] for p in r.groups["foundation"].piles)
    s = r.pile_of_tag["s"]
    assert len(g.state.piles[s]) == 96 and g.state.down[s] == 96
    play(g, "d")
    assert g.state.piles[r.pile_of_tag["w"]] == [order[8]]


# -- "The eight aces, as they become available, are moved into two columns in the center and
#     built up in suit to kings." ----------------------------------------------------------------


def test_the_foundations_start_with_aces_and_build_up_in_suit():
    g = game(full({"f1": "AS", "t1": "2S", "t2": "2H", "t3": "3S", "t4": "AD", "t5": "5C", "w": "AH"}))
    assert refusal(g, "t2 f1") == "2♥ cannot go on A♠: the foundation builds up in suit (piles.foundation.build, clause same-suit)"
    assert "(piles.foundation.build, clause rank-up)" in refusal(g, "t3 f1")
    assert refusal(g, "t5 f2") == (
        "5♣ cannot go to the empty f2: the foundation takes only the first rank (piles.foundation.empty, clause first-rank)")
    assert len(rules().groups["foundation"].piles) == 8
    play(g, "w f3")  # an ace from the waste
    play(g, "t1 f1")
    play(g, "t4 f2")
    assert pile(g, "f1") == ["AS", "2S"] and pile(g, "f2") == ["AD"] and pile(g, "f3") == ["AH"]
    assert "(piles.foundation.take, clause nothing)" in refusal(g, "f1 t3")


def test_available_aces_go_up_on_request():
    g = game(full({"t1": "9S AS", "w": "AH", "s": "4C"}), down={"s": 1})
    made = g.play_auto()
    assert len(made) == 2
    assert g.state.sizes["foundation"] == 2 and pile(g, "t1") == ["9S"] and pile(g, "w") == []
    g.undo()
    assert pile(g, "t1") == ["9S", "AS"] and pile(g, "w") == ["AH"] and g.state.sizes["foundation"] == 0


# -- "Cards in the tableau may be built downward, regardless of suit." ---------------------------


def test_the_tableau_builds_down_regardless_of_suit():
    g = game({"t1": "9S", "t2": "8S", "t3": "8C", "t4": "10H", "t5": "7S", "t6": "9H"})
    assert refusal(g, "t4 t1") == "10♥ cannot go on 9♠: the tableau builds down (piles.tableau.build, clause rank-down)"
    assert "(piles.tableau.build, clause rank-down)" in refusal(g, "t5 t1")
    play(g, "t2 t1")  # same suit
    play(g, "t3 t6")  # another suit and colour
    play(g, "t5 t1")
    assert pile(g, "t1") == ["9S", "8S", "7S"] and pile(g, "t6") == ["9H", "8C"]


# -- "The top card of a tableau pile is available for building on another pile or on
#     foundations." / "Only one card at a time may be moved." --------------------------------------


def test_the_top_card_of_a_tableau_pile_plays_to_another_pile_or_a_foundation():
    g = game({"f1": "AD", "t1": "5H 2D", "t2": "6C 3H", "t3": "4C"})
    assert legal(g) >= {"t1 f1", "t2 t3"}
    play(g, "t1 f1")
    play(g, "t2 t3")
    assert pile(g, "f1") == ["AD", "2D"] and pile(g, "t3") == ["4C", "3H"]


def test_only_one_card_at_a_time_is_moved():
    g = game({"t1": "9S 8H", "t2": "10D", "t3": "9C"})
    assert refusal(g, "t1 t2 2") == (
        "9♠ 8♥ cannot leave t1: the tableau moves one card at a time (piles.tableau.take, clause one-card)")
    assert not any(g.decode(m)[3] > 1 for m in g.legal_moves())


# -- "Spaces in the tableau must be filled at once from the waste pile or the hand." -------------


def test_a_space_is_filled_only_from_the_waste_or_the_hand():
    g = game({"t1": "9S", "t2": "8D", "t3": "KC"})  # no stock and no waste: nothing is compulsory
    assert refusal(g, "t3 t4") == (
        "K♣ cannot go to the empty t4: the tableau takes a card into a space only from the waste or the hand"
        " (piles.tableau.empty, clause from-waste)")
    play(g, "t2 t1")
    assert pile(g, "t2") == [] and g.status().outcome == "lost"  # the space stays open: nothing can fill it


def test_a_space_must_be_filled_at_once_from_the_waste():
    g = game({"t1": "9S", "t2": "8D", "t3": "5C", "t4": "6H", "t5": "4S", "t6": "JH", "t7": "QS", "t8": "2H",
              "w": "3C 10D", "s": "KS"}, down={"s": 1})
    play(g, "t2 t1")  # the space t2 opens
    # Only the moves that fill it from the waste are legal now: no other build, no deal.
    assert legal(g) == {"w t2"}
    assert "a compulsory move comes first: a space in the tableau must be filled at once from the waste (compulsory.fill-space), e.g. `w t2`" in refusal(g, "t3 t4")
    assert refusal(g, "d").startswith("a compulsory move comes first: a space in the tableau must be filled at once from the waste (compulsory.fill-space)")
    play(g, "w t2")
    assert pile(g, "t2") == ["10D"] and pile(g, "w") == ["3C"]
    assert {"t3 t4", "d"} <= legal(g)  # once the space is filled, play is free again
    g.undo()
    assert pile(g, "t2") == [] and legal(g) == {"w t2"}


def test_with_the_waste_empty_a_space_is_filled_at_once_from_the_hand():
    g = game({"t1": "9S", "t2": "8D", "t3": "5C", "t4": "6H", "t5": "4S", "t6": "JH", "t7": "QS", "t8": "2H",
              "s": "QD 7C"}, down={"s": 2})
    play(g, "t2 t1")
    assert legal(g) == {"d"}  # the next card of the hand must be turned ...
    assert "a compulsory move comes first: with the waste empty, a space is filled at once from the hand (compulsory.fill-space-from-hand), e.g. `d`" in refusal(g, "t3 t4")
    play(g, "d")
    assert pile(g, "w") == ["7C"]
    assert legal(g) == {"w t2"}  # 7♣ could go on 8♦, but the space comes first
    play(g, "w t2")  # ... and it fills the space
    assert pile(g, "t2") == ["7C"] and pile(g, "w") == []
    g.undo()
    g.undo()  # undo of the compulsory deal
    assert pile(g, "s") == ["QD", "7C"] and pile(g, "w") == [] and legal(g) == {"d"}


def test_a_refusal_by_a_compulsory_move_names_the_rule():
    # Refusals name the rule that refuses (a build refusal names piles.GROUP.build and its clause);
    # a compulsory move is such a rule, so its id belongs in the explanation.
    layout = {"t1": "9S", "t2": "8D", "t3": "5C", "t4": "6H", "t5": "4S", "t6": "JH", "t7": "QS", "t8": "2H"}
    g = game({**layout, "w": "10D", "s": "QD 7C"}, down={"s": 2})
    play(g, "t2 t1")
    assert "fill-space" in refusal(g, "t3 t4")
    assert "fill-space" in refusal(g, "d")
    g = game({**layout, "s": "QD 7C"}, down={"s": 2})
    play(g, "t2 t1")
    assert "fill-space-from-hand" in refusal(g, "t3 t4")


def test_a_space_stays_open_when_the_stock_and_the_waste_are_empty():
    g = game({"t1": "9S", "t2": "8D", "t3": "5C", "t4": "6H", "t5": "4S", "t6": "JH", "t7": "QS", "t8": "2H"})
    play(g, "t2 t1")
    # Nothing can fill t2, so nothing is compulsory: every build is legal.
    assert legal(g) == {"t3 t4", "t5 t3", "t6 t7"}
    assert g.status().outcome == "playing"


# -- "Turn up cards from the hand one at a time, placing unplayable cards face up on a single
#     waste pile." / "The top card of this pile, as well as the card in hand, is available for play
#     on foundations or the tableau." ---------------------------------------------------------------


def test_the_hand_is_turned_one_card_at_a_time_onto_one_waste_pile():
    full = {"t1": "9S", "t2": "8D", "t3": "5C", "t4": "6H", "t5": "4S", "t6": "JH", "t7": "QS", "t8": "2H"}
    g = game({**full, "s": "3H KS 5C"}, down={"s": 3})
    play(g, "d")
    play(g, "d")
    assert pile(g, "w") == ["5C", "KS"] and pile(g, "s") == ["3H"]
    assert g.state.down[g.rules.pile_of_tag["w"]] == 0
    assert len(g.rules.groups["waste"].piles) == 1
    g.undo()
    assert pile(g, "w") == ["5C"] and pile(g, "s") == ["3H", "KS"]


def test_the_top_card_of_the_waste_plays_to_a_foundation_or_the_tableau():
    g = game({"f1": "AC", "w": "9C 2C", "t1": "10D", "t2": "5S", "t3": "6S", "t4": "7S", "t5": "8S", "t6": "JS",
              "t7": "QS", "t8": "KS"})
    assert refusal(g, "w t1 2").endswith("(piles.waste.take, clause one-card)")
    assert "(piles.tableau.build, clause rank-down)" in refusal(g, "w t1")  # 2♣ is on top
    play(g, "w f1")
    play(g, "w t1")
    assert pile(g, "f1") == ["AC", "2C"] and pile(g, "t1") == ["10D", "9C"] and pile(g, "w") == []


# -- silent in the seed: no redeal (the standard published rules) --------------------------------


def test_there_is_no_redeal():
    full = {"t1": "9S", "t2": "8D", "t3": "5C", "t4": "6H", "t5": "4S", "t6": "JH", "t7": "QS", "t8": "2H"}
    g = game({**full, "s": "3D"}, down={"s": 1})
    play(g, "d")
    assert refusal(g, "d") == "the stock is empty and the rules allow no redeal"


# -- the end ------------------------------------------------------------------------------------


def test_the_game_is_won_when_every_card_is_on_the_foundations():
    assert game(whole_suits()).status().outcome == "won"
    last_move_wins(game, all_but_a_king("t1"), "t1 f8")


def test_the_committed_winning_deal_is_won_in_a_real_process():
    win_script_wins(NAME, won_line("Congress"))  # and no command of the script is refused: each is a legal move
