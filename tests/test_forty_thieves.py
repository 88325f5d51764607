"""Forty Thieves, rule by rule: each test sets up a position and checks what the rules allow or refuse."""

from __future__ import annotations

from kallisti.interpreter.game import Game
from kallisti.interpreter.notation import describe

from scenario import (all_but_a_king, allowed, cards as pile, deal, for_game, last_move_wins, play, refusal, suit,
                      whole_suits)

NAME = "forty-thieves"
rules, game = for_game(NAME)


# -- the deal -------------------------------------------------------------------------------


def test_deal_ten_piles_of_four_face_up_and_64_in_stock():
    r = rules()
    g, order = deal(NAME, 2024)
    st = g.state
    for i in range(10):
        p = r.pile_of_tag[f"t{i + 1}"]
        # Row by row, left to right, the first row at the bottom.
        assert st.piles[p] == [order[i], order[10 + i], order[20 + i], order[30 + i]]
        assert st.down[p] == 0
    for i in range(8):
        assert st.piles[r.pile_of_tag[f"f{i + 1}"]] == []
    s, w = r.pile_of_tag["s"], r.pile_of_tag["w"]
    assert len(st.piles[s]) == 64 and st.down[s] == 64
    assert st.piles[w] == []
    assert sorted(c for p in st.piles for c in p) == list(range(104))
    assert st.sizes == {"foundation": 0, "tableau": 40, "stock": 64, "waste": 0}


def test_stock_turns_order_40_first_then_41():
    r = rules()
    g = Game(r, seed=77)
    w = r.pile_of_tag["w"]
    play(g, "d")
    assert g.state.piles[w] == [g.order[40]]
    play(g, "d")
    assert g.state.piles[w] == [g.order[40], g.order[41]]
    assert len(g.state.piles[r.pile_of_tag["s"]]) == 62


def test_explicit_order_is_dealt_as_given():
    r = rules()
    order = list(reversed(range(104)))
    g = Game(r, order=order)
    assert g.state.piles[r.pile_of_tag["t1"]] == [103, 93, 83, 73]
    assert g.state.piles[r.pile_of_tag["t10"]] == [94, 84, 74, 64]
    play(g, "d")
    assert g.state.piles[r.pile_of_tag["w"]] == [63]


def test_same_seed_same_deal_other_seed_other_deal():
    assert Game(rules(), seed=5).state.key() == Game(rules(), seed=5).state.key()
    assert Game(rules(), seed=5).state.key() != Game(rules(), seed=6).state.key()


# -- foundations ----------------------------------------------------------------------------


def test_foundations_start_empty_and_take_only_aces():
    g = game({"t1": "AS", "t2": "2S", "t3": "KH"})
    assert allowed(g, "t1 f1")
    assert refusal(g, "t2 f1") == (
        "2♠ cannot go to the empty f1: the foundation takes only the first rank (piles.foundation.empty, clause first-rank)")
    assert "clause first-rank" in refusal(g, "t3 f")
    play(g, "t1 f")
    assert pile(g, "f1") == ["AS"]


def test_foundation_builds_up_in_suit():
    g = game({"f1": "AS", "t1": "2S", "t2": "2H", "t3": "3S"})
    assert refusal(g, "t2 f1") == (
        "2♥ cannot go on A♠: the foundation builds up in suit (piles.foundation.build, clause same-suit)")
    text = refusal(g, "t3 f1")
    assert "3♠ cannot go on A♠" in text and "piles.foundation.build" in text and "clause rank-up" in text
    play(g, "t1 f1")
    assert pile(g, "f1") == ["AS", "2S"]
    play(g, "t3 f1")
    assert pile(g, "f1") == ["AS", "2S", "3S"]


def test_foundation_does_not_wrap_past_the_king():
    g = game({"f1": suit("S"), "t1": "AS"})
    assert "clause rank-up" in refusal(g, "t1 f1")
    assert allowed(g, "t1 f2")


def test_nothing_leaves_a_foundation():
    g = game({"f1": "AS 2S", "t1": "3H"})
    assert refusal(g, "f1 t2") == "2♠ cannot leave f1: the foundation lets no card go (piles.foundation.take, clause nothing)"
    assert "piles.foundation.take" in refusal(g, "f1 t1")
    foundations = set(rules().groups["foundation"].piles)
    assert all(g.decode(m)[1] not in foundations for m in g.legal_moves())


