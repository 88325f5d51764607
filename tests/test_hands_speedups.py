"""The partition search's speed-ups (sets skipped by what conditions need, answers kept by what conditions read) give
the same evaluation as judging every set by its cards' kinds: seeded random hands under Cripple Mr Onion's plain
rules, null eights, wild eights and the modifiers that devalue, shift and read the whole hand."""

from __future__ import annotations

import functools
import random
from dataclasses import replace
from math import inf

import pytest

from kallisti.interpreter import hands as hands_module
from kallisti.interpreter.hand_needs import needs_of, order_free
from kallisti.interpreter.hands import HandEvaluator, parse_hands
from kallisti.model.modifiers import overlaid
from kallisti.model.ruleset import load_ruleset


@functools.lru_cache(maxsize=None)
def onion():
    return load_ruleset("onion")


@functools.lru_cache(maxsize=None)
def variant(*modifiers: str):
    """The onion rules with the named modifiers' changes (as benchmarks/run.py makes its variants)."""
    return overlaid(onion(), list(modifiers))


def changed(*changes: str):
    from kallisti.interpreter.amend import amend, compile_data

    data = onion().data
    for text in changes:
        data = amend(data, text).data
    return compile_data(data)


def dealt(rules, count: int, sizes: tuple[int, ...], seed: int, eight: bool = False) -> list[list[int]]:
    """`count` random hands of the given sizes in turn; with `eight`, each holds an eight (a null or wild card)."""
    deck = rules.deck
    rng = random.Random(seed)
    eights = [c for c in range(deck.size) if deck.ranks[deck.rank[c]] == "8"]
    out = []
    for i in range(count):
        size = sizes[i % len(sizes)]
        if eight:
            first = rng.choice(eights)
            out.append([first] + rng.sample([c for c in range(deck.size) if c != first], size - 1))
        else:
            out.append(rng.sample(range(deck.size), size))
    return out


def assert_same_evaluations(rules, hands, monkeypatch) -> None:
    """Each hand's evaluation with the speed-ups equals the one judging every set (the steps taken apart), each
    evaluator starting with no remembered answers."""
    monkeypatch.setattr(hands_module, "_JUDGED", {})
    reference = HandEvaluator(rules, prune=False)
    expected = [reference.evaluate(h) for h in hands]
    monkeypatch.setattr(hands_module, "_JUDGED", {})
    fast = HandEvaluator(rules)
    for h, want in zip(hands, expected):
        got = fast.evaluate(h)
        assert replace(got, steps=0) == replace(want, steps=0), [fast.deck.name(c) for c in h]
        assert got.complete


# Hands of five to eight cards keep the reference search quick; one in fifteen has the full ten cards.
SIZES = (5, 6, 7, 8, 6, 7, 8, 5, 7, 6, 8, 5, 6, 7, 10)


@pytest.mark.parametrize("modifiers, count, eight", [
    ((), 200, False),
    (("null-eights",), 150, True),
    (("wild-eights",), 100, True),
])
def test_the_speed_ups_give_the_same_evaluations_on_random_hands(modifiers, count, eight, monkeypatch):
    rules = variant(*modifiers)
    assert_same_evaluations(rules, dealt(rules, count, SIZES, seed=24, eight=eight), monkeypatch)


@pytest.mark.parametrize("modifiers", [
    ("wild-eights", "lady-wild"),  # one ace devalued, a wild eight standing for an ace devalued too
    ("null-eights", "sender"),  # aces zeroed in a hand that uses an eight
    ("a-tuin",),  # eight points shifted from one card to another
    ("death",),  # a Double Onion that reads the whole hand
    ("wild-eights", "death-wild"),
    ("archchancellor",),  # eights counting nothing
])
def test_the_speed_ups_give_the_same_evaluations_under_modifiers_that_change_cards(modifiers, monkeypatch):
    rules = variant(*modifiers)
    assert_same_evaluations(rules, dealt(rules, 40, (5, 6, 7), seed=7, eight="eights" in " ".join(modifiers)),
                            monkeypatch)


