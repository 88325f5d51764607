"""La Nivernaise: one scenario per sentence of the published rules, and the committed winning deal
played through a real `kallisti play` process.

docs/sentences/la-nivernaise.md maps each sentence to its test.
"""

from __future__ import annotations

from kallisti.cli.render import table_lines

from scenario import (RANKS, SUITS, allowed, cards as names, deal, down, for_game, last_move_wins, line_of, play,
                      refusal, run, whole_suits, win_script_wins)

NAME = "la-nivernaise"
rules, game = for_game(NAME)


# -- the layout ---------------------------------------------------------------------------------


def test_the_flanks_are_eight_single_cards_and_the_line_six_packets_of_four():
    # "Place two perpendicular rows of four cards each, called Flanks ... deal from left to right
    # six packets, each composed of four cards". The Flanks take the first eight cards; the Line
    # is dealt by rows (the first row at the bottom), only each packet's top card face up; the
    # rest is the pack, the first card after the Line on top.
    g, order = deal(NAME, 21)
    for i in range(8):
        assert g.state.piles[g.rules.pile_of_tag[f"r{i + 1}"]] == [order[i]]
        assert down(g, f"r{i + 1}") == 0
    for i in range(6):
        p = g.rules.pile_of_tag[f"l{i + 1}"]
        assert g.state.piles[p] == [order[8 + i], order[14 + i], order[20 + i], order[26 + i]]
        assert down(g, f"l{i + 1}") == 3
    s = g.rules.pile_of_tag["s"]
    assert len(g.state.piles[s]) == 72 and g.state.piles[s][-1] == order[32]
    assert down(g, "s") == 71, "the pack's top card is shown, the rest lie face down"
    assert all(not g.state.piles[p] for name in ("aces", "kings") for p in g.rules.groups[name].piles)


# -- the foundations ----------------------------------------------------------------------------


def test_foundations_are_an_ace_and_a_king_of_each_suit():
    # "four aces and four kings of different suits ... when they can be played, form the foundation cards"
    g = game({"a1": "AH", "k1": "KH", "r1": "AH", "r2": "KH", "r3": "AS", "r4": "KS", "r5": "QC", "l1": "2C"})
    assert refusal(g, "r1 a2") == ("A♥ cannot go to the empty a2: the aces has one ace foundation per suit "
                                   "(piles.aces.empty, clause one-per-suit)")
    assert refusal(g, "r2 k2") == ("K♥ cannot go to the empty k2: the kings has one king foundation per suit "
                                   "(piles.kings.empty, clause one-per-suit)")
    assert "(piles.aces.empty, clause first-rank)" in refusal(g, "r4 a2")
    assert "(piles.kings.empty, clause last-rank)" in refusal(g, "r3 k2")
    assert "(piles.kings.empty, clause last-rank)" in refusal(g, "r5 k2")
    play(g, "r3 a2")
    play(g, "r4 k2")
    assert names(g, "a2") == ["AS"] and names(g, "k2") == ["KS"]


def test_kings_descend_in_sequence_to_aces_and_aces_ascend_to_kings():
    g = game({"a1": "AH 2H", "k1": "KH QH", "r1": "3H", "r2": "JH", "r3": "4H", "r4": "10H"})
    assert "(piles.aces.build, clause rank-up)" in refusal(g, "r3 a1")
    assert "(piles.kings.build, clause rank-down)" in refusal(g, "r4 k1")
    play(g, "r1 a1")
    play(g, "r2 k1")
    play(g, "r3 a1")
    play(g, "r4 k1")
    assert names(g, "a1") == ["AH", "2H", "3H", "4H"] and names(g, "k1") == ["KH", "QH", "JH", "10H"]


def test_all_foundations_follow_suit():
    g = game({"a1": "AH 2H", "k1": "KH QH", "r1": "3S", "r2": "JD"})
    assert refusal(g, "r1 a1") == "3♠ cannot go on 2♥: the aces builds up in suit (piles.aces.build, clause same-suit)"
    assert refusal(g, "r2 k1") == "J♦ cannot go on Q♥: the kings builds down in suit (piles.kings.build, clause same-suit)"


