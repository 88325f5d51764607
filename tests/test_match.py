"""Matches of Discordian Solitaire: turns, honour rules, Player X's changes and revokes, saves and replays."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest
from scenario import play_turn

from kallisti.errors import KallistiError
from kallisti.interpreter import amend
from kallisti.interpreter.match import Match, MatchError, Seat, Waiting, seats_from_text
from kallisti.interpreter.notation import MoveRefused, describe, parse_move
from kallisti.interpreter.save import match_from_data, match_to_data, save_match
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.strategies import hint

BLACK = 'forbid foundation.build "black on black": card.color == black and top.color == black'
NO_SHUFFLE = "set deck.shuffle optional"
FIVE_BY_FIVE = "set field.count 5"
ACHY = 'honour achy-breaky before deal: "You must do the Achy Breaky Dance before every deal."'
LOWER_LIMIT = "set match.loses_at 200"


@pytest.fixture(scope="module")
def rules():
    return load_ruleset("discordian")


def people(rules, seed=11) -> Match:
    return Match(rules, [Seat("ann"), Seat("bob")], seed)


def ack_all(match) -> None:
    while match.waiting().what == "ack":
        match.acknowledge(match.waiting().seat)


def black_on_black_chance(game):
    """A column whose top card is black and one rank from a black foundation card (not a Queen): `cN f`."""
    deck = game.deck
    f = game.rules.groups["foundation"].piles[0]
    top = game.state.piles[f][-1]
    for i, p in enumerate(game.rules.groups["field"].piles):
        pile = game.state.piles[p]
        if pile and deck.suits[deck.suit[pile[-1]]].color == "black" == deck.suits[deck.suit[top]].color \
                and abs(deck.rank[pile[-1]] - deck.rank[top]) == 1 and deck.ranks[deck.rank[top]] != "Q":
            return f"c{i + 1} f"
    return None


# -- the scripted match ----------------------------------------------------------------------------
PLAN = {1: BLACK, 2: NO_SHUFFLE, 3: FIVE_BY_FIVE, 4: ACHY, 5: LOWER_LIMIT, 8: "revoke c1"}


def scripted(rules, seed=11):
    """Drive a match between two people by a fixed plan, returning it, the commands typed and what bit."""
    match = people(rules, seed)
    lines, bites = [], {}
    while match.waiting().what != "over":
        w = match.waiting()
        if w.what == "ack":
            rule = match.acknowledge(w.seat)
            lines.append("ok")
            if rule.id == "achy-breaky":
                bites.setdefault("achy", match.turn)
        elif w.what == "shuffle":
            keep = match.turn % 4 == 0
            before = match.pack_of(w.seat)
            match.choose_shuffle(w.seat, not keep)
            lines.append("keep" if keep else "shuffle")
            if keep and match.game is not None:
                bites.setdefault("keep", (before, list(match.game.order)))
        elif w.what == "move":
            game = match.game
            if not game.history and "five" not in bites and len(game.rules.groups["field"].piles) == 5:
                bites["five"] = sum(len(game.state.piles[p]) for p in game.rules.groups["field"].piles)
            chance = black_on_black_chance(game)
            if chance and any(c.text == BLACK for c in match.active_changes(match.current)) and "black" not in bites:
                with pytest.raises(MoveRefused) as refused:
                    parse_move(game, chance)
                bites["black"] = str(refused.value)
                lines.append(chance)
            m = hint(game)
            lines.append(describe(game, m))
            match.move(w.seat, m)
        else:
            text = PLAN.get(match.turn)
            if text is None:
                match.pass_turn(w.seat)
                lines.append("pass")
            elif text.startswith("revoke "):
                match.revoke(w.seat, text.split()[1])
                lines.append(text)
            else:
                match.impose(w.seat, text)
                lines.append(f"rule {text}")
    return match, lines, bites


def final_state(match) -> dict:
    return {"totals": match.totals, "turn": match.turn, "loser": match.result.loser, "reason": match.result.reason,
            "changes": [(c.id, c.author, c.target, c.turn, c.text, c.revoked_turn) for c in match.changes],
            "rules": [amend.data_key(match.rules_for(s).data) for s in range(len(match.seats))],
            "table": [list(p) for p in match.game.state.piles], "events": match.events}


def test_scripted_match_runs_to_its_end_with_the_seed_changes_biting(rules):
    match, lines, bites = scripted(rules)
    assert match.result is not None and match.result.loser is not None
    assert len(match.changes) >= 5 and {c.text for c in match.changes} >= {BLACK, NO_SHUFFLE, FIVE_BY_FIVE, ACHY}
    # black on black: a move the base rules allow is refused, naming the clause
    assert "black on black" in bites["black"] and "black-on-black" in bites["black"]
    # no need to shuffle: the player kept the pack, and the deal is the pack as it was gathered
    before, dealt = bites["keep"]
    assert dealt == before
    # a 5 by 5 field: the next field holds 25 cards
    assert bites["five"] == 25
    # the dance: acknowledged before the deal, and logged
    assert any(e["type"] == "ack" and e["rule"] == "achy-breaky" for e in match.events)
    # the revoke gave ann back the base foundation rule
    assert not next(c for c in match.changes if c.text == BLACK).active


def test_scripted_match_piped_through_the_cli_ends_and_its_save_replays(rules, tmp_path):
    match, lines, _ = scripted(rules)
    save = tmp_path / "match.json"
    script = "\n".join(lines[:-1] + [f"save {save}", lines[-1]]) + "\n"
    run = subprocess.run([sys.executable, "-m", "kallisti", "play", "discordian", "--seed", "11", "--players", "ann,bob"],
                         input=script, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "*** MATCH OVER:" in run.stdout
    assert "black-on-black" in run.stdout  # the refusal named the clause
    assert "honour rule for bob (before deal): You must do the Achy Breaky Dance" in run.stdout
    assert "bob: you need not shuffle" in run.stdout
    saved = json.loads(save.read_text())
    replayed = match_from_data(saved)
    # the save was made before the last command: the log replays to that point, and the rest ends the match
    assert saved["events"] == match.events[:len(saved["events"])]
    assert replayed.waiting().what != "over"
    for ev in match.events[len(saved["events"]):]:
        replayed.apply_event(ev)
    assert final_state(replayed) == final_state(match)


def test_a_log_replays_to_the_same_match_rulesets_included(rules):
    match, _, _ = scripted(rules, seed=5)
    again = match_from_data(json.loads(json.dumps(match_to_data(match))))
    assert final_state(again) == final_state(match)


# -- a rejected change changes nothing -------------------------------------------------------------
# The Ace and the Queen made neighbours by replacing the up-or-down clause alone: nothing-on-the-last stays behind.
WRAP_LEFT_BEHIND = ("replace foundation.build rank-up-or-down: "
                    "(top.rank - card.rank) % ranks == 1 or (card.rank - top.rank) % ranks == 1")
BAD_CHANGES = [
    ("set field.count 0", "0 is less than the minimum"),
    ("set field.deal [up, up, up, up, up, up, up, up, up, up]", "the deal needs"),
    ("forbid foundation.build x: card.rank and true", "needs"),
    ("set feild.count 5", "did you mean"),
    ("remove foundation.build same-suit", "has no clause"),
    ("set field.take any run", "changes nothing"),
    ("set match.seats 3", "cannot change once the match has begun"),
    ("forbid foundation.build big: card.value * 1000000000 * 1000000000 > 1", "fails for some cards"),
    ("forbid field.take big: pile.size * 1000000000 * 1000000000 > 1", "fails while playing"),
    (WRAP_LEFT_BEHIND, "left in the rule"),
    ("delete stock", "with this change, the deal uses 36 of 52 cards"),
]


@pytest.mark.parametrize("text,why", BAD_CHANGES)
def test_a_rejected_change_leaves_the_match_exactly_as_it_was(rules, tmp_path, text, why):
    control, tried = people(rules), people(rules)
    for m in (control, tried):
        ack_all(m)
        play_turn(m)
        assert m.waiting().what == "player-x"
    before = tmp_path / "before.json"
    after = tmp_path / "after.json"
    save_match(tried, before)
    if text == "set field.take any run":
        text = "set field.take top card"  # a change to what the rule already says
    with pytest.raises(KallistiError) as refused:
        tried.impose(1, text)
    message = str(refused.value)
    assert why in message and "<change>:1:" in message
    save_match(tried, after)
    assert before.read_bytes() == after.read_bytes()
    for m in (control, tried):
        m.pass_turn(1)
        ack_all(m)
    assert tried.game.order == control.game.order
    assert tried.game.legal_moves() == control.game.legal_moves()
    assert [list(p) for p in tried.game.state.piles] == [list(p) for p in control.game.state.piles]


def at_player_x(rules, seed=11) -> Match:
    """A match of two people after ann's first turn: bob is Player X."""
    match = people(rules, seed)
    ack_all(match)
    play_turn(match)
    assert match.waiting() == Waiting(1, "player-x")
    return match


