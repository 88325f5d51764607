"""The Forty Thieves variants: one scenario per "except" clause of each, and the rules each inherits."""

from __future__ import annotations

import pytest

from kallisti.interpreter.game import Game
from kallisti.interpreter.notation import parse_move

from scenario import allowed, cards as pile, deal, down, new_game as game, play, refusal, ruleset as rules, whole_suits

VARIANTS = ["busy-aces", "limited", "lucas", "maria", "number-ten", "rank-and-file", "indian", "emperor", "midshipman"]


def check_deal(name: str, piles: int, rows: list[str], stock: int, seed: int = 99) -> Game:
    """The tableau is dealt row by row from the pack's order, with the given face-down rows; the rest is the stock."""
    r = rules(name)
    g, order = deal(name, seed)
    tableau = list(r.groups["tableau"].piles)
    assert len(tableau) == piles
    n_down = rows.count("down")
    for i, p in enumerate(tableau):
        assert g.state.piles[p] == [order[row * piles + i] for row in range(len(rows))]
        assert g.state.down[p] == n_down
    s = r.pile_of_tag["s"]
    assert len(g.state.piles[s]) == stock == r.deck.size - piles * len(rows)
    assert g.state.down[s] == stock
    play(g, "d")
    assert g.state.piles[r.pile_of_tag["w"]] == [order[piles * len(rows)]]
    return g


# -- what every variant inherits from Forty Thieves ------------------------------------------


@pytest.mark.parametrize("name", VARIANTS)
def test_inherits_two_packs_eight_foundations_stock_and_waste(name):
    r = rules(name)
    assert r.deck.size == 104
    assert len(r.groups["foundation"].piles) == 8
    assert r.groups["stock"].turn["to"] == "waste" and r.groups["stock"].redeals == 0


@pytest.mark.parametrize("name", VARIANTS)
def test_inherits_foundations_up_in_suit(name):
    g = game(name, {"f1": "AS", "t1": "2S", "t2": "2H", "t3": "3S", "t4": "AD"})
    assert "(piles.foundation.build, clause same-suit)" in refusal(g, "t2 f1")
    assert "(piles.foundation.build, clause rank-up)" in refusal(g, "t3 f1")
    assert "(piles.foundation.empty, clause first-rank)" in refusal(g, "t1 f2")
    assert allowed(g, "t4 f2")
    play(g, "t1 f1")
    assert pile(g, "f1") == ["AS", "2S"]


@pytest.mark.parametrize("name", [v for v in VARIANTS if v not in ("emperor", "midshipman")])
def test_inherits_nothing_leaves_a_foundation(name):
    g = game(name, {"f1": "AS 2S", "t1": "3H"})
    assert "(piles.foundation.take, clause nothing)" in refusal(g, "f1 t1")


@pytest.mark.parametrize("name", VARIANTS)
def test_inherits_stock_one_card_to_waste_and_no_redeal(name):
    g = game(name, {"s": "2C 3C", "t1": "9S"}, down={"s": 2})
    play(g, "d")
    assert pile(g, "w") == ["3C"]
    play(g, "d")
    assert pile(g, "w") == ["3C", "2C"]
    assert refusal(g, "d") == "the stock is empty and the rules allow no redeal"


@pytest.mark.parametrize("name", VARIANTS)
def test_inherits_waste_top_card_plays(name):
    g = game(name, {"w": "5D AH", "f1": "AD 2D 3D 4D", "t1": "9S"})
    assert "clause one-card" in refusal(g, "w f1 2")
    play(g, "w f2")
    play(g, "w f1")
    assert pile(g, "f2") == ["AH"] and pile(g, "f1")[-1] == "5D" and pile(g, "w") == []


@pytest.mark.parametrize("name", [v for v in VARIANTS if v != "busy-aces"])
def test_inherits_a_space_takes_any_card(name):
    g = game(name, {"t1": "9S KH", "w": "QC", "t2": "4D"})
    assert allowed(g, "t1 t3") and allowed(g, "w t3")
    play(g, "t2 t3")
    assert pile(g, "t3") == ["4D"] and pile(g, "t2") == []


