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


def trial_deals_played(monkeypatch) -> list[int]:
    """The numbers of the trial deals played from now on, in order (with every trial kept before forgotten)."""
    played = []
    real = amend._trial_deal
    monkeypatch.setattr(amend, "_trial_deal", lambda r, k, cap: played.append(k) or real(r, k, cap))
    amend.forget_checked()
    return played


def test_a_change_no_deal_reads_is_tried_on_the_deals_of_the_rules_it_changes(monkeypatch):
    # A match's limit or an honour rule changes no deal: its trial deals are those of the rules before it, played once.
    rules = load_ruleset("discordian")
    played = trial_deals_played(monkeypatch)
    amend.amend(rules.data, "set match.loses_at 200", baseline=rules)
    assert played == [1, 2, 3]
    amend.amend(rules.data, "set match.loses_at 210", baseline=rules)
    amend.amend(rules.data, 'honour dance before deal: "Dance."', baseline=rules)
    assert played == [1, 2, 3]  # the same play: no deal played again
    amend.amend(rules.data, "set field.count 6", baseline=rules)
    assert played == [1, 2, 3, 1, 2, 3]  # other piles: other deals


def test_a_change_of_the_score_alone_plays_no_deal_again(monkeypatch):
    # The score is worked out once play has stopped: a change of it alone makes the moves of the rules before it, so
    # their trial deals are scored again, not played again (nor for a change of the game's name).
    rules = load_ruleset("discordian")
    played = trial_deals_played(monkeypatch)
    amend.amend(rules.data, "set score field.size * 2", baseline=rules)
    assert played == [1, 2, 3]
    amend.amend(rules.data, "set score field.size + stock.size", baseline=rules)
    amend.amend(rules.data, "set game Discordian Again", baseline=rules)
    assert played == [1, 2, 3]  # the same moves: the deals' ends scored again, not played again
    amend.amend(rules.data, "set score moves.size", baseline=rules)
    assert played == [1, 2, 3] * 2  # a score that reads the moves made: played again, keeping them
    amend.amend(rules.data, "set field.count 5", baseline=rules)
    assert played == [1, 2, 3] * 3


def test_the_play_key_tells_apart_exactly_the_data_a_deal_reads():
    from kallisti.model.amended import apply_all, play_key

    rules = load_ruleset("discordian")
    limit, honour, count = (apply_all(rules.data, [amend.parse(text)]) for text in (
        "set match.loses_at 200", 'honour dance before deal: "Dance."', "set field.count 6"))
    assert play_key(limit) == play_key(honour) == play_key(rules.data)
    assert play_key(count) != play_key(rules.data)
    assert amend.rules_play_key(rules) == play_key(rules.data) and amend.rules_key(rules) == amend.data_key(rules.data)


def test_applying_changes_leaves_the_data_they_are_applied_to_as_it_was():
    from kallisti.model.amended import apply_all
    from kallisti.located import plain

    rules = load_ruleset("discordian")
    before = plain(rules.data)
    once = apply_all(rules.data, [amend.parse("set field.count 6")])
    twice = apply_all(once, [amend.parse("forbid field.take no-pile-1: pile.index == 1")])
    assert plain(rules.data) == before
    assert once["piles"]["field"]["count"] == 6 and len(once["piles"]["field"]["take"]) == len(rules.data["piles"]["field"]["take"])
    assert twice["piles"]["field"]["take"][-1]["id"] == "no-pile-1"
    assert apply_all(rules.data, []) == rules.data and apply_all(rules.data, []) is not rules.data


def _same_tree(a, b) -> bool:
    """Equal data with equal positions at every node (keys, values, items), and the same kinds of node."""
    from kallisti.located import LDict, LList

    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        if isinstance(a, LDict) and (a.pos, a.key_pos, a.value_pos, a.comments) != (b.pos, b.key_pos, b.value_pos, b.comments):
            return False
        return list(a) == list(b) and all(_same_tree(a[k], b[k]) for k in a)
    if isinstance(a, list):
        if isinstance(a, LList) and (a.pos, a.item_pos, a.comments) != (b.pos, b.item_pos, b.comments):
            return False
        return len(a) == len(b) and all(_same_tree(x, y) for x, y in zip(a, b))
    return a == b


@pytest.mark.parametrize("game", ["discordian", "forty-thieves"])
def test_a_change_applied_sharing_what_it_leaves_gives_what_a_whole_copy_gives(game):
    # apply_all copies only the maps and lists a change can write into: the result is the one a copy of everything
    # gives, node for node and position for position, and the rules it was applied to are left as they were.
    from kallisti.catalogue import load_catalogue
    from kallisti.model.amended import apply_all
    from kallisti.model.loader import normalise
    from kallisti.located import copy
    from kallisti.model.patch import apply_patch
    from kallisti.solver.playerx import generated_changes

    rules = load_ruleset(game)
    texts = [e.change for e in load_catalogue("discordian")] if game == "discordian" else []
    texts += generated_changes(rules.data, rules.data) + [
        "set layout.waste.fan right", "delete compulsory.nothing", "remove foundation.build nothing",
        'honour dance before deal: "Dance."', "set piles.foundation.rows 2"]
    pristine = copy(rules.data)
    applied = 0
    for text in texts:
        patch = amend.parse(text)
        try:
            whole = apply_patch(rules.data, patch, normalise)
        except KallistiError as exc:
            with pytest.raises(KallistiError) as shared:
                apply_all(rules.data, [patch])
            assert shared.value.findings == exc.findings
            continue
        shared = apply_all(rules.data, [patch])
        assert _same_tree(shared, whole), text
        again = apply_all(shared, [amend.parse("set game Again")])  # a change upon a change shares in turn
        assert _same_tree(again, apply_patch(whole, amend.parse("set game Again"), normalise))
        applied += 1
    assert applied >= 20
    assert _same_tree(rules.data, pristine)
