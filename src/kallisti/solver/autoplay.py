"""Autoplay: the moves home a player need not choose (the solver's safe moves), and the end of a game won by force.

Three kinds of move are made on a player's behalf, each derived from the ruleset, none from a game's name:

- **A safe move home**: a card goes home (to a group the win needs every card in) when the solver's proof of safe
  moves covers it (`kallisti.solver.safe`, docs/solver.md, "Safe moves"): every line from the position before it
  has a line from the position after it that does as well, built move by move beside it, so the move takes no
  chance of a win away, even from a player who cannot see the face-down cards.
- **A game won by force**: every card outside home lies face up and a line of moves home alone, each one card
  (or one discard) into home, wins, found by a search of at most COMPLETE_POSITIONS positions on a copy of the game.
  Such a line leaves the player nothing to choose that matters: it is played to the win. A card face down, or in a
  stock, is a card the player has not seen, so such a game is never completed (nor are cards dealt).
- **The only legal move, when it is compulsory**: played on request (`a`), never of itself.

The moves made after a player's move join that move's step (`Game.extend_step`), so one undo takes them all back.
"""

from __future__ import annotations

from kallisti.model.reach import win_shape

COMPLETE_POSITIONS = 500  # positions the search for a winning line of moves home may visit before it gives up
MAX_FOLLOWING = 10_000  # moves made on the player's behalf in one step, at most (each puts a card home: a deck's worth)


class Autoplay:
    """The moves a game makes on its player's behalf; the rules are read again whenever the game's rules change."""

    def __init__(self):
        self._rules = None
        self._safe = None  # the ruleset's SafeMoves, or None when it allows no safe move
        self._home: frozenset[int] = frozenset()  # the piles of the groups the win needs every card in

    def _read(self, rules) -> None:
        if rules is self._rules:
            return
        from kallisti.solver.solve import safe_moves_of  # shared with the solver: worked out once per ruleset

        self._rules = rules
        self._safe = safe_moves_of(rules)
        win = win_shape(" ".join(str(rules.data.get("win", "")).split()), rules.groups) if rules.win else None
        home = win.everything_on if win is not None else []
        self._home = frozenset(p for name in home for p in rules.groups[name].piles)

    # -- what to play ---------------------------------------------------------------------------------
    def safe_move(self, game) -> int | None:
        """The lowest legal move home that is safe in this position, or None. The lowest, so that the choice
        depends on the position alone (the order of `legal_moves` follows the history of the game's indexes)."""
        self._read(game.rules)
        if self._safe is None:
            return None
        return self._safe.pick(game, sorted(game.legal_moves()))

    def won_by_force(self, game) -> list[int] | None:
        """A line of moves home alone that wins from here, or None: when every card outside home lies face up, the
        first such line a depth-first search finds within COMPLETE_POSITIONS positions, the lowest move first. The
        search steps a copy of the game, which is left as it was."""
        self._read(game.rules)
        home, rules = self._home, game.rules
        state = game.state
        if not home or rules.win(game.ctx):
            return None
        if any(state.down[p] for p in range(game.P) if p not in home):
            return None  # a card the player has not seen: nothing is won by force
        if not self._moves_home(game):
            return None  # the usual case, told without copying the game
        twin = game.fork()
        line: list[int] = []
        branches = [self._moves_home(twin)]
        seen = {twin.state.key()}
        positions = 0
        while branches:
            if not branches[-1]:
                branches.pop()
                if line:
                    twin.take_back_step()
                    line.pop()
                continue
            m = branches[-1].pop(0)
            twin._step(m)
            line.append(m)
            positions += 1
            if rules.win(twin.ctx):
                return line
            key = twin.state.key()
            if positions >= COMPLETE_POSITIONS:
                return None
            if key in seen:
                twin.take_back_step()
                line.pop()
                continue
            seen.add(key)
            branches.append(self._moves_home(twin))
        return None

    def _moves_home(self, game) -> list[int]:
        """The legal moves here that take one card, or one discard, from outside home into home, lowest first."""
        home = self._home
        out = []
        for m in sorted(game.legal_moves()):
            kind, src, dst, n = game.decode(m)
            if kind == "discard" or kind == "move" and n == 1:
                if dst in home and src not in home:
                    out.append(m)
        return out

    # -- playing it --------------------------------------------------------------------------------------
    def follow(self, game, new_step: bool = False) -> list[int]:
        """Make the safe moves home, one after another, then the winning line of a game won by force; returns the
        moves made (with the automatic moves each triggered). They join the step just made, or, with `new_step`,
        make a step of their own (the `a` command)."""
        made: list[int] = []
        for _ in range(MAX_FOLLOWING):
            m = self.safe_move(game)
            if m is None:
                break
            made += game.play(m) if new_step and not made else game.extend_step(m)
        for m in self.won_by_force(game) or ():
            made += game.play(m) if new_step and not made else game.extend_step(m)
        return made


def sole_compulsory(game) -> int | None:
    """The only legal move, when it is a compulsory one (a ruleset's `compulsory` move that leaves no choice)."""
    rules = game.rules
    if not rules.compulsory:
        return None
    moves = game.legal_moves()
    if len(moves) == 1 and game._matches_any(rules.compulsory, moves[0]):
        return moves[0]
    return None
