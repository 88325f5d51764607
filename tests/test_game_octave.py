"""Octave (as the seed gives it), one scenario per rule sentence of the seed text (see docs/sentences/octave.md)."""

from __future__ import annotations

import pytest

from kallisti.interpreter.notation import MoveRefused, parse_move

from scenario import (all_but_a_king, cards as pile, deal, for_game, last_move_wins, legal, play, refusal, whole_suits,
                      win_script_wins, won_line)

NAME = "octave"
rules, game = for_game(NAME)


def fill(layout: dict[str, str]) -> dict[str, str]:
    """The layout, with a king on each tableau pile and a jack on each reserve pile it does not name:
    no space is left open, and no filler can move (nothing goes on a king; a jack needs a queen)."""
    used = " ".join(layout.values()).split()
    out = dict(layout)
    for group, rank in (("t", "K"), ("r", "J")):
        pool = [rank + suit for suit in "CDHS" for _ in range(2)]
        for name in used:
            if name in pool:
                pool.remove(name)
        for i in range(1, 9):
            if f"{group}{i}" not in out:
                out[f"{group}{i}"] = pool.pop()
    return out


# -- "Follow the rules of Forty Thieves except:" ------------------------------------------------


def test_forty_thieves_foundations_are_kept():
    r = rules()
    assert r.deck.size == 104 and len(r.groups["foundation"].piles) == 8
    g = game(fill({"f1": "AS", "t1": "2H", "t2": "3S", "t3": "AD", "w": "2S"}))
    assert refusal(g, "t1 f1") == "2♥ cannot go on A♠: the foundation builds up in suit (piles.foundation.build, clause same-suit)"
    assert "(piles.foundation.build, clause rank-up)" in refusal(g, "t2 f1")
    assert "(piles.foundation.empty, clause first-rank)" in refusal(g, "t2 f2")
    play(g, "w f1")
    play(g, "t3 f2")
    assert pile(g, "f1") == ["AS", "2S"] and pile(g, "f2") == ["AD"]
    assert "(piles.foundation.take, clause nothing)" in refusal(g, "f1 t2")


def test_forty_thieves_stock_turns_one_card_and_has_no_redeal():
    g = game(fill({"s": "2C", "f1": "AC"}), down={"s": 1})
    assert rules().groups["stock"].redeals == 0
    play(g, "d")
    assert pile(g, "w") == ["2C"] and pile(g, "s") == []
    play(g, "w f1")
    assert refusal(g, "d") == "the stock is empty and the rules allow no redeal"


def test_forty_thieves_one_card_at_a_time():
    g = game(fill({"t1": "9S 8H", "t2": "10D"}))
    assert refusal(g, "t1 t2 2") == (
        "9♠ 8♥ cannot leave t1: the tableau moves one card at a time (piles.tableau.take, clause one-card)")


# -- "Deal only 24 cards in three rows, the first two rows face down and the last row face up."
#    "Below the tableau lay out a reserve of eight cards." -------------------------------------------


@pytest.mark.parametrize("seed", [1, 64])
def test_three_rows_of_eight_two_face_down_then_a_reserve_of_eight(seed):
    r = rules()
    g, order = deal(NAME, seed)
    tableau = list(r.groups["tableau"].piles)
    reserve = list(r.groups["reserve"].piles)
    assert len(tableau) == 8 and len(reserve) == 8
    for i, p in enumerate(tableau):
        assert g.state.piles[p] == [order[i], order[8 + i], order[16 + i]]
        assert g.state.down[p] == 2
    for i, p in enumerate(reserve):
        assert g.state.piles[p] == [order[24 + i]] and g.state.down[p] == 0
    s = r.pile_of_tag["s"]
    assert len(g.state.piles[s]) == 72 and g.state.down[s] == 72
    play(g, "d")
    assert g.state.piles[r.pile_of_tag["w"]] == [order[32]]


def test_the_top_face_down_card_turns_up_when_uncovered():
    g = game(fill({"t1": "2C 3C 7S", "t2": "8D"}), down={"t1": 2})
    play(g, "t1 t2")
    assert pile(g, "t1") == ["2C", "3C"] and g.state.down[g.rules.pile_of_tag["t1"]] == 1
    g.undo()
    assert pile(g, "t1") == ["2C", "3C", "7S"] and g.state.down[g.rules.pile_of_tag["t1"]] == 2


def test_nothing_is_built_on_the_reserve():
    g = game(fill({"r1": "9S", "t1": "8H"}))
    assert refusal(g, "t1 r1") == "8♥ cannot go on 9♠: the reserve takes no cards (piles.reserve.build, clause nothing)"


# -- "On the tableau, build down in alternating colors." ----------------------------------------


def test_the_tableau_builds_down_in_alternate_colours():
    g = game(fill({"t1": "9S", "t2": "8S", "t3": "8D", "t4": "10H"}))
    assert refusal(g, "t2 t1") == (
        "8♠ cannot go on 9♠: the tableau builds down in alternate colours (piles.tableau.build, clause alternate-colour)")
    assert "(piles.tableau.build, clause rank-down)" in refusal(g, "t4 t1")
    play(g, "t3 t1")
    assert pile(g, "t1") == ["9S", "8D"]


