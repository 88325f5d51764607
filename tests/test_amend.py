"""Checking a rule change before it counts: every stage refuses what would break the game, and says where."""

from __future__ import annotations

import pytest

from kallisti.errors import KallistiError
from kallisti.interpreter import amend
from kallisti.model.ruleset import load_ruleset

# Two piles of two cards, nothing may move: every deal ends at once (lost).
STILL = """\
game: Still
deck: {ranks: [A, 2, 3], suits: [{name: clubs, color: black}, {name: hearts, color: red}]}
piles:
  tableau: {count: 2, deal: [up, up], build: none, empty: none, take: top card}
  stock: {deal: rest, take: none}
win: tableau.size == 0
"""


SHUTTLE = "set tableau {count: 2, deal: [up, up], build: any, empty: any, take: top card}"


@pytest.fixture
def still(tmp_path):
    path = tmp_path / "still.yaml"
    path.write_text(STILL)
    return load_ruleset(path)


def test_a_change_is_adopted_with_its_patch_data_and_rules(still):
    adopted = amend.amend(still.data, "set tableau.count 3", baseline=still)
    assert adopted.patch["set"] == "piles.tableau.count"
    assert len(adopted.rules.groups["tableau"].piles) == 3
    assert len(still.groups["tableau"].piles) == 2  # the rules it was made from are untouched


def test_a_change_that_makes_play_endless_is_refused(still):
    # Any card on any pile, and on a space: a card can shuttle between the two piles for ever.
    with pytest.raises(KallistiError) as refused:
        amend.amend(still.data, SHUTTLE, baseline=still)
    assert "no trial deal ends within" in str(refused.value)


def test_an_endless_game_may_stay_endless_when_it_already_was(still):
    shuttling = amend.amend(still.data, SHUTTLE, baseline=None, trial=False).rules
    adopted = amend.amend(shuttling.data, "set game Still Shuttling", baseline=shuttling)
    assert adopted.rules.name == "Still Shuttling"


def test_a_change_that_cannot_be_dealt_is_refused(still):
    with pytest.raises(KallistiError) as refused:
        amend.amend(still.data, "set tableau.deal [up, up, up, up]", baseline=still)
    assert "deal" in str(refused.value)


def test_a_change_that_changes_nothing_is_refused(still):
    with pytest.raises(KallistiError, match="changes nothing"):
        amend.amend(still.data, "set tableau.count 2", baseline=still)


def test_findings_point_into_the_change_text(still):
    with pytest.raises(KallistiError) as refused:
        amend.amend(still.data, "forbid tableau.build x: card.rank and true", baseline=still)
    finding = refused.value.findings[0]
    assert finding.pos.source == "<change>" and finding.pos.line == 1 and finding.pos.column > 20


def test_a_rule_that_fails_on_some_cards_is_refused(still):
    with pytest.raises(KallistiError, match="fails for some cards"):
        amend.amend(still.data, "forbid tableau.take big: card.value * 1000000000 * 1000000000 > 1", baseline=still)


def test_a_replace_is_judged_against_the_clauses_it_leaves_behind():
    """Forty Thieves builds its foundations up in suit: a new suit clause that also lets a card of the same rank on,
    beside the rank-up clause left in place, lets nothing more through; one that also builds down does."""
    forty = load_ruleset("forty-thieves")
    text = "replace foundation.build same-suit: card.suit == top.suit or card.rank == top.rank"
    with pytest.raises(KallistiError) as refused:
        amend.amend(forty.data, text, baseline=forty)
    (f,) = refused.value.findings
    assert (f.code, str(f.pos)) == ("change-left-behind", "<change>:1:9")
    assert "its part `card.rank == top.rank`" in f.message and "'rank-up' (card.rank == top.rank + 1), left in" in f.message
    whole = f.suggestion.split("`")[1]
    assert amend.amend(forty.data, whole, baseline=forty).rules.groups["foundation"].build.clauses[0].id == "same-suit"
    adopted = amend.amend(forty.data, "replace foundation.build rank-up: card.rank == top.rank + 1 or card.rank == top.rank - 1",
                          baseline=forty)
    assert [c.id for c in adopted.rules.groups["foundation"].build.clauses] == ["rank-up", "same-suit"]
