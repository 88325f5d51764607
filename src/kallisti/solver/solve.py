"""The thoughtful solver: a search of one deal with every card known, for a win or a proof that none exists.

The search is a depth-first search over player steps (a move and the automatic moves it sets off),
with every position it has finished with kept in a transposition table under a canonical key, so
no position is searched twice. It is generic over rulesets: what it treats as alike and which moves
it plays without branching are read off the rules, never off a game's name.

- **Canonical key.** Twin cards of a multi-pack deck are interchangeable, so a pile is keyed by the
  kinds of its cards; the piles of a group that the rules treat alike (no route reaches them one
  pile at a time, no rule reads a pile's index) are interchangeable, so their keys are sorted.
- **Safe moves.** A card going home (to a group the win needs every card in) is the only move tried
  when the conditions proved in docs/solver.md hold (`kallisti.solver.safe`): nothing can leave home,
  every card that could be built on it outside home is home, and the home piles that take it are
  alike and enough for every card outside home they take, so which of those cards goes first cannot
  matter; otherwise every move is tried.
- **Order.** Moves are tried best first by the rule-independent measure the greedy player uses.

The budget is counted in positions, so a verdict does not depend on the machine; a wall-clock
limit may be added for interactive use, and then "unknown" may depend on the machine.
"""

from __future__ import annotations

import time
import weakref
from dataclasses import dataclass, field

from kallisti.interpreter.game import Game
from kallisti.interpreter.notation import describe
from kallisti.model.reach import win_shape
from kallisti.solver.safe import SafeMoves
from kallisti.solver.strategies import move_score

WON, NO_WIN, UNKNOWN = "won", "no win", "unknown"
DEFAULT_STATES = 200_000
_BYTE = [bytes((i,)) for i in range(256)]
MAX_TABLE = 2_000_000  # positions the transposition table keeps; beyond it, the search stops as unknown
_safe_rules: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # ruleset -> its SafeMoves, or None


@dataclass(frozen=True)
class Solution:
    """A solver's verdict on one deal: `won` with the line of player moves, `no win`, or `unknown`."""

    verdict: str
    line: tuple[str, ...]
    states: int
    seconds: float
    stopped_by: str | None = None  # why the verdict is unknown: "states", "seconds" or "memory"
    moves: tuple[int, ...] = ()  # the line as the engine's moves, from the position searched

    def as_dict(self) -> dict:
        return {"verdict": self.verdict, "moves": list(self.line), "states": self.states,
                "seconds": round(self.seconds, 3), "stopped_by": self.stopped_by}


class _Stop(Exception):
    """The search ran out of its budget."""

    def __init__(self, why: str):
        self.why = why


@dataclass
class SearchOptions:
    """What the search may use; switching a technique off must never change a verdict, only its cost."""

    states: int = DEFAULT_STATES
    seconds: float | None = None
    symmetry: bool = True
    safe_moves: bool = True
    memory: int = MAX_TABLE


@dataclass
class _Shape:
    """What the search reads off a ruleset once: how to key a position and which moves are safe."""

    groups: list[tuple[range, bool]]  # each group's piles, and whether they are interchangeable
    kind_table: bytes | None  # card id -> kind, as a bytes.translate table; None if ids exceed a byte
    safe: SafeMoves | None = None  # the safe-move rule, when the ruleset allows one and the options use it
    home: frozenset = frozenset()  # pile indexes of the groups the win needs every card in (the beam's estimate)
    home_groups: frozenset = frozenset()
    redeal_caps: list = field(default_factory=list)  # (group, the count of redeals beyond which it no longer matters)


def solve(rules, seed: int | None = None, options: SearchOptions | None = None, game: Game | None = None) -> Solution:
    """Search the deal `seed` of `rules`, or the position of `game` (left as it was), for a win."""
    game = game or Game(rules, seed=seed)
    return _Search(game, options or SearchOptions()).run()


