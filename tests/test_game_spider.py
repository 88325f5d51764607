"""Spider, sentence by sentence of its rule text: each test sets up a position (or a dealt order)
and checks what the rules allow, refuse (and how the refusal reads), deal, discard and undo.
docs/sentences/spider.md maps every sentence to its test."""

from __future__ import annotations

from functools import partial

from kallisti.interpreter.game import Game

from scenario import FILL, allowed, cards, deal, down, for_game, ids, play, refusal, run, win_script_wins

NAME = "spider"
rules, game = for_game(NAME)
dealt = partial(deal, NAME, seed=7)


def stock_size(g: Game) -> int:
    return len(ids(g, "s"))


# -- Layout ----------------------------------------------------------------------------------------

def test_layout_deal_a_row_of_ten_cards_face_down():
    g, order = dealt()
    for i in range(10):
        assert ids(g, f"t{i + 1}")[0] == order[i]
        assert down(g, f"t{i + 1}") >= 1


def test_layout_add_three_more_rows_face_down_on_the_first():
    g, order = dealt()
    for i in range(10):
        assert ids(g, f"t{i + 1}")[1:4] == [order[10 + i], order[20 + i], order[30 + i]]
        assert down(g, f"t{i + 1}") >= 4


def test_layout_four_more_cards_face_down_on_the_first_four_piles():
    g, order = dealt()
    for i in range(4):
        assert ids(g, f"t{i + 1}")[4] == order[40 + i]
        assert down(g, f"t{i + 1}") == 5
    for i in range(4, 10):
        assert down(g, f"t{i + 1}") == 4
        assert len(ids(g, f"t{i + 1}")) == 5


def test_layout_makes_44_cards_face_down():
    g, _ = dealt()
    assert sum(down(g, f"t{i + 1}") for i in range(10)) == 44


def test_layout_a_row_of_ten_face_up_on_the_piles_and_the_rest_in_the_stock():
    g, order = dealt()
    for i in range(10):
        pile = ids(g, f"t{i + 1}")
        assert pile[-1] == order[44 + i]
        assert len(pile) - down(g, f"t{i + 1}") == 1
    assert stock_size(g) == 50 and ids(g, "s")[-1] == order[54]
    assert all(not ids(g, f"x{i + 1}") for i in range(8))


# -- Play ------------------------------------------------------------------------------------------

def test_the_ten_piles_are_at_once_tableau_and_foundations():
    r = rules()
    assert [g.role for g in r.groups.values()] == ["tableau", "discard", "stock"]
    assert len(r.groups["tableau"].piles) == 10
    # An ace, which a foundation would take, has nowhere to go but onto a two (or a space).
    g = game({"t1": "9H AS", "t2": "2D", "t3": "5C"})
    targets = {g.rules.tag_of[g.decode(m)[2]] for m in g.legal_moves() if g.decode(m)[1] == g.rules.pile_of_tag["t1"]}
    assert "t2" in targets and not any(t.startswith("x") for t in targets)
    assert "piles.discard.empty, clause whole-suit" in refusal(g, "t1 x1")


def test_the_top_card_of_each_pile_is_available():
    g = game({"t1": "9S 4H", "t2": "5C", "t3": "10D"}, down={"t1": 0})
    assert allowed(g, "t1 t2")
    # The 9 under the 4 is not available: they are not a run.
    assert "(piles.tableau.sequence, clause rank-down)" in refusal(g, "t1 t3 2")
    g = game({"t1": "9S 8S", "t3": "10D"}, down={"t1": 1})
    assert refusal(g, "t1 t3 2") == "t1 has only 1 face-up card"


def test_build_down_regardless_of_suit():
    g = game({"t1": "8H", "t2": "9S", "t3": "8S", "t4": "10S"})
    assert allowed(g, "t1 t2") and allowed(g, "t3 t2")
    assert refusal(g, "t1 t4") == "8♥ cannot go on 10♠: the tableau builds down (piles.tableau.build, clause rank-down)"


