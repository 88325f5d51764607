"""Rules that read the moves made: `last_move`, `moves` and a pile's `played` cards, kept through undo, redo, forks,
rule changes and saves; the solver's verdicts on such rules match an exhaustive search; and in a two-player match of
Discordian Solitaire, "no two cards of the same suit in a row" and "a new foundation after every 5" bite the player
they were imposed on only, surviving save, load and revoke."""

from __future__ import annotations

import json

import pytest
import yaml
from scenario import changed_data, imposed_on_ann, reloaded, revoked_by_ann, ruleset, winnable

from kallisti.errors import KallistiError
from kallisti.interpreter.amend import compile_data
from kallisti.interpreter.game import Game
from kallisti.interpreter.history import MAX_HISTORY_MOVES
from kallisti.interpreter.notation import MoveRefused, describe, parse_move
from kallisti.interpreter.save import game_from_data, game_to_data
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.solve import NO_WIN, WON, SearchOptions, solve

# What each score digit reads: the moves made, the deals among them, the foundations' played cards, the last move's cards.
TALLY = ("moves.size * 1000 + count(m in moves: m.dealt) * 100 + sum(p in foundation: p.played.size) * 10 "
         "+ last_move.count")


def forty_with(*changes: str):
    return compile_data(changed_data("forty-thieves", *changes))


def forty_with_score(score: str):
    return forty_with(f"score {score}")


def tallied(layout=None) -> Game:
    game = Game(forty_with_score(TALLY), seed=1)
    return game.arrange(layout) if layout else game


def play(game: Game, text: str) -> None:
    game.play(parse_move(game, text))


# ---- what the rules read ------------------------------------------------------------------------------------
def test_the_last_move_the_moves_and_the_played_cards_follow_play_undo_and_redo():
    game = tallied({"t1": "AS", "t2": "9H", "s": "2S 3S"})
    assert game.score() == 0  # no move yet: last_move has no cards
    play(game, "t1 f")
    assert game.score() == 1011
    play(game, "d")  # the stock's top card, 3♠, turned to the waste: dealt
    assert game.score() == 2111
    assert [describe(game, m) for m in game.legal_moves()].count("w f") == 0  # 3♠ cannot go on the A♠
    game.undo()
    assert game.score() == 1011
    game.redo()
    assert game.score() == 2111
    assert game.trail.last().cards == tuple(game.state.piles[game.rules.pile_of_tag["w"]])


def test_a_card_played_away_from_a_pile_no_longer_counts_as_played_there():
    game = tallied({"t1": "AS", "t2": "2S", "t3": "3H", "s": "9D"})
    play(game, "t1 f")
    play(game, "t2 f")
    assert game.score() == 2000 + 20 + 1
    play(game, "t3 t2")  # onto a space: played there, but not to a foundation
    assert game.score() == 3000 + 20 + 1
    game.change_rules(forty_with_score("sum(p in tableau: p.played.size)"), {"type": "rule", "text": "score"})
    assert game.score() == 1  # the 3♥ on t2; the cards dealt to the tableau do not count


def test_a_rule_that_begins_to_read_the_moves_mid_game_sees_those_made_before_it():
    game = Game(ruleset("forty-thieves"), seed=4)
    for _ in range(5):
        game.play(game.legal_moves()[0])
    assert game.trail is None  # the rules read no move: none are kept
    made = [game.decode(m) for step in game.history for m in (rec[0] for rec in step)]
    game.change_rules(forty_with_score(TALLY), {"type": "rule", "text": "score"})
    assert len(game.trail.moves) == 5
    assert [(m.source, m.to) for m in game.trail.moves] == [(src, dst if kind == "move" else m.to)
                                                            for (kind, src, dst, _), m in zip(made, game.trail.moves)]
    assert game.score() // 1000 == 5
    game.undo()  # the change taken back: the rules read no move again
    assert game.trail is None