@pytest.mark.parametrize("name", VARIANTS)
def test_inherits_win_and_aces_on_request(name):
    assert game(name, whole_suits()).status().outcome == "won"
    g = game(name, {"t1": "9S AS", "w": "AH", "s": "KD"}, down={"s": 1})
    play(g, "d")  # a normal move leaves the aces where they are; the dealt K♦ now covers A♥
    assert g.state.sizes["foundation"] == 0
    assert len(g.play_auto()) == 1 and pile(g, "w") == ["AH", "KD"]
    assert g.state.sizes["foundation"] == 1 and pile(g, "t1") == ["9S"]


# -- Limited: three rows of twelve ---------------------------------------------------------------


def test_limited_deals_twelve_piles_of_three_face_up():
    check_deal("limited", 12, ["up", "up", "up"], 68)


def test_limited_keeps_down_in_suit_one_card_at_a_time():
    g = game("limited", {"t12": "9S", "t11": "8H", "t10": "8S 7S", "t9": "9H"})
    assert "clause same-suit" in refusal(g, "t11 t12")
    assert "clause one-card" in refusal(g, "t10 t12 2")
    assert "clause rank-down" in refusal(g, "t10 t12")
    play(g, "t11 t9")
    assert pile(g, "t9") == ["9H", "8H"]


# -- Lucas: aces first, thirteen piles of three ------------------------------------------------


@pytest.mark.parametrize("seed", [1, 42])
def test_lucas_puts_the_eight_aces_on_the_foundations_before_the_deal(seed):
    r = rules("lucas")
    g = Game(r, seed=seed)
    deck = r.deck
    aces = [g.state.piles[p] for p in r.groups["foundation"].piles]
    assert all(len(p) == 1 and deck.rank[p[0]] == 0 for p in aces)
    assert sorted(deck.suit[p[0]] for p in aces) == [0, 0, 1, 1, 2, 2, 3, 3]
    # The tableau is dealt from the rest of the pack, in its order.
    rest = [c for c in g.order if deck.rank[c] != 0]
    tableau = list(r.groups["tableau"].piles)
    assert len(tableau) == 13
    for i, p in enumerate(tableau):
        assert g.state.piles[p] == [rest[i], rest[13 + i], rest[26 + i]]
        assert g.state.down[p] == 0
    s = r.pile_of_tag["s"]
    assert len(g.state.piles[s]) == 57
    assert all(deck.rank[c] != 0 for p in r.groups["tableau"].piles for c in g.state.piles[p])
    assert all(deck.rank[c] != 0 for c in g.state.piles[s])
    play(g, "d")
    assert g.state.piles[r.pile_of_tag["w"]] == [rest[39]]


def test_lucas_has_no_ace_left_to_put_up():
    g = Game(rules("lucas"), seed=5)
    before = g.state.key()
    assert g.play_auto() == []
    assert g.state.key() == before
    foundations = set(g.rules.groups["foundation"].piles)
    assert all(g.state.piles[p] for p in foundations)


# -- Maria: nine piles of four face up, alternate colours ----------------------------------------


def test_maria_deals_nine_piles_of_four_face_up():
    check_deal("maria", 9, ["up", "up", "up", "up"], 68)


def test_maria_builds_down_in_alternate_colours():
    g = game("maria", {"t1": "7S", "t2": "6H", "t3": "6S", "t4": "6C", "t5": "5D", "t6": "8D"})
    assert refusal(g, "t3 t1") == (
        "6♠ cannot go on 7♠: the tableau builds down in alternate colours (piles.tableau.build, clause alternate-colour)")
    assert "clause alternate-colour" in refusal(g, "t4 t1")
    assert "clause rank-down" in refusal(g, "t5 t1")
    play(g, "t2 t1")
    assert pile(g, "t1") == ["7S", "6H"]
    play(g, "t5 t4")  # red on black
    assert pile(g, "t4") == ["6C", "5D"]
    assert "clause alternate-colour" in refusal(g, "t4 t1")  # 5♦ on 6♥


