"""A deal that puts several cards on one pile in a row re-files that pile once, after the last card
(`MoveApplication._refile_run`), and leaves the move indexes exactly as re-filing it after every card does: the same
piles in the same order in every list, so the same legal moves in the same order."""

from __future__ import annotations

import dataclasses
import random

import pytest

from kallisti.interpreter.game import Game
from kallisti.interpreter.playout import dealt_runs
from kallisti.model.ruleset import load_ruleset


def deal_card_by_card(game: Game, s: int, dests) -> None:
    """`_deal_from` re-filing every pile after every card (no group here diverts a card)."""
    stock = game.piles[s]
    for d in dests:
        if not stock:
            break
        game.piles[d].append(stock.pop())
        game.state.sizes[game.gname[s]] -= 1
        game.state.sizes[game.gname[d]] += 1
        game._refresh(d)
    game.down[s] = min(game.down[s], len(stock))
    game._refresh(s)


def indexes(game: Game) -> tuple:
    return (list(game.top_key), [list(lst) for lst in game.dests], [list(lst) for lst in game.checked],
            [list(lst) for lst in game.empties], list(game.open_spaces), list(game.down), game.legal_moves())


@pytest.mark.parametrize("dealt", [
    "KD 5H 9C",  # 9C then 5H onto t1's 5H: back to the kind it had, and t1 goes to the end of its lists
    "KD 5S 5H",  # 5H then 5S: a top of another colour, filed afresh
    "KD 9C 5S",  # 5S then 9C
])
def test_cards_dealt_onto_one_pile_in_a_row_file_it_as_card_by_card(dealt):
    rules = load_ruleset("octave")  # down in alternate colours: a black four goes on 5H (t1) and on 5D (t2)
    layout = {"t1": "5H", "t2": "5D", "t3": "4S", "s": dealt}
    game, twin = Game(rules).arrange(layout), Game(rules).arrange(layout)
    t1, t2, stock = (rules.pile_of_tag[tag] for tag in ("t1", "t2", "s"))
    four = game.top_key[rules.pile_of_tag["t3"]]
    assert game.dests[four] == [t1, t2]
    game._deal_from(stock, (t1, t1))
    deal_card_by_card(twin, stock, (t1, t1))
    assert indexes(game) == indexes(twin)
    if dealt == "KD 5H 9C":
        assert game.dests[four] == [t2, t1]


@pytest.mark.parametrize("dealt", ["KD 5H 9C", "KD 5S 5H", "KD 9C 5S", "5H", "KD 5H 4S 9C"])
def test_a_playout_deals_cards_onto_one_pile_in_a_row_as_card_by_card(dealt):
    """A playout's inline deal (`_deal_inline`) puts the cards a pile gets in a row on it at once (`dealt_runs`), and
    files it as re-filing it after each card does; the stock running out stops it."""
    rules = load_ruleset("octave")
    layout = {"t1": "5H", "t2": "5D", "t3": "4S", "s": dealt}
    game, twin = Game(rules).arrange(layout), Game(rules).arrange(layout)
    t1, t2, stock = (rules.pile_of_tag[tag] for tag in ("t1", "t2", "s"))
    to = (t1, t1, t1, t2)
    assert dealt_runs(stock, to) == ((t1, 3), (t2, 1))
    game._deal_inline(stock, dealt_runs(stock, to), game._refresh)
    deal_card_by_card(twin, stock, to)
    assert indexes(game) == indexes(twin) and game.state.key() == twin.state.key()


def test_a_pile_whose_top_kind_never_changes_stays_in_place():
    rules = load_ruleset("octave")
    layout = {"t1": "5H", "t2": "5D", "t3": "4S", "s": "KD 5H"}
    game, twin = Game(rules).arrange(layout), Game(rules).arrange(layout)
    t1, t2, stock = (rules.pile_of_tag[tag] for tag in ("t1", "t2", "s"))
    game._deal_from(stock, (t1,))
    deal_card_by_card(twin, stock, (t1,))
    assert indexes(game) == indexes(twin)
    assert game.dests[game.top_key[rules.pile_of_tag["t3"]]] == [t1, t2]


@pytest.mark.parametrize("name", ["la-nivernaise", "tournament", "intelligence"])
def test_deals_and_refills_index_as_card_by_card(name):
    """Random games of the patiences whose deals and refills put several cards on a pile, every deal and refill
    made both ways."""
    rules = load_ruleset(name)
    for seed in (1, 2, 3):
        game, twin, rnd = Game(rules, seed=seed), Game(rules, seed=seed), random.Random(seed)
        for _ in range(60):
            moves = game.legal_moves()
            assert moves == twin.legal_moves()
            if not moves:
                break
            m = moves[rnd.randrange(len(moves))]
            game._step(m)
            twin._step(m)
            assert indexes(game) == indexes(twin)


def test_a_divert_judged_by_the_card_alone_is_read_off_its_table():
    """Intelligence diverts the aces it deals (`card.rank == first`): the condition reads the card alone, so it is
    tabulated once, card by card, and a deal read off the table lays out the cards, and plays on, as judging the
    condition card by card does."""
    rules = load_ruleset("intelligence")
    tableau = rules.groups["tableau"]
    table = tableau.divert.table
    ctx = Game(rules, seed=1).dealer.ctx
    verdicts = []
    for c in range(rules.deck.size):
        ctx.card = c
        verdicts.append(bool(tableau.divert.when(ctx)))
    assert table is not None and list(table) == verdicts and 0 < sum(verdicts) < rules.deck.size
    judged = load_ruleset("intelligence")  # a ruleset of its own, its divert judged card by card
    object.__setattr__(judged.groups["tableau"], "divert", dataclasses.replace(judged.groups["tableau"].divert, table=None))
    for seed in (1, 2, 3):
        game, twin = Game(rules, seed=seed), Game(judged, seed=seed)
        assert game.state.key() == twin.state.key()
        assert game.playout(random.Random(seed).randrange, 300) == twin.playout(random.Random(seed).randrange, 300)
        assert game.state.key() == twin.state.key()
