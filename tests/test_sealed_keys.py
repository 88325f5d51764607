"""Sealed piles in the solver's key (solver/keys.py): a pile no card leaves, whose rules read only its top card, its
size and which cards it holds, is keyed by those alone, so the orders in which the same cards reached it are one
position. The soundness test (tests/test_solve.py) compares verdicts with the plain search, which keys every order."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from kallisti.interpreter.game import Game
from kallisti.model.ruleset import load_ruleset
from kallisti.solver import depth_first as search_module
from kallisti.solver.depth_first import _Search
from kallisti.solver.keys import PositionKeys, sealed_piles
from kallisti.solver.solve import SearchOptions, solve

SEVEN_FANS = {
    "game": "Seven Fans",
    "deck": {"packs": 1, "ranks": ["A", "2", "3", "4", "5", "6", "7", "8", "9"]},
    "piles": {"hole": {"role": "foundation", "count": 1, "prefill": "card.rank == 5 and card.suit == spades",
                       "build": "up or down with wrap", "empty": "none", "take": "none"},
              "fan": {"role": "tableau", "count": 7, "deal": ["up"] * 5, "build": "none", "empty": "none",
                      "take": "top card"}},
    "win": "hole.size == deck.size",
}
HOLE = Path(__file__).parent / "rulesets" / "solver" / "shared-hole.yaml"


def seven_fans(tmp_path, **changes):
    """Seven fans of five played one by one onto a hole built up or down by one, which nothing leaves."""
    data = {**SEVEN_FANS, **changes}
    path = tmp_path / "seven-fans.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return load_ruleset(path)


def group_of(rules, piles: frozenset) -> set[str]:
    return {name for name, group in rules.groups.items() if set(group.piles) & piles}


def test_the_piles_no_card_leaves_are_sealed_where_no_rule_reads_their_order(tmp_path):
    assert group_of(load_ruleset("forty-thieves"), sealed_piles(load_ruleset("forty-thieves"))) == {"foundation"}
    assert group_of(load_ruleset("spider"), sealed_piles(load_ruleset("spider"))) == {"discard"}
    assert sealed_piles(load_ruleset("decade")) == frozenset()  # its line gives cards from anywhere
    assert group_of(load_ruleset(HOLE), sealed_piles(load_ruleset(HOLE))) == {"hole"}
    assert group_of(seven_fans(tmp_path), sealed_piles(seven_fans(tmp_path))) == {"hole"}


@pytest.mark.parametrize("reads", ["count(p in hole: p.cards.bottom.rank == 5) == 0",  # the order below the top
                                   "all(p in hole: p.face_down == 0)"])
def test_a_rule_that_reads_more_of_a_pile_than_its_top_size_and_cards_keeps_it_unsealed(tmp_path, reads):
    rules = seven_fans(tmp_path, win=f"hole.size == deck.size and {reads}")
    assert sealed_piles(rules) == frozenset()


def test_the_same_cards_reaching_the_hole_in_another_order_are_one_position(tmp_path):
    rules = seven_fans(tmp_path)
    options = SearchOptions()

    def key(hole: str) -> bytes:
        game = Game(rules, seed=1)
        rest = {f"f{i}": text for i, text in enumerate(("AC 2C", "3C 4C", "6C 7C", "8C 9C"), start=1)}
        game.arrange({"h": hole, **rest})
        return _Search(game, options).keys.key()

    assert key("5S 4S 5H 4H") == key("5H 4S 5S 4H")  # another order, the same cards and top: one position
    assert key("5S 4S 5H 4H") != key("5S 4S 4H 5H")  # another top
    assert key("5S 4S 5H") != key("5S 4S 5D")  # other cards


def test_sealed_keys_keep_every_verdict_and_cut_the_positions(tmp_path, monkeypatch):
    rules = seven_fans(tmp_path)
    sealed = [solve(rules, seed, SearchOptions(states=200_000, search="depth-first")) for seed in range(1, 11)]
    monkeypatch.setattr(search_module, "sealed_piles", lambda rules: frozenset())
    plain = [solve(rules, seed, SearchOptions(states=200_000, search="depth-first")) for seed in range(1, 11)]
    assert [s.verdict for s in sealed] == [p.verdict for p in plain]
    assert {"won", "no win"} <= {s.verdict for s in sealed}
    assert sum(s.states for s in sealed) * 5 < sum(p.states for p in plain)


@pytest.mark.parametrize("game", ["seven-fans", "forty-thieves"])
def test_the_key_kept_up_to_date_is_the_key_built_afresh(tmp_path, monkeypatch, game):
    """At every position a search visits, the key it keeps pile by pile (told before a move, restored after) is
    the one a new key maker builds from every pile."""
    rules = seven_fans(tmp_path) if game == "seven-fans" else load_ruleset(game)
    visit = _Search._visit
    checked = []

    def compared(self):
        found = visit(self)
        shape = self.shape
        kept = self.keys.key()  # as `visit` worked it out: nothing changed since
        fresh = PositionKeys(self.game, shape.groups, shape.kind_table, shape.redeal_caps, shape.home, shape.sealed)
        assert fresh.key() == kept
        self.game.key_owner = self.keys  # the fresh maker took the game over; give it back, its parts still right
        checked.append(True)
        return found

    monkeypatch.setattr(_Search, "_visit", compared)
    for seed in range(1, 11):
        solve(rules, seed, SearchOptions(states=3_000, search="depth-first"))
        if len(checked) >= 1_000:
            break
    assert len(checked) >= 1_000
