"""The hand-written reference Forty Thieves and the engine playing forty-thieves.yaml agree move for move.

The benchmark compares their speed; this shows they do the same work: from the same deal, at every
position of a playout, both offer exactly the same legal moves and reach the same layout.
"""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from kallisti.interpreter.game import Game
from kallisti.interpreter.notation import describe
from kallisti.interpreter.state import shuffled_order
from kallisti.model.ruleset import load_ruleset

REFERENCE = Path(__file__).resolve().parent.parent / "benchmarks" / "reference_forty_thieves.py"
SEEDS = range(1, 21)
CAP = 300


@pytest.fixture(scope="module")
def reference():
    spec = importlib.util.spec_from_file_location("reference_forty_thieves", REFERENCE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def rules():
    return load_ruleset("forty-thieves")


def reference_deck(deck, order):
    """The reference's input: (rank 1..13, suit) in dealing order; both number suits clubs, diamonds, hearts, spades."""
    return [(deck.rank[c] + 1, deck.suit[c]) for c in order]


def reference_code(deck, card):
    """The reference's card code (suit * 16 + rank) of an engine card."""
    return deck.suit[card] * 16 + deck.rank[card] + 1


def test_suits_are_numbered_alike(rules):
    assert [s.name for s in rules.deck.suits] == ["clubs", "diamonds", "hearts", "spades"]
    assert rules.deck.ranks == tuple("A 2 3 4 5 6 7 8 9 10 J Q K".split())


def assert_same_layout(reference, ref, game):
    deck, tags = game.deck, game.rules.pile_of_tag
    piles = game.state.piles
    for i in range(10):
        assert [reference_code(deck, c) for c in piles[tags[f"t{i + 1}"]]] == ref.piles[i], f"t{i + 1}"
    assert [reference_code(deck, c) for c in piles[tags["w"]]] == ref.piles[reference.WASTE]
    assert [reference_code(deck, c) for c in piles[tags["s"]]] == ref.stock
    assert game.state.sizes["foundation"] == ref.nfound


@pytest.mark.parametrize("seed", SEEDS)
def test_same_legal_moves_along_a_playout(reference, rules, seed):
    order = shuffled_order(rules.deck.size, seed)
    game = Game(rules, order=order)
    ref = reference.FortyThieves(reference_deck(rules.deck, order))
    pick = random.Random(seed)
    assert_same_layout(reference, ref, game)
    played = 0
    while played < CAP:
        ours = sorted(describe(game, m) for m in game.legal_moves())
        theirs = sorted(ref.move_name(m) for m in ref.legal_moves())
        assert ours == theirs, f"seed {seed}, move {played}"
        if not ours:
            assert game.status().outcome != "playing"
            break
        name = pick.choice(ours)
        game.play(next(m for m in game.legal_moves() if describe(game, m) == name))
        ref.apply(next(m for m in ref.legal_moves() if ref.move_name(m) == name))
        played += 1
        assert_same_layout(reference, ref, game)
        assert (game.status().outcome == "won") == ref.is_won()
    assert played > 40, "the playout should get past the opening"

