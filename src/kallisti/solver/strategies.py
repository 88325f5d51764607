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


HINT_STATES = 2000  # positions the solver may search for a hint before the greedy measure answers instead


def hint(game) -> int | None:
    """A good legal move for the player, or None when none is left (deterministic).

    In a patience played alone, the next move of a win the solver finds within HINT_STATES
    positions (it knows the face-down cards and the stock, and says nothing of them but the move).
    The rest of that win is kept, so a player who follows the hints follows one line to its end
    instead of a new search's each time. Otherwise, and in a match, the move the greedy measure
    likes best. Asking changes nothing in the game but the plan it keeps: not its position, its history,
    nor the order of its legal moves.
    """
    moves = game.legal_moves()
    if not moves:
        return None
    line = _planned(game)
    # The search and the step below are made on a fork: searching the game itself would leave its position but
    # not the order of its legal moves, so a hint would change where `t7 f` or a double-click sends a card.
    twin = None
    if line is None and game.rules.match is None:
        from kallisti.solver.solve import WON, SearchOptions, solve  # the solver orders its moves by this module's measure

        twin = game.fork()
        found = solve(twin.rules, options=SearchOptions(states=HINT_STATES), game=twin)
        if found.verdict == WON and found.moves:
            from kallisti.solver.clean import clean_line

            line = list(clean_line(twin.rules, found.moves, game=twin))
    if line and line[0] in moves:
        twin = twin or game.fork()
        twin._step(line[0])
        game.hint_plan = (twin.state.key(), line[1:])  # where the line goes next, and from which position
        return line[0]
    return max(moves, key=lambda m: (move_score(game, m), -m))  # ties: the lower move number, whatever the engine's order


def _planned(game) -> list[int] | None:
    """The rest of the line of the last hint, when the game stands where that hint led."""
    plan = game.hint_plan
    if plan is not None and plan[0] == game.state.key() and plan[1]:
        return plan[1]
    return None
