"""What compiling a rule variant shares with the rules it was made from: positions looked up prefix by prefix, the deck
of rules that never grow it, the findings of rules left as they were, and a match's count of its rule changes. Each
gives what working it out afresh gives."""

from __future__ import annotations

import json

import pytest

from kallisti.errors import Pos
from kallisti.interpreter import amend, cards
from kallisti.interpreter.save_log import GrowingCount, rule_changes
from kallisti.located import Positions, copy, plain, position_at
from kallisti.model import amended, clause_checks
from kallisti.model.ruleset import Ruleset, load_ruleset
from scenario import random_player_meets


def _paths(node, path=()):
    """Every path into the data, and for each a few that leave it (a key it lacks, an index past a list's end)."""
    yield path
    yield path + ("no-such-key",)
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, path + (key,))
    elif isinstance(node, list):
        yield path + (len(node),)
        for i, value in enumerate(node):
            yield from _paths(value, path + (i,))
    else:
        yield path + (0, "deeper")


def test_positions_found_prefix_by_prefix_are_those_of_walking_each_path():
    for game in ("discordian", "forty-thieves", "onion"):
        data = load_ruleset(game).data
        default = Pos("<default>")
        at = Positions(data, default)
        paths = list(_paths(data))
        assert len(paths) > 200
        for path in paths + paths[::-1]:  # asked again, in another order: the same
            assert at(*path) == position_at(data, list(path), default), (game, path)


def test_positions_of_a_key_that_cannot_be_hashed_are_walked_as_ever():
    data = load_ruleset("discordian").data
    default = Pos("<default>")
    at = Positions(data, default)
    for walk in (lambda: at("piles", ["field"]), lambda: position_at(data, ["piles", ["field"]], default)):
        with pytest.raises(TypeError):  # a map read by an unhashable key
            walk()


def test_rules_that_never_grow_their_deck_share_it_and_rules_that_score_hands_do_not():
    rules = load_ruleset("discordian")
    variant = amend.amend(rules.data, "forbid field.build no-rank-5: card.rank == 5", baseline=rules, trial=False).rules
    assert variant.deck is rules.deck
    onion = load_ruleset("onion")  # it scores hands: stand-in cards grow its deck
    assert Ruleset(copy(onion.data)).deck is not onion.deck


def test_the_decks_of_two_specs_met_in_turn_are_each_made_once():
    made = []
    real = cards.Deck.__init__

    def counting(self, spec, signature=None):
        made.append(signature)
        real(self, spec, signature)

    first = load_ruleset("discordian").data["deck"]
    second = copy(first)
    second["ranks"] = list(second["ranks"])[:-1]
    cards.Deck.__init__ = counting
    try:
        decks = [cards.shared_deck(spec) for spec in (first, second) * 3]
    finally:
        cards.Deck.__init__ = real
    assert len(made) <= 2
    assert decks[0] is decks[2] is decks[4] and decks[1] is decks[3] is decks[5]
    assert decks[0].size == decks[1].size + len(first["suits"])


def test_a_growing_log_is_counted_as_a_whole_log_is():
    count, events = GrowingCount(), []
    for i in range(30):
        events.append({"type": ("change", "move", "rules", "revoke", "rule")[i % 5]})
        assert count(events) == rule_changes(events)
    shorter = events[:7]
    assert count(shorter) == rule_changes(shorter)  # another log: counted afresh
    del events[3:]
    assert count(events) == rule_changes(events)  # the same log, shorter than counted: counted afresh


def test_a_rule_s_findings_kept_are_those_of_its_own_clauses_at_their_own_positions():
    """The same clause written at two places of two changes is reported at each; a rule left as it was is reported as
    judging it afresh reports it."""
    rules = load_ruleset("forty-thieves")
    text = "forbid tableau.build odd: card.rank == top.rank and card.rank != top.rank"
    found = []
    for source in ("<first>", "<second>"):
        patch = amend.parse(text, source)
        data = amend.apply_all(rules.data, [patch])
        kept = Ruleset(data, during_play=True)
        clause_checks._outcomes.clear()
        fresh = Ruleset(copy(data), during_play=True)
        assert kept.findings == fresh.findings
        found.append([f for f in kept.findings if f.code == "clause-always-true" or f.code == "clause-never-true"])
    assert found[0] and [f.pos.source for f in found[0]] == ["<first>"]
    assert [f.pos.source for f in found[1]] == ["<second>"]


