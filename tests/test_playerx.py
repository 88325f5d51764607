"""The bot as Player X: nastiness measured by simulation, and the seed's trust policy."""

from __future__ import annotations

import pytest
from scenario import play_turn

from kallisti.interpreter import amend
from kallisti.interpreter.match import Match, Seat
from kallisti.model.ruleset import load_ruleset
from kallisti.solver import playerx

BLACK = 'forbid foundation.build "black on black": card.color == black and top.color == black'


@pytest.fixture(scope="module")
def rules():
    return load_ruleset("discordian")


def changed(rules, text):
    return amend.amend(rules.data, text, baseline=rules).rules


def test_nastiness_is_measured_by_its_effect_on_the_expected_score(rules):
    assert playerx.nastiness(rules, changed(rules, BLACK)) >= playerx.NASTY
    assert playerx.nastiness(rules, changed(rules, 'honour dance before deal: "Dance."')) == 0
    assert playerx.nastiness(rules, changed(rules, "set field.count 5")) < 0  # fewer cards left: it helps
    # a lower limit costs the target over the match even though no turn scores differently
    assert playerx.nastiness(rules, changed(rules, "set match.loses_at 200")) >= playerx.NASTY


def test_the_catalogue_offers_gentle_and_nasty_changes(rules):
    measured = [playerx.nastiness(rules, changed(rules, e.change)) for e in playerx.catalogue_for(rules)]
    assert any(0 <= n < playerx.NASTY for n in measured)
    assert any(n >= playerx.NASTY for n in measured)


def test_a_bot_is_gentle_with_a_gentle_opponent_then_answers_nastiness_then_forgives(rules):
    match = Match(rules, [Seat("ann"), Seat("bot", "greedy")], 3)
    play_turn(match)  # ann's turn 1; the bot is Player X and ann has not yet been Player X
    kind, text, cost = playerx.choose_action(match, 1)
    assert kind == "change" and 0 <= cost < playerx.NASTY
    match.pass_turn(1)
    play_turn(match)  # the bot's turn 2
    nasty = match.impose(0, BLACK)  # ann is nasty to the bot
    play_turn(match)  # ann's turn 3
    kind, text, cost = playerx.choose_action(match, 1)
    assert nasty.nastiness >= playerx.NASTY  # measured when the bot looked back
    assert kind == "change" and cost >= playerx.NASTY  # tit for tat
    match.impose(1, text)
    play_turn(match)  # the bot's turn 4
    match.pass_turn(0)  # ann makes peace
    play_turn(match)  # ann's turn 5
    assert playerx.choose_action(match, 1) == ("revoke", nasty.id)  # the bot takes back what hurts it


def test_a_bot_never_imposes_a_change_that_helps_its_opponent(rules):
    match = Match(rules, [Seat("ann"), Seat("bot", "greedy")], 8)
    for _ in range(3):
        play_turn(match)
        action = playerx.choose_action(match, 1)
        assert action[0] == "pass" or action[2] >= 0
        match.pass_turn(1)
        play_turn(match)
        match.pass_turn(0)
