"""The static checks that prove something about a whole ruleset: clauses that never or always hold,
rules whose clauses contradict, piles no card reaches or leaves, and wins that can never hold.

Each check must fire on a broken ruleset and stay quiet on the sound one next to it: these checks
claim proofs, so a false alarm is as much a bug as a missed fault.
"""

from __future__ import annotations

import textwrap

import pytest

from kallisti.cli.validate import validate_files
from kallisti.errors import KallistiError
from kallisti.model.loader import shipped_games
from kallisti.model.ruleset import load_ruleset

STATIC_CODES = {"clause-never-true", "clause-always-true", "rule-contradiction", "pile-unreachable", "pile-inert",
                "win-unreachable", "foundation-capacity"}


def findings(tmp_path, text: str) -> list[tuple[str, str]]:
    """(code, message) of every finding of the ruleset `text`, errors and warnings alike."""
    path = tmp_path / "r.yaml"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    try:
        found = load_ruleset(path).findings
    except KallistiError as exc:
        found = exc.findings
    return [(f.code, f.message) for f in found]


def codes(tmp_path, text: str) -> list[str]:
    return [code for code, _ in findings(tmp_path, text)]


def test_the_shipped_rulesets_raise_no_finding_under_strict():
    results = validate_files(sorted(map(str, shipped_games().values())), strict=True)
    assert [(r.file, [f.code for f in r.findings]) for r in results if r.findings] == []
    assert all(r.valid for r in results)


# -- clauses -------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind, expr, code, effect", [
    ("require", "card.rank > last", "clause-never-true", "refuses every card"),
    ("forbid", "card.rank > last", "clause-never-true", "refuses nothing"),
    ("require", "card.rank <= last", "clause-always-true", "refuses nothing"),
    ("forbid", "card.suit == top.suit or card.suit != top.suit", "clause-always-true", "refuses every card"),
])
def test_a_constant_clause_is_named_with_what_it_does(tmp_path, kind, expr, code, effect):
    found = findings(tmp_path, f"""
        extends: forty-thieves
        game: X
        changes:
          - {kind}: piles.tableau.build
            id: odd
            expr: {expr}
        """)
    assert [c for c, _ in found] == [code]
    assert f"the {kind} clause 'odd' ({expr})" in found[0][1] and effect in found[0][1]


def test_a_clause_on_the_count_is_tried_for_every_count(tmp_path):
    assert codes(tmp_path, """
        extends: forty-thieves
        game: X
        changes:
          - require: piles.waste.take
            id: many
            expr: count > deck.size
        """) == ["clause-never-true"]
    # `count <= 3` holds for some counts and not others: no finding (the foundations take one card at a time).
    assert codes(tmp_path, """
        extends: forty-thieves
        game: X
        piles:
          tableau:
            take: [{id: three, require: count <= 3}]
          foundation:
            build: [{id: one-card, require: count == 1}, up in suit]
            empty: [{id: one-card, require: count == 1}, first rank]
        """) == []


def test_a_clause_that_reads_the_position_is_not_judged(tmp_path):
    assert codes(tmp_path, """
        extends: forty-thieves
        game: X
        changes:
          - require: piles.tableau.build
            id: never-in-practice
            expr: foundation.size > deck.size
        """) == []


def test_the_none_macro_and_written_constants_are_no_fault(tmp_path):
    assert codes(tmp_path, """
        extends: forty-thieves
        game: X
        piles:
          waste:
            build: [{id: never, require: "false"}]
        """) == []


def test_contradicting_clauses_blame_the_one_without_which_the_rest_can_hold(tmp_path):
    found = findings(tmp_path, """
        extends: forty-thieves
        game: X
        changes:
          - require: piles.tableau.build
            id: red-on-red
            expr: card.color == top.color and card.color == red
          - require: piles.tableau.build
            id: other-suit
            expr: card.suit != top.suit
        """)
    assert [c for c, _ in found] == ["rule-contradiction"]
    assert "'other-suit'" in found[0][1].split(" and ")[0]


