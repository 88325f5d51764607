"""Cards that change what a hand is worth: null cards, wild cards, devalued and shifted cards (`hands.nulls`,
`hands.wild`, `hands.devalue`, `hands.shift`), each judged from fixed hands, and wild cards checked against
substituting every card they may stand for."""

from __future__ import annotations

import functools
import random
from itertools import combinations_with_replacement

import pytest

from kallisti.interpreter.hands import MAX_STAND_INS, HandEvaluator, parse_hands
from kallisti.model.ruleset import load_ruleset

ONIONS = "[two-card-onion, three-card-onion, four-card-onion, five-card-onion, six-card-onion, seven-card-onion]"
NULLS = f"add hands.nulls.eights {{cards: [{{rank: 8}}], in: {ONIONS}}}"
WILD = "add hands.wild.eights {cards: [{rank: 8}], never: [{rank: Q, suit: spades}]}"


@functools.lru_cache(maxsize=None)
def onion():
    return load_ruleset("onion")


@functools.lru_cache(maxsize=None)
def rules(*changes: str):
    """The onion rules with the plain game's modifiers off and rule changes made, as a game makes them."""
    from kallisti.interpreter.amend import amend, compile_data

    data = amend(onion().data, "set modifiers {}", trial=False).data  # the hands alone, as the changes make them
    for text in changes:
        data = amend(data, text, trial=False).data
    return compile_data(data)


@functools.lru_cache(maxsize=None)
def evaluator(*changes: str) -> HandEvaluator:
    return HandEvaluator(rules(*changes))


def judge(text: str, *changes: str):
    ev = evaluator(*changes)
    return ev.evaluate(parse_hands(ev.deck, [text])[0])


def top(result) -> tuple[str | None, int, int]:
    """The best group's grouping, null cards and wild cards."""
    g = result.groups[0] if result.groups else None
    return (g.id, g.nulls, g.wild) if g else (None, 0, 0)


def showdown(texts: list[str], *changes: str) -> list[int]:
    ev = evaluator(*changes)
    hands = parse_hands(ev.deck, texts)
    return ev.showdown([ev.evaluate(h) for h in hands])


# -- null cards ------------------------------------------------------------------------------------
def test_a_null_eight_trumps_up_a_four_card_onion_into_a_five_card_onion():
    hand = "3S 4H 7C 7D 8S KD KC 10H 10S 9D"
    assert "four-card-onion" in [g.id for g in judge(hand).groups]
    assert top(judge(hand, NULLS)) == ("five-card-onion", 1, 0)


def test_four_null_eights_make_a_three_card_onion_a_seven_card_onion():
    assert top(judge("4S 7H 10C 8S 8H 8D 8C KD QC JH", NULLS)) == ("seven-card-onion", 4, 0)


def test_between_onions_of_as_many_cards_the_fewer_null_eights_wins():
    plain, trumped = "2S 3H 4C 5D 7S KH QS JS 10S 10H", "3S 5H 6C 7D 8S KD QC JH 10C 9H"
    assert top(judge(plain, NULLS))[:2] == ("five-card-onion", 0)
    assert top(judge(trumped, NULLS))[:2] == ("five-card-onion", 1)
    assert showdown([trumped, plain], NULLS) == [1]


def test_null_cards_join_only_the_groupings_named():
    # 8 + 2 + K does not make 20; as nothing, the eight would make K + Q a three-card bagel, which is no grouping.
    result = judge("8S KD QC", NULLS)
    assert [(g.id, g.nulls) for g in result.groups] == [("bagel", 0)]


# -- wild cards ------------------------------------------------------------------------------------
def test_a_wild_eight_stands_for_the_ace_of_a_pontoon():
    assert top(judge("KS 8H QD 8C 2C 3C 4D 5S 9S 9H", WILD)) == ("double-onion", 0, 2)


def test_a_wild_card_never_stands_for_a_card_the_rules_keep_from_it():
    lady = "add hands.groupings.lady-pair {rank: 500, cards: 2, when: \"all(c in cards: c.rank == Q and c.suit == spades)\"}"
    free = "add hands.wild.eights {cards: [{rank: 8}]}"
    assert top(judge("QS 8H", lady, free))[0] == "lady-pair"
    assert top(judge("QS 8H", lady, WILD))[0] != "lady-pair"


def _substituted_best(ev_plain: HandEvaluator, cards: list[int], deck, allowed) -> tuple:
    """The best ranks over every way of replacing the hand's eights by cards they may stand for: one card of each
    rank and suit family allowed (all the shipped conditions can tell apart), as a multiset for several eights."""
    eights = [i for i, c in enumerate(cards) if deck.ranks[deck.rank[c]] == "8"]
    reps = {}
    for k in sorted(allowed):
        card = next(c for c in range(deck.size) if deck.kind[c] == k)
        reps.setdefault((deck.rank[card], deck.family[card]), card)
    best = ()
    for pick in combinations_with_replacement(sorted(reps.values()), len(eights)):
        hand = list(cards)
        for i, r in zip(eights, pick):
            hand[i] = r
        best = max(best, ev_plain.evaluate(hand).ranks)
    return best


