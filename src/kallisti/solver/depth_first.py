"""The depth-first search of the thoughtful solver, and what every search of a deal shares: its options and verdict.

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
from kallisti.solver.measure import FEEDERS, move_score

WON, NO_WIN, UNKNOWN = "won", "no win", "unknown"
DEFAULT_STATES = 200_000
MAX_TABLE = 2_000_000  # positions the transposition table keeps; beyond it, the search stops as unknown
_TOP = 1 << 20  # above any score `move_score` gives: `_Search.order` ranks a move by _TOP less its score, then number
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
        self._ranks: dict = {}  # card move -> what `order` reads of it whatever the position (`_rank_of`)
        self._statics: dict = {}  # any other move -> its rank
        # `order` ranks a move by one number: its score above, its move number below `_shift` bits.
        self._shift = game.move_bound.bit_length()
        self._points = (10 << self._shift, 20 << self._shift, 40 << self._shift)  # 10, 20 and 40 points, in a rank

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
        (the winning moves in `line`, the game left at its end) or searched every position without a win.

        Each step of the path keeps the moves still to try from it (`_children`), best first. When the key a move
        leads to can be told without making it (`PositionKeys.told`, for keys that are bytes and steps that are the
        move alone, and a win that reads group sizes alone, `win_sizes`, which the key determines), a move into a
        position already searched is passed over, and the win is not judged there (no position in `seen` was won).
        A move that is made takes its key as told (`PositionKeys.adopt`), and once it is taken back the key maker
        is put back as it was before it (`saved`, `restore`), keying no pile again.

        The order of the engine's legal moves depends on the order in which its move indexes were re-filed, and it
        decides one thing in the search: which safe move `SafeMoves.pick` finds first. That is the order among the
        moves home alone, so it depends on the order of the home piles in the indexes alone; a move passed over
        that changes a home pile has it re-filed as stepping into the move and back would have (`Game.pass_over`),
        and one that changes none (or any move, where no move is safe) needs nothing: the search goes on exactly
        as if it had stepped into the move and back."""
        game = self.game
        if self._visit():
            return True
        keys, seen = self.keys, self.seen
        tells = keys.predicts and game.rules.win_sizes is not None
        safe = self.shape.safe
        home = safe.home_piles if safe is not None else None  # the piles whose place in the indexes matters
        refiled = [p in home for p in range(game.P)] if home is not None else None
        told_of, adopt, saved, restore = keys.told, keys.adopt, keys.saved, keys.restore
        step, undo, pass_over = game._step, game.take_back_step, game.pass_over
        visit, children = self._visit, self._children
        # Per step on the path: the moves still to try from it, and the key maker's state before the move being tried
        # (None when keys cannot be told).
        tries, states = [iter(children(None))], [None]
        while tries:
            told = None
            for m in tries[-1]:
                if not tells:
                    break
                told = told_of(m)
                if told is None or told[0] not in seen:
                    break
                if home is not None:  # passed over: its home piles, if any, re-filed (the method's docstring)
                    changed = told[2]
                    if len(changed) > 6 or refiled[changed[0]] or refiled[changed[3]]:
                        pass_over(m)
                told = None
            else:  # every move tried: back to the step before
                tries.pop()
                states.pop()
                if line:
                    undo()
                    line.pop()
                    state = states[-1]
                    if state is not None:  # back from the line of its move: the key this position had
                        restore(state)
                continue
            if tells:
                states[-1] = saved()
            line.append(m)
            step(m)
            if told is not None:
                adopt(told)  # the position reached is keyed as told
            found = visit()
            if found:
                return True
            if self.states >= self.pause:
                yield
            if found is None:  # a position seen before, or over: back up at once
                undo()
                line.pop()
                state = states[-1]
                if state is not None:
                    restore(state)
                continue
            tries.append(iter(children(m)))
            states.append(None)
        return False

    def _visit(self) -> bool | None:
        """True when won; None when this position needs no search (seen, or over); False to search it."""
        game = self.game
        if game.rules.win(game.ctx):
            return True
        key = self._key()
        seen = self.seen
        if key in seen:
            return None
        self.states = states = self.states + 1
        options = self.options
        if states > options.states:
            raise _Stop("states")
        if len(seen) >= options.memory:
            raise _Stop("memory")
        if self.deadline is not None and not states % 256 and time.monotonic() > self.deadline:
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

    def _children(self, last: int | None) -> list[int]:
        """The moves to try from this position, best first; `last` is the step that led here (None at the start):
        not the move that puts back exactly what it did, which leads to the position before, on the path: the same
        cards moved back, when the step was that one card move alone (nothing automatic after it) and it turned no
        card face up."""
        game = self.game
        moves = self._moves
        safe = self.shape.safe
        if safe is not None:
            picked = safe.pick(game, moves, None, self.keys.home_part)
            if picked is not None:
                return [picked]
        back = None
        if last is not None:
            records = game.history[-1]
            if len(records) == 1 and len(records[0]) == 2 and not records[0][1]:
                parts = game._card_moves.get(last)  # every card move made is in the engine's table (not a deal)
                if parts is not None:
                    P = game.P
                    back = (parts[0] * P + parts[2]) * P + parts[1]
        if back is not None or len(moves) > 1:
            return self.order(moves, back)
        return moves

    def order(self, moves: list[int], back: int | None = None) -> list[int]:
        """`moves` but `back`, best first by `move_score`, ties to the lower move number: the engine's order of legal
        moves depends on the way the position was reached, and the search must not.

        A move is ranked by one number, _TOP less its score above `_shift` bits and its move number below them, so
        that ranks sort as (-score, move) do. A card move's rank is its part that depends on the move alone, kept by
        move (`_rank_of`), less what `move_score` reads of the position: whether the source is left empty or with a
        face-down card on top, and whether the target is empty. That copy of `move_score` is checked against it the
        first time each move is ranked."""
        game = self.game
        piles, down = game.piles, game.down
        ranks, statics = self._ranks, self._statics
        ten, twenty, forty = self._points
        ranked = []
        fresh = None  # card moves ranked here for the first time
        for m in moves:
            parts = ranks.get(m)
            if parts is None:
                if m == back:
                    continue
                rank = statics.get(m)
                if rank is not None:  # a deal, a redeal or a discard: its rank is its own
                    ranked.append(rank)
                    continue
                parts = self._rank_of(m)
                if parts.__class__ is int:
                    ranked.append(parts)
                    continue
                fresh = [m] if fresh is None else fresh + [m]
            n, src, dst, rank, to_home = parts
            if m == back:
                continue
            left = len(piles[src]) - n
            if left == 0:
                rank -= twenty if to_home or piles[dst] else -forty
            elif down[src] == left:
                rank -= forty  # turns up a face-down card
            if not to_home and not piles[dst]:
                rank += ten  # spaces are worth keeping
            ranked.append(rank)
        if fresh is not None:  # the copy of `move_score` above, checked against it once a move
            shift = self._shift
            for m in fresh:
                if (_TOP - move_score(game, m)) << shift | m not in ranked:
                    raise AssertionError(f"the search ranks move {m} otherwise than move_score does")
        mask = (1 << self._shift) - 1
        if len(ranked) == 2:
            a, b = ranked
            return [a & mask, b & mask] if a < b else [b & mask, a & mask]
        ranked.sort()
        return list(map(mask.__and__, ranked))

    def _rank_of(self, m: int):
        """What `order` reads of move m whatever the position, kept by move: for a card move, (n, source, target,
        its rank by the part of `move_score` that depends on the move alone, whether it goes home); for any other
        move its rank."""
        game = self.game
        if m in game._card_moves or game.decode(m)[0] == "move":
            if m not in game._card_moves:
                game._card_moves[m] = game._card_move_parts(m)  # as `move_score` fills the engine's table
            n, src, dst, _, _ = game._card_moves[m]
            roles = game.pile_roles
            to_home = roles[dst] == "foundation"
            score = 110 if to_home else 10
            if roles[src] == "foundation":
                score -= 60
            elif roles[src] in FEEDERS:
                score += 15
            parts = self._ranks[m] = (n, src, dst, (_TOP - score) << self._shift | m, to_home)
            return parts
        rank = self._statics[m] = (_TOP - move_score(game, m)) << self._shift | m
        return rank

    def _undo(self) -> None:
        self.game.take_back_step()

    # -- keys ------------------------------------------------------------------
    def _key(self) -> bytes | tuple:
        """The canonical key of the game's position (kallisti.solver.keys), updated from the piles changed since; with
        the moves made, for rules that read them (two paths to the same cards are then different positions)."""
        trail = self.game.trail
        if trail is not None:
            return (self.keys.key(), trail.key())
        return self.keys.key()


def _shape(rules, options: SearchOptions) -> _Shape:
    deck = rules.deck
    table = None
    if deck.size < 250 and max(deck.kind[: deck.size], default=0) < 250:
        table = bytes(deck.kind[c] if c < deck.size else 255 for c in range(256))
    alike = interchangeable_groups(rules) if options.symmetry else set()
    groups = [(g.piles, name in alike) for name, g in rules.groups.items()]
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


def interchangeable_groups(rules) -> set[str]:
    """The groups whose piles the rules cannot tell apart, so that which of them holds what is no part of a position:
    no rule reads a pile's index, and no route reaches or leaves them one pile at a time."""
    if ".index" in str(rules.plain()) or rules.reads_history:
        return set()  # a pile's index, or a move made, tells its piles apart
    return {name for name in rules.groups if _interchangeable(rules, name)}


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
