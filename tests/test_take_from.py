"""Which cards of a pile may leave it (`take_from`: the top, the bottom, any card, any run): the moves each mode
makes, their notation (`c1@1 f`), undo and saves, the cards conserved, the solver's verdicts against every line of
play, the `.rules` phrase, the warning a change that moves runs gets, and in a two-player match of Discordian
Solitaire "the top card of a column as well as the bottom one", for the player it was imposed on only, through save,
load and revoke."""

from __future__ import annotations

import json
from collections import Counter

import pytest
import yaml
from scenario import changed_data, imposed_on_ann, reloaded, revoked_by_ann, ruleset, winnable

from kallisti.errors import Pos
from kallisti.grammar.rules_front import parse_rules
from kallisti.grammar.rules_writer import to_rules
from kallisti.interpreter.amend import amend, compile_data
from kallisti.interpreter.game import Game
from kallisti.interpreter.notation import MoveRefused, describe, narrate, parse_move
from kallisti.interpreter.rng import Rng
from kallisti.interpreter.save import game_from_data, game_to_data
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.solve import NO_WIN, WON, SearchOptions, solve

BOTH_ENDS = "set field.take_from [top, bottom]"


def discordian(*changes):
    return compile_data(changed_data("discordian", *changes)) if changes else ruleset("discordian")


def forty(modes: list[str], *more: str):
    return compile_data(changed_data("forty-thieves", f"set tableau.take_from [{', '.join(modes)}]", *more))


def legal(game) -> set[str]:
    return {describe(game, m) for m in game.legal_moves()}


def play(game, text: str) -> None:
    game.play(parse_move(game, text))


# ---- the moves each mode makes --------------------------------------------------------------------------------
def test_the_bottom_card_may_leave_as_well_as_the_top_one():
    layout = {"c1": "5H 6S", "c2": "6D 7C", "f": "4C", "s": "9D"}
    assert legal(Game(discordian(), seed=1).arrange(layout)) == {"d"}
    game = Game(discordian(BOTH_ENDS), seed=1).arrange(layout)
    assert legal(game) == {"c1@1 f"}
    assert narrate(game, parse_move(game, "c1@1 f")) == "5♥ from c1 to f"
    play(game, "c1@1 f")
    assert [game.deck.name(c) for c in game.state.piles[game.rules.pile_of_tag["c1"]]] == ["6♠"]
    assert legal(game) == {"c1 f", "c2@1 f"}  # 6♠ is now the bottom and the top: an ordinary move
    game.undo()
    assert [game.deck.name(c) for c in game.state.piles[game.rules.pile_of_tag["c1"]]] == ["5♥", "6♠"]
    game.redo()
    assert game.state.piles[game.rules.pile_of_tag["f"]][-1] == game.deck.parse_card("5H", Pos("<test>"))


def test_any_card_and_any_run_leave_from_inside_a_pile_and_the_cards_above_close_up():
    layout = {"t1": "9S 5H 4H 8D", "t2": "6H", "s": "KD"}
    assert {"t1@2 t2"} <= legal(Game(forty(["any"]), seed=1).arrange(layout))
    assert "t1@2 t2 2" not in legal(Game(forty(["any"]), seed=1).arrange(layout))  # one card at a time
    spider = compile_data(changed_data("spider", "set tableau.take_from [runs]"))
    runs = Game(spider, seed=1).arrange({"t1": "9S 5H 4H 8D", "t2": "6H", "s": "KD"})
    assert {"t1@2 t2 2", "t1@2 t2", "t1@3 t2"} - legal(runs) == {"t1@3 t2"}  # 4♥ does not go on 6♥
    play(runs, "t1@2 t2 2")
    assert [runs.deck.name(c) for c in runs.state.piles[0 + runs.rules.pile_of_tag["t1"]]] == ["9♠", "8♦"]
    assert [runs.deck.name(c) for c in runs.state.piles[runs.rules.pile_of_tag["t2"]]] == ["6♥", "5♥", "4♥"]


