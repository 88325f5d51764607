"""Decade (as the seed gives it), one scenario per rule sentence of the seed text (see docs/sentences/decade.md),
and a small independent implementation that plays the same deals to the same end."""

from __future__ import annotations

import pytest

from scenario import cards as pile, for_game, legal, play, refusal, win_script_wins, won_line

NAME = "decade"
rules, game = for_game(NAME)


def line(layout: str, stock: str = "", discard: str = ""):
    """A Decade position: the line (left to right), the face-down stock (bottom first: its last card is
    drawn next) and the discard pile; cards not named are out of play."""
    named = {"l": layout, "s": stock, "x": discard}
    return game({k: v for k, v in named.items() if v}, down={"s": len(stock.split())} if stock else None)


# -- "three cards are drawn from the bottom of the deck and placed face up in a line" ---------------
def test_three_cards_are_dealt_face_up_in_a_line_and_the_rest_is_the_stock():
    g = game()
    assert len(pile(g, "l")) == 3 and g.state.down[g.rules.pile_of_tag["l"]] == 0
    assert len(pile(g, "s")) == 49 and pile(g, "x") == []


# -- "Spot cards have their face value while face cards are valued at ten points" ----------------------
@pytest.mark.parametrize("cards, run", [
    ("3C 7D 9S", "l 1-2"),          # 3 + 7 = 10: two cards
    ("KC QD 2S", "l 1-2"),          # 10 + 10 = 20: pictures count ten
    ("2C 3D 5S", "l 1-3"),          # 2 + 3 + 5 = 10: three cards
    ("9C 8D 4S 9H", "l 1-4"),       # 9 + 8 + 4 + 9 = 30: four cards
    ("AC 2D 3S 4H 9C", "l 1-4"),    # A + 2 + 3 + 4 = 10: the ace counts one
])
def test_adjacent_cards_adding_up_to_10_20_or_30_are_discarded(cards, run):
    g = line(cards)
    assert run in legal(g)
    before = pile(g, "l")
    first, _, last = run.split()[1].partition("-")
    play(g, run)
    gone = before[int(first) - 1:int(last)]
    assert pile(g, "x")[-len(gone):] == gone
    assert pile(g, "l") == before[:int(first) - 1] + before[int(last):]


def test_sums_of_10_20_and_30_all_count_and_others_do_not():
    assert legal(line("4C 6D")) == {"l 1-2"}            # 10
    assert legal(line("KC QD")) == {"l 1-2"}            # 20
    assert legal(line("KC QD JS")) == {"l 1-2", "l 2-3", "l 1-3"}  # 20, 20 and 30
    g = line("9C 9D", stock="2C")                        # 18: no discard, only the draw
    assert legal(g) == {"d"}
    assert refusal(g, "l 1-2") == ("9♣ 9♦ cannot be discarded: the line discards adjacent cards adding up to 10, 20 or 30 "
                                   "(piles.line.discard, clause tens)")


def test_a_single_card_is_never_discarded_even_a_ten():
    g = line("10C 3D", stock="2C")
    assert legal(g) == {"d"}
    assert "two or more adjacent cards" in refusal(g, "l 1")


# -- "cards ... are not considered consecutive unless they occupy a physically adjacent position" -----
def test_cards_that_are_not_adjacent_are_not_summed():
    # 3 and 7 make ten, but the 9 lies between them; the ends of the line are not adjacent either.
    g = line("3C 9D 7S", stock="2C")
    assert legal(g) == {"d"}
    assert "(piles.line.discard, clause tens)" in refusal(g, "l 1-3")  # 3 + 9 + 7 = 19
    g = line("6C 9D 8H 4S", stock="2C")  # 6 ... 4 at the two ends make ten, but they are not adjacent
    assert legal(g) == {"d"}


# -- "After this has been repeated until no more discards are possible, draw a card" ----------------
def test_a_possible_discard_is_compulsory_the_draw_is_refused():
    g = line("3C 7D 2S", stock="5C 6D")
    assert legal(g) == {"l 1-2"}
    assert refusal(g, "d") == ("a compulsory move comes first: runs adding up to 10, 20 or 30 are discarded before "
                               "the next card is drawn (compulsory.discard-first), e.g. `l 1-2`")


def test_discards_repeat_and_the_cards_after_a_discard_close_up():
    # 5 4 6 2 8: 4 + 6 = 10, 2 + 8 = 10 and 4 + 6 + 2 + 8 = 20; take 4 6, and 5 closes up to 2 8.
    g = line("5C 4D 6S 2H 8C", stock="KC")
    assert legal(g) == {"l 2-3", "l 4-5", "l 2-5"}
    play(g, "l 2-3")
    assert pile(g, "l") == ["5C", "2H", "8C"]
    assert legal(g) == {"l 2-3"}
    play(g, "l 2-3")
    assert pile(g, "l") == ["5C"]
    assert legal(g) == {"d"}


