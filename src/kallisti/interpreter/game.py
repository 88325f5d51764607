"""Play one game of a ruleset: legal moves, apply and undo, automatic and compulsory moves, end and score."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress

from kallisti.errors import Finding, KallistiError, Pos, error
from kallisti.interpreter.compiler import (BUILD_SCOPE, DISCARD_SCOPE, EMPTY_SCOPE, PILE_STATE_SCOPE, SEQUENCE_SCOPE, SUM_SLOTS,
                                          TAKE_SCOPE, Ctx, RuleRuntimeError)
from kallisti.interpreter.history import Trail
from kallisti.interpreter.rng import STREAM_REDEAL, Rng
from kallisti.interpreter.state import Dealer, initial_state, recount, shuffled_order

MAX_AUTO_MOVES = 10_000  # automatic moves in a row before the engine stops them (a ruleset cannot loop forever)
NOT_INDEXED = -2  # index key of a pile whose top is face down: it accepts no card
MEMO_LIMIT = 1 << 16  # verdicts a memo of a rule (see `_judges_cards_alone`) holds before it is emptied and refilled
_POSITIONAL = frozenset({"state", "pile", "source", "top"})  # what a rule reads beyond the cards it judges


@dataclass(frozen=True)
class RuleStep:
    """A rule change in a game's history: the rules before and after, so undo and redo can step over it."""

    before: object
    after: object


class LayoutChanged(Exception):
    """New rules whose deck or piles differ from the position on the table: they wait for the next deal."""


@dataclass(frozen=True)
class Status:
    """Where a game stands: `playing`, `won` or `lost`, with the reason."""

    outcome: str
    reason: str = ""


_SCOPES = {"build": BUILD_SCOPE, "empty": EMPTY_SCOPE, "take": TAKE_SCOPE, "sequence": SEQUENCE_SCOPE,
           "discard": DISCARD_SCOPE, "dealing": PILE_STATE_SCOPE}  # the scope each kind of pile rule is compiled in
_DESTINATION = frozenset({"pile", "top"})  # what a build or empty rule reads of the pile the cards would go to


def _places(rules, rule) -> frozenset:
    """What the clauses of `rule` beyond its tables read of the position (`Compiled.places`); its tables read only
    the cards (`card`, and for a pair table `top`)."""
    found: set = set()
    for clause in rule.residual:
        found |= rules.compiler.places(clause.text, clause.pos, _SCOPES[rule.kind])
    return frozenset(found)


def _blind_to_destination(rules, rule) -> bool:
    """Whether a build or empty rule's verdict on a move is the same whichever of its piles the cards go to: it has no
    table of pairs (which reads `top`) and its other clauses read neither `pile` nor `top`. Such a rule is judged
    once for every pile of a listing that it would judge (the position does not change while moves are listed)."""
    return rule.pair_table is None and not (_places(rules, rule) & _DESTINATION)


def _reads_only_its_pile(rules, rule) -> bool:
    """Whether a take or sequence rule reads nothing of the position but the pile the cards leave: its verdict on a
    run is then a function of that pile alone, and may be kept until the pile changes."""
    return "position" not in _places(rules, rule)


def _reads_only(rules, rule, names: set, places: set) -> bool:
    """Whether the clauses of `rule` beyond its tables read none of the values a rule may name but `names` (a group's
    name aside: which piles it has is fixed) and no place of the position but `places` (`Compiled.places`): its
    verdict is then a function of those values, whatever the position, and may be kept from one position to the
    next."""
    return all((clause.uses - {"state"}) <= names for clause in rule.residual) and _places(rules, rule) <= places


@dataclass(frozen=True)
class WindowSums:
    """A discard rule judged from running sums over a window of adjacent cards (see `_window_sums`)."""

    terms: tuple  # per distinct sum, its term for each card id
    slots: tuple  # per slot the clauses read a sum from (SUM_SLOTS), which of `terms` it is
    judges: tuple  # the rule's clauses beyond its tables, in order, each a `holds(ctx)` reading only `count` and sums
    # With one sum, when the clauses after those that read `count` alone do not read it: per count n, whether those
    # clauses let n cards through (2: one of them fails), and the few sums the others let through (`_matched_windows`).
    counts: bytes | None = None
    totals: tuple = ()


# Not limits on what a ruleset may do (kallisti.limits), only where a shortcut stops paying: a discard rule is judged
# in advance for at most SUMS_JUDGED_AHEAD sums, and matched against prefix sums when it lets through at most FEW_SUMS.
SUMS_JUDGED_AHEAD = 1 << 16
FEW_SUMS = 16


def _window_sums(rules, rule) -> WindowSums | None:
    """How a discard rule's verdict on a window of adjacent cards may be worked out from running sums over it (see
    `compiler.Additive`): when every clause beyond the rule's tables reads only `count` or is additive, and it has no
    table of pairs (its table of single cards, for `card`, the window's first card, is looked up as ever); else None.
    Clauses that sum the same term (`require` one total, `forbid` another) share one running sum."""
    if rule.always or rule.never or rule.pair_table is not None or not rule.residual:
        return None
    terms, slots, judges, counting, leading = [], [], [], [], True
    for clause in rule.residual:
        if clause.uses <= {"count"}:
            judges.append(clause.holds)
            if leading:
                counting.append(clause.holds)
            else:
                counting = None  # a clause after a sum's that reads the count
            continue
        leading = False
        additive = rules.compiler.additive(clause.text, clause.pos, DISCARD_SCOPE, len(slots))
        if additive is None:
            return None
        for term in additive.terms:
            if term not in terms:
                terms.append(term)
            slots.append(terms.index(term))
        judge = additive.judge
        judges.append((lambda ctx, j=judge: bool(j(ctx))) if clause.kind == "require" else (lambda ctx, j=judge: not j(ctx)))
        if additive.counts:
            counting = None  # the verdict on a sum depends on the count
    if not terms:
        return None
    plain = WindowSums(tuple(terms), tuple(slots), tuple(judges))
    if len(terms) != 1 or counting is None:
        return plain
    # One sum, and the clauses after the leading `count` ones read the sum alone: the sums they let through are
    # found by judging every sum a window could have (between the sums of the deck's negative and positive terms).
    ctx, size = Ctx(), rules.deck.size
    counts = bytearray(size + 1)
    for n in range(size + 1):
        ctx.count = n
        try:
            counts[n] = all(holds(ctx) for holds in counting)
        except RuleRuntimeError:
            counts[n] = 2
    term, rest = terms[0], judges[len(counting):]
    low, high = sum(t for t in term if t < 0), sum(t for t in term if t > 0)
    if high - low >= SUMS_JUDGED_AHEAD:
        return plain
    totals = []
    for total in range(low, high + 1):
        for slot in range(len(slots)):
            ctx.locals[SUM_SLOTS[slot]] = total
        try:
            if all(holds(ctx) for holds in rest):
                totals.append(total)
        except RuleRuntimeError:
            return plain
        if len(totals) > FEW_SUMS:
            return plain
    return WindowSums(plain.terms, plain.slots, plain.judges, bytes(counts), tuple(totals))


def _judges_cards_alone(rule) -> bool:
    """Whether a rule's verdict is a function of the cards it judges alone (`card`, `cards`, `count` and the names
    its quantifiers bind): it reads no pile, no top, nothing of the position. Such verdicts may be memoised."""
    return all(not (clause.uses & _POSITIONAL) for clause in rule.clauses)


def _count_gate(rules, rule, most: int) -> bytes | None:
    """Per count of cards n (0 to `most`): 0 when what `Rule.allows` runs first and reads `count` alone refuses n
    cards, so that the rule refuses any n cards without running anything else; else 1 (also when it fails: the rule is
    then judged as always, its failure noted). What runs first: the clauses that read `count` alone, then, when the
    next clause is a `require`, the parts of its top-level `and` that come first and read `count` alone (`count ==
    ranks and descending(cards)` refuses any other count before it looks at a card). None when nothing such comes
    first."""
    if rule.always or rule.never:
        return None
    leading = []
    for clause in rule.residual:
        if clause.uses <= {"count"}:
            leading.append(clause.holds)
            continue
        if clause.kind == "require":  # `a and b` runs a first, and is false when a is
            for part in rules.compiler.conjuncts(clause.text, clause.pos, _SCOPES[rule.kind]):
                if not part.uses <= {"count"}:
                    break
                leading.append(part.fn)
        break
    if not leading:
        return None
    ctx, gate = Ctx(), bytearray(most + 1)
    for n in range(most + 1):
        ctx.count = n
        try:
            gate[n] = all(holds(ctx) for holds in leading)
        except RuleRuntimeError:
            gate[n] = 1
    return bytes(gate)


def _placed_cards(piles, placed: tuple) -> tuple:
    """The cards a deal placed (`_deal_from`'s record: the pile each card went to, in order), bottom first, read off
    the tops of those piles just after the deal."""
    seen: dict[int, int] = {}
    cards = []
    for d in reversed(placed):
        i = seen.get(d, 0)
        cards.append(piles[d][-1 - i])
        seen[d] = i + 1
    return tuple(reversed(cards))


def require_piles(rules) -> None:
    """Refuse, with a pointer to `kallisti hand`, a ruleset that has no piles to play on (it only scores hands)."""
    if rules.pile_count == 0:
        raise error("no-piles", f"{rules.name} has no piles to play on; it scores hands (kallisti hand GAME \"CARDS\")",
                    Pos(rules.name))