def test_a_face_down_card_never_leaves_from_below():
    game = Game(forty(["any", "bottom"]), seed=1).arrange({"t1": "5H 9S 8D", "t2": "6H", "s": "KD"}, {"t1": 1})
    assert not any(text.startswith("t1@1") for text in legal(game))
    with pytest.raises(MoveRefused, match="card 1 of t1 is face down"):
        parse_move(game, "t1@1 t2")


@pytest.mark.parametrize("move,refusal", [
    ("c1@2 f", r"9♠ may not leave c1 from there: the field gives cards from top, bottom \(piles.field.take_from\)"),
    ("c1@5 f", "c1 holds 3 cards"),
    ("c2@1 f", r"K♠ cannot go on 4♣: the foundation builds up or down"),
    ("c1@x f", "is not a card of one pile"),
])
def test_a_move_from_below_that_is_not_allowed_says_why(move, refusal):
    game = Game(discordian(BOTH_ENDS), seed=1).arrange({"c1": "5H 9S 9C", "c2": "KS 4D", "f": "4C", "s": "9D"})
    with pytest.raises(MoveRefused, match=refusal):
        parse_move(game, move)


def test_only_the_top_moves_where_the_rules_say_nothing_of_take_from():
    game = Game(discordian(), seed=1).arrange({"c1": "5H 9S", "f": "4C", "s": "9D"})
    with pytest.raises(MoveRefused, match=r"only cards from the top of c1 may move \(piles.field.take_from is top\)"):
        parse_move(game, "c1@1 f")


@pytest.mark.parametrize("modes", [["bottom"], ["top", "bottom"], ["any"], ["runs"], ["any", "runs", "top"]])
def test_cards_are_conserved_and_undo_goes_back_to_the_deal(modes):
    rules = forty(modes)
    for seed in (1, 2):
        game = Game(rules, seed=seed)
        start = [list(p) for p in game.state.piles], list(game.state.down)
        deck = Counter(c for p in game.state.piles for c in p)
        rng = Rng(seed, 0, 5)
        steps = 0
        while steps < 150 and (moves := game.legal_moves()):
            game.play(moves[rng.below(len(moves))])
            steps += 1
            assert Counter(c for p in game.state.piles for c in p) == deck
        while game.undo():
            pass
        assert ([list(p) for p in game.state.piles], list(game.state.down)) == start


def test_a_saved_game_with_moves_from_below_loads_to_the_same_position():
    game = Game(discordian(BOTH_ENDS), seed=3)
    for _ in range(8):
        reach = [m for m in game.legal_moves() if "@" in describe(game, m)]
        moves = reach or game.legal_moves()
        if not moves:
            break
        game.play(moves[0])
    assert any("@" in e.get("move", "") for e in game.events)
    again = game_from_data(json.loads(json.dumps(game_to_data(game))))
    assert again.state.key() == game.state.key()


# ---- the solver ------------------------------------------------------------------------------------------------
TINY = {
    "game": "Tiny reach",
    "deck": {"ranks": ["A", "2", "3"], "suits": [{"name": "clubs", "color": "black"}, {"name": "hearts", "color": "red"}]},
    "piles": {
        "foundation": {"count": 2, "build": "up in suit", "empty": "first rank", "take": "none"},
        "tableau": {"count": 2, "deal": ["up", "up", "up"], "build": "none", "empty": "none", "take": "top card"},
    },
    "win": "foundation.size == deck.size",
}


def test_the_solver_agrees_with_every_line_of_play_when_cards_leave_from_below(tmp_path):
    verdicts = []
    for modes in (["top"], ["top", "bottom"], ["any"]):
        data = json.loads(json.dumps(TINY))
        data["piles"]["tableau"]["take_from"] = modes
        path = tmp_path / f"tiny-{'-'.join(modes)}.yaml"
        path.write_text(yaml.safe_dump(data))
        rules = load_ruleset(path)
        for seed in range(1, 7):
            found = solve(rules, seed=seed, options=SearchOptions(states=20_000))
            assert found.verdict == (WON if winnable(Game(rules, seed=seed), 8) else NO_WIN), (modes, seed)
            verdicts.append((tuple(modes), found.verdict))
    assert (("top",), NO_WIN) in verdicts and (("any",), WON) in verdicts


