"""A ruleset's score bounds, read off its score expression, and the shuffle choice that stops playing shuffles once the
rest could not change it."""

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


def test_the_shuffle_choice_is_the_same_with_fewer_shuffles_played(monkeypatch):
    optional = changed("set deck.shuffle optional")
    plays = []
    real_play_turn = search.play_turn

    def counted(*args, **kwargs):
        plays.append(1)
        return real_play_turn(*args, **kwargs)

    monkeypatch.setattr(search, "play_turn", counted)
    answers, counts = {}, {}
    for bounded in (True, False):
        if not bounded:
            monkeypatch.setattr(search, "score_bounds", lambda rules: None)  # every shuffle played, as before
        plays.clear()
        answers[bounded] = [search.choose_shuffle(optional, shuffled_order(52, seed), seed) for seed in range(1, 7)]
        counts[bounded] = len(plays)
    assert answers[True] == answers[False]
    assert counts[False] == 6 * (1 + search.SHUFFLE_SAMPLES)
    assert counts[True] < counts[False]
