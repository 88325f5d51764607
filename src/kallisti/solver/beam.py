"""A beam search of one deal with every card known: it finds wins the depth-first search is too slow to reach, and proves no loss."""

from __future__ import annotations

import time
from dataclasses import dataclass

from kallisti.interpreter.game import Game
from kallisti.interpreter.notation import describe
from kallisti.solver.depth_first import UNKNOWN, WON, SearchOptions, Solution, _Search, _Stop

DEFAULT_WIDTH = 500
PATIENCE = 30  # levels without a better position after which play has come to a standstill and the stock is turned

# Weights of the progress estimate, in whole numbers so that sums are exact and ties are ties on
# every machine.
SEQUENCE_WEIGHT = 4  # per card lying on a card it is in sequence with
BUILD_WEIGHT = 1  # per card lying on a card the build rule (but not the sequence rule) accepts
SCORE_WEIGHT = 5  # per point of the ruleset's score: cards gone home must outweigh the sequence they leave
HIDDEN_WEIGHT = 8  # per card face down outside a stock: every one is a card the player cannot yet use
COVER_WEIGHT = 4  # per face-up card lying above face-down ones: each must be moved away to turn them up
BURIED_WEIGHT = 3  # per card lying on or above a card out of sequence with the one below it
ROOTED_WEIGHT = 2  # per card in sequence up from a pile's bottom card that the build rule lets on no card: settled
SPACE_WEIGHT = 12  # per empty pile a card may leave and come back to: room to take runs apart
STOCK_WEIGHT = 0  # per card still in a stock
NEXT_WEIGHT = 0  # per card lying above the nearest card of a kind some home pile takes next (the beam leaves it out)
SPARE = 10  # dropped positions kept per place in the beam, for a beam that runs into positions seen before
MAX_PILE_CACHE = 200_000  # pile values remembered; beyond it the cache starts afresh (values never depend on it)


@dataclass(frozen=True)
class Weights:
    """The weights of the progress estimate (see the constants above)."""

    sequence: int = SEQUENCE_WEIGHT
    score: int = SCORE_WEIGHT
    hidden: int = HIDDEN_WEIGHT
    cover: int = COVER_WEIGHT
    rooted: int = ROOTED_WEIGHT
    buried: int = BURIED_WEIGHT
    space: int = SPACE_WEIGHT
    cell: int | None = None  # per space of a group that builds nothing (a cell: room for one card); None: `space`
    build: int = BUILD_WEIGHT
    stock: int = STOCK_WEIGHT
    next: int = NEXT_WEIGHT


def beam_solve(rules, seed: int | None = None, width: int = DEFAULT_WIDTH, options: SearchOptions | None = None,
               game: Game | None = None, weights: Weights | None = None, patience: int = PATIENCE) -> Solution:
    """Search the deal `seed` of `rules` (or the position of `game`) level by level, keeping the `width`
    positions the progress estimate likes best at each level; `won` or `unknown`, never `no win`."""
    if width < 1:
        raise ValueError("the beam width must be at least one position")
    game = game or Game(rules, seed=seed)
    return _Beam(game, width, options or SearchOptions(), weights or Weights(), patience).run()


def _rank(entry: tuple):
    """Best estimate first; between equals, the one generated first (the order depends only on the search)."""
    return (-entry[0], entry[1])


def _top(entries: list[tuple], n: int) -> list[tuple]:
    return sorted(entries, key=_rank)[:n]


class _Node:
    """A position kept in the beam: its snapshot and the step that led to it from its parent."""

    __slots__ = ("snapshot", "parent", "move", "estimate")

    def __init__(self, snapshot, parent, move, estimate):
        self.snapshot, self.parent, self.move, self.estimate = snapshot, parent, move, estimate

    def line(self) -> list[int]:
        out, node = [], self
        while node.parent is not None:
            out.append(node.move)
            node = node.parent
        return out[::-1]