def refused(match, text):
    with pytest.raises(KallistiError) as info:
        match.impose(1, text)
    return info.value.findings


def suggested_change(finding) -> str:
    """The change a refusal suggests: the statement in backticks."""
    return re.search(r"`([^`]+)`", finding.suggestion)[1]


def ann_moves_on(match, layout, move) -> None:
    """ann's next turn, in a position set by hand: `move` is legal, and made."""
    play_turn(match)  # bob
    match.pass_turn(0)
    ack_all(match)
    game = match.game.arrange(layout)
    match.move(0, parse_move(game, move))


def test_a_replace_that_leaves_a_clause_refusing_what_it_allows_is_refused_with_a_change_that_works(rules):
    match = at_player_x(rules)
    (f,) = refused(match, WRAP_LEFT_BEHIND)
    assert (f.code, str(f.pos)) == ("change-left-behind", "<change>:1:9")
    assert "lets A♣ on Q♣ through" in f.message and "'nothing-on-the-last' (top.rank == last), left in the rule" in f.message
    assert match.active_changes(0) == []
    instead = suggested_change(f)
    assert instead.startswith("set foundation.build [{id: rank-up-or-down, require: ") and "nothing-on-the-last" not in instead
    match.impose(1, instead)
    ann_moves_on(match, {"c1": "AH", "c2": "7D", "f": "QC", "s": "9D"}, "c1 f")  # the Ace goes on the Queen


