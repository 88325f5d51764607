"""A look-ahead strategy: searches the lines of moves whose outcome the player can see, within a node budget."""

from __future__ import annotations

from collections import Counter

from kallisti.interpreter.game import Game
from kallisti.interpreter.rng import STREAM_STRATEGY, Rng
from kallisti.solver.measure import move_score

DEFAULT_BUDGET = 200  # positions one decision may search or value; a Discordian chain nearly always fits
SHUFFLE_SAMPLES = 4  # shuffled deals a shuffle decision compares the kept order with
TURN_CAP = 2000  # moves a simulated deal may take before it is scored as it stands

WIN_BONUS = 1000.0  # a won position outranks any score a line can reach otherwise
# What a line's end promises beyond its score, in units of the score (see `_LineSearch.leaf`).
DEAL_CHANCE_WEIGHT = 2.0  # the chance that the next card dealt from the stock can be played on, or played
CARRY_WEIGHT = 1.0  # per face-up card the next card dealt would carry off in a row, on average
CHAIN_STEPS = 60  # steps of the search for that run, per kind of card dealt
MAX_RUNS_KEPT = 50_000  # positions' runs a strategy keeps for one game (a few hundred bytes each): forgotten past this
REVEAL_BONUS = 0.5  # a face-down card turned up: a new card to play, unknown until it is seen


