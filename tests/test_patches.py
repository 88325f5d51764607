"""Patches and `extends`: overrides, additions, clause edits, transactional application, positions."""

from __future__ import annotations

import textwrap

import pytest

from kallisti.errors import KallistiError
from kallisti.interpreter.game import Game
from kallisti.model.loader import normalise, resolve
from kallisti.located import plain
from kallisti.model.patch import apply_patch
from kallisti.model.ruleset import load_ruleset

from scenario import allowed, cards, play, refusal


def write(folder, name: str, text: str):
    path = folder / name
    path.write_text(textwrap.dedent(text).lstrip())
    return path


def load(folder, text: str, name: str = "child.yaml"):
    return load_ruleset(write(folder, name, text))


def refused(folder, text: str, name: str = "child.yaml"):
    with pytest.raises(KallistiError) as exc:
        load(folder, text, name)
    return exc.value.findings


def clause_ids(rule) -> list[str]:
    return [c.id for c in rule.clauses]


# -- extends and overrides ----------------------------------------------------------------------


def test_override_sets_a_value_and_keeps_the_rest(tmp_path):
    r = load(tmp_path, """
        extends: forty-thieves
        game: Thirty-Two Thieves
        piles:
          tableau:
            count: 8
    """)
    assert r.name == "Thirty-Two Thieves"
    assert len(r.groups["tableau"].piles) == 8
    g = Game(r, seed=3)
    assert len(g.state.piles[r.pile_of_tag["s"]]) == 104 - 32
    # Everything not overridden is inherited.
    assert clause_ids(r.groups["tableau"].build) == ["rank-down", "same-suit"]
    assert clause_ids(r.groups["foundation"].build) == ["rank-up", "same-suit"]
    assert [p.id for p in r.auto] == ["aces-up"]


def test_override_replaces_a_whole_rule(tmp_path):
    r = load(tmp_path, """
        extends: forty-thieves
        game: Colourful Thieves
        piles:
          tableau:
            build: down alternate colour
    """)
    assert clause_ids(r.groups["tableau"].build) == ["rank-down", "alternate-colour"]
    g = Game(r).arrange({"t1": "9S", "t2": "8H", "t3": "8S"})
    assert allowed(g, "t2 t1")
    assert "clause alternate-colour" in refusal(g, "t3 t1")


def test_extends_a_relative_path(tmp_path):
    write(tmp_path, "base.yaml", """
        extends: forty-thieves
        game: Base
        piles:
          tableau:
            count: 9
    """)
    r = load(tmp_path, """
        extends: base.yaml
        game: Grandchild
        piles:
          stock:
            redeals: 1
    """)
    assert len(r.groups["tableau"].piles) == 9 and r.groups["stock"].redeals == 1
    assert [s.name for s in r.sources][-2:] == [str(tmp_path / "base.yaml"), str(tmp_path / "child.yaml")]


def test_add_a_key_the_parent_lacks(tmp_path):
    r = load(tmp_path, """
        extends: forty-thieves
        game: Aces First
        add:
          piles:
            foundation:
              prefill: card.rank == first
    """)
    g = Game(r, seed=8)
    assert all(g.deck.rank[g.state.piles[p][0]] == 0 for p in r.groups["foundation"].piles)
    assert len(g.state.piles[r.pile_of_tag["s"]]) == 104 - 8 - 40


def test_add_a_new_pile_group(tmp_path):
    r = load(tmp_path, """
        extends: forty-thieves
        game: With A Cell
        add:
          piles:
            cell:
              role: cell
              tag: c
              empty: any
    """)
    g = Game(r).arrange({"t1": "9S 5H"})
    play(g, "t1 c")
    assert cards(g, "c") == ["5H"]


def test_add_of_an_existing_key_is_refused(tmp_path):
    [f] = refused(tmp_path, """
        extends: forty-thieves
        game: Twice
        add:
          piles:
            tableau:
              count: 8
    """)
    assert f.code == "key-exists"


