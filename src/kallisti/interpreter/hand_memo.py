"""Memo keys of what a grouping's condition reads of its cards, so that sets of cards that read alike share an answer."""

from __future__ import annotations

from kallisti.errors import KallistiError
from kallisti.interpreter.cards import READ_TABLES
from kallisti.interpreter.hand_needs import order_free

# A condition that reads of a card anything a deck table does not hold (READ_TABLES: `identity`, which physical card)
# keeps memo keys of the cards' kinds.
BY_LOOKS = "looks"  # the first item of a memo key of what a whole condition reads (kind keys start with a tuple)
BY_PART = "part"  # the first item of a memo key of one `and` part of a condition (`MemoKeys.part_key`)


class MemoKeys:
    """The part of HandEvaluator that keys condition answers by what the conditions read (its rules and deck)."""

    def _read_looks(self) -> None:
        """For each simple grouping whose condition reads its cards in any order and only through attributes the deck
        holds (`order_free`), the tables its whole condition reads, and those each `and` part reads."""
        self._look_tables: dict[str, tuple | None] = {}  # grouping id -> the deck tables its condition reads, or None
        self._part_tables: dict[str, list | None] = {}  # grouping id -> for each `and` part, the tables it reads
        # (tables, card) -> what they hold of the card: as many as the rules' parts and the deck's cards (stand-ins too)
        self._look_of: dict[tuple, tuple] = {}
        for g in self.simple:
            try:
                free = order_free(g.text)
            except KallistiError:
                free = False
            tables = [_tables(r) for r in (g.reads, *(reads for _, reads in g.parts))]
            free = free and None not in tables
            self._look_tables[g.id] = tables[0] if free else None
            self._part_tables[g.id] = tables[1:] if free else None

    def _looks(self, cards, wild) -> dict[str, list]:
        """For each grouping with look keys: what its condition reads of each plain card of `cards` (with whether the
        card may be null in it), for memo keys of sets. Wild cards are keyed by their rule, as ever."""
        kind = self.deck.kind
        made: dict[tuple, list] = {}
        out = {}
        for g in self.simple:
            tables = self._look_tables[g.id]
            if tables is None:
                continue
            mode = self._nullable.get(g.id)
            looks = made.get((tables, mode))
            if looks is None:
                looks = made[(tables, mode)] = [
                    None if w is not None else self._look(tables, c) + ((kind[c] in mode,) if mode else ())
                    for c, w in zip(cards, wild)]
            out[g.id] = looks
        return out

    def _look(self, tables: tuple, card: int) -> tuple:
        """What the deck's `tables` hold of `card`, as a memo key sorts it (marks, a set, as a sorted tuple)."""
        key = (tables, card)
        found = self._look_of.get(key)
        if found is None:
            deck = self.deck
            found = self._look_of[key] = tuple(_canonical(getattr(deck, t)[card]) for t in tables)
        return found

    def _part_key(self, g, part: int, rest, wilds) -> tuple | None:
        """The memo key of `and` part `part` of g's condition (-1: the whole condition) judged for the plain cards
        `rest` and the wild cards of the rules `wilds`, or None where answers are keyed by kinds alone."""
        tables = self._look_tables[g.id] if part < 0 else (self._part_tables[g.id] or [None] * (part + 1))[part]
        if tables is None:
            return None
        key = (BY_PART, part, tuple(sorted(self._look(tables, c) for c in rest)), tuple(sorted(w.id for w in wilds)))
        return key + (self._whole,) if g.uses_hand else key


def _tables(reads) -> tuple | None:
    """The deck tables holding what `reads` names, or None when it names something else."""
    if not all(r in READ_TABLES for r in reads):
        return None
    return tuple(sorted({READ_TABLES[r] for r in reads}))


def _canonical(value):
    return tuple(sorted(value)) if isinstance(value, frozenset) else value
