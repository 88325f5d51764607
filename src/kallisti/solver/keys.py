"""Position keys for the solver: a position's canonical key, kept up to date pile by pile as moves are made and undone.

The key (docs/solver.md, "Canonical key") is bytes: the redeals that matter, then each group in turn, its piles'
cards written as kinds (so twin cards are alike), with each pile's face-down count; the piles of a group the rules
treat alike are sorted, so that the order in which they were filled does not count; a sealed pile (`sealed_piles`:
no card leaves it, and no rule reads the order of its cards below the top) is written as its cards sorted, then its
top card. A move changes two piles, so
the key is not rebuilt from every pile at each position: the game notes the piles it re-files (`Game.dirty`, filled
by `_refresh`, which every move, deal, redeal and undo calls for each pile it changes), and only those are keyed
again. The bytes are those a key built from every pile would have.

The key a move would lead to can also be told without making the move (`after_move`), from the parts of the key of
the position it is made in: the search passes over the moves that lead to a position already searched, and when it
does make a move whose key was told, the key of the position reached is taken as told (`adopt`). What the key maker
keeps of a position is a few lists it never changes once a key is made of them, so a search that comes back to a
position puts back the lists it saved there (`saved`, `restore`) instead of keying any pile again.
"""

from __future__ import annotations

import weakref
from bisect import insort

from kallisti.errors import KallistiError, Pos
from kallisti.grammar.expressions import Attr, Name, Quant, parse_expression

_BYTE = [bytes((i,)) for i in range(256)]
PILE_SEP, GROUP_SEP = b"\xff", b"\xfe"  # a kind is below 250, so neither separator is ever a card
SEALED_KEPT = 1 << 14  # sealed piles' kinds `_sealed_part` keeps written before it forgets them


