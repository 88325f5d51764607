"""A deal's set-up: the opening deal laid out from the ruleset's `DealLayout` (a slice of the dealing order per pile)
is the card-by-card deal."""

from __future__ import annotations

import pytest

from kallisti.interpreter.game import Game
from kallisti.interpreter.state import _dealt, deal_layout, initial_state, shuffled_order
from kallisti.model.ruleset import load_ruleset
from test_playout_fast_path import SHIPPED

NAMES = SHIPPED + ["discordian"]


def position(st) -> tuple:
    return st.piles, st.down, st.sizes, st.redeals, st.no_card


@pytest.mark.parametrize("name", NAMES)
def test_the_laid_out_deal_is_the_card_by_card_deal(name):
    rules = load_ruleset(name)
    layout = deal_layout(rules)
    prefills_or_diverts = any(g.prefill is not None or g.divert is not None for g in rules.groups.values())
    assert bool(layout) is not prefills_or_diverts
    for seed in (1, 2, 3):
        order = shuffled_order(rules.deck.size, seed)
        assert position(initial_state(rules, order)) == position(_dealt(rules, order)), (name, seed)
    assert rules.deal_layout is not None  # made by the first deal, kept for the next


def test_a_layout_deals_rows_with_gaps_and_the_rest_turned_over():
    """Spider deals rows of five or six, so some piles' places are not evenly spaced (a list of places rather than a
    slice); the stock gets what is left, the first card left on top."""
    rules = load_ruleset("spider")
    layout = deal_layout(rules)
    assert not layout.sliced and any(isinstance(places, list) for places in layout.places)
    order = list(range(rules.deck.size))[::-1]
    st = initial_state(rules, order)
    stock = rules.groups["stock"].piles[0]
    dealt = sum(len(p) for p in st.piles) - len(st.piles[stock])
    assert st.piles[stock] == order[dealt:][::-1] and st.down[stock] == len(st.piles[stock])


def test_a_deal_that_runs_short_is_refused_as_before():
    """A short order is dealt card by card, which reports the deal running out of cards."""
    rules = load_ruleset("forty-thieves")
    with pytest.raises(Exception, match="runs out of cards"):
        Game(rules, order=list(range(20)))
