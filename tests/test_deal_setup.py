"""A deal's set-up: the opening deal laid out from the ruleset's `DealLayout` (a slice of the dealing order per pile)
is the card-by-card deal; every pile filed at once (`_file_all`) is filed as `_refresh` files them one by one, in pile
order; kinds no pile is ever filed under share one list that stays empty; and a game dropped is freed at once, not
left to the cycle collector."""

from __future__ import annotations

import dataclasses
import gc
import random
import weakref

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


def filed_one_by_one(game: Game) -> tuple:
    """The index lists as `_refresh` files every pile in pile order from nothing, as the engine did at a deal."""
    for lists in (game.dests, game.checked, game.empties):
        for lst in lists:
            lst.clear()
    game.open_spaces.clear()
    for p in range(game.P):
        game.top_key[p] = None
        game._refresh(p)
    return indexes(game)


def indexes(game: Game) -> tuple:
    return (list(game.top_key), [list(lst) for lst in game.dests], [list(lst) for lst in game.checked],
            [list(lst) for lst in game.empties], list(game.open_spaces), list(game.down), list(game.source_dests),
            list(game.runs), set(game.dirty))


@pytest.mark.parametrize("name", NAMES)
def test_filing_every_pile_at_once_is_filing_them_one_by_one(name):
    rules = load_ruleset(name)
    for seed in (1, 2):
        game, rnd = Game(rules, seed=seed), random.Random(seed)
        for _ in range(6):
            game.dirty.clear()
            game._reindex()
            at_once = indexes(game)
            assert filed_one_by_one(game) == at_once, (name, seed)
            if not game.playout(rnd.randrange, 15):
                break


@pytest.mark.parametrize("name", ["forty-thieves", "la-nivernaise", "house-on-the-hill"])
def test_kinds_never_filed_share_one_list_that_stays_empty(name):
    """Forty Thieves files nothing in `checked` (one list for every kind), La Nivernaise nothing in `dests`; where
    every kind is filed, each has a list of its own (slots None)."""
    game = Game(load_ruleset(name), seed=1)
    unused = [[lst for k, lst in enumerate(lists) if slots is not None and slots[k] == 0]
              for lists, slots in zip((game.dests, game.checked), game.list_slots)]
    assert {"forty-thieves": (0, 52), "la-nivernaise": (52, 0)}.get(name, (0, 44)) == tuple(map(len, unused))
    for lists, slots in zip((game.dests, game.checked), game.list_slots):
        assert len({id(lst) for lst in lists}) == (len(lists) if slots is None else len(set(slots)))
    game.playout(random.Random(1).randrange, 300)
    assert all(lst == [] for lists in unused for lst in lists)
    assert len({id(lst) for lists in unused for lst in lists}) <= 2


@pytest.mark.parametrize("name", ["forty-thieves", "octave", "intelligence"])
def test_a_dropped_game_is_freed_at_once(name):
    """Its context names it weakly: no cycle keeps a played game, and all it holds, for the cycle collector."""
    rules = load_ruleset(name)
    gc.disable()
    try:
        game = Game(rules, seed=1)
        game.playout(random.Random(1).randrange, 200)
        kept = weakref.ref(game)
        del game
        assert kept() is None
    finally:
        gc.enable()


@pytest.mark.parametrize("name", ["lucas", "rouge-et-noir"])
def test_a_prefill_that_reads_only_the_card_is_looked_up(name):
    """Lucas prefills each foundation with an ace (`card.rank == first`): the first such card left is found by its
    table, as judging the condition card by card finds it."""
    rules, twin = load_ruleset(name), load_ruleset(name)
    assert any(g.prefill_table is not None for g in rules.groups.values())
    for group in twin.groups.values():
        twin.groups[group.name] = dataclasses.replace(group, prefill_table=None)
    for seed in (1, 2, 3):
        order = shuffled_order(rules.deck.size, seed)
        assert position(_dealt(rules, order)) == position(_dealt(twin, order)), (name, seed)