# -- tableau --------------------------------------------------------------------------------


def test_tableau_builds_down_in_suit():
    g = game({"t1": "9S", "t2": "8S", "t3": "8H", "t4": "7S", "t5": "10S", "t6": "2C", "t7": "AC"})
    assert refusal(g, "t3 t1") == "8♥ cannot go on 9♠: the tableau builds down in suit (piles.tableau.build, clause same-suit)"
    assert refusal(g, "t4 t1") == "7♠ cannot go on 9♠: the tableau builds down in suit (piles.tableau.build, clause rank-down)"
    assert "clause rank-down" in refusal(g, "t5 t1")  # never up
    assert allowed(g, "t7 t6")  # an ace goes on a two
    play(g, "t2 t1")
    assert pile(g, "t1") == ["9S", "8S"] and pile(g, "t2") == []


def test_tableau_does_not_wrap_king_on_ace():
    g = game({"t1": "AS", "t2": "KS"})
    assert "clause rank-down" in refusal(g, "t2 t1")


def test_one_card_at_a_time():
    g = game({"t1": "9S 8S", "t2": "10S", "t3": "KD"})
    assert refusal(g, "t1 t2 2") == "9♠ 8♠ cannot leave t1: the tableau moves one card at a time (piles.tableau.take, clause one-card)"
    assert "clause one-card" in refusal(g, "t1 t4 2")  # not even into a space
    assert all(g.decode(m)[3] <= 1 for m in g.legal_moves())


def test_space_takes_any_card_from_tableau_or_waste():
    g = game({"t1": "9S KH", "t2": "5C", "w": "3D QC", "s": "4D"}, down={"s": 1})
    assert allowed(g, "t1 t3") and allowed(g, "t2 t3") and allowed(g, "w t3")
    play(g, "w t3")
    assert pile(g, "t3") == ["QC"] and pile(g, "w") == ["3D"]
    play(g, "t1 t4")
    assert pile(g, "t4") == ["KH"] and pile(g, "t1") == ["9S"]


def test_a_card_on_a_foundation_cannot_fill_a_space():
    g = game({"f1": "AS", "t1": "5C"})
    assert "piles.foundation.take" in refusal(g, "f1 t2")


# -- stock and waste ------------------------------------------------------------------------


def test_d_deals_one_card_face_up_to_the_waste():
    g = game({"s": "2C 3C 4C", "t1": "9S"}, down={"s": 3})
    deals = [m for m in g.legal_moves() if g.decode(m)[0] == "deal"]
    assert len(deals) == 1 and describe(g, deals[0]) == "d"
    play(g, "d")
    assert pile(g, "w") == ["4C"] and pile(g, "s") == ["2C", "3C"]
    assert g.state.down[rules().pile_of_tag["w"]] == 0
    assert g.state.sizes["waste"] == 1 and g.state.sizes["stock"] == 2


def test_no_redeal_when_the_stock_is_empty():
    g = game({"w": "2C 3C 4C", "t1": "9S"})
    assert refusal(g, "d") == "the stock is empty and the rules allow no redeal"
    assert all(g.decode(m)[0] == "move" for m in g.legal_moves())


def test_waste_top_card_plays_to_tableau_and_foundation():
    g = game({"w": "AH 9S", "t1": "10S", "s": "5C"}, down={"s": 1})
    play(g, "w t1")
    assert pile(g, "t1") == ["10S", "9S"]
    play(g, "w f1")
    assert pile(g, "f1") == ["AH"] and pile(g, "w") == []


def test_only_the_top_waste_card_is_available():
    g = game({"w": "9S 5H", "t1": "10S", "f1": "AH 2H 3H 4H"})
    assert refusal(g, "w t1").startswith("5♥ cannot go on 10♠")
    assert "clause one-card" in refusal(g, "w t1 2")
    play(g, "w f1")
    play(g, "w t1")
    assert pile(g, "t1") == ["10S", "9S"]


def test_stock_cards_cannot_be_moved_directly():
    g = game({"s": "AS", "t1": "5C"}, down={"s": 1})
    assert refusal(g, "s f1")


# -- end of the game ------------------------------------------------------------------------


def test_all_cards_on_foundations_is_a_win():
    g = game(whole_suits())
    assert g.status().outcome == "won"
    assert g.score() == 104


