"""Refusals of changed clauses read as sentences naming the pile and the rule; `replace` keeps a clause's kind and
words; a change whose clause never or always holds gets the finding `validate` gives, at the change."""

from __future__ import annotations


import pytest
from scenario import changed_data, ruleset

from kallisti.errors import KallistiError
from kallisti.interpreter.amend import amend, compile_data
from kallisti.interpreter.game import Game
from kallisti.interpreter.notation import MoveRefused, parse_move
from kallisti.located import plain

RED_ON_RED = {"c1": "4D", "c2": "7S", "f": "5H", "s": "9C"}  # 4♦ on 5♥: red on red
SIX_ON_FIVE = {"c1": "6H", "c2": "4S", "c3": "7S", "f": "5C", "s": "9C"}


def base():
    return ruleset("discordian")


def changed(*texts):
    """The base rules with each change adopted in turn, compiled."""
    return compile_data(changed_data("discordian", *texts))


def refusal(rules, layout, move: str) -> str:
    game = Game(rules, seed=1).arrange(dict(layout))
    with pytest.raises(MoveRefused) as info:
        parse_move(game, move)
    return str(info.value)


def allowed(rules, layout, move: str) -> bool:
    game = Game(rules, seed=1).arrange(dict(layout))
    try:
        parse_move(game, move)
    except MoveRefused:
        return False
    return True


def refused(text: str, rules=None):
    with pytest.raises(KallistiError) as info:
        amend((rules or base()).data, text, trial=False)
    return info.value.findings


# ---- the words of a refusal ----------------------------------------------------------------------------
@pytest.mark.parametrize("change,layout,move,sentence", [
    ('forbid foundation.build "red on red": card.color == red and top.color == red', RED_ON_RED, "c1 f",
     '4♦ cannot go on 5♥: the foundation has the rule "red on red" (piles.foundation.build, clause red-on-red)'),
    ('forbid foundation.build "no twos": card.rank == 2', {"c1": "2S", "c2": "7S", "f": "3H", "s": "9C"}, "c1 f",
     '2♠ cannot go on 3♥: the foundation has the rule "no twos" (piles.foundation.build, clause no-twos)'),
    ('forbid foundation.build red-on-red: card.color == red and top.color == red "Red may not go on red."', RED_ON_RED,
     "c1 f", "4♦ cannot go on 5♥: Red may not go on red (piles.foundation.build, clause red-on-red)"),
    ('forbid foundation.build red-on-red: card.color == red and top.color == red "takes no red card on a red one"',
     RED_ON_RED, "c1 f",
     "4♦ cannot go on 5♥: the foundation takes no red card on a red one (piles.foundation.build, clause red-on-red)"),
    ("forbid foundation.build c1: card.rank == 6", SIX_ON_FIVE, "c1 f",
     "6♥ cannot go on 5♣: the foundation forbids `card.rank == 6` (piles.foundation.build, clause c1)"),
    ('require field.take "only the four leftmost columns": pile.index <= 4', {"c5": "6H", "c1": "9S", "f": "5C", "s": "9C"},
     "c5 f", '6♥ cannot leave c5: the field has the rule "only the four leftmost columns" '
             "(piles.field.take, clause only-the-four-leftmost-columns)"),
])
def test_a_changed_clause_refuses_in_a_sentence_naming_the_pile_and_the_rule(change, layout, move, sentence):
    assert refusal(changed(change), layout, move) == sentence


# ---- replace keeps the clause's kind and words ----------------------------------------------------------
def test_replace_without_a_kind_keeps_a_forbid_clause_a_forbid():
    rules = changed("forbid foundation.build c1: card.rank == 5", "replace foundation.build c1: card.rank == 6")
    clause = plain(rules.data["piles"]["foundation"]["build"][-1])
    assert clause == {"id": "c1", "forbid": "card.rank == 6"}
    assert refusal(rules, SIX_ON_FIVE, "c1 f") == \
        "6♥ cannot go on 5♣: the foundation forbids `card.rank == 6` (piles.foundation.build, clause c1)"
    assert allowed(rules, SIX_ON_FIVE, "c2 f")  # the 4 still goes on the 5: only sixes are refused


