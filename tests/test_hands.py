"""Cripple Mr Onion's hands: every grouping of the seed, the best partition against an exhaustive oracle,
the showdown with crippling, rule changes to values and ranks, the search budget, and `kallisti hand`."""

from __future__ import annotations

import functools
import itertools
import json
import random

import pytest
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.interpreter.hands import HandEvaluator, parse_hands
from kallisti.model.ruleset import load_ruleset

runner = CliRunner()


@functools.lru_cache(maxsize=None)
def onion():
    return load_ruleset("onion")


@functools.lru_cache(maxsize=None)
def evaluator():
    return HandEvaluator(onion())


def hand(text: str, rules=None) -> list[int]:
    return parse_hands((rules or onion()).deck, [text])[0]


def best(text: str, rules=None):
    ev = evaluator() if rules is None else HandEvaluator(rules)
    return ev.evaluate(hand(text, rules))


def names(result) -> list[str]:
    return [g.id for g in result.groups]


def changed(*changes: str):
    """The onion rules after rule changes, made as a game makes them (`set hands.cripples.ten-card.enabled true`)."""
    from kallisti.interpreter.amend import amend, compile_data

    data = onion().data
    for text in changes:
        data = amend(data, text).data
    return compile_data(data)


# -- an independent statement of the seed's groupings, in plain Python ----------------------------
# Cards are (rank 1..13, family letter); the ace counts 1 or 11, tens and pictures 10.
FAMILY = {"C": "C", "Sw": "C", "S": "S", "St": "S", "H": "H", "Cu": "H", "D": "D", "Co": "D"}
RANK = {"A": 1, **{str(n): n for n in range(2, 11)}, "J": 11, "Q": 12, "K": 13}
SEED_RANKS = {
    "bagel": 10, "double-bagel": 11, "triple-bagel": 12, "lesser-bagel": 13, "great-bagel": 14,
    "two-card-onion": 20, "broken-flush": 30, "three-card-onion": 40, "flush": 50, "four-card-onion": 60,
    "broken-royal": 70, "five-card-onion": 80, "royal": 90, "six-card-onion": 100, "seven-card-onion": 120,
    "double-onion": 130, "triple-onion": 140, "lesser-onion": 150, "great-onion": 160,
}


def oracle_card(name: str) -> tuple[int, str]:
    for cut in (1, 2):
        if name[:-cut] in RANK and name[-cut:] in FAMILY:
            return RANK[name[:-cut]], FAMILY[name[-cut:]]
    raise ValueError(name)


SEED_VALUES = {r: ((1, 11) if r == 1 else (min(r, 10),)) for r in range(1, 14)}
VALUES = dict(SEED_VALUES)  # what the oracle counts; a test of changed values changes it for its run


def sums(cards) -> set[int]:
    totals = {0}
    for r, _ in cards:
        options = VALUES[r]
        totals = {t + v for t in totals for v in options}
    return totals


def pairs_into(cards, count: int, is_pair) -> bool:
    """Whether `cards` split into exactly `count` disjoint pairs that each satisfy `is_pair`."""
    if len(cards) != 2 * count:
        return False
    if not cards:
        return True
    first, rest = cards[0], cards[1:]
    return any(is_pair((first, other)) and pairs_into(rest[:i] + rest[i + 1:], count - 1, is_pair)
               for i, other in enumerate(rest))


def is_bagel(two) -> bool:
    return 20 in sums(two)


def is_pontoon(two) -> bool:
    ranks = sorted(r for r, _ in two)
    return ranks[0] == 1 and ranks[1] >= 11


