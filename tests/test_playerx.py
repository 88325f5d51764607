"""The bot as Player X: nastiness measured by simulation, and the seed's trust policy."""

from __future__ import annotations

import pytest
from scenario import play_turn

from kallisti.interpreter import amend
from kallisti.interpreter.match import Match, Seat
from kallisti.model.ruleset import load_ruleset
from kallisti.solver import playerx

BLACK = 'forbid foundation.build "black on black": card.color == black and top.color == black'


@pytest.fixture(scope="module")
def rules():
    return load_ruleset("discordian")


def changed(rules, text):
    return amend.amend(rules.data, text, baseline=rules).rules


def test_a_change_is_measured_on_its_trial_deals_first_each_played_once(rules, monkeypatch):
    from kallisti.interpreter.game import Game
    from kallisti.interpreter.rng import STREAM_STRATEGY, Rng

    amend.forget_checked()
    monkeypatch.setattr(playerx, "_scores", {})
    played = []
    real = Game.playout
    monkeypatch.setattr(Game, "playout", lambda self, choose, cap=1000: played.append(cap) or real(self, choose, cap))
    after = changed(rules, "set field.count 6")
    assert len(played) == amend.TRIAL_DEALS  # the check's trial
    mean, moves = playerx.measure(after)
    assert len(played) == playerx.MEASURE_DEALS  # the trial's deals were not played again
    # What measuring plays every deal afresh finds, deal by deal.
    total = made = 0
    for k in range(1, playerx.MEASURE_DEALS + 1):
        game = Game(after, seed=amend.TRIAL_SEED, deal_number=k)
        rng = Rng(amend.TRIAL_SEED, k, STREAM_STRATEGY)
        made += real(game, lambda n: rng.below(n), amend.TRIAL_CAP)
        total += game.score()
    assert (mean, moves) == (total / playerx.MEASURE_DEALS, made)


def test_nastiness_is_measured_by_its_effect_on_the_expected_score(rules):
    assert playerx.nastiness(rules, changed(rules, BLACK)) >= playerx.NASTY
    assert playerx.nastiness(rules, changed(rules, 'honour dance before deal: "Dance."')) == 0
    assert playerx.nastiness(rules, changed(rules, "set field.count 5")) < 0  # fewer cards left: it helps
    # a lower limit costs the target over the match even though no turn scores differently
    assert playerx.nastiness(rules, changed(rules, "set match.loses_at 200")) >= playerx.NASTY


def test_the_catalogue_offers_gentle_and_nasty_changes(rules):
    measured = [playerx.nastiness(rules, changed(rules, e.change)) for e in playerx.catalogue_for(rules)]
    assert any(0 <= n < playerx.NASTY for n in measured)
    assert any(n >= playerx.NASTY for n in measured)


def test_a_bot_is_gentle_with_a_gentle_opponent_then_answers_nastiness_then_forgives(rules):
    match = Match(rules, [Seat("ann"), Seat("bot", "greedy")], 3)
    play_turn(match)  # ann's turn 1; the bot is Player X and ann has not yet been Player X
    kind, text, cost = playerx.choose_action(match, 1)
    assert kind == "change" and 0 <= cost < playerx.NASTY
    match.pass_turn(1)
    play_turn(match)  # the bot's turn 2
    nasty = match.impose(0, BLACK)  # ann is nasty to the bot
    play_turn(match)  # ann's turn 3
    kind, text, cost = playerx.choose_action(match, 1)
    assert nasty.nastiness >= playerx.NASTY  # measured when the bot looked back
    assert kind == "change" and cost >= playerx.NASTY  # tit for tat
    match.impose(1, text)
    play_turn(match)  # the bot's turn 4
    match.pass_turn(0)  # ann makes peace
    play_turn(match)  # ann's turn 5
    assert playerx.choose_action(match, 1) == ("revoke", nasty.id)  # the bot takes back what hurts it


def test_a_bot_never_imposes_a_change_that_helps_its_opponent(rules):
    match = Match(rules, [Seat("ann"), Seat("bot", "greedy")], 8)
    for _ in range(3):
        play_turn(match)
        action = playerx.choose_action(match, 1)
        assert action[0] == "pass" or action[2] >= 0
        match.pass_turn(1)
        play_turn(match)
        match.pass_turn(0)


SHORT_MATCH = "extends: discordian\ngame: Short Discordian\nmatch:\n  seats: 2\n  loses_at: 230\n  max_turns: 12\n"


def test_memory_counts_a_change_that_sets_a_setting_back_to_a_value_it_had(rules):
    match = Match(rules, [Seat("ann"), Seat("bob")], 5)
    play_turn(match)
    match.impose(1, "set deck.shuffle optional")  # c1 on ann: always -> optional
    play_turn(match)
    match.pass_turn(0)
    play_turn(match)
    match.impose(1, "set deck.shuffle never")  # c2: optional -> never, a value it has not had
    play_turn(match)
    black = match.impose(0, BLACK)  # c3 on bob
    play_turn(match)
    match.impose(1, "set deck.shuffle optional")  # c4: back to optional
    play_turn(match)
    match.pass_turn(0)
    play_turn(match)
    match.revoke(1, black.id)  # bob takes back c3
    play_turn(match)
    match.impose(0, BLACK)  # c5: the clause comes back, which bob's rules have had
    memory = playerx.Memory(match).catch_up(match)
    assert memory.toggled == ["c4", "c5"]
    assert playerx.canonical(black.patch) in memory.revoked_by[1]


