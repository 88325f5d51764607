"""Move generation: the legal moves of a position, read off the move indexes, with the rules that judge them."""

from __future__ import annotations

from itertools import compress

from kallisti.interpreter.expr_types import Ctx, RuleRuntimeError
from kallisti.interpreter.move_patterns import matches
from kallisti.interpreter.rule_reads import MEMO_LIMIT


class MoveGeneration:
    """The part of `Game` that lists the legal moves, judges them with the rules and decodes them; the moves of
    windows of cards (discards, cards from below a pile's top) are listed by `WindowMoves` (window_moves.py)."""

    def legal_moves(self) -> list[int]:
        """Every legal move in this position (only the compulsory ones, when any exists)."""
        moves = self._all_moves()
        if self.rules.compulsory and moves:
            forced = list(matches(self, self.rules.compulsory, moves, self.compulsory_masks))  # `_matching`
            if forced:
                return forced
        return moves

    def _matching(self, patterns, moves, masks) -> list[int]:
        """The moves of `moves` that match one of `patterns` (`_matches_any`), in their order (`_matches`)."""
        return list(matches(self, patterns, moves, masks))

    def _matches(self, patterns, moves, masks):
        """Yield the moves of `moves` that match one of `patterns`, in their order (`move_patterns.matches`)."""
        return matches(self, patterns, moves, masks)

    def _stock_moves(self) -> list[int]:
        """The deals and redeals allowed now, stock pile by stock pile: the start of every list of moves."""
        piles, P = self.piles, self.P
        out: list[int] = []
        for s, deals, always, redeal in self.stock_info:
            if deals and piles[s] and (always or self._may_deal(s)):
                out.append(s)
            if redeal is not None and self._redeal_ok(s, redeal):
                out.append(P + s)
        return out

    def _all_moves(self) -> list[int]:
        self.gates_now = None  # the space gates that hold here are judged afresh in every listing (`_gated_verdict`)
        if self.windows_only:
            return self._window_moves()
        out = self._stock_moves()
        append = out.append
        dests = self.dests
        top_key = self.top_key
        spaces = self.open_spaces  # empty piles that take any card (never a source: a source has cards)
        checked, has_checked, kept_checked = self.checked, self.has_checked, self.kept_checked
        # Where every rule filed in `checked` keeps its verdicts by source and count (`kept_checked`), a checked pile's
        # verdict is read off its memo, inline (a pile not judged yet is judged by `_checked_targets`, as ever).
        span, piles, build_memos, space_memos = self.window_span, self.piles, self.build_memo_of, self.space_memo_of
        refuses = self.refuses_single  # simple sources whose card every rule filed in `checked` refuses
        # Else, where every such rule keeps its verdicts by card (`watched_checked`), a simple source's are read off
        # alike, by its card, once the watches are known to stand in this position (`stale` until then).
        read_off, stale = kept_checked or self.watched_checked, self.watched_checked
        if stale:
            build_memos, space_memos = self.build_verdicts_of, self.space_verdicts_of
        # The general targets that take simple sources' cards into their spaces and have a space now, with its spaces
        # and its empty rule's verdicts kept by source and count (`space_counts`), read here without a call when the
        # rule has no memo by the cards (`_into_spaces` reads that first)
        space_targets = [(tg, self.empties[tg], self.space_counts[tg] if self.empty_memos[tg] is None else None)
                         for tg, _, _ in self.general_by_count[1] if self.empties[tg]] if self.space_targets else None
        if not (spaces or has_checked or space_targets):
            # Then a simple source's only moves are to its `source_dests` list: skip the empty ones at C speed
            # (compress stops at the end of simple_sources, before the spare slot).
            source_dests = self.source_dests
            for src, head, i in compress(self.simple_sources, source_dests):
                for d in source_dests[i]:
                    if d != src:
                        append(head + d)
        elif read_off and not (spaces or space_targets):
            # Then beside its `source_dests` list, a simple source's moves are to its checked list, read off.
            source_dests = self.source_dests
            for src, head, i in self.simple_sources:
                lst = source_dests[i]  # its top's `dests` list; () without a face-up top
                if lst:
                    for d in lst:
                        if d != src:
                            append(head + d)
                k = top_key[src]
                if k >= 0 and checked[k] and not refuses[src]:
                    if stale:
                        stale = self._stand_watches()
                    key = src * span + 1 if kept_checked else piles[src][-1]
                    self._read_off(out, checked[k], src, head, key, build_memos, space_memos)
        else:
            span = self.window_span
            sources = self.simple_sources
            if space_targets and not (spaces or has_checked):  # only the sources with somewhere to go (`_space_sources`)
                sources = self._space_sources(space_targets)
            for src, head, _ in sources:
                # One card at a time, every target tabulated: a single index lookup per source
                # (top_key holds the kind of the pile's face-up top card, or a negative marker).
                k = top_key[src]
                if k >= 0:
                    lst = dests[k]
                    if lst:
                        for d in lst:
                            if d != src:
                                append(head + d)
                    if spaces:
                        for d in spaces:
                            append(head + d)
                    if has_checked:
                        lst = checked[k]
                        if lst and not refuses[src]:
                            if read_off:  # each pile's kept verdict read off (a pile not judged yet is judged)
                                if stale:  # once a listing: the watches forget the verdicts a change made stale
                                    stale = self._stand_watches()
                                key = src * span + 1 if kept_checked else piles[src][-1]
                                self._read_off(out, lst, src, head, key, build_memos, space_memos)
                            else:
                                self._checked_targets(out, lst, src, 1, head)
                    if space_targets:
                        key = src * span + 1
                        for tg, empties, kept in space_targets:
                            ok = kept.get(key) if kept is not None else None
                            if ok:
                                for d in empties:
                                    append(head + d)
                            elif ok is None:  # not kept yet, or judged another way
                                self._into_spaces(out, tg, empties, src, 1, head)
        runs = self.runs
        only_dests = not (spaces or has_checked)  # the common case: each run's kind's `dests` list, nothing else
        idle = None  # whether runs' general targets add nothing here (`_targets_idle`), asked at the first that has some
        # Or, no space open, checked verdicts kept, general targets idle: `dests` and `checked` lists, read off, alone
        read_runs = has_checked and kept_checked and not spaces and self.READ_OFF_RUNS
        if read_runs and self.general_targets:  # asked here, once, rather than at the first run that has some
            idle = read_runs = self._targets_idle()
        memo, down, cards_key, refused = self.run_memo, self.down, self.cards_key, self.space_refused
        single = self.single_runs
        for src, limit, seq, counts, kept in self.run_plan:
            found = runs[src]
            if found is None:  # `_kept_runs`, whose memo is read here first
                one = single[src]  # or a top card's alone, by its kind
                if one is not None:
                    k = top_key[src]
                    found = one[k] if k >= 0 else ()
                elif kept and memo is not None:
                    found = runs[src] = memo.get((src, down[src], cards_key(piles[src])))
                if found is None:
                    found = self._kept_runs(src, limit, seq, counts) if kept else self._runs(src, limit, seq, counts)
            if only_dests:
                mark = len(out)
                for head, k, n, targets in found:
                    if targets:  # a run with general targets: this source's runs are listed in full, below, unless idle
                        if idle is None:
                            idle = self._targets_idle()
                        if not idle:
                            del out[mark:]
                            break
                    lst = dests[k]
                    if lst:
                        for d in lst:
                            if d != src:
                                append(head + d)
                else:
                    continue
            elif read_runs:
                for head, k, n, _ in found:
                    lst = dests[k]
                    if lst:
                        for d in lst:
                            if d != src:
                                append(head + d)
                    lst = checked[k]
                    if lst:
                        key = src * span + n
                        for d in lst:
                            if d != src:
                                ok = (build_memos[d] if piles[d] else space_memos[d]).get(key)
                                if ok:
                                    append(head + d)
                                elif ok is None:
                                    self._checked_targets(out, (d,), src, n, head)
                continue
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
                        if kept_checked:  # as for the simple sources above
                            key = src * span + n
                            for d in lst:
                                if d != src:
                                    ok = (build_memos[d] if piles[d] else space_memos[d]).get(key)
                                    if ok:
                                        append(head + d)
                                    elif ok is None:
                                        self._checked_targets(out, (d,), src, n, head)
                        else:
                            self._checked_targets(out, lst, src, n, head)
                if not targets:
                    continue
                if idle is None:
                    idle = self._targets_idle()
                if not idle and src * span + n not in refused:  # unless they refuse these cards for good
                    self._space_targets(out, targets, src, n, head)
        if self.discard_sources:
            self._discard_moves(out)
        if self.reach_sources:
            self._reach_moves(out)
        return out

    def _space_targets(self, out, targets, src: int, n: int, head: int) -> None:
        """The moves of the top n cards of pile src to `targets`, the general targets a run of n cards may go to (as
        `general_by_count` has them): onto the piles of those whose build rule is judged pile by pile, into the spaces
        of those that take cards into spaces."""
        key, refused = src * self.window_span + n, True  # whether every target refuses these cards for good
        for tg, builds, takes_spaces in targets:
            if builds:
                refused = False
                self._general_builds(out, tg, src, n, head)
            if takes_spaces:
                kept = self.space_counts[tg] if self.empty_memos[tg] is None else None  # `_into_spaces`, inline
                ok = kept.get(key) if kept is not None else None
                refused = refused and ok is False
                empties = self.empties[tg]
                if empties and (ok is None or ok):
                    self._into_spaces(out, tg, empties, src, n, head)
        if refused:  # a kept refusal by source and count is the rule's in any position: not asked again
            self.space_refused.add(key)

    def _into_spaces(self, out, tg: int, empties, src: int, n: int, head: int) -> None:
        """The moves of the top n cards of pile src into `empties`, the spaces of general target tg: judged by
        `_general_empties` unless the verdict on these cards, or from this source, is known already."""
        memo = self.empty_memos[tg]
        if memo is not None:
            ok = memo.get(self.cards_key(self.piles[src][-n:]))
        else:
            kept = self.space_counts[tg]
            ok = kept.get(src * self.window_span + n) if kept is not None else None
            if ok is None and self.gated_counts[tg] is not None:  # or by source and count where its gates hold
                ok = self._gated_verdict(tg, src, n)
        if ok is None:
            self._general_empties(out, tg, src, n, head)
        elif ok:
            for d in empties:
                out.append(head + d)

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
        if counts is None and table is not None:  # the common case (`any run`, `down in suit`), written out
            found.append(((P + src) * P, kind[pile[-1]], 1, by_count[1]))
            stride, n = seq.stride, 2
            while n <= limit and table[pile[1 - n] * stride + pile[-n]]:
                found.append(((n * P + src) * P, kind[pile[-n]], n, by_count[n]))
                n += 1
            return found
        # A take rule's verdicts kept by the run's bottom card and the count (`take_cards`), or by the pile's shape
        # (`take_shapes`): looked up here, not through `_take_ok`.
        span = self.window_span
        cards = shapes = None
        if counts is False:
            gi = self.gindex[src]
            cards = self.take_cards[gi]
            if cards is None:
                shapes = self.take_shapes[gi]
                if shapes is not None:
                    shape = self._shape_key(src)
        n = 1
        while n <= limit:
            if n > 1 and seq is not None:
                if table is not None:
                    if not table[pile[-n + 1] * seq.stride + pile[-n]]:
                        break
                elif not self._sequence_ok(seq, pile, n):
                    break
            if counts is None:
                ok = True
            elif counts:
                ok = counts[n]
            elif cards is not None:
                ok = cards.get(pile[-n] * span + n)
                if ok is None:
                    ok = self._take_ok(src, n)
            elif shapes is not None:
                ok = shapes.get(shape + n)
                if ok is None:
                    ok = self._take_ok(src, n)
            else:
                ok = self._take_ok(src, n)
            if ok:
                found.append(((n * P + src) * P, kind[pile[-n]], n, by_count[n]))
            n += 1
        return found

    def _sequence_ok(self, seq, pile, n) -> bool:
        ctx = self.ctx
        ctx.card, ctx.top = pile[-n + 1], pile[-n]
        return self._allows(seq, ctx)

    def _shape_key(self, src: int) -> int:
        """Pile src and its shape (its size, the cards face down) as a `take_shapes` key, less the count taken."""
        span = self.window_span
        return ((src * span + len(self.piles[src])) * span + self.down[src]) * span

    def _take_ok(self, src, n) -> bool:
        gi = self.gindex[src]
        memo = self.take_cards[gi]  # the verdict by the run's bottom card and count, when that is all the rule reads
        if memo is not None:
            key = self.piles[src][-n] * self.window_span + n
            ok = memo.get(key)
            if ok is not None:
                return ok
        else:  # or by the pile, its shape and the count
            memo = self.take_shapes[gi]
            if memo is not None:
                key = self._shape_key(src) + n
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
        gindex, builds, empties = self.gindex, self.build_judges, self.empty_judges  # a rule, or its `GroupWatch`
        known: dict | None = None  # the verdicts of blind rules, by rule
        key = src * self.window_span + n  # a kept verdict's key (`build_counts`, `space_counts`)
        for d in piles:
            if d == src:
                continue
            target = st.piles[d]
            gi = gindex[d]
            if target:
                rule, blind, memo = builds[gi], self.blind_build[gi], self.build_counts[gi]
            else:
                rule, blind, memo = empties[gi], self.blind_empty[gi], self.space_counts[gi]
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
        gates = self.deal_gates[s]
        if gates is not None:  # it asks only whether some groups' piles are empty: read off the index's `empties`
            return all(verdicts[len(self.empties[gi])] for gi, verdicts in gates)
        ctx = self.ctx
        ctx.pile = s
        return self._allows(g.dealing, ctx)

    def _may_redeal(self, s: int) -> bool:
        """Whether pile s may redeal now: redeals are left, its condition holds, and there are cards to gather."""
        redeal = next((info[3] for info in self.stock_info if info[0] == s), None)
        return redeal is not None and self._redeal_ok(s, redeal)

    def _redeal_ok(self, s: int, redeal) -> bool:
        """`_may_redeal` for stock pile s that may ever redeal, from what `stock_info` keeps of it."""
        name, limit, gather, when = redeal
        st = self.state
        if limit > 0 and st.redeals[name] >= limit:
            return False
        if not any(map(st.sizes.__getitem__, gather)):  # at C speed: it runs at every listing
            return False
        ctx = self.ctx
        ctx.pile = s
        try:
            return bool(when(ctx))
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
