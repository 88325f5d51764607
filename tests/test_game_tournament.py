"""Tournament: one scenario per sentence of the seed text (La Nivernaise with two exceptions), and the
committed winning deal played through a real `kallisti play` process.

docs/sentences/tournament.md maps each sentence to its test.
"""

from __future__ import annotations

from kallisti.cli.render import table_lines

from scenario import (RANKS, ROOT, cards as names, deal, down, for_game, last_move_wins, line_of, play, refusal,
                      ruleset, run, suit, whole_suits, win_script_wins)

NAME = "tournament"
rules, game = for_game(NAME)


# -- "Follow the rules of La Nivernaise except:" -----------------------------------------------


def test_follows_la_nivernaise_flanks_foundations_and_pack():
    r, base = rules(), ruleset("la-nivernaise")
    assert r.deck.size == 104
    for name in ("aces", "kings", "reserve", "line", "stock"):
        assert len(r.groups[name].piles) == len(base.groups[name].piles)
    assert r.groups["stock"].redeals == 2 and r.groups["stock"].turn == {"to": "line", "each": True, "count": 4}
    g = game({"a1": "AH 2H", "k1": "KS", "r1": "AH", "r2": "QC", **line_of("9C 5D"), "s": "7C 3H"}, down={"s": 1})
    assert "(piles.aces.empty, clause one-per-suit)" in refusal(g, "r1 a2")
    assert "(piles.reserve.empty, clause from-line-or-pack)" in refusal(g, "r2 r3")
    assert "(piles.aces.build, clause not-from-the-pack)" in refusal(g, "s a1")
    play(g, "s r3")
    play(g, "l1 r4")
    assert names(g, "r3") == ["3H"] and names(g, "r4") == ["5D"]


def test_follows_la_nivernaise_refills_and_rounds_of_four():
    g = game({"a1": "AC", **line_of("2C", "9H", "9D", "9S", "8H", "8D"),
              "s": " ".join(f"{r}S" for r in RANKS[1:11]) + " 3H 4H 5H 6H"}, down={"s": 14})
    play(g, "l1 a1")
    assert names(g, "l1") == ["6H", "5H", "4H", "3H"], "a packet played off gets four cards at once"
    play(g, "d")
    assert names(g, "l1")[4:] == ["JS", "10S", "9S", "8S"]
    assert names(g, "l2")[1:] == ["7S", "6S", "5S", "4S"]
    assert names(g, "l3")[1:] == ["3S", "2S"] and names(g, "s") == []


# -- the examination rule and the Line dealt by rows --------------------------------------------


def test_no_examination_rule_every_line_card_can_be_read():
    # "The additional rules of La Nivernaise as to the examination of piles is difficult to follow
    # without unintentional peeking." Tournament has no such rule: nothing in the Line is hidden.
    assert rules().groups["line"].reveal is None
    g = game({**line_of("2S 3S 4S 5S"), "r1": "KC"})
    assert g.visible_down(g.rules.pile_of_tag["l1"]) == 0 and down(g, "l1") == 0
    assert "l1 2♠  3♠  4♠  5♠" in "\n".join(table_lines(g))


def test_the_line_is_dealt_by_rows_overlapping_so_all_can_be_read():
    # "Deal the line by rows, overlapping the cards, so that all can be read."
    g, order = deal(NAME, 33)
    for i in range(6):
        tag = f"l{i + 1}"
        assert g.state.piles[g.rules.pile_of_tag[tag]] == [order[8 + i], order[14 + i], order[20 + i], order[26 + i]]
        assert down(g, tag) == 0
    # Cards that come later, by a round or a refill, lie face up too; only the top card moves.
    g = game({"a1": "AC", **line_of("2C", "9H"), "s": "KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D"}, down={"s": 11})
    play(g, "l1 a1")
    assert names(g, "l1") == ["3D", "4D", "5D", "6D"] and down(g, "l1") == 0
    play(g, "d")
    assert names(g, "l1") == ["3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D"] and down(g, "l1") == 0
    assert refusal(g, "l1 r1 2") == ("9♦ 10♦ cannot leave l1: the line moves one card at a time "
                                     "(piles.line.take, clause one-card)")