def oracle_groupings(cards) -> set[str]:
    """Every ranked grouping the set of cards forms as one group, by the seed's definitions."""
    n, found = len(cards), set()
    totals = sums(cards)
    ranks = sorted(r for r, _ in cards)
    families = [f for _, f in cards]
    onion_sizes = {2: "two-card-onion", 3: "three-card-onion", 4: "four-card-onion", 5: "five-card-onion",
                   6: "six-card-onion", 7: "seven-card-onion"}
    if 21 in totals and n in onion_sizes:
        found.add(onion_sizes[n])
    if n == 2 and is_bagel(cards):
        found.add("bagel")
    if n >= 3 and any(16 <= t <= 21 for t in totals):
        if len(set(families)) == 1:
            found.add("flush")
        elif max(families.count(f) for f in families) == n - 1:
            found.add("broken-flush")
    if ranks == [6, 7, 8]:
        found.add("broken-royal")
    if ranks == [7, 7, 7]:
        found.add("royal")
    for count, name in ((2, "double"), (3, "triple"), (4, "lesser"), (5, "great")):
        if pairs_into(list(cards), count, is_bagel):
            found.add(f"{name}-bagel")
        if pairs_into(list(cards), count, is_pontoon):
            found.add(f"{name}-onion")
    return found


def oracle_best(texts: list[str], ranks: dict | None = None) -> tuple[int, ...]:
    """The best ranks, highest first, over every set partition of the hand (each block a grouping or unused cards).

    Blocks are chosen by their lowest card, so each partition is reached once; the memo on the cards
    left makes the search of all of them fast, and is sound because adding a grouping to two rankings
    keeps their order.
    """
    cards = [oracle_card(t) for t in texts]
    n = len(cards)
    rank_of = {}
    for mask in range(1, 1 << n):
        kinds = oracle_groupings([cards[i] for i in range(n) if mask >> i & 1])
        if kinds:
            rank_of[mask] = max((ranks or SEED_RANKS)[k] for k in kinds)

    @functools.lru_cache(maxsize=None)
    def solve(left: int) -> tuple[int, ...]:
        if not left:
            return ()
        low = left & -left
        answer = solve(left & ~low)  # the lowest card unused
        rest = left & ~low
        sub = rest
        while True:  # every block holding the lowest card
            block = sub | low
            if block in rank_of:
                option = tuple(sorted((rank_of[block],) + solve(left & ~block), reverse=True))
                answer = max(answer, option)
            if not sub:
                break
            sub = (sub - 1) & rest
        return answer

    return solve((1 << n) - 1)