def test_replace_keeps_what_the_clause_says_unless_it_says_something_new():
    kept = changed('forbid foundation.build no-red: card.color == red and top.color == red "takes no red card on a red one"',
                   "replace foundation.build no-red: card.color == red and top.color == red and card.rank != A")
    assert refusal(kept, RED_ON_RED, "c1 f") == \
        "4♦ cannot go on 5♥: the foundation takes no red card on a red one (piles.foundation.build, clause no-red)"
    new = changed('forbid foundation.build no-red: card.color == red and top.color == red "takes no red card on a red one"',
                  'replace foundation.build no-red: card.suit == top.suit "takes no card of its own suit"')
    assert refusal(new, {"c1": "4H", "c2": "7S", "f": "5H", "s": "9C"}, "c1 f") == \
        "4♥ cannot go on 5♥: the foundation takes no card of its own suit (piles.foundation.build, clause no-red)"


def test_replace_with_a_new_kind_drops_the_words_that_said_the_opposite():
    rules = changed('forbid foundation.build no-red: card.color == red "takes no red card"',
                    "replace foundation.build no-red require: card.color == red")
    assert plain(rules.data["piles"]["foundation"]["build"][-1]) == {"id": "no-red", "require": "card.color == red"}


def test_a_title_in_replace_names_the_clause_and_leaves_its_words():
    rules = changed('forbid foundation.build "red on red": card.color == red and top.color == red',
                    'replace foundation.build "red on red": card.color == red and top.color == red and card.rank != A')
    clause = plain(rules.data["piles"]["foundation"]["build"][-1])
    assert clause["says"] == 'has the rule "red on red"' and "forbid" in clause


# ---- a clause that never or always holds: validate's finding, at the change -------------------------------
def validate_finding(clause: dict, tmp_path):
    """The finding `validate` gives for the clause added to Discordian Solitaire's foundation by a variant file."""
    from kallisti.cli.validate import validate_files

    path = tmp_path / "variant.yaml"
    path.write_text("game: Variant\nextends: discordian\nchanges:\n  - " + str(clause).replace("'", '"') + "\n",
                    encoding="utf-8")
    (report,) = validate_files([path])
    return [f for f in report.findings if f.code.startswith("clause-")]


@pytest.mark.parametrize("verb,expr,code", [
    ("forbid", "card.rank == 5 and card.rank == 6", "clause-never-true"),
    ("require", "card.rank >= A", "clause-always-true"),
])
def test_a_clause_that_never_or_always_holds_is_refused_with_validates_finding(verb, expr, code, tmp_path):
    text = f"{verb} foundation.build x: {expr}"
    (f,) = refused(text)
    (v,) = validate_finding({verb: "piles.foundation.build", "id": "x", "expr": expr}, tmp_path)
    assert (f.code, f.message, f.suggestion) == (v.code, v.message, v.suggestion) == (
        code, v.message, "remove the clause")
    assert (f.pos.source, f.pos.line, f.pos.column) == ("<change>", 1, text.index(expr) + 1)
    assert "refuses nothing" in f.message


def test_a_losing_rule_that_can_never_hold_is_refused_at_its_condition():
    text = 'lose never when field.size > 100 "the field overflows"'
    (f,) = refused(text)
    assert f.code == "lose-never-true" and (f.pos.line, f.pos.column) == (1, text.index("field.size") + 1)
    assert "can never hold" in f.message


# ---- a change that leaves no way back --------------------------------------------------------------------
@pytest.mark.parametrize("text", ["set match.player_x {changes: 0, revoke: false}", "delete match.player_x"])
def test_a_change_that_would_make_its_player_never_player_x_again_is_refused(text):
    (f,) = refused(text)
    assert f.code == "change-no-way-back" and (f.pos.line, f.pos.column) == (1, text.index("match") + 1)
    assert "could never be Player X again" in f.message and "could never be revoked" in f.message


def test_limiting_player_x_to_the_revoke_is_adopted():
    rules = changed("set match.player_x.changes 0")
    assert (rules.match.changes, rules.match.revoke) == (0, True)