def test_clauses_that_can_hold_together_are_no_contradiction(tmp_path):
    assert codes(tmp_path, """
        extends: forty-thieves
        game: X
        changes:
          - require: piles.tableau.build
            id: no-kings
            expr: card.rank != last
        """) == []


# -- piles -----------------------------------------------------------------------------------------

def test_a_group_fed_only_by_a_turn_or_a_discard_is_reachable(tmp_path):
    # Spider's discard piles take whole suits by their empty rule; Decade's discard by `discard_to`.
    for game in ("spider", "decade"):
        assert load_ruleset(game).findings == []


def test_a_take_rule_that_reads_the_position_may_let_cards_leave(tmp_path):
    assert codes(tmp_path, """
        extends: forty-thieves
        game: X
        piles:
          tableau:
            take: [{id: one-card, require: count == 1}, {id: later, require: foundation.size > 0}]
        """) == []


def test_a_reserve_that_gives_cards_is_not_inert(tmp_path):
    assert codes(tmp_path, """
        extends: forty-thieves
        game: X
        add:
          piles:
            reserve: {role: reserve, count: 1, deal: [up]}
        piles:
          stock: {deal: rest}
        """) == []


# -- the win ----------------------------------------------------------------------------------------

def test_cards_that_cannot_leave_a_pile_the_win_needs_empty(tmp_path):
    found = findings(tmp_path, """
        game: X
        piles:
          field: {role: field, count: 4, deal: [up, up], take: none}
          stock: {role: stock, deal: rest, take: none, turn: {to: waste}}
          waste: {role: waste}
        win: field.empty
        """)
    assert ("win-unreachable", "the win needs piles.field empty, but no rule lets the 8 cards dealt to piles.field "
            "leave it") in found


def test_a_foundation_that_wraps_has_no_bound(tmp_path):
    # Seven piles building up in suit round the corner can in principle hold any number of cards.
    assert codes(tmp_path, """
        extends: forty-thieves
        game: X
        piles:
          foundation: {count: 7, build: up in suit with wrap, empty: any}
        """) == []


def test_capacity_counts_the_longest_build_from_what_an_empty_pile_takes(tmp_path):
    # Any card may start a foundation, so every card can get there; but a pile still holds 13 at most.
    found = findings(tmp_path, """
        extends: forty-thieves
        game: X
        piles:
          foundation: {count: 7, empty: any}
        """)
    assert found == [("foundation-capacity", "the win needs all 104 cards on foundation, but as their rules build they "
                      "hold at most 91")]


def test_a_card_no_rule_lets_reach_the_foundations(tmp_path):
    found = findings(tmp_path, """
        extends: forty-thieves
        game: X
        changes:
          - forbid: piles.foundation.build
            id: stop-at-queen
            expr: card.rank == last
        """)
    assert found == [("win-unreachable", "no rule lets the K♣ (and 3 other kinds of card) reach foundation, so the win "
                      "`foundation.size == deck.size` can never hold")]


def test_prefilled_cards_start_the_foundations(tmp_path):
    assert load_ruleset("lucas").findings == []  # the aces are prefilled, everything builds on them
    found = findings(tmp_path, """
        extends: lucas
        game: X
        piles:
          foundation: {build: up in suit, empty: none}
        changes:
          - set: piles.foundation.prefill
            value: card.rank == 2
        """)
    assert [c for c, _ in found] == ["win-unreachable"]
    assert "no rule lets the A♣ (and 3 other kinds of card) reach foundation" in found[0][1]


def test_runs_that_land_whole_make_the_capacity_unknowable(tmp_path):
    # Spider's eight discard piles take 13 cards at a time: single-card chains would count 8.
    assert load_ruleset("spider").findings == []


def test_a_win_of_another_shape_is_not_judged(tmp_path):
    assert codes(tmp_path, """
        extends: forty-thieves
        game: X
        piles:
          foundation: {build: down in suit}
        win: foundation.size >= 2
        """) == []
