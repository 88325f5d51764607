"""kallisti's PRNG: a fixed, platform-independent stream per (seed, deal number, stream)."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from kallisti.interpreter import rng as rng_module
from kallisti.interpreter.rng import STREAM_DEAL, STREAM_STRATEGY, Rng
from kallisti.interpreter.state import shuffled_order
from kallisti.solver.strategies import make_strategy


def test_generator_is_splitmix64():
    # The published SplitMix64 sequence for the raw state 1234567: the generator is the
    # standard one, so the same numbers come out on every platform and Python version.
    rng = Rng(0)
    rng.state = 1234567
    assert [rng.next64() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


def test_first_outputs_for_seed_1_are_fixed():
    # Committed once: any change to how a seed becomes a state changes every deal.
    rng = Rng(1)
    assert [rng.next64() for _ in range(4)] == [
        11275111563351669259,
        1760446094677995638,
        2176034620171216103,
        18182291738492348865,
    ]
    rng = Rng(1)
    assert [rng.below(100) for _ in range(10)] == [59, 38, 3, 65, 0, 83, 70, 22, 29, 45]


def test_first_strategy_outputs_for_seed_42_are_fixed():
    rng = Rng(42, 0, STREAM_STRATEGY)
    assert [rng.next64() for _ in range(2)] == [308397942409078275, 16793862965180450553]


def test_shuffled_order_is_fixed():
    assert shuffled_order(10, 1) == [5, 1, 0, 8, 3, 4, 6, 7, 2, 9]
    assert shuffled_order(10, 1, 1) == [6, 5, 3, 7, 0, 9, 8, 2, 4, 1]


def test_outputs_are_64_bit():
    rng = Rng(7)
    for _ in range(1000):
        assert 0 <= rng.next64() < 1 << 64


def test_same_arguments_same_stream():
    a, b = Rng(123, 4, STREAM_DEAL), Rng(123, 4, STREAM_DEAL)
    assert [a.next64() for _ in range(50)] == [b.next64() for _ in range(50)]


@pytest.mark.parametrize("n", [1, 2, 3, 6, 7, 52, 104, 1000, (1 << 63) + 12345])
def test_below_is_in_range(n):
    rng = Rng(n)
    for _ in range(500):
        assert 0 <= rng.below(n) < n


def test_below_one_is_always_zero():
    rng = Rng(5)
    assert {rng.below(1) for _ in range(100)} == {0}


@pytest.mark.parametrize("n", [0, -1])
def test_below_refuses_an_empty_range(n):
    with pytest.raises(ValueError):
        Rng(1).below(n)


@pytest.mark.parametrize("n", [2, 6, 13, 52])
def test_below_is_roughly_uniform(n):
    draws = 300 * n
    rng = Rng(2024, 0, STREAM_DEAL)
    counts = Counter(rng.below(n) for _ in range(draws))
    assert set(counts) == set(range(n))
    # Each value expects 300 hits; a generous bound (about 6 standard deviations) that a
    # biased or broken reduction (modulo of a small range, off-by-one) would still break.
    for value in range(n):
        assert 200 <= counts[value] <= 400, (value, counts[value])


def test_below_uses_the_high_range_too():
    # With n just above 2**63, a plain `x % n` would make the lower half twice as likely;
    # the rejection step keeps both halves equally likely.
    n = (1 << 63) + 1
    rng = Rng(99)
    high = sum(rng.below(n) >= n // 2 for _ in range(2000))
    assert 850 <= high <= 1150


@pytest.mark.parametrize("size", [0, 1, 2, 10, 52, 104])
def test_shuffle_is_a_permutation(size):
    for seed in range(5):
        items = list(range(size))
        Rng(seed).shuffle(items)
        assert sorted(items) == list(range(size))
        assert sorted(shuffled_order(size, seed)) == list(range(size))


@pytest.mark.parametrize("size", [0, 1, 2, 3, 10, 52, 104, 300])
def test_shuffle_draws_as_below_draws_them(size, monkeypatch):
    """The draws a shuffle makes all at once are those `below` makes one by one: the same order and the same state
    after, for every seed; and where a draw might be refused (made to happen here by lowering the bound), the shuffle
    is made one by one, refusals and all, with the same result."""
    def one_by_one(rng, items):
        for i in range(len(items) - 1, 0, -1):
            j = rng.below(i + 1)
            items[i], items[j] = items[j], items[i]

    for seed in range(40):
        for number in (0, 7):
            fast, slow = Rng(seed, number), Rng(seed, number)
            a, b = list(range(size)), list(range(size))
            fast.shuffle(a)
            one_by_one(slow, b)
            assert a == b and fast.state == slow.state, (seed, number)
    monkeypatch.setattr(rng_module, "REFUSED_FROM", 1 << 63)  # about every other draw is then taken one by one
    taken = []
    monkeypatch.setattr(Rng, "_shuffle_one_by_one", lambda self, items, old=Rng._shuffle_one_by_one: (
        taken.append(len(items)), old(self, items)))
    for seed in range(20):
        fast, slow = Rng(seed), Rng(seed)
        a, b = list(range(size)), list(range(size))
        fast.shuffle(a)
        one_by_one(slow, b)
        assert a == b and fast.state == slow.state
    assert len(taken) == 20 or size < 52  # the way one by one was taken (always, with that many draws)


def test_shuffle_reaches_every_permutation_evenly():
    # Fisher-Yates must pick j in 0..i inclusive; a slip (0..i-1) gives only cyclic orders.
    counts = Counter()
    for seed in range(1200):
        items = [0, 1, 2]
        Rng(seed).shuffle(items)
        counts[tuple(items)] += 1
    assert set(counts) == set(itertools.permutations(range(3)))
    for perm, hits in counts.items():
        assert 130 <= hits <= 270, (perm, hits)


def test_shuffle_moves_cards_around():
    order = shuffled_order(104, 1)
    assert order != list(range(104))
    fixed = sum(1 for i, c in enumerate(order) if i == c)
    assert fixed < 10


def test_different_seeds_numbers_and_streams_differ():
    firsts = {}
    for seed in range(4):
        for number in range(4):
            for stream in (STREAM_DEAL, STREAM_STRATEGY, 3):
                rng = Rng(seed, number, stream)
                firsts[(seed, number, stream)] = tuple(rng.next64() for _ in range(3))
    assert len(set(firsts.values())) == len(firsts)


def test_deals_differ_by_seed_and_deal_number():
    orders = {tuple(shuffled_order(104, seed, number)) for seed in range(10) for number in range(3)}
    assert len(orders) == 30


def test_negative_and_huge_seeds_are_accepted():
    for seed in (-1, 2**64, 2**64 + 1, 10**30):
        assert sorted(shuffled_order(52, seed)) == list(range(52))
    # Seeds are taken modulo 2**64.
    assert shuffled_order(52, 2**64 + 5) == shuffled_order(52, 5)


def test_strategy_stream_is_not_the_deal_stream():
    deal = Rng(9, 0, STREAM_DEAL)
    strategy = Rng(9, 0, STREAM_STRATEGY)
    assert [deal.next64() for _ in range(5)] != [strategy.next64() for _ in range(5)]


def test_no_strategy_stream_replays_a_deal_stream():
    # A strategy seeded with any seed must not draw the numbers that shuffled some deal:
    # e.g. the strategy stream of seed 1 against the deal stream of seed 2.
    def first(rng):
        return rng.next64(), rng.next64()

    deals = {first(Rng(seed, 0, STREAM_DEAL)): seed for seed in range(20)}
    for seed in range(20):
        drawn = first(Rng(seed, 0, STREAM_STRATEGY))
        assert drawn not in deals, f"strategy seed {seed} replays the deal stream of seed {deals.get(drawn)}"


def test_using_a_strategy_does_not_change_later_deals():
    from kallisti.interpreter.game import Game
    from kallisti.model.ruleset import load_ruleset

    before = [shuffled_order(104, seed) for seed in range(1, 4)]
    rules = load_ruleset("forty-thieves")
    for name in ("random", "greedy"):
        for seed in range(1, 4):
            game = Game(rules, seed=seed)
            strategy = make_strategy(name, seed)
            for _ in range(60):
                moves = game.legal_moves()
                if not moves:
                    break
                game.play(strategy.choose(game, moves))
    after = [shuffled_order(104, seed) for seed in range(1, 4)]
    assert before == after
    assert [Game(rules, seed=seed).order for seed in range(1, 4)] == before


def test_deals_ignore_pythons_global_random():
    expected = shuffled_order(104, 17)
    random.seed(0)
    first = shuffled_order(104, 17)
    random.seed(12345)
    random.random()
    second = shuffled_order(104, 17)
    assert first == second == expected


def test_replayed_streams_answer_as_a_fresh_rng_within_their_bounds(monkeypatch):
    from kallisti.interpreter import rng as rng_module

    monkeypatch.setattr(rng_module, "_streams", {})
    monkeypatch.setattr(rng_module, "MAX_REPLAYED_STREAMS", 2)
    monkeypatch.setattr(rng_module, "MAX_REPLAYED_DRAWS", 300)  # past it the stream is read on, not kept
    sizes = random.Random(7)
    # Move counts as a playout asks for them, a few huge ones among them (whose draws are often rejected), and more
    # draws than are kept.
    asked = [sizes.randrange(1, 60) if sizes.random() < 0.97 else sizes.randrange(1, 1 << 63) for _ in range(700)]
    for seed, number in [(5, 1), (0x7A1A1, 3), (5, 1), (9, 2)]:
        fresh, first, second = Rng(seed, number, STREAM_STRATEGY), None, None
        first = rng_module.replayed_below(seed, number, STREAM_STRATEGY)
        second = rng_module.replayed_below(seed, number, STREAM_STRATEGY)  # reads what the first worked out
        for n in asked:
            expected = fresh.below(n)
            assert first(n) == expected == second(n)
        assert len(rng_module._streams) <= 2
        assert all(len(draws) <= 300 for draws in rng_module._streams.values())
    with pytest.raises(ValueError):
        rng_module.replayed_below(1)(0)