def test_maria_moves_one_card_at_a_time():
    g = game("maria", {"t1": "7S 6H", "t2": "8D", "t3": "8C"})
    assert "clause one-card" in refusal(g, "t1 t3 2")
    assert "clause one-card" in refusal(g, "t1 t4 2")


# -- Number Ten: two rows down, two up, alternate colours ----------------------------------------


def test_number_ten_deals_two_rows_down_two_up():
    check_deal("number-ten", 10, ["down", "down", "up", "up"], 64)


def test_number_ten_turns_up_the_top_face_down_card_when_uncovered():
    g = game("number-ten", {"t1": "2C 3C 7S 6H", "t2": "7C", "t3": "8D"}, down={"t1": 2})
    play(g, "t1 t2")
    assert pile(g, "t1") == ["2C", "3C", "7S"] and down(g, "t1") == 2
    play(g, "t1 t3")
    assert pile(g, "t1") == ["2C", "3C"] and down(g, "t1") == 1  # 3♣ is now face up
    assert "clause first-rank" in refusal(g, "t1 f1")
    assert allowed(g, "t1 t4")  # the turned card is available
    g.undo()
    assert down(g, "t1") == 2 and pile(g, "t1") == ["2C", "3C", "7S"]


def test_number_ten_builds_down_in_alternate_colours_one_card_at_a_time():
    g = game("number-ten", {"t1": "9S", "t2": "8S", "t3": "8H 7C", "t4": "10D"})
    assert "clause alternate-colour" in refusal(g, "t2 t1")
    assert "clause one-card" in refusal(g, "t3 t1 2")
    assert "clause alternate-colour" in refusal(g, "t3 t2")  # 7♣ on 8♠
    play(g, "t1 t4")
    play(g, "t3 t1")
    assert pile(g, "t4") == ["10D", "9S"] and pile(g, "t1") == ["7C"]


def test_number_ten_cards_cannot_go_on_a_face_down_card():
    g = game("number-ten", {"t1": "9S", "t2": "10D 4C"}, down={"t2": 2})
    assert refusal(g, "t1 t2") == "9♠ cannot go on a face-down card"



# -- Rank and File: three rows down, one up, alternate colours -----------------------------------


def test_rank_and_file_deals_three_rows_down_one_up():
    check_deal("rank-and-file", 10, ["down", "down", "down", "up"], 64)


def test_rank_and_file_builds_down_in_alternate_colours_one_card_at_a_time():
    g = game("rank-and-file", {"t1": "QC JD", "t2": "KS", "t3": "QH", "t4": "JS", "t5": "KH"})
    assert "clause one-card" in refusal(g, "t1 t2 2")
    assert "clause alternate-colour" in refusal(g, "t3 t5")
    assert "clause rank-down" in refusal(g, "t4 t1")
    play(g, "t3 t2")
    play(g, "t4 t2")
    assert pile(g, "t2") == ["KS", "QH", "JS"]


def test_rank_and_file_turns_up_the_top_face_down_card():
    g = game("rank-and-file", {"t1": "2C 3C 4D 9H", "t2": "10S"}, down={"t1": 3})
    play(g, "t1 t2")
    assert pile(g, "t1") == ["2C", "3C", "4D"] and down(g, "t1") == 2


# -- Indian: three rows, the first face down; any suit but its own --------------------------------


def test_indian_deals_three_rows_the_first_face_down():
    check_deal("indian", 10, ["down", "up", "up"], 74)