# -- the Line -----------------------------------------------------------------------------------


def test_only_the_top_card_of_a_packet_is_available_and_the_one_beneath_is_released():
    g = game({"a1": "AC", **line_of("3C 9D 2C"), "r1": "5S"}, down={"l1": 2})
    assert refusal(g, "l1 a1 2") == "l1 has only 1 face-up card"
    assert not allowed(g, "l1 r2 2")
    play(g, "l1 a1")
    assert names(g, "a1") == ["AC", "2C"]
    assert down(g, "l1") == 1, "the card beneath is turned up, the rest stay face down"
    play(g, "l1 r2")  # the 9♦, now uppermost, is the available one
    assert names(g, "r2") == ["9D"] and down(g, "l1") == 0
    play(g, "l1 a1")
    assert names(g, "a1") == ["AC", "2C", "3C"]


def test_as_many_cards_may_be_examined_as_there_are_vacancies_in_the_flanks():
    layout = {**line_of("2S 3S 4S 5S 6S", "7D 8D"), **dict(zip(("r1", "r2", "r3", "r4", "r5", "r6"), "KC KD KH KS QC QD".split()))}
    g = game(layout, down={"l1": 4, "l2": 1})
    l1, l2 = (g.rules.pile_of_tag[t] for t in ("l1", "l2"))
    assert g.visible_down(l1) == 2 and g.visible_down(l2) == 1, "two vacancies (r7, r8); l2 has only one card under its top"
    text = "\n".join(table_lines(g))
    assert "l1 ##  ##  (4♠) (5♠) 6♠" in text, text
    assert "l2 (7♦) 8♦" in text
    play(g, "l1 r7")  # a vacancy filled: one card fewer may be examined
    assert g.visible_down(l1) == 1
    assert "l1 ##  ##  (4♠) 5♠" in "\n".join(table_lines(g))
    g = game({**line_of("2S 3S 4S"), **{f"r{i + 1}": c for i, c in enumerate("KC KD KH KS QC QD QH QS".split())}}, down={"l1": 2})
    assert g.visible_down(g.rules.pile_of_tag["l1"]) == 0
    assert "l1 ##  ##  4♠" in "\n".join(table_lines(g))


def test_flank_and_line_cards_are_played_to_the_foundations():
    # "If any of the foundation cards appear on the surface of the Line, or on the Flanks, play them
    # in the spaces reserved; as also any other suitable cards"
    g = game({"r1": "AD", **line_of("9C KS", "2D"), "r2": "QS"}, down={"l1": 1})
    play(g, "r1 a")
    play(g, "l1 k")
    play(g, "l2 a")
    play(g, "r2 k")
    assert names(g, "a1") == ["AD", "2D"] and names(g, "k1") == ["KS", "QS"]


def test_vacancies_in_the_flanks_are_filled_from_the_pack_or_the_line():
    g = game({"a1": "AH 2H", "r1": "QC", **line_of("9C 5D", "8S"), "s": "7C 3H"}, down={"l1": 1, "s": 1})
    assert refusal(g, "r1 r2") == ("Q♣ cannot go to the empty r2: the reserve fills a vacancy only from the Line "
                                   "or the pack (piles.reserve.empty, clause from-line-or-pack)")
    assert refusal(g, "l2 r1") == "8♠ cannot go on Q♣: the reserve takes no cards (piles.reserve.build, clause nothing)"
    assert refusal(g, "s a1") == ("3♥ cannot go on 2♥: the aces takes the pack's card only into a vacancy of the "
                                  "Flanks (piles.aces.build, clause not-from-the-pack)")
    assert refusal(g, "a1 r2") == ("2♥ cannot go to the empty r2: the reserve fills a vacancy only from the Line "
                                   "or the pack (piles.reserve.empty, clause from-line-or-pack)")
    assert refusal(g, "s r2 2") == "s has only 1 face-up card"
    play(g, "s r2")
    assert names(g, "r2") == ["3H"] and names(g, "s") == ["7C"] and down(g, "s") == 0, "the next card shows"
    play(g, "l1 r3")
    assert names(g, "r3") == ["5D"] and names(g, "l1") == ["9C"] and down(g, "l1") == 0