class _Beam:
    def __init__(self, game: Game, width: int, options: SearchOptions, weights: Weights, patience: int):
        self.game, self.width, self.options = game, width, options
        # The depth-first search's canonical key and safe moves, so both searches call the same positions alike.
        self.dfs = _Search(game, options)
        self.estimate = _Estimate(game, self.dfs.shape, weights)
        self.patience = patience
        self.spare = SPARE
        self.order = 0  # candidates generated so far: each one's number breaks ties in its favour
        P = game.P
        self.card_move_floor = min(2 * P, P * P)  # moves below it deal or redeal from a stock (see `Game.decode`)
        self.seen: set = set()
        self.states = 0
        self.deadline = None if options.seconds is None else time.monotonic() + options.seconds

    def run(self) -> Solution:
        start = time.monotonic()
        game = self.game
        # The search jumps between positions without undoing its way back: the game's own history is kept aside,
        # so that the game is left as it was found (a hint searches the game being played).
        history, moves_played = game.history, game.moves_played
        game.history = []
        root = _Node(self._snapshot(), None, None, self.estimate())
        try:
            try:
                won, why = self._search(root), None
            except _Stop as stop:
                won, why = None, stop.why
            line = won.line() if won is not None else []
            self._restore(root.snapshot)
            written = self._written(line)
        finally:
            self._restore(root.snapshot)
            game.history, game.moves_played = history, moves_played
        if won is None:
            # A beam drops positions, so one that runs dry has not searched every line: it proves nothing.
            return Solution(UNKNOWN, (), self.states, time.monotonic() - start, why or "beam")
        return Solution(WON, written, self.states, time.monotonic() - start, None, tuple(line))

    def _search(self, root: _Node) -> _Node | None:
        """Level by level; the stock is turned only when play without it has come to a standstill.

        A beam that compares positions a move apart cannot judge a deal from a stock fairly: a deal
        brings no progress the estimate can see (it usually covers cards), while a move that only
        shifts a run from one pile to another costs nothing, so the beam would shift runs for ever.
        So the play between two turns of the stock is a stage of its own: the beam searches it
        without stock moves, keeping aside the best positions of the stage from which the stock may
        be turned; when `patience` levels in a row bring no position better than the best of the
        stage (or no position at all), the next stage starts from those positions, stock turned.
        A beam whose positions all lead only to positions seen before starts again from the best
        positions of the stage it dropped (`spare`), when there is no stock left to turn.
        """
        game = self.game
        if game.rules.win(game.ctx):
            return root
        self.seen.add(self.dfs._key())
        level = [root]
        ready: list[tuple] = []  # (estimate, order, node): positions of this stage the stock may be turned from
        spare: list[tuple] = []  # (estimate, order, parent, move): positions of this stage the beam dropped
        best, stale = None, 0
        while level or ready or spare:
            if ready and (stale >= self.patience or not level):
                level, found = self._turn(ready)
                if found is not None:
                    return found
                ready, spare, best, stale = [], [], None, 0
                continue
            if not level:
                level, spare = self._best(spare)
                continue
            candidates = []  # (estimate, order of generation, parent, move); ties go to the earlier generated
            for node in level:
                self._restore(node.snapshot)
                moves = game.legal_moves()
                if game.status(moves).outcome != "playing":
                    continue
                safe = self.dfs.shape.safe.pick(game, moves) if self.dfs.shape.safe is not None else None
                plays = [safe] if safe is not None else [m for m in sorted(moves) if m >= self.card_move_floor]
                if safe is None and len(plays) < len(moves):
                    ready.append((node.estimate, self._next(), node))
                for m in plays:
                    found = self._child(node, m, candidates)
                    if found is not None:
                        return found
            level, dropped = self._best(candidates)
            if level and (best is None or level[0].estimate > best):
                best, stale = level[0].estimate, 0
            else:
                stale += 1
            if len(ready) > 2 * self.width:
                ready = _top(ready, self.width)
            spare = _top(spare + dropped, self.spare * self.width)
        return None

    def _next(self) -> int:
        self.order += 1
        return self.order

    def _turn(self, ready: list[tuple]) -> tuple[list[_Node], _Node | None]:
        """The first level of the next stage: every stock move from the best positions the stock may be turned from."""
        game = self.game
        candidates: list[tuple] = []
        for _, _, node in _top(ready, self.width):
            self._restore(node.snapshot)
            for m in sorted(game.legal_moves()):
                if m < self.card_move_floor:
                    found = self._child(node, m, candidates)
                    if found is not None:
                        return [], found
        return self._best(candidates)[0], None

    def _child(self, node: _Node, m: int, candidates: list) -> _Node | None:
        """Make move m from the (restored) position of node: the won position, or None after noting a new position."""
        game = self.game
        game._step(m)
        try:
            if game.rules.win(game.ctx):
                return _Node(None, node, m, 0)
            key = self.dfs._key()
            if key not in self.seen:
                self._count()
                self.seen.add(key)
                candidates.append((self.estimate(), self._next(), node, m))
            return None
        finally:
            game.take_back_step()

    def _best(self, candidates: list[tuple]) -> tuple[list[_Node], list[tuple]]:
        """The `width` best candidates, made into positions kept in the beam, and the candidates left over."""
        game = self.game
        candidates.sort(key=_rank)
        level = []
        for estimate, _, parent, m in candidates[:self.width]:
            self._restore(parent.snapshot)
            game._step(m)
            level.append(_Node(self._snapshot(), parent, m, estimate))
        return level, candidates[self.width:]

    def _count(self) -> None:
        self.states += 1
        if self.states > self.options.states:
            raise _Stop("states")
        if len(self.seen) >= self.options.memory:
            raise _Stop("memory")
        if self.deadline is not None and not self.states % 256 and time.monotonic() > self.deadline:
            raise _Stop("seconds")

    # -- positions kept outside the game ----------------------------------------------------
    def _snapshot(self) -> tuple:
        st = self.game.state
        return (tuple(map(tuple, st.piles)), tuple(st.down), tuple(st.sizes.items()), tuple(st.redeals.items()),
                tuple(self.game.redeal_positions))

    def _restore(self, snapshot: tuple) -> None:
        """Put the game in a kept position; the piles are refilled in place, since the game's indexes name them."""
        game, st = self.game, self.game.state
        piles, down, sizes, redeals, redeal_positions = snapshot
        for p, cards in enumerate(piles):
            st.piles[p][:] = cards
        st.down[:] = down
        st.sizes.update(sizes)
        st.redeals.update(redeals)
        game.redeal_positions[:] = redeal_positions
        game.history.clear()
        game._reindex()

    def _written(self, line: list[int]) -> tuple[str, ...]:
        """The moves as the player types them, each described in the position it is made in."""
        out = []
        for m in line:
            out.append(describe(self.game, m, exact=True))
            self.game._step(m)
        return tuple(out)


