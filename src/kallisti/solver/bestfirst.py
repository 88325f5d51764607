"""A best-first search of one deal with every card known: the position the progress estimate likes best is searched next."""

from __future__ import annotations

import heapq
from dataclasses import replace

from kallisti.interpreter.game import Game
from kallisti.solver.beam import PATIENCE, Weights, _Beam, _Estimate, _Node
from kallisti.solver.depth_first import SearchOptions

# The best-first search adds to the beam's estimate the cards lying above the cards home could take next: with
# nothing dropped, looking deep where the next cards are buried pays (on Microsoft FreeCell deals 1-94, weight 4
# found every win within 43,613 positions, 4,719 on average; without it 179,578 positions went to deals 1-20 alone).
WEIGHTS = Weights(next=4)
# The portfolio runs a second best-first search beside it where the game has cells (groups that build nothing: a
# space there holds one card, not a run), weighing such a space half a space that holds a run. Either estimate alone
# leaves some Microsoft FreeCell deal of 1-1000 unknown at 200,000 positions (the first 337, 454 and 829, the second
# 617 and 850) (docs/solver.md, "FreeCell against fc-solve").
CELL_WEIGHTS = Weights(next=4, cell=6)


class BestFirst(_Beam):
    """Searches the position with the highest progress estimate (`beam._Estimate`) among all those found and not
    yet searched; ties go to the one found first, so the search is the same on every machine.

    Unlike the beam it drops nothing: every new position is kept until it is searched, so a search that runs
    out of positions has searched every position reachable from the deal (safe moves aside, which lose no win)
    and proves that no win exists. It keeps the depth-first search's canonical key and safe moves. A kept
    position costs its snapshot (the piles as tuples) while positions found from it wait to be searched.
    """

    def __init__(self, game: Game, options: SearchOptions, weights: Weights | None = None):
        super().__init__(game, 1, options, weights or WEIGHTS, PATIENCE)
        self.pause = float("inf")  # the count of positions at which `walk` yields to its caller

    def walk(self):
        """The search as a generator: it yields whenever its count of positions reaches `self.pause`, and returns
        the winning moves from the start, or None once every position was searched without a win. The game is
        left wherever the search last was: run it on a fork (`Game.fork`) of the game being played."""
        game = self.game
        if game.rules.win(game.ctx):
            return []
        self.seen.add(self.dfs._key())
        root = _Node(self._snapshot(), None, None, self.estimate())
        waiting = [(-root.estimate, 0, root, None)]  # (-estimate, order found, parent, move from the parent)
        safe_rule, dead = self.dfs.shape.safe, self.dfs.shape.dead
        here = None  # the node whose position the game holds, when it holds one
        while waiting:
            negative, _, parent, move = heapq.heappop(waiting)
            if parent is not here:
                self._restore(parent.snapshot)
            if move is None:
                node = parent
            else:
                game._step(move)
                node = _Node(self._snapshot(), parent, move, -negative)
            here = node
            moves = game.legal_moves()
            if game.status(moves).outcome != "playing" or dead is not None and dead.lost(game):
                continue
            safe = safe_rule.pick(game, moves) if safe_rule is not None else None
            for m in [safe] if safe is not None else sorted(moves):
                game._step(m)
                try:
                    if game.rules.win(game.ctx):
                        return node.line() + [m]
                    key = self.dfs._key()
                    if key not in self.seen:
                        self._count()
                        self.seen.add(key)
                        heapq.heappush(waiting, (-self.estimate(), self._next(), node, m))
                finally:
                    game.take_back_step()
                if self.states >= self.pause:
                    yield
        return None

    def _restore(self, snapshot: tuple) -> None:
        """Put the game in a kept position, re-filing only the piles that differ from the position it holds: the
        best position is most often a few moves from the last one searched."""
        game, st = self.game, self.game.state
        piles, down, sizes, redeals, redeal_positions = snapshot
        now_piles, now_down = st.piles, st.down
        for p, cards in enumerate(piles):
            pile = now_piles[p]
            if now_down[p] != down[p] or len(pile) != len(cards) or tuple(pile) != cards:
                pile[:] = cards
                now_down[p] = down[p]
                game._refresh(p)
        st.sizes.update(sizes)
        st.redeals.update(redeals)
        game.redeal_positions[:] = redeal_positions
        game.history.clear()


def estimates_differ(game: Game, shape, a: Weights, b: Weights) -> bool:
    """Whether two sets of weights weigh some position of the game differently, given the search's `shape`
    (`solve._Shape`): a cell's weight, say, matters only where some group is a cell."""
    ea, eb = _Estimate(game, shape, a), _Estimate(game, shape, b)
    return ea.piles != eb.piles or replace(a, cell=None) != replace(b, cell=None)