@pytest.mark.parametrize("modifiers", [("death",), ("wild-eights", "death-wild")])
def test_the_speed_ups_give_the_same_evaluations_of_hands_rich_in_aces_and_pictures(modifiers, monkeypatch):
    # Death's Double and Triple Onions count aces and pictures, and ask the hand for pictures: hands that have them.
    rules = variant(*modifiers)
    deck = rules.deck
    rich = [c for c in range(deck.size) if deck.ranks[deck.rank[c]] in ("A", "J", "Q", "K", "8")]
    rng = random.Random(11)
    hands = [rng.sample(rich, 6) + rng.sample([c for c in range(deck.size) if c not in rich], 2) for _ in range(30)]
    assert_same_evaluations(rules, hands, monkeypatch)


def test_cards_of_negative_value_are_judged_without_the_totals_shortcut(monkeypatch):
    rules = changed("add deck.values.2 -2", "add deck.values.3 [3, -3]")
    assert_same_evaluations(rules, dealt(rules, 40, (5, 6, 7), seed=3), monkeypatch)


def test_skipped_sets_save_most_of_the_search(monkeypatch):
    rules = onion()
    cards = parse_hands(rules.deck, ["2C 3S 5H 6D 7Sw 9St 10Cu JCo QC KS"])[0]
    steps = {}
    for prune in (False, True):
        monkeypatch.setattr(hands_module, "_JUDGED", {})
        steps[prune] = HandEvaluator(rules, prune=prune).evaluate(cards).steps
    assert steps[True] * 3 < steps[False]


# -- what the conditions need, read from their text ---------------------------------------------------------------
def test_a_total_asked_for_is_a_need_of_the_set():
    needs = needs_of("21 in totals(cards) and all(c in cards: c.value > 0)")
    assert needs.totals == (((21, 21),),) and needs.every == (1,) and not needs.same


def test_a_range_of_totals_is_read_from_the_comparisons_of_any():
    needs = needs_of("any(t in totals(cards): t >= 16 and t <= 21) and same_family(cards)")
    assert needs.totals == (((16, 21),),) and needs.same == ("family",)
    assert needs_of("any(t in totals(cards): 16 < t)").totals == (((17, inf),),)
    assert needs_of("any(t in totals(cards): not (t == 3 or t >= 10 and t != 12))").totals == (((0, 2), (4, 9), (12, 12)),)


@pytest.mark.parametrize("text", [
    "not (21 in totals(cards))",  # a total not wanted says nothing a set must hold
    "21 in totals(cards) or count == 5",  # one side of an `or` needs nothing
    "any(t in totals(cards): t % 2 == 0)",  # arithmetic on the total is not read
    "all(c in cards: c.rank == cards.top.rank)",  # a test of one card reading the others
])
def test_what_is_not_read_with_certainty_is_no_need(text):
    assert not needs_of(text)


def test_a_part_reading_only_the_hand_is_judged_once_for_the_hand():
    needs = needs_of("42 in totals(cards) and count(c in hand: c.rank in [J, Q, K]) >= 3 and count == 4")
    assert needs.fixed == (1,) and needs.totals == (((42, 42),),)


def test_a_count_of_cards_passing_a_test_is_read_with_the_test_of_one_card():
    needs = needs_of("count(c in cards: c.rank == A) == 2 and 1 < count(x in cards: x.rank in [J, Q, K])")
    assert needs.counts == (("all(c in cards: c.rank == A)", "rel_eq", 2),
                            ("all(x in cards: x.rank in [J, Q, K])", "rel_gt", 1))
    assert not needs_of("count(c in cards: c.rank == A) == count - 1").counts  # compared with the set's size


def test_an_or_of_totals_needs_either():
    assert needs_of("20 in totals(cards) or 21 in totals(cards)").totals == (((20, 21),),)
    assert needs_of("7 in totals(cards) or 21 in totals(cards)").totals == (((7, 7), (21, 21)),)


@pytest.mark.parametrize("text, free", [
    ("21 in totals(cards) and all(c in cards: c.value > 0)", True),
    ("same_family(cards) and consecutive(cards) and count(c in hand: c.rank == 7) >= 1", True),
    ("all(c in cards: c.rank == cards.top.rank)", False),  # the list's order
    ("descending(cards)", False),
    ("sum(c in cards: c.value * 2) > 20", False),  # a product may fail at run time on one card
])
def test_conditions_that_read_cards_in_any_order_are_told_apart(text, free):
    assert order_free(text) is free
