"""The moves of windows of cards: discards of adjacent cards, and cards taken from below a pile's top."""

from __future__ import annotations

from kallisti.interpreter.expr_types import SUM_SLOTS, Ctx, RuleRuntimeError
from kallisti.interpreter.rule_reads import MEMO_LIMIT, WindowSums


class WindowMoves:
    """The part of `Game` that lists the moves of windows of cards: from below a pile's top (`take_from`, reach moves)
    and the discards of adjacent cards a pile's `discard` rule lets go, and numbers them."""

    def _window_moves(self) -> list[int]:
        """`_all_moves` where no pile gives up its top cards (no simple source, no run source: Decade's line only
        discards windows of its cards): the stock's moves, then the windows' (discards, then reach moves)."""
        out = self._stock_moves()
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

    def _discard_moves(self, out: list[int]) -> None:
        """Every window of adjacent face-up cards some pile's discard rule lets go (lengths 1 up to the pile)."""
        piles, down, ctx = self.state.piles, self.state.down, self.ctx
        base, span, window_sums = self.discard_base, self.window_span, self.window_sums
        for i, (p, rule, _) in enumerate(self.discard_sources):
            ctx.pile = p
            sums = window_sums[i]
            if sums is not None:  # first, as most discard rules are read this way (a sum of values)
                if sums.counts is None or not self._matched_windows(out, i, p, rule, sums):
                    self._summed_windows(out, i, p, rule, self.window_gates[i])
                continue
            pile, memo, gate = piles[p], self.window_memos[i], self.window_gates[i]
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
        pile = self.piles[p]
        first, size, counts = self.down[p], len(pile), sums.counts
        if 2 in counts and 2 in counts[1:size - first + 1]:  # most rules fail for no count: no slice asked for
            return False
        kept = self.window_kept[i]  # (the pile's cards then, its first face-up card, prefix sum, starts, moves found)
        if kept is not None and kept[1] == first and (done := len(kept[0])) <= size and pile[:done] == kept[0]:
            _, _, total, starts, found = kept
        else:
            total, starts, found, done = 0, {0: [first]}, [], first  # prefix sum -> the places it is reached at
        if done < size:  # else the pile is as it was when its windows were found (or has no face-up card)
            term, totals, table, span = sums.terms[0], sums.totals, rule.card_table, self.window_span
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
