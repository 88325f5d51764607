"""When honour rules are due: `before deal` before each deal of a turn (the field's and every one from the stock),
`at turn start` once a turn; in a match, through its save, in the terminal, and in a game played alone."""

from __future__ import annotations

import pytest

from kallisti.cli.match_play import run_match_session
from kallisti.interpreter import amend
from kallisti.interpreter.game import Game
from kallisti.interpreter.honour import HonourRules
from kallisti.interpreter.match import Match, MatchError, Seat
from kallisti.interpreter.notation import describe, narrate
from kallisti.interpreter.save import match_from_data, match_to_data
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.strategies import hint

DANCE = 'honour dance before deal: "Dance before every deal."'
BOW = 'honour bow at turn start: "Bow to the table."'
SEED = 5


def with_honour(name: str, *changes: str):
    data = load_ruleset(name).data
    for text in changes:
        data = amend.amend(data, text, trial=False).data
    return amend.compile_data(data)


@pytest.fixture(scope="module")
def discordian():
    return with_honour("discordian", DANCE, BOW)


def stock_size(game) -> int:
    return len(game.state.piles[game.rules.groups["stock"].piles[0]])


def is_deal(game, m) -> bool:
    return game.decode(m)[0] == "deal"


def first_turn(match) -> list[tuple[str, int]]:
    """Play the first turn by hints, acknowledging every rule due; each acknowledgement as (rule id, the stock's size
    when it was acknowledged)."""
    acks = []
    while match.turn == 1:
        w = match.waiting()
        if w.what == "ack":
            size = -1 if match.game is None else stock_size(match.game)
            acks.append((match.acknowledge(w.seat).id, size))
        elif w.what == "shuffle":
            match.choose_shuffle(w.seat, True)
        elif w.what == "move":
            match.move(w.seat, hint(match.game))
        else:
            match.pass_turn(w.seat)
    return acks


def test_before_deal_is_asked_before_each_deal_of_a_turn_and_turn_start_once(discordian):
    match = Match(discordian, [Seat("ann"), Seat("bob")], SEED)
    acks = first_turn(match)
    turn_acks = [rule for rule, _ in acks if rule in ("dance", "bow")]
    deals = [e for e in match.events if e["type"] == "move" and e["move"] == "d"]
    assert len(deals) >= 2  # the turn dealt from the stock more than once
    assert turn_acks == ["bow"] + ["dance"] * (1 + len(deals))  # the field's deal, then each from the stock
    # each later dance comes while the stock still holds the card about to be dealt: before the deal, not after
    assert [size for rule, size in acks if rule == "dance"][1:] == list(range(len(deals), 0, -1))
    # in the log, every stock deal is followed by its acknowledgement
    for i, e in enumerate(match.events):
        if e["type"] == "move" and e["move"] == "d":
            assert match.events[i + 1] == {"type": "ack", "seat": 0, "rule": "dance", "at": "before-deal"}


def at_the_first_stock_deal(discordian) -> Match:
    """A match played by the hint up to the first move that deals from the stock (honour rules acknowledged, the
    shuffle chosen), that move not made."""
    match = Match(discordian, [Seat("ann"), Seat("bob")], SEED)
    while True:
        w = match.waiting()
        if w.what == "ack":
            match.acknowledge(w.seat)
        elif w.what == "shuffle":
            match.choose_shuffle(w.seat, True)
        elif is_deal(match.game, hint(match.game)):
            return match
        else:
            match.move(w.seat, hint(match.game))


def test_a_deal_waits_for_its_honour_rule_and_only_the_deal(discordian):
    match = at_the_first_stock_deal(discordian)
    game, stock = match.game, stock_size(match.game)
    assert match.move(0, hint(game)) == []  # asked for, not yet made
    assert stock_size(game) == stock and match.waiting().what == "ack" and match.waiting().honour.id == "dance"
    with pytest.raises(MatchError, match="must first acknowledge: Dance before every deal"):
        match.undo(0)
    match.acknowledge(0)
    assert stock_size(game) == stock - 1 and match.waiting().what in ("move", "ack", "player-x")


def test_a_rule_without_before_deal_deals_at_once():
    rules = with_honour("discordian", BOW)
    match = Match(rules, [Seat("ann"), Seat("bob")], SEED)
    acks = first_turn(match)
    assert [rule for rule, _ in acks].count("bow") == 1
    assert all(e["type"] != "ack" or e["rule"] != "dance" for e in match.events)


