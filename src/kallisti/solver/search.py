"""A look-ahead strategy: searches the lines of moves whose outcome the player can see, within a node budget."""

from __future__ import annotations

from collections import Counter
from functools import partial

from kallisti.interpreter.game import Game
from kallisti.interpreter.rng import STREAM_STRATEGY, Rng
from kallisti.interpreter.ruleset_keys import rules_play_key
from kallisti.solver.measure import move_score
from kallisti.solver.score_bounds import score_bounds

DEFAULT_BUDGET = 200  # positions one decision may search or value; a Discordian chain nearly always fits
SHUFFLE_SAMPLES = 8  # shuffled deals whose mean score a shuffling choice compares the kept order with
SHUFFLE_SEED = 0x5AFF1E  # those deals' own seed: never a match's
MAX_SHUFFLED_TOTALS = 1024  # rulesets whose shuffled deals' scores are kept (a few numbers each): forgotten past this
TURN_CAP = 2000  # moves a simulated deal may take before it is scored as it stands

WIN_BONUS = 1000.0  # a won position outranks any score a line can reach otherwise
# What a line's end promises beyond its score, in units of the score (see `_LineSearch.leaf`).
DEAL_CHANCE_WEIGHT = 2.0  # the chance that the next card dealt from the stock can be played on, or played
CARRY_WEIGHT = 1.0  # per face-up card the next card dealt would carry off in a row, on average
CHAIN_STEPS = 60  # steps of the search for that run, per kind of card dealt
MAX_RUNS_KEPT = 50_000  # positions' runs a strategy keeps for one game (a few hundred bytes each): forgotten past this
REVEAL_BONUS = 0.5  # a face-down card turned up: a new card to play, unknown until it is seen
_NOTHING = float("-inf")  # the value of a line that goes round in a circle (made once: a search marks every position)
_hash = hash  # what `_LineSearch.value` files positions by (a test makes every key collide)