def test_indian_builds_down_on_any_suit_but_its_own():
    g = game("indian", {"t1": "7S", "t2": "6S", "t3": "6H", "t4": "6C", "t5": "5S"})
    assert refusal(g, "t2 t1") == (
        "6♠ cannot go on 7♠: the tableau builds down on any suit but its own (piles.tableau.build, clause other-suit)")
    assert "clause rank-down" in refusal(g, "t5 t1")
    assert allowed(g, "t4 t1")  # the same colour is fine, only the same suit is not
    play(g, "t3 t1")
    assert pile(g, "t1") == ["7S", "6H"]
    play(g, "t5 t1")
    assert pile(g, "t1") == ["7S", "6H", "5S"]


def test_indian_moves_one_card_at_a_time_and_turns_up_face_down_cards():
    g = game("indian", {"t1": "2C 8D 7C", "t2": "9S", "t3": "8H"}, down={"t1": 1})
    assert "clause one-card" in refusal(g, "t1 t2 2")
    play(g, "t1 t3")
    play(g, "t1 t2")
    assert pile(g, "t1") == ["2C"] and down(g, "t1") == 0


# -- Emperor: three rows down, alternate colours, face-up cards move as a unit, foundations give back


def test_emperor_deals_three_rows_down_one_up():
    check_deal("emperor", 10, ["down", "down", "down", "up"], 64)


def test_emperor_builds_down_in_alternate_colours():
    g = game("emperor", {"t1": "7S", "t2": "6S", "t3": "6H"})
    assert "(piles.tableau.build, clause alternate-colour)" in refusal(g, "t2 t1")
    play(g, "t3 t1")
    assert pile(g, "t1") == ["7S", "6H"]


def test_emperor_moves_all_face_up_cards_as_a_unit():
    g = game("emperor", {"t1": "KC 9H 8S 7D", "t2": "10S"}, down={"t1": 1})
    m = parse_move(g, "t1 t2")
    assert g.decode(m)[3] == 3  # the whole face-up run
    g.play(m)
    assert pile(g, "t2") == ["10S", "9H", "8S", "7D"]
    assert pile(g, "t1") == ["KC"] and down(g, "t1") == 0  # the face-down card turned up


def test_emperor_refuses_part_of_the_face_up_cards():
    g = game("emperor", {"t1": "KC 9H 8S 7D", "t2": "9D", "t3": "8C"}, down={"t1": 1})
    assert refusal(g, "t1 t2 2") == ("8♠ 7♦ cannot leave t1: the tableau moves one card, or all its face-up cards as a"
                                     " unit (piles.tableau.take, clause one-or-all-face-up)")
    assert "clause one-or-all-face-up" in refusal(g, "t1 t4 2")
    play(g, "t1 t3")  # one card is always allowed
    assert pile(g, "t3") == ["8C", "7D"]


def test_emperor_unit_need_not_be_a_run_only_its_bottom_card_must_fit():
    # The seed lets all face-up cards move as a unit; it asks no sequence of them.
    g = game("emperor", {"t1": "9H 8H", "t2": "10S", "t3": "10H"})
    play(g, "t1 t2 2")
    assert pile(g, "t2") == ["10S", "9H", "8H"] and pile(g, "t1") == []
    g = game("emperor", {"t1": "9H 8H", "t3": "10H"})
    assert "cannot go on 10♥: the tableau builds down in alternate colours" in refusal(g, "t1 t3 2")


def test_midshipman_moves_its_two_dealt_face_up_cards_together_even_out_of_sequence():
    g = game("midshipman", {"t1": "KC 5D 9H 2S", "t2": "10C"}, down={"t1": 2})
    play(g, "t1 t2 2")
    assert pile(g, "t2") == ["10C", "9H", "2S"]
    assert pile(g, "t1") == ["KC", "5D"] and down(g, "t1") == 1  # the top face-down card turned up


def test_emperor_foundations_take_one_card_at_a_time():
    # The unit is a tableau move: a foundation judges every card it takes, as the published rules build them.
    g = game("emperor", {"f1": "AS", "t1": "2S AH"})
    assert refusal(g, "t1 f1 2").endswith("takes one card at a time (piles.foundation.build, clause one-card)")
    assert refusal(g, "t1 f2 2").endswith("takes one card at a time (piles.foundation.empty, clause one-card)")
    play(g, "t1 f2")
    play(g, "t1 f1")
    assert pile(g, "f1") == ["AS", "2S"] and pile(g, "f2") == ["AH"]