class SearchStrategy:
    """Plays the first move of the best line of visible moves, for any ruleset.

    A line is a run of card moves from the current position. It ends where what follows cannot be
    known: a move that turns up a face-down card, a deal or redeal from a stock, or the end of the
    game; the search never looks at a face-down card or at the order of a stock. `minimize` says
    which way the ruleset's score is good: a match adds each turn's score to a total that loses
    when high, so a match bot minimises it; a patience maximises it.
    """

    name = "search"

    def __init__(self, seed: int, minimize: bool = False, budget: int = DEFAULT_BUDGET):
        if budget < 1:
            raise ValueError("the search budget must be at least one position")
        self.rng = Rng(seed, 0, STREAM_STRATEGY)
        self.minimize = minimize
        self.budget = budget
        self.game = None
        self.been: set[tuple] = set()  # positions this game has already been in
        self.accepts = None  # the game's table of what each pile takes, for which `runs` and `promised` were found
        self.runs: dict[tuple, dict] = {}  # longest runs of face-up tops, found for this game (see `_carries`)
        self.promised: tuple = (None, {})  # (the unseen cards, the promises worked out while they were unseen)

    def choose(self, game, moves: list[int]) -> int:
        if game is not self.game:
            self.game, self.been = game, set()
        if game.accepts_on_top is not self.accepts or len(self.runs) > MAX_RUNS_KEPT:
            # a new game, or rules changed in play (`Game.change_rules`, which remakes the tables): what was worked
            # out for the rules before is forgotten, and so is all of it past the bound
            self.accepts, self.runs, self.promised = game.accepts_on_top, {}, (None, {})
        self.been.add(game.state.key())
        if len(moves) == 1:
            return moves[0]
        search = _LineSearch(game, -1 if self.minimize else 1, self.been, self.runs)
        # What a line's end promises depends on the cards not yet seen, which change only when one is shown: the
        # decisions between two such moments share what they worked out.
        if self.promised[0] == search.unseen and len(self.promised[1]) <= MAX_RUNS_KEPT:
            search.promises = self.promised[1]
        else:
            self.promised = (search.unseen, search.promises)
        values = {}
        ordered = search.ordered(moves)
        for i, m in enumerate(ordered):
            # Each first move gets an equal share of what is left of the budget, so none goes unsearched.
            search.limit = search.nodes + max(1, (self.budget - search.nodes) // (len(ordered) - i))
            values[m] = search.value_of(m)
        best = max(values.values())
        ties = [m for m in moves if values[m] >= best - 1e-9]
        return ties[0] if len(ties) == 1 else ties[self.rng.below(len(ties))]


class _LineSearch:
    """One decision's search: values positions by the best line from them, memoised by state key."""

    def __init__(self, game, sign: int, been: set, runs: dict | None = None):
        self.game = game
        self.sign = sign
        self.been = been
        # face-up runs -> {(target, what its top kind takes): the longest run}: a function of the game's rules and the
        # runs alone, so it is shared by the decisions of one game under the same rules (SearchStrategy.choose)
        self.runs = {} if runs is None else runs
        self.nodes = 0  # positions searched or valued so far
        self.limit = 0  # the count of positions at which the search stops looking further
        self.memo: dict[tuple, float] = {}
        self.promises: dict[tuple, tuple[float, float]] = {}
        P = game.P
        self.card_move_floor = P * P  # moves at or above it move cards; below it they deal or redeal
        # Piles a card may leave: their face-up cards are what the player has to play.
        self.sources = [p for p in range(P) if game.take_max[game.gindex[p]] > 0]
        # Where each stock deals: the next card lands on the first pile of the target group, which
        # stands for all of them when a deal gives each a card (they share the group's rules).
        self.stocks = []
        for s in game.stock_piles:
            turn = game.group_list[game.gindex[s]].turn
            if turn is not None:
                self.stocks.append((s, (game.rules.groups[turn["to"]].piles[0],)))
        self.playable_targets = {t for _, targets in self.stocks for t in targets if t in self.sources}
        # The cards not yet seen, by kind: the pack less every face-up card. Within one search this
        # stays fixed, since a move that would show a new card ends its line before it is looked at.
        st = game.state
        seen = Counter(game.kind[c] for p in range(P) for c in st.piles[p][st.down[p]:])
        pack = Counter(game.kind[c] for c in range(game.deck.size))
        self.unseen = [(k, n - seen[k]) for k, n in sorted(pack.items()) if n > seen[k]]
        self.unseen_total = sum(n for _, n in self.unseen)

    # -- lines --------------------------------------------------------------------------------
    def value_of(self, m: int) -> float:
        """The value of the best line that starts with move m."""
        game = self.game
        if m < self.card_move_floor:
            return self.leaf()  # the line stops before the deal: what the stock gives is unknown
        _, src, _, n = game.decode(m)
        reveals = self._reveals(src, n)
        rec = game.apply(m)
        try:
            return self.leaf(hidden=src) if reveals else self.value()
        finally:
            game.undo_record(rec)

    def _reveals(self, src: int, n: int) -> bool:
        """Whether taking n cards from pile src would show a card not seen before."""
        game = self.game
        left = len(game.state.piles[src]) - n
        down = game.state.down[src]
        if down and down >= left:
            return True  # the card beneath is face down (or lies in a hand): it turns up
        return left == 0 and game.refill_of[src] is not None  # an emptied pile is refilled from a stock

    def value(self) -> float:
        """The value of the current position: its best line, or its own worth where lines end."""
        game = self.game
        key = game.state.key()
        known = self.memo.get(key)
        if known is not None:
            return known
        if key in self.been:
            return float("-inf")  # back where the game already was: a loop gains nothing
        moves = game.legal_moves()
        status = game.status(moves)
        if status.outcome != "playing":
            return self.sign * game.score() + (WIN_BONUS if status.outcome == "won" else 0.0)
        if self.nodes >= self.limit:
            return self.sign * game.score()  # no budget left to look further: the score as it stands
        self.nodes += 1
        self.memo[key] = float("-inf")  # a line that comes back here has gone round in a circle
        value = max(self.value_of(m) for m in self.ordered(moves))
        self.memo[key] = value
        return value

    def ordered(self, moves: list[int]) -> list[int]:
        """The likeliest moves first (by the greedy measure), so a search cut short has tried them."""
        game = self.game
        return sorted(moves, key=lambda m: -move_score(game, m))

    # -- where lines end ----------------------------------------------------------------------
    def leaf(self, hidden: int | None = None) -> float:
        """The worth of a position where a line ends: its score in the goal's direction, plus what it promises.

        The promise is counted in units of the score, from what any ruleset shows (no game is named):
        - the chance that the next card a stock deals can be played on, or played;
        - how many face-up cards the next card dealt would carry off in a row, on average: the length
          of the longest run of face-up tops, each going on the one before, that it starts.
          Both are averaged over the unseen cards (the pack less the face-up ones; a stock's order is
          never read), and both reward keeping the face-up tops varied. For Discordian they measure
          how many of the ranks still to come the exposed cards offer the next foundation, and how far
          each would carry the foundation (the weights were chosen on deals other than the tests');
        - a bonus for a face-down card turned up (`hidden`: its pile, whose new top is not looked at).
        Where the budget is spent, only the score counts: a line left unsearched promises nothing.
        """
        game = self.game
        value = self.sign * game.score()
        if self.nodes >= self.limit:
            return value
        self.nodes += 1
        chance, carry = self.promise(hidden)
        value += DEAL_CHANCE_WEIGHT * chance + CARRY_WEIGHT * carry
        if hidden is not None:
            value += REVEAL_BONUS
        return value

    def promise(self, hidden: int | None) -> tuple[float, float]:
        """(chance of a play, mean cards carried off) for the next card dealt, over the unseen cards."""
        game = self.game
        st = game.state
        targets = tuple(t for s, ts in self.stocks if st.piles[s] for t in ts)
        if not targets or not self.unseen_total:
            return (0.0, 0.0)
        piles, down, kind_of = st.piles, st.down, game.kind.__getitem__
        runs = tuple(tuple(map(kind_of, piles[p][down[p]:]))
                     for p in self.sources if p != hidden and len(piles[p]) > down[p])
        known = self.promises.get((targets, runs))
        if known is None:
            known = self.promises[(targets, runs)] = self._carries(targets, runs)
        hits, carried, idle = known
        if idle and self.playable_targets.intersection(targets):
            # A dealt card on a pile it may leave can itself be played if some pile takes its kind now.
            hits += sum(n for k, n in idle if game.dests[k])
        return (hits / self.unseen_total, carried / self.unseen_total)

    def _carries(self, targets: tuple, runs: tuple) -> tuple[int, int, list]:
        """For the unseen cards dealt onto a target: how many start a run of face-up tops, the cards
        those runs carry off in all (each the longest it could be), and the kinds that start none."""
        # Kinds that take the same cards carry off the same run, in every position with these runs.
        found = self.runs.get(runs)
        if found is None:
            found = self.runs[runs] = {}
        accepts = self.game.accepts_on_top
        stacks = None  # the runs as piles to take cards from, made when a run must be searched
        hits = carried = 0
        idle = []
        for k, n in self.unseen:
            best = 0
            for t in targets:
                takes = accepts[t]
                rule = (t, takes.get(k, ()))
                length = found.get(rule)
                if length is None:
                    if stacks is None:
                        stacks = [list(run) for run in runs]
                    length = found[rule] = _longest_run(takes, k, stacks)
                if length > best:
                    best = length
            if best:
                hits += n
                carried += n * best
            else:
                idle.append((k, n))
        return hits, carried, idle


def _longest_run(takes: dict, top: int, stacks: list[list[int]]) -> int:
    """The longest run of face-up tops (the last card of each stack) that can go one on another onto a pile topped by
    kind `top`, searched depth first within CHAIN_STEPS steps, the stacks in order (they are left as they were)."""
    first = takes.get(top, ())
    if not any(stack and stack[-1] in first for stack in stacks):
        return 0  # no top goes on it: the search would stop at its first step
    steps = [CHAIN_STEPS]

    def longest(top: int) -> int:
        steps[0] -= 1
        best = 0
        onto = takes.get(top, ())
        for stack in stacks:
            if stack and stack[-1] in onto and steps[0] > 0:
                k = stack.pop()
                length = 1 + longest(k)
                stack.append(k)
                if length > best:
                    best = length
        return best

    return longest(top)


def play_turn(rules, strategy, seed: int | None = None, order: list[int] | None = None, cap: int = TURN_CAP) -> int:
    """Play one deal (from `order`, else shuffled from `seed`) to its end with `strategy`; returns its score."""
    game = Game(rules, seed=seed, order=order)
    full_steps = any(p.trigger == "each-move" for p in rules.auto)
    for _ in range(cap):
        moves = game.legal_moves()
        if game.status(moves).outcome != "playing":
            break
        m = strategy.choose(game, moves)
        if full_steps:
            game.play(m)
        else:
            game.apply(m)
    return game.score()


def choose_shuffle(rules, pack_order: list[int], seed: int, minimize: bool = True,
                   samples: int = SHUFFLE_SAMPLES, budget: int = DEFAULT_BUDGET) -> bool:
    """Whether to shuffle before a deal: True unless dealing the pack as it lies promises a better score.

    Only `deck.shuffle: optional` leaves a choice (`always` shuffles, `never` keeps). The pack as it
    lies is how the cards were gathered, so the bot may play that deal out in its head; it compares its
    score there with its mean over `samples` shuffles of the same pack, drawn from the strategy's own
    stream. `minimize` as for SearchStrategy (a match's turn score: lower is better).
    """
    if rules.shuffle != "optional":
        return rules.shuffle == "always"
    kept = play_turn(rules, SearchStrategy(seed, minimize, budget), order=pack_order)
    total = 0
    for n in range(1, samples + 1):
        order = list(pack_order)
        Rng(seed, n, STREAM_STRATEGY).shuffle(order)
        total += play_turn(rules, SearchStrategy(seed + n, minimize, budget), order=order)
    mean = total / samples
    keep_is_better = kept < mean if minimize else kept > mean
    return not keep_is_better
