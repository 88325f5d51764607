"""Applying and undoing moves (card moves, discards, reach moves, deals, redeals), and a move's number decoded."""

from __future__ import annotations

from kallisti.interpreter.rng import STREAM_REDEAL, Rng
from kallisti.interpreter.state import recount


class MoveApplication:
    """The part of `Game` that makes a move (`apply`, which returns what undo needs) and takes it back
    (`undo_record`)."""

    def apply(self, m: int):
        """Make move m (assumed legal) and return what undo needs."""
        if m >= self.discard_base:  # before the decoded card moves: a search may have decoded a reach move there
            return self._take_window(m)
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

    def _window_of(self, m: int) -> tuple[int, int, int, int]:
        """(pile, first place, length, destination) of a window move: a reach move (`reach_window`), or a discard,
        whose cards go to its pile's discard target."""
        if m >= self.reach_base:
            return self.reach_window(m)
        p, start, length = self.window(m)
        return p, start, length, self._discard_target(p)

    def _take_window(self, m: int):
        """Take a window of cards out of its pile (the cards above it close up) onto another: a discard, or a reach
        move's cards from below a pile's top. A reach move's record is longer, so that undo never takes it for a
        card move of the same number a search decoded (`_card_moves`)."""
        if m >= self.reach_base:  # `_window_of`, inline: a discard is most of a game of discards' moves
            src, start, n, dst = self.reach_window(m)
        else:
            src, start, n = self.window(m)
            dst = self._discard_target(src)
        pile, down = self.piles[src], self.down
        self.piles[dst].extend(pile[start:start + n])
        del pile[start:start + n]
        flipped = False
        if down[src] and down[src] == len(pile) and self.flip[src]:
            down[src] -= 1
            flipped = True
        gs, gd = self.gname[src], self.gname[dst]
        if gs != gd:
            self.state.sizes[gs] -= n
            self.state.sizes[gd] += n
        self._refresh(src)
        self._refresh(dst)
        self.moves_played += 1
        return (m, flipped, start, n) if m >= self.reach_base else (m, flipped)

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
        kind, sizes, gname, tables = self.kind, st.sizes, self.gname, self.divert_tables
        # Cards dealt one after another onto the same pile re-file it once, after the last (`_refile_run`).
        last, first_key, changed = -1, None, False
        for d in dests:
            while stock:  # a diverted card does not fill the place: the next card is dealt there
                card = stock.pop()
                if self.diverts[d] and (tables[d] is None or tables[d][card]):  # a card its table keeps is not diverted
                    went = self.dealer.place(self.group_list[self.gindex[d]], card, d, "up")
                else:
                    st.piles[d].append(card)  # what `place` does with a face-up card its group cannot divert
                    went = d
                placed.append(went)
                sizes[gname[s]] -= 1
                sizes[gname[went]] += 1
                if went != last:
                    if last >= 0:
                        self._refile_run(last, first_key, changed)
                    last, first_key, changed = went, self.top_key[went], False
                elif not changed:
                    changed = kind[st.piles[went][-2]] != first_key  # the card under this one was the top a moment
                if went == d:
                    break
        if last >= 0:
            self._refile_run(last, first_key, changed)
        st.down[s] = min(st.down[s], len(stock))
        self._refresh(s)
        return tuple(placed)

    def _refile_run(self, p: int, first_key, changed: bool) -> None:
        """Re-file pile p after face-up cards were put on it one after another, as `_refresh` after each would have:
        `first_key` is its index key before the first, `changed` whether a card put on it but the last made a top of
        another kind than that key. Then it ends at the end of its lists, even when the last card's kind is that key
        again (where `_refresh` alone would leave it in place)."""
        self._refresh(p)
        if changed and self.top_key[p] == first_key:
            self._file_again(p)

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

    def _redeal(self, s: int, undoable: bool = True):
        """Gather the redeal's groups pile by pile onto pile s (under any cards still there), turned
        over so the first gathered card comes up first; shuffle if the ruleset says; deal groups again. The record
        holds the position before, for undo, unless not `undoable` (a playout never undoes)."""
        st = self.state
        g = self.group_list[self.gindex[s]]
        spec = g.redeal
        snapshot = ([list(p) for p in st.piles], list(st.down), dict(st.sizes), dict(st.redeals)) if undoable else None
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
        runs = self.runs[:]
        self._reindex()
        # The runs of the piles the redeal neither gathered nor dealt to are as they were (`_reindex` forgot them).
        groups = self.rules.groups
        moved = {s}.union(*(groups[name].piles for name in spec.gather), *(groups[name].piles for name in spec.deal))
        for p, found in enumerate(runs):
            if found is not None and p not in moved:
                self.runs[p] = found
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
        if m >= self.discard_base:
            src, start, n, dst = self._window_of(m)
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