def test_a_change_that_breaks_the_rest_of_the_rules_is_reported_at_the_change(rules):
    """`delete stock`: the rules break in the ruleset file (no group takes the cards left over), but the change
    broke them: the finding is at the change, says where the rules broke, and suggests keeping the stock."""
    (f,) = refused(at_player_x(rules), "delete stock")
    assert (f.code, str(f.pos)) == ("deal-leftover", "<change>:1:8")
    assert f.message.startswith("with this change, the deal uses 36 of 52 cards and no group takes `deal: rest`")
    assert "discordian.yaml:" in f.message
    assert f.suggestion.startswith("keep stock, which the rest of the rules need") and "give the stock" not in f.suggestion
    assert f.excerpt == "    delete stock\n           ^"


def test_a_change_that_breaks_an_earlier_change_names_it(rules):
    match = at_player_x(rules)
    match.impose(1, 'forbid foundation.build no-aces: card.rank == A "takes no Ace"')
    play_turn(match)
    match.pass_turn(0)
    play_turn(match)
    (f,) = refused(match, "set deck.ranks [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, K, Q]")
    assert f.code == "unknown-name" and str(f.pos) == "<change>:1:5"
    assert f.message.startswith("with this change, ") and "(the rules at <c1>:1:" in f.message


SUGGESTING = [  # refused changes whose refusal suggests another change
    "add field.rows 6",
    "add field.count 5",
    "set feild.count 5",
    "remove foundation.build rank-up-or-dwn",
    "forbid foundation.build rank-up-or-down: card.rank == A",
    WRAP_LEFT_BEHIND,
]


@pytest.mark.parametrize("text", SUGGESTING)
def test_a_suggested_change_is_adopted_when_followed(rules, text):
    match = at_player_x(rules)
    (f,) = refused(match, text)
    assert f.pos.source == "<change>"
    match.impose(1, suggested_change(f))
    assert len(match.active_changes(0)) == 1


def test_rows_of_the_field_set_its_deal(rules):
    match = at_player_x(rules)
    match.impose(1, "set field.rows 6")  # a group's rows are its deal, one entry a row
    play_turn(match)  # bob
    match.pass_turn(0)
    ack_all(match)
    assert [len(match.game.state.piles[p]) for p in match.game.rules.groups["field"].piles] == [6] * 7


def test_a_fixed_key_is_never_suggested(rules):
    (f,) = refused(at_player_x(rules), "set match.equal_turn false")
    assert f.code == "unknown-path" and "`" not in f.suggestion  # `set match.equal_turns false` would be refused
    assert f.suggestion.startswith("match has: ")