def test_emperor_foundation_top_card_may_come_back_to_the_tableau():
    g = game("emperor", {"f1": "AS 2S", "t1": "3H", "t2": "3C"})
    assert "(piles.tableau.build, clause alternate-colour)" in refusal(g, "f1 t2")
    assert "(piles.foundation.take, clause one-card)" in refusal(g, "f1 t1 2")
    play(g, "f1 t1")
    assert pile(g, "f1") == ["AS"] and pile(g, "t1") == ["3H", "2S"]
    assert g.state.sizes["foundation"] == 1
    g.undo()
    assert pile(g, "f1") == ["AS", "2S"] and g.state.sizes["foundation"] == 2


@pytest.mark.parametrize("name", ["emperor", "midshipman"])
def test_foundation_cards_come_back_only_to_the_tableau(name):
    # "Cards on foundation piles may be removed and built on the tableau": not moved between foundations.
    g = game(name, {"f1": "AS", "f2": "AH 2H", "t1": "5C"})
    assert refusal(g, "f1 f3")
    assert refusal(g, "f2 f3")
    foundations = set(g.rules.groups["foundation"].piles)
    for m in g.legal_moves():
        kind, src, dst, _ = g.decode(m)
        assert not (kind == "move" and src in foundations and dst in foundations)


# -- Midshipman: nine piles, two rows down and two up, Emperor's rules ----------------------------


def test_midshipman_deals_nine_piles_two_down_two_up():
    check_deal("midshipman", 9, ["down", "down", "up", "up"], 68)


def test_midshipman_follows_emperor_rules():
    g = game("midshipman", {"t1": "KC 10D 9S 8H", "t2": "10H", "t4": "7H", "f1": "AD 2D", "t5": "3S"},
             down={"t1": 1})
    assert "clause one-or-all-face-up" in refusal(g, "t1 t2 2")
    assert "clause alternate-colour" in refusal(g, "t4 t1")  # 7♥ on 8♥
    play(g, "f1 t5")  # a foundation card comes back
    assert pile(g, "t5") == ["3S", "2D"]
    play(g, "t1 t9")  # the whole face-up run moves, even into a space
    assert pile(g, "t9") == ["10D", "9S", "8H"] and pile(g, "t1") == ["KC"] and down(g, "t1") == 0


# -- Busy Aces: twelve single cards; spaces only from the waste ------------------------------------


def test_busy_aces_deals_twelve_single_cards_face_up():
    check_deal("busy-aces", 12, ["up"], 92)


def test_busy_aces_fills_a_space_only_from_the_waste():
    g = game("busy-aces", {"t1": "7S", "t2": "9D", "w": "6H", "s": "5C"}, down={"s": 1})
    assert refusal(g, "t1 t3") == ("7♠ cannot go to the empty t3: the tableau takes a card into a space only from the"
                                   " waste or the hand (piles.tableau.empty, clause from-waste)")
    tableau = set(g.rules.groups["tableau"].piles)
    for m in g.legal_moves():
        kind, src, dst, _ = g.decode(m)
        assert not (kind == "move" and src in tableau and dst in tableau and not g.state.piles[dst])
    assert refusal(g, "s t3")  # the hand reaches a space only through the waste
    play(g, "w t3")
    assert pile(g, "t3") == ["6H"] and pile(g, "w") == []


def test_busy_aces_builds_down_in_suit_one_card_at_a_time():
    g = game("busy-aces", {"t1": "7S", "t2": "6S", "t3": "6H", "t4": "8D 7D", "t5": "9D"})
    assert "clause same-suit" in refusal(g, "t3 t1")
    assert "clause one-card" in refusal(g, "t4 t5 2")
    play(g, "t2 t1")
    assert pile(g, "t1") == ["7S", "6S"]