class Game:
    """One game: the state, the move generator and the history for undo/redo.

    Moves are small ints: a card move is `(n * P + src) * P + dst` (P piles, n cards);
    a deal from stock pile s is `s`, a redeal of it is `P + s`.
    """

    def __init__(self, rules, seed: int | None = None, order: list[int] | None = None, deal_number: int = 0):
        """A new deal: from `order` (card ids in dealing order) if given, else shuffled from `seed` (default 1)."""
        require_piles(rules)
        self.rules = rules
        self.initial_rules = rules  # the rules of the deal, before any change made during play (what a save stores)
        self.deck = rules.deck
        if order is None and seed is None:
            seed = 1
        self.seed = seed
        self.order = list(order) if order is not None else shuffled_order(rules.deck.size, seed or 0, deal_number)
        self.deal_number = deal_number
        self.state = initial_state(rules, self.order)
        self.ctx = Ctx(self.state)
        self.ctx.game = self
        self.dealer = Dealer(rules, self.state)
        self.redeal_positions: list[tuple] = []  # the position before each redeal, to see a stalled game
        self.P = rules.pile_count
        self.history: list[list] = []  # one entry per player step: the undo records of its moves
        self.redo_stack: list[list[int]] = []  # undone steps, each the moves it made, replayed exactly by redo
        self.moves_played = 0
        # Decoded card moves, shared by every game of the ruleset and filled as moves are first made.
        self._card_moves: dict[int, tuple] = rules.card_move_cache
        self.events: list[dict] = []  # the player's steps, for saves and replays
        self.rule_errors: list[str] = []  # errors rules raised while judging moves (the moves were refused)
        self.failures = 0  # how many times a rule raised an error while judging a move (rule_errors keeps the first ten)
        self.listed: list[int] | None = None  # the legal moves here, while a lose rule is judged (see `_lost`)
        self.relisted: list[int] | None = None  # the legal moves where the last automatic moves stopped (`playout`)
        self.hint_plan: tuple | None = None  # (position, moves, positions searched): the rest of the last hint's line
        # The piles re-filed (`_refresh`) since a position key last read them, and that key's maker: the solver's
        # keys (kallisti.solver.keys) key again only these piles. A change that bypasses `_refresh` (a playout's
        # inline moves) sets `key_owner` to None, and the next key is built from every pile.
        self.dirty: set[int] = set()
        self.key_owner: object = None
        self._build_indexes()
        # The moves made, as rules that read them see them (`moves`, `last_move`, a pile's `played`); kept only for
        # such rules (`_keep_trail`), None otherwise.
        self.trail: Trail | None = None
        if rules.reads_history:
            self._keep_trail(True)

    def arrange(self, layout: dict[str, str], down: dict[str, int] | None = None) -> "Game":
        """Set up a position by hand (for scenarios and tests): `{"t1": "9S 8S", "f1": "AS"}`, cards bottom first.

        Piles not named are emptied; `down` gives how many cards at the bottom of a pile lie face down.
        Each card name takes the next unused physical twin, so no card appears twice.
        """
        from kallisti.errors import Pos

        free: dict[int, list[int]] = {}
        for c in range(self.deck.size - 1, -1, -1):
            free.setdefault(self.deck.kind[c], []).append(c)
        st = self.state
        for p in range(self.P):
            st.piles[p] = []
            st.down[p] = 0
        for tag, text in layout.items():
            p = self.rules.pile_of_tag[tag]
            for name in text.split():
                kind = self.deck.parse_card(name, Pos("<layout>"))
                if not free.get(kind):
                    raise ValueError(f"{name} is used more often than the deck holds it")
                st.piles[p].append(free[kind].pop())
        for tag, n in (down or {}).items():
            st.down[self.rules.pile_of_tag[tag]] = n
        for name, g in self.rules.groups.items():
            st.sizes[name] = sum(len(st.piles[p]) for p in g.piles)
        self.history.clear()
        self.redo_stack.clear()
        self.events.clear()
        self.redeal_positions.clear()
        if self.trail is not None:
            self.trail = Trail(self.deck.size)  # an arranged position: every card as if dealt there
        self._reindex()
        return self

    def fork(self) -> "Game":
        """An independent game at this position, under the same rules, with no history: for a look-ahead (a hint's
        search) that must leave this game exactly as it was. Stepping and taking back a move restores the
        position but not the order of the legal moves, which follows the history of the move indexes (undo
        re-files a pile at the end of a list); a search on a fork changes neither."""
        twin = Game(self.rules, seed=self.seed, order=self.order, deal_number=self.deal_number)
        twin.initial_rules = self.initial_rules
        st, ts = self.state, twin.state
        for p in range(self.P):
            ts.piles[p][:] = st.piles[p]
        ts.down[:] = st.down
        ts.sizes.clear()
        ts.sizes.update(st.sizes)
        ts.redeals.clear()
        ts.redeals.update(st.redeals)
        twin.redeal_positions = list(self.redeal_positions)
        twin.moves_played = self.moves_played
        if self.trail is not None:
            twin._keep_trail(True)
            twin.trail = self.trail.copy()
        twin._reindex()
        return twin

    # -- indexes for fast move generation ------------------------------------------------
    # Tables that depend only on the ruleset: computed by the first game, shared by every later one.
    SHARED_TABLES = ("group_list", "gindex", "onto", "empty_ok", "take_max", "take_counts", "source_info", "accepted_on",
                     "space_kinds", "build_residual", "space_residual", "has_checked", "open_group", "general_targets",
                     "flip", "simple_sources", "run_sources", "kind", "gname", "stock_piles", "top_up_of", "any_hand",
                     "refill_of", "accepts_on_top", "space_kinds_of", "open_of", "discard_sources", "discard_dest", "discard_base", "window_span",
                     "stock_info", "plain_moves", "deal_to", "diverts", "source_slot", "accepts_by_kind",
                     "win_sees", "plain_deals", "steady_stock", "pile_roles", "empty_memos", "window_memos", "cards_key", "empty_gates",
                     "window_gates", "run_plan", "general_by_count", "build_counts", "space_counts", "take_cards", "blind_build", "blind_empty", "window_sums", "sum_verdicts",
                     "reach_sources", "reach_base", "move_bound")

    def _build_indexes(self) -> None:
        shared = self.rules.engine_tables
        if shared is None:
            self._build_shared_tables()
            shared = self.rules.engine_tables = {name: getattr(self, name) for name in self.SHARED_TABLES}
        else:
            self.__dict__.update(shared)
        # dests[kind]: the piles that would take a card of that kind right now, kept up to date as tops change;
        # checked[kind]: the piles whose tables let it through but whose remaining clauses must still agree.
        self.step_auto = any(p.trigger == "each-move" for p in self.rules.auto)  # a step may set off automatic moves
        self.dests: list[list[int]] = [[] for _ in range(self.deck.kinds)]
        self.checked: list[list[int]] = [[] for _ in range(self.deck.kinds)]
        self.empties: list[list[int]] = [[] for _ in self.group_list]
        self._index_piles()

    def _build_shared_tables(self) -> None:
        rules = self.rules
        groups = list(rules.groups.values())
        self.group_list = groups
        self.gindex = rules.gindex
        tables = rules.move_tables()
        self.onto, self.empty_ok, self.take_max, self.take_counts = tables
        # Groups whose piles give cards from elsewhere than the top (`take_from`): their moves are found window by
        # window (`_reach_moves`), never through the indexes of top cards.
        reach = {gi for gi, g in enumerate(groups) if g.take_from != ("top",)}
        self.reach_sources = [(p, gi) for gi in sorted(reach) if self.take_max[gi] > 0 for p in groups[gi].piles]
        # Per source pile: (pile, most cards that may leave at once, sequence rule or None, count table).
        self.source_info = [
            (p, self.take_max[gi], None if g.sequence.always else g.sequence, self._count_table(gi))
            for gi, g in enumerate(groups) if self.take_max[gi] > 0 and gi not in reach for p in g.piles]
        targets = [gi for gi, g in enumerate(groups) if not (g.build.never and g.empty.never)]
        kinds = self.deck.kinds
        kind_rep = {}
        for c in range(self.deck.size):
            kind_rep.setdefault(self.deck.kind[c], c)
        # Per target group and top kind: the card kinds that may go on it; per group: the kinds a space takes.
        self.accepted_on = [None] * len(groups)
        self.space_kinds = [()] * len(groups)
        for tg in targets:
            if self.onto[tg]:
                inverse: dict[int, list[int]] = {}
                for k, c in kind_rep.items():
                    for t in self.onto[tg][c]:
                        inverse.setdefault(t, []).append(k)
                self.accepted_on[tg] = {t: tuple(ks) for t, ks in inverse.items()}
            if self.empty_ok[tg] is not None:
                self.space_kinds[tg] = tuple(k for k, c in kind_rep.items() if self.empty_ok[tg][c])
        # Groups whose rules have clauses beyond the table: their piles are filed in `checked` lists, and
        # the remaining clauses run only for the cards the table lets through.
        self.build_residual = [bool(g.build.residual) for g in groups]
        self.space_residual = [bool(g.empty.residual) for g in groups]
        self.has_checked = any(self.build_residual[tg] and self.onto[tg] or self.space_residual[tg] and self.empty_ok[tg]
                               for tg in targets)
        # Spaces that take any card are kept in one list of their own rather than filed under every kind.
        self.open_group = [len(self.space_kinds[gi]) == len(kind_rep) and not self.space_residual[gi]
                           for gi in range(len(groups))]
        self.general_targets = [(tg, self.onto[tg] is None, self.empty_ok[tg] is None) for tg in targets
                                if self.onto[tg] is None or self.empty_ok[tg] is None]
        self.flip = [groups[self.gindex[p]].flip for p in range(self.P)]
        simple = [info for info in self.source_info if info[1] == 1 and info[3] is None and not self.general_targets]
        # (pile, move number less the destination, place in the list: see `source_dests`)
        self.simple_sources = [(info[0], (self.P + info[0]) * self.P, i) for i, info in enumerate(simple)]
        # Per pile: its place in simple_sources; every other pile has the one place past the end (a slot of
        # `source_dests` that nothing reads), so that re-filing a pile can set its slot without asking which it is.
        self.source_slot = [len(self.simple_sources)] * self.P
        for src, _, i in self.simple_sources:
            self.source_slot[src] = i
        self.run_sources = [info for info in self.source_info if info not in simple]
        self.kind = self.deck.kind
        self.gname = self.rules.group_of
        self.pile_roles = [groups[gi].role for gi in self.gindex]  # per pile, its group's role (the greedy measure's)
        self.stock_piles = [g.piles[0] for g in groups if g.turn is not None or g.redeal is not None]
        # Per stock pile, what the move generator must ask: (pile, whether it deals at all, whether its dealing rule
        # is `always` (no need to run it), whether it may ever redeal) -- so most piles cost no call per position.
        self.stock_info = []
        for s in self.stock_piles:
            g = groups[self.gindex[s]]
            self.stock_info.append((s, g.turn is not None, g.turn is not None and g.dealing.always,
                                    g.redeal is not None and g.redeals != 0))
        # Per pile that deals: the piles its `turn` deals to, one entry per card, in order: `count` cards to the
        # first pile of the target group, or with `each`, `count` cards to every pile of it in turn.
        self.deal_to = [None] * self.P
        for s in self.stock_piles:
            turn = groups[self.gindex[s]].turn
            if turn is not None:
                target, count = rules.groups[turn["to"]], turn.get("count", 1)
                self.deal_to[s] = tuple(p for p in target.piles for _ in range(count)) if turn.get("each") \
                    else (target.piles[0],) * count
        self.diverts = [groups[gi].divert is not None for gi in self.gindex]  # piles whose group may divert a dealt card
        self.top_up_of = [groups[gi].top_face_up for gi in self.gindex]
        self.any_hand = any(self.top_up_of)
        self.refill_of = [None] * self.P
        for g in groups:
            if g.refill is not None:
                for p in g.piles:
                    self.refill_of[p] = (rules.groups[g.refill["from"]].piles[0], g.refill["count"])
        self.accepts_on_top = [self.accepted_on[gi] or {} for gi in self.gindex]
        # The same as tuples indexed by the top's kind: `_refresh` reads them twice a move, and indexing is cheaper
        # than `dict.get`.
        self.accepts_by_kind = [tuple(accepts.get(k, ()) for k in range(kinds)) for accepts in self.accepts_on_top]
        self.space_kinds_of = [() if self.open_group[gi] else self.space_kinds[gi] for gi in self.gindex]
        self.open_of = [self.open_group[gi] for gi in self.gindex]
        # Window discards: (pile, its group's discard rule, the pile the cards go to), and their move numbers,
        # which start above every card move: discard_base + (pile * span + start) * span + length.
        self.discard_sources = [(p, g.discard, rules.groups[g.discard_to].piles[0]) for g in groups
                                if g.discard is not None and g.discard_to in rules.groups for p in g.piles]
        self.discard_dest = {p: dst for p, _, dst in self.discard_sources}
        self.window_span = self.deck.size + 1
        self.discard_base = self.window_span * self.P * self.P
        # Moves of cards that do not reach their pile's top (`take_from`) start above every discard:
        # reach_base + ((pile * span + start) * span + length) * P + destination.
        self.reach_base = self.discard_base + self.P * self.window_span * self.window_span
        self.move_bound = self.reach_base + self.P * self.P * self.window_span * self.window_span  # above every move
        # Memos of verdicts by the cards judged, for rules that read nothing else (see `_judges_cards_alone`): per
        # group, its `empty` rule's (a space that takes a whole suit), and per discard source, its discard rule's.
        self.empty_memos = [{} if _judges_cards_alone(g.empty) else None for g in groups]
        self.cards_key = bytes if self.deck.size <= 256 else tuple  # a memo's key for cards: bytes while ids fit one
        self.window_memos = [{} if _judges_cards_alone(rule) else None for _, rule, _ in self.discard_sources]
        # And per group and per discard source, which counts of cards the rule's leading `count` clauses let through
        # (`_count_gate`): most runs and windows are refused by count alone (a whole suit is 13 cards).
        self.empty_gates = [_count_gate(rules, g.empty, self.deck.size) for g in groups]
        self.window_gates = [_count_gate(rules, rule, self.deck.size) for _, rule, _ in self.discard_sources]
        # Judged where they can change. Per run source, as `source_info` has it, and whether the runs that may leave it
        # are a function of its own cards (its take and sequence rules read nothing else of the position): then
        # `_runs` works them out once and they are kept (in `runs`) until the pile changes.
        self.run_plan = [(p, limit, seq, counts, (seq is None or seq.pair_table is not None or _reads_only_its_pile(rules, seq))
                          and (counts is not False or _reads_only_its_pile(rules, groups[self.gindex[p]].take)))
                         for p, limit, seq, counts in self.run_sources]
        # Per group, whether its build rule, and its empty rule, is blind to the destination (`_blind_to_destination`):
        # judged once for every pile of the group a run may go to, not pile by pile.
        self.blind_build = [_blind_to_destination(rules, g.build) for g in groups]
        self.blind_empty = [_blind_to_destination(rules, g.empty) for g in groups]
        # Per discard source, its rule as running sums over a window (`_window_sums`), or None; and the verdicts of
        # such a rule by (count, sums), which are all it reads.
        self.window_sums = [_window_sums(rules, rule) for _, rule, _ in self.discard_sources]
        self.sum_verdicts = [{} for _ in self.discard_sources]
        # Verdicts kept from one position to the next, for rules whose verdict is a function of a few values alone.
        # Per group: its build rule's and its empty rule's beyond their tables when they read the count and which pile
        # the cards leave, and nothing else (a foundation takes one card at a time, and none from another
        # foundation), keyed by source and count (`_checked_targets`); its take rule's when it reads the run's
        # bottom card and the count alone (a king's build, or the top card), keyed by card and count (`_take_ok`).
        self.build_counts = [{} if _reads_only(rules, g.build, {"count", "source"}, {"source"}) else None for g in groups]
        self.space_counts = [{} if _reads_only(rules, g.empty, {"count", "source"}, {"source"}) else None for g in groups]
        self.take_cards = [{} if _reads_only(rules, g.take, {"card", "count"}, set()) else None for g in groups]
        # Per count of cards, the general targets (as `general_targets` lists them) a run of that many may go to: those
        # whose build rule is judged pile by pile, and those whose spaces take it unless what the empty rule runs first
        # refuses that count (`empty_gates`: a whole suit's spaces take only runs of 13).
        self.general_by_count = [
            tuple((tg, builds, takes and (self.empty_gates[tg] is None or bool(self.empty_gates[tg][n])))
                  for tg, builds, takes in self.general_targets
                  if builds or takes and (self.empty_gates[tg] is None or self.empty_gates[tg][n]))
            for n in range(self.deck.size + 1)]
        # Whether every card move is one top card onto a pile the index alone judges (no runs, windows, clauses
        # beyond the tables, hands or refills): then `playout` may make moves inline, without undo records.
        self.plain_moves = not (self.run_sources or self.discard_sources or self.general_targets or self.has_checked
                                or self.any_hand or any(self.refill_of) or rules.reads_history or self.reach_sources)
        self._build_playout_tables()

    def _build_playout_tables(self) -> None:
        """What `_plain_playout` needs to know of the ruleset to skip work that cannot change anything."""
        rules = self.rules
        # Per pile: whether the win may read its group's size. After a move between piles of which it reads
        # neither, the win is as it was (it reads nothing else, when rules.win_sizes is not None).
        watched = rules.win_sizes
        self.win_sees = [watched is None or g in watched for g in self.gname]
        # Deals made inline (those where no card can be diverted), by stock pile: where each card goes,
        # whether the win may change, and whether a card may land on a stock pile.
        self.plain_deals = {
            s: (to, self.win_sees[s] or any(self.win_sees[d] for d in to), any(d in self.stock_piles for d in to))
            for s, to in enumerate(self.deal_to) if to is not None and not any(self.diverts[d] for d in to)}
        # When every stock pile deals without a condition, never redeals, and no card moves onto or off it, the
        # stock's moves change only with a deal or a move made through `apply`: they are worked out only then.
        self.steady_stock = all(
            (always or not deals) and not redeals and self.source_slot[s] == len(self.simple_sources)
            and not any(self.accepts_by_kind[s]) and not self.space_kinds_of[s] and not self.open_of[s]
            for s, deals, always, redeals in self.stock_info)

    def _reindex(self) -> None:
        """File every pile afresh (after a redeal or a position set by hand).

        The index lists are emptied in place, not replaced, so that `_plain_playout`'s names for them stay good."""
        for lists in (self.dests, self.checked, self.empties):
            for lst in lists:
                lst.clear()
        self.open_spaces.clear()
        self._file_all()

    def _index_piles(self) -> None:
        """This game's index lists per pile, then every pile filed in the destination index."""
        self.piles, self.down = self.state.piles, self.state.down
        self.build_lists = [self.checked if self.build_residual[gi] else self.dests for gi in self.gindex]
        self.space_lists = [self.checked if self.space_residual[gi] else self.dests for gi in self.gindex]
        self.open_spaces: list[int] = []
        self.empties_of = [self.empties[gi] for gi in self.gindex]
        self.top_key = [None] * self.P
        # Per simple source: the destination list of its top card's kind (the empty tuple when it has no face-up
        # card), kept up to date by `_refresh`, so move generation can pass over the sources with nowhere to go
        # (most of them, most of the time) in one C-level pass: itertools.compress.
        self.source_dests: list = [()] * (len(self.simple_sources) + 1)
        # Per pile, the runs that may leave it (`_runs`) while it stays as it is, for the sources whose runs depend on
        # their own cards alone (`run_plan`); None when not known. `_refresh` forgets a pile's.
        self.runs: list = [None] * self.P
        self.window_kept: list = [None] * len(self.discard_sources)  # per discard source, see `_matched_windows`
        self._file_all()

    def _file_all(self) -> None:
        """File every pile in the (empty) index, as `_refresh` re-files one."""
        top_key = self.top_key
        for p in range(self.P):
            top_key[p] = None
            self._refresh(p)

    def _count_table(self, gi: int):
        """The take rule's count table, or None when every count up to the maximum is allowed."""
        counts = self.take_counts[gi]
        if counts and all(counts[n] for n in range(1, self.take_max[gi] + 1)):
            return None
        return counts

    def _refresh(self, p: int) -> None:
        """Re-file pile p in the destination index after its top card changed.

        This runs twice per move, so it reads only per-pile tables prepared in `_build_indexes`.
        """
        self.dirty.add(p)
        self.runs[p] = None
        pile = self.piles[p]
        if self.any_hand and self.top_up_of[p]:
            self.down[p] = len(pile) - 1 if pile else 0  # a hand: only its top card lies face up
        if not pile:
            key = -1
        elif len(pile) > self.down[p]:
            key = self.kind[pile[-1]]
        else:
            key = NOT_INDEXED
        top_key = self.top_key
        old = top_key[p]
        if old == key:
            return
        top_key[p] = key
        if key >= 0:
            self.source_dests[self.source_slot[p]] = self.dests[key]
            if old is not None and old >= 0:  # one face-up top for another, the most common change
                lists, takes = self.build_lists[p], self.accepts_by_kind[p]
                for k in takes[old]:
                    lists[k].remove(p)
                for k in takes[key]:
                    lists[k].append(p)
                return
        else:
            self.source_dests[self.source_slot[p]] = ()
        if old is not None:
            if old >= 0:
                dests = self.build_lists[p]
                for k in self.accepts_by_kind[p][old]:
                    dests[k].remove(p)
            elif old == -1:
                self.empties_of[p].remove(p)
                if self.open_of[p]:
                    self.open_spaces.remove(p)
                dests = self.space_lists[p]
                for k in self.space_kinds_of[p]:
                    dests[k].remove(p)
        if key >= 0:
            dests = self.build_lists[p]
            for k in self.accepts_by_kind[p][key]:
                dests[k].append(p)
        elif key == -1:
            self.empties_of[p].append(p)
            if self.open_of[p]:
                self.open_spaces.append(p)
            dests = self.space_lists[p]
            for k in self.space_kinds_of[p]:
                dests[k].append(p)

    # -- move generation -------------------------------------------------------------------
    def legal_moves(self) -> list[int]:
        """Every legal move in this position (only the compulsory ones, when any exists)."""
        moves = self._all_moves()
        if self.rules.compulsory and moves:
            forced = [m for m in moves if self._matches_any(self.rules.compulsory, m)]
            if forced:
                return forced
        return moves

    def _stock_moves(self) -> list[int]:
        """The deals and redeals allowed now, stock pile by stock pile: the start of every list of moves."""
        piles, P = self.piles, self.P
        out: list[int] = []
        for s, deals, always, redeals in self.stock_info:
            if deals and piles[s] and (always or self._may_deal(s)):
                out.append(s)
            if redeals and self._may_redeal(s):
                out.append(P + s)
        return out

    def _all_moves(self) -> list[int]:
        piles = self.state.piles
        out = self._stock_moves()
        dests = self.dests
        top_key = self.top_key
        spaces = self.open_spaces  # empty piles that take any card (never a source: a source has cards)
        checked, has_checked = self.checked, self.has_checked
        if not (spaces or has_checked):
            # Then a simple source's only moves are to its `source_dests` list: skip the empty ones at C speed
            # (compress stops at the end of simple_sources, before the spare slot).
            source_dests = self.source_dests
            for src, head, i in compress(self.simple_sources, source_dests):
                for d in source_dests[i]:
                    if d != src:
                        out.append(head + d)
        else:
            for src, head, _ in self.simple_sources:
                # One card at a time, every target tabulated: a single index lookup per source
                # (top_key holds the kind of the pile's face-up top card, or a negative marker).
                k = top_key[src]
                if k >= 0:
                    lst = dests[k]
                    if lst:
                        for d in lst:
                            if d != src:
                                out.append(head + d)
                    if spaces:
                        for d in spaces:
                            out.append(head + d)
                    if has_checked:
                        lst = checked[k]
                        if lst:
                            self._checked_targets(out, lst, src, 1, head)
        runs = self.runs
        for src, limit, seq, counts, kept in self.run_plan:
            found = runs[src]
            if found is None:
                failures = self.failures
                found = self._runs(src, limit, seq, counts)
                if kept and failures == self.failures:  # a rule that failed is judged again, its failure noted again
                    runs[src] = found
            for head, k, n, targets in found:
                lst = dests[k]
                if lst:
                    for d in lst:
                        if d != src:
                            out.append(head + d)
                if spaces:
                    for d in spaces:
                        out.append(head + d)
                if has_checked:
                    lst = checked[k]
                    if lst:
                        self._checked_targets(out, lst, src, n, head)
                if not targets:
                    continue
                for tg, builds, takes_spaces in targets:  # the general targets a run of n cards may go to
                    if builds:
                        self._general_builds(out, tg, src, n, head)
                    if takes_spaces:
                        empties = self.empties[tg]
                        if not empties:
                            continue
                        # `_general_empties` when the verdict on these cards, or from this source, is known
                        memo = self.empty_memos[tg]
                        if memo is not None:
                            ok = memo.get(self.cards_key(piles[src][-n:]))
                        else:
                            kept = self.space_counts[tg]
                            ok = kept.get(src * self.window_span + n) if kept is not None else None
                        if ok is None:
                            self._general_empties(out, tg, src, n, head)
                        elif ok:
                            for d in empties:
                                out.append(head + d)
        if self.discard_sources:
            self._discard_moves(out)
        if self.reach_sources:
            self._reach_moves(out)
        return out

    def _reach_moves(self, out: list[int]) -> None:
        """The moves of piles whose group gives cards from elsewhere than the top (`take_from`): each window of face-up
        cards its modes name that the take and sequence rules let go, to every pile whose rules take it. A window that
        ends at the top is an ordinary card move; any other is a reach move (`reach_window`)."""
        st = self.state
        P, span, base, groups, gindex = self.P, self.window_span, self.reach_base, self.group_list, self.gindex
        for src, gi in self.reach_sources:
            pile = st.piles[src]
            size = len(pile)
            if size <= st.down[src]:
                continue
            g = groups[gi]
            for start, n in self._windows(g, src, self.take_max[gi]):
                ctx = self._window_ctx(src, start, n)
                ctx.pile, ctx.top = src, -1  # a take rule's `pile` is the pile the cards leave
                if not self._allows(g.take, ctx):
                    continue
                head = (n * P + src) * P if start + n == size else base + ((src * span + start) * span + n) * P
                for d in range(P):
                    if d == src:
                        continue
                    target = st.piles[d]
                    dg = groups[gindex[d]]
                    if target:
                        if len(target) <= st.down[d]:
                            continue
                        rule, ctx.top = dg.build, target[-1]
                    else:
                        rule, ctx.top = dg.empty, st.no_card
                    if rule.never:
                        continue
                    ctx.pile = d
                    if self._allows(rule, ctx):
                        out.append(head + d)

    def _windows(self, group, src: int, most: int) -> list[tuple[int, int]]:
        """(first place, length) of each window of face-up cards of pile src that its group's `take_from` names,
        at most `most` cards long and a run by its sequence rule, each once."""
        pile, down = self.state.piles[src], self.state.down[src]
        size = len(pile)
        seq = None if group.sequence.always else group.sequence
        found: dict[tuple[int, int], None] = {}
        for mode in group.take_from:
            if mode == "bottom":
                if down == 0:
                    found[(0, 1)] = None
                continue
            starts = range(down, size) if mode in ("any", "runs") else ()
            if mode == "any":
                for i in starts:
                    found[(i, 1)] = None
                continue
            if mode == "top":
                starts = range(size - 1, max(down, size - most) - 1, -1)
            for i in starts:
                ends = [size] if mode == "top" else range(i + 1, min(size, i + most) + 1)
                for end in ends:
                    if seq is None or all(self._in_sequence(seq, pile[k + 1], pile[k]) for k in range(i, end - 1)):
                        found[(i, end - i)] = None
        return list(found)

    def _in_sequence(self, seq, card: int, under: int) -> bool:
        ctx = self.ctx
        ctx.card, ctx.top = card, under
        return self._allows(seq, ctx)

    def _window_ctx(self, src: int, start: int, n: int) -> Ctx:
        """The context of the n cards from place `start` of pile src, as `_move_ctx` makes it for the top n."""
        ctx = self.ctx
        cards = self.state.piles[src][start:start + n]
        ctx.cards, ctx.card, ctx.count, ctx.source = cards, cards[0], n, src
        return ctx

    def reach_window(self, m: int) -> tuple[int, int, int, int]:
        """(pile, first place, length, destination) of a reach move: cards taken from below a pile's top."""
        rest, dst = divmod(m - self.reach_base, self.P)
        rest, n = divmod(rest, self.window_span)
        src, start = divmod(rest, self.window_span)
        return src, start, n, dst

    def encode_reach(self, src: int, start: int, n: int, dst: int) -> int:
        """The move of the n cards from place `start` of pile src to dst: a card move when they reach the top."""
        if start + n == len(self.state.piles[src]):
            return self.encode(src, dst, n)
        return self.reach_base + ((src * self.window_span + start) * self.window_span + n) * self.P + dst

    def _runs(self, src: int, limit: int, seq, counts) -> list[tuple]:
        """The runs that may leave pile src now, shortest first, as its take and sequence rules judge them: each as
        (its move number less the destination, the kind of its bottom card, how many cards, the general targets a
        run of that many cards may go to (`general_by_count`)). `limit`, `seq` and `counts` are the source's, as
        `source_info` has them."""
        pile = self.piles[src]
        found: list[tuple] = []
        up = len(pile) - self.down[src]
        if up <= 0:
            return found
        if limit > up:
            limit = up
        table = seq.pair_table if seq is not None else None
        P, kind, by_count = self.P, self.kind, self.general_by_count
        n = 1
        while n <= limit:
            if n > 1 and seq is not None:
                if table is not None:
                    if not table[pile[-n + 1] * seq.stride + pile[-n]]:
                        break
                elif not self._sequence_ok(seq, pile, n):
                    break
            if counts is None or (counts[n] if counts else self._take_ok(src, n)):
                found.append(((n * P + src) * P, kind[pile[-n]], n, by_count[n]))
            n += 1
        return found

    def _discard_moves(self, out: list[int]) -> None:
        """Every window of adjacent face-up cards some pile's discard rule lets go (lengths 1 up to the pile)."""
        piles, down, ctx = self.state.piles, self.state.down, self.ctx
        base, span = self.discard_base, self.window_span
        for i, ((p, rule, _), memo, gate) in enumerate(zip(self.discard_sources, self.window_memos, self.window_gates)):
            pile = piles[p]
            ctx.pile = p
            sums = self.window_sums[i]
            if sums is not None:
                if sums.counts is None or not self._matched_windows(out, i, p, rule, sums):
                    self._summed_windows(out, i, p, rule, gate)
                continue
            if memo is not None:  # the verdict on each window's cards is known, or worked out once
                row = self.cards_key(pile)
                for start in range(down[p], len(pile)):
                    for end in range(start + 1, len(pile) + 1):
                        if gate is not None and not gate[end - start]:
                            continue  # refused for its count alone
                        ok = memo.get(key := row[start:end])
                        if ok is None:
                            ok = self._judge_cards(memo, key, rule, ctx, pile[start:end])
                        if ok:
                            out.append(base + (p * span + start) * span + end - start)
                continue
            for start in range(down[p], len(pile)):
                for end in range(start + 1, len(pile) + 1):
                    window = pile[start:end]
                    ctx.cards, ctx.count, ctx.card = window, end - start, window[0]
                    if self._allows(rule, ctx):
                        out.append(base + (p * span + start) * span + end - start)

    def _matched_windows(self, out: list[int], i: int, p: int, rule, sums: WindowSums) -> bool:
        """`_discard_moves` for the i-th discard source, pile p, whose rule lets a window through for a few sums alone
        (`sums.totals`, given that its count passes `sums.counts`): each window's sum is the difference of two prefix
        sums of the pile, so the windows that end at a card are those that start where the prefix sum is the one up
        to that card less a sum let through, found by look-up: a few look-ups a card rather than a sum a window. What
        was found is kept (`window_kept`): while the pile only grows (a card drawn onto the line), only the windows
        that end at the new cards are looked for. False, with no move listed, when a clause that reads the count
        fails for some count here (`_summed_windows` then notes it as ever)."""
        pile, first = self.piles[p], self.down[p]
        size, counts = len(pile), sums.counts
        if 2 in counts[1:size - first + 1]:
            return False
        kept = self.window_kept[i]  # (the pile's cards then, its first face-up card, prefix sum, starts, moves found)
        if kept is not None and kept[1] == first and len(kept[0]) <= size and pile[:len(kept[0])] == kept[0]:
            _, _, total, starts, found = kept
            done = len(kept[0])
        else:
            total, starts, found, done = 0, {0: [first]}, [], first  # prefix sum -> the places it is reached at
        term, totals, table = sums.terms[0], sums.totals, rule.card_table
        span = self.window_span
        row = self.discard_base + p * span * span
        grown = False
        for end in range(done + 1, size + 1):
            total += term[pile[end - 1]]
            for wanted in totals:
                for start in starts.get(total - wanted, ()):
                    if counts[end - start] and (table is None or table[pile[start]]):
                        found.append(row + start * span + end - start)
                        grown = True
            if total in starts:
                starts[total].append(end)
            else:
                starts[total] = [end]
        if grown:
            found.sort()  # by first card, then length, as `_discard_moves` lists them
        self.window_kept[i] = (pile[:], first, total, starts, found)
        out.extend(found)
        return True

    def _summed_windows(self, out: list[int], i: int, p: int, rule, gate) -> None:
        """`_discard_moves` for the i-th discard source, whose rule is judged from running sums (`window_sums`): each
        window's sums are those of the window one card shorter plus that card's terms, so a window costs a few
        additions, and its verdict is looked up by (count, sums), all the rule reads (`sum_verdicts`). A rule that
        fails judges that window afresh from its cards, its failure noted as ever."""
        terms, slots, judges = self.window_sums[i].terms, self.window_sums[i].slots, self.window_sums[i].judges
        verdicts, pile, ctx = self.sum_verdicts[i], self.piles[p], self.ctx
        table = rule.card_table  # the clauses that read only the window's first card
        base, span = self.discard_base, self.window_span
        size, row = len(pile), (p * span) * span + base
        single = terms[0] if len(terms) == 1 else None
        for start in range(self.down[p], size):
            if table is not None and not table[pile[start]]:
                continue  # as `Rule.allows` refuses it, before any other clause
            if single is not None:
                total = 0
            else:
                totals = [0] * len(terms)
            head = row + start * span
            for end in range(start + 1, size + 1):
                card = pile[end - 1]
                n = end - start
                if single is not None:
                    total += single[card]
                    key = (n, total)
                else:
                    for t, term in enumerate(terms):
                        totals[t] += term[card]
                    key = (n, *totals)
                if gate is not None and not gate[n]:
                    continue  # refused for its count alone
                ok = verdicts.get(key)
                if ok is None:
                    ctx.count = n
                    held = ctx.locals
                    for slot, t in enumerate(slots):
                        held[SUM_SLOTS[slot]] = key[1 + t]
                    try:
                        ok = all(judge(ctx) for judge in judges)
                    except RuleRuntimeError:
                        window = pile[start:end]
                        ctx.cards, ctx.count, ctx.card = window, n, window[0]
                        ok = self._allows(rule, ctx)
                    else:
                        if len(verdicts) >= MEMO_LIMIT:
                            verdicts.clear()
                        verdicts[key] = ok
                if ok:
                    out.append(head + n)

    def _judge_cards(self, memo: dict, key, rule, ctx, cards: list[int]) -> bool:
        """A rule's verdict on `cards` (the moving cards or a window), noted in `memo` unless the rule failed."""
        ctx.cards, ctx.count, ctx.card = cards, len(cards), cards[0]
        try:
            ok = rule.allows(ctx)
        except RuleRuntimeError as exc:
            self._rule_failed(exc)
            return False
        if len(memo) >= MEMO_LIMIT:
            memo.clear()
        memo[key] = ok = bool(ok)
        return ok

    def window(self, m: int) -> tuple[int, int, int]:
        """(pile, first position, length) of a discard move."""
        rest, length = divmod(m - self.discard_base, self.window_span)
        p, start = divmod(rest, self.window_span)
        return p, start, length

    def encode_discard(self, p: int, start: int, length: int) -> int:
        return self.discard_base + (p * self.window_span + start) * self.window_span + length

    def _sequence_ok(self, seq, pile, n) -> bool:
        ctx = self.ctx
        ctx.card, ctx.top = pile[-n + 1], pile[-n]
        return self._allows(seq, ctx)

    def _take_ok(self, src, n) -> bool:
        gi = self.gindex[src]
        memo = self.take_cards[gi]  # the verdict by the run's bottom card and count, when that is all the rule reads
        if memo is not None:
            key = self.piles[src][-n] * self.window_span + n
            ok = memo.get(key)
            if ok is not None:
                return ok
        ctx = self._move_ctx(src, n)
        ctx.pile, ctx.top = src, -1  # a take rule's `pile` is the pile the cards leave
        try:
            ok = bool(self.group_list[gi].take.allows(ctx))
        except RuleRuntimeError as exc:
            self._rule_failed(exc)
            return False
        if memo is not None:
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            memo[key] = ok
        return ok

    def _checked_targets(self, out, piles, src, n, head) -> None:
        """Moves onto piles whose tables passed the card: their remaining clauses decide. A rule blind to the
        destination (`blind_build`, `blind_empty`) is judged once in a call, for every pile it judges."""
        ctx = None
        st = self.state
        gindex, groups = self.gindex, self.group_list
        known: dict | None = None  # the verdicts of blind rules, by rule
        key = src * self.window_span + n  # a kept verdict's key (`build_counts`, `space_counts`)
        for d in piles:
            if d == src:
                continue
            target = st.piles[d]
            gi = gindex[d]
            if target:
                rule, blind, memo = groups[gi].build, self.blind_build[gi], self.build_counts[gi]
            else:
                rule, blind, memo = groups[gi].empty, self.blind_empty[gi], self.space_counts[gi]
            if memo is not None:
                ok = memo.get(key)
                if ok is not None:
                    if ok:
                        out.append(head + d)
                    continue
            elif blind and known is not None:
                ok = known.get(rule)
                if ok is not None:
                    if ok:
                        out.append(head + d)
                    continue
            if ctx is None:
                ctx = self._move_ctx(src, n)
            ctx.pile = d
            ctx.top = target[-1] if target else st.no_card
            try:
                ok = bool(rule.residual_allows(ctx))
            except RuleRuntimeError as exc:
                self._rule_failed(exc)
                continue
            if ok:
                out.append(head + d)
            if memo is not None:
                if len(memo) >= MEMO_LIMIT:
                    memo.clear()
                memo[key] = ok
            elif blind:
                if known is None:
                    known = {}
                known[rule] = ok

    def _general_builds(self, out, tg, src, n, head) -> None:
        group = self.group_list[tg]
        st = self.state
        ctx = self._move_ctx(src, n)
        memo, key = self.build_counts[tg], src * self.window_span + n  # a verdict kept across positions
        known = memo.get(key) if memo is not None else None  # a blind rule's verdict, once judged
        blind = self.blind_build[tg]
        for d in group.piles:
            dp = st.piles[d]
            if d != src and dp and len(dp) > st.down[d]:
                if known is None:
                    ctx.top, ctx.pile = dp[-1], d
                    try:
                        ok = bool(group.build.allows(ctx))
                    except RuleRuntimeError as exc:
                        self._rule_failed(exc)
                        continue
                    if blind:
                        known = ok
                        if memo is not None:
                            if len(memo) >= MEMO_LIMIT:
                                memo.clear()
                            memo[key] = ok
                else:
                    ok = known
                if ok:
                    out.append(head + d)

    def _general_empties(self, out, tg, src, n, head) -> None:
        empties = self.empties[tg]
        if not empties:
            return
        group = self.group_list[tg]
        memo = self.empty_memos[tg]
        if memo is not None:  # the rule reads only the moving cards: one verdict for every space of the group
            ok = memo.get(key := self.cards_key(self.state.piles[src][-n:]))
            if ok is None:
                ctx = self._move_ctx(src, n)
                ctx.top, ctx.pile = self.state.no_card, empties[0]
                try:
                    ok = group.empty.allows(ctx)
                except RuleRuntimeError:
                    ok = None  # judged space by space below, each failure noted as it always is
                else:
                    if len(memo) >= MEMO_LIMIT:
                        memo.clear()
                    memo[key] = ok = bool(ok)
            if ok is not None:
                if ok:
                    for d in empties:
                        out.append(head + d)
                return
        ctx = self._move_ctx(src, n)
        if self.blind_empty[tg]:  # blind to the destination: one verdict for every space of the group, in this position
            kept, key = self.space_counts[tg], src * self.window_span + n  # or in any, by source and count
            ok = kept.get(key) if kept is not None else None
            if ok is None:
                ctx.top, ctx.pile = self.state.no_card, empties[0]
                try:
                    ok = bool(group.empty.allows(ctx))
                except RuleRuntimeError:
                    ok = None  # judged space by space below, each failure noted as it always is
                else:
                    if kept is not None:
                        if len(kept) >= MEMO_LIMIT:
                            kept.clear()
                        kept[key] = ok
            if ok is not None:
                if ok:
                    for d in empties:
                        out.append(head + d)
                return
        for d in empties:
            ctx.top, ctx.pile = self.state.no_card, d
            if self._allows(group.empty, ctx):
                out.append(head + d)

    def _move_ctx(self, src: int, n: int) -> Ctx:
        ctx = self.ctx
        pile = self.state.piles[src]
        ctx.cards = pile[-n:]
        ctx.card, ctx.count, ctx.source = pile[-n], n, src
        return ctx

    def _allows(self, rule, ctx) -> bool:
        try:
            return rule.allows(ctx)
        except RuleRuntimeError as exc:
            self._rule_failed(exc)
            return False

    def _rule_failed(self, exc: RuleRuntimeError) -> None:
        """A rule raised an error: the move it judged is refused, and the error is noted for rule-change trials."""
        self.failures += 1
        if len(self.rule_errors) < 10:
            self.rule_errors.append(str(exc))

    def _may_deal(self, s: int) -> bool:
        """Whether pile s may deal now: it deals (`turn`) and its `dealing` rule allows it."""
        g = self.group_list[self.gindex[s]]
        if g.turn is None:
            return False
        if g.dealing.always:
            return True
        ctx = self.ctx
        ctx.pile = s
        return self._allows(g.dealing, ctx)

    def _may_redeal(self, s: int) -> bool:
        """Whether pile s may redeal now: redeals are left, its condition holds, and there are cards to gather."""
        g = self.group_list[self.gindex[s]]
        spec = g.redeal
        if spec is None or g.redeals == 0:
            return False
        if g.redeals > 0 and self.state.redeals[g.name] >= g.redeals:
            return False
        if not any(self.state.sizes[name] for name in spec.gather):
            return False
        ctx = self.ctx
        ctx.pile = s
        try:
            return bool(spec.when(ctx))
        except RuleRuntimeError as exc:
            self._rule_failed(exc)
            return False

    def can_move_from(self, p: int) -> bool:
        """Whether any legal move takes cards from pile p (`pile.movable` in win, lose and score rules)."""
        P = self.P
        moves = self.listed if self.listed is not None else self.legal_moves()
        return any(m >= P * P and (m % (P * P)) // P == p for m in moves)

    def _lost(self, moves: list[int] | None):
        """The first lose rule that holds, or None; `moves`, when given, are the legal moves here: what `pile.movable`
        asks for, given rather than listed again for each pile it asks about."""
        self.listed = moves
        try:
            return next((loss for loss in self.rules.lose if loss.when(self.ctx)), None)
        finally:
            self.listed = None

    def visible_down(self, p: int) -> int:
        """How many face-down cards under pile p's top the player may look at (the group's `reveal`)."""
        g = self.group_list[self.gindex[p]]
        if g.reveal is None:
            return 0
        ctx = self.ctx
        ctx.pile = p
        try:
            return max(0, min(int(g.reveal(ctx)), self.state.down[p]))
        except RuleRuntimeError as exc:
            self._rule_failed(exc)
            return 0

    # -- decoding ----------------------------------------------------------------------------
    def decode(self, m: int) -> tuple[str, int, int, int]:
        """(kind, src, dst, n) of a move: kind is `move`, `deal`, `redeal` or `discard` (n cards of a window,
        which `window` places, to the discard pile dst)."""
        P = self.P
        if m >= self.discard_base:
            if m >= self.reach_base:
                src, _, n, dst = self.reach_window(m)
                return ("move", src, dst, n)
            p, _, length = self.window(m)
            return ("discard", p, self._discard_target(p), length)
        if m < P:
            return ("deal", m, -1, 0)
        if m < 2 * P and m < P * P:
            return ("redeal", m - P, -1, 0)
        n, rest = divmod(m, P * P)
        src, dst = divmod(rest, P)
        return ("move", src, dst, n)

    def encode(self, src: int, dst: int, n: int) -> int:
        return (n * self.P + src) * self.P + dst

    # -- applying moves ---------------------------------------------------------------------
    def apply(self, m: int):
        """Make move m (assumed legal) and return what undo needs."""
        if m >= self.discard_base:  # before the decoded card moves: a search may have decoded a reach move there
            return self._reach(m) if m >= self.reach_base else self._discard(m)
        parts = self._card_moves.get(m)  # a card move made before
        if parts is not None or m >= self.P * self.P:
            if parts is None:
                parts = self._card_moves[m] = self._card_move_parts(m)
            n, src, dst, from_group, to_group = parts
            piles, down = self.piles, self.down
            pile = piles[src]
            if n == 1:
                piles[dst].append(pile.pop())
            else:
                piles[dst].extend(pile[-n:])
                del pile[-n:]
            flipped = False
            if down[src] and down[src] == len(pile) and self.flip[src]:
                down[src] -= 1
                flipped = True
            if from_group is not None:
                sizes = self.state.sizes
                sizes[from_group] -= n
                sizes[to_group] += n
            self._refresh(src)
            self._refresh(dst)
            self.moves_played += 1
            if not pile and self.refill_of[src] is not None:
                stock, count = self.refill_of[src]
                return (m, flipped, self._deal_from(stock, [src] * count))
            return (m, flipped)
        P = self.P
        if m < P:
            return self._deal(m)
        return self._redeal(m - P)

    def _discard_target(self, p: int) -> int:
        return self.discard_dest[p]

    def _discard(self, m: int):
        """Take a window of cards out of its pile (the cards above it close up) onto the discard pile."""
        p, start, length = self.window(m)
        dst = self._discard_target(p)
        pile, down = self.piles[p], self.down
        self.piles[dst].extend(pile[start:start + length])
        del pile[start:start + length]
        flipped = False
        if down[p] and down[p] == len(pile) and self.flip[p]:
            down[p] -= 1
            flipped = True
        gs, gd = self.gname[p], self.gname[dst]
        if gs != gd:
            self.state.sizes[gs] -= length
            self.state.sizes[gd] += length
        self._refresh(p)
        self._refresh(dst)
        self.moves_played += 1
        return (m, flipped)

    def _reach(self, m: int):
        """Take cards from below a pile's top (the cards above them close up) onto another pile."""
        src, start, n, dst = self.reach_window(m)
        pile, down = self.piles[src], self.down
        self.piles[dst].extend(pile[start:start + n])
        del pile[start:start + n]
        gs, gd = self.gname[src], self.gname[dst]
        if gs != gd:
            self.state.sizes[gs] -= n
            self.state.sizes[gd] += n
        flipped = False
        if down[src] and down[src] == len(pile) and self.flip[src]:
            down[src] -= 1
            flipped = True
        self._refresh(src)
        self._refresh(dst)
        self.moves_played += 1
        return (m, flipped, start, n)

    def _card_move_parts(self, m: int):
        """(n, src, dst, source group, target group) of a card move; the groups are None within one group."""
        _, src, dst, n = self.decode(m)
        gs, gd = self.gname[src], self.gname[dst]
        return (n, src, dst, gs, gd) if gs != gd else (n, src, dst, None, None)

    def _deal(self, s: int):
        """Deal from stock pile s as its `turn` says (see `deal_to`)."""
        placed = self._deal_from(s, self.deal_to[s])
        self.moves_played += 1
        return (s, placed)

    def _deal_from(self, s: int, dests) -> tuple:
        """Move cards one by one from the top of pile s to each of `dests` (face up, diverted where
        the receiving group says); returns where each card went, for undo."""
        st = self.state
        stock = st.piles[s]
        placed = []
        for d in dests:
            while stock:  # a diverted card does not fill the place: the next card is dealt there
                card = stock.pop()
                if self.diverts[d]:
                    went = self.dealer.place(self.group_list[self.gindex[d]], card, d, "up")
                else:
                    st.piles[d].append(card)  # what `place` does with a face-up card its group cannot divert
                    went = d
                placed.append(went)
                st.sizes[self.gname[s]] -= 1
                st.sizes[self.gname[went]] += 1
                self._refresh(went)
                if went == d:
                    break
        st.down[s] = min(st.down[s], len(stock))
        self._refresh(s)
        return tuple(placed)

    def _undeal(self, s: int, placed: tuple) -> None:
        """Undo `_deal_from`: every card back on top of pile s, face down as it was."""
        st = self.state
        stock = st.piles[s]
        face_down = st.down[s] == len(stock)
        for d in reversed(placed):
            stock.append(st.piles[d].pop())
            st.sizes[self.gname[d]] -= 1
            st.sizes[self.gname[s]] += 1
            self._refresh(d)
        if face_down:
            st.down[s] = len(stock)
        self._refresh(s)

    def _redeal(self, s: int):
        """Gather the redeal's groups pile by pile onto pile s (under any cards still there), turned
        over so the first gathered card comes up first; shuffle if the ruleset says; deal groups again."""
        st = self.state
        g = self.group_list[self.gindex[s]]
        spec = g.redeal
        snapshot = ([list(p) for p in st.piles], list(st.down), dict(st.sizes), dict(st.redeals))
        self.redeal_positions.append(self._position())
        gathered: list[int] = []
        for name in spec.gather:
            for p in self.rules.groups[name].piles:
                gathered.extend(st.piles[p])
                st.piles[p].clear()
                st.down[p] = 0
        if spec.shuffle:
            Rng(self.seed or 0, self.deal_number, STREAM_REDEAL + 16 * st.redeals[g.name]).shuffle(gathered)
        stock = st.piles[s]
        stock[:0] = reversed(gathered)
        st.down[s] = len(stock)
        st.redeals[g.name] += 1

        def next_card():
            return stock.pop() if stock else None

        for name in spec.deal:
            self.dealer.deal_rows(self.rules.groups[name], next_card, strict=False)
        st.down[s] = min(st.down[s], len(stock))
        recount(self.rules, st)
        self._reindex()
        self.moves_played += 1
        return (self.P + s, snapshot)

    def _position(self) -> tuple:
        """The cards and their faces, without counters: equal positions play alike."""
        return (tuple(map(tuple, self.state.piles)), tuple(self.state.down))

    def undo_record(self, record) -> None:
        """Reverse one move given the record `apply` returned."""
        m = record[0]
        parts = self._card_moves.get(m)
        if parts is not None and len(record) == 2:  # a card move (made before, so decoded), no pile refilled
            n, src, dst, gs, gd = parts
            self.moves_played -= 1
            piles = self.piles
            dp = piles[dst]
            if n == 1:
                piles[src].append(dp.pop())
            else:
                piles[src].extend(dp[-n:])
                del dp[-n:]
            if record[1]:
                self.down[src] += 1
            if gs is not None:
                sizes = self.state.sizes
                sizes[gs] += n
                sizes[gd] -= n
            self._refresh(src)
            self._refresh(dst)
            return
        P = self.P
        st = self.state
        self.moves_played -= 1
        if m >= self.reach_base:
            src, start, n, dst = self.reach_window(m)
            if record[1]:
                st.down[src] += 1
            dp = st.piles[dst]
            st.piles[src][start:start] = dp[-n:]
            del dp[-n:]
            gs, gd = self.gname[src], self.gname[dst]
            if gs != gd:
                st.sizes[gs] += n
                st.sizes[gd] -= n
            self._refresh(src)
            self._refresh(dst)
        elif m >= self.discard_base:
            p, start, length = self.window(m)
            dst = self._discard_target(p)
            if record[1]:
                st.down[p] += 1
            dp = st.piles[dst]
            st.piles[p][start:start] = dp[-length:]
            del dp[-length:]
            gs, gd = self.gname[p], self.gname[dst]
            if gs != gd:
                st.sizes[gs] += length
                st.sizes[gd] -= length
            self._refresh(p)
            self._refresh(dst)
        elif m >= P * P:
            n, rest = divmod(m, P * P)
            src, dst = divmod(rest, P)
            if len(record) > 2:  # the emptied source had been refilled
                self._undeal(self.rules.groups[self.group_list[self.gindex[src]].refill["from"]].piles[0], record[2])
            if record[1]:
                st.down[src] += 1
            dp = st.piles[dst]
            moved = dp[-n:]
            del dp[-n:]
            st.piles[src].extend(moved)
            gs, gd = self.gname[src], self.gname[dst]
            if gs != gd:
                st.sizes[gs] += n
                st.sizes[gd] -= n
            self._refresh(src)
            self._refresh(dst)
        elif m < P:
            self._undeal(m, record[1])
        else:
            piles, down, sizes, redeals = record[1]
            for p, cards in enumerate(piles):
                st.piles[p][:] = cards
            st.down[:] = down
            st.sizes.clear()
            st.sizes.update(sizes)
            st.redeals.clear()
            st.redeals.update(redeals)
            self.redeal_positions.pop()
            self._reindex()

    # -- steps: a player's move plus the automatic moves it triggers ------------------------
    def play(self, m: int) -> list[int]:
        """Make a legal move as a player step, then the ruleset's automatic moves; returns the moves made."""
        from kallisti.interpreter.notation import describe

        self.events.append({"type": "move", "move": describe(self, m, exact=True)})
        made = self._step(m)
        self.redo_stack.clear()
        return made

    def _step(self, m: int) -> list[int]:
        records = [self.apply(m)]
        made = [m]
        if self.step_auto:
            for am, rec in self._auto_moves(("each-move",)):
                records.append(rec)
                made.append(am)
        self.history.append(records)
        return made

    def take_back_step(self) -> None:
        """Reverse the last step without a trace in the events or the redo stack (for searches that look ahead)."""
        records = self.history.pop()
        if len(records) == 1:
            self.undo_record(records[0])
            return
        for record in reversed(records):
            self.undo_record(record)

    def pass_over(self, m: int) -> None:
        """Leave the game as `_step(m)` then `take_back_step()` would, without moving a card, for a move m legal here
        that is the whole step (no automatic move, no hand) and is either a card move (decoded in `_card_moves`)
        that refills no pile, or a deal of one card to each of distinct piles, none diverted, from a stock whose
        cards all lie face down.

        The position comes back, but not the order of the move indexes: each pile whose top changed is re-filed
        at the end of its lists as the move is taken back (a move's source, then its target; a deal's piles in the
        reverse order they were dealt to, then the stock), which decides the order of the legal moves from here
        on. A search that knows where m leads without making it (a position already searched) calls this instead,
        so the moves it makes later are listed as they would have been.
        """
        top_key, kind = self.top_key, self.kind
        if m < self.P:
            stock = self.piles[m]
            placed = self.deal_to[m][:len(stock)]
            for i in range(len(placed) - 1, -1, -1):
                d = placed[i]
                if kind[stock[-1 - i]] != top_key[d]:
                    self._file_again(d)
            return  # the stock, face down before and after, is filed nowhere, or as a space and back
        n, src, dst, _, _ = self._card_moves[m]
        pile = self.piles[src]
        left = len(pile) - n
        down = self.down[src]
        if down and down == left and self.flip[src]:
            down -= 1
        after = (kind[pile[left - 1]] if left > down else NOT_INDEXED) if left else -1
        if after != top_key[src]:
            self._file_again(src)
        if kind[pile[-1]] != top_key[dst]:
            self._file_again(dst)

    def _file_again(self, p: int) -> None:
        """Move pile p to the end of every index list `_refresh` files it in, as re-filing it under another top and
        back does."""
        key = self.top_key[p]
        if key >= 0:
            lists = self.build_lists[p]
            for k in self.accepts_by_kind[p][key]:
                lst = lists[k]
                if lst[-1] != p:
                    lst.remove(p)
                    lst.append(p)
        elif key == -1:
            for lst in (self.empties_of[p], self.open_spaces) if self.open_of[p] else (self.empties_of[p],):
                if lst[-1] != p:
                    lst.remove(p)
                    lst.append(p)
            lists = self.space_lists[p]
            for k in self.space_kinds_of[p]:
                lst = lists[k]
                if lst[-1] != p:
                    lst.remove(p)
                    lst.append(p)

    def play_auto(self) -> list[int]:
        """The `a` command: every automatic move the ruleset declares, as one undoable step."""
        records, made = [], []
        for am, rec in self._auto_moves(("each-move", "on-request")):
            records.append(rec)
            made.append(am)
        if records:
            self.events.append({"type": "auto"})
            self.history.append(records)
            self.redo_stack.clear()
        return made

    def extend_step(self, m: int) -> list[int]:
        """Make a legal move as part of the step just made (a player's move or `play_auto`), with the automatic
        moves it triggers; returns the moves made. Undo takes it back with that step and redo makes it again; the
        step's event lists it under `then`, which a replay plays after the event's own move.

        For a front end that plays moves on the player's behalf (autoplay, `kallisti.solver.autoplay`); `play`,
        which every other caller uses, is left as it was."""
        from kallisti.interpreter.notation import describe

        event = self.events[-1] if self.events else None
        if not self.history or event is None or event.get("type") not in ("move", "auto"):
            raise ValueError("only the step just made can be extended: a move or the automatic moves of `a`")
        event.setdefault("then", []).append(describe(self, m, exact=True))
        made = self._step(m)
        self.history[-2].extend(self.history.pop())
        return made

    def _auto_moves(self, triggers):
        patterns = [p for p in self.rules.auto if p.trigger in triggers]
        if not patterns:
            return
        rules, ctx = self.rules, self.ctx
        for _ in range(MAX_AUTO_MOVES):
            # While `status` says playing (as it finds it, the legal moves listed once for it and for the choice).
            if rules.win(ctx) or rules.lose and any(loss.when(ctx) for loss in rules.lose):
                return
            moves = self.legal_moves()
            if not moves or self.redeal_positions and self._blocked(moves):
                self.relisted = moves
                return
            # The lowest matching move, not the first listed: the order of `legal_moves` follows the history of
            # the move indexes (undo re-files a pile at the end of a list), and an automatic move must depend on
            # the position alone, or a save's replay could send an ace to another foundation than the game did.
            found = next((m for m in sorted(moves) if self._matches_any(patterns, m)), None)
            if found is None:
                self.relisted = moves
                return
            yield found, self.apply(found)

    def _matches_any(self, patterns, m: int) -> bool:
        kind, src, dst, n = self.decode(m)
        for p in patterns:
            if p.kind != kind:
                continue
            if self.rules.group_of[src] not in p.sources:
                continue
            if kind == "move" and self.rules.group_of[dst] not in p.targets:
                continue
            if p.when is not None:
                if m >= self.reach_base:
                    ctx = self._window_ctx(src, self.reach_window(m)[1], n)
                else:
                    ctx = self._move_ctx(src, n) if kind == "move" else self.ctx
                if kind == "discard":
                    pile, start, length = self.window(m)
                    window = self.state.piles[pile][start:start + length]
                    ctx.cards, ctx.count, ctx.card, ctx.pile = window, length, window[0], pile
                if kind == "move":
                    dp = self.state.piles[dst]
                    ctx.top = dp[-1] if dp else self.state.no_card
                    ctx.pile = dst
                try:
                    if not p.when(ctx):
                        continue
                except RuleRuntimeError as exc:
                    self._rule_failed(exc)
                    continue
            return True
        return False

    def undo(self) -> bool:
        """Take back the last step: a move with its automatic moves, or a rule change."""
        if not self.history:
            return False
        records = self.history.pop()
        for rec in reversed(records):
            if isinstance(rec, RuleStep):
                self._use_rules(rec.before)
            else:
                self.undo_record(rec)
        self.redo_stack.append([rec if isinstance(rec, RuleStep) else rec[0] for rec in records])
        self.events.append({"type": "undo"})
        return True

    def redo(self) -> bool:
        if not self.redo_stack:
            return False
        step = []
        for m in self.redo_stack.pop():
            if isinstance(m, RuleStep):
                self._use_rules(m.after)
                step.append(m)
            else:
                step.append(self.apply(m))
        self.history.append(step)
        self.events.append({"type": "redo"})
        return True

    @property
    def moves_made(self) -> int:
        """The player's steps that moved cards (rule changes are steps too, for undo, but not moves)."""
        return sum(1 for step in self.history if not (step and isinstance(step[0], RuleStep)))

    def visited_positions(self) -> set:
        """The state keys of every position the game has stood in since the deal (or `arrange`), on the way to
        this one, this one included: read off the undo history by taking it back on a fork, so this game
        (its position and the order of its legal moves) is left exactly as it was."""
        twin = self.fork()
        seen = {twin.state.key()}
        for step in reversed(self.history):
            for rec in reversed(step):
                if isinstance(rec, RuleStep):
                    twin._use_rules(rec.before)
                else:
                    twin.undo_record(rec)
            seen.add(twin.state.key())
        return seen

    # -- rule changes during play -----------------------------------------------------------
    def change_rules(self, rules, event: dict) -> None:
        """Play on under `rules` from the next move, as one undoable step recorded as `event`.

        The cards on the table stay where they are, legal or not under the new rules (a change is
        never retroactive). Rules whose deck or piles differ from the table's raise LayoutChanged:
        they can only take effect with a new deal.
        """
        if not self.same_layout(rules):
            raise LayoutChanged("the change alters the deck or the piles: it takes effect from the next deal")
        step = RuleStep(self.rules, rules)
        self._use_rules(rules)
        self.history.append([step])
        self.redo_stack.clear()
        self.events.append(event)

    def same_layout(self, rules) -> bool:
        """Whether `rules` describe the same deck and the same piles as this game's table."""
        from kallisti.model.located import plain

        def deck(r):
            return {k: v for k, v in plain(r.data["deck"]).items() if k != "shuffle"}

        old = self.rules
        return (old.group_of == rules.group_of and [g.tag for g in old.groups.values()] == [g.tag for g in rules.groups.values()]
                and deck(old) == deck(rules))

    def _use_rules(self, rules) -> None:
        self._set_rules(rules)
        if rules.reads_history and self.trail is None:
            self._keep_trail(True)
            self.trail = self._trail_from_history()
        elif not rules.reads_history and self.trail is not None:
            self._keep_trail(False)

    def _set_rules(self, rules) -> None:
        self.rules = rules
        self.deck = rules.deck
        self.dealer = Dealer(rules, self.state)
        self._card_moves = rules.card_move_cache
        self._build_indexes()

    # -- the moves the rules may read (kallisti.interpreter.history) -----------------------------
    def _keep_trail(self, on: bool) -> None:
        """Start keeping the moves made (an empty trail), or stop. While it keeps them, this game's `apply` and
        `undo_record` are the noting ones, so that a game whose rules read no move pays nothing for the trail."""
        if on:
            self.trail = Trail(self.deck.size)
            self.apply, self.undo_record = self._apply_noted, self._undo_noted
        else:
            self.trail = None
            self.__dict__.pop("apply", None)
            self.__dict__.pop("undo_record", None)

    def _apply_noted(self, m: int):
        """`apply`, noting the move in the trail."""
        record = Game.apply(self, m)
        P, piles, trail = self.P, self.state.piles, self.trail
        if m >= self.reach_base:
            src, _, n, dst = self.reach_window(m)
            trail.note("move", src, dst, tuple(piles[dst][-n:]), False)
        elif m >= self.discard_base:
            p, _, length = self.window(m)
            dst = self._discard_target(p)
            trail.note("discard", p, dst, tuple(piles[dst][-length:]), False)
        elif m >= P * P:
            n, rest = divmod(m, P * P)
            src, dst = divmod(rest, P)
            refilled = _placed_cards(piles, record[2]) if len(record) > 2 else ()
            trail.note("move", src, dst, tuple(piles[dst][-n:]), False, refilled)
        elif m < P:
            placed = record[1]
            trail.note("deal", m, placed[0] if placed else m, _placed_cards(piles, placed), True)
        else:
            trail.note_redeal(m - P, ())
        return record

    def _undo_noted(self, record) -> None:
        """`undo_record`, forgetting the move in the trail."""
        Game.undo_record(self, record)
        self.trail.take_back()

    def _trail_from_history(self) -> Trail:
        """The trail of the moves in the undo history, for rules that begin to read moves in the middle of a game (a
        rule change): made again on a fork taken back to where the history starts."""
        twin = self.fork()
        twin._keep_trail(False)
        for step in reversed(self.history):
            for rec in reversed(step):
                if isinstance(rec, RuleStep):
                    twin._set_rules(rec.before)
                else:
                    twin.undo_record(rec)
        twin._keep_trail(True)
        for step in self.history:
            for rec in step:
                if isinstance(rec, RuleStep):
                    twin._set_rules(rec.after)
                else:
                    twin.apply(rec[0])
        return twin.trail

    # -- end and score ----------------------------------------------------------------------
    def status(self, moves: list[int] | None = None) -> Status:
        """Won, lost (a declared loss condition, or no legal move left) or still playing. `moves`, when given, are
        the `legal_moves` of this position (a lose rule's `pile.movable` reads them rather than list them again)."""
        ctx = self.ctx
        if self.rules.win(ctx):
            return Status("won", "the win condition holds")
        if self.rules.lose:
            loss = self._lost(moves)
            if loss is not None:
                return Status("lost", loss.says)
        moves = moves if moves is not None else self.legal_moves()
        if not moves:
            return Status("lost", "no legal move is left")
        if self.redeal_positions and self._blocked(moves):
            return Status("lost", "blocked: a whole pass through the stock changed nothing")
        return Status("playing")

    def _blocked(self, moves: list[int]) -> bool:
        """Whether only redeals are left among `moves` and the position is one a redeal was made from: a whole pass
        through the stock changed nothing."""
        P = self.P
        return all(P <= m < 2 * P for m in moves) and self._position() in self.redeal_positions

    def score(self) -> int:
        return self.rules.score(self.ctx)

    def playout(self, choose, cap: int = 1000, blocked: bool = False) -> int:
        """Play moves picked by `choose(n)` (the index of the move among the `legal_moves`) until the game ends or
        `cap` moves; returns moves made. With `blocked`, the game also ends where `status` finds it blocked (a whole
        pass through the stock changed nothing), so that the moves made are those of a player who asks `status`
        before every move (as `kallisti simulate` does) and the game ends with the same `status`."""
        made = 0
        rules = self.rules
        has_auto = any(p.trigger == "each-move" for p in rules.auto)
        if self.plain_moves and not has_auto and not rules.compulsory:
            return self._plain_playout(choose, cap, blocked)
        next_moves = self._all_moves if not rules.compulsory else self.legal_moves
        win, ctx = rules.win, self.ctx
        passes = self.redeal_positions if blocked else ()  # the positions before each redeal (see `status`)
        listed = None  # the legal moves where a step's automatic moves stopped: the position has not changed since
        while made < cap:
            if win(ctx):
                break
            moves = listed if listed is not None else next_moves()
            if not moves:
                break
            if rules.lose and self._lost(moves) is not None:
                break
            if passes and self._blocked(moves):
                break
            m = moves[choose(len(moves))]
            if has_auto:
                self.relisted = None
                self.play(m)
                listed, self.relisted = self.relisted, None
            else:
                self.apply(m)
            made += 1
        return made

    def _plain_playout(self, choose, cap: int, blocked: bool = False) -> int:
        """`playout` for rulesets of plain moves (see `plain_moves`) with no automatic or compulsory moves: the same
        moves in the same order as `_all_moves` gives them, made as `apply` makes them, but inline and without
        undo records (a playout never undoes), which is most of the cost of a move in such a game.

        Inline: the moves when no space is open (the stock's, then the simple sources' as `_all_moves` finds them),
        a card move, a deal that diverts no card, and `_refresh` where a pile's top is face up before and after
        (a plain ruleset files every pile in `dests`, never in `checked`). Everything else (open spaces, redeals,
        piles that empty or fill or turn a card up) takes the general path. The index lists stay the same objects
        throughout (`_reindex` empties them in place), so they are bound to local names once.
        """
        rules = self.rules
        self.key_owner = None  # the moves below re-file piles inline, unseen by `dirty`
        win, lose, ctx = rules.win, rules.lose, self.ctx
        first = self.P * self.P  # the first card move; a move of one card is (P + src) * P + dst
        piles, down, sizes = self.piles, self.down, self.state.sizes
        gname, flip, kind, card_moves = self.gname, self.flip, self.kind, self._card_moves
        top_key, dests, spaces, accepts = self.top_key, self.dests, self.open_spaces, self.accepts_by_kind
        sources, source_dests, source_slot = self.simple_sources, self.source_dests, self.source_slot
        all_moves, stock_moves, refresh, apply = self._all_moves, self._stock_moves, self._refresh, self.apply
        sees, plain_deals, steady_stock = self.win_sees, self.plain_deals, self.steady_stock
        sizes_only = rules.win_sizes is not None  # the win reads nothing but group sizes
        # `playout(blocked=True)`: the positions before each redeal, where a redeal may have been made (see `status`)
        passes = self.redeal_positions if blocked and any(redeals for *_, redeals in self.stock_info) else None

        def refile(p):
            """`_refresh(p)`, inline when p's top was and is a face-up card."""
            pile = piles[p]
            if not pile:
                key = -1
            elif len(pile) > down[p]:
                key = kind[pile[-1]]
            else:
                key = NOT_INDEXED
            old = top_key[p]
            if key == old:
                return
            if key < 0 or old < 0:
                refresh(p)
                return
            top_key[p] = key
            takes = accepts[p]
            for k in takes[old]:
                dests[k].remove(p)
            for k in takes[key]:
                dests[k].append(p)
            source_dests[source_slot[p]] = dests[key]

        made, start = 0, self.moves_played
        check = restock = True  # whether the win, and the stock's moves, must be worked out again
        try:  # moves_played is set once, at the end, rather than counted move by move
            while made < cap:
                if check and win(ctx):
                    break
                if spaces:
                    moves = all_moves()
                else:
                    if restock:
                        stocked = stock_moves()
                        restock = not steady_stock
                    moves = stocked[:]
                    # As `_all_moves` finds them with no space open.
                    for src, head, i in compress(sources, source_dests):
                        for d in source_dests[i]:
                            if d != src:
                                moves.append(head + d)
                if not moves or lose and self._lost(moves) is not None:
                    break
                if passes and self._blocked(moves):
                    break
                m = moves[choose(len(moves))]
                made += 1
                if m >= first:
                    try:
                        _, src, dst, gs, gd = card_moves[m]
                    except KeyError:
                        _, src, dst, gs, gd = card_moves[m] = self._card_move_parts(m)
                    pile = piles[src]
                    card = pile.pop()
                    piles[dst].append(card)
                    if down[src] and down[src] == len(pile) and flip[src]:
                        down[src] -= 1
                    if gs is not None:
                        sizes[gs] -= 1
                        sizes[gd] += 1
                        check = sees[src] or sees[dst]
                    else:
                        check = not sizes_only  # no size changed
                    # `refile(src)` inline: its top was the card, face up; src is a simple source (all are).
                    old = kind[card]
                    key = kind[pile[-1]] if pile and len(pile) > down[src] else NOT_INDEXED if pile else -1
                    if key < 0:
                        refresh(src)
                    elif key != old:
                        top_key[src] = key
                        takes = accepts[src]
                        for k in takes[old]:
                            dests[k].remove(src)
                        for k in takes[key]:
                            dests[k].append(src)
                        source_dests[source_slot[src]] = dests[key]
                    # `refile(dst)` inline: the card put on a face-up top is the new face-up top.
                    old, key = top_key[dst], kind[card]
                    if old < 0:
                        refresh(dst)
                    elif key != old:
                        top_key[dst] = key
                        takes = accepts[dst]
                        for k in takes[old]:
                            dests[k].remove(dst)
                        for k in takes[key]:
                            dests[k].append(dst)
                        source_dests[source_slot[dst]] = dests[key]
                elif m in plain_deals:
                    # As `_deal_from` deals when no card is diverted: one card to each pile in turn, while any are left.
                    to, check, feeds_stock = plain_deals[m]
                    stock = piles[m]
                    for d in to:
                        if not stock:
                            break
                        piles[d].append(stock.pop())
                        sizes[gname[m]] -= 1
                        sizes[gname[d]] += 1
                        refile(d)
                    if down[m] > len(stock):
                        down[m] = len(stock)
                    if not (stock and top_key[m] == NOT_INDEXED and len(stock) == down[m]):
                        refile(m)  # unless its top was face down and still is: nothing to re-file then
                    if feeds_stock or not stock:
                        restock = True  # else the stock's moves are as they were, if steady
                else:
                    apply(m)  # a redeal, or a deal that may divert a card
                    check = restock = True
            return made
        finally:
            self.moves_played = start + made