class _Estimate:
    """How far a position looks from a win, read off the ruleset alone (no game is named); higher is nearer.

    - the ruleset's score (for a patience, the cards gone home or discarded);
    - cards face down outside the stocks, counted against: each must be turned up to be played;
    - cards lying on a card they are in sequence with, in the piles a card may leave: such a card
      moves with the run below it, while a card out of sequence must be moved off first. The run is
      the group's `sequence` rule when it has one, else its `build` rule;
    - empty piles a card may leave (spaces): in most patiences the most useful thing there is; a space in a group
      whose build rule lets nothing on (a cell) holds one card, not a run, and may be weighed apart (`cell`);
    - optionally, cards lying on a card the build rule accepts and cards left in the stocks.
    A pile's part depends only on its cards, so it is remembered by them.
    """

    def __init__(self, game: Game, shape, weights: Weights):
        self.game, self.weights = game, weights
        rules = game.rules
        stocks = set(game.stock_piles)
        self.stocks = sorted(stocks)
        self.has_score = rules.score is not None
        # Per pile that counts: (pile, sequence table, build table, stride, what its space is worth).
        self.piles = []
        cell = weights.space if weights.cell is None else weights.cell
        for gi, g in enumerate(game.group_list):
            for p in g.piles:
                if p in stocks or p in shape.home:
                    continue
                seq, build = _runs(g, game.take_max[gi])
                space = 0 if seq is None or g.empty.never else cell if g.build.never else weights.space
                self.piles.append((p, seq, build, g.sequence.stride, space))
        self.roots = _roots(rules, shape.home_groups | set(rules.stock_groups))
        self.cache: dict = {}
        self.home = sorted(shape.home)
        self.outside = [p for p in range(game.P) if p not in stocks and p not in shape.home]
        self.every_kind = tuple(range(max(game.kind[: rules.deck.size], default=-1) + 1))

    def __call__(self) -> int:
        game, w = self.game, self.weights
        st = game.state
        piles, down = st.piles, st.down
        value = w.score * game.score() if self.has_score else 0
        cache = self.cache
        if len(cache) > MAX_PILE_CACHE:
            cache.clear()
        for p, seq, build, stride, space in self.piles:
            pile = piles[p]
            key = (p, down[p], *pile)
            part = cache.get(key)
            if part is None:
                part = cache[key] = self._pile(pile, down[p], seq, build, stride, space)
            value += part
        if w.stock:
            value -= w.stock * sum(len(piles[s]) for s in self.stocks)
        if w.next:
            value -= w.next * self._above_next()
        return value

    def _above_next(self) -> int:
        """The cards lying above the cards home could take next: per kind some home pile's build (or `empty`) table
        lets on it now, the fewest cards above one card of that kind, in the piles that are neither home nor a stock."""
        game = self.game
        piles, kind = game.state.piles, game.kind
        need: set = set()
        for h in self.home:
            pile = piles[h]
            if pile:
                need.update(game.accepts_by_kind[h][kind[pile[-1]]])
            else:
                need.update(game.space_kinds_of[h] or self.every_kind)
        if not need:
            return 0
        fewest: dict = {}
        for p in self.outside:
            pile = piles[p]
            above = len(pile)
            for c in pile:
                above -= 1
                k = kind[c]
                if k in need and above < fewest.get(k, above + 1):
                    fewest[k] = above
        return sum(fewest.values())

    def _pile(self, pile: list[int], down: int, seq, build, stride: int, space: int) -> int:
        w = self.weights
        if not pile:
            return space
        value = -w.hidden * down
        if down:
            value -= w.cover * (len(pile) - down)
        elif seq is not None and self.roots[pile[0]]:
            i = 1
            while i < len(pile) and seq[pile[i] * stride + pile[i - 1]]:
                i += 1
            value += w.rooted * i
        if seq is not None:
            for i in range(max(down, 0) + 1, len(pile)):
                pair = pile[i] * stride + pile[i - 1]
                if seq[pair]:
                    value += w.sequence
                else:
                    value -= w.buried * (len(pile) - i)
                    if build is not None and build[pair]:
                        value += w.build
        return value