@pytest.mark.parametrize("seed", [1, 2])
def test_wild_cards_judged_set_by_set_equal_substituting_every_stand_in_in_the_whole_hand(seed):
    ev = evaluator(WILD)
    plain = evaluator()
    deck = ev.deck
    eights = [c for c in range(deck.size) if deck.ranks[deck.rank[c]] == "8"]
    others = [c for c in range(deck.size) if c not in eights]
    pick = random.Random(seed)
    allowed = ev.hand_rules.wild[0].stand_ins
    for _ in range(6):
        cards = pick.sample(eights, 1) + pick.sample(others, 9)
        assert ev.evaluate(cards).ranks == _substituted_best(plain, cards, deck, allowed)


def test_two_wild_cards_equal_substituting_every_pair_of_stand_ins():
    # Two eights among cards that make flushes and running flushes likely: the conditions judged part by part.
    ev, plain = evaluator(WILD), evaluator()
    cards = parse_hands(ev.deck, ["8S 8H 2C 3C 4C 5C 6C 7C 9C 10C"])[0]
    assert ev.evaluate(cards).ranks == _substituted_best(plain, cards, ev.deck, ev.hand_rules.wild[0].stand_ins)


@pytest.mark.parametrize("ties, winner", [("none", [0, 1]), ("fewer-wins", [1]), ("more-wins", [0])])
def test_wild_ties_decide_between_groups_of_equal_rank(ties, winner):
    with_wild, without = "KS 8H QD 8C 2C 3C 4D 5S 9S 9H", "KC AH QH AD 2S 3S 4H 5D 9D 9C"
    changes = (WILD,) if ties == "none" else (WILD, f"set hands.wild_ties {ties}")
    assert showdown([with_wild, without], *changes) == winner


def test_a_cripple_with_a_wild_limit_needs_no_more_wild_cards_than_the_onion_it_cripples():
    flush, great = "2C 3C 4C 5C 6C 7C 8D 9C 10C JC", "KS AS QS AH JH AD KD AC QC ASw"
    assert showdown([flush, great], WILD) == [0]  # the eight of diamonds stands for the eight of clubs
    assert showdown([flush, great], WILD, "set hands.cripples.nine-card.wild_limit true") == [1]


def test_eight_wild_eights_are_judged_within_a_bounded_number_of_tries():
    octavo = "set hands.groupings.octavo.enabled true"
    result = judge("8S 8H 8C 8D 8Sw 8St 8Cu 8Co 2C 3H", WILD, octavo)
    assert top(result)[0] == "octavo"  # tried first: the eights as themselves
    assert not result.complete  # some sets had more ways of standing in than MAX_STAND_INS
    assert result.steps < 40 * MAX_STAND_INS


# -- devalued cards ----------------------------------------------------------------------------------
LADY = "add hands.devalue.lady {cards: [{rank: A}], to: [1], count: 1, spare: [great-onion]}"


def test_one_ace_counting_only_one_breaks_a_double_onion():
    hand = "KS AH QD AC 2C 3C 4D 5S 9S 9H"
    assert top(judge(hand))[0] == "double-onion"
    devalued = judge(hand, LADY)
    assert [g.id for g in devalued.groups] == ["six-card-onion", "bagel"]  # A A 2 3 5 9, one ace counting one
    deck = evaluator(LADY).deck
    assert [(deck.name(c), deck.values[s]) for c, s in devalued.stand_ins] in ([("A♥", (1,))], [("A♣", (1,))])


def test_a_great_onion_is_spared_the_devalued_ace():
    assert top(judge("KS AS QS AH JH AD KD AC QC ASw", LADY))[0] == "great-onion"


def test_a_devaluation_reaches_a_wild_card_standing_for_the_cards_it_devalues():
    hand = "8S KD 8H QC 2C 3D 5S 9H 7C 4D"  # two wild eights standing for aces make a Double Onion
    assert top(judge(hand, WILD)) == ("double-onion", 0, 2)
    devalued = judge(hand, WILD, LADY)
    assert "double-onion" not in [g.id for g in devalued.groups] and devalued.stand_ins == ()
    deck = evaluator(WILD, LADY).deck
    assert [(deck.name(c), did) for c, did in devalued.wild_devalued] in ([("8♠", "lady")], [("8♥", "lady")])
    assert sum(g.wild for g in devalued.groups) == 2, "the devalued eight stays wild: it stands for another card"
    # One real ace and one wild eight: the player devalues the one that costs least, and still loses a pontoon.
    mixed = judge("AS KD 8H QC 2C 3D 5S 9H 7C 4D", WILD, LADY)
    assert "double-onion" not in [g.id for g in mixed.groups]
    assert top(judge("AS KD 8H QC 2C 3D 5S 9H 7C 4D", WILD)) == ("double-onion", 0, 1)