def every_partition(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for smaller in every_partition(rest):
        yield [[first]] + smaller
        for i in range(len(smaller)):
            yield smaller[:i] + [[first] + smaller[i]] + smaller[i + 1:]


def test_the_oracle_s_memo_agrees_with_listing_every_set_partition():
    texts = "2C AH 7S 7H 7Cu KS AD QSt".split()  # 4140 set partitions of eight cards
    cards = [oracle_card(t) for t in texts]
    best_ranks = ()
    for partition in every_partition(list(range(len(cards)))):
        ranks = []
        for block in partition:
            kinds = oracle_groupings([cards[i] for i in block])
            if kinds:
                ranks.append(max(SEED_RANKS[k] for k in kinds))
        best_ranks = max(best_ranks, tuple(sorted(ranks, reverse=True)))
    assert best_ranks == oracle_best(texts)
    assert best_ranks[0] == SEED_RANKS["double-onion"]


def test_the_shipped_ranks_are_the_seed_s_order():
    groupings = onion().hands.groupings
    assert {gid: g.rank for gid, g in groupings.items() if g.rank is not None and g.enabled} == SEED_RANKS


# -- the seed's example ---------------------------------------------------------------------------
def test_2234467KKA_is_a_six_card_onion_then_a_three_card_onion_not_the_seed_s_sorting():
    result = best("2C 2D 3S 4H 4C 6H 7C KS KD AS")
    assert result.complete
    assert names(result) == ["six-card-onion", "three-card-onion"]
    deck = onion().deck
    assert sorted(deck.ascii_name(c) for c in result.groups[0].cards) == sorted("2C 2D 3S 4H 4C 6H".split())
    assert sorted(deck.ascii_name(c) for c in result.groups[1].cards) == sorted("KS KD AS".split())
    assert [deck.ascii_name(c) for c in result.unused] == ["7C"]
    assert result.ranks == oracle_best("2C 2D 3S 4H 4C 6H 7C KS KD AS".split())


def test_with_a_flush_among_the_same_ranks_the_flush_wins_its_place():
    # 7S KS AS: one suit, 7+10+1 = 18, a flush (50) that outranks the three-card onion K K A (40).
    result = best("2C 2D 3S 4H 4C 6H 7S KS KD AS")
    assert names(result) == ["six-card-onion", "flush"]
    assert sorted(onion().deck.ascii_name(c) for c in result.groups[1].cards) == ["7S", "AS", "KS"]
    assert result.ranks == oracle_best("2C 2D 3S 4H 4C 6H 7S KS KD AS".split())


# -- one hand per grouping ---------------------------------------------------------------------------
PER_GROUPING = {
    # grouping: a hand whose best partition is led by it (each checked against the oracle too)
    "bagel": "9C KCo 9D 9Co KCu QCo 8S 8D 9S 9Cu",
    "double-bagel": "KS KCu 9S 8Co KD 8H 8S 9H QSw QC",
    "triple-bagel": "JH 9Sw 10Cu 10St 9H 10S 9S 10Co KC QSt",
    "lesser-bagel": "JC 10St 9H 10C KC JSw 10Sw QC JH 9Co",
    "great-bagel": "QD JS KCu JD QCu KSw KS QSw QH 10St",
    "broken-flush": "9St 9H 8S KS 8St 8H 9Cu 8Co ASw 9S",
    "three-card-onion": "KH 8H 9C 8D 9Sw QC 8C KCu 8Co ASt",
    "flush": "9D 9Cu 9Sw QH 8Cu 9S 8Sw 9H ASw 9Co",
    "four-card-onion": "9S ASt 8C AH 8Co 9C 9Co 9D 9Sw KCu",
    "broken-royal": "8C 6Co 7Co ASt KCo KH 7C 8S 8D 8H",
    "five-card-onion": "8D 6Sw 8H 7S 2Co 4D 8Co 3C 7St 6D",
    "royal": "5S 7D 5Cu 5St 5D 2D 7Co 2H 7Sw 3Cu",
    "six-card-onion": "9C 9H 3Cu 3H 6S 8Sw 7C 5S AC ASw",
    "seven-card-onion": "5Co 2Co 3C 3D 2S 4C 6C 9S 2St 8Cu",
    "double-onion": "KH AH 9St 9Cu ASt 8Sw 8St 9H 9Sw QCo",
    "triple-onion": "ACo ASt QCo 9Co 8Co 8S ACu KCo QC KCu",
    "lesser-onion": "QS AC KC 8D 9St AH QC AS KSw ACo",
    "great-onion": "ASw KSw AC QCo QSw KSt JCu AS ASt ACo",
}
# A two-card onion (an ace and a ten-card) never leads: with any other card counting 10 it makes a
# three-card onion, and with two cards of one suit pair a broken flush. It ranks beneath others.
UNDER = {"two-card-onion": "AS QH 2Sw 7C 6S 6C 2St 5St 8H 6Co"}


@pytest.mark.parametrize("grouping", sorted(PER_GROUPING))
def test_each_grouping_of_the_seed_is_found_and_ranked(grouping):
    text = PER_GROUPING[grouping]
    result = best(text)
    assert result.complete
    assert result.groups and result.groups[0].id == grouping, names(result)
    assert result.ranks == oracle_best(text.split())


def test_a_two_card_onion_takes_its_place_beneath_higher_groupings():
    text = UNDER["two-card-onion"]
    result = best(text)
    assert "two-card-onion" in names(result) and names(result)[0] != "two-card-onion"
    (pair,) = [g for g in result.groups if g.id == "two-card-onion"]
    assert sorted(onion().deck.ascii_name(c) for c in pair.cards) == ["AS", "QH"]
    assert result.ranks == oracle_best(text.split())
    assert not {"double-onion", "triple-onion"} & set(names(result)), "a single pontoon is no multiple Onion"


def test_every_ranked_grouping_of_the_seed_has_a_hand():
    assert set(PER_GROUPING) | set(UNDER) == set(SEED_RANKS)


def test_a_wild_royal_counts_only_when_the_option_is_on():
    text = "8C 8D 8S 2H 3Sw 4St 9Cu 9Co 5D 6C"
    assert "wild-royal" not in names(best(text))
    on = changed("set hands.groupings.wild-royal.enabled true")
    assert names(best(text, on))[0] == "wild-royal"


def test_no_eight_card_onion():
    # 2+2+2+3+3+3+3+3 = 21 with eight cards: no grouping of eight; the best is a lower onion.
    result = best("2C 2D 2S 3H 3C 3Sw 3St 3Cu KCo KD")
    assert all(len(g.cards) != 8 for g in result.groups)
    assert result.ranks == oracle_best("2C 2D 2S 3H 3C 3Sw 3St 3Cu KCo KD".split())


# -- the exhaustive oracle over random hands ----------------------------------------------------------
def _random_texts(count: int, seed: int, ranks=None):
    deck = onion().deck
    rnd = random.Random(seed)
    pool = [c for c in range(deck.size) if ranks is None or deck.ranks[deck.rank[c]] in ranks]
    for _ in range(count):
        yield [deck.ascii_name(c) for c in rnd.sample(pool, 10)]


@pytest.mark.parametrize("seed, ranks", [(1, None), (2, None), (3, ("A", "J", "Q", "K", "9", "10")),
                                          (4, ("2", "3", "4", "5", "6", "7", "8")), (5, ("A", "6", "7", "8", "K"))])
def test_the_best_partition_equals_the_exhaustive_oracle_on_random_hands(seed, ranks):
    ev = evaluator()
    for texts in _random_texts(60, seed, ranks):
        result = ev.evaluate(hand(" ".join(texts)))
        assert result.complete
        assert result.ranks == oracle_best(texts), texts


# -- the showdown ---------------------------------------------------------------------------------------
def showdown(*texts, rules=None):
    rules = rules or onion()
    ev = HandEvaluator(rules)
    hands = parse_hands(rules.deck, list(texts))
    return ev.showdown([ev.evaluate(h) for h in hands])


def test_the_higher_best_grouping_wins():
    assert showdown("2C 2D 3S 4H 4C 6H 7C KS KD AS", PER_GROUPING["double-onion"]) == [1]


def test_a_tie_on_the_best_grouping_is_broken_by_the_next():
    # Both have a six-card onion; the first then a three-card onion (40), the second only a bagel (10).
    first = "2C 2D 3S 4H 4C 6H 7C KS KD AS"
    second = "2Sw 2St 3Cu 4Co 4D 6S QC QD 5H 5Sw"
    assert oracle_best(second.split())[0] == 100 and oracle_best(second.split())[1] < 40
    assert showdown(first, second) == [0]
    assert showdown(second, first) == [1]


def test_an_exact_tie_names_both_hands():
    assert showdown("2C 2D 3S 4H 4C 6H 7C KS KD AS", "2Sw 2St 3Cu 4Co 4Sw 6Cu 7Sw KSt KCo ACu") == [0, 1]


NINE_RUN = "AC 2C 3Sw 4C 5C 6Sw 7C 8C 9C 2H"  # A..9 of the club family, ace low
GREAT = "AD KD AS QH ASw JSt ACo KSw ASt QD"
LESSER = "AD KD AS QH ASw JSt ACo KSw 9H 2D"
TEN_RUN = "AC 2C 3Sw 4C 5C 6Sw 7C 8C 9C 10Sw"


def test_a_nine_card_running_flush_cripples_a_great_onion():
    result = best(NINE_RUN)
    assert "running-flush-9" in result.holds
    assert showdown(NINE_RUN, GREAT) == [1 - 1]
    assert showdown(GREAT, NINE_RUN) == [1]


def test_a_nine_card_running_flush_is_worth_nothing_without_a_great_onion_to_cripple():
    assert showdown(NINE_RUN, LESSER) == [1]
    assert oracle_best(NINE_RUN.split()) < oracle_best(LESSER.split())


def test_the_ten_card_running_flush_is_an_option_that_also_cripples_a_lesser_onion():
    assert showdown(TEN_RUN, LESSER) == [1], "off by default: a Lesser Onion wins"
    on = changed("set hands.cripples.ten-card.enabled true")
    assert showdown(TEN_RUN, LESSER, rules=on) == [0]
    assert showdown(LESSER, TEN_RUN, rules=on) == [1]
    assert showdown(TEN_RUN, GREAT, rules=on) == [0]
    assert showdown(TEN_RUN, LESSER) == [1], "the shipped rules are untouched"


def test_the_ten_card_running_flush_outcripples_a_nine_card_one():
    on = changed("set hands.cripples.ten-card.enabled true")
    nine = "AH 2H 3H 4Cu 5H 6H 7H 8H 9H 2D"
    assert showdown(nine, TEN_RUN, GREAT, rules=on) == [1]


# -- rule changes reach the evaluation -------------------------------------------------------------------
def test_changing_what_cards_are_worth_changes_the_best_partitions_as_the_oracle_says(monkeypatch):
    worth = changed("set deck.values.9 12")
    monkeypatch.setitem(VALUES, 9, (12,))
    ev = HandEvaluator(worth)
    differ = 0
    for texts in _random_texts(40, 8, ("A", "2", "3", "4", "9", "8", "K")):
        result = ev.evaluate(hand(" ".join(texts), worth))
        assert result.ranks == oracle_best(texts), texts
        differ += result.ranks != evaluator().evaluate(hand(" ".join(texts))).ranks
    assert differ, "nines worth 12 change some hands"


def test_changing_which_groupings_rank_above_which_changes_the_best_partition():
    text = "2C 2D 3S 4H 4C 6H 7S KS KD AS"
    assert names(best(text))[:2] == ["six-card-onion", "flush"]
    # Raise the three-card onion above the six-card onion: it now comes first, and the oracle agrees.
    promoted = changed("set hands.groupings.three-card-onion.rank 105")
    result = best(text, promoted)
    assert names(result)[0] == "three-card-onion"
    ranks = {**SEED_RANKS, "three-card-onion": 105}
    assert result.ranks == oracle_best(text.split(), ranks)
    ev = HandEvaluator(promoted)
    for texts in _random_texts(30, 9, ("2", "3", "4", "5", "6", "7", "8", "9")):
        assert ev.evaluate(hand(" ".join(texts))).ranks == oracle_best(texts, ranks), texts


# -- an arrangement judged as it lies (a hand laid down and not arranged again) --------------------------
@pytest.mark.parametrize("modifiers", [(), ("wild-eights", "lady-wild"), ("null-eights", "sender", "a-tuin")])
def test_the_best_partition_judged_as_it_lies_is_worth_what_it_was(modifiers):
    from kallisti.model.modifiers import overlaid

    ev = HandEvaluator(overlaid(onion(), list(modifiers)))
    for texts in _random_texts(12, 7, ("A", "K", "Q", "2", "3", "5", "6", "7", "8", "9")):
        cards = hand(" ".join(texts))
        best = ev.evaluate(cards)
        assert ev.judge_arrangement(cards, [g.cards for g in best.groups]).keys == best.keys, texts


def test_a_group_that_no_longer_holds_counts_nothing_and_the_rest_stands():
    cards = hand("AC KC AH KH 2S 3S 4D 5H 7C 9S")  # a Double Onion and a five-card onion
    laid = evaluator().evaluate(cards)
    assert [g.id for g in laid.groups] == ["double-onion", "five-card-onion"]
    sunk = changed("set deck.values.A 1")  # aces count one only: no pontoon is left
    judged = HandEvaluator(sunk).judge_arrangement(cards, [g.cards for g in laid.groups])
    assert [g.id for g in judged.groups] == ["five-card-onion"] and len(judged.unused) == 5
    assert HandEvaluator(sunk).evaluate(cards).keys > judged.keys, "arranged again, the aces would serve elsewhere"


# -- the budget ----------------------------------------------------------------------------------------
def test_a_spent_budget_still_gives_a_valid_partition_and_says_it_may_not_be_the_best():
    text = "AC KD AS QH ASw JSt ACo KC AH QD"
    ev = evaluator()
    small = ev.evaluate(hand(text), budget=50)
    assert not small.complete
    used = [c for g in small.groups for c in g.cards] + list(small.unused)
    assert sorted(used) == sorted(hand(text))
    full = ev.evaluate(hand(text))
    assert full.complete and full.ranks >= small.ranks
    assert small.steps <= 51


def test_cli_names_the_budget_and_the_steps_taken_apart():
    out = runner.invoke(app, ["hand", "onion", "--budget", "50", "AC KD AS QH ASw JSt ACo KC AH QD"])
    assert out.exit_code == 0, out.output
    assert "the search spent its budget of 50 steps (51 steps taken): a better partition may exist" in out.output
    data = json.loads(runner.invoke(app, ["hand", "onion", "--budget", "50", "AC KD AS QH ASw JSt ACo KC AH QD",
                                          "--format", "json"]).output)
    assert data["budget"] == 50 and data["hands"][0]["steps"] == 51 and data["hands"][0]["complete"] is False


def test_the_same_budget_always_gives_the_same_answer():
    ev = HandEvaluator(onion())
    text = "AC KD AS QH ASw JSt ACo KC AH QD"
    first = ev.evaluate(hand(text), budget=300)
    again = HandEvaluator(onion()).evaluate(hand(text), budget=300)
    assert (first.ranks, first.steps, first.complete) == (again.ranks, again.steps, again.complete)


# -- kallisti hand -------------------------------------------------------------------------------------
def test_cli_prints_the_best_partition_and_its_ranking():
    out = runner.invoke(app, ["hand", "onion", "2C 2D 3S 4H 4C 6H 7C KS KD AS"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert any(line.split()[:2] == ["six-card", "onion"] and "rank 100" in line for line in lines)
    assert any(line.split()[:2] == ["three-card", "onion"] and "rank 40" in line for line in lines)
    assert "ranking: six-card onion, three-card onion" in out.output
    assert any(line.split() == ["unused", "7♣"] for line in lines)


def test_cli_json():
    out = runner.invoke(app, ["hand", "onion", "2C 2D 3S 4H 4C 6H 7C KS KD AS", "--format", "json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    (h,) = data["hands"]
    assert [g["id"] for g in h["groupings"]] == ["six-card-onion", "three-card-onion"]
    assert h["ranks"] == [100, 40] and h["unused"] == ["7C"] and h["complete"] is True
    assert sorted(h["groupings"][1]["cards"]) == ["AS", "KD", "KS"]


def test_cli_showdown_names_the_winner_and_the_cripple():
    out = runner.invoke(app, ["hand", "onion", GREAT, NINE_RUN, "--format", "json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["winners"] == [1] and data["cripples"] == [False, True]
    text = runner.invoke(app, ["hand", "onion", GREAT, NINE_RUN])
    assert "winner: hand 2, by the cripple nine-card" in text.output


@pytest.mark.parametrize("args, code, where", [
    (["onion", "2C 2D 3S"], "hand-size", "<hand 1>:1:1"),
    (["onion", "2C 2D 3S 4H 4C 6H 7C KS KD XS"], "bad-card", "<hand 1>:1:28"),
    (["onion", "2C 2C 2C 3S 4H 4C 6H 7C KS KD"], "hand-too-many", "<hand 1>:1:4"),
    (["forty-thieves", "2C 2D 3S"], "no-hands", "forty-thieves"),
])
def test_cli_errors_exit_1_with_their_position(args, code, where):
    out = runner.invoke(app, ["hand", *args])
    assert out.exit_code == 1
    assert code in out.output and where in out.output


HANDS_ONLY = """\
game: Pairs
hands:
  size: 3
  groupings:
    pair: {rank: 1, cards: 2, when: "cards.bottom.rank == cards.top.rank"}
"""


@pytest.mark.parametrize("command", [["play"], ["simulate", "--deals", "2"]])
def test_a_game_that_only_scores_hands_is_not_played_and_says_so(command, tmp_path):
    path = tmp_path / "pairs.yaml"
    path.write_text(HANDS_ONLY, encoding="utf-8")
    out = runner.invoke(app, [command[0], str(path), *command[1:]], input="")
    assert out.exit_code == 1
    assert "no-piles" in out.output and "kallisti hand" in out.output
