"""A game's rules changed during play, and the trail of moves it keeps while its rules read them."""

from __future__ import annotations

from dataclasses import dataclass

from kallisti.interpreter.history import Trail
from kallisti.interpreter.moves_apply import MoveApplication
from kallisti.interpreter.state import Dealer


@dataclass(frozen=True)
class RuleStep:
    """A rule change in a game's history: the rules before and after, so undo and redo can step over it."""

    before: object
    after: object


class LayoutChanged(Exception):
    """New rules whose deck or piles differ from the position on the table: they wait for the next deal."""


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


class LiveRules:
    """The part of `Game` that swaps its rules in play (`change_rules`, undone and redone as a `RuleStep`) and keeps
    the moves made for rules that read them (`trail`)."""

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
        from kallisti.located import plain

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
        record = MoveApplication.apply(self, m)  # the class's: this game's own `apply` is this method
        P, piles, trail = self.P, self.state.piles, self.trail
        if m >= self.discard_base:
            src, _, n, dst = self._window_of(m)
            trail.note("move" if m >= self.reach_base else "discard", src, dst, tuple(piles[dst][-n:]), False)
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
        MoveApplication.undo_record(self, record)
        self.trail.take_back()

    def _forks_back(self):
        """A fork of this game, yielded as it is and again after each step of the history is taken back on it, the
        last step first: its position goes back to where the history starts, this game is left as it was. A rule
        change is taken back as rules alone, and the fork keeps no trail (no trail could follow the rules back
        through a change that began or stopped reading the moves)."""
        twin = self.fork()
        twin._keep_trail(False)
        yield twin
        for step in reversed(self.history):
            for rec in reversed(step):
                if isinstance(rec, RuleStep):
                    twin._set_rules(rec.before)
                else:
                    twin.undo_record(rec)
            yield twin

    def _trail_from_history(self) -> Trail:
        """The trail of the moves in the undo history, for rules that begin to read moves in the middle of a game (a
        rule change): made again on a fork taken back to where the history starts."""
        for twin in self._forks_back():
            pass  # to where the history starts
        twin._keep_trail(True)
        for step in self.history:
            for rec in step:
                if isinstance(rec, RuleStep):
                    twin._set_rules(rec.after)
                else:
                    twin.apply(rec[0])
        return twin.trail
