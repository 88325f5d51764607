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
from kallisti.solver.dead import DeadCards
from kallisti.solver.keys import PositionKeys, sealed_piles
from kallisti.solver.safe import SafeMoves
from kallisti.solver.strategies import move_score

WON, NO_WIN, UNKNOWN = "won", "no win", "unknown"
DEFAULT_STATES = 200_000
MAX_TABLE = 2_000_000  # positions the transposition table keeps; beyond it, the search stops as unknown
_safe_rules: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # ruleset -> its SafeMoves, or None
_dead_rules: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # ruleset -> its DeadCards, or None


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
    # Positions where a card can never leave its pile are known lost (solver/dead.py). None: where it pays, that is
    # where no space takes every card (docs/solver.md, "Loss proofs"); True or False: always or never.
    loss_proofs: bool | None = None
    memory: int = MAX_TABLE
    search: str = "portfolio"  # one of SEARCHES: how the positions are searched


@dataclass
class _Shape:
    """What the search reads off a ruleset once: how to key a position and which moves are safe."""

    groups: list[tuple[range, bool]]  # each group's piles, and whether they are interchangeable
    kind_table: bytes | None  # card id -> kind, as a bytes.translate table; None if ids exceed a byte
    safe: SafeMoves | None = None  # the safe-move rule, when the ruleset allows one and the options use it
    dead: DeadCards | None = None  # the loss proof, when the ruleset allows one and the options use it
    home: frozenset = frozenset()  # pile indexes of the groups the win needs every card in (the beam's estimate)
    home_groups: frozenset = frozenset()
    redeal_caps: list = field(default_factory=list)  # (group, the count of redeals beyond which it no longer matters)
    sealed: frozenset = frozenset()  # piles keyed by their cards and top alone (`keys.sealed_piles`)


PORTFOLIO, DEPTH_FIRST, BEST_FIRST = "portfolio", "depth-first", "best-first"
SEARCHES = (PORTFOLIO, DEPTH_FIRST, BEST_FIRST)


def solve(rules, seed: int | None = None, options: SearchOptions | None = None, game: Game | None = None) -> Solution:
    """Search the deal `seed` of `rules`, or the position of `game` (left as it was), for a win: by default with
    the portfolio of the depth-first and best-first searches (`kallisti.solver.portfolio`), or by one of them alone."""
    options = options or SearchOptions()
    game = game or Game(rules, seed=seed)
    if options.search == DEPTH_FIRST:
        return _Search(game, options).run()
    if options.search not in SEARCHES:
        raise ValueError(f"unknown search {options.search!r}: one of {', '.join(SEARCHES)}")
    # The portfolio runs this module's depth-first search beside the best-first one, so it is imported here.
    from kallisti.solver.portfolio import portfolio_solve

    return portfolio_solve(rules, options=options, game=game)