def test_a_packet_played_off_gets_four_cards_at_once_single_cards_are_not_replaced():
    g = game({"a1": "AC", **line_of("3C 2C", "9H"), "s": "KD QD JD 10D 9D 8D"}, down={"l1": 1, "s": 6})
    play(g, "l1 a1")
    assert names(g, "l1") == ["3C"], "a single card is not replaced"
    assert names(g, "s") == ["KD", "QD", "JD", "10D", "9D", "8D"]
    before = g.state.key()
    made = play(g, "l1 a1")
    assert len(made) == 1, "the four cards come as part of the move"
    assert names(g, "l1") == ["8D", "9D", "10D", "JD"], "the pack's top card goes in first, at the bottom"
    assert down(g, "l1") == 3
    assert names(g, "s") == ["KD", "QD"]
    assert g.undo()
    assert g.state.key() == before


def test_a_round_deals_four_cards_together_on_each_packet_in_turn():
    pack = " ".join(f"{r}S" for r in RANKS) + " " + " ".join(f"{r}H" for r in RANKS[:11])  # 24 cards
    g = game({**line_of("2C", "3C", "4C", "5C", "6C", "7C"), "s": pack}, down={"s": 24})
    top_first = pack.split()[::-1]  # the first card dealt is the pack's top
    before = g.state.key()
    play(g, "d")
    for i in range(6):
        tag = f"l{i + 1}"
        assert names(g, tag)[1:] == top_first[4 * i:4 * i + 4]
        assert down(g, tag) == 4, "only the new top card of a packet is face up"
    assert names(g, "s") == []
    assert g.undo()
    assert g.state.key() == before


def test_rounds_are_dealt_until_the_pack_runs_out():
    g = game({**line_of("2C", "3C", "4C", "5C", "6C", "7C"), "s": "2S 3S 4S 5S 6S 7S 8S 9S 10S JS"},
             down={"s": 10})
    play(g, "d")
    assert [len(names(g, f"l{i + 1}")) for i in range(6)] == [5, 5, 3, 1, 1, 1]
    assert names(g, "l3")[1:] == ["3S", "2S"]
    assert not any(g.decode(m)[0] == "deal" for m in g.legal_moves())


def test_a_redeal_takes_up_the_line_from_the_left_turns_it_and_deals_it_again():
    # "the Line packets must be taken up in succession, beginning on the left; then the whole
    # together turned and re-dealt as before": packets of four again, the first from l1's bottom cards.
    packets = ["2C 3C 4C 5C 6C", "7C", "8C 9C 10C", "JC QC", "KC 2D", "3D 4D 5D"]
    g = game({**line_of(*packets), "a1": "AH"}, down={"l1": 4, "l3": 2, "l4": 1, "l5": 1, "l6": 2})
    gathered = " ".join(packets).split()  # 16 cards, l1 bottom card first
    assert gathered[0] == "2C" and len(gathered) == 16
    before = g.state.key()
    made = play(g, "d")
    assert len(made) == 2, "the redeal and the deal of the new packets are one step"
    assert g.state.redeals["stock"] == 1
    assert [names(g, f"l{i + 1}") for i in range(6)] == [gathered[0:4], gathered[4:8], gathered[8:12],
                                                         gathered[12:16], [], []]
    assert [down(g, f"l{i + 1}") for i in range(4)] == [3, 3, 3, 3]
    assert names(g, "s") == [] and names(g, "a1") == ["AH"]
    assert g.undo()
    assert g.state.key() == before


