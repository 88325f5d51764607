"""A ruleset compiled from what earlier compiles left (expressions, clause tables, clause verdicts) plays and is judged
exactly as one compiled afresh, and its tables are those of judging every clause of a rule together, kind by kind."""

from __future__ import annotations

import pytest

from kallisti.errors import KallistiError
from kallisti.interpreter import amend, shared_compiled
from kallisti.located import copy
from kallisti.model import clause_checks, rule_tables
from kallisti.model.ruleset import Ruleset, load_ruleset
from kallisti.solver import playerx
from scenario import random_player_meets

DEALS = 2  # fixed deals each change is played on
MOVES = 120  # moves of each deal compared, move for move


def _forget_everything() -> None:
    """Every cache a compile reads from: the next compile starts from nothing."""
    amend.forget_checked()
    shared_compiled.forget_compiled()
    rule_tables._tables.clear()
    clause_checks._outcomes.clear()


def _changes(game: str) -> tuple[object, list[str]]:
    rules = load_ruleset(game)
    texts = [e.change for e in playerx.catalogue_for(rules)] + playerx.generated_changes(rules.data)
    return rules, list(dict.fromkeys(texts))


def _adopted(rules, texts):
    """(text, compiled rules) of each change adopted against `rules`, compiled with whatever earlier compiles left."""
    out = []
    for text in texts:
        try:
            out.append((text, amend.amend(rules.data, text, baseline=rules).rules))
        except KallistiError:
            continue
    return out


def _findings(rules) -> list[tuple]:
    return [(f.code, f.message, str(f.pos), f.severity) for f in rules.findings]


def _tables(rules) -> list:
    return [(name, key, getattr(rule, "pair_table", None), getattr(rule, "card_table", None))
            for name, group in rules.groups.items()
            for key, rule in (("build", group.build), ("empty", group.empty), ("take", group.take),
                              ("sequence", group.sequence), ("dealing", group.dealing), ("discard", group.discard))]


@pytest.mark.parametrize("game", ["discordian", "forty-thieves"])
def test_a_variant_compiled_from_kept_parts_plays_and_is_judged_as_one_compiled_afresh(game):
    rules, texts = _changes(game)
    reused = _adopted(rules, texts)
    assert len(reused) >= 10
    for text, kept in reused:
        _forget_everything()
        fresh = Ruleset(copy(kept.data), during_play=True)
        assert _findings(fresh) == _findings(kept), text
        assert _tables(fresh) == _tables(kept), text
        assert fresh.reads_history == kept.reads_history, text
        for deal in range(1, DEALS + 1):
            assert random_player_meets(fresh, deal, MOVES, 7) == random_player_meets(kept, deal, MOVES, 7), \
                (text, deal)


@pytest.mark.parametrize("game", ["discordian", "forty-thieves", "spider", "maria", "freecell", "miss-milligan", "la-nivernaise"])
def test_a_rule_table_is_that_of_its_clauses_judged_together_kind_by_kind(game):
    """Tables are made clause by clause (a clause on ranks alone judged once per rank) and joined: they equal the
    table of the whole rule judged for every pair of kinds of card, as the engine always had it."""
    rules = load_ruleset(game)
    variants = [rules] + [kept for _, kept in _adopted(rules, _changes(game)[1][:12])]
    compared = 0
    for r in variants:
        for group in r.groups.values():
            for rule in (group.build, group.empty, group.take, group.sequence, group.dealing, group.discard):
                if rule is None or rule.always or rule.never:
                    continue
                tabled = [c for c in rule.clauses if c.uses <= {"card", "top"}]
                if rule.pair_table is not None:
                    assert rule.pair_table == rule._tabulate_pairs(r.deck, tabled), rule.path
                    compared += 1
                elif rule.card_table is not None:
                    assert rule.card_table == rule._tabulate_cards(r.deck, tabled), rule.path
                    compared += 1
    assert compared


@pytest.mark.parametrize("game", ["discordian", "forty-thieves", "spider", "octave"])
def test_a_clause_verdict_over_more_variables_is_the_clause_judged_in_each_case(game):
    """Verdicts worked out once per judge card, or spread from the clause's own variables, equal the clause judged in
    every case of every variable."""
    rules = load_ruleset(game)
    compared = 0
    for group in rules.groups.values():
        for rule in (group.build, group.empty, group.take, group.sequence):
            for clause in (rule.clauses if rule is not None else ()):
                if not clause.uses <= clause_checks.JUDGED:
                    continue
                for more in ({"card"}, {"top"}, {"count"}, {"card", "top"}):
                    uses = frozenset(clause.uses | more)
                    clause_checks._outcomes.clear()
                    cases = clause_checks._cases(rules.deck, uses)
                    want = None if cases is None else tuple(clause.holds(cases.at(c)) for c in cases.combos)
                    assert clause_checks._outcome(rules.deck, clause, uses) == want, (clause.text, uses)
                    compared += 1
    assert compared


def test_a_clause_that_fails_only_where_an_earlier_clause_refuses_fails_nowhere():
    """Judged alone, the second clause fails for every card worth 2 or more; in its rule the first clause refuses those
    cards before it is asked, so the rule compiles as it always did, without a `rule-error`."""
    rules = load_ruleset("forty-thieves")
    data = rules.data
    for text in ("require tableau.build low: card.value < 2",
                 "forbid tableau.build big: card.value * 1000000000 * 1000000000 > 5"):
        data = amend.apply_all(data, [amend.parse(text)])
    _forget_everything()
    variant = Ruleset(data, during_play=True)
    assert "rule-error" not in {f.code for f in variant.findings}
    rule = variant.groups["tableau"].build
    tabled = [c for c in rule.clauses if c.uses <= {"card", "top"}]
    assert rule.pair_table == rule._tabulate_pairs(variant.deck, tabled)
    alone = amend.apply_all(rules.data, [amend.parse(
        "forbid tableau.build big: card.value * 1000000000 * 1000000000 > 5")])
    with pytest.raises(KallistiError) as refused:  # alone, it fails for some cards, and says so as it always did
        Ruleset(alone, during_play=True)
    assert "rule-error" in {f.code for f in refused.value.findings}


def test_an_expression_compiled_once_still_marks_the_rules_that_read_the_moves_made():
    rules = load_ruleset("forty-thieves")
    text = "forbid tableau.build recent: moves.size > 500"
    first = amend.amend(rules.data, text, baseline=rules, trial=False).rules
    again = Ruleset(copy(first.data), during_play=True)  # its expressions from the shared compile
    assert first.reads_history and again.reads_history
    assert not Ruleset(copy(rules.data), during_play=True).reads_history