class PositionKeys:
    """The canonical key of one game's position, under the groups and kind table of the search's `_Shape`.

    `key()` is right after any change the game made through its moves, undos, redeals, `_refresh` and `_reindex`: a
    key maker that was not the last to read the game's `dirty` piles (another one was, or a playout moved cards
    inline) builds the key from every pile again.

    What it keeps of a position — the key, its parts, each pile's kinds and share of its part, each alike group's
    shares sorted — is a handful of lists that are replaced, never changed in place, once a key is made of them: so
    the lists themselves are a position's state (`saved`), and coming back to a position is putting them back
    (`restore`), whatever was keyed in between.
    """

    def __init__(self, game, groups: list[tuple[range, bool]], kind_table: bytes | None, redeal_caps: list,
                 home: frozenset = frozenset(), sealed: frozenset = frozenset()):
        self.game = game
        # Per pile: whether it is sealed (no card leaves it, and the rules read of it only its top card, its size and
        # which cards it holds; `sealed_groups`): it is written as its cards in sorted order, then its top card, so
        # that the orders in which the same cards reached it are one position.
        self.sealed = [p in sealed for p in range(game.P)]
        self.sealed_parts: dict[bytes, bytes] = {}  # a sealed pile's kinds -> as the key writes them (`_sealed`)
        self.table = kind_table
        # Redeals done count only while some are left (with unlimited redeals, not at all), unless a redeal shuffles:
        # each shuffle of a deal is different. A group whose cap is 0 always writes "0".
        self.caps = redeal_caps
        self.varying = any(cap for _, cap in redeal_caps)
        # The key's parts: the redeals, then per group one part (alike piles) or two (cards, then face-down counts).
        self.parts: list[bytes] = [b""]
        self.groups: list[tuple[range, bool, int]] = []  # per group: its piles, whether alike, its first part's place
        self.group_of = [0] * game.P
        for gi, (piles, alike) in enumerate(groups):
            self.groups.append((piles, alike, len(self.parts)))
            self.parts += [b""] if alike else [b"", b""]
            for p in piles:
                self.group_of[p] = gi
        self.alike = [self.groups[gi][1] for gi in self.group_of]
        # Per pile: its group, whether alike, the place of the group's part, whether sealed, and the group's piles.
        self.where = [(gi, self.groups[gi][1], self.groups[gi][2], self.sealed[p], self.groups[gi][0].start,
                       self.groups[gi][0].stop) for p, gi in enumerate(self.group_of)]
        self.down = game.state.down  # the game's lists, changed in place
        # The places in `parts` of the cards of the groups the win needs every card in (see `home_part`), and
        # whether each writes its piles alike (sorted, each with its face-down count) or in place.
        home_groups = sorted({self.group_of[p] for p in home})
        self.home_at = [self.groups[gi][2] for gi in home_groups]
        self.home_tag = bytes(int(self.groups[gi][1]) for gi in home_groups)
        self.cards: list[bytes] = [b""] * game.P  # per pile: its cards as kinds
        # Per pile: its share of its group's part (its kinds, and its face-down count when the piles are alike).
        self.pile_part: list[bytes] = [b""] * game.P
        self.members: list[list[bytes]] = [[] for _ in groups]  # per alike group: its piles' parts, sorted
        self.last: bytes | None = None
        # `after_move` can tell the key a move leads to when the step is the move alone (no automatic move after it,
        # no hand whose faces the engine sets) and the key is bytes; the deals it tells: from a stock pile, one card
        # to each of distinct piles, none diverted.
        self.predicts = (kind_table is not None and not game.step_auto and not game.any_hand and game.trail is None
                         and all(isinstance(r, range) and r.step == 1 for r, _ in groups))
        self.deals = {s: to for s, to in enumerate(game.deal_to) if to is not None and len(set(to)) == len(to)
                      and s not in to and not any(game.diverts[d] for d in to)}

    def _redeals(self) -> bytes:
        redeals = self.game.state.redeals
        return ",".join([str(min(redeals[name], cap)) for name, cap in self.caps]).encode()

    def key(self) -> bytes | tuple:
        game = self.game
        if self.table is None:  # card ids beyond a byte: the exact state
            return game.state.key()
        dirty = game.dirty
        if game.key_owner is not self:
            game.key_owner = self
            dirty.clear()
            self._rebuild()
        elif dirty:
            self._update(dirty)
            dirty.clear()
        elif self.last is not None and not self.varying:
            return self.last
        if self.varying:
            redeals = self._redeals()
            if redeals != self.parts[0]:
                self.parts = self.parts[:]  # a new list: a saved state keeps the one it had
                self.parts[0] = redeals
        self.last = key = GROUP_SEP.join(self.parts)
        return key

    def _update(self, dirty) -> None:
        """Key again the piles in `dirty`, and the parts of their groups (in new lists: see the class)."""
        st = self.game.state
        piles, down, table = st.piles, st.down, self.table
        alike, group_of, sealed = self.alike, self.group_of, self.sealed
        self.cards = cards = self.cards[:]
        self.pile_part = pile_part = self.pile_part[:]
        self.parts = parts = self.parts[:]
        members = None
        others = None  # groups of piles not alike, whose parts are written again once each
        for p in dirty:
            gi = group_of[p]
            cards[p] = kinds = bytes(piles[p]).translate(table)
            if sealed[p]:
                kinds = self._sealed_part(kinds)
            if alike[p]:
                new = kinds + _BYTE[down[p]]
                old = pile_part[p]
                if new != old:
                    pile_part[p] = new
                    if members is None:
                        self.members = members = self.members[:]
                    members[gi] = group = members[gi][:]
                    group.remove(old)
                    insort(group, new)
                    parts[self.groups[gi][2]] = PILE_SEP.join(group)
            else:
                pile_part[p] = kinds
                if others is None:
                    others = {gi}
                else:
                    others.add(gi)
        if others:
            for gi in others:
                self._write_group(gi)

    def _write_group(self, gi: int) -> None:
        """The parts of a group whose piles are not alike: its piles' kinds in place, then their face-down counts
        (into `parts`, a list no saved state holds)."""
        pile_range, _, at = self.groups[gi]
        self.parts[at] = PILE_SEP.join(self.pile_part[pile_range.start:pile_range.stop])
        self.parts[at + 1] = bytes(self.game.state.down[pile_range.start:pile_range.stop])

    def _rebuild(self) -> None:
        """Every pile keyed afresh, into new lists."""
        st = self.game.state
        piles, down, table = st.piles, st.down, self.table
        self.cards = cards = [b""] * len(piles)
        self.pile_part = pile_part = [b""] * len(piles)
        self.members = members = [[] for _ in self.groups]
        self.parts = [b""] * len(self.parts)
        for gi, (pile_range, alike, at) in enumerate(self.groups):
            for p in pile_range:
                cards[p] = pile_part[p] = bytes(piles[p]).translate(table)
                if self.sealed[p]:
                    pile_part[p] = _sealed(cards[p])
            if alike:  # each pile with its face-down count, sorted
                for p in pile_range:
                    pile_part[p] += _BYTE[down[p]]
                members[gi] = sorted([pile_part[p] for p in pile_range])
                self.parts[at] = PILE_SEP.join(members[gi])
            else:
                self._write_group(gi)
        self.parts[0] = self._redeals()

    def _sealed_part(self, kinds: bytes) -> bytes:
        """`_sealed(kinds)`, kept by the kinds: a sealed pile takes the same few runs of kinds again and again."""
        shown = self.sealed_parts.get(kinds)
        if shown is None:
            if len(self.sealed_parts) >= SEALED_KEPT:
                self.sealed_parts.clear()
            shown = self.sealed_parts[kinds] = _sealed(kinds)
        return shown

    def home_part(self) -> bytes | None:
        """The cards of the home piles, as this position's key writes them (pile by pile, as kinds), after a byte a
        group that says how it writes them; None when the key's parts are not this position's."""
        game = self.game
        if game.key_owner is not self or game.dirty or self.last is None or not self.home_at:
            return None
        if len(self.home_at) == 1:
            return self.home_tag + self.parts[self.home_at[0]]
        return self.home_tag + GROUP_SEP.join([self.parts[at] for at in self.home_at])

    # -- coming back to a position -------------------------------------------------------------
    def saved(self) -> tuple | None:
        """This position's state, for `restore` to come back to its key without keying a pile again, or None when
        the parts are not this position's (piles changed since the last key, or another maker keyed the game)."""
        game = self.game
        if game.key_owner is not self or game.dirty or self.last is None:
            return None
        return self.parts, self.cards, self.pile_part, self.members, self.last

    def restore(self, state: tuple) -> None:
        """Come back to the state `saved` gave, for a game that is back in the position it was saved in (moves made
        and taken back since): the piles it re-filed meanwhile are as they were then. (When another maker keyed the
        game since, the next key is built afresh all the same.)"""
        self.parts, self.cards, self.pile_part, self.members, self.last = state
        if self.game.key_owner is self:
            self.game.dirty.clear()

    # -- the key after a move -----------------------------------------------------------------
    def after_move(self, m: int) -> bytes | None:
        """The key of the position move m (legal here) leads to, worked out without making it; None when it cannot
        be told so. It is told for a card move (no pile refilled) and for a deal of one card to each of distinct
        piles, none diverted, from a stock whose cards all lie face down (as `Game.pass_over` takes them), when
        the step is the move alone and the key is bytes (`predicts`)."""
        told = self.told(m)
        return None if told is None else told[0]

    def told(self, m: int) -> tuple | None:
        """`after_move` with what `adopt` needs: (key, its parts, the piles changed (pile, kinds, part, pile, kinds,
        part...), the alike groups changed (group, its piles' parts sorted, group...))."""
        game = self.game
        parts = game._card_moves.get(m)
        if parts is None:
            if not self.predicts:
                return None
            if m < game.P:
                return self._told_deal(m)
            if m < game.P * game.P or m >= game.discard_base:
                return None
            parts = game._card_moves[m] = game._card_move_parts(m)
        elif not self.predicts:
            return None
        if game.key_owner is not self or game.dirty:
            self.key()  # the parts of this position's key, up to date
        n, src, dst, _, _ = parts
        cards = self.cards
        kinds = cards[src]  # as many as the pile's cards
        left = len(kinds) - n
        if not left and game.refill_of[src] is not None:
            return None
        d = self.down[src]
        if d and d == left and game.flip[src]:
            d -= 1  # as `apply` turns the card below up
        return self._two(src, kinds[:left], d, dst, cards[dst] + kinds[left:])

    def _told_deal(self, s: int) -> tuple | None:
        to = self.deals.get(s)
        if to is None:
            return None
        game = self.game
        if game.key_owner is not self or game.dirty:
            self.key()
        down = game.state.down
        left = len(game.state.piles[s])
        if not left or down[s] != left:
            return None
        k = min(len(to), left)
        stock = self.cards[s]
        left -= k  # the stock keeps its bottom cards, face down; its top card goes to the first pile, the next...
        if k == 1:
            return self._two(s, stock[:left], left, to[0], self.cards[to[0]] + stock[left:])
        changes = [(s, stock[:left], left)]
        for i, d in enumerate(to[:k]):
            changes.append((d, self.cards[d] + stock[left + k - 1 - i:left + k - i], down[d]))
        return self._many(changes)

    def _two(self, src: int, src_kinds: bytes, src_down: int, dst: int, dst_kinds: bytes) -> tuple:
        """What `told` says of this position with src holding `src_kinds`, `src_down` of them face down, and dst
        holding `dst_kinds`, as many face down as now."""
        gs, alike_s, at_s, sealed_s, start_s, stop_s = self.where[src]
        gd, alike_d, at_d, sealed_d, start_d, stop_d = self.where[dst]
        pile_part = self.pile_part
        out = self.parts[:]
        shown = self._sealed_part(src_kinds) if sealed_s else src_kinds
        if alike_s:
            src_part = shown + _BYTE[src_down]
            group_s = self.members[gs][:]
            group_s.remove(pile_part[src])
            insort(group_s, src_part)
            if gs == gd:  # two piles of one alike group: the group written once
                dst_part = (self._sealed_part(dst_kinds) if sealed_d else dst_kinds) + _BYTE[self.down[dst]]
                group_s.remove(pile_part[dst])
                insort(group_s, dst_part)
                out[at_s] = PILE_SEP.join(group_s)
                return GROUP_SEP.join(out), out, (src, src_kinds, src_part, dst, dst_kinds, dst_part), (gs, group_s)
            out[at_s] = PILE_SEP.join(group_s)
        else:
            src_part = shown
            if stop_s - start_s == 1:
                out[at_s] = src_part
                if src_down != self.down[src]:
                    out[at_s + 1] = _BYTE[src_down]
            elif gs == gd:  # two piles of one group written in place
                dst_part = self._sealed_part(dst_kinds) if sealed_d else dst_kinds
                row = pile_part[start_s:stop_s]
                row[src - start_s], row[dst - start_s] = src_part, dst_part
                out[at_s] = PILE_SEP.join(row)
                if src_down != self.down[src]:
                    counts = self.down[start_s:stop_s]
                    counts[src - start_s] = src_down
                    out[at_s + 1] = bytes(counts)
                return GROUP_SEP.join(out), out, (src, src_kinds, src_part, dst, dst_kinds, dst_part), ()
            else:
                self._row(out, gs, at_s, src, src_part, src_down)
        dst_part = self._sealed_part(dst_kinds) if sealed_d else dst_kinds
        if alike_d:
            dst_part += _BYTE[self.down[dst]]
            group_d = self.members[gd][:]
            group_d.remove(pile_part[dst])
            insort(group_d, dst_part)
            out[at_d] = PILE_SEP.join(group_d)
            groups = (gs, group_s, gd, group_d) if alike_s else (gd, group_d)
        else:
            if stop_d - start_d == 1:
                out[at_d] = dst_part  # its face-down count is as it was
            else:
                row = pile_part[start_d:stop_d]
                row[dst - start_d] = dst_part
                out[at_d] = PILE_SEP.join(row)
            groups = (gs, group_s) if alike_s else ()
        return GROUP_SEP.join(out), out, (src, src_kinds, src_part, dst, dst_kinds, dst_part), groups

    def _row(self, out: list[bytes], gi: int, at: int, p: int, kinds: bytes, d: int) -> None:
        """Write into `out` the parts of group gi, whose piles are not alike, with pile p holding `kinds`, d of them
        face down."""
        pile_range = self.groups[gi][0]
        start, stop = pile_range.start, pile_range.stop
        if stop - start == 1:
            out[at] = kinds
            if d != self.down[p]:
                out[at + 1] = _BYTE[d]
            return
        row = self.pile_part[start:stop]
        row[p - start] = kinds
        out[at] = PILE_SEP.join(row)
        if d != self.down[p]:
            counts = self.down[start:stop]
            counts[p - start] = d
            out[at + 1] = bytes(counts)

    def _many(self, changes: list[tuple[int, bytes, int]]) -> tuple:
        """What `told` says of this position with each pile p of `changes` holding `kinds`, d of them face down."""
        out = self.parts[:]
        down = self.game.state.down
        touched: dict[int, list] = {}
        piles = []
        for p, kinds, d in changes:
            shown = self._sealed_part(kinds) if self.sealed[p] else kinds
            part = shown + _BYTE[d] if self.alike[p] else shown
            piles += (p, kinds, part)
            touched.setdefault(self.group_of[p], []).append((p, kinds, part, d))
        groups = []
        for gi, items in touched.items():
            pile_range, alike, at = self.groups[gi]
            if alike:
                group = self.members[gi][:]
                for p, _, part, _ in items:
                    group.remove(self.pile_part[p])
                    insort(group, part)
                out[at] = PILE_SEP.join(group)
                groups += (gi, group)
                continue
            start, stop = pile_range.start, pile_range.stop
            row, counts = self.pile_part[start:stop], None
            for p, _, part, d in items:
                row[p - start] = part
                if d != down[p]:
                    if counts is None:
                        counts = down[start:stop]
                    counts[p - start] = d
            out[at] = PILE_SEP.join(row)
            if counts is not None:
                out[at + 1] = bytes(counts)
        return GROUP_SEP.join(out), out, piles, groups

    # -- a move just made -------------------------------------------------------------------------
    def adopt(self, told: tuple) -> bool:
        """Take the key and parts `told` gave for the move the game has just made from the position it was told in
        (as the whole step, nothing else since): whether they were taken (else the next key is worked out from the
        piles the move changed)."""
        game = self.game
        dirty = game.dirty
        key, parts, piles, groups = told
        if game.key_owner is not self or 3 * len(dirty) > len(piles):
            return False
        cards = self.cards[:]
        pile_part = self.pile_part[:]
        if len(piles) == 6:  # a card move, or a deal of one card
            src, src_kinds, src_part, dst, dst_kinds, dst_part = piles
            cards[src] = src_kinds
            cards[dst] = dst_kinds
            pile_part[src] = src_part
            pile_part[dst] = dst_part
        else:
            for i in range(0, len(piles), 3):
                p = piles[i]
                cards[p] = piles[i + 1]
                pile_part[p] = piles[i + 2]
        if groups:
            self.members = members = self.members[:]
            members[groups[0]] = groups[1]
            for i in range(2, len(groups), 2):  # a second group, or more for a deal
                members[groups[i]] = groups[i + 1]
        self.cards, self.pile_part, self.parts, self.last = cards, pile_part, parts, key
        dirty.clear()
        return True