class _Search:
    def __init__(self, game: Game, options: SearchOptions):
        self.game, self.options = game, options
        self.shape = _shape(game.rules, options)
        self.keys = PositionKeys(game, self.shape.groups, self.shape.kind_table, self.shape.redeal_caps,
                                 self.shape.home, self.shape.sealed)
        self.seen: set = set()
        self.states = 0
        self.proved_lost = 0  # positions the loss proof cut (solver/dead.py)
        self.pause = float("inf")  # the count of positions at which `walk` yields to its caller
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
        the game is left where the search found it. The line is taken back from its end, each move described once
        it is undone, in the position it was made in."""
        out = []
        for m in reversed(line):
            self._undo()
            out.append(describe(self.game, m, exact=True))
        return tuple(reversed(out))

    def _search(self, line: list[int]) -> bool:
        """Depth first, without recursion (winning lines run to hundreds of steps)."""
        walk = self.walk(line)
        while True:
            try:
                next(walk)
            except StopIteration as done:
                return done.value

    def walk(self, line: list[int]):
        """The depth-first search as a generator: it pauses (yields) whenever its count of positions reaches
        `self.pause`, so that a portfolio can run it in turn with other searches, and returns whether it won
        (the winning moves in `line`, the game left at its end) or searched every position without a win."""
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
            if self.states >= self.pause:
                yield
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
        key = self.keys.key()
        seen = self.seen
        if key in seen:
            return None
        self.states += 1
        if self.states > self.options.states:
            raise _Stop("states")
        if len(seen) >= self.options.memory:
            raise _Stop("memory")
        if self.deadline is not None and not self.states % 256 and time.monotonic() > self.deadline:
            raise _Stop("seconds")
        seen.add(key)
        self._moves = moves = game.legal_moves()
        # `game.status(moves)`, whose win was judged above: asked only when a loss may be declared.
        if (not moves or game.rules.lose or game.redeal_positions) and game.status(moves).outcome != "playing":
            return None
        dead = self.shape.dead
        if dead is not None and dead.lost(game):
            self.proved_lost += 1
            return None
        return False

    def _children(self, last: int | None):
        """The moves to try from this position, best first; `last` is the step that led here (None at the start).

        They are given one at a time, as the search asks for them, in this position; a move that leads to a
        position already searched may be passed over then (`_unsearched`): the search would step into it, find
        it seen and step back."""
        game = self.game
        moves = self._moves
        safe = self.shape.safe
        if safe is not None:
            picked = safe.pick(game, moves, self.keys.home_part())
            if picked is not None:
                return self._given([picked])
        if last is not None:
            back = self._reverse(last)
            if back is not None and back in moves:  # it leads back to the position before, which is on the path
                moves = [m for m in moves if m != back]
        # Ties go to the lower move number: the engine's order of legal moves depends on the way the
        # position was reached, and the search must not.
        if len(moves) > 1:
            score = move_score
            moves = [m for _, m in sorted([(-score(game, m), m) for m in moves])]
        return self._given(moves)

    def _given(self, moves: list[int]):
        """`moves` as `_children` gives them: passing over those already searched when their keys can be told."""
        if self.keys.predicts and self.game.rules.win_sizes is not None:
            return self._unsearched(moves)
        return iter(moves)

    def _unsearched(self, moves: list[int]):
        """The moves one by one, less the moves whose position (its key told by `PositionKeys.after_move`) is
        already in `seen` when its turn comes: each is passed over (`Game.pass_over`), leaving the game, the order
        of its move indexes included, as stepping into it and back would have. The win is not judged there: it reads
        group sizes alone (`win_sizes`), which the key determines, and no position in `seen` was won."""
        game, seen, keys = self.game, self.seen, self.keys
        history = game.history
        depth = len(history)
        last = history[-1] if depth else None  # the step that led here: the way to know the game is back here
        # (No iterator, bound method or other container is kept across the yield but what must be: the search
        # keeps one of these for every step of its line, and the garbage collector goes through each.)
        for i in range(len(moves)):
            m = moves[i]
            told = keys.told(m)
            if told is not None:
                if told[0] in seen:
                    game.pass_over(m)
                    continue
                keys.expect(m, told, depth, last)  # the position it leads to is keyed as told
                told = None  # (kept by `keys` alone, until taken: a search deep in a line keeps little per step)
            saved = keys.saved() if i + 1 < len(moves) else None  # after the last move, no key is told here
            yield m
            if len(history) != depth or (depth and history[-1] is not last):
                yield from moves[i + 1:]  # asked for from another position: the moves as they are
                return
            if saved is not None:  # back from m's line: this position's key is the one it had
                keys.restore(saved)

    def _reverse(self, last: int | None) -> int | None:
        """The move that puts back exactly what step `last` did: the same cards moved back, when the step was
        that one card move alone (nothing automatic after it) and it turned no card face up."""
        if last is None:
            return None
        game = self.game
        records = game.history[-1]
        if len(records) != 1 or len(records[0]) != 2 or records[0][1]:
            return None
        parts = game._card_moves.get(last)  # every card move made is in the engine's table
        if parts is None:
            return None  # a deal or a discard
        n, src, dst, _, _ = parts
        return (n * game.P + dst) * game.P + src

    def _undo(self) -> None:
        self.game.take_back_step()

    # -- keys ------------------------------------------------------------------
    def _key(self) -> bytes | tuple:
        """The canonical key of the game's position (kallisti.solver.keys), updated from the piles changed since."""
        return self.keys.key()


def _shape(rules, options: SearchOptions) -> _Shape:
    deck = rules.deck
    table = None
    if deck.size < 250 and max(deck.kind[: deck.size], default=0) < 250:
        table = bytes(deck.kind[c] if c < deck.size else 255 for c in range(256))
    symmetric = options.symmetry and ".index" not in str(rules.plain())
    groups = [(g.piles, symmetric and _interchangeable(rules, name)) for name, g in rules.groups.items()]
    shape = _Shape(groups, table)
    shape.redeal_caps = [(name, _redeals_that_matter(g)) for name, g in rules.groups.items()]
    if options.symmetry:  # the order of a sealed pile's cards is a symmetry of the rules, as twin cards are
        shape.sealed = sealed_piles(rules)
    win = win_shape(" ".join(str(rules.data.get("win", "")).split()), rules.groups) if rules.win else None
    settles = not rules.lose and not rules.compulsory and not any(p.trigger == "each-move" for p in rules.auto)
    if options.safe_moves and win is not None and win.everything_on and settles:
        shape.home_groups = frozenset(win.everything_on)
        shape.home = frozenset(p for name in win.everything_on for p in rules.groups[name].piles)
        shape.safe = safe_moves_of(rules)
    if options.loss_proofs is not False:
        dead = dead_cards_of(rules)
        shape.dead = dead if options.loss_proofs or dead is None or dead.pays else None
    return shape


def safe_moves_of(rules) -> SafeMoves | None:
    """The ruleset's safe-move rule (worked out once per ruleset), or None when its rules allow none."""
    if rules not in _safe_rules:
        _safe_rules[rules] = SafeMoves.of(rules)[0]
    return _safe_rules[rules]


def dead_cards_of(rules) -> DeadCards | None:
    """The ruleset's loss proof (worked out once per ruleset), or None when its win allows none."""
    if rules not in _dead_rules:
        _dead_rules[rules] = DeadCards.of(rules)
    return _dead_rules[rules]


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
