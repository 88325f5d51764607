"""A rule change's ruleset judged only where it changed: the schema's findings, the keys and the trial deals are those
of judging the whole ruleset afresh."""

from __future__ import annotations

import hashlib
import json
import random

import pytest

from kallisti.catalogue import load_catalogue
from kallisti.errors import KallistiError, Pos
from kallisti.interpreter import amend
from kallisti.located import plain
from kallisti.model import amended
from kallisti.model.loader import resolve, schema_findings, shipped_games
from kallisti.model.ruleset import load_ruleset
from mutation.base import Shipped
from mutation.operators import OPERATORS

HERE = Pos("<change>", 1, 1)
# Changes the schema refuses, each in another part of the schema: a number out of range, an unknown key, an empty
# list, a pattern, a type, a required key deleted, an enum, a map left empty, a number below its least.
REFUSED = ("set field.count 0", "add field.bogus 1", "set deck.ranks []", "set field.deal [sideways]",
           "set stock.turn {to: foundation, count: 0}", "set game 3", "delete win", "set field.take_from [middle]",
           "set piles {}", "set field.redeals -1")
FORTY_THIEVES = ("set tableau.build down alternate colour", "set tableau.count 12", "set tableau.deal [up, up, up]",
                 "set stock.redeals unlimited", "set stock.turn {to: waste, count: 3}", "set tableau.empty last rank",
                 'lose too-slow when moves.size > 400 "too many moves"', "set score foundation.size * 5",
                 "set tableau.count 300", "add tableau.bogus 1", "set stock.redeals -2")


def _changes():
    yield "discordian", [entry.change for entry in load_catalogue("discordian")] + list(REFUSED)
    yield "forty-thieves", list(FORTY_THIEVES)


def _old_key(data) -> str:
    """The data key as it was first written: the SHA-256 of the whole JSON text."""
    return hashlib.sha256(json.dumps(plain(data), sort_keys=True, ensure_ascii=False).encode()).hexdigest()


@pytest.mark.parametrize("game,changes", list(_changes()), ids=["discordian", "forty-thieves"])
def test_a_changed_ruleset_has_the_schema_findings_of_a_whole_validation(game, changes):
    rules = load_ruleset(game)
    refused = 0
    for change in changes:
        data = amended.apply_all(rules.data, [amend.parse(change)])
        whole = schema_findings(data, "resolved", HERE)
        assert schema_findings(data, "resolved", HERE, base=rules.data) == whole, change
        refused += bool(whole)
    assert refused >= (len(REFUSED) if game == "discordian" else 3)  # the comparison saw refusals, not only passes


def _shared(data, base):
    """`data` with each part equal to the base's part at the same place made the base's own, as the data of a rule
    change share what the change left alone."""
    if type(data) is type(base) and data == base:
        return base
    if isinstance(data, dict) and isinstance(base, dict):
        return {k: _shared(v, base[k]) if k in base else v for k, v in data.items()}
    if isinstance(data, list) and isinstance(base, list):
        return [_shared(v, base[i]) if i < len(base) else v for i, v in enumerate(data)]
    return data


def test_mutants_have_the_schema_findings_of_a_whole_validation():
    # The mutation fixtures' broken rulesets of two games, a few of every operator, each sharing with its game all
    # it did not break: judged only where broken, each has the findings of judging all of it.
    games = [Shipped(name, shipped_games()[name], plain(resolve(name)[0]))
             for name in ("discordian", "forty-thieves")]
    compared = flagged = 0
    for op in OPERATORS:
        rng = random.Random(f"changes:{op.name}")
        made = [(g, m) for g in games for m in op.make(g, random.Random(f"1:{op.name}:{g.name}"))
                if len(m.files) == 1 and isinstance(m.files[0][1], dict) and m.fault is None]
        for game, mutant in rng.sample(made, min(2, len(made))):
            data = _shared(mutant.files[0][1], game.data)
            whole = schema_findings(data, "resolved", HERE)
            assert schema_findings(data, "resolved", HERE, base=game.data) == whole, (op.name, mutant.description)
            compared += 1
            flagged += bool(whole)
    assert compared > 50 and flagged > 10


def test_only_what_differs_from_the_base_is_judged():
    # A base that breaks the schema in a part the data share with it: the part is not judged again (the base must be
    # data that passed), while the same fault in a part of the data's own is found.
    rules = load_ruleset("forty-thieves")
    base = plain(rules.data)
    base["piles"]["foundation"]["bogus"] = 1
    data = dict(base, piles=dict(base["piles"], tableau=dict(base["piles"]["tableau"], count=0)))
    whole = [f.message for f in schema_findings(data, "resolved", HERE)]
    assert whole == ["piles.foundation: unknown key 'bogus'", "piles.tableau.count: 0 is less than the minimum of 1"]
    assert [f.message for f in schema_findings(data, "resolved", HERE, base=base)] == whole[1:]


def test_the_keys_of_changed_rulesets_are_those_of_their_whole_text():
    for game, changes in _changes():
        rules = load_ruleset(game)
        assert amend.rules_key(rules) == _old_key(rules.data)  # its parts' texts now kept for the changes
        for change in changes:
            data = amended.apply_all(rules.data, [amend.parse(change)])
            assert amended.data_key(data) == _old_key(data), change
            played = {k: v for k, v in data.items() if k not in amended.NOT_PLAYED}
            assert amended.play_key(data) == _old_key(played), change


def test_a_change_leaves_the_parts_it_did_not_touch_shared():
    rules = load_ruleset("discordian")
    data = amended.apply_all(rules.data, [amend.parse("set field.count 5")])
    assert data["deck"] is rules.data["deck"] and data["piles"]["stock"] is rules.data["piles"]["stock"]
    assert data["piles"]["field"] is not rules.data["piles"]["field"] and data["piles"]["field"]["count"] == 5


def _verdict(rules, change):
    try:
        adopted = amend.amend(rules.data, change, baseline=rules)
    except KallistiError as exc:
        return "refused", [(f.code, f.message) for f in exc.findings]
    return "adopted", amend.rules_key(adopted.rules), [(f.code, f.message) for f in adopted.warnings]


@pytest.mark.parametrize("game", ["discordian", "forty-thieves"])
def test_verdicts_are_those_of_changes_checked_afresh(game):
    # Each change checked after the others (trial deals shared by changes that make the same moves) against each
    # checked with nothing kept: the same verdict, findings and rules.
    rules = load_ruleset(game)
    changes = [c for c in (FORTY_THIEVES if game == "forty-thieves" else
                           [e.change for e in load_catalogue("discordian")] + ["set score moves.size"])]
    amend.forget_checked()
    together = [_verdict(rules, c) for c in changes]
    alone = []
    for change in changes:
        amend.forget_checked()
        alone.append(_verdict(rules, change))
    assert together == alone
    assert sum(v[0] == "adopted" for v in together) >= len(changes) - 4