def test_the_sequence_ends_with_the_ace():
    g = game({"t1": "2C", "t2": "AS", "t3": "AH"})
    assert allowed(g, "t3 t1")
    assert refusal(g, "t1 t2") == "2♣ cannot go on A♠: the tableau builds down (piles.tableau.build, clause rank-down)"


def test_the_king_may_not_be_built_on_the_ace():
    g = game({"t1": "KS", "t2": "AS", "t3": "5D"})
    assert refusal(g, "t1 t2") == "K♠ cannot go on A♠: the tableau builds down (piles.tableau.build, clause rank-down)"


def test_a_group_in_sequence_and_in_suit_moves_in_whole_or_in_part():
    g = game({"t1": "9S 8S 7S", "t2": "10H", "t3": "9D", "t4": "8C"})
    assert allowed(g, "t1 t2 3")  # the whole run
    assert allowed(g, "t1 t3 2")  # part of it
    assert allowed(g, "t1 t4 1")  # its top card
    play(g, "t1 t2")
    assert cards(g, "t2") == ["10H", "9S", "8S", "7S"] and cards(g, "t1") == []
    # In sequence but not in suit: no unit.
    g = game({"t1": "9S 8H 7H", "t2": "10D"})
    assert refusal(g, "t1 t2 3") == ("9♠ 8♥ 7♥ is not a run the tableau may move: 8♥ on 9♠: "
                                     "the tableau builds down in suit (piles.tableau.sequence, clause same-suit)")


def test_removing_the_last_face_up_card_turns_up_the_top_face_down_card():
    g = game({"t1": "KD 3C 5S", "t2": "6H", "t3": "4H"}, down={"t1": 2})
    play(g, "t1 t2")
    assert down(g, "t1") == 1 and cards(g, "t1") == ["KD", "3C"]
    assert allowed(g, "t1 t3")  # the card turned up is available
    g.undo()
    assert down(g, "t1") == 2 and cards(g, "t1") == ["KD", "3C", "5S"]


def test_a_space_may_be_filled_by_any_available_card_or_group():
    g = game({"t1": "QH", "t2": "9S 8S", "t4": "4D"})
    assert allowed(g, "t1 t3")
    assert allowed(g, "t2 t3 2") and allowed(g, "t2 t3 1")
    play(g, "t2 t3")
    assert cards(g, "t3") == ["9S", "8S"]


def test_kings_may_be_moved_only_into_spaces():
    tops = "AS 2H 3C 4D 5S 6H 7C 8D QH".split()
    layout = {"t1": "KS", **{f"t{i + 2}": c for i, c in enumerate(tops)}}
    g = game(layout)
    king = g.rules.pile_of_tag["t1"]
    assert [m for m in g.legal_moves() if g.decode(m)[1] == king] == []
    assert "clause rank-down" in refusal(g, "t1 t10")
    g = game({"t1": "KS", "t2": "QH"})
    assert allowed(g, "t1 t3")


def test_a_whole_suit_king_to_ace_is_an_assembled_suit():
    g = game({"t1": run("S", "K", "A"), "t2": run("H", "Q", "A")})
    assert allowed(g, "t1 x")
    assert refusal(g, "t2 x 12") == ("Q♥ cannot go to the empty x1: the discard takes only a whole suit in sequence, "
                                  "king at the bottom to ace on top (piles.discard.empty, clause whole-suit)")


def test_an_assembled_available_suit_may_be_lifted_off_and_discarded():
    g = game({"t1": "5D " + run("S", "K", "A"), "t2": "9C"}, down={"t1": 1})
    play(g, "t1 x")
    assert cards(g, "x1") == run("S", "K", "A").split()
    assert cards(g, "t1") == ["5D"] and down(g, "t1") == 0  # the card under it turns up
    assert g.state.sizes["discard"] == 13
    g.undo()
    assert cards(g, "t1") == ["5D"] + run("S", "K", "A").split() and down(g, "t1") == 1
    assert cards(g, "x1") == [] and g.state.sizes["discard"] == 0
    # Not yet available while its king lies face down.
    g = game({"t1": run("S", "K", "A")}, down={"t1": 1})
    assert refusal(g, "t1 x1 13") == "t1 has only 12 face-up cards"


