"""Rule-change statements: each verb reads into the exact patch of the model, applies to Forty Thieves
as it says, refuses cleanly, and reports mistakes at the column where they are."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kallisti.errors import KallistiError
from kallisti.grammar.changes import parse_change, parse_changes, title_id
from kallisti.grammar.rules_writer import change_text
from kallisti.model.loader import normalise, resolve
from kallisti.located import plain
from kallisti.model.patch import apply_patch
from kallisti.model.ruleset import Ruleset

STATEMENTS = [
    ("set piles.tableau.count 12", {"set": "piles.tableau.count", "value": 12}),
    ("set tableau.count 12", {"set": "piles.tableau.count", "value": 12}),
    ("set field.columns 5", {"set": "piles.field.count", "value": 5}),
    ("set tableau.piles 7", {"set": "piles.tableau.count", "value": 7}),
    ("set piles.tableau.columns 5", {"set": "piles.tableau.columns", "value": 5}),  # the long form is taken literally
    ("set tableau.build down alternate colour", {"set": "piles.tableau.build", "value": "down alternate colour"}),
    ("set tableau.deal [down, up, up]", {"set": "piles.tableau.deal", "value": ["down", "up", "up"]}),
    ("set stock.redeals unlimited", {"set": "piles.stock.redeals", "value": "unlimited"}),
    ("set stock.turn {to: waste, count: 3}", {"set": "piles.stock.turn", "value": {"to": "waste", "count": 3}}),
    ("set win foundation.size >= 52", {"set": "win", "value": "foundation.size >= 52"}),
    ("set score 0", {"set": "score", "value": "0"}),
    ("set foundation.prefill card.rank == first", {"set": "piles.foundation.prefill", "value": "card.rank == first"}),
    ('set game "Forty Thieves, my way"', {"set": "game", "value": "Forty Thieves, my way"}),
    ("add piles.reserve {count: 8, deal: [up]}", {"add": "piles.reserve", "value": {"count": 8, "deal": ["up"]}}),
    ("add reserve 4 reserve piles, deal 1 face up, move top card",
     {"add": "piles.reserve", "value": {"count": 4, "role": "reserve", "deal": ["up"], "take": "top card"}}),
    ("delete piles.reserve", {"delete": "piles.reserve"}),
    ("delete foundation.take", {"delete": "piles.foundation.take"}),
    ("forbid piles.foundation.build black-on-black: card.color == black and top.color == black",
     {"forbid": "piles.foundation.build", "id": "black-on-black", "expr": "card.color == black and top.color == black"}),
    ('forbid foundation.build "black on black": card.color == black and top.color == black',
     {"forbid": "piles.foundation.build", "id": "black-on-black", "expr": "card.color == black and top.color == black",
      "says": 'has the rule "black on black"'}),
    ('require piles.tableau.empty kings-only: card.rank == last  "only kings fill a space"',
     {"require": "piles.tableau.empty", "id": "kings-only", "expr": "card.rank == last", "says": "only kings fill a space"}),
    ("replace piles.tableau.build rank-down: card.rank == top.rank - 2",
     {"replace": "piles.tableau.build", "id": "rank-down", "expr": "card.rank == top.rank - 2"}),
    ("replace tableau.build rank-down require: card.rank == top.rank - 2",
     {"replace": "piles.tableau.build", "id": "rank-down", "require": "card.rank == top.rank - 2"}),
    ("compulsory kings-first: from tableau to foundation when card.rank == last",
     {"add": "compulsory.kings-first", "value": {"from": "tableau", "to": "foundation", "when": "card.rank == last"}}),
    ('auto aces on request: move from tableau or waste to foundation "aces home"',
     {"add": "auto.aces", "value": {"trigger": "on-request", "kind": "move", "from": ["tableau", "waste"],
                                    "to": "foundation", "says": "aces home"}}),
    ('lose too-slow when stock.size == 0 and waste.size > 20 "too many left"',
     {"add": "lose.too-slow", "value": {"when": "stock.size == 0 and waste.size > 20", "says": "too many left"}}),
    ("set compulsory.kings-first from tableau to foundation", {"set": "compulsory.kings-first",
                                                               "value": {"from": "tableau", "to": "foundation"}}),
    ("set lose.too-slow when waste.size > 30", {"set": "lose.too-slow", "value": {"when": "waste.size > 30"}}),
    ("win when foundation.size == 104", {"set": "win", "value": "foundation.size == 104"}),
    ("score 104 - foundation.size", {"set": "score", "value": "104 - foundation.size"}),
    ("compulsory: none", {"set": "compulsory", "value": []}),
    ("remove honour no-spitting", {"remove": "honour", "id": "no-spitting"}),
    ("replace tableau.build same-suit forbid: card.suit == top.suit",
     {"replace": "piles.tableau.build", "id": "same-suit", "forbid": "card.suit == top.suit"}),
    ("remove piles.tableau.build same-suit", {"remove": "piles.tableau.build", "id": "same-suit"}),
    ('remove tableau.build "Same suit"', {"remove": "piles.tableau.build", "id": "same-suit"}),
    ("revoke c3", {"revoke": "c3"}),
    ('revoke "change 3"', {"revoke": "change 3"}),
    ("{forbid: piles.foundation.build, id: x, expr: true}", {"forbid": "piles.foundation.build", "id": "x", "expr": True}),
]


@pytest.mark.parametrize("text,patch", STATEMENTS)
def test_each_statement_is_one_patch(text, patch):
    assert plain(parse_change(text)) == patch


def test_positions_are_those_of_the_statement_text():
    text = 'forbid foundation.build "black on black": card.color == black  # no black on black'
    patch = parse_change(text, "player-x")
    assert patch.pos.source == "player-x" and (patch.pos.line, patch.pos.column) == (1, 1)
    assert patch.value_pos["forbid"].column == text.index("foundation.build") + 1
    assert patch.value_pos["id"].column == text.index("black on black") + 1
    assert patch.value_pos["expr"].column == text.index("card.color") + 1
    value = parse_change("set tableau.deal [down, up]")
    assert value.value_pos["value"].column == len("set tableau.deal ") + 1
    assert value["value"].item_pos[1].column == len("set tableau.deal [down, ") + 1


def test_a_title_becomes_an_id_and_what_the_clause_says():
    assert title_id("Black on black!") == "black-on-black"
    patch = parse_change('forbid foundation.build "No Kings!": card.rank == last  "kings wait"')
    assert (patch["id"], patch["says"]) == ("no-kings", "kings wait")


def test_several_statements_one_per_line():
    text = "# Player X's changes\nset tableau.count 12\n\nremove tableau.build same-suit\nforbid foundation.build b: true\n" \
           "    \"says it on the next line\"\n"
    patches = parse_changes(text, "log")
    assert [plain(p) for p in patches] == [
        {"set": "piles.tableau.count", "value": 12}, {"remove": "piles.tableau.build", "id": "same-suit"},
        {"forbid": "piles.foundation.build", "id": "b", "expr": "true", "says": "says it on the next line"}]
    assert patches.comments == {0: ["Player X's changes"]}
    assert [p.pos.line for p in patches] == [2, 4, 5]


# ---- applied to Forty Thieves ------------------------------------------------------------------
@pytest.fixture(scope="module")
def forty():
    data, _ = resolve("forty-thieves")
    return data


def apply(data, text):
    return apply_patch(data, parse_change(text), normalise)


def ids(rule):
    return [c["id"] for c in rule]


def test_set_changes_one_value(forty):
    new = apply(forty, "set tableau.count 12")
    assert new["piles"]["tableau"]["count"] == 12
    assert plain({**new, "piles": {**new["piles"], "tableau": {**new["piles"]["tableau"], "count": 10}}}) == plain(forty)


def test_set_a_whole_rule_from_a_macro(forty):
    new = apply(forty, "set tableau.build down alternate colour")
    assert ids(new["piles"]["tableau"]["build"]) == ["rank-down", "alternate-colour"]


def test_add_and_delete_a_group(forty):
    new = apply(forty, "add reserve 4 reserve piles, deal 1 face up, move top card")
    reserve = new["piles"]["reserve"]
    assert (reserve["count"], reserve["role"], reserve["deal"], ids(reserve["take"])) == (4, "reserve", ["up"], ["one-card"])
    assert list(new["piles"]) == ["foundation", "tableau", "stock", "waste", "reserve"]
    Ruleset(new)  # a consistent ruleset: the stock takes the rest of the pack
    back = apply(new, "delete reserve")
    assert plain(back) == plain(forty)


def test_delete_a_rule_brings_back_its_default(forty):
    new = apply(forty, "delete foundation.take")
    assert ids(new["piles"]["foundation"]["take"]) == ["one-card"]


def test_forbid_and_require_add_clauses(forty):
    new = apply(forty, 'forbid foundation.build "black on black": card.color == black and top.color == black')
    clause = new["piles"]["foundation"]["build"][-1]
    assert plain(clause) == {"id": "black-on-black", "forbid": "card.color == black and top.color == black",
                             "says": 'has the rule "black on black"'}
    assert ids(new["piles"]["foundation"]["build"]) == ["rank-up", "same-suit", "black-on-black"]
    new = apply(forty, 'require tableau.empty kings-only: card.rank == last  "only kings fill a space"')
    assert plain(new["piles"]["tableau"]["empty"]) == [{"id": "kings-only", "require": "card.rank == last", "says": "only kings fill a space"}]


def test_replace_may_change_the_kind(forty):
    new = apply(forty, "replace tableau.build same-suit forbid: card.suit == top.suit")
    assert plain(new["piles"]["tableau"]["build"][1]) == {"id": "same-suit", "forbid": "card.suit == top.suit"}
    new = apply(forty, "replace tableau.build rank-down: card.rank == top.rank - 2")
    assert plain(new["piles"]["tableau"]["build"][0]) == {"id": "rank-down", "require": "card.rank == top.rank - 2"}


def test_remove_edits_the_rule(forty):
    new = apply(forty, "remove tableau.build same-suit")
    assert ids(new["piles"]["tableau"]["build"]) == ["rank-down"]


@pytest.mark.parametrize("text,code,suggestion", [
    ("remove tableau.build same-colour", "unknown-clause", "did you mean 'same-suit'?"),
    ("forbid tableau.build same-suit: true", "duplicate-clause", None),
    ("set tableau.cuont 3", "unknown-path", "did you mean 'count'?"),
    ("add tableau.count 3", "key-exists", "use `set: piles.tableau.count`"),
    ("revoke c3", "patch-verb", None),
])
def test_a_refused_change_leaves_the_ruleset_as_it_was(forty, text, code, suggestion):
    before = plain(forty)
    with pytest.raises(KallistiError) as info:
        apply(forty, text)
    (f,) = info.value.findings
    assert f.code == code
    if suggestion is not None:
        assert f.suggestion == suggestion
    assert f.pos.source == "<change>" and f.pos.line == 1
    assert plain(forty) == before


def test_an_expression_error_in_a_change_points_into_its_text(forty):
    text = "forbid foundation.build odd: card.suit == 3"
    new = apply(forty, text)
    with pytest.raises(KallistiError) as info:
        Ruleset(new)
    (f,) = info.value.findings
    assert f.code == "expr-type" and (f.pos.source, f.pos.line, f.pos.column) == ("<change>", 1, text.index("card.suit") + 1)


# ---- mistakes ------------------------------------------------------------------------------------
def refused(text):
    with pytest.raises(KallistiError) as info:
        parse_change(text)
    return info.value.findings


def test_a_missing_colon_is_named():
    (f,) = refused("forbid foundation.build black-on-black card.color == black")
    assert (f.code, f.pos.column) == ("change-syntax", len("forbid foundation.build black-on-black ") + 1)
    assert "expected ':'" in f.message
    assert f.excerpt.splitlines()[1].index("^") == 4 + len("forbid foundation.build black-on-black ")


def test_a_misspelled_verb_is_suggested():
    (f,) = refused("forbd foundation.build x: true")
    assert (f.code, f.pos.column, f.suggestion) == ("change-syntax", 1, "did you mean 'forbid'?")
    assert "a rule change" in f.message


def test_an_unclosed_bracket_points_where_it_opened():
    (f,) = refused("set tableau.deal [up, up")
    assert (f.code, f.pos.column) == ("unclosed", len("set tableau.deal ") + 1)
    (g,) = refused('forbid foundation.build "black on black: true')
    assert (g.code, g.pos.column) == ("unclosed", len("forbid foundation.build ") + 1)


def test_a_bad_expression_is_reported_at_its_column():
    (f,) = refused("set win foundation.size ==")
    assert f.message == "the line ends too early: expected an expression"
    (g,) = refused("require tableau.empty k: card.rank = last")
    assert (g.pos.column, g.suggestion) == (len("require tableau.empty k: card.rank ") + 1, "write == to compare")


def test_a_title_without_letters_is_refused():
    (f,) = refused('forbid tableau.build "!!": true')
    assert f.code == "change-id" and f.pos.column == len("forbid tableau.build ") + 2


def test_one_change_is_one_statement():
    (f,) = refused("set tableau.count 3\nset tableau.count 4")
    assert (f.code, f.pos.line) == ("change-count", 2)
    (g,) = refused("   ")
    assert g.code == "change-count"


def test_every_bad_line_of_several_is_reported():
    with pytest.raises(KallistiError) as info:
        parse_changes("set tableau.count 3\nforbd x.build y: true\nremove tableau.build\n")
    assert [f.pos.line for f in info.value.findings] == [2, 3]


def test_a_raw_map_must_be_a_patch():
    (f,) = refused("{set: win}")
    assert f.code == "change-shape"


# ---- writing changes -------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "set tableau.count 12", "set tableau.build down alternate colour", "add reserve 4 reserve piles, deal 1 face up",
    "delete reserve", "forbid foundation.build black-on-black: card.color == black  \"no black on black\"",
    "replace tableau.build rank-down forbid: card.rank == top.rank - 2", "remove tableau.build same-suit", "revoke c3",
    "set win foundation.size >= 52", "set piles.tableau.columns 5", "replace tableau.build rank-down: card.rank == top.rank - 2",
    "compulsory kings-first: from tableau to foundation when card.rank == last",
    'auto aces on request: from tableau or waste to foundation when card.rank == first  "aces home"',
    "lose too-slow when waste.size > 20", "set compulsory.kings-first from tableau to foundation", "remove honour no-spitting",
])
def test_canonical_statements_are_written_as_read(text):
    assert change_text(parse_change(text)) == text


values = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-5, 10**6), st.sampled_from(["down in suit", "two\nlines", "x", ""])),
                      lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(["to", "count", "x y"]),
                                                                                         inner, max_size=2)), max_leaves=5)
paths = st.sampled_from(["piles.tableau.count", "win", "piles.foundation.prefill", "piles.reserve", "piles.win.count", "tableau.count",
                         "lose.0.when", "piles.tableau.build.0.require", "deck.packs", "weird path", "piles.tableau.piles",
                         "compulsory.kings-first", "auto.x", "lose.too-slow", "lose.too-slow.when", "compulsory.x.when"])
exprs = st.sampled_from(["card.rank == first", "(a) or (b)", "a ==", " padded", "x\ny", True, False, 'count(c in cards: c.suit == "x")'])


@st.composite
def patches(draw):
    verb = draw(st.sampled_from(["set", "add", "delete", "require", "forbid", "replace", "remove", "revoke"]))
    path = draw(paths)
    if verb in ("set", "add"):
        return {verb: path, "value": draw(st.one_of(values, exprs))}
    if verb == "delete":
        return {"delete": path}
    if verb == "revoke":
        return {"revoke": draw(st.sampled_from(["c3", "change 7", "x.y:z", ""]))}
    if verb == "remove":
        return {"remove": path, "id": draw(st.sampled_from(["same-suit", "Weird Id", "none"]))}
    out = {verb: path, "id": draw(st.sampled_from(["same-suit", "1", "none", "Weird Id"] if verb == "replace" else ["same-suit", "1", "when"]))}
    if verb == "replace":
        for kind in draw(st.sampled_from([["require"], ["forbid"], ["expr"], ["require", "forbid"], []])):
            out[kind] = draw(exprs)
    else:
        out["expr"] = draw(exprs)
    if draw(st.booleans()):
        out["says"] = draw(st.sampled_from(["says", 'with "quotes"', "a # b", ""]))
    return out


@settings(max_examples=300, deadline=None)
@given(patches())
def test_any_patch_is_written_as_a_statement_that_reads_back(patch):
    text = change_text(patch)
    assert "\n" not in text
    assert plain(parse_change(text)) == patch, text
