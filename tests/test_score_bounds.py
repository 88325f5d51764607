"""A ruleset's score bounds, read off its score expression, and the shuffle choice: its shuffled deals played once per
ruleset, and none where the kept deal's score settles the choice within the bounds."""

from __future__ import annotations

import pytest

from kallisti.interpreter.state import shuffled_order
from kallisti.model.ruleset import load_ruleset
from kallisti.solver import search
from kallisti.solver.score_bounds import score_bounds

from shipped import changed as shipped_changed, shipped  # loaded and changed once per process


def discordian():
    return shipped("discordian")


def changed(text: str):
    """Discordian with one rule change."""
    return shipped_changed("discordian", text)


@pytest.mark.parametrize("change, bounds", [
    (None, (0, 52)),  # field.size: none to the whole pack
    ("set score field.size + stock.size", (0, 52)),  # distinct groups hold the pack between them
    ("set score field.size + field.size", (0, 104)),  # a group counted twice counts its cards twice
    ("set score field.size - 3", (-3, 49)),
    ("set score 0 - field.size", (-52, 0)),
    ("set score 7", (7, 7)),
    ("set score 2 * field.size", None),  # a product: not told by the form
])
def test_score_bounds_are_read_off_the_score_expression(change, bounds):
    rules = discordian() if change is None else changed(change)
    assert score_bounds(rules) == bounds


def test_a_two_pack_game_may_score_its_whole_deck():
    assert score_bounds(load_ruleset("forty-thieves")) == (0, 104)


@pytest.mark.parametrize("kept, total, left, minimize, decided", [
    (5, 19, 2, True, None),  # 20 against 19 more with two shuffles to play: either way yet
    (5, 21, 2, True, True),  # the shuffles already total more than 4 x 5: keeping is better
    (30, 8, 2, True, False),  # 120 against at most 8 + 2 x 52: shuffling is better
    (30, 8, 3, True, None),
    (30, 8, 2, False, True),  # maximising, the same pack is better kept
    (1, 0, 1, False, None),
])
def test_the_shuffles_left_decide_nothing_while_their_scores_could_turn_the_answer(kept, total, left, minimize,
                                                                                   decided):
    assert search._decided(4 * kept, total, left, (0, 52), minimize) is decided


def counted_plays(monkeypatch) -> list[int]:
    """The deals `search.play_turn` plays from now on (one item each), with no shuffled deals' measure kept."""
    plays = []
    real_play_turn = search.play_turn

    def counted(*args, **kwargs):
        plays.append(1)
        return real_play_turn(*args, **kwargs)

    monkeypatch.setattr(search, "play_turn", counted)
    monkeypatch.setattr(search, "_shuffled_totals", {})
    return plays


def test_the_shuffled_deals_are_played_once_per_ruleset_for_every_choice_made_under_it(monkeypatch):
    from kallisti.interpreter import amend

    optional = changed("set deck.shuffle optional")
    plays = counted_plays(monkeypatch)
    answers = [search.choose_shuffle(optional, shuffled_order(52, seed), seed) for seed in range(1, 7)]
    assert len(plays) == 6 + search.SHUFFLE_SAMPLES  # each choice its kept pack, and the shuffled deals once
    # A ruleset that plays every deal alike (an honour rule is no part of play) shares the measure.
    honouring = amend.amend(optional.data, 'honour bow at turn start: "Bow."', baseline=optional).rules
    assert search.choose_shuffle(honouring, shuffled_order(52, 1), 1) == answers[0]
    assert len(plays) == 7 + search.SHUFFLE_SAMPLES
    # Made afresh for each choice, the measure gives every answer as it was.
    afresh = []
    for seed in range(1, 7):
        search._shuffled_totals.clear()
        afresh.append(search.choose_shuffle(optional, shuffled_order(52, seed), seed))
    assert afresh == answers
    assert len(set(answers)) == 2  # some packs are kept and some shuffled: the comparison decides something


def test_a_kept_deal_whose_score_settles_the_choice_plays_no_shuffled_deal(monkeypatch):
    from kallisti.interpreter import amend

    optional = changed("set deck.shuffle optional")
    constant = amend.amend(optional.data, "set score 7", baseline=optional).rules  # every deal scores 7: (7, 7)
    plays = counted_plays(monkeypatch)
    assert search.choose_shuffle(constant, shuffled_order(52, 3), 3) is True  # a shuffle scores no worse
    assert len(plays) == 1
    monkeypatch.setattr(search, "score_bounds", lambda rules: None)  # bounds unknown: the shuffled deals are played
    assert search.choose_shuffle(constant, shuffled_order(52, 3), 3) is True
    assert len(plays) == 2 + search.SHUFFLE_SAMPLES
