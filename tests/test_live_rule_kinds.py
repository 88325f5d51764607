"""Every kind of rule changed live: compulsory moves, automatic moves, losing rules, honour rules, win and score, each by
id, as a rule-change statement and as a patch; in a two-player match of Discordian Solitaire, an added compulsory move
and an added losing rule bite the player they were imposed on only, and survive save, load and revoke."""

from __future__ import annotations


import pytest
from scenario import changed_data, imposed_on_ann, reloaded, revoked_by_ann, ruleset

from kallisti.errors import KallistiError
from kallisti.grammar.changes import parse_change
from kallisti.grammar.rules_writer import change_text
from kallisti.interpreter.amend import amend, compile_data
from kallisti.interpreter.game import Game
from kallisti.interpreter.notation import MoveRefused, describe, parse_move
from kallisti.located import plain

# What Player X says, and the change that says it.
ENGLISH = {
    "You may deal a new foundation whenever you like.": "remove compulsory play-first",
    "Whenever you can play a card of rank five or lower, you must play one.":
        'compulsory low-first: from field to foundation when card.rank <= 5 "a card of rank five or lower must be played '
        'when one can be"',
    "You lose your turn as soon as a Queen tops the foundation.":
        'lose queen-on-top when any(p in foundation: p.top.rank == Q) "a Queen tops the foundation"',
}
DEAL_ANY_TIME, LOW_FIRST, QUEEN_LOSES = ENGLISH.values()
# A low card (4♠) and a high one (6♥) can both go on the 5♣; a 9 is left to deal.
LOW_AND_HIGH = {"c1": "6H", "c2": "4S", "c3": "8D", "f": "5C", "s": "9D 9S"}
# The Queen can go on the King; the 7♦ stays on the field, so the turn would go on.
QUEEN_UP = {"c1": "QH", "c2": "7D", "f": "KC", "s": "9D"}


def base():
    return ruleset("discordian")


def changed(*texts):
    """The base rules' data with each change adopted in turn."""
    return changed_data("discordian", *texts)


def legal(rules, layout) -> set[str]:
    game = Game(rules, seed=1).arrange(dict(layout))
    return {describe(game, m) for m in game.legal_moves()}


# ---- each kind of rule, by id, in both forms ------------------------------------------------------
@pytest.mark.parametrize("text,patch", [
    ("compulsory low-first: from field to foundation when card.rank <= 5",
     {"add": "compulsory.low-first", "value": {"from": "field", "to": "foundation", "when": "card.rank <= 5"}}),
    ("set compulsory.play-first from field to foundation when card.rank <= 5",
     {"set": "compulsory.play-first", "value": {"from": "field", "to": "foundation", "when": "card.rank <= 5"}}),
    ("delete compulsory.play-first", {"delete": "compulsory.play-first"}),
    ("remove compulsory play-first", {"remove": "compulsory", "id": "play-first"}),
    ('auto home on request: from field to foundation "play a card home"',
     {"add": "auto.home", "value": {"trigger": "on-request", "from": "field", "to": "foundation", "says": "play a card home"}}),
    ('lose queen-on-top when foundation.size > 3 "too many"', {"add": "lose.queen-on-top",
                                                                "value": {"when": "foundation.size > 3", "says": "too many"}}),
    ("remove honour no-spitting", {"remove": "honour", "id": "no-spitting"}),
    ("win when field.size <= 1", {"set": "win", "value": "field.size <= 1"}),
    ("score field.size * 2", {"set": "score", "value": "field.size * 2"}),
])
def test_a_change_of_each_kind_reads_as_its_patch_and_is_written_back(text, patch):
    assert plain(parse_change(text)) == patch
    assert plain(parse_change(change_text(patch))) == patch