def _runs(group, take_max: int) -> tuple[bytes | None, bytes | None]:
    """The pair tables (card on top) of the pairs that move together in a pile of the group, and of those the build
    rule allows besides; (None, None) where cards never leave, or where no table says which cards go together."""
    if take_max <= 0:
        return None, None
    seq, build = group.sequence, group.build
    if not seq.always:
        return seq.pair_table, None if build.never else build.pair_table
    if take_max == 1:
        # One card at a time: a card keeps the one under it buried unless the build rule would put it back there
        # (a waste, which takes no card, buries every card under its top).
        return (bytes(seq.stride * seq.stride), None) if build.never else (build.pair_table, None)
    return None, None


def _roots(rules, apart) -> bytes:
    """Per card, 1 when no build rule outside the groups `apart` lets it on any card: at the bottom of a pile, it
    need never move again. All 0 when some build rule reads the position (then nothing is known to stay)."""
    deck = rules.deck
    lands = bytearray(deck.size + 1)
    for name, g in rules.groups.items():
        if name in apart or g.build.never:
            continue
        table = g.build.pair_table
        if table is None:
            return bytes(deck.size + 1)
        stride = g.build.stride
        for c in range(deck.size):
            if not lands[c] and any(table[c * stride + t] for t in range(deck.size)):
                lands[c] = 1
    return bytes(0 if lands[c] or c == deck.size else 1 for c in range(deck.size + 1))