def test_override_of_a_key_the_parent_lacks_is_refused(tmp_path):
    [f] = refused(tmp_path, """
        extends: forty-thieves
        game: Typo
        piles:
          tablaeu:
            count: 8
    """)
    assert f.code == "unknown-override"
    assert "piles.tablaeu" in f.message
    assert "did you mean 'tableau'" in f.suggestion
    assert (f.pos.source, f.pos.line, f.pos.column) == (str(tmp_path / "child.yaml"), 4, 3)


def test_override_of_a_valid_but_missing_key_suggests_add(tmp_path):
    [f] = refused(tmp_path, """
        extends: forty-thieves
        game: Prefilled
        piles:
          foundation:
            prefill: card.rank == first
    """)
    assert f.code == "unknown-override"
    assert "add:" in f.suggestion


# -- changes: clause edits -------------------------------------------------------------------


def test_require_adds_a_clause_with_its_id(tmp_path):
    r = load(tmp_path, """
        extends: forty-thieves
        game: No Kings In Spaces
        changes:
          - forbid: piles.tableau.empty
            id: no-kings
            expr: card.rank == K
            says: takes no king into a space
          - require: piles.foundation.build
            id: spades-last
            expr: card.suit == spades or foundation.size < 200
    """)
    assert clause_ids(r.groups["tableau"].empty) == ["no-kings"]
    assert clause_ids(r.groups["foundation"].build) == ["rank-up", "same-suit", "spades-last"]
    g = Game(r).arrange({"t1": "9S KH", "t2": "QD"})
    assert refusal(g, "t1 t3") == "K♥ cannot go to the empty t3: the tableau takes no king into a space (piles.tableau.empty, clause no-kings)"
    assert allowed(g, "t2 t3")


def test_replace_changes_a_clause_expression(tmp_path):
    r = load(tmp_path, """
        extends: forty-thieves
        game: Red And Black Thieves
        changes:
          - replace: piles.tableau.build
            id: same-suit
            require: card.color != top.color
            says: alternates colours
    """)
    assert clause_ids(r.groups["tableau"].build) == ["rank-down", "same-suit"]
    g = Game(r).arrange({"t1": "10S", "t2": "9H", "t3": "9C", "t4": "8S"})
    assert allowed(g, "t2 t1")
    assert "clause same-suit" in refusal(g, "t3 t1")
    assert "clause rank-down" in refusal(g, "t4 t1")


def test_remove_same_suit_leaves_down_regardless_of_suit(tmp_path):
    r = load(tmp_path, """
        extends: forty-thieves
        game: Any Suit Thieves
        changes:
          - remove: piles.tableau.build
            id: same-suit
    """)
    assert clause_ids(r.groups["tableau"].build) == ["rank-down"]
    g = Game(r).arrange({"t1": "10S", "t2": "9H", "t3": "9C", "t4": "8S", "t5": "JD"})
    assert allowed(g, "t2 t1") and allowed(g, "t3 t1")
    assert "clause rank-down" in refusal(g, "t4 t1")
    assert "clause rank-down" in refusal(g, "t5 t1")
    play(g, "t3 t1")
    assert cards(g, "t1") == ["10S", "9C"]
    assert "clause one-card" in refusal(g, "t1 t5 2")  # the other rules are untouched


def test_delete_a_key(tmp_path):
    r = load(tmp_path, """
        extends: lucas
        game: Lucas Without Its Aces
        changes:
          - delete: piles.foundation.prefill
    """)
    g = Game(r, seed=4)
    assert all(not g.state.piles[p] for p in r.groups["foundation"].piles)
    assert len(g.state.piles[r.pile_of_tag["s"]]) == 104 - 39


def test_delete_of_automatic_moves(tmp_path):
    r = load(tmp_path, """
        extends: forty-thieves
        game: No Help
        changes:
          - delete: auto
    """)
    g = Game(r).arrange({"t1": "AS"})
    assert g.play_auto() == []


