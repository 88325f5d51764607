"""The move indexes of a game: the piles that would take each kind of card, kept up to date as tops change."""

from __future__ import annotations

from itertools import compress, takewhile

from kallisti.interpreter.group_watch import watch_rules, watched_piles
from kallisti.interpreter.kind_lists import kind_lists, list_slots
from kallisti.interpreter.move_patterns import pattern_masks, stock_bound
from kallisti.interpreter.rule_reads import (blind_to_destination, count_gate, emptiness_gates, judges_cards_alone,
                                            reads_only, reads_only_its_pile, take_limit, window_sums)

NOT_INDEXED = -2  # index key of a pile whose top is face down: it accepts no card


class MoveIndex:
    """The part of `Game` that builds the tables of a ruleset (shared by every game of it) and files every pile of
    the position in the indexes the move generator reads (`_refresh`, twice a move)."""

    # Tables that depend only on the ruleset: computed by the first game, shared by every later one.
    SHARED_TABLES = ("group_list", "gindex", "onto", "empty_ok", "take_max", "take_counts", "source_info", "accepted_on",
                     "space_kinds", "build_residual", "space_residual", "has_checked", "open_group", "general_targets",
                     "flip", "simple_sources", "run_sources", "kind", "gname", "stock_piles", "top_up_of", "any_hand",
                     "refill_of", "accepts_on_top", "space_kinds_of", "open_of", "discard_sources", "discard_dest", "discard_base", "window_span",
                     "stock_info", "plain_moves", "deal_to", "diverts", "source_slot", "accepts_by_kind",
                     "kind_class", "class_count", "list_slots", "list_counts", "filed_under", "space_filed_under",
                     "win_sees", "plain_deals", "steady_stock", "pile_roles", "empty_memos", "window_memos", "cards_key", "empty_gates",
                     "window_gates", "run_plan", "general_by_count", "build_counts", "space_counts", "take_cards", "blind_build", "blind_empty", "window_sums", "sum_verdicts",
                     "reach_sources", "reach_base", "move_bound", "checked_space_groups", "take_shapes",
                     "kept_checked", "build_memo_of", "space_memo_of", "compulsory_masks", "step_auto_masks",
                     "space_targets", "space_only_targets", "run_memo", "space_takers", "refuses_single",
                     "space_gates", "build_watched", "empty_watched", "watched_checked", "gated_counts",
                     "space_refused", "single_runs", "divert_tables", "plain_refills", "step_auto_bound",
                     "build_checked_of", "space_checked_of", "unwatched_judges", "step_auto", "windows_only",
                     "deal_gates")

    def _build_indexes(self) -> None:
        shared = self.rules.engine_tables
        if shared is None:
            self._build_shared_tables()
            shared = self.rules.engine_tables = {name: getattr(self, name) for name in self.SHARED_TABLES}
        else:
            self.__dict__.update(shared)
        # dests[kind]: the piles that would take a card of that kind right now, kept up to date as tops change;
        # checked[kind]: the piles whose tables let it through but whose remaining clauses must still agree.
        # Kinds of one class (`kind_class`) share one list object in each: the same piles are filed under them; and
        # kinds no pile is ever filed under share one that stays empty (`kind_lists.list_slots`).
        self.dests: list[list[int]] = kind_lists(self.list_slots[0], self.list_counts[0])
        self.checked: list[list[int]] = kind_lists(self.list_slots[1], self.list_counts[1])
        self.empties: list[list[int]] = [[] for _ in self.group_list]
        self._index_piles()
        # Per group, what judges its build and empty rules' clauses beyond their tables in `_checked_targets`: the rule,
        # or this game's watch of it (`group_watch.watch_rules`); per pile, their verdicts (`_all_moves` reads them).
        judges = self.unwatched_judges or watch_rules(self.group_list, self.gindex, self.build_watched, self.empty_watched)
        self.build_judges, self.empty_judges, self.watches, self.build_verdicts_of, self.space_verdicts_of = judges

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
        # Per source pile: (pile, most cards that may leave at once, sequence rule or None, count table); the most
        # cut down by the take rule's leading count clauses (`take_limit`) unless TAKE_LIMITS is off.
        limits = [take_limit(rules, g, most) if self.TAKE_LIMITS and self.take_counts[gi] is False else most
                  for gi, (g, most) in enumerate(zip(groups, self.take_max))]
        self.source_info = [
            (p, limits[gi], None if g.sequence.always else g.sequence, self._count_table(gi))
            for gi, g in enumerate(groups) if self.take_max[gi] > 0 and gi not in reach for p in g.piles]
        targets = [gi for gi, g in enumerate(groups) if not (g.build.never and g.empty.never)]
        kinds = self.deck.kinds
        kind_rep = {}
        for c in range(self.deck.size):
            kind_rep.setdefault(self.deck.kind[c], c)
        self.empty_ok = self._untabled_spaces(groups, targets)
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
        self.build_checked_of = [int(self.build_residual[gi]) for gi in self.gindex]  # per pile: 1 filed in `checked`
        self.space_checked_of = [int(self.space_residual[gi]) for gi in self.gindex]
        self.has_checked = any(self.build_residual[tg] and self.onto[tg] or self.space_residual[tg] and self.empty_ok[tg]
                               for tg in targets)
        # Spaces that take any card are kept in one list of their own rather than filed under every kind.
        self.open_group = [len(self.space_kinds[gi]) == len(kind_rep) and not self.space_residual[gi]
                           for gi in range(len(groups))]
        self.general_targets = [(tg, self.onto[tg] is None, self.empty_ok[tg] is None) for tg in targets
                                if self.onto[tg] is None or self.empty_ok[tg] is None]
        # The general targets' groups when every one takes cards into spaces alone (its build rule is tabulated), else
        # None: while none of them has a space, `_all_moves` passes over every run's general targets.
        self.space_only_targets = None if any(builds for _, builds, _ in self.general_targets) else \
            tuple(tg for tg, _, takes in self.general_targets if takes)
        self.flip = [groups[self.gindex[p]].flip for p in range(self.P)]
        self.step_auto = any(p.trigger == "each-move" for p in rules.auto)  # a step may set off automatic moves
        simple = self._simple_sources()
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
        # is `always` (no need to run it), what `_may_redeal` reads when it may ever redeal, else None: its group's
        # name, its redeals (-1: unlimited), the groups it gathers and its condition) -- so most piles cost no call
        # per position.
        self.stock_info = []
        for s in self.stock_piles:
            g = groups[self.gindex[s]]
            self.stock_info.append((s, g.turn is not None, g.turn is not None and g.dealing.always,
                                    (g.name, g.redeals, g.redeal.gather, g.redeal.when)
                                    if g.redeal is not None and g.redeals != 0 else None))
        # Per pile that deals: the piles its `turn` deals to, one entry per card, in order: `count` cards to the
        # first pile of the target group, or with `each`, `count` cards to every pile of it in turn.
        self.deal_to = [None] * self.P
        for s in self.stock_piles:
            turn = groups[self.gindex[s]].turn
            if turn is not None:
                target, count = rules.groups[turn["to"]], turn.get("count", 1)
                self.deal_to[s] = tuple(p for p in target.piles for _ in range(count)) if turn.get("each") \
                    else (target.piles[0],) * count
        # Per pile, its dealing rule as look-ups of how many piles of some groups are empty (`emptiness_gates`), or None.
        self.deal_gates = [emptiness_gates(rules, groups[gi].dealing) for gi in self.gindex]
        self.diverts = [groups[gi].divert is not None for gi in self.gindex]  # piles whose group may divert a dealt card
        # Per such pile, which cards its group diverts, when that is known by the card alone (else None: judged)
        self.divert_tables = [groups[gi].divert.table if groups[gi].divert is not None else None for gi in self.gindex]
        self.top_up_of = [groups[gi].top_face_up for gi in self.gindex]
        self.any_hand = any(self.top_up_of)
        self.refill_of = [None] * self.P
        for g in groups:
            if g.refill is not None:
                for p in g.piles:
                    self.refill_of[p] = (rules.groups[g.refill["from"]].piles[0], g.refill["count"])
        self.accepts_on_top = [self.accepted_on[gi] or {} for gi in self.gindex]
        # The same as tuples indexed by the top's kind: `_refresh` reads them twice a move, and indexing is cheaper
        # than `dict.get`. Made once a group: its piles share it.
        by_group = [tuple((accepted or {}).get(k, ()) for k in range(kinds)) for accepted in self.accepted_on]
        self.accepts_by_kind = [by_group[gi] for gi in self.gindex]
        self.space_kinds_of = [() if self.open_group[gi] else self.space_kinds[gi] for gi in self.gindex]
        self._class_kinds(kinds)
        self.list_slots, self.list_counts = list_slots(
            self.P, self.kind_class, self.class_count, (self.filed_under, self.space_filed_under),
            (self.build_checked_of, self.space_checked_of), self.SHARE_KIND_LISTS)
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
        # Memos of verdicts by the cards judged, for rules that read nothing else (see `judges_cards_alone`): per
        # group, its `empty` rule's (a space that takes a whole suit), and per discard source, its discard rule's.
        self.empty_memos = [{} if judges_cards_alone(g.empty) else None for g in groups]
        self.cards_key = bytes if self.deck.size <= 256 else tuple  # a memo's key for cards: bytes while ids fit one
        self.window_memos = [{} if judges_cards_alone(rule) else None for _, rule, _ in self.discard_sources]
        # And per group and per discard source, which counts of cards the rule's leading `count` clauses let through
        # (`count_gate`): most runs and windows are refused by count alone (a whole suit is 13 cards).
        self.empty_gates = [count_gate(rules, g.empty, self.deck.size) for g in groups]
        self.window_gates = [count_gate(rules, rule, self.deck.size) for _, rule, _ in self.discard_sources]
        # Judged where they can change. Per run source, as `source_info` has it, and whether the runs that may leave it
        # are a function of its own cards (its take and sequence rules read nothing else of the position): then
        # `_runs` works them out once and they are kept (in `runs`) until the pile changes.
        self.run_plan = [(p, limit, seq, counts, (seq is None or seq.pair_table is not None or reads_only_its_pile(rules, seq))
                          and (counts is not False or reads_only_its_pile(rules, groups[self.gindex[p]].take)))
                         for p, limit, seq, counts in self.run_sources]
        self.windows_only = not (self.simple_sources or self.run_plan)  # no top cards to move: `_window_moves` lists
        # Those runs kept from one position to the next, and by every game of the ruleset, by the pile, its cards and
        # its face-down cards (`_kept_runs`): a pile's cards come back again and again (a card moved off and back).
        self.run_memo = {}
        self.space_takers: dict = {}  # per space target, the simple sources its spaces may take from (`_space_sources`)
        self.space_refused: set = set()  # the runs (by source and count) every general target refuses (`_space_targets`)
        # Per group, whether its build rule, and its empty rule, is blind to the destination (`blind_to_destination`):
        # judged once for every pile of the group a run may go to, not pile by pile.
        self.blind_build = [blind_to_destination(rules, g.build) for g in groups]
        self.blind_empty = [blind_to_destination(rules, g.empty) for g in groups]
        # Per group, the piles whose cards are all its build rule's, and its empty rule's, clauses beyond their tables
        # read of the position, when they read only the card of a move (`watched_piles`); else None.
        self.build_watched = [watched_piles(rules, g.build) for g in groups]
        self.empty_watched = [watched_piles(rules, g.empty) for g in groups]
        # Where no rule is watched, the judges are the rules themselves, the same for every game of the ruleset.
        self.unwatched_judges = None if any(self.build_watched + self.empty_watched) else \
            watch_rules(groups, self.gindex, self.build_watched, self.empty_watched)
        # Per discard source, its rule as running sums over a window (`window_sums`), or None; and the verdicts of
        # such a rule by (count, sums), which are all it reads.
        self.window_sums = [window_sums(rules, rule) for _, rule, _ in self.discard_sources]
        self.sum_verdicts = [{} for _ in self.discard_sources]
        # Verdicts kept from one position to the next, for rules whose verdict is a function of a few values alone.
        # Per group: its build rule's and its empty rule's beyond their tables when they read the count and which pile
        # the cards leave, and nothing else (a foundation takes one card at a time, and none from another
        # foundation), keyed by source and count (`_checked_targets`); its take rule's when it reads the run's
        # bottom card and the count alone (a king's build, or the top card), keyed by card and count (`_take_ok`).
        self.build_counts = [{} if reads_only(rules, g.build, {"count", "source"}, {"source"}) else None for g in groups]
        self.space_counts = [{} if reads_only(rules, g.empty, {"count", "source"}, {"source"}) else None for g in groups]
        self.take_cards = [{} if reads_only(rules, g.take, {"card", "count"}, set()) else None for g in groups]
        # The groups whose piles are filed in `checked`: as piles with cards (their build rule has clauses beyond its
        # table), and as spaces (their empty rule has).
        checked_builds = [tg for tg in targets if self.build_residual[tg] and self.onto[tg]]
        checked_spaces = [tg for tg in targets if self.space_residual[tg] and self.space_kinds[tg]]
        # Whether every pile filed in `checked` is judged by such a kept verdict, as a pile with cards (its build rule)
        # or as a space (its empty rule): then `_all_moves` reads them off, pile by pile (per pile, its memos).
        self.kept_checked = all(self.build_counts[tg] is not None for tg in checked_builds) and \
            all(self.space_counts[tg] is not None for tg in checked_spaces)
        self.refuses_single = self._refuses_single(checked_builds, checked_spaces)
        # Per group, the clauses its empty rule runs first (it has no table) that read nothing of the move, only the
        # position (`stock.empty`): they refuse every move into its spaces in a position, or none.
        self.space_gates = [() if g.empty.card_table is not None or g.empty.pair_table is not None else
                            tuple(takewhile(lambda clause: not clause.uses - {"state"}, g.empty.residual))
                            for g in groups]
        # Per group whose empty rule runs such clauses first and then clauses that read only the count and the source
        # (Miss Milligan's reserve: `stock.empty`, then `source in tableau`): the verdicts of those by source and count,
        # kept for the positions where the first hold (`_gated_verdict`), else None.
        self.gated_counts = [{} if gates and self.space_counts[gi] is None and reads_only(
            rules, g.empty, {"count", "source"}, {"source"}, g.empty.residual[len(gates):]) else None
            for gi, (g, gates) in enumerate(zip(groups, self.space_gates))]
        self.build_memo_of = [self.build_counts[gi] for gi in self.gindex]
        self.space_memo_of = [self.space_counts[gi] for gi in self.gindex]
        # Else, whether every pile filed in `checked` is judged by verdicts kept by card (a `GroupWatch`), which
        # `_all_moves` reads off the same way (per pile, its watches' verdicts), after making sure they stand.
        self.watched_checked = not self.kept_checked and any(self.build_watched + self.empty_watched) and \
            all(self.build_watched[tg] is not None for tg in checked_builds) and \
            all(self.empty_watched[tg] is not None for tg in checked_spaces)
        # And its take rule's when it reads the count and the shape of the pile the cards leave alone (`count == 1 or
        # count == pile.face_up`), keyed by pile, its size, its face-down cards and the count (`_take_ok`).
        self.take_shapes = [{} if g.take.card_table is None and g.take.pair_table is None
                            and reads_only(rules, g.take, {"count", "pile"}, {"pile", "pile.state"}) else None
                            for g in groups]
        # Per count of cards, the general targets (as `general_targets` lists them) a run of that many may go to: those
        # whose build rule is judged pile by pile, and those whose spaces take it unless what the empty rule runs first
        # refuses that count (`empty_gates`: a whole suit's spaces take only runs of 13).
        self.general_by_count = [
            tuple((tg, builds, takes and (self.empty_gates[tg] is None or bool(self.empty_gates[tg][n])))
                  for tg, builds, takes in self.general_targets
                  if builds or takes and (self.empty_gates[tg] is None or self.empty_gates[tg][n]))
            for n in range(self.deck.size + 1)]
        # Per pile, for a run source that gives its top card alone and runs no rule to do so (one card at most, every
        # count allowed: a single card listed among runs for the order of the moves), its runs by the kind of its top,
        # which `_all_moves` reads off by `top_key` rather than work them out (`_kept_runs`); else None.
        kinds, by_one = max(self.deck.kind) + 1, self.general_by_count[1]
        self.single_runs = [None] * self.P
        for p, limit, _, counts, _ in self.run_plan if self.SINGLE_RUNS else ():
            if limit == 1 and counts is None:
                self.single_runs[p] = [[((self.P + p) * self.P, k, 1, by_one)] for k in range(kinds)]
        # Whether every card move is one top card onto a pile the index alone judges, or a space (no runs, windows,
        # clauses beyond a build rule's table, hands or refills): then `playout` may make moves inline, without undo
        # records.
        # Spaces whose empty rule has clauses beyond its table are allowed (`_plain_playout` lists the moves the general
        # way while one is empty: `checked_space_groups`), clauses beyond a build rule's table are not.
        # So are general targets that take cards only into spaces (`space_targets`), listed the same way.
        self.checked_space_groups = checked_spaces + [tg for tg in self.space_targets if tg not in checked_spaces]
        general_builds = any(builds for _, builds, _ in self.general_targets)
        self.plain_moves = not (self.run_sources or self.discard_sources or general_builds or checked_builds
                                or self.any_hand or any(self.refill_of) or rules.reads_history or self.reach_sources)
        # Filters by move number before the compulsory moves, and a step's automatic moves, are matched (`_matching`).
        self.compulsory_masks = pattern_masks(self.P, self.window_span, rules.group_of, rules.compulsory)
        step_auto = [p for p in rules.auto if p.trigger == "each-move"]
        self.step_auto_masks = pattern_masks(self.P, self.window_span, rules.group_of, step_auto)
        self.step_auto_bound = stock_bound(self.P, step_auto)  # deals and redeals alone may match (`_auto_moves`)
        self._build_playout_tables()

    # Whether a source's runs are tried only up to the counts its take rule's leading count clauses let through
    # (`take_limit`; off: up to `take_max`, which a test compares with).
    TAKE_LIMITS = True

    # Whether a run source that gives its top card alone has its runs read off by its top (`single_runs`; off:
    # worked out and kept as any source's, which a test compares with).
    SINGLE_RUNS = True

    # Whether `_class_kinds` may let kinds that every pile files alike share their index lists (off: a list per kind,
    # which a test compares with).
    SHARE_KIND_LISTS = True

    def _class_kinds(self, kinds: int) -> None:
        """Kinds of card that every pile files alike share one `dests` list and one `checked` list, and a pile is
        filed under one kind of each class (`filed_under`, `space_filed_under`), so that `_refresh` moves a pile
        between fewer lists: where a build reads the rank alone (Spider's \"down regardless of suit\") the four kinds
        of a rank are one class.

        Two kinds are filed alike when, for every pile, the tops under which it would take one are those under which
        it would take the other, and as a space it takes both or neither: then every list operation on one kind's
        list is made on the other's too, in the same order, so one list holds exactly what each would. Per kind, its
        class (`kind_class`); `class_count` classes."""
        # A group's piles are filed alike: one pile stands for each group, and the lists below are made per group.
        first_pile = {gi: p for p, gi in reversed(list(enumerate(self.gindex)))}
        signature: list[list] = [[] for _ in range(kinds)]
        for p in first_pile.values():
            tops: dict[int, list[int]] = {}
            for top, taken in enumerate(self.accepts_by_kind[p]):
                for k in taken:
                    tops.setdefault(k, []).append(top)
            for k in tops:
                signature[k].append((p, tuple(tops[k])))
            for k in self.space_kinds_of[p]:
                signature[k].append((p, None))
        if self.SHARE_KIND_LISTS:
            classes: dict[tuple, int] = {}
            self.kind_class = [classes.setdefault(tuple(sig), len(classes)) for sig in signature]
        else:
            self.kind_class = list(range(kinds))
        self.class_count = max(self.kind_class, default=-1) + 1
        if self.class_count == kinds:  # a class per kind: filed as the tables say
            self.filed_under, self.space_filed_under = self.accepts_by_kind, self.space_kinds_of
            return
        # One kind per class, the first of its kinds, stands for the class in the lists below.
        leads = [False] * kinds
        seen = set()
        for k, c in enumerate(self.kind_class):
            if c not in seen:
                seen.add(c)
                leads[k] = True
        by_group = {gi: (tuple(tuple(k for k in taken if leads[k]) for taken in self.accepts_by_kind[p]),
                         tuple(k for k in self.space_kinds_of[p] if leads[k]))
                    for gi, p in first_pile.items()}
        self.filed_under = [by_group[gi][0] for gi in self.gindex]
        self.space_filed_under = [by_group[gi][1] for gi in self.gindex]

    # Whether `_untabled_spaces` may file spaces as `checked` piles (off: every such space is judged the general way,
    # which a test compares with).
    FILE_UNTABLED_SPACES = True

    def _untabled_spaces(self, groups, targets) -> tuple:
        """The `empty_ok` tables, with a table letting every card through for the one group whose empty rule has
        clauses but none the ruleset tabulates (`require: source in waste`), when filing its spaces in `checked`
        lists lists the same moves in the same order as judging them as a general target (`_general_empties`).

        It does when that group is the only general target and no pile is filed in `checked` already: its spaces
        are then the only `checked` piles, filed in the order its `empties` list has them. Sources of single cards
        then become simple sources (`simple_sources`, whose moves come first): the same order when none of them
        comes after a run source in `source_info`. The rule's verdicts are those of the general way
        (`_checked_targets` runs the same clauses, keeps the same verdicts, notes the same failures). What is gained
        is the simple sources' listing, one index lookup each; so it is done only when there are some (runs of many
        cards are better judged the general way, which knows the counts an empty rule refuses outright)."""
        onto, empty_ok = self.onto, self.empty_ok
        general = [tg for tg in targets if onto[tg] is None or empty_ok[tg] is None]
        checked = any(groups[tg].build.residual and onto[tg] or groups[tg].empty.residual and empty_ok[tg]
                      for tg in targets)
        if not self.FILE_UNTABLED_SPACES or len(general) != 1 or checked:
            return empty_ok
        tg, empty = general[0], groups[general[0]].empty
        if onto[tg] is None or empty.card_table is not None or empty.pair_table is not None:
            return empty_ok
        simple = [info[1] == 1 and info[3] is None for info in self.source_info]
        if not any(simple) or any(simple[i] and not simple[i - 1] for i in range(1, len(simple))):
            return empty_ok
        tables = list(empty_ok)
        tables[tg] = b"\x01" * self.deck.size
        return tuple(tables)

    # Whether `_simple_sources` may make sources of single cards simple when general targets take cards into spaces
    # (off: they are listed as runs of one card, which a test compares with).
    SIMPLE_BESIDE_SPACE_TARGETS = True

    def _simple_sources(self) -> list:
        """The entries of `source_info` whose moves are listed by one index lookup (`simple_sources`): one card at a
        time, every count allowed. With general targets, only where every one of them takes cards into its spaces
        alone (its build rule is tabulated) and the simple sources come first in `source_info`: their moves are then
        the same, in the same order, as listing them as runs of one card (the index's lists, then each such group's
        spaces, `_space_targets`); those groups are `space_targets`, whose spaces `_all_moves` looks at only while
        one is empty."""
        single = [info[1] == 1 and info[3] is None for info in self.source_info]
        self.space_targets = []
        if not self.general_targets:
            return [info for info, one in zip(self.source_info, single) if one]
        if not self.SIMPLE_BESIDE_SPACE_TARGETS or any(builds for _, builds, _ in self.general_targets) \
                or any(single[i] and not single[i - 1] for i in range(1, len(single))):
            return []
        simple = [info for info, one in zip(self.source_info, single) if one]
        if simple:
            self.space_targets = [tg for tg, _, takes in self.general_targets if takes]
        return simple

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
        # Per pile, the lists it is filed in with cards, and as a space: `checked` when its group's rule has clauses
        # beyond its table (`build_residual`, `space_residual`), else `dests`.
        lists = (self.dests, self.checked)
        self.build_lists = list(map(lists.__getitem__, self.build_checked_of))
        self.space_lists = list(map(lists.__getitem__, self.space_checked_of))
        self.open_spaces: list[int] = []
        self.empties_of = list(map(self.empties.__getitem__, self.gindex))
        self.top_key = [None] * self.P
        # Per simple source: the destination list of its top card's kind (the empty tuple when it has no face-up
        # card), kept up to date by `_refresh`, so move generation can pass over the sources with nowhere to go
        # (most of them, most of the time) in one C-level pass: itertools.compress.
        self.source_dests: list = [()] * (len(self.simple_sources) + 1)
        # Per pile, the runs that may leave it (`_runs`) while it stays as it is, for the sources whose runs depend on
        # their own cards alone (`run_plan`); None when not known. `_refresh` forgets a pile's.
        self.runs: list = [None] * self.P
        self.window_kept: list = [None] * len(self.discard_sources)  # per discard source, see `_matched_windows`
        self.gates_now: dict | None = None  # per group, whether its space gates hold, judged once a listing
        self._file_all()

    def _file_all(self) -> None:
        """File every pile in the (empty) index, in order, as `_refresh` re-files each in turn when none is filed (no
        top to take it out from first): in one pass, with the tables read once."""
        piles, down, kind, top_key, P = self.piles, self.down, self.kind, self.top_key, self.P
        self.dirty.update(range(P))
        self.runs[:] = [None] * P
        if self.any_hand:
            for p in compress(range(P), self.top_up_of):
                down[p] = len(piles[p]) - 1 if piles[p] else 0  # a hand: only its top card lies face up
        dests, source_dests, slot = self.dests, self.source_dests, self.source_slot
        build_lists, filed_under = self.build_lists, self.filed_under
        space_lists, space_filed_under = self.space_lists, self.space_filed_under
        empties_of, open_of, open_spaces = self.empties_of, self.open_of, self.open_spaces
        for p, pile in enumerate(piles):
            if not pile:
                top_key[p] = -1
                source_dests[slot[p]] = ()
                empties_of[p].append(p)
                if open_of[p]:
                    open_spaces.append(p)
                lists = space_lists[p]
                for k in space_filed_under[p]:
                    lists[k].append(p)
            elif len(pile) > down[p]:
                top_key[p] = key = kind[pile[-1]]
                source_dests[slot[p]] = dests[key]
                lists = build_lists[p]
                for k in filed_under[p][key]:
                    lists[k].append(p)
            else:
                top_key[p] = NOT_INDEXED
                source_dests[slot[p]] = ()

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
                lists, takes = self.build_lists[p], self.filed_under[p]
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
                for k in self.filed_under[p][old]:
                    dests[k].remove(p)
            elif old == -1:
                self.empties_of[p].remove(p)
                if self.open_of[p]:
                    self.open_spaces.remove(p)
                dests = self.space_lists[p]
                for k in self.space_filed_under[p]:
                    dests[k].remove(p)
        if key >= 0:
            dests = self.build_lists[p]
            for k in self.filed_under[p][key]:
                dests[k].append(p)
        elif key == -1:
            self.empties_of[p].append(p)
            if self.open_of[p]:
                self.open_spaces.append(p)
            dests = self.space_lists[p]
            for k in self.space_filed_under[p]:
                dests[k].append(p)

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
            for k in self.filed_under[p][key]:
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
            for k in self.space_filed_under[p]:
                lst = lists[k]
                if lst[-1] != p:
                    lst.remove(p)
                    lst.append(p)