def test_the_positions_visited_are_read_back_across_a_change_that_stops_reading_the_moves():
    game = Game(forty_with_score(TALLY), seed=4)
    for _ in range(3):
        game.play(game.legal_moves()[0])
    game.change_rules(ruleset("forty-thieves"), {"type": "rule", "text": "score"})
    game.play(game.legal_moves()[0])
    seen = game.visited_positions()  # taken back through the change to rules that read the moves, and before it
    replay = Game(ruleset("forty-thieves"), seed=4)
    expected = {replay.state.key()}
    for step in game.history:
        for rec in step:
            if not hasattr(rec, "before"):
                replay.play(rec[0])
                expected.add(replay.state.key())
    assert seen == expected and len(seen) == 5


def test_a_fork_and_a_saved_game_read_the_same_moves():
    game = Game(forty_with_score(TALLY), seed=9)
    for i in range(12):
        game.play(game.legal_moves()[i % len(game.legal_moves())])
    assert game.fork().trail.key() == game.trail.key()
    again = game_from_data(json.loads(json.dumps(game_to_data(game))))
    assert again.trail.key() == game.trail.key() and again.score() == game.score()


def test_moves_holds_the_last_thousand_moves_and_last_move_stays_exact():
    game = Game(forty_with_score("moves.size * 10 + last_move.count"), seed=1).arrange({"t1": "KS", "s": "9D"})
    for i in range(MAX_HISTORY_MOVES + 5):  # the king goes back and forth between two spaces
        play(game, "t1 t2" if i % 2 == 0 else "t2 t1")
    assert len(game.trail.moves) == MAX_HISTORY_MOVES + 5
    assert game.score() == MAX_HISTORY_MOVES * 10 + 1


def test_moves_are_bounded_and_a_rule_reading_them_too_often_is_too_costly():
    assert MAX_HISTORY_MOVES == 1000
    with pytest.raises(KallistiError) as info:
        forty_with("forbid foundation.build slow: count(m in moves: m.dealt) > 5")
    assert "expr-too-costly" in str(info.value)


def test_reading_the_pile_of_a_move_never_made_fails_the_rule_and_refuses_the_move():
    game = Game(forty_with("require foundation.build after: last_move.source.size >= 0"), seed=1)
    game.arrange({"t1": "2S", "f1": "AS", "s": "9D"})
    assert "t1 f1" not in {describe(game, m) for m in game.legal_moves()}
    assert "no move has been made yet" in game.rule_errors[0]
    play(game, "d")
    assert "t1 f1" in {describe(game, m) for m in game.legal_moves()}


# ---- the solver on rules that read the moves ----------------------------------------------------------------
# Two suits of A-3 in three columns; a foundation takes no card of the suit the last card played to one had.
TINY = """\
game: Tiny alternation
deck: {ranks: [A, 2, 3], suits: [{name: clubs, color: black}, {name: hearts, color: red}]}
piles:
  foundation: {count: 2, build: up in suit, empty: first rank, take: none}
  tableau: {count: 3, deal: [up, up], build: down, empty: any, take: top card}
  foundation2: {count: 0}
win: foundation.size == deck.size
"""


def tiny_rules(tmp_path, alternate: bool):
    data = yaml.safe_load(TINY)
    data["deck"]["ranks"] = ["A", "2", "3"]
    del data["piles"]["foundation2"]
    if alternate:
        data["piles"]["foundation"]["build"] = ["up in suit", {
            "id": "no-suit-twice", "forbid": "last_move.to in foundation.piles and card.suit == last_move.card.suit"}]
        data["piles"]["foundation"]["empty"] = ["first rank", {
            "id": "no-suit-twice", "forbid": "last_move.to in foundation.piles and card.suit == last_move.card.suit"}]
    path = tmp_path / f"tiny-{alternate}.yaml"
    path.write_text(yaml.safe_dump(data))
    return load_ruleset(path)