def test_a_clause_id_that_exists_is_refused(tmp_path):
    [f] = refused(tmp_path, """
        extends: forty-thieves
        game: Twice Suited
        changes:
          - require: piles.tableau.build
            id: same-suit
            expr: card.suit == top.suit
    """)
    assert f.code == "duplicate-clause"
    assert "replace" in f.suggestion
    assert f.pos.source == str(tmp_path / "child.yaml") and 4 <= f.pos.line <= 6  # within the patch


def test_an_unknown_clause_id_is_refused_with_a_suggestion(tmp_path):
    [f] = refused(tmp_path, """
        extends: forty-thieves
        game: Typo
        changes:
          - remove: piles.tableau.build
            id: same-siut
    """)
    assert f.code == "unknown-clause"
    assert f.suggestion == "did you mean 'same-suit'?"
    assert "rank-down" in f.message and "same-suit" in f.message


def test_replace_of_an_unknown_clause_is_refused(tmp_path):
    [f] = refused(tmp_path, """
        extends: forty-thieves
        game: Typo
        changes:
          - replace: piles.foundation.build
            id: rank-upp
            require: card.rank == top.rank + 1
    """)
    assert f.code == "unknown-clause" and f.suggestion == "did you mean 'rank-up'?"


def test_a_clause_edit_on_something_that_is_not_a_rule_is_refused(tmp_path):
    [f] = refused(tmp_path, """
        extends: forty-thieves
        game: Odd
        changes:
          - require: piles.tableau.count
            id: more
            expr: "true"
    """)
    assert f.code == "not-a-rule"


def test_set_of_a_missing_path_is_refused(tmp_path):
    [f] = refused(tmp_path, """
        extends: forty-thieves
        game: Odd
        changes:
          - set: piles.tableau.prefill
            value: card.rank == K
    """)
    assert f.code == "unknown-path" and "add:" in f.suggestion


# -- apply_patch is transactional ---------------------------------------------------------------


@pytest.fixture()
def base():
    data, _ = resolve("forty-thieves")
    return data


@pytest.mark.parametrize("patch, code", [
    ({"require": "piles.tableau.build", "id": "same-suit", "expr": "true"}, "duplicate-clause"),
    ({"remove": "piles.tableau.build", "id": "nope"}, "unknown-clause"),
    ({"replace": "piles.tableau.build", "id": "same-suit"}, "patch-shape"),
    ({"set": "piles.tableau.nothing", "value": 3}, "unknown-path"),
    ({"set": "piles.nowhere.count", "value": 3}, "unknown-path"),
    ({"add": "piles.tableau.count", "value": 3}, "key-exists"),
    ({"delete": "piles.tableau.nothing"}, "unknown-path"),
    ({"forbid": "piles.tableau.deal", "id": "x", "expr": "true"}, "not-a-rule"),
    ({"revoke": "c1"}, "patch-verb"),
])
def test_a_refused_patch_leaves_the_data_exactly_as_it_was(base, patch, code):
    before = plain(base)
    positions = dict(base["piles"]["tableau"].value_pos)
    with pytest.raises(KallistiError) as exc:
        apply_patch(base, patch, normalise)
    assert exc.value.findings[0].code == code
    assert plain(base) == before
    assert base["piles"]["tableau"].value_pos == positions


@pytest.mark.parametrize("patch", [
    {"set": "piles.tableau.count", "value": 7},
    {"add": "piles.foundation.prefill", "value": "card.rank == first"},
    {"delete": "auto"},
    {"require": "piles.tableau.build", "id": "red", "expr": "card.color == red"},
    {"replace": "piles.tableau.build", "id": "same-suit", "forbid": "card.suit == top.suit"},
    {"remove": "piles.tableau.build", "id": "same-suit"},
])
def test_an_applied_patch_changes_only_the_copy(base, patch):
    before = plain(base)
    out = apply_patch(base, patch, normalise)
    assert plain(base) == before
    assert plain(out) != before