def test_a_devalued_wild_card_may_stand_for_any_other_card_as_before():
    zero_eights = "add hands.devalue.eights {cards: [{rank: 8}], to: [0]}"
    hand = "8S KD 8H QC 2C 3D 5S 9H 7C 4D"  # the eights may not count eight, but may still be aces
    assert top(judge(hand, WILD, zero_eights)) == ("double-onion", 0, 2)
    # ...but not an eight counting eight: 10 3 and an eight make 21 no more.
    assert "three-card-onion" in judge("8S 10C 3D", WILD).holds
    assert "three-card-onion" not in judge("8S 10C 3D", WILD, zero_eights).holds


SENDER = "add hands.devalue.sender {cards: [{rank: A}], to: [0], if_uses: [{rank: 8}]}"


def test_a_hand_that_uses_an_eight_has_its_aces_zeroed_so_the_player_leaves_the_eights_out():
    hand = "KS AH 5C 8D 8H 9S 9D 9H 9C 2S"
    assert [g.id for g in judge(hand).groups] == ["four-card-onion", "three-card-onion"]  # A 2 9 9, and 5 8 8
    devalued = judge(hand, SENDER)
    assert [g.id for g in devalued.groups] == ["four-card-onion"]  # 5 8 8 would zero the ace of A 2 9 9
    deck = evaluator(SENDER).deck
    assert sorted(deck.name(c) for c in devalued.unused) == ["5♣", "8♥", "8♦", "9♣", "9♥", "K♠"]


def test_a_zeroed_ace_cannot_trump_up_an_onion():
    zero = "add hands.devalue.all {cards: [{rank: A}], to: [0]}"
    hand = "3S 4H 7C 7D AS 9C 9D 9H 9S 2C"  # 3 4 7 7 is a four-card onion; a zeroed ace adds nothing to it
    assert top(judge(hand, zero))[0] == "four-card-onion"


# -- shifted cards -----------------------------------------------------------------------------------
SHIFT = "add hands.shift.a-tuin {points: 8, low: 1, high: 11}"


def test_a_shift_of_eight_points_makes_a_three_an_ace_and_a_nine_a_one():
    hand = "KS 3H 9C 2D 4S 6H 7C JD 5S 5H"
    result = judge(hand, SHIFT)
    deck = evaluator(SHIFT).deck
    shifted = {deck.name(c): (deck.ranks[deck.rank[s]], deck.values[s]) for c, s in result.stand_ins}
    assert shifted == {"3♥": ("A", (11,)), "9♣": ("A", (1,))}
    assert any(g.id == "two-card-onion" and sorted(deck.name(c) for c in g.cards) == ["3♥", "J♦"] for g in result.groups)
    assert result.keys > judge(hand).keys


def test_a_shift_is_the_players_choice_and_never_makes_a_hand_worse():
    pick = random.Random(4)
    deck = evaluator().deck
    for _ in range(5):
        cards = pick.sample(range(deck.size), 10)
        assert evaluator(SHIFT).evaluate(cards).keys >= evaluator().evaluate(cards).keys


# -- kallisti hand ------------------------------------------------------------------------------------
def test_kallisti_hand_judges_as_an_ordinary_round_and_with_the_modifiers_named():
    from typer.testing import CliRunner

    from kallisti.cli.app import app

    runner = CliRunner()
    plain = runner.invoke(app, ["hand", "onion", "3S 4H 7C 7D 8S KD KC 10H 10S 9D"])
    assert plain.exit_code == 0 and "rank 80, 1 null" in plain.output  # null eights are in play in every round
    wild = runner.invoke(app, ["hand", "onion", "-m", "wild-eights", "8S KD QC 8H 2C 3D 5S 9H 7C 4D", "--format", "json"])
    assert wild.exit_code == 0, wild.output
    top_group = __import__("json").loads(wild.output)["hands"][0]["groupings"][0]
    assert (top_group["id"], top_group["wild"], top_group["nulls"]) == ("double-onion", 2, 0)
    wrong = runner.invoke(app, ["hand", "onion", "-m", "wild-eight", "8S KD QC 8H 2C 3D 5S 9H 7C 4D"])
    assert wrong.exit_code == 1 and "<modifier 1>:1:1" in wrong.output and "did you mean 'wild-eights'" in wrong.output
