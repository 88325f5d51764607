"""The bots' caches are bounded, and forgetting what they hold changes no decision."""

from __future__ import annotations

from kallisti.interpreter import amend
from kallisti.interpreter.game import Game
from kallisti.interpreter.notation import describe
from kallisti.model.ruleset import load_ruleset
from kallisti.solver import playerx, search

DEAL = 4


def _line(runs_kept: int, monkeypatch) -> tuple[list[str], int]:
    """The moves the search bot makes on Discordian deal DEAL with at most `runs_kept` runs kept, and the most it kept."""
    monkeypatch.setattr(search, "MAX_RUNS_KEPT", runs_kept)
    rules = load_ruleset("discordian")
    game, bot, line, most = Game(rules, seed=DEAL), search.SearchStrategy(DEAL, minimize=True), [], 0
    for _ in range(search.TURN_CAP):
        moves = game.legal_moves()
        if game.status(moves).outcome != "playing":
            break
        m = bot.choose(game, moves)
        line.append(describe(game, m))
        most = max(most, len(bot.runs))
        game.play(m)
    return line, most


def test_the_search_bot_forgets_the_runs_it_found_past_its_bound_and_plays_the_same(monkeypatch):
    kept, most_kept = _line(search.MAX_RUNS_KEPT, monkeypatch)
    bounded, most_bounded = _line(5, monkeypatch)
    assert bounded == kept and len(kept) > 10
    assert most_bounded < most_kept  # the bound was reached, and what was kept was forgotten


def test_measures_are_forgotten_past_their_bound_and_measured_again_alike(monkeypatch):
    rules = load_ruleset("discordian")
    others = [amend.amend(rules.data, text, baseline=rules).rules for text in ("set field.count 6", "set field.count 8")]
    first = [playerx.measure(r) for r in [rules] + others]
    monkeypatch.setattr(playerx, "MAX_MEASURES", 2)
    monkeypatch.setattr(playerx, "_scores", {})
    again = [playerx.measure(r) for r in [rules] + others]
    assert again == first
    assert len(playerx._scores) <= 2


def test_shuffled_deals_scores_are_forgotten_past_their_bound_and_measured_again_alike(monkeypatch):
    rules = load_ruleset("discordian")
    others = [amend.amend(rules.data, text, baseline=rules).rules for text in ("set field.count 6", "set field.count 8")]
    monkeypatch.setattr(search, "_shuffled_totals", {})
    first = [search.shuffled_total(r, samples=2) for r in [rules] + others]
    monkeypatch.setattr(search, "MAX_SHUFFLED_TOTALS", 2)
    monkeypatch.setattr(search, "_shuffled_totals", {})
    again = [search.shuffled_total(r, samples=2) for r in [rules] + others]
    assert again == first
    assert 0 < len(search._shuffled_totals) <= 2


def test_after_a_rule_change_in_play_the_search_bot_chooses_as_one_that_never_saw_the_old_rules():
    import copy

    rules = load_ruleset("discordian")
    deal = 2  # a deal where what the old rules' runs promised would have chosen another move
    game, bot = Game(rules, seed=deal), search.SearchStrategy(deal, minimize=True)
    for _ in range(6):
        game.play(bot.choose(game, game.legal_moves()))
    # Kings no longer go on a foundation: what the face-up runs carry off is not what it was
    changed = amend.amend(rules.data, "forbid foundation.build no-king: card.rank == K", baseline=rules).rules
    game.change_rules(changed, {"type": "rule", "text": "forbid foundation.build no-king: card.rank == K"})
    twin = search.SearchStrategy(deal, minimize=True)
    twin.game, twin.been, twin.rng = game, set(bot.been), copy.deepcopy(bot.rng)
    line = []
    for _ in range(search.TURN_CAP):
        moves = game.legal_moves()
        if game.status(moves).outcome != "playing":
            break
        m = bot.choose(game, moves)
        assert twin.choose(game, moves) == m, line
        line.append(describe(game, m))
        game.play(m)
    assert len(line) > 5
