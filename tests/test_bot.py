"""The search bot: it leaves fewer cards than a random player, picks the better line, stays legal,
never reads the stock, and keeps a pack's order only when that order deals well."""

from __future__ import annotations

import math

import pytest

from kallisti.errors import Pos
from kallisti.interpreter.game import Game
from kallisti.interpreter.notation import describe
from kallisti.interpreter.state import shuffled_order
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.search import SearchStrategy, choose_shuffle, play_turn
from kallisti.solver.strategies import RandomStrategy, make_strategy

from shipped import changed as shipped_changed, shipped  # loaded and changed once per process

SEEDS = range(1, 51)
BUDGET = 200  # positions per decision: a Discordian chain is nearly always searched out in full
FIELD_CARDS = 35  # seven columns of five
STOCK_DOWN = {"s": 3}  # an arranged stock lies face down, as a dealt one does


def discordian():
    return shipped("discordian")


def changed(text: str):
    """Discordian with one rule change."""
    return shipped_changed("discordian", text)


def arranged(layout: dict[str, str], rules=None) -> Game:
    return Game(rules or discordian(), seed=1).arrange(layout, STOCK_DOWN)


def sign_test_p(wins: int, losses: int) -> float:
    """One-sided exact sign test: the chance of at least `wins` of `wins + losses` fair coin tosses (ties dropped)."""
    n = wins + losses
    return sum(math.comb(n, k) for k in range(wins, n + 1)) / 2 ** n


# -- against a random player ----------------------------------------------------------------------


def test_sign_test_matches_known_values():
    assert sign_test_p(5, 0) == pytest.approx(1 / 32)
    assert sign_test_p(0, 5) == 1.0
    assert sign_test_p(8, 2) == pytest.approx(56 / 1024)


def test_search_leaves_at_least_one_card_fewer_than_random_play():
    rules = discordian()
    random_left = [play_turn(rules, RandomStrategy(s), seed=s) for s in SEEDS]
    search_left = [play_turn(rules, SearchStrategy(s, minimize=True, budget=BUDGET), seed=s) for s in SEEDS]
    gains = [r - b for r, b in zip(random_left, search_left)]
    margin = sum(gains) / len(gains)
    wins, losses = sum(g > 0 for g in gains), sum(g < 0 for g in gains)
    p = sign_test_p(wins, losses)
    assert margin >= 1.0, f"search leaves {margin:.2f} cards fewer on average"
    assert p < 0.01, f"sign test p = {p:.4f} ({wins} better, {losses} worse)"


# -- arranged positions ---------------------------------------------------------------------------

# On a 4, the 3 and the 5 both play; only one of them starts a long run.
FIVE_LEADS_ON = {"c1": "KH 3S", "c2": "9H 8H 7H 6H 5H", "f": "4C", "s": "2C 2D JD"}
THREE_LEADS_ON = {"c1": "KH AH 2H 3H", "c2": "9H 5S", "f": "4C", "s": "QC QD JD"}


@pytest.mark.parametrize("layout,best,worst", [(FIVE_LEADS_ON, "c2 f", "c1 f"), (THREE_LEADS_ON, "c1 f", "c2 f")])
def test_search_plays_the_card_that_leads_on(layout, best, worst):
    game = arranged(layout)
    assert {describe(game, m) for m in game.legal_moves()} == {best, worst}
    assert describe(game, SearchStrategy(1, minimize=True).choose(game, game.legal_moves())) == best


def test_between_lines_that_leave_as_many_cards_it_keeps_the_tops_the_next_card_can_take():
    # Playing the 3 leaves 6S and 5H on top, which take a 4, 5, 6 or 7 and then each other; playing
    # the 5 leaves 3H and AC, which take only a 2 or a 4. Either way three cards stay.
    layout = {"c1": "6S 3H", "c2": "AC 5H", "f": "4C", "s": "9D 9C JD"}
    for seed in range(1, 6):  # equal lines would be split at random among the seeds
        game = arranged(layout)
        assert describe(game, SearchStrategy(seed, minimize=True).choose(game, game.legal_moves())) == "c1 f"


def test_the_goal_direction_turns_the_choice_round():
    game = arranged(FIVE_LEADS_ON)
    assert describe(game, SearchStrategy(1, minimize=False).choose(game, game.legal_moves())) == "c1 f"


def test_the_search_leaves_the_game_as_it_found_it():
    game = arranged(FIVE_LEADS_ON)
    before = (game.state.key(), game.moves_played, sorted(game.legal_moves()))
    SearchStrategy(1, minimize=True).choose(game, game.legal_moves())
    assert (game.state.key(), game.moves_played, sorted(game.legal_moves())) == before


def test_play_runs_the_chosen_line_out():
    game = arranged(FIVE_LEADS_ON)
    bot = SearchStrategy(1, minimize=True)
    while (moves := game.legal_moves()) and describe(game, moves[0]) != "d":
        game.play(bot.choose(game, moves))
    assert sorted(len(game.state.piles[game.rules.pile_of_tag[f"c{i}"]]) for i in (1, 2)) == [0, 2]


@pytest.mark.parametrize("rules", ["base", "remove compulsory play-first", "set foundation.build up"])
def test_search_plays_only_legal_moves(rules):
    ruleset = discordian() if rules == "base" else changed(rules)
    for seed in range(1, 6):
        game = Game(ruleset, seed=seed)
        bot = SearchStrategy(seed, minimize=True, budget=50)
        while (moves := game.legal_moves()) and game.status(moves).outcome == "playing":
            m = bot.choose(game, list(moves))
            assert m in moves
            game.play(m)