def test_a_redeal_deals_the_line_by_rows_again():
    packets = ["2C 3C 4C", "5C 6C", "7C 8C 9C 10C", "JC", "QC KC", "2D 3D 4D"]
    g = game(line_of(*packets))
    gathered = " ".join(packets).split()  # taken up from the left, l1's bottom card first
    before = g.state.key()
    made = play(g, "d")
    assert len(made) == 1
    assert g.state.redeals["stock"] == 1
    # 15 cards by rows: two full rows of six and a third row of three.
    expected = [[gathered[i], gathered[6 + i]] + ([gathered[12 + i]] if i < 3 else []) for i in range(6)]
    assert [names(g, f"l{i + 1}") for i in range(6)] == expected
    assert all(down(g, f"l{i + 1}") == 0 for i in range(6))
    assert g.undo() and g.state.key() == before
    play(g, "d")
    play(g, "d")
    assert refusal(g, "d") == "the stock is empty and all 2 redeals are used"


# -- reversing foundations ----------------------------------------------------------------------


def test_foundations_of_a_suit_in_sequence_may_be_reversed_one_upon_the_other():
    # "When two foundations of the same suit are built to cards in sequence, any or all of them on
    # one pile may be reversed upon the other" -- card after card, from the top.
    g = game({"a1": suit("H", "6"), "k1": run("H", "K", "7"), "r1": "9C"})
    before = g.state.key()
    play(g, "a1 k1")
    play(g, "a1 k1")
    assert names(g, "a1") == ["AH", "2H", "3H", "4H"] and names(g, "k1")[-3:] == ["7H", "6H", "5H"]
    play(g, "k1 a1")  # and back the other way
    assert names(g, "a1")[-1] == "5H" and names(g, "k1")[-1] == "6H"
    for _ in range(3):
        assert g.undo()
    assert g.state.key() == before


def test_all_of_a_foundation_may_be_reversed_including_its_bottom_card():
    # "... including the bottom cards": the ace itself goes onto the deuce, which empties the ace
    # foundation for the suit's other ace.
    g = game({"a1": suit("H", "4"), "k1": run("H", "K", "5"), "r1": "AH"})
    for _ in range(4):
        play(g, "a1 k1")
    assert names(g, "a1") == []
    assert names(g, "k1") == run("H", "K", "A").split() and len(names(g, "k1")) == 13
    play(g, "r1 a1")
    assert names(g, "a1") == ["AH"]
    # The other way: a king foundation reversed whole onto the ace foundation, its king included.
    g = game({"a2": suit("S", "10"), "k2": run("S", "K", "J"), "r1": "KS"})
    for _ in range(3):
        play(g, "k2 a2")
    assert names(g, "k2") == [] and names(g, "a2") == suit("S", "K").split()
    play(g, "r1 k2")
    assert names(g, "k2") == ["KS"]


def test_reversal_only_between_foundations_of_one_suit_built_to_cards_in_sequence():
    g = game({"a1": suit("H", "4"), "k1": run("H", "K", "7"), "a2": suit("D", "4"), "k2": run("C", "K", "5"),
              "k3": run("D", "K", "6")})
    assert refusal(g, "a1 k1") == "4♥ cannot go on 7♥: the kings builds down in suit (piles.kings.build, clause rank-down)"
    assert refusal(g, "a2 k2") == "4♦ cannot go on 5♣: the kings builds down in suit (piles.kings.build, clause same-suit)"
    assert "(piles.kings.build, clause rank-down)" in refusal(g, "a2 k3")
    # A reversed card goes onto the other foundation, never into an empty one nor a Flank.
    g = game({"a1": "AH", "k1": run("H", "K", "2")})
    assert refusal(g, "a1 a2") == ("A♥ cannot go to the empty a2: the aces has one ace foundation per suit "
                                   "(piles.aces.empty, clause one-per-suit)")
    assert refusal(g, "a1 k2") == ("A♥ cannot go to the empty k2: the kings takes only the last rank "
                                   "(piles.kings.empty, clause last-rank)")
    assert refusal(g, "a1 r1").endswith("(piles.reserve.empty, clause from-line-or-pack)")
    play(g, "a1 k1")
    assert refusal(g, "k1 a2") == ("A♥ cannot go to the empty a2: the aces starts only with an ace from the "
                                   "Flanks or the Line (piles.aces.empty, clause from-flank-or-line)")


def test_the_game_is_won_when_every_card_is_on_the_foundations():
    layout = {**whole_suits(4, "a"), **whole_suits(4, "k", falling=True), "a4": suit("S", "Q"), "l1": "KS"}
    last_move_wins(game, layout, "l1 a4", score=104)


def test_winning_script_wins_in_a_real_process():
    moves = ROOT / "examples" / "tournament-win.moves"
    assert "a3 k3" in moves.read_text(encoding="utf-8"), "the script reverses a foundation"
    win_script_wins(NAME, "*** WON: Tournament in 110 moves ***", absent="refused:")