def _sealed(kinds: bytes) -> bytes:
    """A sealed pile as the key writes it: its cards' kinds in sorted order, then its top card's (nothing when empty);
    the last byte is the top, the rest the cards, so two piles written alike hold the same cards under the same top."""
    return bytes(sorted(kinds)) + kinds[-1:] if kinds else kinds


# What a rule may read of a sealed pile (or of its group) and still leave the order of its cards below the top
# unread; a quantifier over its cards reads which cards it holds, which the key keeps.
ORDERLESS = frozenset({"size", "empty", "count", "top"})
PROSE = frozenset({"description", "game", "explain", "because", "why", "message", "note", "notes", "name", "title"})


_sealed_of: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # ruleset -> its sealed piles


def sealed_piles(rules) -> frozenset:
    """The piles the key may write as their cards and top card alone (`_sealed`): those of groups no card leaves (a
    take rule that admits no card, and no stock turn, discard, refill or redeal that takes cards from them) whose
    rules, wherever written, read of them only their top card, their size, and which cards they hold. Worked out once
    a ruleset (it reads every rule's text: a hint's searches would otherwise pay for it each time)."""
    found = _sealed_of.get(rules)
    if found is None:
        found = _sealed_of[rules] = _sealed_piles(rules)
    return found


def _sealed_piles(rules) -> frozenset:
    from kallisti.solver.dead import drained_groups

    if rules.reads_history:
        return frozenset()  # the moves made name the piles and cards: no order of a pile's cards is a symmetry
    drained = drained_groups(rules)
    candidates = set()
    for name, group in rules.groups.items():
        take = group.take
        table = getattr(take, "card_table", None)
        gives = not take.never and (take.always or table is None or any(table[:rules.deck.size]))
        if not gives and name not in drained and not group.top_face_up:
            candidates.add(name)
    if not candidates:
        return frozenset()
    for text in _rule_texts(rules):
        candidates -= _orderful_reads(text, rules.groups)
        if not candidates:
            return frozenset()
    return frozenset(p for name in candidates for p in rules.groups[name].piles)