def test_revoking_a_change_another_builds_on_names_that_change(rules):
    match = at_player_x(rules)
    match.impose(1, 'forbid foundation.build no-aces: card.rank == A "takes no Ace"')  # c1, on ann
    play_turn(match)  # bob
    match.pass_turn(0)
    play_turn(match)  # ann
    match.impose(1, 'replace foundation.build no-aces: card.rank == 2 "takes no 2"')  # c2 replaces c1's clause
    play_turn(match)  # bob: ann is Player X
    before = match_to_data(match)
    with pytest.raises(MatchError) as info:
        match.revoke(0, "c1")
    message = str(info.value)
    assert message.startswith("revoking c1 would leave c2 (replace foundation.build no-aces: card.rank == 2 \"takes no 2\") "
                              "without its subject: piles.foundation.build has no clause 'no-aces'")
    assert message.endswith("; revoke c2 first")
    assert match_to_data(match) == before
    match.revoke(0, "c2")  # following the advice works
    assert [c.id for c in match.active_changes(0)] == ["c1"]


# -- the flow of a match ---------------------------------------------------------------------------
def test_politeness_is_acknowledged_by_each_player_at_the_start(rules):
    match = people(rules)
    due = []
    while match.waiting().what == "ack":
        w = match.waiting()
        due.append((w.seat, w.honour.id))
        match.acknowledge(w.seat)
    assert due == [(0, "mind-the-cards"), (0, "no-spitting"), (1, "mind-the-cards"), (1, "no-spitting")]
    assert match.waiting().what == "move" and match.waiting().seat == 0


def test_moves_wait_for_an_honour_rule_due_before_each_move(rules):
    match = people(rules)
    ack_all(match)
    play_turn(match)
    match.impose(1, 'honour hop before move: "Hop on one foot before each move."')
    play_turn(match)  # bob's turn, unchanged
    match.pass_turn(0)
    assert match.waiting().what == "ack" and match.waiting().honour.id == "hop"
    with pytest.raises(MatchError):
        match.move(0, match.game.legal_moves()[0])
    match.acknowledge(0)
    match.move(0, match.game.legal_moves()[0])
    assert match.waiting().what in ("ack", "player-x")


def test_a_change_takes_effect_from_the_targets_next_turn_only(rules):
    match = people(rules)
    ack_all(match)
    play_turn(match)
    match.impose(1, FIVE_BY_FIVE)
    assert len(match.rules_for(0).groups["field"].piles) == 5
    assert len(match.rules_for(1).groups["field"].piles) == 7  # for the other player only
    ack_all(match)
    assert len(match.game.rules.groups["field"].piles) == 7  # bob's turn: his rules
    play_turn(match)
    match.pass_turn(0)
    ack_all(match)
    assert len(match.game.rules.groups["field"].piles) == 5


def test_undo_reaches_back_within_the_players_own_turn_only(rules):
    match = people(rules)
    ack_all(match)
    first = match.game.legal_moves()[0]
    match.move(0, first)
    assert match.undo(0)
    assert not match.undo(0)  # the deal itself cannot be undone
    play_turn(match)
    with pytest.raises(MatchError):
        match.undo(0)  # the turn is over: Player X acts now
    change = match.impose(1, BLACK)
    ack_all(match)
    assert not match.undo(1)  # bob's turn has begun: nothing of it to undo, and never the change
    assert change.active and match.active_changes(0) == [change]


def test_revoke_takes_back_only_a_change_the_other_player_imposed_on_player_x(rules):
    match = people(rules)
    ack_all(match)
    play_turn(match)
    c1 = match.impose(1, BLACK)  # bob imposes c1 on ann
    play_turn(match)  # bob plays
    c2 = match.impose(0, FIVE_BY_FIVE)  # ann imposes c2 on bob
    play_turn(match)  # ann plays
    with pytest.raises(MatchError, match="no change 'c1'"):
        match.revoke(1, "c1")  # c1 binds ann: it is not bob's to revoke
    match.revoke(1, "c2")  # bob takes back what ann imposed on him
    assert not c2.active and c1.active
    play_turn(match)  # bob plays
    match.revoke(0, "c1")
    assert not c1.active and c1.revoked_turn == 4
    assert amend.data_key(match.rules_for(0).data) == amend.data_key(rules.data)
    assert amend.data_key(match.rules_for(1).data) == amend.data_key(rules.data)


def test_a_player_who_reaches_the_limit_gives_the_other_a_last_turn(rules):
    match = people(rules)
    ack_all(match)
    match.totals[0] = 229  # one card left on the field will do it
    play_turn(match)
    assert match.totals[0] >= 230 and match.result is None
    match.pass_turn(1)
    play_turn(match)
    assert match.result is not None
    assert match.result.loser in (0, 1)


