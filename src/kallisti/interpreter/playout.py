"""Playouts: moves chosen one after another until the game ends, the one loop random play goes through."""

from __future__ import annotations

from itertools import compress

from kallisti.interpreter.move_index import NOT_INDEXED

EACH_MOVE = ("each-move",)  # the triggers of the automatic moves a step sets off (`Game._step`)


def dealt_runs(s: int, to: tuple) -> tuple:
    """The piles a deal from stock pile s puts its cards on, one card to each of `to` in turn, as (pile, how many
    cards it gets in a row): four cards together on each packet are one entry a packet. The stock itself, were it
    dealt onto, gets its cards one entry each (a card taken off and put back)."""
    runs: list = []
    for d in to:
        if runs and runs[-1][0] == d != s:
            runs[-1][1] += 1
        else:
            runs.append([d, 1])
    return tuple(map(tuple, runs))


class Playout:
    """The part of `Game` that plays a game out (`playout`), inline for rulesets of plain moves (`_plain_playout`)."""

    def _build_playout_tables(self) -> None:
        """What `_plain_playout` needs to know of the ruleset to skip work that cannot change anything."""
        rules = self.rules
        # Per pile: whether the win may read its group's size. After a move between piles of which it reads
        # neither, the win is as it was (it reads nothing else, when rules.win_sizes is not None).
        watched = rules.win_sizes
        self.win_sees = [watched is None or g in watched for g in self.gname]
        # Deals made inline (those where no card can be diverted), by stock pile: where the cards go (`dealt_runs`),
        # whether the win may change, and whether a card may land on a stock pile.
        self.plain_deals = {
            s: (dealt_runs(s, to), self.win_sees[s] or any(self.win_sees[d] for d in to),
                any(d in self.stock_piles for d in to))
            for s, to in enumerate(self.deal_to) if to is not None and not any(self.diverts[d] for d in to)}
        # Per pile, how a playout refills it once it is played out: (the stock, its cards as `plain_deals` has a
        # deal's for `_deal_inline`, or None where the pile's group may divert a card, and where `_deal_from` deals
        # them then); None for a pile never refilled.
        self.plain_refills = [None if refill is None else
                              (refill[0], None if self.diverts[p] else ((p, refill[1]),), (p,) * refill[1])
                              for p, refill in enumerate(self.refill_of)]
        # When every stock pile deals without a condition, never redeals, and no card moves onto or off it, the
        # stock's moves change only with a deal or a move made through `apply`: they are worked out only then.
        self.steady_stock = all(
            (always or not deals) and redeals is None and self.source_slot[s] == len(self.simple_sources)
            and not any(self.accepts_by_kind[s]) and not self.space_kinds_of[s] and not self.open_of[s]
            for s, deals, always, redeals in self.stock_info)

    def playout(self, choose, cap: int = 1000, blocked: bool = False) -> int:
        """Play moves picked by `choose(n)` (the index of the move among the `legal_moves`) until the game ends or
        `cap` moves; returns moves made. With `blocked`, the game also ends where `status` finds it blocked (a whole
        pass through the stock changed nothing), so that the moves made are those of a player who asks `status`
        before every move (as `kallisti simulate` does) and the game ends with the same `status`. The moves are those
        `play` would make, automatic ones included, but no step is recorded (`events`, `history`): a playout is never
        taken back."""
        made = 0
        rules = self.rules
        has_auto = any(p.trigger == "each-move" for p in rules.auto)
        if self.plain_moves and not has_auto:
            return self._plain_playout(choose, cap, blocked)
        all_moves = self._window_moves if self.windows_only else self._all_moves  # as `_all_moves` chooses
        compulsory, masks, matching = rules.compulsory, self.compulsory_masks, self._matching
        win, ctx = rules.win, self.ctx
        passes = self.redeal_positions if blocked else ()  # the positions before each redeal (see `status`)
        listed = None  # the legal moves where a step's automatic moves stopped: the position has not changed since
        # After a card move that changes no group size the win reads (when that is all it reads), it is as it was.
        sizes_only, sees, refill_of = rules.win_sizes is not None, self.win_sees, self.refill_of
        card_moves, windows, P = self._card_moves, self.discard_base, self.P
        first, redeals = P * P, min(2 * P, P * P)  # deals are numbered below P, redeals from P, card moves from first
        piles, down, sizes, flip, refresh = self.piles, self.down, self.state.sizes, self.flip, self._refiler()
        # Moves made inline, as `apply` makes them, but not while the game keeps its trail of the moves made (its own
        # `apply` notes them); deals and refills among them only where no card is diverted (`plain_deals`,
        # `plain_refills`), and redeals without their undo record.
        inline, deal, refills = self.trail is None, self._deal_inline, self.plain_refills
        deals = {s: (to, sees_deal) for s, (to, sees_deal, _) in self.plain_deals.items() if inline}
        check = True
        while made < cap:
            if check and win(ctx):
                break
            if listed is not None:
                moves = listed
            else:  # `legal_moves`, inline
                moves = all_moves()
                if compulsory and moves:
                    moves = matching(compulsory, moves, masks) or moves
            if not moves:
                break
            if rules.lose and self._lost(moves) is not None:
                break
            if passes and self._blocked(moves):
                break
            m = moves[choose(len(moves))]
            parts = card_moves.get(m) if m < windows else None  # a card move made before: decoded
            if parts is None and first <= m < windows:  # a card move first made here: decoded as `apply` does
                parts = card_moves[m] = self._card_move_parts(m)
            if m in deals:
                to, check = deals[m]  # whether the win may read a size it changes
                deal(m, to, refresh)
                self.moves_played += 1
            elif P <= m < redeals and inline:  # a redeal, without the copy of the position undo would need
                self._redeal(m - P, False)
                check = True
            elif parts is None or not inline:
                self.apply(m)
                parts = card_moves.get(m) if m < windows else None  # decoded by `apply` if a card move
                check = parts is None or not sizes_only or refill_of[parts[1]] is not None or \
                    parts[3] is not None and (sees[parts[1]] or sees[parts[2]])
            else:  # as `apply` makes it, without the undo record a playout never reads
                n, src, dst, gs, gd = parts
                pile = piles[src]
                if n == 1:
                    piles[dst].append(pile.pop())
                else:
                    piles[dst].extend(pile[-n:])
                    del pile[-n:]
                if down[src] and down[src] == len(pile) and flip[src]:
                    down[src] -= 1
                if gs is not None:
                    sizes[gs] -= n
                    sizes[gd] += n
                refresh(src)
                refresh(dst)
                self.moves_played += 1
                check = not sizes_only or gs is not None and (sees[src] or sees[dst])
                refill = refills[src]
                if refill is not None:  # the win may read the sizes a refill changes
                    check = True
                    if not pile:  # played out: its cards from the stock, as `apply` deals them
                        stock, to, dests = refill
                        if to is not None:
                            deal(stock, to, refresh)
                        else:  # a card may be diverted
                            self._deal_from(stock, dests)
            if has_auto:  # the step's automatic moves, as `play` makes them (no event, no undo record kept)
                self.relisted = None
                for _ in self._auto_moves(EACH_MOVE):
                    pass
                # Where they stopped with the moves listed, the win was judged there, and did not hold.
                listed, self.relisted = self.relisted, None
                check = listed is None
            made += 1
        return made

    def _deal_inline(self, m: int, to, refile) -> list:
        """A deal from stock pile m that diverts no card (`plain_deals`), made as `_deal_from` makes it, without its
        undo record: to each pile of `to` in turn its cards in a row (`dealt_runs`), while any are left, each pile
        re-filed after them (`refile`) and, as `_refile_run` leaves it, at the end of its lists when its top changed
        kind on the way and came back; then the stock, unless its top was face down and still is (nothing to re-file
        then). Returns the stock."""
        piles, sizes, gname, down = self.piles, self.state.sizes, self.gname, self.down
        stock, gs = piles[m], gname[m]
        for d, n in to:
            if not stock:
                break
            if n == 1:
                piles[d].append(stock.pop())
                sizes[gs] -= 1
                sizes[gname[d]] += 1
                refile(d)
                continue
            first = self.top_key[d]
            cards = stock[:-n - 1:-1]  # the top n cards (fewer if the stock runs out), in the order they are dealt
            del stock[-len(cards):]
            piles[d].extend(cards)
            sizes[gs] -= len(cards)
            sizes[gname[d]] += len(cards)
            refile(d)
            if self.top_key[d] == first and any(self.kind[c] != first for c in cards[:-1]):
                self._file_again(d)
        if down[m] > len(stock):
            down[m] = len(stock)
        if not (stock and self.top_key[m] == NOT_INDEXED and len(stock) == down[m]):
            refile(m)
        return stock

    def _refiler(self):
        """`_refresh`, for a playout: written out where a pile's top is face up before and after (its runs forgotten,
        the pile moved to its new top's lists), but for a hand, whose face-down cards `_refresh` counts again. The
        playout re-files piles unseen by `dirty`, so the key makers that read it start afresh (`key_owner`)."""
        refresh = self._refresh
        self.key_owner = None
        piles, down, kind, top_key, runs = self.piles, self.down, self.kind, self.top_key, self.runs
        dests, source_dests, slot = self.dests, self.source_dests, self.source_slot
        build_lists, filed_under, hand = self.build_lists, self.filed_under, self.top_up_of

        def refile(p: int) -> None:
            """Re-file pile p as `_refresh(p)` does."""
            if hand[p]:
                refresh(p)
                return
            runs[p] = None
            pile = piles[p]
            if pile and len(pile) > down[p]:
                key, old = kind[pile[-1]], top_key[p]
                if key == old:
                    return
                if old >= 0:  # one face-up top for another
                    top_key[p] = key
                    source_dests[slot[p]] = dests[key]
                    lists, takes = build_lists[p], filed_under[p]
                    for k in takes[old]:
                        lists[k].remove(p)
                    for k in takes[key]:
                        lists[k].append(p)
                    return
            refresh(p)
        return refile

    def _plain_playout(self, choose, cap: int, blocked: bool = False) -> int:
        """`playout` for rulesets of plain moves (see `plain_moves`) with no automatic moves after each move: the same
        moves in the same order as `legal_moves` gives them (`_all_moves`, then the compulsory ones when any
        exists), made as `apply` makes them, but inline and without undo records (a playout never undoes), which is
        most of the cost of a move in such a game.

        Inline: the moves while no space is open and none is filed in `checked` (the stock's, then the simple
        sources' as `_all_moves` finds them then), a card move, a deal that diverts no card, and `_refresh` where a
        pile's top is face up before and after (a plain ruleset files only spaces in `checked`, every face-up top
        in `dests`). Everything else (open or checked spaces, redeals, piles that empty or fill or turn a card up)
        takes the general path. The index lists stay the same objects throughout (`_reindex` empties them in
        place), so they are bound to local names once.
        """
        rules = self.rules
        self.key_owner = None  # the moves below re-file piles inline, unseen by `dirty`
        win, lose, ctx = rules.win, rules.lose, self.ctx
        first = self.P * self.P  # the first card move; a move of one card is (P + src) * P + dst
        piles, down, sizes = self.piles, self.down, self.state.sizes
        flip, kind, card_moves = self.flip, self.kind, self._card_moves
        top_key, dests, spaces, accepts = self.top_key, self.dests, self.open_spaces, self.filed_under
        sources, source_dests, source_slot = self.simple_sources, self.source_dests, self.source_slot
        all_moves, stock_moves, refresh, apply = self._all_moves, self._stock_moves, self._refresh, self.apply
        deal = self._deal_inline
        sees, plain_deals, steady_stock = self.win_sees, self.plain_deals, self.steady_stock
        sizes_only = rules.win_sizes is not None  # the win reads nothing but group sizes
        compulsory, compulsory_masks, matching = rules.compulsory, self.compulsory_masks, self._matching
        # Spaces filed in `checked` lists (their empty rule has clauses beyond its table): while one is empty, the
        # moves are listed the general way.
        checked_spaces = [self.empties[gi] for gi in self.checked_space_groups]
        # `playout(blocked=True)`: the positions before each redeal, where a redeal may have been made (see `status`)
        passes = self.redeal_positions if blocked and any(redeals is not None for *_, redeals in self.stock_info) else None

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
                if spaces or checked_spaces and any(checked_spaces):
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
                if compulsory and moves:  # as `legal_moves` has them: only the compulsory ones, when any exists
                    forced = matching(compulsory, moves, compulsory_masks)
                    if forced:
                        moves = forced
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
                    to, check, feeds_stock = plain_deals[m]
                    if feeds_stock or not deal(m, to, refile):
                        restock = True  # else the stock's moves are as they were, if steady
                else:
                    apply(m)  # a redeal, or a deal that may divert a card
                    check = restock = True
            return made
        finally:
            self.moves_played = start + made
