"""The .rules syntax for hands (groupings and cripples), suit families and window discards: the data each
statement gives, its errors at line:column, and a .rules hand game that scores hands as its YAML twin."""

from __future__ import annotations

import pytest

from kallisti.errors import KallistiError
from kallisti.grammar.rules_front import parse_rules
from kallisti.grammar.rules_writer import to_rules
from kallisti.interpreter.hands import HandEvaluator, parse_hands
from kallisti.located import plain
from kallisti.model.ruleset import load_ruleset

HAND_GAME = """\
game: Pairs and Runs
deck: 1 pack, value A 1 or 11, value J 10, value Q 10, value K 10
hands: 5 cards, budget 5000
grouping pair rank 10: 2 cards when all(c in cards: c.rank == cards.bottom.rank)  "two of a rank"
grouping two-pairs rank 20 named "two pairs": 2 of pair
grouping run rank 30: 3 to 5 cards when consecutive(cards)
grouping blackjack rank 40 off: 2 cards when 21 in totals(cards)
grouping five-run: 5 cards when consecutive(cards) and same_family(cards)
cripple straight-flush rank 1: five-run beats two-pairs or run  "a straight flush beats pairs and runs"
"""

HAND_GAME_YAML = """\
game: Pairs and Runs
deck:
  packs: 1
  values: {A: [1, 11], J: 10, Q: 10, K: 10}
hands:
  size: 5
  budget: 5000
  groupings:
    pair: {rank: 10, cards: 2, when: "all(c in cards: c.rank == cards.bottom.rank)", says: two of a rank}
    two-pairs: {rank: 20, name: two pairs, of: pair, count: 2}
    run: {rank: 30, cards: [3, 5], when: consecutive(cards)}
    blackjack: {rank: 40, enabled: false, cards: 2, when: 21 in totals(cards)}
    five-run: {cards: 5, when: consecutive(cards) and same_family(cards)}
  cripples:
    straight-flush: {by: five-run, beats: [two-pairs, run], rank: 1, says: a straight flush beats pairs and runs}
"""


def test_hands_statements_give_the_data_of_the_yaml():
    data = plain(parse_rules(HAND_GAME))
    hands = data["hands"]
    assert (hands["size"], hands["budget"]) == (5, 5000)
    assert hands["groupings"]["pair"] == {"rank": 10, "cards": 2, "when": "all(c in cards: c.rank == cards.bottom.rank)",
                                          "says": "two of a rank"}
    assert hands["groupings"]["two-pairs"] == {"rank": 20, "name": "two pairs", "of": "pair", "count": 2}
    assert hands["groupings"]["run"]["cards"] == [3, 5]
    assert hands["groupings"]["blackjack"]["enabled"] is False
    assert "rank" not in hands["groupings"]["five-run"]
    assert hands["cripples"]["straight-flush"] == {"by": "five-run", "beats": ["two-pairs", "run"], "rank": 1,
                                                   "says": "a straight flush beats pairs and runs"}
    assert load_ruleset("p.rules", text=HAND_GAME).plain() == load_ruleset("p.yaml", text=HAND_GAME_YAML).plain()


def test_the_writer_gives_back_the_statements():
    data = parse_rules(HAND_GAME)
    assert plain(parse_rules(to_rules(data))) == plain(data)
    assert "grouping two-pairs rank 20 named \"two pairs\": 2 of pair" in to_rules(data)


@pytest.mark.parametrize("hand, best", [
    ("5H 5S 6C 9D KH", ["pair"]),
    ("5H 5S 6C 6D KH", ["two-pairs"]),
    ("3H 4S 5C 9D 9H", ["run", "pair"]),
])
def test_a_rules_hand_game_scores_hands_like_its_yaml_twin(hand, best):
    for rules in (load_ruleset("p.rules", text=HAND_GAME), load_ruleset("p.yaml", text=HAND_GAME_YAML)):
        result = HandEvaluator(rules).evaluate(parse_hands(rules.deck, [hand])[0])
        assert [g.id for g in result.groups] == best


def test_suit_family_and_window_discards():
    data = plain(parse_rules("""\
game: Discards
deck: suit swords black symbol Sw letter W family clubs, suit clubs black
line: 1 line pile, discard require tens: sum(c in cards: c.value) == 10, discard to out
out: 1 discard pile
compulsory must: discard from line
win when out.size == deck.size
"""))
    assert data["deck"]["suits"][0]["family"] == "clubs"
    assert data["piles"]["line"]["discard"] == {"id": "tens", "require": "sum(c in cards: c.value) == 10"}
    assert data["piles"]["line"]["discard_to"] == "out"
    assert data["compulsory"] == [{"id": "must", "kind": "discard", "from": "line"}]
    assert plain(parse_rules(to_rules(parse_rules(to_rules(data))))) == data


@pytest.mark.parametrize("line, code, column, hint", [
    ("grouping run rank 30: 5 to 3 cards when consecutive(cards)", "grouping-size", 23, "3 to 5"),
    ("grouping run rank 30: cards when consecutive(cards)", "rules-syntax", 23, None),
    ("grouping run rank 30: 3 cards", "rules-syntax", 30, None),
    ("cripple sf rank 1: five-run", "rules-syntax", 28, "beats"),
    ("hands: 5 cards, budget lots", "rules-syntax", 24, None),
])
def test_errors_in_hand_statements_point_at_their_place(line, code, column, hint):
    with pytest.raises(KallistiError) as exc:
        parse_rules(f"game: Bad\n{line}\n", source="bad.rules")
    first = exc.value.findings[0]
    assert first.code == code
    assert (first.pos.source, first.pos.line, first.pos.column) == ("bad.rules", 2, column)
    if hint:
        assert hint in first.message + (first.suggestion or "")


def test_a_grouping_given_twice_is_refused_at_its_second_id():
    with pytest.raises(KallistiError) as exc:
        parse_rules("game: Bad\ngrouping pair rank 1: 2 cards when true\ngrouping pair rank 2: 2 cards when true\n", source="b.rules")
    first = exc.value.findings[0]
    assert first.code == "duplicate-key" and (first.pos.line, first.pos.column) == (3, 10)
