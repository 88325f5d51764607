"""The greedy measure of a move's progress, and the moves that lead to positions not yet visited."""

from __future__ import annotations

FEEDERS = frozenset({"waste", "reserve", "stock"})  # roles whose cards wait to be played


def fresh_moves(game, moves: list[int], visited: set) -> list[int]:
    """The moves among `moves` whose step (the move and the automatic moves it sets off) leads to a position, a
    state key, not in `visited`. Each is stepped on `game` and taken back: its position is restored, but not the
    order of its legal moves (undo re-files piles at the end of the move indexes), so the hint passes a fork."""
    key, out = game.state.key, []
    for m in moves:
        game._step(m)
        if key() not in visited:
            out.append(m)
        game.take_back_step()
    return out


def move_score(game, m: int) -> int:
    """A simple, rule-independent measure of progress a move makes."""
    # A card move is read off the engine's table of decoded card moves (filled as apply fills it): the solver asks
    # for every move of every position it searches, so this is worth the direct look-up.
    parts = game._card_moves.get(m)
    if parts is None:
        kind, src, dst, n = game.decode(m)
        if kind == "deal":
            return 0
        if kind == "redeal":
            return -5
        if kind == "discard":
            return 110 + n  # cards leave play for good, like a foundation move; more of them is better
        parts = game._card_moves[m] = game._card_move_parts(m)
    n, src, dst, _, _ = parts
    roles, piles = game.pile_roles, game.piles
    to_home = roles[dst] == "foundation"
    src_role = roles[src]
    score = 110 if to_home else 10
    if src_role == "foundation":
        score -= 60
    elif src_role in FEEDERS:
        score += 15
    left = len(piles[src]) - n
    if left == 0:
        if to_home or piles[dst]:
            score += 20
        else:
            score -= 40  # moving a whole pile into a space gains nothing
    elif game.down[src] == left:
        score += 40  # turns up a face-down card
    if not to_home and not piles[dst]:
        score -= 10  # spaces are worth keeping
    return score