def test_when_runs_overlap_the_player_chooses_which():
    # 3 7 3: both 3 7 and 7 3 make ten; either may go, and each choice leaves a different line.
    g = line("3C 7D 3S", stock="KC")
    assert legal(g) == {"l 1-2", "l 2-3"}
    play(g, "l 1-2")
    assert pile(g, "l") == ["3S"]
    g = line("3C 7D 3S", stock="KC")
    play(g, "l 2-3")
    assert pile(g, "l") == ["3C"]


def test_the_drawn_card_goes_to_the_right_end_of_the_line():
    g = line("9C 9D", stock="5H 2C")
    play(g, "d")
    assert pile(g, "l") == ["9C", "9D", "2C"]
    assert legal(g) == {"l 1-3"}  # 9 + 9 + 2 = 20


def test_a_discard_in_the_middle_is_undone_and_redone_exactly():
    g = line("5C 4D 6S 2H", stock="KC")
    play(g, "l 2-3")
    assert pile(g, "l") == ["5C", "2H"]
    g.undo()
    assert pile(g, "l") == ["5C", "4D", "6S", "2H"] and pile(g, "x") == []
    g.redo()
    assert pile(g, "l") == ["5C", "2H"] and pile(g, "x") == ["4D", "6S"]


# -- "The game continues until all cards are dealt or discarded, or when no more sets can be collected" --
def test_the_game_is_won_when_every_card_is_discarded():
    deck = rules().deck
    everything = [deck.ascii_name(c) for c in range(deck.size)]
    last = ["3C", "7D"]
    rest = " ".join(c for c in everything if c not in last)
    g = line(" ".join(last), discard=rest)
    assert g.status().outcome == "playing"
    play(g, "l 1-2")
    assert g.status().outcome == "won" and g.score() == 0


def test_the_game_is_lost_when_the_stock_is_empty_and_no_run_adds_up():
    g = line("9C 9D 5S")
    assert g.status().outcome == "lost"
    assert g.score() == 3, "the score is the cards left"


def test_the_committed_winning_deal_is_won_in_a_real_process():
    win_script_wins(NAME, won_line("Decade"))


# -- an independent implementation of the same game, on the same deals ----------------------------------
VALUE = {"A": 1, "J": 10, "Q": 10, "K": 10}


def reference_outcome(drawn: list[str]) -> int:
    """Cards left when Decade is played on cards drawn in this order, always discarding the leftmost run
    that adds up to 10, 20 or 30 (the shortest of those starting there), and drawing only when none is left."""
    values = [VALUE.get(name[:-1]) or int(name[:-1]) for name in drawn]
    row, stock = values[:3], values[3:]
    while True:
        found = None
        for start in range(len(row)):
            for end in range(start + 2, len(row) + 1):
                if sum(row[start:end]) in (10, 20, 30):
                    found = (start, end)
                    break
            if found:
                break
        if found:
            del row[found[0]:found[1]]
        elif stock:
            row.append(stock.pop(0))
        else:
            return len(row)


def kallisti_outcome(seed: int) -> tuple[int, list[str], str]:
    from kallisti.interpreter.game import Game

    g = Game(rules(), seed=seed)
    deck = g.deck
    drawn = pile(g, "l") + [deck.ascii_name(c) for c in reversed(g.state.piles[g.rules.pile_of_tag["s"]])]
    while True:
        moves = g.legal_moves()
        if not moves:
            break
        discards = [m for m in moves if g.decode(m)[0] == "discard"]
        g.play(min(discards, key=lambda m: g.window(m)[1:]) if discards else moves[0])
    left = len(pile(g, "l")) + len(pile(g, "s"))
    assert left + len(pile(g, "x")) == deck.size
    return left, drawn, g.status().outcome


def test_kallisti_and_an_independent_implementation_agree_on_every_deal():
    outcomes = []
    for seed in range(1, 241):
        left, drawn, outcome = kallisti_outcome(seed)
        assert left == reference_outcome(drawn), f"seed {seed}"
        assert outcome == ("won" if left == 0 else "lost")
        outcomes.append(outcome)
    assert "won" in outcomes and "lost" in outcomes


# -- a variant by rule change --------------------------------------------------------------------------
def test_a_rule_change_edits_the_discard_rule_like_any_other():
    from kallisti.interpreter.amend import amend
    from kallisti.interpreter.game import Game

    changed = amend(rules().data, 'forbid line.discard "no pictures": any(c in cards: c.value == 10)').rules
    g = Game(changed, seed=1).arrange({"l": "KC QD 3S 7H"})
    assert legal(g) == {"l 3-4"}
    assert refusal(g, "l 1-2").endswith("(piles.line.discard, clause no-pictures)")
