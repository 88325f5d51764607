"""The modifiers of a round at the table: which are in play, who declared them, and the questions they ask."""

from __future__ import annotations

from kallisti.interpreter.betting import BetError


class RoundModifiers:
    """The part of a Round that brings modifiers into play and asks about them (it reads the round's seats and cards)."""

    @property
    def declared(self) -> list[str]:
        """The ids of the modifiers in play, in the order they came into play."""
        return [mid for mid, _ in self.in_play]

    def declarer(self, mid: str, in_play=None) -> int | None:
        """The seat that declared modifier `mid` (None: not in play, or in play by itself)."""
        return dict(self.in_play if in_play is None else in_play).get(mid)

    def _allowed(self, m, seat: int | None = None) -> bool:
        """Whether modifier `m` may come into play now (declared by `seat`, if given): enabled, not in play yet, every
        `while` modifier in play, no `unless` one, and the seat has declared none of its `not_by` ones."""
        ids = set(self.declared)
        if not m.enabled or m.id in ids or not ids.issuperset(m.needs) or ids.intersection(m.unless):
            return False
        return seat is None or not any(s == seat and mid in m.not_by for mid, s in self.in_play)

    def _bring_in(self, m, seat: int | None = None, card: int | None = None) -> None:
        """Modifier `m` comes into play: by itself (an event `modifier`), or declared by `seat` showing `card`."""
        self.in_play.append((m.id, seat))
        if seat is None:
            self.events.append({"type": "modifier", "modifier": m.id})
        else:
            self.face_up[seat].add(card)  # a declared card is shown to the table
            self.events.append({"type": "declare", "seat": seat, "modifier": m.id, "cards": [card]})

    def _start_modifiers(self) -> None:
        """At the start of the round: the `after` modifiers the round before called for, then the `always` ones, each
        in ruleset order and checked against the modifiers brought in before it."""
        mods = self.rules.modifiers
        for m in [m for m in mods if m.after is not None and m.after in self.after] + [m for m in mods if m.always]:
            if self._allowed(m):
                self._bring_in(m)

    def _holding(self, seat: int, kind: int, among=None) -> int | None:
        """A card of `kind` in the seat's hand (or among the given cards), or None."""
        return next((c for c in (self.hands[seat] if among is None else among) if self.rules.deck.kind[c] == kind), None)

    def _compulsory(self, seat: int, cards) -> None:
        """The cards just given to `seat` bring in the `must` modifiers they are the card of: declared at once, face up,
        when their conditions hold now."""
        for m in self.rules.modifiers:
            if m.must and self._allowed(m, seat):
                card = self._holding(seat, m.declare, cards)
                if card is not None:
                    self._bring_in(m, seat, card)

    def _visible_modifiers(self) -> None:
        """Modifiers whose card lies face up on the table come into play by themselves (when their conditions hold)."""
        kind = self.rules.deck.kind
        shown = {kind[c] for s in range(self.players) if s not in self.folded for c in self.hands[s] if c in self.face_up[s]}
        for m in self.rules.modifiers:
            if m.visible is not None and m.visible in shown and self._allowed(m):
                self._bring_in(m)

    @property
    def showdown_order(self) -> list[int]:
        """The seats still in, in the order they lay their hands down at the showdown: from the Elder round to the
        dealer."""
        return [s for s in self.precedence[1:] + [self.dealer] if s not in self.folded]

    def _askable(self) -> list[tuple[int, str]]:
        """The (seat, modifier) pairs that may be asked now: a player still in holds the card of an optional declared
        modifier that may come into play by hir, and has not been asked about it yet. With `declarations: round`,
        every such player, the most senior first; with `showdown`, the players who have laid their hands down and the
        one whose turn it is, in the order they show. An `opening` modifier only while no hand is laid down."""
        active = [s for s in self.precedence if s not in self.folded]
        if len(active) < 2:
            return []
        if self.rules.table.declarations == "showdown":
            order = self.showdown_order
            turn = next((s for s in order if s not in self.laid), None)
            active = [s for s in order if s in self.laid or s == turn]
        return [(s, m.id) for s in active for m in self.rules.modifiers
                if m.declare is not None and not m.must and (s, m.id) not in self.asked and self._allowed(m, s)
                and not (m.opening and self.laid) and self._holding(s, m.declare) is not None]

    def _before_showdown(self) -> None:
        """Each player still in who holds a modifier's card may declare it (when, `table.declarations` says); the hands
        are laid down; then the showdown."""
        self.asked = set()  # the declarations begin: nobody has been asked yet
        self.laid, self.reformed = {}, {}
        self._continue()

    def _continue(self) -> None:
        """What comes next before the showdown: a choice of replacement cards, a reveal, or the next declaration (the
        queue recomputed, since what is in play decides what may be declared); else the next hand laid down, and at
        last the showdown."""
        self._visible_modifiers()  # a declared, compelled or revealed card may be face up now
        self._reform()
        if self.offer:
            self.phase = "choose"
            return
        self.revealing = [s for s in self.revealing if s not in self.folded and self._face_down(s)]
        if self.revealing:
            self.phase = "reveal"
            return
        while True:
            self.queue = self._askable()
            if self.queue:
                self.phase = "declare"
                return
            turn = next((s for s in self.showdown_order if s not in self.laid), None)
            if turn is None:
                self.phase = "showdown"
                return
            self._lay_down(turn)

    def _lay_down(self, seat: int) -> None:
        """The seat lays hir hand down: it is arranged under the rules that apply to it now (see `reform`). With
        `declarations: round` every hand is laid down at once, after the declarations, and nobody is told."""
        self.laid[seat] = self.entries_for(seat)
        if self.rules.table.declarations == "showdown":
            self.events.append({"type": "lay-down", "seat": seat, "cards": list(self.hands[seat])})

    def _reform(self) -> None:
        """With `reform: once`, the first change to the rules of a hand already laid down lets it be arranged again,
        under the rules as they then are; later changes judge that arrangement as it lies."""
        if self.rules.table.reform != "once":
            return
        for seat, entries in self.laid.items():
            if seat not in self.reformed and seat not in self.folded and self.entries_for(seat) != entries:
                self.reformed[seat] = self.entries_for(seat)

    def arranged_under(self, seat: int) -> tuple:
        """The modifier parts under which `seat`'s hand is arranged at the showdown (its rules judge the arrangement):
        its rules now, unless `reform` keeps the arrangement it was laid down with (or arranged again in, once)."""
        reform = self.rules.table.reform
        if reform == "always" or seat not in self.laid:
            return self.entries_for(seat)
        return self.laid[seat] if reform == "never" else self.reformed.get(seat, self.laid[seat])

    @property
    def declaring(self) -> str | None:
        """The modifier the seat asked to `declare` may bring into play."""
        return self.queue[0][1] if self.phase == "declare" else None

    def _declare(self, seat: int, yes: bool) -> None:
        mid = self.queue.pop(0)[1]
        self.asked.add((seat, mid))
        if yes:
            m = self.modifiers[mid]
            card = self._holding(seat, m.declare)
            self._bring_in(m, seat, card)
            if m.compel is not None:
                self._compel(seat, m)
            if m.replace and self.next < len(self.pack):
                # The card is laid beside the player; the next cards are offered for its place.
                self.hands[seat].remove(card)
                self.face_up[seat].discard(card)
                self.beside.append(card)
                self.offer = self.pack[self.next:self.next + m.replace]
                self.next += len(self.offer)
                self.choosing = seat
        self._continue()

    def _compel(self, seat: int, m) -> None:
        """The player still in who holds the compelled card lays it face up, and every other player still in but the
        declarer is then to reveal a face-down card; when nobody holds it, the modifier's `unheld` changes apply."""
        holder = next((s for s in self.precedence if s not in self.folded and self._holding(s, m.compel) is not None), None)
        if holder is None:
            self.unheld.add(m.id)
            self.events.append({"type": "unheld", "modifier": m.id})
            return
        card = self._holding(holder, m.compel)
        self.face_up[holder].add(card)
        self.events.append({"type": "compelled", "seat": holder, "cards": [card]})
        self.revealing = [s for s in self.precedence if s not in self.folded and s not in (seat, holder)]

    def _face_down(self, seat: int) -> list[int]:
        """The seat's cards that lie face down."""
        return [c for c in self.hands[seat] if c not in self.face_up[seat]]

    def _reveal(self, seat: int, card: int) -> None:
        """Lay one face-down card of the seat's own hand face up (the reveal a `compel` asks for)."""
        if card not in self._face_down(seat):
            raise BetError("reveal a card of your own hand that lies face down")
        self.revealing.pop(0)
        self.face_up[seat].add(card)
        self.events.append({"type": "reveal", "seat": seat, "cards": [card]})
        self._continue()

    def _choose(self, seat: int, card: int) -> None:
        """Take one of the offered cards into the hand, face down; the others go to the discards."""
        if card not in self.offer:
            raise BetError("choose one of the cards offered")
        self.hands[seat].append(card)
        self.discards += [c for c in self.offer if c != card]
        self.events.append({"type": "choose", "seat": seat, "offered": len(self.offer)})
        self.offer, self.choosing = [], None
        self._compulsory(seat, [card])
        self._continue()