class _Search:
    def __init__(self, game: Game, options: SearchOptions):
        self.game, self.options = game, options
        self.shape = _shape(game.rules, options)
        self.seen: set = set()
        self.states = 0
        self.deadline = None if options.seconds is None else time.monotonic() + options.seconds

    def run(self) -> Solution:
        start = time.monotonic()
        line: list[int] = []
        try:
            verdict = WON if self._search(line) else NO_WIN
            why = None
        except _Stop as stop:
            for _ in line:  # back to where the search began
                self._undo()
            verdict, why, line = UNKNOWN, stop.why, []
        written = self._written(line)
        return Solution(verdict, written, self.states, time.monotonic() - start, why, tuple(line))

    def _written(self, line: list[int]) -> tuple[str, ...]:
        """The moves of the line as the player types them, each described in the position it is made in;
        the game is left where the search found it."""
        for _ in line:
            self._undo()
        out = []
        for m in line:
            out.append(describe(self.game, m, exact=True))
            self.game._step(m)
        for _ in line:
            self._undo()
        return tuple(out)

    def _search(self, line: list[int]) -> bool:
        """Depth first, without recursion (winning lines run to hundreds of steps)."""
        game = self.game
        if self._visit():
            return True
        stack = [self._children(None)]  # per step on the path, the moves still to try after it
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                stack.pop()
                if line:
                    self._undo()
                    line.pop()
                continue
            line.append(nxt)
            game._step(nxt)
            found = self._visit()
            if found:
                return True
            if found is None:  # a position seen before, or over: back up at once
                self._undo()
                line.pop()
                continue
            stack.append(self._children(nxt))
        return False

    def _visit(self) -> bool | None:
        """True when won; None when this position needs no search (seen, or over); False to search it."""
        game = self.game
        if game.rules.win(game.ctx):
            return True
        key = self._key()
        if key in self.seen:
            return None
        self.states += 1
        if self.states > self.options.states:
            raise _Stop("states")
        if len(self.seen) >= self.options.memory:
            raise _Stop("memory")
        if self.deadline is not None and not self.states % 256 and time.monotonic() > self.deadline:
            raise _Stop("seconds")
        self.seen.add(key)
        self._moves = game.legal_moves()
        if game.status(self._moves).outcome != "playing":
            return None
        return False

    def _children(self, last: int | None):
        """The moves to try from this position, best first; `last` is the step that led here (None at the start)."""
        game = self.game
        moves = self._moves
        safe = self.shape.safe.pick(game, moves) if self.shape.safe is not None else None
        if safe is not None:
            return iter([safe])
        back = self._reverse(last)
        if back is not None and back in moves:  # it leads back to the position before, which is on the path
            moves = [m for m in moves if m != back]
        # Ties go to the lower move number: the engine's order of legal moves depends on the way the
        # position was reached, and the search must not.
        return iter(sorted(moves, key=lambda m: (-move_score(game, m), m)))

    def _reverse(self, last: int | None) -> int | None:
        """The move that puts back exactly what step `last` did: the same cards moved back, when the step was
        that one card move alone (nothing automatic after it) and it turned no card face up."""
        if last is None:
            return None
        records = self.game.history[-1]
        if len(records) != 1 or len(records[0]) != 2 or records[0][1]:
            return None
        kind, src, dst, n = self.game.decode(last)
        return self.game.encode(dst, src, n) if kind == "move" else None

    def _undo(self) -> None:
        self.game.take_back_step()

    # -- keys ------------------------------------------------------------------
    def _key(self) -> bytes | tuple:
        st = self.game.state
        piles, down, table = st.piles, st.down, self.shape.kind_table
        if table is None:
            return st.key()
        # Redeals done count only while some are left (with unlimited redeals, not at all), unless a
        # redeal shuffles: each shuffle of a deal is different.
        parts = [",".join([str(min(st.redeals[name], cap)) for name, cap in self.shape.redeal_caps]).encode()]
        for piles_range, alike in self.shape.groups:
            if alike:  # each pile with its face-down count, sorted
                parts.append(b"\xff".join(sorted([bytes(piles[p]).translate(table) + _BYTE[down[p]] for p in piles_range])))
            else:
                parts.append(b"\xff".join([bytes(piles[p]) for p in piles_range]).translate(table))
                parts.append(bytes([down[p] for p in piles_range]))
        return b"\xfe".join(parts)


def _shape(rules, options: SearchOptions) -> _Shape:
    deck = rules.deck
    table = None
    if deck.size < 250 and max(deck.kind[: deck.size], default=0) < 250:
        table = bytes(deck.kind[c] if c < deck.size else 255 for c in range(256))
    symmetric = options.symmetry and ".index" not in str(rules.plain())
    groups = [(g.piles, symmetric and _interchangeable(rules, name)) for name, g in rules.groups.items()]
    shape = _Shape(groups, table)
    shape.redeal_caps = [(name, _redeals_that_matter(g)) for name, g in rules.groups.items()]
    win = win_shape(" ".join(str(rules.data.get("win", "")).split()), rules.groups) if rules.win else None
    settles = not rules.lose and not rules.compulsory and not any(p.trigger == "each-move" for p in rules.auto)
    if options.safe_moves and win is not None and win.everything_on and settles:
        shape.home_groups = frozenset(win.everything_on)
        shape.home = frozenset(p for name in win.everything_on for p in rules.groups[name].piles)
        shape.safe = safe_moves_of(rules)
    return shape


def safe_moves_of(rules) -> SafeMoves | None:
    """The ruleset's safe-move rule (worked out once per ruleset), or None when its rules allow none."""
    if rules not in _safe_rules:
        _safe_rules[rules] = SafeMoves.of(rules)[0]
    return _safe_rules[rules]


def _redeals_that_matter(group) -> int | float:
    """How many redeals done the position must remember: all of them when a redeal shuffles."""
    if group.redeal is not None and group.redeal.shuffle:
        return float("inf")
    return 0 if group.redeals < 0 else group.redeals


def _interchangeable(rules, name: str) -> bool:
    """Whether the piles of a group are alike to the rules: no route reaches or leaves them one pile at a time."""
    if len(rules.groups[name].piles) < 2:
        return False
    for other, g in rules.groups.items():
        if g.turn is not None and g.turn["to"] == name:
            return False
        if g.discard_to == name or (g.divert is not None and g.divert.to == name):
            return False
        if g.redeal is not None and (name in g.redeal.deal or name in g.redeal.gather):
            return False
        if g.refill is not None and (other == name or g.refill["from"] == name):
            return False
    return True