def test_the_texts_of_a_variant_s_parts_are_their_json_whether_inherited_or_written_anew():
    rules = load_ruleset("discordian")
    base_texts = amend.texts_of(rules)
    for text in ("forbid field.build no-rank-5: card.rank == 5", "set match.loses_at 150", "set field.count 5"):
        variant = amend.amend(rules.data, text, baseline=rules, trial=False).rules
        texts = amended.part_texts(variant.data, base_texts)
        assert texts
        for part, written in texts.values():
            assert written == json.dumps(plain(part), sort_keys=True, ensure_ascii=False), text
        assert amended.data_key(variant.data, texts) == amended.data_key(variant.data), text


def test_a_seat_s_rules_grown_by_a_change_are_the_base_with_every_change_in_force():
    from scenario import play_turn

    from kallisti.interpreter.match import Match, Seat

    rules = load_ruleset("discordian")
    match = Match(rules, [Seat("ann"), Seat("bob")], 11)
    plan = ['forbid foundation.build "black on black": card.color == black and top.color == black',
            "set match.loses_at 200", "set field.count 5"]
    for text in plan:
        while match.waiting().what == "ack":
            match.acknowledge(match.waiting().seat)
        play_turn(match)  # ann plays; bob, Player X, changes her rules
        match.impose(1, text)
        data, key = match._rebuilt_data(0)
        whole = amend.apply_all(rules.data, [c.patch for c in match.active_changes(0)])
        assert plain(data) == plain(whole) and key == amended.data_key(whole), text
        assert Positions(data)("piles", "foundation", "build", 1) == Positions(whole)("piles", "foundation", "build", 1)
        while match.waiting().what == "ack":
            match.acknowledge(match.waiting().seat)
        play_turn(match)  # bob plays; ann passes
        match.pass_turn(0)
    assert len(match.active_changes(0)) == 3


def test_rules_that_make_the_same_moves_share_the_engine_s_tables_and_play_as_if_built_afresh():
    rules = load_ruleset("discordian")
    first = amend.amend(rules.data, "set match.loses_at 200", baseline=rules).rules
    random_player_meets(first, 1, 150, 3)  # its first game builds its tables
    assert first.engine_tables is not None
    same = amend.amend(rules.data, 'set score "field.size + 1"', baseline=rules).rules  # the same moves, scored otherwise
    other = amend.amend(rules.data, "forbid field.build no-rank-5: card.rank == 5", baseline=rules).rules
    assert same.engine_tables is first.engine_tables
    assert other.engine_tables is not first.engine_tables
    for variant in (same, other):
        fresh = Ruleset(copy(variant.data), during_play=True)  # compiled anew: its own tables
        for deal in (1, 2):
            assert random_player_meets(variant, deal, 150, 3) == random_player_meets(fresh, deal, 150, 3)


def test_a_score_that_reads_the_moves_made_keeps_its_own_engine_tables_and_scores_them():
    # The same moves as the rules in force, but a score that reads the moves made: its playouts must keep them, so it
    # takes no tables of rules that play inline (`plain_moves`), and its trial deals score what was played.
    from kallisti.interpreter.game import Game
    from kallisti.interpreter.rng import Rng

    rules = load_ruleset("forty-thieves")
    plain = amend.amend(rules.data, "set score foundation.size * 2", baseline=rules).rules
    Game(plain, seed=1).playout(Rng(1, 0, 2).below, 50)  # builds its tables
    assert plain.engine_tables is not None and plain.engine_tables["plain_moves"]
    counted = amend.amend(rules.data, "set score moves.size", baseline=rules).rules
    assert counted.reads_history
    assert counted.engine_tables is not plain.engine_tables
    game = Game(counted, seed=1)
    made = game.playout(Rng(1, 0, 2).below, 50)
    assert not game.plain_moves and game.score() == made