def test_the_solver_on_rules_that_read_the_moves_agrees_with_every_line_of_play(tmp_path):
    plain, alternating = tiny_rules(tmp_path, False), tiny_rules(tmp_path, True)
    assert alternating.reads_history and not plain.reads_history
    verdicts = []
    for seed in range(1, 9):
        game = Game(alternating, seed=seed)
        found = solve(alternating, seed=seed, options=SearchOptions(states=20_000))
        assert found.verdict == (WON if winnable(game, 14) else NO_WIN)
        if found.verdict == WON:  # the line replays, every move legal, to a win
            replay = Game(alternating, seed=seed)
            for text in found.line:
                replay.play(parse_move(replay, text))
            assert replay.status().outcome == "won"
        verdicts.append((found.verdict, solve(plain, seed=seed).verdict))
    assert (NO_WIN, WON) in verdicts  # the rule bites: some deal the plain rules win cannot be won
    assert (WON, WON) in verdicts


# ---- in a match: "no two cards of the same suit in a row", "a new foundation after every 5" ------------------
ENGLISH = {
    "You cannot play two cards of the same suit in a row.":
        'forbid foundation.build no-two-of-a-suit: not last_move.dealt and card.suit == last_move.card.suit '
        '"takes no card of the suit of the card just played"',
    "You must take a new foundation whenever you play a 5.":
        'forbid foundation.build a-five-ends-it: not last_move.dealt and last_move.card.rank == 5 '
        '"takes nothing on a 5 just played: a new foundation must be dealt"',
}
NO_SUIT_TWICE, FIVE_ENDS = ENGLISH.values()
# 5♥ goes on the 4♣; then the 6♥ (same suit) and the 6♠ and 4♦ could follow; a 9♦ is left to deal.
AFTER_A_FIVE = {"c1": "5H", "c2": "6H", "c3": "6S", "c4": "4D", "f": "4C", "s": "9D 9S"}
# After the 5♥, the 6♥ waits for the 7♠ the stock deals.
AFRESH = {"c1": "5H", "c2": "6H", "c3": "JS", "f": "4C", "s": "7S"}


def legal_after(rules, layout, *moves) -> set[str]:
    game = Game(rules, seed=1).arrange(dict(layout))
    for text in moves:
        play(game, text)
    return {describe(game, m) for m in game.legal_moves()}


@pytest.mark.parametrize("text,refused,ann_may,bob_may", [
    (NO_SUIT_TWICE, "c2 f", {"c3 f", "c4 f"}, {"c2 f", "c3 f", "c4 f"}),
    (FIVE_ENDS, "c3 f", {"d"}, {"c2 f", "c3 f", "c4 f"}),
])
def test_a_change_reading_the_moves_bites_its_target_only_and_survives_save_load_and_revoke(text, refused, ann_may,
                                                                                          bob_may):
    match = imposed_on_ann(text)
    for m in (match, reloaded(match)):
        game = m.game.arrange(dict(AFTER_A_FIVE))
        m.move(0, parse_move(game, "c1 f"))
        assert {describe(game, x) for x in game.legal_moves()} == ann_may
        with pytest.raises(MoveRefused, match=r"just played"):
            parse_move(game, refused)
        assert legal_after(m.rules_for(1), AFTER_A_FIVE, "c1 f") == bob_may  # bob's rules: the plain game
    # After a deal the foundation starts afresh: the card on it was dealt, not played.
    assert legal_after(match.rules_for(0), AFRESH, "c1 f") == {"d"}
    assert legal_after(match.rules_for(0), AFRESH, "c1 f", "d") == {"c2 f"}
    match = revoked_by_ann(imposed_on_ann(text), "c1")  # afresh: an arranged position ends the turn's pack
    for m in (match, reloaded(match)):
        assert m.active_changes(0) == []
        assert legal_after(m.rules_for(0), AFTER_A_FIVE, "c1 f") == bob_may


def test_a_turn_played_under_a_change_reading_the_moves_replays_from_its_save():
    match = imposed_on_ann(NO_SUIT_TWICE)
    for _ in range(3):
        w = match.waiting()
        if w.what != "move":
            break
        match.move(0, match.game.legal_moves()[0])
    again = reloaded(match)
    assert again.game.trail.key() == match.game.trail.key()
    assert sorted(again.game.legal_moves()) == sorted(match.game.legal_moves())