def test_a_redeal_keeps_the_rest_as_the_pack_for_the_next_rounds():
    # More than 24 cards in the Line: six packets of four, the rest is the pack again.
    packets = [" ".join(f"{r}{s}" for r in RANKS[1:6]) for s in SUITS] + ["6C 7C 8C 9C 10C", "6D 7D 8D"]
    g = game(line_of(*packets))
    gathered = " ".join(packets).split()
    play(g, "d")
    assert [names(g, f"l{i + 1}") for i in range(6)] == [gathered[4 * i:4 * i + 4] for i in range(6)]
    assert names(g, "s") == gathered[24:][::-1], "the next card to deal is the one after the sixth packet"
    play(g, "d")
    assert names(g, "l1")[4:] == gathered[24:28]


def test_no_redeal_while_the_pack_lasts():
    g = game({**line_of("2C", "3C"), "s": "9H 8H"}, down={"s": 2})
    stock = g.rules.pile_of_tag["s"]
    assert ("redeal", stock, -1, 0) not in [g.decode(m) for m in g.legal_moves()]
    play(g, "d")
    assert g.state.redeals["stock"] == 0 and names(g, "l1") == ["2C", "8H", "9H"]


def test_two_redeals_and_no_more():
    g = game(line_of("2C 3C", "4C"))
    play(g, "d")
    play(g, "d")
    assert g.state.redeals["stock"] == 2
    assert refusal(g, "d") == "the stock is empty and all 2 redeals are used"


def test_one_card_at_a_time_may_be_exchanged_between_the_ascending_and_descending_foundations():
    # Cadogan: "one card at a time may be exchanged from the ascending to the descending sequences,
    # and vice versa". The card the foundation was started with stays.
    up = "AH 2H 3H 4H"
    g = game({"a1": up, "k1": "KH QH JH 10H 9H 8H 7H 6H 5H", "a2": "AS", "k2": "KS QS", "r1": "9C"})
    before = g.state.key()
    play(g, "a1 k1")
    assert names(g, "k1")[-1] == "4H" and names(g, "a1") == ["AH", "2H", "3H"]
    assert g.undo() and g.state.key() == before
    play(g, "k1 a1")
    assert names(g, "a1")[-1] == "5H" and names(g, "k1")[-1] == "6H"
    g = game({"a1": "AH 2H", "k1": "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H"})
    play(g, "a1 k1")
    assert names(g, "a1") == ["AH"]
    assert refusal(g, "a1 k1") == ("A♥ cannot leave a1: the aces keeps the card it was started with "
                                   "(piles.aces.take, clause not-the-base)")
    g = game({"a1": "AH 2H", "k1": "KH", "k2": "KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D", "a2": "AS 2S 3S 4S", "k3": "KS QS JS 10S 9S 8S 7S 6S"})
    assert "(piles.kings.build, clause rank-down)" in refusal(g, "a1 k1"), "only when in sequence"
    assert "(piles.kings.build, clause same-suit)" in refusal(g, "a1 k2"), "only the same suit"
    assert "(piles.kings.build, clause rank-down)" in refusal(g, "a2 k3")
    assert refusal(g, "k2 k4") == ("3♦ cannot go to the empty k4: the kings takes only the last rank "
                                   "(piles.kings.empty, clause last-rank)")
    assert refusal(g, "k2 r1").endswith("(piles.reserve.empty, clause from-line-or-pack)")


def test_a_foundation_card_never_starts_another_foundation():
    g = game({"k1": "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H AH"})
    assert refusal(g, "k1 a1") == ("A♥ cannot go to the empty a1: the aces starts only with an ace from the Flanks "
                                   "or the Line (piles.aces.empty, clause from-flank-or-line)")


def test_the_game_is_won_when_every_card_is_on_the_foundations():
    layout = {**whole_suits(4, "a"), **whole_suits(4, "k", falling=True), "k4": run("S", "K", "2"), "r1": "AS"}
    last_move_wins(game, layout, "r1 k4", score=104)


def test_winning_script_wins_in_a_real_process():
    win_script_wins(NAME, "*** WON: La Nivernaise in 104 moves ***", absent="refused:")