@pytest.mark.parametrize("statement,patch,where,expected", [
    ("compulsory low-first: from field to foundation when card.rank <= 5",
     {"add": "compulsory.low-first", "value": {"from": "field", "to": "foundation", "when": "card.rank <= 5"}},
     "compulsory", ["play-first", "low-first"]),
    ("delete compulsory.play-first", {"delete": "compulsory.play-first"}, "compulsory", []),
    ('lose queen-on-top when any(p in foundation: p.top.rank == Q) "a Queen"',
     {"add": "lose.queen-on-top", "value": {"when": "any(p in foundation: p.top.rank == Q)", "says": "a Queen"}},
     "lose", ["queen-on-top"]),
    ("auto home: from field to foundation", {"add": "auto.home", "value": {"from": "field", "to": "foundation"}},
     "auto", ["home"]),
])
def test_the_statement_and_the_patch_make_the_same_rules(statement, patch, where, expected):
    from_text = changed(statement)
    from_patch = amend(base().data, "", patch=patch, trial=False).data
    assert plain(from_text) == plain(from_patch)
    assert [item["id"] for item in from_text[where]] == expected


def test_an_item_is_replaced_in_its_place_and_keeps_its_id():
    data = changed("set compulsory.play-first from field to foundation when card.rank <= 5")
    assert plain(data["compulsory"]) == [{"id": "play-first", "from": "field", "to": "foundation", "when": "card.rank <= 5"}]
    data = changed("lose too-slow when stock.size < 3", "set lose.too-slow.when stock.size < 2")
    assert plain(data["lose"]) == [{"id": "too-slow", "when": "stock.size < 2"}]


def test_an_item_added_twice_is_refused_suggesting_a_set_that_works():
    with pytest.raises(KallistiError) as info:
        changed("compulsory play-first: from field to foundation when card.rank <= 5")
    (f,) = info.value.findings
    assert f.code == "key-exists" and (f.pos.line, f.pos.column) == (1, 12)
    assert f.suggestion == "it is there already: use `set compulsory.play-first from field to foundation when card.rank <= 5`"


def test_an_item_added_by_its_place_is_refused_naming_it_by_its_id():
    with pytest.raises(KallistiError) as info:
        changed('add compulsory.1 {id: low-first, from: field, to: foundation, when: "card.rank <= 5"}')
    (f,) = info.value.findings
    assert f.code == "unknown-path" and "named by their ids" in f.message
    assert f.suggestion == "name the item by its id: `compulsory low-first: from field to foundation when card.rank <= 5`"


def test_a_misspelt_item_id_suggests_the_one_there():
    with pytest.raises(KallistiError) as info:
        changed("delete compulsory.play-frist")
    (f,) = info.value.findings
    assert "compulsory has no item 'play-frist' (its items: play-first)" in f.message
    assert f.suggestion == "did you mean `delete compulsory.play-first`?"


# ---- what each change does, in play --------------------------------------------------------------
def test_an_added_compulsory_move_leaves_only_the_moves_it_names():
    assert legal(base(), LOW_AND_HIGH) == {"c1 f", "c2 f"}  # play-first: a card must be played, either
    free = compile_data(changed(DEAL_ANY_TIME))
    assert legal(free, LOW_AND_HIGH) == {"c1 f", "c2 f", "d"}
    low = compile_data(changed(DEAL_ANY_TIME, LOW_FIRST))
    assert legal(low, LOW_AND_HIGH) == {"c2 f"}
    assert legal(low, {**LOW_AND_HIGH, "c2": "9H"}) == {"c1 f", "d"}  # no low card to play: the rule asks nothing
    game = Game(low, seed=1).arrange(dict(LOW_AND_HIGH))
    with pytest.raises(MoveRefused) as info:
        parse_move(game, "c1 f")
    assert str(info.value) == ("a compulsory move comes first: a card of rank five or lower must be played when one can "
                               "be (compulsory.low-first), e.g. `c2 f`")


def test_a_compulsory_move_without_words_is_still_explained():
    rules = compile_data(changed(DEAL_ANY_TIME, "compulsory low-first: from field to foundation when card.rank <= 5"))
    game = Game(rules, seed=1).arrange(dict(LOW_AND_HIGH))
    with pytest.raises(MoveRefused) as info:
        parse_move(game, "d")
    assert str(info.value) == ("a compulsory move comes first: a move it names must be made when one can be "
                               "(compulsory.low-first), e.g. `c2 f`")