def test_the_bot_weighs_no_change_that_sets_a_setting_back_nor_one_it_took_back(rules):
    match = Match(rules, [Seat("ann"), Seat("bot", "greedy")], 3)
    play_turn(match)
    match.impose(1, "set deck.shuffle optional")
    play_turn(match)
    black = match.impose(0, BLACK)
    play_turn(match)
    match.impose(1, "set deck.shuffle never")
    play_turn(match)
    match.pass_turn(0)
    play_turn(match)
    assert playerx.choose_action(match, 1) == ("revoke", black.id)  # ann was nasty, then made peace
    match.revoke(1, black.id)
    play_turn(match)
    match.pass_turn(0)
    play_turn(match)  # ann's turn; the bot is Player X again
    texts = playerx.candidates(match, 1, playerx.memory_of(match))
    assert texts and "set deck.shuffle optional" not in texts  # ann's shuffle has been optional
    assert BLACK not in texts  # the bot took it back: it does not impose it on ann
    action = playerx.choose_action(match, 1)
    assert action[0] == "change" and action[1] in texts


def test_a_bot_revokes_the_change_that_hurts_it_most(rules):
    match = Match(rules, [Seat("ann"), Seat("bot", "greedy")], 4)
    play_turn(match)
    match.pass_turn(1)
    play_turn(match)
    match.impose(0, "set match.loses_at 220")
    play_turn(match)
    match.pass_turn(1)
    play_turn(match)
    worst = match.impose(0, 'forbid foundation.build no-hearts: card.suit == hearts "takes no heart"')
    play_turn(match)
    match.pass_turn(1)
    play_turn(match)
    match.pass_turn(0)  # ann makes peace
    play_turn(match)
    assert playerx.choose_action(match, 1) == ("revoke", worst.id)


def test_bots_revoke_and_never_set_a_setting_back_over_whole_matches(tmp_path):
    from kallisti.solver.simulate import simulate_matches

    path = tmp_path / "short.yaml"
    path.write_text(SHORT_MATCH, encoding="utf-8")
    changes = simulate_matches(load_ruleset(str(path)), 2, 1, "greedy").as_dict()["changes"]
    assert changes["imposed"] > 0 and changes["toggled_back"] == 0
    assert changes["revoked"] >= 1
    assert 0 < changes["distinct"] <= changes["imposed"]


def test_generated_changes_follow_the_rules_in_force(rules):
    generated = playerx.generated_changes(rules.data)
    assert 'forbid foundation.build no-rank-7: card.rank == 7 "takes no 7"' in generated
    assert 'forbid field.take no-pile-7: pile.index == 7 "lets nothing leave pile 7"' in generated
    assert "set field.count 8" in generated and "set match.loses_at 220" in generated
    assert not any(g.startswith("forbid stock.") for g in generated)  # the stock takes nothing: no ban is news there
    eight = changed(rules, "set field.count 8")
    pile_8 = 'forbid field.take no-pile-8: pile.index == 8 "lets nothing leave pile 8"'
    assert pile_8 in playerx.generated_changes(eight.data)
    no_sevens = changed(rules, 'forbid foundation.build sevens: card.rank == 7')
    assert not any("card.rank == 7" in g for g in playerx.generated_changes(no_sevens.data))


def test_memory_knows_the_values_a_setting_has_had_as_changes_come_and_go(rules):
    # Memory reads each state of the rules once per setting, and reads the states added since when asked again.
    match = Match(rules, [Seat("ann"), Seat("bob")], 5)
    play_turn(match)
    memory = playerx.memory_of(match)
    shuffle = ("key", "deck.shuffle")
    assert memory.had(0, shuffle, '"always"') and not memory.had(0, shuffle, '"optional"')
    match.impose(1, "set deck.shuffle optional")
    play_turn(match)
    memory = playerx.memory_of(match)
    assert memory.had(0, shuffle, '"optional"') and memory.had(0, shuffle, '"always"')
    assert not memory.had(1, shuffle, '"optional"')  # bob's rules never had it
    match.pass_turn(0)
    play_turn(match)
    match.impose(1, "set deck.shuffle never")
    memory = playerx.memory_of(match)
    assert all(memory.had(0, shuffle, v) for v in ('"always"', '"optional"', '"never"'))


# -- the shortcuts of the weighing decide as the long way round does ---------------------------------------------------
def _positions(node):
    """Every position a parsed patch holds, in order: a copy must keep them all."""
    out = [getattr(node, a, None) for a in ("pos", "key_pos", "value_pos", "item_pos")]
    if isinstance(node, dict):
        out += [p for v in node.values() for p in _positions(v)]
    elif isinstance(node, list):
        out += [p for v in node for p in _positions(v)]
    return out