def _rule_texts(rules):
    """Every expression the ruleset's rules may hold: the clauses of its piles' rules, as compiled, and every string
    of its data but prose (a string that does not parse is not an expression and is passed over)."""
    for group in rules.groups.values():
        for rule in (group.build, group.empty, group.take, group.sequence, group.dealing, group.discard):
            for clause in getattr(rule, "clauses", ()) or ():
                yield clause.text
    todo = [rules.plain()]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            todo += [v for k, v in node.items() if k not in PROSE]
        elif isinstance(node, list):
            todo += node
        elif isinstance(node, str):
            yield node


def _orderful_reads(text: str, groups) -> set:
    """The groups whose piles `text` may read more of than ORDERLESS allows (all groups when it reads so of `pile`,
    whose group the text alone does not tell); none when the text is no expression."""
    try:
        node = parse_expression(text, Pos("<rule>"))
    except KallistiError:
        return set()
    if isinstance(node, Name):
        return set()  # a group named by a key (`role`, `to`), not read: a rule's value is a truth or a number
    out: set = set()

    def walk(node, env, as_value=True) -> None:
        if isinstance(node, Name):
            if as_value and (node.name in groups or node.name == "pile" or env.get(node.name)):
                out.update(groups if node.name == "pile" else {env.get(node.name) or node.name})
            return
        if isinstance(node, Attr):
            obj = node.obj
            if isinstance(obj, Name):
                n = obj.name
                bound = env.get(n)
                if node.name not in ORDERLESS and (bound or n in groups or n == "pile"):
                    out.update(groups if n == "pile" else {bound or n})
                return
            walk(obj, env)
            return
        if isinstance(node, Quant):
            it, bound = node.iterable, None
            if isinstance(it, Name) and it.name in groups:
                bound = it.name
            elif isinstance(it, Attr) and it.name == "piles" and isinstance(it.obj, Name) and it.obj.name in groups:
                bound = it.obj.name
            else:
                walk(it, env)
            walk(node.body, {**env, node.var: bound})
            return
        for child in getattr(node, "args", None) or getattr(node, "items", None) or ():
            walk(child, env)

    walk(node, {})
    return out