def test_the_game_is_won_when_all_eight_suits_are_discarded():
    layout = {f"x{i + 1}": run(s, "K", "A") for i, s in enumerate("CDHSCDH")}
    layout["t1"] = run("S", "K", "A")
    g = game(layout)
    assert g.status().outcome == "playing"
    play(g, "t1 x")
    assert g.status().outcome == "won" and g.score() == 104
    g.undo()
    assert g.status().outcome == "playing"


def test_an_assembled_suit_need_not_be_discarded():
    g = game({"t1": run("S", "K", "2"), "t2": "AS", "t3": "7D"})
    play(g, "t2 t1")
    assert cards(g, "t1") == run("S", "K", "A").split()
    assert g.state.sizes["discard"] == 0  # nothing is lifted off by itself
    assert g.play_auto() == []
    assert allowed(g, "t1 x")


def test_an_assembled_suit_may_be_broken_up():
    g = game({"t1": run("S", "K", "A"), "t2": "6H"})
    assert allowed(g, "t1 t2 5")
    play(g, "t1 t2 5")
    assert cards(g, "t2") == ["6H"] + run("S", "5", "A").split()


# -- Dealing ---------------------------------------------------------------------------------------

def test_deal_ten_more_cards_one_on_each_pile():
    g, order = dealt()
    before = [list(ids(g, f"t{i + 1}")) for i in range(10)]
    downs = [down(g, f"t{i + 1}") for i in range(10)]
    play(g, "d")
    for i in range(10):
        assert ids(g, f"t{i + 1}") == before[i] + [order[54 + i]]
        assert down(g, f"t{i + 1}") == downs[i]  # dealt face up
    assert stock_size(g) == 40
    g.undo()
    assert [ids(g, f"t{i + 1}") for i in range(10)] == before and stock_size(g) == 50
    assert ids(g, "s")[-1] == order[54] and down(g, "s") == 50


def test_deal_needs_no_standstill_first():
    # The player decides when play has come to a stand: a deal is legal while other moves remain.
    g = game({"t1": "9S", "t2": "10H", **{f"t{i}": FILL[i - 1] for i in range(3, 11)}, "s": "2C 3C"}, down={"s": 2})
    assert allowed(g, "t1 t2")
    assert allowed(g, "d")


def test_continue_dealing_rows_of_ten_until_the_stock_is_empty():
    g, order = dealt()
    for k in range(5):
        play(g, "d")
        assert stock_size(g) == 40 - 10 * k
    assert all(len(ids(g, f"t{i + 1}")) == (11 if i < 4 else 10) for i in range(10))
    assert ids(g, "t1")[-5:] == [order[54 + 10 * k] for k in range(5)]
    assert refusal(g, "d") == "the stock is empty and the rules allow no redeal"


def test_every_space_must_be_filled_before_a_new_row_is_dealt():
    layout = {f"t{i}": FILL[i - 1] for i in range(1, 10)}
    layout["s"] = "2C 3C 4C 8C 9C 10C JC QC KC AC"
    g = game(layout, down={"s": 10})
    stock = g.rules.pile_of_tag["s"]
    assert stock not in g.legal_moves()
    play(g, "t1 t10")  # a card into the space, but t1 is empty now
    assert stock not in g.legal_moves()
    g2 = game({**layout, "t10": "8D"}, down={"s": 10})
    assert stock in g2.legal_moves()


def test_a_deal_refused_for_a_space_names_the_rule():
    layout = {f"t{i}": FILL[i - 1] for i in range(1, 10)}
    layout["s"] = "2C 3C"
    g = game(layout, down={"s": 2})
    text = refusal(g, "d")
    assert "every space in the tableau is filled" in text
    assert "piles.stock.dealing, clause no-space" in text


# -- The committed winning deal ----------------------------------------------------------------------

def test_win_script_wins_in_a_real_process():
    win_script_wins(NAME, "*** WON: Spider in ")