def limit_reached_by_the_second_seat(rules):
    """A match in which bob, the second seat, reaches his limit at the end of his turn (turn 4), both having had two
    turns: after bob's turn 2, ann as Player X lowers his limit to one above his total."""
    match = people(rules)
    ack_all(match)
    play_turn(match)  # turn 1: ann
    match.pass_turn(1)
    play_turn(match)  # turn 2: bob
    limit = match.totals[1] + 1
    match.impose(0, f"set match.loses_at {limit}")
    play_turn(match)  # turn 3: ann, far from 230
    match.pass_turn(1)
    play_turn(match)  # turn 4: bob leaves cards on the field, and reaches his limit
    assert match.totals[1] >= limit > match.totals[1] - match.records[-1].score
    assert match.turns_taken == [2, 2] and match.totals[0] < 230
    return match


def test_whichever_player_reaches_the_limit_the_other_still_takes_a_turn(rules):
    """The seed: "If you lose at the end of your turn, the other player must still take a turn before the game is
    over". It knows no rounds, so the first seat plays once more after the second reaches the limit too."""
    assert rules.match.last_turns == "others"
    match = limit_reached_by_the_second_seat(rules)
    assert match.result is None and match.waiting() == Waiting(0, "player-x")
    match.pass_turn(0)
    play_turn(match)  # turn 5: ann's last turn
    assert match.turns_taken == [3, 2] and [r.seat for r in match.records][-1] == 0
    assert match.result is not None and match.result.loser == 1
    assert match.result.reason == f"bob reached {match.loses_at(1)}"


@pytest.mark.parametrize("last", ["round", "none"])
def test_last_turns_round_or_none_ends_the_match_at_once_when_the_round_is_complete(rules, last):
    variant = amend.amend(rules.data, f"set match.last_turns {last}", baseline=rules).rules
    match = limit_reached_by_the_second_seat(variant)
    assert match.result is not None and match.result.loser == 1 and match.turns_taken == [2, 2]


@pytest.mark.parametrize("last,turns", [("others", [1, 1]), ("round", [1, 1]), ("none", [1, 0])])
def test_when_the_first_seat_reaches_the_limit_last_turns_says_who_still_plays(rules, last, turns):
    variant = rules if last == "others" else amend.amend(rules.data, f"set match.last_turns {last}", baseline=rules).rules
    match = people(variant)
    ack_all(match)
    match.totals[0] = 229  # one card left on the field will do it
    play_turn(match)
    if match.result is None:
        match.pass_turn(1)
        play_turn(match)
    assert match.result is not None and match.turns_taken == turns


def test_seats_from_the_players_option():
    assert seats_from_text("ann,bob") == [Seat("ann"), Seat("bob")]
    assert seats_from_text("ann,bot") == [Seat("ann"), Seat("bot", "search")]
    assert seats_from_text("bot:random,bot") == [Seat("bot1", "random"), Seat("bot2", "search")]
    with pytest.raises(ValueError):
        seats_from_text("ann,ann")
    with pytest.raises(ValueError):
        seats_from_text("ann,")


def test_a_match_needs_as_many_players_as_its_seats(rules):
    with pytest.raises(KallistiError, match="played by 2 players"):
        Match(rules, [Seat("ann")], 1)


def test_player_x_can_be_limited_by_a_change_imposed_on_hir(rules):
    match = people(rules)
    ack_all(match)
    play_turn(match)  # ann plays
    with pytest.raises(KallistiError) as refusal:  # ann could never be Player X again: the change never revoked
        match.impose(1, "set match.player_x {changes: 0, revoke: false}")
    assert refusal.value.findings[0].code == "change-no-way-back" and match.active_changes(0) == []
    match.impose(1, "set match.player_x.changes 0")  # bob to ann: "you may change no rule of mine"
    play_turn(match)  # bob plays: ann is Player X, and may revoke but change nothing
    assert match.waiting().what == "player-x" and match.waiting().seat == 0
    with pytest.raises(MatchError, match="may make no"):
        match.impose(0, "set field.count 6")


def test_the_shape_of_the_match_is_fixed_once_it_has_begun(rules):
    match = people(rules)
    ack_all(match)
    play_turn(match)
    for text in ("set match.equal_turns false", "set match.last_turns round", "set match.max_turns 3", "set match.start_score 0"):
        with pytest.raises(KallistiError, match="cannot change once the match has begun"):
            match.impose(1, text)