def test_a_change_parsed_again_is_a_copy_of_its_own_equal_to_a_fresh_parse():
    from kallisti.errors import KallistiError

    text = 'forbid foundation.build no-7: card.rank == 7 "takes no 7"'
    first = amend.parse(text, "<c1>")
    amend.parsed.cache_clear()
    fresh = amend.parse(text, "<c1>")
    again = amend.parse(text, "<c1>")
    assert first == fresh == again and _positions(first) == _positions(fresh) == _positions(again)
    assert again is not fresh
    again["expr"] = "card.rank == 8"  # a caller may change its copy: the next parse is not touched
    assert amend.parse(text, "<c1>") == fresh
    assert amend.parse(text, "<c2>").pos.source == "<c2>"  # positions are the text's of the source named
    for _ in range(2):  # a refused text is refused every time
        with pytest.raises(KallistiError):
            amend.parse("set field.count", "<c1>")


def test_the_value_a_candidate_gives_its_setting_is_read_as_applying_it_in_full_reads_it(rules):
    # `applied` leaves out the resharing of `apply_all`: every candidate's setting and value are the same, on the base
    # rules and on rules a change has made; so is what tells candidates apart (`_identity`).
    from kallisti.errors import KallistiError
    from kallisti.model.amended import applied, apply_all

    eight = changed(rules, "set field.count 8")
    for data in (rules.data, eight.data):
        texts = [e.change for e in playerx.catalogue_for(rules)] + playerx.generated_changes(data, rules.data)
        assert len(texts) > 40
        for text in texts:
            patch = playerx.parsed(text)
            assert playerx._identity(text) == (playerx.effect_of(patch), playerx.canonical(patch))
            try:
                full = apply_all(data, [patch])
            except KallistiError:
                with pytest.raises(KallistiError):
                    applied(data, patch)
                continue
            read = applied(data, patch)
            assert read == full
            setting = playerx.setting_in(patch, full)
            assert playerx.setting_in(patch, read) == setting
            assert playerx.value_at(read, setting) == playerx.value_at(full, setting)


def test_memory_keys_each_players_rules_in_force_as_they_change(rules):
    match = Match(rules, [Seat("ann"), Seat("bob")], 5)
    play_turn(match)
    memory = playerx.memory_of(match)
    assert memory.data_key(0) == amend.data_key(rules.data) == memory.data_key(1)
    match.impose(1, "set deck.shuffle optional")
    play_turn(match)
    memory = playerx.memory_of(match)
    assert memory.data_key(0) == amend.data_key(memory.data[0]) != memory.data_key(1)
    assert memory.data_key(0) == amend.rules_key(match.rules_for(0))


def test_values_kept_by_the_part_of_the_rules_a_change_reads_are_those_worked_out_afresh(rules, monkeypatch):
    # Changes to several parts of the rules (the match's limit, an honour rule, a pile group's rule, the deck) and a
    # revoke: after each, every candidate's value read with the values kept since the match began is the value worked
    # out afresh, and so are the candidates.
    from kallisti.errors import KallistiError
    from kallisti.model.amended import applied

    def afresh(data, text):
        patch = playerx.parsed(text)
        try:
            after = applied(data, patch)
        except KallistiError:
            return None
        setting = playerx.setting_in(patch, after)
        return setting, playerx.value_at(after, setting)

    monkeypatch.setattr(playerx, "_values_after", {})
    match = Match(rules, [Seat("ann"), Seat("bob")], 5)
    steps = [(1, "set match.loses_at 220"), (0, 'honour dance before deal: "Dance."'), (1, BLACK),
             (0, "set deck.shuffle optional"), (1, "set field.count 8"), (0, "revoke")]
    new_values = []
    for seat, text in steps:
        play_turn(match)
        memory = playerx.memory_of(match)
        data, key = memory.data[match.current], memory.data_key(match.current)
        kept = dict(playerx._values_after)
        warm = playerx.candidates(match, seat, memory)
        texts = [e.change for e in playerx.catalogue_for(rules)] + playerx.generated_changes(data, rules.data)
        for t in texts:
            assert playerx._value_after(data, key, t, playerx.parsed(t)) == afresh(data, t), t
        new_values.append(len(set(playerx._values_after) - set(kept)))
        monkeypatch.setattr(playerx, "_values_after", {})
        assert playerx.candidates(match, seat, memory) == warm
        monkeypatch.setattr(playerx, "_values_after", kept | playerx._values_after)
        if text == "revoke":
            match.revoke(seat, match.revokable(seat)[0].id)
        else:
            match.impose(seat, text)
    # Ann's rules at the third step differ from the base rules in the match's limit alone: only the candidates that
    # change the match are worked out again, where a new state of the rules used to mean every candidate.
    assert new_values[0] > 40 and new_values[2] < 10
