"""Discordian Solitaire's rules of a turn, sentence by sentence (docs/sentences/discordian.md), on fixed deals."""

from __future__ import annotations

from scenario import allowed, cards, down, for_game, legal, play, refusal

from kallisti.interpreter.match import Match, Seat

rules, game = for_game("discordian")
COLUMNS = [f"c{i}" for i in range(1, 8)]


def test_the_ranks_run_ace_to_ten_jack_king_queen():
    assert rules().deck.ranks == ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "K", "Q")


def test_a_turn_deals_seven_columns_of_five_face_up_and_one_foundation():
    g = game()
    assert [len(cards(g, c)) for c in COLUMNS] == [5] * 7
    assert all(down(g, c) == 0 for c in COLUMNS)
    assert len(cards(g, "f")) == 1 and down(g, "f") == 0
    assert len(cards(g, "s")) == 52 - 36


def test_the_seeds_example_bottoms_a_2_q_j_2_3_5_on_a_four():
    g = game({"c1": "9C AS", "c2": "9D 2S", "c3": "9H QS", "c4": "9S JS", "c5": "10C 2H", "c6": "10D 3S", "c7": "10H 5S",
              "f": "4D", "s": "KC KD"})
    assert legal(g) == {"c6 f", "c7 f"}  # either the 3 or the 5


def test_the_card_played_becomes_the_foundation_and_uncovers_the_next():
    g = game({"c1": "9C 2S", "c2": "8D 3S", "f": "4D", "s": "KC"})
    play(g, "c2 f")
    assert cards(g, "f")[-1] == "3S" and cards(g, "c2") == ["8D"]
    assert allowed(g, "c1 f")  # a 2 on the new foundation 3


def test_suits_and_colours_do_not_matter():
    g = game({"c1": "5H", "c2": "5S", "c3": "3D", "c4": "3C", "f": "4H", "s": "KC"})
    assert legal(g) == {"c1 f", "c2 f", "c3 f", "c4 f"}


def test_nothing_goes_on_a_queen():
    g = game({"c1": "KS", "c2": "AS", "f": "QH", "s": "2C"})
    assert "takes nothing once the foundation is a Queen" in refusal(g, "c1 f")
    assert not allowed(g, "c2 f")
    assert legal(g) == {"d"}


def test_the_queen_goes_on_the_king_and_the_ace_is_not_above_the_queen():
    g = game({"c1": "QS", "c2": "AS", "f": "KH", "s": "2C"})
    assert allowed(g, "c1 f")
    g = game({"c1": "QS", "f": "AH", "s": "2C"})
    assert not allowed(g, "c1 f")


def test_a_new_foundation_is_dealt_only_when_no_card_can_be_played():
    g = game({"c1": "5S", "c2": "9S", "f": "4H", "s": "2C 8C"})
    assert "a card must be played when one can be" in refusal(g, "d")
    play(g, "c1 f")
    play(g, "d")  # nothing plays on the 5: the next undealt card is the new foundation
    assert cards(g, "f")[-1] == "8C" and legal(g) == {"c2 f"}


def test_the_turn_ends_when_the_field_is_empty():
    g = game({"c1": "5S", "f": "4H", "s": "2C 8C"})
    play(g, "c1 f")
    assert g.status().outcome == "won" and g.score() == 0


def test_the_turn_ends_when_the_undealt_cards_are_gone_and_nothing_plays():
    g = game({"c1": "9S 5S", "c2": "JD", "f": "4H"})
    play(g, "c1 f")
    assert g.status().outcome != "playing"
    assert g.score() == 2  # the cards left on the field are the turn's score


def test_the_score_is_added_to_the_total_which_starts_at_minus_23():
    match = Match(rules(), [Seat("ann", "greedy"), Seat("bob", "greedy")], 4)
    assert match.totals == [-23, -23]
    while match.waiting().what != "player-x":
        w = match.waiting()
        if w.what == "ack":
            match.acknowledge(w.seat)
        else:
            match.move(w.seat, match.game.legal_moves()[0])
    record = match.records[0]
    assert record.score == match.game.score() and match.totals[0] == -23 + record.score


def test_the_ruleset_states_its_choices_as_options():
    m = rules().match
    assert (m.seats, m.start_score, m.loses_at, m.last_turns, m.both_over) == (2, -23, 230, "others", "higher-loses")
    assert [p.id for p in rules().compulsory] == ["play-first"]
    assert {h.id: h.at for h in rules().honour} == {"mind-the-cards": "match-start", "no-spitting": "match-start"}