def test_an_added_losing_rule_ends_the_game_lost_with_its_words():
    rules = compile_data(changed(QUEEN_LOSES))
    game = Game(rules, seed=1).arrange(dict(QUEEN_UP))
    game.play(parse_move(game, "c1 f"))
    assert (game.status().outcome, game.status().reason) == ("lost", "a Queen tops the foundation")
    game = Game(base(), seed=1).arrange(dict(QUEEN_UP))
    game.play(parse_move(game, "c1 f"))
    assert game.status().outcome == "playing"


# ---- in a match: the player it was imposed on only, through save, load and revoke ----------------------------
def test_an_added_compulsory_move_bites_its_target_only_and_survives_save_load_and_revoke():
    match = imposed_on_ann(DEAL_ANY_TIME, LOW_FIRST)
    assert [(c.id, c.target, c.text) for c in match.active_changes(0)] == [("c1", 0, DEAL_ANY_TIME), ("c2", 0, LOW_FIRST)]
    for m in (match, reloaded(match)):  # an arranged position ends the turn's pack: each match is looked at, not played on
        game = m.game.arrange(dict(LOW_AND_HIGH))
        assert {describe(game, x) for x in game.legal_moves()} == {"c2 f"}
        with pytest.raises(MoveRefused, match=r"compulsory\.low-first"):
            parse_move(game, "c1 f")
        assert legal(m.rules_for(1), LOW_AND_HIGH) == {"c1 f", "c2 f"}  # bob's rules: play-first, either card
    match = revoked_by_ann(imposed_on_ann(DEAL_ANY_TIME, LOW_FIRST), "c2")
    for m in (match, reloaded(match)):
        assert [c.id for c in m.active_changes(0)] == ["c1"]
        assert legal(m.rules_for(0), LOW_AND_HIGH) == {"c1 f", "c2 f", "d"}


def test_an_added_losing_rule_bites_its_target_only_and_survives_save_load_and_revoke():
    match = imposed_on_ann(QUEEN_LOSES)
    for m in (match, reloaded(match)):
        game = m.game.arrange(dict(QUEEN_UP))
        m.move(0, parse_move(game, "c1 f"))
        assert (m.records[-1].seat, m.records[-1].reason) == (0, "a Queen tops the foundation")
    bobs = Game(match.rules_for(1), seed=1).arrange(dict(QUEEN_UP))
    bobs.play(parse_move(bobs, "c1 f"))
    assert bobs.status().outcome == "playing"
    match = revoked_by_ann(imposed_on_ann(QUEEN_LOSES), "c1")
    for m in (match, reloaded(match)):
        assert m.active_changes(0) == [] and not m.rules_for(0).lose
        game = Game(m.rules_for(0), seed=1).arrange(dict(QUEEN_UP))
        game.play(parse_move(game, "c1 f"))
        assert game.status().outcome == "playing"


# ---- pile groups keep their identities; aliases work everywhere ---------------------------------------
def test_a_whole_group_set_anew_keeps_its_tag_so_its_piles_keep_their_names():
    rules = compile_data(changed("set field 6 piles, deal 6 face up, no building, a space takes nothing, move top card"))
    assert rules.groups["field"].tag == "c"
    assert [rules.tag_of[p] for p in rules.groups["field"].piles] == [f"c{i}" for i in range(1, 7)]
    retagged = compile_data(changed("set field 6 piles, tag k, deal 6 face up, a space takes nothing, move top card"))
    assert [retagged.tag_of[p] for p in retagged.groups["field"].piles] == [f"k{i}" for i in range(1, 7)]


@pytest.mark.parametrize("text", ["set field.rows 6", "set field.deal [up, up, up, up, up, up]"])
def test_rows_are_a_groups_deal_in_a_change_as_in_a_pile_line(text):
    assert plain(changed(text)["piles"]["field"]["deal"]) == ["up"] * 6


@pytest.mark.parametrize("text", ["set field.columns 6", "set field.piles 6", "set field.count 6"])
def test_columns_and_piles_are_a_groups_count(text):
    assert changed(text)["piles"]["field"]["count"] == 6


def test_a_pile_line_may_count_columns_as_a_path_does():
    by_path = changed("set field.count 6")
    by_line = changed("set field 6 columns, deal 5 face up, no building, a space takes nothing, move top card")
    assert plain(by_line["piles"]["field"]) == plain(by_path["piles"]["field"])