# ---- the .rules phrase, the schema, the warning ----------------------------------------------------------------
def test_the_rules_phrase_reads_and_is_written_back():
    text = ("extends discordian\ngame: Both ends\n"
            "field: 7 field piles, tag c, deal 5 face up, no building, a space takes nothing, move top card, "
            "take from the top or the bottom\n")
    data = parse_rules(text, "<test>")
    assert data["piles"]["field"]["take_from"] == ["top", "bottom"]
    written = to_rules(data)
    assert "take from the top or the bottom" in written
    assert parse_rules(written, "<again>")["piles"]["field"]["take_from"] == ["top", "bottom"]
    assert parse_rules(text.replace("the top or the bottom", "any card or any run"),
                            "<test>")["piles"]["field"]["take_from"] == ["any", "runs"]


def test_the_rule_book_says_which_cards_leave_from_below_the_top():
    from kallisti.rulebook.build import build_book
    from kallisti.rulebook.render import render_text

    text = " ".join(render_text(build_book(discordian(BOTH_ENDS))).split())
    assert ("cards may leave from below the top: a run ending at the top or the bottom card (the first dealt)"
            in text)
    assert "from below the top" not in render_text(build_book(discordian()))


def test_an_unknown_mode_is_refused_by_the_schema():
    with pytest.raises(Exception, match="take_from"):
        amend(ruleset("discordian").data, "set field.take_from [top, middle]", baseline=ruleset("discordian"))


STILL = """\
game: Still
deck: {ranks: [A, 2, 3], suits: [{name: clubs, color: black}, {name: hearts, color: red}]}
piles:
  tableau: {count: 3, deal: [up, up], build: any, empty: any, take: top card}
win: tableau.size == 0
"""


def test_a_change_that_moves_runs_where_single_cards_moved_is_adopted_with_a_warning(tmp_path):
    path = tmp_path / "still.yaml"
    path.write_text(STILL)
    still = load_ruleset(path)
    adopted = amend(still.data, "set tableau.take any", baseline=still)
    [warning] = adopted.warnings
    assert (warning.code, warning.severity) == ("change-moves-runs", "warning")
    assert "up to 6 cards may leave a pile of the tableau at once, where one card at a time did before" in warning.message
    assert "take_from" in warning.suggestion
    assert amend(still.data, "set tableau.take_from [top, bottom]", baseline=still).warnings == ()


# ---- in a match: "the top card of a column as well as the bottom one" ------------------------------------------
FAR_END = {"c1": "5H 9S", "c2": "9C", "f": "4C", "s": "9D 9H"}


def test_both_ends_of_a_column_bite_the_target_only_and_survive_save_load_and_revoke():
    match = imposed_on_ann(BOTH_ENDS)
    assert match.changes[-1].warnings == ()  # one card at a time still: nothing to warn of
    for m in (match, reloaded(match)):
        game = m.game.arrange(dict(FAR_END))
        assert legal(game) == {"c1@1 f"}
        m.move(0, parse_move(game, "c1@1 f"))
        assert game.state.piles[game.rules.pile_of_tag["f"]][-1] == game.deck.parse_card("5H", Pos("<test>"))
        bobs = Game(m.rules_for(1), seed=1).arrange(dict(FAR_END))
        assert legal(bobs) == {"d"}
        with pytest.raises(MoveRefused, match="only cards from the top of c1 may move"):
            parse_move(bobs, "c1@1 f")
    match = revoked_by_ann(imposed_on_ann(BOTH_ENDS), "c1")
    for m in (match, reloaded(match)):
        assert m.active_changes(0) == []
        assert legal(Game(m.rules_for(0), seed=1).arrange(dict(FAR_END))) == {"d"}