# -- "Reserve cards are available for tableau or foundation building, and spaces are filled from
#     the hand." -------------------------------------------------------------------------------


def test_reserve_cards_play_to_the_tableau_or_the_foundations():
    g = game(fill({"r1": "2H", "r2": "7C", "f1": "AH", "t1": "8D"}))
    assert {"r1 f1", "r2 t1"} <= legal(g)
    play(g, "r1 f1")
    play(g, "r2 t1")
    assert pile(g, "f1") == ["AH", "2H"] and pile(g, "t1") == ["8D", "7C"]
    assert pile(g, "r1") == [] and pile(g, "r2") == []


def test_spaces_are_filled_only_from_the_hand():
    g = game(fill({"t1": "QC", "t2": "", "r1": "JD", "r2": "", "w": "5H"}))
    assert refusal(g, "t1 t2") == (
        "Q♣ cannot go to the empty t2: the tableau takes a card into a space only from the hand"
        " (piles.tableau.empty, clause from-hand)")
    assert "(piles.tableau.empty, clause from-hand)" in refusal(g, "r1 t2")
    assert refusal(g, "t1 r2") == (
        "Q♣ cannot go to the empty r2: the reserve takes a card into a space only from the hand"
        " (piles.reserve.empty, clause from-hand)")
    assert "(piles.reserve.empty, clause from-hand)" in refusal(g, "r1 r2")
    assert {"w t2", "w r2"} <= legal(g)
    play(g, "w r2")
    assert pile(g, "r2") == ["5H"] and pile(g, "w") == []


# -- "Cards may be turned from the hand so long as each can be built on foundations or the
#     tableau, or placed in a reserve space." ------------------------------------------------------


def test_the_next_card_is_turned_only_when_the_last_one_has_been_used():
    g = game(fill({"f1": "AC", "t1": "9D", "s": "QD 8C 2C"}), down={"s": 3})
    play(g, "d")
    assert pile(g, "w") == ["2C"]
    assert "d" not in legal(g)  # 2♣ must be used first
    with pytest.raises(MoveRefused):
        parse_move(g, "d")
    play(g, "w f1")  # built on a foundation
    play(g, "d")
    assert "d" not in legal(g)
    play(g, "w t1")  # built on the tableau
    assert pile(g, "t1") == ["9D", "8C"]
    assert "d" in legal(g)
    g.undo()
    assert pile(g, "w") == ["8C"] and "d" not in legal(g)


def test_a_turned_card_may_be_placed_in_a_reserve_space():
    g = game(fill({"r3": "", "s": "5S"}), down={"s": 1})
    play(g, "d")
    assert g.status().outcome == "playing"  # 5♠ can be used: the reserve space takes it
    assert legal(g) == {"w r3"}
    play(g, "w r3")
    assert pile(g, "r3") == ["5S"] and pile(g, "w") == []


def test_a_refused_turn_names_the_dealing_rule():
    # Refusals name the rule and clause that refuse; for a turn of the hand that is the stock's
    # dealing rule (there is no compulsory move in Octave to speak of).
    g = game(fill({"f1": "AC", "s": "QD 2C"}), down={"s": 2})
    play(g, "d")
    text = refusal(g, "d")
    assert "piles.stock.dealing" in text and "last-card-used" in text
    assert "compulsory" not in text


# -- "The game is lost if a card is turned that cannot be used." ---------------------------------


def test_the_game_is_lost_when_a_turned_card_cannot_be_used():
    g = game(fill({"f1": "AC", "t1": "9D", "t2": "8C", "s": "QD 5H"}), down={"s": 2})
    assert g.status().outcome == "playing"
    play(g, "d")  # 5♥: no 4♥ on a foundation, no black 6 on the tableau, no space anywhere
    status = g.status()
    assert status.outcome == "lost" and status.reason == "a card was turned that cannot be used"
    assert legal(g) == {"t2 t1"}  # a move is left, but the rule ends the game
    g.undo()  # undo of the fatal turn
    assert g.status().outcome == "playing" and pile(g, "s") == ["QD", "5H"] and pile(g, "w") == []


@pytest.mark.parametrize("card, where", [("2C", "a foundation"), ("8S", "the tableau"), ("KH", "a tableau space")])
def test_a_turned_card_that_can_be_used_does_not_lose(card, where):
    layout = {"f1": "AC", "t1": "9D", "s": card}
    if where == "a tableau space":
        layout["t5"] = ""
    g = game(fill(layout), down={"s": 1})
    play(g, "d")
    assert g.status().outcome == "playing", where


# -- the end ------------------------------------------------------------------------------------


def test_the_game_is_won_when_every_card_is_on_the_foundations():
    assert game(whole_suits()).status().outcome == "won"
    last_move_wins(game, all_but_a_king("r4"), "r4 f8")


def test_the_committed_winning_deal_is_won_in_a_real_process():
    win_script_wins(NAME, won_line("Octave"))