def test_patches_apply_in_order_on_a_copy(base):
    once = apply_patch(base, {"remove": "piles.tableau.build", "id": "same-suit"}, normalise)
    twice = apply_patch(once, {"require": "piles.tableau.build", "id": "same-suit", "expr": "card.suit != top.suit"}, normalise)
    assert [c["id"] for c in once["piles"]["tableau"]["build"]] == ["rank-down"]
    assert [c["id"] for c in twice["piles"]["tableau"]["build"]] == ["rank-down", "same-suit"]
    assert twice["piles"]["tableau"]["build"][1]["require"] == "card.suit != top.suit"
    assert [c["id"] for c in base["piles"]["tableau"]["build"]] == ["rank-down", "same-suit"]


# -- positions survive extends -------------------------------------------------------------------

PARENT = """
    game: Parent
    deck:
      packs: 1
    piles:
      foundation:
        count: 4
        build: up in suit
        empty:
          - id: no-kings
            forbid: card.rank == K
          - first rank
      tableau:
        count: 4
        deal: [up]
        build: down in suit
        empty: any
      stock:
        role: stock
        deal: rest
        turn: {to: waste}
      waste:
        take: top card
    win: foundation.size == deck.size
"""


def test_the_parent_loads(tmp_path):
    r = load(tmp_path, PARENT, "parent.yaml")
    assert r.deck.size == 52 and clause_ids(r.groups["foundation"].empty) == ["no-kings", "first-rank"]


def test_findings_point_at_the_file_that_wrote_the_expression(tmp_path):
    write(tmp_path, "parent.yaml", PARENT)
    findings = refused(tmp_path, """
        extends: parent.yaml
        game: Short Pack
        deck:
          ranks: [A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q]
        win: foundation.sise == deck.size
    """)
    by_code = {f.code: f for f in findings}
    assert set(by_code) == {"unknown-name", "unknown-attribute"}
    # An inherited rule that no longer compiles: the parent's line, the column of `K` in it.
    inherited = by_code["unknown-name"]
    assert inherited.pos.source == str(tmp_path / "parent.yaml")
    line = (tmp_path / "parent.yaml").read_text().splitlines()[inherited.pos.line - 1]
    assert "forbid: card.rank == K" in line and line[inherited.pos.column - 1] == "K"
    # The overridden expression: the child's line, the column of the fault.
    overridden = by_code["unknown-attribute"]
    assert overridden.pos.source == str(tmp_path / "child.yaml") and overridden.pos.line == 5
    line = (tmp_path / "child.yaml").read_text().splitlines()[4]
    start = line.index("foundation.sise")
    assert start <= overridden.pos.column - 1 < start + len("foundation.sise")


def test_clause_positions_follow_their_files(tmp_path):
    write(tmp_path, "parent.yaml", PARENT)
    r = load(tmp_path, """
        extends: parent.yaml
        game: Child
        changes:
          - require: piles.tableau.build
            id: not-on-queens
            expr: top.rank != Q
    """)
    clauses = {c.id: c for c in r.groups["tableau"].build.clauses}
    assert clauses["rank-down"].pos.source == str(tmp_path / "parent.yaml")
    assert clauses["not-on-queens"].pos.source == str(tmp_path / "child.yaml")
    assert clauses["not-on-queens"].pos.line == 6
    assert r.groups["foundation"].empty.clauses[0].pos.source == str(tmp_path / "parent.yaml")
    assert r.groups["foundation"].empty.clauses[0].pos.line == 10


def test_a_bad_override_value_is_reported_at_the_childs_line(tmp_path):
    findings = refused(tmp_path, """
        extends: forty-thieves
        game: Bad Build
        piles:
          tableau:
            build:
              - id: odd
                require: card.rank == top.rank - 1 and card.suit == 3
    """)
    [f] = findings
    assert f.code == "expr-type" and f.pos.source == str(tmp_path / "child.yaml") and f.pos.line == 7
    line = (tmp_path / "child.yaml").read_text().splitlines()[6]
    assert line[f.pos.column - 1:].startswith("card.suit == 3")


def test_a_refused_override_is_reported_at_its_key(tmp_path):
    [f] = refused(tmp_path, """
        extends: forty-thieves
        game: Bad
        piles:
          tableau:
            flop: true
    """)
    assert f.pos.source == str(tmp_path / "child.yaml") and f.pos.line == 5
