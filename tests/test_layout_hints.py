"""Layout hints (`layout:`): the schema, the checks (a hint naming no group, two groups at one place), the `.rules`
syntax both ways, rule changes to them, and the browser's layout following them (docs/language.md, "Layout hints")."""

from __future__ import annotations

import textwrap

import pytest
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.errors import KallistiError
from kallisti.grammar.changes import parse_change
from kallisti.grammar.rules_front import parse_rules
from kallisti.grammar.rules_writer import change_text, to_rules
from kallisti.interpreter.amend import amend
from kallisti.located import load_yaml, plain
from kallisti.model.ruleset import load_ruleset
from kallisti.model.layout import group_layouts
from kallisti.web.session import Session

SPREAD = """\
extends: forty-thieves
game: Spread Thieves
layout:
  waste: {fan: right}
  foundation: {row: 2, column: 0}
"""


def load(tmp_path, text: str, name: str = "r.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return load_ruleset(path)


def refused(tmp_path, text: str, name: str = "r.yaml"):
    with pytest.raises(KallistiError) as caught:
        load(tmp_path, text, name)
    return caught.value.findings


def hinted(hints: str) -> str:
    return f"extends: forty-thieves\ngame: X\nlayout:\n{textwrap.indent(textwrap.dedent(hints), '  ')}"


# -- the schema ----------------------------------------------------------------------------------------------------

def test_the_schema_takes_hints_of_row_column_and_fan_each_optional(tmp_path):
    rules = load(tmp_path, hinted("""\
        stock: {row: 0, column: 0, fan: none}
        waste: {fan: right}
        tableau: {row: 99}
        """))
    assert plain(rules.data["layout"]) == {"stock": {"row": 0, "column": 0, "fan": "none"}, "waste": {"fan": "right"},
                                           "tableau": {"row": 99}}
    assert rules.findings == []


@pytest.mark.parametrize("hint, words", [
    ("waste: {fan: sideways}", "'sideways' is not one of ['down', 'right', 'none']"),
    ("waste: {row: -1}", "-1 is less than the minimum of 0"),
    ("waste: {column: 100}", "100 is greater than the maximum of 99"),
    ("waste: {row: 1.0}", "1.0 is not of type 'integer'"),
    ("waste: {row: true}", "True is not of type 'integer'"),
    ("waste: {side: left}", "unknown key 'side'"),
    ("waste: {}", "should be non-empty"),
    ("Waste: {fan: right}", "'Waste' does not match"),
    ("waste: right", "'right' is not of type 'object'"),
])
def test_the_schema_refuses_a_hint_that_is_not_one(tmp_path, hint, words):
    (finding,) = refused(tmp_path, hinted(hint))
    assert finding.code == "schema" and words in finding.message, finding


def test_a_misspelt_fan_is_refused_with_the_fans_to_choose_from(tmp_path):
    (finding,) = refused(tmp_path, hinted("waste: {fan: rigth}"))
    assert (finding.pos.line, finding.pos.column) == (4, 16) and finding.suggestion == "did you mean 'right'?"


# -- the checks ----------------------------------------------------------------------------------------------------

def test_a_hint_naming_no_group_is_unknown_pile_at_the_name_with_the_closest_group(tmp_path):
    (finding,) = refused(tmp_path, hinted("""\
        stock: {fan: none}
        wsate: {fan: right}
        """))
    assert finding.code == "unknown-pile" and finding.message == "layout.wsate names no group 'wsate'"
    assert (finding.pos.line, finding.pos.column) == (5, 3) and finding.suggestion == "did you mean 'waste'?"


def test_in_the_rules_syntax_too_the_unknown_group_is_found_at_its_name(tmp_path):
    (finding,) = refused(tmp_path, "extends forty-thieves\ngame: X\nlayout tablaeu: fan down\n", "r.rules")
    assert (finding.code, str(finding.pos), finding.suggestion) == ("unknown-pile", f"{tmp_path / 'r.rules'}:3:8",
                                                                   "did you mean 'tableau'?")


def test_a_ruleset_without_piles_has_no_group_a_hint_may_name(tmp_path):
    findings = refused(tmp_path, "extends: onion\ngame: X\nlayout: {hand: {fan: right}}\n")
    assert [f.code for f in findings] == ["unknown-pile"]


def test_two_groups_at_one_place_are_a_warning_at_the_hint_that_put_one_there(tmp_path):
    rules = load(tmp_path, hinted("""\
        waste: {fan: right}
        foundation: {row: 1, column: 0}
        """))
    (warning,) = rules.findings
    assert warning.code == "layout-overlap" and warning.severity == "warning"
    assert warning.message.startswith("layout.foundation puts foundation at row 1, column 0, where tableau (by the "
                                      "automatic layout) is too")
    assert (warning.pos.line, warning.pos.column) == (5, 3)
    assert warning.suggestion == "give foundation a place of its own, such as row 1, column 1"


def test_two_hinted_groups_at_one_place_name_each_other(tmp_path):
    rules = load(tmp_path, hinted("""\
        stock: {row: 3, column: 1}
        waste: {row: 3, column: 1}
        """))
    (warning,) = rules.findings
    assert warning.message.startswith("layout.waste puts waste at row 3, column 1, where stock (by its hint) is too")
    assert warning.pos.line == 5


def test_hints_that_give_every_group_its_own_place_raise_nothing(tmp_path):
    rules = load(tmp_path, hinted("""\
        stock: {row: 2, column: 0}
        waste: {row: 2, column: 1, fan: right}
        foundation: {fan: none}
        """))
    assert rules.findings == []
    places = group_layouts(rules)
    assert len({(p["row"], p["column"]) for p in places.values()}) == len(places)


def test_a_fan_alone_moves_nothing_and_cannot_overlap(tmp_path):
    rules = load(tmp_path, hinted("waste: {fan: right}\nstock: {fan: down}\n"))
    assert rules.findings == []


def test_validate_reports_the_overlap_as_a_warning_and_fails_it_only_with_strict(tmp_path):
    path = tmp_path / "o.rules"
    path.write_text("extends forty-thieves\ngame: X\nlayout waste: row 1, column 0\n", encoding="utf-8")
    plain_run = CliRunner().invoke(app, ["validate", str(path)])
    assert plain_run.exit_code == 0 and "o.rules:3:8: warning layout-overlap: layout.waste puts waste at row 1, " \
        "column 0, where tableau" in plain_run.output
    assert CliRunner().invoke(app, ["validate", "--strict", str(path)]).exit_code == 1


# -- the .rules syntax ---------------------------------------------------------------------------------------------

RULES = """\
game: Hinted
description: One pack, one tableau, one foundation.

foundation: 4 foundation piles, build up in suit, a space takes first rank, nothing leaves
tableau: 7 tableau piles, deal 4 face up, build down in suit, a space takes any card, move top card
stock: stock pile, deal the rest, nothing leaves, turn 1 card to waste, no redeal
waste: waste pile, move top card

win when foundation.size == deck.size

# the stock and the waste below the tableau, the waste spread
layout stock: row 2, column 0
layout waste: row 2, column 1, fan right
"""

YAML = """\
game: Hinted
description: One pack, one tableau, one foundation.
piles:
  foundation: {count: 4, role: foundation, build: up in suit, empty: first rank, take: none}
  tableau: {count: 7, role: tableau, deal: [up, up, up, up], build: down in suit, empty: any, take: top card}
  stock: {role: stock, deal: rest, take: none, turn: {to: waste, count: 1}, redeals: 0}
  waste: {role: waste, take: top card}
win: foundation.size == deck.size
# the stock and the waste below the tableau, the waste spread
layout:
  stock: {row: 2, column: 0}
  waste: {row: 2, column: 1, fan: right}
"""


def test_a_layout_line_is_a_hint_of_the_same_data_as_yaml():
    rules_data, yaml_data = parse_rules(RULES, "h.rules"), load_yaml(YAML, "h.yaml")
    assert plain(rules_data) == plain(yaml_data)
    assert rules_data.comments["layout"] == yaml_data.comments["layout"] == [
        "the stock and the waste below the tableau, the waste spread"]
    assert to_rules(rules_data) == RULES  # canonical: written back as it was
    assert to_rules(yaml_data) == RULES


def test_phrases_come_in_any_order_and_are_written_row_column_fan():
    data = parse_rules("game: G\nlayout waste: fan right, column 1, row 0,\n")
    assert plain(data)["layout"] == {"waste": {"fan": "right", "column": 1, "row": 0}}
    assert to_rules(data).endswith("\nlayout waste: row 0, column 1, fan right\n")


@pytest.mark.parametrize("data, line", [
    ({"layout": {}}, "layout: none"),
    ({"layout": {"none": {"fan": "down"}}}, 'layout "none": fan down'),
    ({"layout": {"waste": {"row": -1}}}, "set layout {waste: {row: -1}}"),
    ({"layout": {"waste": {"fan": "sideways"}}}, "set layout {waste: {fan: sideways}}"),
    ({"piles": {"layout": {"count": 2}}, "layout": {"layout": {"row": 1}}}, "layout layout: row 1"),
])
def test_what_the_phrases_cannot_say_is_written_so_that_it_reads_back(data, line):
    data = {"game": "G", **data}
    text = to_rules(data)
    assert line in text.splitlines()
    assert plain(parse_rules(text)) == data


@pytest.mark.parametrize("text, code, column, words", [
    ("layout waste: fan sideways", "rules-syntax", 19, "expected 'down', 'none' or 'right'"),
    ("layout waste: row x", "rules-syntax", 19, "expected a number"),
    ("layout waste:", "rules-syntax", 14, "expected a layout phrase"),
    ("layout waste: row 1, row 2", "duplicate-key", 22, "the row of 'waste' is given twice"),
])
def test_a_bad_layout_line_is_reported_where_it_goes_wrong(text, code, column, words):
    with pytest.raises(KallistiError) as caught:
        parse_rules(f"game: G\n{text}\n", "b.rules")
    (finding,) = caught.value.findings
    assert (finding.code, finding.pos.line, finding.pos.column) == (code, 2, column) and words in finding.message, finding


def test_a_group_given_two_hints_or_hints_after_none_is_refused():
    for text in ("layout waste: fan right\nlayout waste: row 0\n", "layout: none\nlayout waste: row 0\n",
                 "layout waste: row 0\nlayout: none\n"):
        with pytest.raises(KallistiError) as caught:
            parse_rules(f"game: G\n{text}")
        assert [f.code for f in caught.value.findings] == ["duplicate-key"]


def test_convert_goes_both_ways_with_the_comments(tmp_path):
    (tmp_path / "h.rules").write_text(RULES, encoding="utf-8")
    to_yaml = CliRunner().invoke(app, ["convert", str(tmp_path / "h.rules"), "--to", "yaml", "-o", str(tmp_path / "h.yaml")])
    assert to_yaml.exit_code == 0, to_yaml.output
    back = CliRunner().invoke(app, ["convert", str(tmp_path / "h.yaml"), "--to", "rules"])
    assert back.exit_code == 0 and back.output == RULES
    assert load_ruleset(tmp_path / "h.yaml").plain() == load_ruleset(tmp_path / "h.rules").plain()


def test_a_variant_gives_hints_its_parent_lacks_without_add(tmp_path):
    rules = load(tmp_path, "extends forty-thieves\ngame: Spread\n\nlayout waste: fan right\n", "v.rules")
    assert plain(rules.data["layout"]) == {"waste": {"fan": "right"}}
    child = load(tmp_path, "extends: v.rules\ngame: Spread Again\nlayout: {waste: {row: 0, column: 9}}\n", "w.yaml")
    assert plain(child.data["layout"]) == {"waste": {"fan": "right", "row": 0, "column": 9}}
    (finding,) = refused(tmp_path, "extends forty-thieves\ngame: X\nlayout wsate: fan right\n", "x.rules")
    assert (finding.code, finding.pos.line, finding.pos.column) == ("unknown-pile", 3, 8)


# -- rule changes --------------------------------------------------------------------------------------------------

def test_set_layout_is_a_rule_change_even_on_a_game_with_no_hints():
    patch = parse_change("set layout.waste.fan right")
    assert plain(patch) == {"set": "layout.waste.fan", "value": "right"}
    assert change_text(plain(patch)) == "set layout.waste.fan right"
    base = load_ruleset("forty-thieves")
    assert "layout" not in base.data
    changed = amend(base.data, "set layout.waste.fan right", baseline=base)
    assert plain(changed.data["layout"]) == {"waste": {"fan": "right"}}
    again = amend(changed.data, "set layout.waste.row 0", baseline=changed.rules)
    assert plain(again.data["layout"]) == {"waste": {"fan": "right", "row": 0}}
    dropped = amend(again.data, "delete layout.waste", baseline=again.rules)
    assert plain(dropped.data["layout"]) == {}


@pytest.mark.parametrize("text, code, column, suggestion", [
    ("set layout.waste.fan sideways", "schema", 22, "one of down, right, none"),
    ("set layout.waste.fna right", "schema", 5, "did you mean 'fan'?"),
    ("set layout.wsate.fan right", "unknown-pile", 5, "did you mean 'waste'?"),
])
def test_a_layout_change_that_is_no_hint_is_refused_at_its_place(text, code, column, suggestion):
    base = load_ruleset("forty-thieves")
    with pytest.raises(KallistiError) as caught:
        amend(base.data, text, baseline=base)
    (finding,) = [f for f in caught.value.findings if f.severity == "error"]
    assert (finding.code, finding.pos.line, finding.pos.column, finding.suggestion) == (code, 1, column, suggestion)


def test_a_misspelt_path_outside_layout_is_still_an_unknown_path():
    base = load_ruleset("forty-thieves")
    with pytest.raises(KallistiError) as caught:
        amend(base.data, "set piles.wsate.count 3", baseline=base)
    assert [f.code for f in caught.value.findings] == ["unknown-path"]


# -- the browser's layout ------------------------------------------------------------------------------------------

def test_the_browser_lays_the_table_out_by_the_hints(tmp_path):
    rules = load(tmp_path, SPREAD)
    places = group_layouts(rules)
    auto = group_layouts(load_ruleset("forty-thieves"))
    assert places["waste"] == {**auto["waste"], "fan": "right"}
    assert places["foundation"] == {"row": 2, "column": 0, "fan": "none"}
    assert places["stock"] == auto["stock"] and places["tableau"] == auto["tableau"]
    state = Session("s1", "spread", rules, 3).state()
    assert {g["name"]: g["layout"] for g in state["groups"]} == places


def test_a_layout_change_in_play_shows_at_once_with_no_new_deal():
    s = Session("s1", "forty-thieves", load_ruleset("forty-thieves"), 3)
    dealt = [p["cards"] for p in s.state()["piles"]]
    check = s.check_rule("set layout.waste.fan right")
    assert check["ok"] and check["diff"] == ["+ layout: {waste: {fan: right}}"]
    s.rule("set layout.waste.fan right")
    state = s.state()
    assert next(g for g in state["groups"] if g["name"] == "waste")["layout"]["fan"] == "right"
    assert [p["cards"] for p in state["piles"]] == dealt
