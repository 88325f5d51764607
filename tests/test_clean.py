"""A winning line is cleaned before it is printed: a stretch that comes back to a position already passed is cut,
the cleaned line still wins, and no stored solution passes a position twice."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kallisti.cli.solve import render_text
from kallisti.interpreter.game import Game
from kallisti.interpreter.notation import parse_move
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.clean import clean_line, clean_solution, position_key, written
from kallisti.solver.solve import WON, Solution

SOLUTIONS = sorted((Path(__file__).parent / "solutions").glob("*.moves"))
NAME = re.compile(r"^(?P<game>[a-z-]+)-(?P<seed>\d+)\.moves$")


def stored(path: Path) -> tuple[Game, list[int]]:
    """The deal of a stored solution, at its start, and the solution as engine moves."""
    game_name, seed = NAME.match(path.name).group("game", "seed")
    rules = load_ruleset(game_name)
    game = Game(rules, seed=int(seed))
    replay = game.fork()
    moves = []
    for command in path.read_text(encoding="utf-8").splitlines():
        if command and not command.startswith("#"):
            moves.append(parse_move(replay, command))
            replay._step(moves[-1])
    return game, moves


def positions(game: Game, moves) -> list:
    """The solver's key (without symmetry) of every position along the line, the first included."""
    replay = game.fork()
    key = position_key(replay)
    keys = [key()]
    for m in moves:
        assert m in replay.legal_moves()
        replay._step(m)
        keys.append(key())
    return keys


def wins(game: Game, moves) -> bool:
    replay = game.fork()
    for m in moves:
        if m not in replay.legal_moves():
            return False
        replay._step(m)
    return replay.status().outcome == "won"


def undone_at_once(game: Game, moves) -> list[int]:
    """Where a move of n cards from A to B is followed by the move of the same n cards from B back to A, and the
    position is then the one before the first."""
    replay = game.fork()
    key = position_key(replay)
    found, before = [], []
    for i, m in enumerate(moves):
        before.append(key())
        replay._step(m)
        if i and replay.decode(m)[0] == "move" and replay.decode(moves[i - 1])[0] == "move":
            _, src, dst, n = replay.decode(m)
            if replay.decode(moves[i - 1])[1:] == (dst, src, n) and key() == before[i - 1]:
                found.append(i)
    return found


def reversible(game: Game) -> list[tuple[int, int, int, int]]:
    """The card moves of the position that the same cards moved straight back undo: (move, back, source, target)."""
    key = position_key(game)
    here, out = key(), []
    for m in game.legal_moves():
        kind, src, dst, n = game.decode(m)
        if kind != "move":
            continue
        game._step(m)
        back = game.encode(dst, src, n)
        if back in game.legal_moves():
            game._step(back)
            if key() == here:
                out.append((m, back, src, dst))
            game.take_back_step()
        game.take_back_step()
    return out


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_no_stored_solution_passes_a_position_twice(path):
    game, moves = stored(path)
    assert undone_at_once(game, moves) == [], f"{path.name}: a move undone by the next"
    keys = positions(game, moves)
    assert len(set(keys)) == len(keys), f"{path.name}: a position comes back"
    assert clean_line(game.rules, moves, game=game) == tuple(moves)


def test_a_back_and_forth_and_a_longer_cycle_are_cut_from_a_winning_line():
    """Forty Thieves deal 5: at the first position of its stored win with two card moves on four different piles
    that the same cards moved back undo, a back-and-forth (a, back a) and a cycle of four (a, b, back a, back b) are
    inserted; the line still wins, comes back to that position twice, and is cleaned to the stored line."""
    game, moves = stored(Path(__file__).parent / "solutions" / "forty-thieves-5.moves")
    replay = game.fork()
    for at, m in enumerate(moves):
        pairs = [(x, y) for x in reversible(replay) for y in reversible(replay) if not {x[2], x[3]} & {y[2], y[3]}]
        if pairs:
            break
        replay._step(m)
    (a, back_a, _, _), (b, back_b, _, _) = pairs[0]
    looped = moves[:at] + [a, back_a] + [a, b, back_a, back_b] + moves[at:]
    assert wins(game, looped)
    keys = positions(game, looped)
    assert keys.count(keys[at]) == 3 and undone_at_once(game, looped) == [at + 1, at + 2]

    cleaned = clean_line(game.rules, looped, game=game)
    assert cleaned == tuple(moves)
    keys = positions(game, cleaned)
    assert len(set(keys)) == len(keys) and wins(game, cleaned)

    # The printed line: its head states the cleaned length, and its moves are written again.
    found = Solution(WON, written(game, looped), 1234, 0.5, None, tuple(looped))
    shown = clean_solution(game.rules, found, game)
    assert shown.moves == tuple(moves) and shown.line == written(game, moves) and shown.states == 1234
    head, *lines = render_text("Forty Thieves", 5, shown).splitlines()
    assert head.startswith(f"# Forty Thieves, deal 5: won in {len(moves)} moves (1,234 positions searched")
    assert len(lines) == len(moves)


def test_a_line_that_does_not_win_is_left_as_it_was():
    game, moves = stored(Path(__file__).parent / "solutions" / "forty-thieves-5.moves")
    short = moves[:-1]  # one move short of the win
    assert clean_line(game.rules, short, game=game) == tuple(short)
    found = Solution(WON, written(game, short), 10, 0.1, None, tuple(short))
    assert clean_solution(game.rules, found, game) is found