class SearchStrategy:
    """Plays the first move of the best line of visible moves, for any ruleset.

    A line is a run of card moves from the current position. It ends where what follows cannot be
    known: a move that turns up a face-down card, a deal or redeal from a stock, or the end of the
    game; the search never looks at a face-down card or at the order of a stock. `minimize` says
    which way the ruleset's score is good: a match adds each turn's score to a total that loses
    when high, so a match bot minimises it; a patience maximises it.

    A position whose lines were all searched to their ends within the budget has a value of its own,
    which later decisions take as it is until a new card is seen (`settle`), instead of spending their
    budget on it again: the search goes further for the same budget, and a turn costs a fraction of the
    positions it did.
    """

    name = "search"

    def __init__(self, seed: int, minimize: bool = False, budget: int = DEFAULT_BUDGET, settle: bool = True):
        if budget < 1:
            raise ValueError("the search budget must be at least one position")
        self.rng = Rng(seed, 0, STREAM_STRATEGY)
        self.minimize = minimize
        self.budget = budget
        # Whether a decision takes the values earlier ones settled (`_LineSearch.settled`) instead of searching them
        # again: the budget then goes further. False searches every decision afresh.
        self.settle = settle
        self.game = None
        self.been: set[tuple] = set()  # positions this game has already been in
        self.accepts = None  # the game's table of what each pile takes, for which `runs` and `promised` were found
        self.runs: dict[tuple, dict] = {}  # longest runs of face-up tops, found for this game (see `_carries`)
        # (the unseen cards, the promises worked out while they were unseen, the values settled meanwhile, the unseen
        # kinds grouped by rule, the hashes of the settled positions' keys)
        self.promised: tuple = (None, {}, {}, {}, set())
        self.shape = None  # what the search reads of the game's rules and piles, once per game and rules (`_Shape`)

    def choose(self, game, moves: list[int]) -> int:
        if game is not self.game:
            self.game, self.been = game, set()
        if game.accepts_on_top is not self.accepts or len(self.runs) > MAX_RUNS_KEPT:
            # a new game, or rules changed in play (`Game.change_rules`, which remakes the tables): what was worked
            # out for the rules before is forgotten, and so is all of it past the bound
            self.accepts, self.runs, self.promised = game.accepts_on_top, {}, (None, {}, {}, {}, set())
        if self.shape is None or self.shape.game is not game or self.shape.accepts is not game.accepts_on_top:
            self.shape = _Shape(game)
        self.been.add(game.state.key())
        if len(moves) == 1:
            return moves[0]
        search = _LineSearch(game, -1 if self.minimize else 1, self.been, self.runs, self.shape)
        # What a line's end promises depends on the cards not yet seen, which change only when one is shown: the
        # decisions between two such moments share what they worked out, and the values they settled.
        if self.promised[0] == search.unseen and len(self.promised[1]) + len(self.promised[2]) <= MAX_RUNS_KEPT:
            search.promises, search.unseen_by_rules = self.promised[1], self.promised[3]
            if self.settle:
                search.settled, search.settled_hashes = self.promised[2], self.promised[4]
        else:
            self.promised = (search.unseen, search.promises, search.settled, search.unseen_by_rules,
                             search.settled_hashes)
        values = {}
        ordered = search.ordered(moves)
        for i, m in enumerate(ordered):
            # Each first move gets an equal share of what is left of the budget, so none goes unsearched.
            search.limit = search.nodes + max(1, (self.budget - search.nodes) // (len(ordered) - i))
            values[m] = search.value_of(m)
        best = max(values.values())
        ties = [m for m in moves if values[m] >= best - 1e-9]
        return ties[0] if len(ties) == 1 else ties[self.rng.below(len(ties))]


class _Shape:
    """What a search reads of one game under one set of rules, the same at every decision: which moves move cards,
    the piles cards leave and where each stock deals, the pack by kind, and the runs' rules by number."""

    def __init__(self, game):
        self.game = game
        self.accepts = accepts = game.accepts_on_top
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
        self.one_stock = self.stocks[0] if len(self.stocks) == 1 else None  # the usual case, read without a loop
        kind = game.kind
        self.size = game.deck.size
        self.pack = Counter(kind[c] for c in range(game.deck.size))
        # Where every card is its own kind (one pack, no twins), a run of cards is its run of kinds.
        self.cards_are_kinds = all(kind[c] == c for c in range(game.deck.size))
        # Per target pile and kind on top: the number of the rule a run onto it follows (what that kind takes; kinds
        # that take the same cards share it), and per rule what it takes, as a set. Read by `_carries`.
        targets = sorted({t for _, ts in self.stocks for t in ts})
        numbers: dict[tuple, int] = {}
        kinds = max(self.pack, default=-1) + 1  # the kinds a card of the pack may be
        self.rule_of: dict[int, list[int]] = {}
        for t in targets:
            takes = accepts[t]
            self.rule_of[t] = [numbers.setdefault((t, takes.get(k, ())), len(numbers)) for k in range(kinds)]
        self.first_of: list[frozenset] = [frozenset(first) for _, first in numbers]
        self.onto: dict[int, dict] = {t: {k: frozenset(v) for k, v in accepts[t].items()} for t in targets}

    def targets(self, piles: list[list[int]]) -> tuple:
        """The piles the next card dealt lands on: the targets of each stock that has cards."""
        if self.one_stock is not None:
            stock, targets = self.one_stock
            return targets if piles[stock] else ()
        return tuple(t for s, ts in self.stocks if piles[s] for t in ts)


class _LineSearch:
    """One decision's search: values positions by the best line from them, memoised by state key."""

    def __init__(self, game, sign: int, been: set, runs: dict | None = None, shape: _Shape | None = None):
        self.game = game
        self.sign = sign
        self.been = been
        # face-up runs -> {rule number (`_Shape.rule_of`): the longest run}: a function of the game's rules and the
        # runs alone, so it is shared by the decisions of one game under the same rules (SearchStrategy.choose)
        self.runs = {} if runs is None else runs
        self.nodes = 0  # positions searched or valued so far
        self.limit = 0  # the count of positions at which the search stops looking further
        # Per position valued by this decision, by the hash of its key: [its key, its value] (the value a circle's
        # until its lines are searched). A position whose key shares the hash of another's is filed in `collided`.
        self.memo: dict[int, list] = {}
        self.collided: dict[tuple, list] = {}
        self.promises: dict[tuple, tuple[float, float]] = {}
        # Positions whose every line was searched to its end, no budget spent and no loop met on the way: their value
        # is theirs alone, whatever the budget and the line that reaches them, so it holds for every later decision
        # while the unseen cards are the same (SearchStrategy.choose shares it). `unsettled` counts the values given
        # that were not: cut short by the budget, or a loop's.
        self.settled: dict[tuple, float] = {}
        self.settled_hashes: set[int] = set()  # the hashes of settled's keys: most positions are not there, and an int
        # tells that for less than the key does
        self.unsettled = 0
        self.shape = shape = _Shape(game) if shape is None else shape
        self.card_move_floor = shape.card_move_floor
        self.sources = shape.sources
        self.stocks = shape.stocks
        self.playable_targets = shape.playable_targets
        # The cards not yet seen, by kind: the pack less every face-up card. Within one search this
        # stays fixed, since a move that would show a new card ends its line before it is looked at.
        st, kind_of = game.state, game.kind.__getitem__
        all_in_piles = sum(map(len, st.piles)) == shape.size
        if all_in_piles and shape.cards_are_kinds:
            # Every card of the pack lies in a pile, and is a kind of its own: the unseen are the face-down cards, one
            # of each, in order (as the count below would find them, without counting).
            down_cards = []
            for pile, down in zip(st.piles, st.down):
                if down:
                    down_cards += pile[:down]
            down_cards.sort()
            self.unseen = [(c, 1) for c in down_cards]
        elif all_in_piles:
            # Every card of the pack lies in a pile: the unseen are the face-down ones, fewer to count.
            hidden = Counter()
            for pile, down in zip(st.piles, st.down):
                if down:
                    hidden.update(map(kind_of, pile[:down]))
            self.unseen = sorted(hidden.items())
        else:
            seen = Counter()
            for pile, down in zip(st.piles, st.down):
                if len(pile) > down:
                    seen.update(map(kind_of, pile[down:]))
            self.unseen = [(k, n - seen[k]) for k, n in sorted(shape.pack.items()) if n > seen[k]]
        self.unseen_total = sum(n for _, n in self.unseen)
        # The unseen kinds grouped by the rules a run onto each target follows, per tuple of targets (see `_carries`);
        # shared by the decisions that share the promises.
        self.unseen_by_rules: dict[tuple, list] = {}

    # -- lines --------------------------------------------------------------------------------
    def value_of(self, m: int) -> float:
        """The value of the best line that starts with move m."""
        game = self.game
        if m < self.card_move_floor:
            return self.leaf()  # the line stops before the deal: what the stock gives is unknown
        parts = game._card_moves.get(m) if m < game.discard_base else None  # filled by `move_score` (`ordered`)
        if parts is None:
            _, src, _, n = game.decode(m)
        else:
            n, src = parts[0], parts[1]
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
        # The key is hashed once: a search asks about every position it values several times, and a key is some sixty
        # numbers to hash each time; the hash is what this decision's marks and the settled positions are filed by.
        h = _hash(key)
        cell = self.memo.get(h)
        if cell is not None and cell[0] != key:
            cell = self.collided.get(key)  # another position's key has the same hash
        if cell is not None:
            if key not in self.settled:
                self.unsettled += 1  # a line gone round in a circle, or a value the budget cut short
            return cell[1]
        if key in self.been:
            self.unsettled += 1
            return _NOTHING  # back where the game already was: a loop gains nothing
        if h in self.settled_hashes:
            known = self.settled.get(key)
            if known is not None:
                return known  # searched to the end by an earlier decision: no budget spent on it again
        moves = game.legal_moves()
        status = game.status(moves)
        if status.outcome != "playing":
            return self.sign * game.score() + (WIN_BONUS if status.outcome == "won" else 0.0)
        if self.nodes >= self.limit:
            self.unsettled += 1
            return self.sign * game.score()  # no budget left to look further: the score as it stands
        self.nodes += 1
        unsettled = self.unsettled
        cell = [key, _NOTHING]  # a line that comes back here has gone round in a circle
        if self.memo.setdefault(h, cell) is not cell:
            self.collided[key] = cell
        if len(moves) == 1 and moves[0] < self.card_move_floor:
            value = self.leaf()  # only a deal: the line ends with it (what the stock gives is unknown)
        else:
            value = _NOTHING
            value_of = self.value_of
            for m in self.ordered(moves) if len(moves) > 1 else moves:
                v = value_of(m)
                if v > value:
                    value = v
        cell[1] = value
        if self.unsettled == unsettled:
            self.settled[key] = value
            self.settled_hashes.add(h)
        return value

    def ordered(self, moves: list[int]) -> list[int]:
        """The likeliest moves first (by the greedy measure), so a search cut short has tried them."""
        if len(moves) < 2:
            return moves  # nothing to order: most positions of a line have one move (a compulsory play, or a deal)
        # (highest score first; a reversed sort keeps equal moves in their order, as sorting by the negated score did)
        return sorted(moves, key=partial(move_score, self.game), reverse=True)

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
            self.unsettled += 1
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
        targets = self.shape.targets(game.state.piles)
        if not targets or not self.unseen_total:
            return (0.0, 0.0)
        piles, down = game.state.piles, game.state.down
        # (a pile with no face-down card is read whole, not sliced: most piles a line's end reads are such)
        if self.shape.cards_are_kinds:
            runs = tuple([tuple(piles[p][down[p]:]) if down[p] else tuple(piles[p])
                          for p in self.sources if p != hidden and len(piles[p]) > down[p]])
        else:
            kind_of = game.kind.__getitem__
            runs = tuple([tuple(map(kind_of, piles[p][down[p]:] if down[p] else piles[p]))
                          for p in self.sources if p != hidden and len(piles[p]) > down[p]])
        known = self.promises.get((targets, runs))
        if known is None:
            known = self.promises[(targets, runs)] = self._carries(targets, runs)
        hits, carried, idle = known
        if idle and self.playable_targets.intersection(targets):
            # A dealt card on a pile it may leave can itself be played if some pile takes its kind now.
            hits += sum(n for k, n in idle if game.dests[k])
        return (hits / self.unseen_total, carried / self.unseen_total)

    def _grouped(self, targets: tuple) -> list:
        """The unseen kinds as groups that follow the same rule onto each of `targets`: (rule numbers, the cards
        of the group, its (kind, count) pairs); made once per tuple of targets while the unseen cards are the same."""
        groups = self.unseen_by_rules.get(targets)
        if groups is None:
            rule_of = self.shape.rule_of
            by_rules: dict[tuple, list] = {}
            for k, n in self.unseen:
                by_rules.setdefault(tuple(rule_of[t][k] for t in targets), []).append((k, n))
            groups = self.unseen_by_rules[targets] = [(rules, sum(n for _, n in kinds), kinds)
                                                      for rules, kinds in by_rules.items()]
        return groups

    def _carries(self, targets: tuple, runs: tuple) -> tuple[int, int, list]:
        """For the unseen cards dealt onto a target: how many start a run of face-up tops, the cards
        those runs carry off in all (each the longest it could be), and the kinds that start none."""
        # Kinds that take the same cards carry off the same run, in every position with these runs.
        found = self.runs.get(runs)
        if found is None:
            found = self.runs[runs] = {}
        shape = self.shape
        tops = {run[-1] for run in runs}
        stacks = None  # the runs as piles to take cards from, made when a run must be searched
        finders: dict[int, object] = {}  # per target, the runs' search (`_run_finder`), made when first needed
        hits = carried = 0
        idle = []
        for rules, n, kinds in self._grouped(targets):
            best = 0
            for t, rule in zip(targets, rules):
                length = found.get(rule)
                if length is None:
                    if tops.isdisjoint(shape.first_of[rule]):
                        length = 0  # no top goes on it: the search would stop at its first step
                    else:
                        finder = finders.get(t)
                        if finder is None:
                            if stacks is None:
                                stacks = [list(run) for run in runs]
                            finder = finders[t] = _run_finder(shape.onto[t], stacks)
                        length = finder(kinds[0][0])
                    found[rule] = length
                if length > best:
                    best = length
            if best:
                hits += n
                carried += n * best
            else:
                idle += kinds
        return hits, carried, idle


def _longest_run(takes: dict, top: int, stacks: list[list[int]]) -> int:
    """The longest run of face-up tops (the last card of each stack) that can go one on another onto a pile topped by
    kind `top`, searched depth first within CHAIN_STEPS steps (one per card tried), the stacks in order (they are left
    as they were)."""
    return _run_finder(takes, stacks)(top)


def _run_finder(takes: dict, stacks: list[list[int]]):
    """`_longest_run` on these stacks as a function of `top`, for the calls on the same stacks and `takes`: they share
    what the search found beneath each stack's top taken first. The kinds that go on a top often share the cards that
    go on both (in Discordian, the ranks either side of the top's), so the search beneath those is made once. The
    answers are those of the plain search, steps and all: the search beneath a first card depends only on the stacks
    and on the steps it may take, so one that finished, taking n steps, ends the same with any n or more, and one that
    ran out, taking all it had, ends the same only with exactly as many."""
    steps = 0  # the steps the present search may still take
    ran_out = False  # whether the steps ran out with a card still to try, since the last first card was taken
    below: dict[int, tuple] = {}  # stack -> (the run from its top, the steps it took or had, whether they ran out)

    def longest(top: int) -> int:
        nonlocal steps, ran_out
        best = 0
        onto = takes.get(top)
        if onto:
            for stack in stacks:
                if stack and stack[-1] in onto:
                    if steps <= 0:
                        ran_out = True  # the steps never come back: no card after this one is tried either
                        break
                    steps -= 1
                    k = stack.pop()
                    length = 1 + longest(k)
                    stack.append(k)
                    if length > best:
                        best = length
        return best

    def longest_from(top: int) -> int:
        nonlocal steps, ran_out
        onto = takes.get(top)
        if not onto:
            return 0
        steps = CHAIN_STEPS - 1  # the first step is the top's own
        best = 0
        for j, stack in enumerate(stacks):
            if stack and stack[-1] in onto:
                if steps <= 0:
                    break
                found = below.get(j)
                if found is not None and (found[1] == steps if found[2] else found[1] <= steps):
                    length = found[0]
                    steps -= found[1]  # (all of them where they ran out)
                else:
                    left, ran_out = steps, False
                    steps -= 1
                    k = stack.pop()
                    length = 1 + longest(k)
                    stack.append(k)
                    if not ran_out:
                        below[j] = (length, left - steps, False)
                    elif found is None:
                        below[j] = (length, left, True)
                if length > best:
                    best = length
        return best

    return longest_from


def play_turn(rules, strategy, seed: int | None = None, order: list[int] | None = None, cap: int = TURN_CAP,
              line: list | None = None) -> int:
    """Play one deal (from `order`, else shuffled from `seed`) to its end with `strategy`; returns its score. `line`,
    when given, gets each position's key and the move played there, in order."""
    game = Game(rules, seed=seed, order=order)
    full_steps = any(p.trigger == "each-move" for p in rules.auto)
    for _ in range(cap):
        moves = game.legal_moves()
        if game.status(moves).outcome != "playing":
            break
        m = strategy.choose(game, moves)
        if line is not None:
            line.append((game.state.key(), m))
        if full_steps:
            game.play(m)
        else:
            game.apply(m)
    return game.score()


def choose_shuffle(rules, pack_order: list[int], seed: int, minimize: bool = True,
                   samples: int = SHUFFLE_SAMPLES, budget: int = DEFAULT_BUDGET, line: list | None = None) -> bool:
    """Whether to shuffle before a deal: True unless dealing the pack as it lies promises a better score.

    Only `deck.shuffle: optional` leaves a choice (`always` shuffles, `never` keeps). The pack as it
    lies is how the cards were gathered, so the bot may play that deal out in its head; it compares its
    score there with its mean score on a shuffled pack (`shuffled_total`). `minimize` as for SearchStrategy
    (a match's turn score: lower is better). Where the kept deal's score alone settles it, whatever a
    shuffled deal could score (within the ruleset's `score_bounds`), no shuffled deal is played. `line`, when given,
    gets the line the kept pack was played by in the bot's head (`play_turn`), which a bot that keeps it plays.
    """
    if rules.shuffle != "optional":
        return rules.shuffle == "always"
    kept = play_turn(rules, SearchStrategy(seed, minimize, budget), order=pack_order, line=line)
    bounds = score_bounds(rules)
    if bounds is not None:
        decided = _decided(kept * samples, 0, samples, bounds, minimize)
        if decided is not None:
            return not decided
    total = shuffled_total(rules, minimize, samples, budget)
    keep_is_better = kept * samples < total if minimize else kept * samples > total
    return not keep_is_better


# The total score of `shuffled_total`'s deals, by (the rules' play key, minimize, samples, budget).
_shuffled_totals: dict[tuple, int] = {}


def shuffled_total(rules, minimize: bool = True, samples: int = SHUFFLE_SAMPLES, budget: int = DEFAULT_BUDGET) -> int:
    """The total score of the search strategy over `samples` shuffled packs of the rules' deck, each drawn from a
    stream of its own (SHUFFLE_SEED), played once per ruleset and kept (by its play key, which rulesets that play
    every deal alike share: `amend.rules_play_key`).

    A shuffled pack is a uniformly shuffled deck whatever order the cards were gathered in, so what shuffling
    promises is a property of the rules alone, not of the pack a choice is made about: measured once on the same
    deals, it is the same measure for every choice under those rules, and each choice plays one deal (the pack as
    it lies), not one and the samples.
    """
    key = (rules_play_key(rules), minimize, samples, budget)
    total = _shuffled_totals.get(key)
    if total is None:
        total = 0
        for n in range(1, samples + 1):
            order = list(range(rules.deck.size))
            Rng(SHUFFLE_SEED, n, STREAM_STRATEGY).shuffle(order)
            total += play_turn(rules, SearchStrategy(SHUFFLE_SEED + n, minimize, budget), order=order)
        if len(_shuffled_totals) >= MAX_SHUFFLED_TOTALS:
            _shuffled_totals.clear()
        _shuffled_totals[key] = total
    return total


def _decided(kept_times_samples: int, total: int, left: int, bounds: tuple[int, int], minimize: bool) -> bool | None:
    """Whether keeping the pack is better (kept below the shuffles' mean when minimising, above it when maximising),
    when the `left` shuffles still to play cannot change it, each scoring within `bounds`; None while they can."""
    least, most = total + bounds[0] * left, total + bounds[1] * left  # the shuffles' total, at the least and most
    if minimize:
        if kept_times_samples < least:
            return True
        if kept_times_samples >= most:
            return False
    else:
        if kept_times_samples > most:
            return True
        if kept_times_samples <= least:
            return False
    return None
