"""The search bot's shortcuts: values settled by one decision serve the next, and what a line's end promises is counted
as the plain count would count it."""

from __future__ import annotations

import pytest

from kallisti.interpreter.game import Game
from kallisti.solver import search

from scenario import counted_line_searches, positions_in_play
from shipped import shipped  # loaded once per process


def _turn(deal: int, settle: bool, monkeypatch) -> tuple[list[int], int]:
    """The moves of the search bot on Discordian deal `deal`, and the positions its decisions searched in all."""
    searches = counted_line_searches(monkeypatch)
    game, bot, line = Game(shipped("discordian"), seed=deal), search.SearchStrategy(deal, True, settle=settle), []
    for _ in range(search.TURN_CAP):
        moves = game.legal_moves()
        if game.status(moves).outcome != "playing":
            break
        line.append(bot.choose(game, moves))
        game.apply(line[-1])
    return line, sum(s.nodes for s in searches)


def test_settled_values_leave_every_move_as_it_was_and_spare_positions(monkeypatch):
    # On these deals the budget never cuts a line that matters, so the moves are those of a search that settles
    # nothing (the same as before settled values were kept); the positions searched are fewer by a quarter at least.
    fresh = spared = 0
    for deal in range(1, 9):
        again, searched_again = _turn(deal, False, monkeypatch)
        settled, searched_settled = _turn(deal, True, monkeypatch)
        assert settled == again, deal
        fresh, spared = fresh + searched_again, spared + searched_settled
    assert spared < fresh * 3 / 4, (spared, fresh)


def test_a_settled_value_is_the_value_a_search_without_a_budget_finds():
    game, bot = Game(shipped("discordian"), seed=4), search.SearchStrategy(4, True)
    checked = 0
    for _ in range(search.TURN_CAP):
        moves = game.legal_moves()
        if game.status(moves).outcome != "playing":
            break
        m = bot.choose(game, moves)
        settled = bot.promised[2]
        for after in moves:
            if after < game.P * game.P:
                continue  # a deal: its line ends before it
            record = game.apply(after)
            key = game.state.key()
            if key in settled:
                unbounded = search._LineSearch(game, -1, bot.been, shape=bot.shape)
                unbounded.limit = 10**9
                assert unbounded.value() == settled[key]
                assert unbounded.unsettled == 0
                checked += 1
            game.undo_record(record)
        game.apply(m)
    assert checked >= 10


def _reference_carries(line_search, targets: tuple, runs: tuple) -> tuple[int, int, list]:
    """What a line's end promises, counted kind by unseen kind with the game's own tables (as the search did before
    it grouped the kinds and numbered the rules)."""
    accepts = line_search.game.accepts_on_top
    hits = carried = 0
    idle = []
    for k, n in line_search.unseen:
        best = 0
        for t in targets:
            stacks = [list(run) for run in runs]
            if any(stack[-1] in accepts[t].get(k, ()) for stack in stacks):
                best = max(best, search._longest_run(accepts[t], k, stacks))
        if best:
            hits, carried = hits + n, carried + n * best
        else:
            idle.append((k, n))
    return hits, carried, sorted(idle)


@pytest.mark.parametrize("name", ["discordian", "forty-thieves"])
def test_what_a_line_end_promises_is_the_count_kind_by_kind(name):
    compared = 0
    for game in positions_in_play(name, 3, 40, lambda moves, deal: max(moves)):
        line_search = search._LineSearch(game, 1, set())
        st = game.state
        targets = tuple(t for s, ts in line_search.stocks if st.piles[s] for t in ts)
        kind = game.kind
        runs = tuple(tuple(kind[c] for c in st.piles[p][st.down[p]:])
                     for p in line_search.sources if len(st.piles[p]) > st.down[p])
        if targets and runs:
            hits, carried, idle = line_search._carries(targets, runs)
            assert (hits, carried, sorted(idle)) == _reference_carries(line_search, targets, runs)
            compared += 1
    assert compared >= 20