def test_a_save_keeps_a_deal_waiting_for_its_honour_rule_and_replays_the_turn(discordian):
    match = Match(discordian, [Seat("ann"), Seat("bob")], SEED)
    first_turn(match)
    whole = match_to_data(match)
    replayed = match_from_data(whole)
    assert replayed.events == match.events and replayed.totals == match.totals
    # saved between a stock deal asked for and its acknowledgement: the load waits for the same rule
    cut = next(i for i, e in enumerate(whole["events"]) if e["type"] == "move" and e["move"] == "d")
    part = dict(whole, events=whole["events"][:cut + 1])
    waiting = match_from_data(part)
    stock = stock_size(waiting.game)
    assert waiting.waiting().what == "ack" and waiting.waiting().honour.id == "dance"
    waiting.acknowledge(0)
    assert stock_size(waiting.game) == stock - 1
    assert waiting.events == whole["events"][:cut + 2]


def test_a_log_that_asked_before_deal_once_a_turn_still_replays(discordian):
    match = Match(discordian, [Seat("ann"), Seat("bob")], SEED)
    first_turn(match)
    data = match_to_data(match)
    # as written when `before deal` was asked before the field's deal only: no acknowledgement after a stock deal
    old, after_deal = [], False
    for e in data["events"]:
        if not (after_deal and e["type"] == "ack"):
            old.append(e)
        after_deal = e["type"] == "move" and e["move"] == "d"
    assert len(old) < len(data["events"])
    replayed = match_from_data(dict(data, events=old))
    assert replayed.totals == match.totals and replayed.turn == match.turn
    assert [list(p) for p in replayed.records[0].final.state.piles] == [list(p) for p in match.records[0].final.state.piles]


def test_redo_of_a_stock_deal_asks_before_it_again(discordian):
    match = at_the_first_stock_deal(discordian)
    game = match.game
    match.move(0, hint(game))
    match.acknowledge(0)
    stock = stock_size(game)
    assert match.undo(0) and stock_size(game) == stock + 1
    assert match.redo(0) and stock_size(game) == stock + 1  # the redone deal waits too
    assert match.waiting().honour.id == "dance"
    match.acknowledge(0)
    assert stock_size(game) == stock
    assert match_from_data(match_to_data(match)).events == match.events


def test_the_terminal_shows_the_rule_before_the_deal_and_deals_after_ok(discordian):
    match = Match(discordian, [Seat("ann"), Seat("bob")], SEED)
    lines = []
    probe = Match(discordian, [Seat("ann"), Seat("bob")], SEED)
    while True:  # the commands up to the turn's first stock deal, found on a twin of the match
        w = probe.waiting()
        if w.what == "ack":
            probe.acknowledge(w.seat)
            lines.append("ok")
        elif w.what == "shuffle":
            probe.choose_shuffle(w.seat, True)
            lines.append("shuffle")
        else:
            m = hint(probe.game)
            lines.append(describe(probe.game, m))
            if is_deal(probe.game, m):
                deal_said = narrate(probe.game, m)
                break
            probe.move(w.seat, m)
    out: list[str] = []
    run_match_session(match, lines + ["ok"], out.append)
    text = "\n".join(out).splitlines()
    asked = "honour rule for ann (before deal): Dance before every deal.  [do it, then type `ok`]"
    prompts = [i for i, line in enumerate(text) if line == asked]
    assert len(prompts) == 2  # before the field's deal, then before the deal from the stock
    prompt = prompts[1]
    assert text[prompt + 1] == "ann acknowledges: Dance before every deal."
    assert text[prompt + 2] == deal_said  # the deal is said once made, after the acknowledgement, and not before
    assert deal_said not in text[:prompt]


def test_a_game_alone_asks_before_deal_before_each_deal_from_the_stock():
    rules = with_honour("forty-thieves", DANCE, BOW)
    game = Game(rules, seed=3)
    honour = HonourRules(game)
    assert [h.id for h in honour.due(game)] == ["bow", "dance"]  # at the game's deal
    while honour.acknowledge(game) is not None:
        pass
    deal = next(m for m in game.legal_moves() if is_deal(game, m))
    move = next(m for m in game.legal_moves() if not is_deal(game, m))
    assert honour.ask(game, move) == []  # a move that deals nothing asks for nothing
    assert [h.id for h in honour.ask(game, deal)] == ["dance"]
    assert honour.acknowledge(game).id == "dance" and honour.ask(game, deal) == []
    game.play(deal)
    honour.moved()
    assert [h.id for h in honour.ask(game, deal)] == ["dance"]  # the next deal asks again; `bow` never
    assert [e["rule"] for e in game.events if e["type"] == "ack"] == ["bow", "dance", "dance"]
