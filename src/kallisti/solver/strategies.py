"""Move-choosing strategies (random, greedy, search) and hints; each draws from its own random stream."""

from __future__ import annotations

from kallisti.interpreter.rng import Rng, STREAM_STRATEGY

STRATEGIES = ("random", "greedy", "search")


class RandomStrategy:
    """Uniform among the legal moves."""

    name = "random"

    def __init__(self, seed: int):
        self.rng = Rng(seed, 0, STREAM_STRATEGY)

    def choose(self, game, moves: list[int]) -> int:
        return moves[self.rng.below(len(moves))]


class GreedyStrategy:
    """Prefers moves to foundations, then moves that turn up or clear a pile; deals last; never undoes its last move."""

    name = "greedy"

    def __init__(self, seed: int):
        self.rng = Rng(seed, 0, STREAM_STRATEGY)
        self.last: tuple[int, int] | None = None
        self.seen: set = set()

    def choose(self, game, moves: list[int]) -> int:
        best, best_score = [], None
        key_now = game.state.key()
        self.seen.add(key_now)
        for m in moves:
            score = move_score(game, m)
            kind, src, dst, n = game.decode(m)
            if kind == "move" and self.last == (dst, src):
                score -= 1000  # the exact reverse of the previous move goes nowhere
            if score > -1000:
                rec = game.apply(m)
                if game.state.key() in self.seen:
                    score -= 500  # a position already seen: a loop
                game.undo_record(rec)
            if best_score is None or score > best_score:
                best, best_score = [m], score
            elif score == best_score:
                best.append(m)
        m = best[self.rng.below(len(best))]
        kind, src, dst, n = game.decode(m)
        self.last = (src, dst) if kind == "move" else None
        return m


def move_score(game, m: int) -> int:
    """A simple, rule-independent measure of progress a move makes."""
    kind, src, dst, n = game.decode(m)
    if kind == "deal":
        return 0
    if kind == "redeal":
        return -5
    if kind == "discard":
        return 110 + n  # cards leave play for good, like a foundation move; more of them is better
    rules, st = game.rules, game.state
    score = 10
    dst_role = rules.groups[rules.group_of[dst]].role
    src_role = rules.groups[rules.group_of[src]].role
    if dst_role == "foundation":
        score += 100
    if src_role == "foundation":
        score -= 60
    if src_role in ("waste", "reserve", "stock"):
        score += 15
    left = len(st.piles[src]) - n
    if left == 0 and dst_role != "foundation" and not st.piles[dst]:
        score -= 40  # moving a whole pile into a space gains nothing
    elif left == 0:
        score += 20
    elif st.down[src] and st.down[src] == left:
        score += 40  # turns up a face-down card
    if dst_role != "foundation" and not st.piles[dst]:
        score -= 10  # spaces are worth keeping
    return score


def make_strategy(name: str, seed: int):
    if name == "random":
        return RandomStrategy(seed)
    if name == "greedy":
        return GreedyStrategy(seed)
    if name == "search":
        from kallisti.solver.search import SearchStrategy  # it builds on this module's measure

        return SearchStrategy(seed)
    raise ValueError(f"unknown strategy '{name}'; choose from {', '.join(STRATEGIES)}")


def hint(game) -> int | None:
    """A good legal move for the player, by the greedy measure (deterministic), or None when none is left."""
    moves = game.legal_moves()
    if not moves:
        return None
    return max(moves, key=lambda m: (move_score(game, m), -moves.index(m)))