def test_last_king_home_wins_and_undo_takes_it_back():
    last_move_wins(game, all_but_a_king("t1"), "t1 f8", undo=True)


def test_lost_when_no_legal_move_is_left():
    tops = ["2S", "2H", "2D", "2C", "4S", "4H", "4D", "4C", "6S", "6H"]
    layout = {f"t{i + 1}": card for i, card in enumerate(tops)}
    layout["w"] = "8S"
    g = game(layout)
    assert g.legal_moves() == []
    assert g.status().outcome == "lost"
    assert g.status().reason == "no legal move is left"


def test_not_lost_while_the_stock_can_deal():
    tops = ["2S", "2H", "2D", "2C", "4S", "4H", "4D", "4C", "6S", "6H"]
    layout = {f"t{i + 1}": card for i, card in enumerate(tops)}
    layout["s"] = "8S"
    g = game(layout, down={"s": 1})
    assert g.status().outcome == "playing"
    play(g, "d")
    assert g.status().outcome == "lost"


# -- undo and redo --------------------------------------------------------------------------


def test_undo_and_redo_restore_positions():
    g = Game(rules(), seed=1)  # a deal with card moves to the tableau, the waste and a foundation
    keys = [g.state.key()]
    sizes = [dict(g.state.sizes)]
    for step in range(16):  # a bounded number of steps: card moves when there are any, deals between them
        moves = g.legal_moves()
        if not moves:
            break
        card_moves = [m for m in moves if g.decode(m)[0] == "move"]
        g.play(card_moves[step % len(card_moves)] if card_moves and step % 3 else moves[0])
        keys.append(g.state.key())
        sizes.append(dict(g.state.sizes))
    assert len(keys) == 17
    assert g.state.sizes["foundation"] > 0 and g.state.sizes["waste"] > 0
    for i in range(len(keys) - 1, 0, -1):
        assert g.undo()
        assert g.state.key() == keys[i - 1] and g.state.sizes == sizes[i - 1]
    assert not g.undo()
    for i in range(1, len(keys)):
        assert g.redo()
        assert g.state.key() == keys[i] and g.state.sizes == sizes[i]
    assert not g.redo()


def test_undo_of_a_deal_puts_the_card_back_on_the_stock():
    g = game({"s": "2C 3C", "t1": "9S"}, down={"s": 2})
    before = g.state.key()
    play(g, "d")
    g.undo()
    assert g.state.key() == before
    assert pile(g, "s") == ["2C", "3C"] and pile(g, "w") == []


def test_a_new_move_clears_the_redo_stack():
    g = game({"t1": "9S", "t2": "8S", "t3": "5C"})
    play(g, "t2 t1")
    g.undo()
    play(g, "t3 t4")
    assert not g.redo()


# -- aces up: the `a` command --------------------------------------------------------------


def test_aces_are_not_moved_by_a_normal_move():
    g = game({"t1": "9S AS", "t2": "AH", "t3": "5C", "w": "AD"})
    play(g, "t3 t4")
    assert pile(g, "t1") == ["9S", "AS"] and pile(g, "t2") == ["AH"] and pile(g, "w") == ["AD"]
    assert g.state.sizes["foundation"] == 0


def test_a_moves_every_available_ace_to_the_foundations():
    g = game({"t1": "9S AS", "t2": "AH", "t3": "AC 5C", "w": "7D AD"})
    before = g.state.key()
    made = g.play_auto()
    assert len(made) == 3
    assert sorted(c for tag in ("f1", "f2", "f3") for c in pile(g, tag)) == ["AD", "AH", "AS"]
    assert pile(g, "t3") == ["AC", "5C"]  # a covered ace stays
    assert pile(g, "w") == ["7D"]
    assert g.undo()  # the whole `a` is one step
    assert g.state.key() == before


def test_a_with_no_ace_available_does_nothing():
    g = game({"t1": "9S", "t2": "AC 5C"})
    before = g.state.key()
    assert g.play_auto() == []
    assert g.state.key() == before
    assert not g.undo()


def test_redo_of_a_restores_every_ace_it_moved():
    g = game({"t1": "9S AS", "t2": "AH", "w": "AD"})
    g.play_auto()
    after = g.state.key()
    g.undo()
    assert g.redo()
    assert g.state.key() == after
