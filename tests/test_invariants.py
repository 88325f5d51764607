"""Invariants of play as properties over every shipped game: any mix of moves, automatic steps, undo and redo
conserves the cards, replays to the same position from the seed alone, and unwinds to the deal; a whole match of
Discordian Solitaire between bots, rule changes and all, conserves the cards at every action and replays from its
log. The chips of the table game are guarded by tests/test_table.py."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kallisti.interpreter import amend
from kallisti.interpreter.game import Game
from kallisti.interpreter.match import Match, Seat
from kallisti.interpreter.save import match_from_data, match_to_data
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.bots import Bots
from test_conformance import GAMES, check_invariants, rules_of

PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # see conftest.py
ACTIONS = st.lists(st.tuples(st.sampled_from(["play", "play", "play", "auto", "undo", "redo"]), st.integers(0, 2**16)),
                   min_size=1, max_size=60)


def act(game: Game, action: str, pick: int, steps: list, undone: list) -> None:
    """One action on `game`, kept in `steps` (what stands) and `undone` (what redo would bring back)."""
    if action == "play":
        moves = game.legal_moves()
        if moves:
            m = moves[pick % len(moves)]
            game.play(m)
            steps.append(("play", m))
            undone.clear()
    elif action == "auto":
        if game.play_auto():
            steps.append(("auto", None))
            undone.clear()
    elif action == "undo":
        if game.undo():
            undone.append(steps.pop())
    elif game.redo():
        steps.append(undone.pop())


@pytest.mark.parametrize("name", GAMES)
@PROPERTY
@given(seed=st.integers(1, 2**31), actions=ACTIONS)
def test_any_mix_of_moves_undo_and_redo_conserves_cards_and_replays_from_the_seed(name, seed, actions):
    game = Game(rules_of(name), seed=seed)
    dealt = game.state.key()
    steps, undone = [], []
    for action, pick in actions:
        act(game, action, pick, steps, undone)
        check_invariants(game)
    final = game.state.key()

    # The steps that stand, replayed on a fresh deal of the same seed, reach the same position.
    again = Game(rules_of(name), seed=seed)
    for kind, m in steps:
        assert (again.play(m) if kind == "play" else again.play_auto()), f"{kind} {m} made nothing on replay"
    assert again.state.key() == final
    assert sorted(again.legal_moves()) == sorted(game.legal_moves())

    # Undo unwinds to the deal, and redo winds forward to the same position again (before the steps that were
    # undone at the end, which redo would bring back after them).
    while game.undo():
        check_invariants(game)
    assert game.state.key() == dealt
    for _ in steps:
        assert game.redo()
        check_invariants(game)
    assert game.state.key() == final


def _conserved(game: Game) -> None:
    cards = sorted(c for pile in game.state.piles for c in pile)
    assert cards == list(range(game.deck.size)), "a card was lost or duplicated"


@pytest.mark.parametrize("seed", [3, 8])
def test_a_match_between_bots_conserves_cards_at_every_action_and_replays_from_its_log(seed):
    rules = load_ruleset("discordian")
    match = Match(rules, [Seat("bot", strategy="greedy"), Seat("bot", strategy="random")], seed)
    actions = []

    def heard(seat, what, detail):
        actions.append(what)
        if match.game is not None:  # between turns there is no table
            _conserved(match.game)

    Bots(match).act(heard)
    assert match.waiting().what == "over"
    assert actions.count("move") > 20 and "player-x" in actions
    again = match_from_data(json.loads(json.dumps(match_to_data(match))))
    assert again.events == match.events and again.totals == match.totals and again.result == match.result
    assert [amend.data_key(again.rules_for(s).data) for s in (0, 1)] == [amend.data_key(match.rules_for(s).data)
                                                                         for s in (0, 1)]
