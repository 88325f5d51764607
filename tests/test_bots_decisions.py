"""The bots' decisions at a match are a function of its seed: the caches and shortcuts that make them cheaper change
none of them.

The expected actions below were recorded by running the bots (before their search, Player X's weighing and the
checking of rule changes were made cheaper) on the seed given; they are not a judgement of good play. The point of
this test is that a speed-up changes no move, no shuffling choice and no rule change: should a deliberate change of
the bots' play alter them, record them again from the new code and say why in that change. The search's settled
values (docs/solver.md, "Settled values") may change a move where the budget cut lines short; they change none of
this match's. Recorded again on 2026-11-27, when a bot that keeps the pack came to play the line it played in its head
to choose so (`Bots._planned`) rather than search the same deal again: the moves of a kept deal changed, and no
shuffling choice or rule change did.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from kallisti.interpreter import amend
from kallisti.interpreter.match import Match, Seat
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.bots import Bots

SEED = 2
X_ACTIONS = 12  # the match is followed until Player X has acted this many times (about 630 actions)
# What the bots did as Player X, and their choices to shuffle, in order.
EXPECTED_CHOICES = [
    [1, "player-x", "imposes c1: set match.loses_at 210"],
    [0, "player-x", "revokes c1"],
    [1, "player-x", "imposes c2: set match.loses_at 220"],
    [0, "player-x", "revokes c2"],
    [1, "player-x", 'imposes c3: honour achy-breaky before deal: "You must do the Achy Breaky Dance before every deal."'],
    [0, "player-x", "imposes c4: set deck.shuffle optional"],
    [1, "player-x", "imposes c5: set deck.shuffle optional"],
    [1, "shuffle", "keeps the pack as it is"],
    [0, "player-x", "imposes c6: set deck.shuffle never"],
    [0, "shuffle", "shuffles"],
    [1, "player-x", "imposes c7: set deck.shuffle never"],
    [0, "player-x", "imposes c8: set score field.size + stock.size"],
    [1, "player-x", 'imposes c9: honour bow-to-player-x at turn start: "Bow to Player X before your turn."'],
    [0, "player-x", 'imposes c10: honour name-each-card before move: "Name each card aloud as you play it."'],
]
EXPECTED_ACTIONS = 630
# The SHA-256 of the JSON list of every action [seat, what, detail]: each move, acknowledgement, shuffle and change.
EXPECTED_DIGEST = "e9293577f3c6e4d7ac2f36b82122351cdb20403b296883e418087b88bc1ffdee"


class _Enough(Exception):
    """Raised by the listener to stop the bots once Player X has acted X_ACTIONS times."""


def _record(seed: int, x_actions: int) -> list[list]:
    """The bots' actions at a Discordian match of `seed`, until Player X has acted `x_actions` times."""
    amend.forget_checked()  # every change checked afresh, whatever other tests checked before
    match = Match(load_ruleset("discordian"), [Seat("bot1", "search"), Seat("bot2", "search")], seed)
    actions: list[list] = []

    def hear(seat, what, detail) -> None:
        actions.append([seat, what, str(detail)])
        if sum(a[1] == "player-x" for a in actions) >= x_actions:
            raise _Enough

    try:
        Bots(match).act(hear)
    except _Enough:
        pass
    return actions


def test_a_bots_match_from_a_fixed_seed_makes_the_recorded_moves_shuffles_and_changes():
    actions = _record(SEED, X_ACTIONS)
    assert [a for a in actions if a[1] in ("player-x", "shuffle")] == EXPECTED_CHOICES
    assert len(actions) == EXPECTED_ACTIONS
    assert hashlib.sha256(json.dumps(actions).encode()).hexdigest() == EXPECTED_DIGEST


def test_the_same_match_played_again_in_the_same_process_makes_the_same_actions():
    # The second time round the bots' own caches are warm (measures, nastiness on the base rules, values after a
    # change): nothing may differ.
    first = _record(SEED, 4)
    assert _record(SEED, 4) == first


def test_a_bot_that_keeps_the_pack_plays_the_line_it_played_in_its_head(monkeypatch):
    amend.forget_checked()
    match = Match(load_ruleset("discordian"), [Seat("bot1", "search"), Seat("bot2", "search")], SEED)
    bots = Bots(match)
    kept = {}  # the seat that kept the pack, the turn, and the moves of the line it played in its head

    def hear(seat, what, detail) -> None:
        if what == "shuffle" and detail == "keeps the pack as it is":
            kept.update(seat=seat, turn=match.turn, line=[m for _, m in bots.plans[seat][1]])
            raise _Enough

    try:
        bots.act(hear)
    except _Enough:
        pass
    assert kept and len(kept["line"]) > 5
    played = []
    real_move = Match.move

    def move(self, seat, m):
        if self.turn == kept["turn"]:
            played.append(m)
        return real_move(self, seat, m)

    monkeypatch.setattr(Match, "move", move)
    monkeypatch.setattr(bots.strategies[kept["seat"]], "choose", lambda game, moves: pytest.fail("searched again"))

    def until_the_turn_ends(seat, what, detail) -> None:
        if match.turn != kept["turn"]:
            raise _Enough

    try:
        bots.act(until_the_turn_ends)
    except _Enough:
        pass
    assert played == kept["line"]