def test_search_is_legal_where_cards_lie_face_down():
    rules = load_ruleset("spider")
    game = Game(rules, seed=3)
    tableau = rules.groups["tableau"].piles
    face_down = sum(game.state.down[p] for p in tableau)
    bot = SearchStrategy(3, budget=60)  # a patience: the score (cards on the foundations) is maximised
    for _ in range(30):
        moves = game.legal_moves()
        if game.status(moves).outcome != "playing":
            break
        m = bot.choose(game, moves)
        assert m in moves
        game.play(m)
    assert sum(game.state.down[p] for p in tableau) < face_down  # lines that turn a card up were played


def test_make_strategy_knows_the_search():
    bot = make_strategy("search", 3)
    assert isinstance(bot, SearchStrategy) and bot.name == "search" and not bot.minimize


@pytest.mark.parametrize("same", [0, 8])
def test_the_stock_order_does_not_change_a_single_move(same):
    """Two packs alike but for the order of the stock below its top `same` cards: the bot plays alike
    until the first card that differs is dealt."""
    rules = discordian()
    dealt = FIELD_CARDS + 1 + same
    choices = 0
    for seed in range(1, 21):
        order = shuffled_order(rules.deck.size, seed)
        reordered = order[:dealt] + order[dealt:][::-1]
        assert reordered != order
        lines = []
        for pack in (order, reordered):
            game, bot, line, deals = Game(rules, order=pack), SearchStrategy(seed, minimize=True), [], 0
            while (moves := game.legal_moves()) and game.status(moves).outcome == "playing":
                m = bot.choose(game, moves)
                if m < game.P:  # a deal
                    deals += 1
                    if deals > same:
                        break  # from here on the two stocks deal differently
                choices += pack is order and len(moves) > 1
                line.append(describe(game, m))
                game.play(m)
            lines.append(line)
        assert lines[0] == lines[1]
    assert choices >= 10  # these lines had real choices to make


# -- whether to shuffle ---------------------------------------------------------------------------


def pack_from(ranks: list[str]) -> list[int]:
    """A dealing order whose cards have these ranks in turn (any suit), then the rest of the pack."""
    rules = discordian()
    free = list(range(rules.deck.size))
    order = []
    for rank in ranks:
        r = rules.deck.rank_index(rank, Pos("<test>"))
        card = next(c for c in free if rules.deck.rank[c] == r)
        free.remove(card)
        order.append(card)
    return order + free


def field_order(columns: list[list[str]], rest: list[str]) -> list[int]:
    """The dealing order that gives these columns (each listed top card first), then `rest` from the foundation on."""
    rows = [[column[4 - row] for column in columns] for row in range(5)]  # dealt row by row, bottom row first
    return pack_from([rank for row in rows for rank in row] + rest)


def good_order() -> list[int]:
    """A pack that deals one long run: the foundation, then each column's cards top down, each card
    next in rank to the one before."""
    ranks = discordian().deck.ranks[:-1]  # nothing goes on the last rank, so the run turns before it
    walk, i, step = [], 0, 1
    while len(walk) < FIELD_CARDS + 1:
        walk.append(ranks[i])
        if not 0 <= i + step < len(ranks):
            step = -step
        i += step
    foundation, field = walk[0], walk[1:]
    return field_order([field[5 * c:5 * c + 5] for c in range(7)], [foundation])


def bad_order() -> list[int]:
    """A pack whose field tops (four aces, three queens) take no card the foundation or stock can bring."""
    tops = ["A", "A", "A", "A", "Q", "Q", "Q"]
    under = ["2"] * 4 + ["K"] * 4 + ["5"] * 4 + ["7"] * 4 + ["9"] * 4 + ["J"] * 4 + ["3", "3", "3", "4"]
    columns = [[tops[c]] + under[4 * c:4 * c + 4] for c in range(7)]
    rest = ["3", "4", "4", "4", "6", "6", "6", "6", "8", "8", "8", "8", "10", "10", "10", "10", "Q"]
    return field_order(columns, rest)


def test_the_arranged_packs_deal_as_meant():
    optional = changed("set deck.shuffle optional")
    assert play_turn(optional, SearchStrategy(1, minimize=True), order=good_order()) == 0
    assert play_turn(optional, SearchStrategy(1, minimize=True), order=bad_order()) == FIELD_CARDS


def test_a_pack_that_deals_well_is_kept_and_one_that_deals_badly_is_shuffled():
    optional = changed("set deck.shuffle optional")
    assert choose_shuffle(optional, good_order(), seed=7) is False
    assert choose_shuffle(optional, bad_order(), seed=7) is True


def test_the_shuffle_choice_is_the_rulesets_when_it_leaves_none():
    assert choose_shuffle(discordian(), bad_order(), seed=7) is True  # shuffle: always
    assert choose_shuffle(changed("set deck.shuffle never"), good_order(), seed=7) is False


def test_the_shuffle_choice_is_deterministic():
    optional = changed("set deck.shuffle optional")
    order = shuffled_order(optional.deck.size, 11)
    assert len({choose_shuffle(optional, order, seed=5) for _ in range(2)}) == 1
