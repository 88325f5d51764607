"""The moves a game has made, as the rules may read them: the last move, the moves since the deal, and how each card
came to the pile it lies in (played there, or dealt)."""

from __future__ import annotations

from typing import NamedTuple

# A rule reads at most the last MAX_HISTORY_MOVES moves through `moves`: the bound that keeps a quantifier over them
# cheap (docs/security.md). `last_move` and a pile's `played` cards are exact however long the game.
MAX_HISTORY_MOVES = 1000


class MoveMade(NamedTuple):
    """One move as the rules read it: `kind` (move, deal, redeal or discard), the pile the cards left (`source`),
    the pile they went to (`to`: a deal's first pile, a redeal's stock), the cards (bottom first), and whether it
    was a deal (`dealt`: a deal or redeal from a stock, a card the stock turned). `refilled` are the cards dealt to
    fill the pile a move emptied; `before` is how the cards and those had come to their piles until then
    (`Trail.arrived`), for taking the move back."""

    kind: str
    source: int
    to: int
    cards: tuple
    dealt: bool
    before: bytes
    refilled: tuple = ()


# What `last_move` is before any move: no cards, no piles (reading its `source` or `to` fails).
NO_MOVE = MoveMade("none", -1, -1, (), False, b"")


class Trail:
    """The moves made since the deal, kept as the game makes and takes back moves (only for rules that read them:
    `Ruleset.reads_history`), and per card whether it was played onto the pile it lies in (1) or dealt there (0)."""

    __slots__ = ("moves", "arrived")

    def __init__(self, deck_size: int):
        self.moves: list[MoveMade] = []
        self.arrived = bytearray(deck_size + 1)  # per card id; the last byte is the deck's no-card

    def copy(self) -> "Trail":
        twin = Trail(0)
        twin.moves = list(self.moves)
        twin.arrived = bytearray(self.arrived)
        return twin

    def note(self, kind: str, source: int, to: int, cards: tuple, dealt: bool, refilled: tuple = ()) -> None:
        """Record a move just made: its `cards` were played (or dealt, `dealt`) onto `to`; `refilled` cards were dealt
        to fill the pile the move emptied."""
        arrived = self.arrived
        touched = cards + refilled
        before = bytes(arrived[c] for c in touched)
        played = 0 if dealt else 1
        for c in cards:
            arrived[c] = played
        for c in refilled:
            arrived[c] = 0
        self.moves.append(MoveMade(kind, source, to, cards, dealt, before, refilled))

    def note_redeal(self, stock: int, cards: tuple) -> None:
        """Record a redeal: every card is dealt again, so none lies where it was played."""
        self.moves.append(MoveMade("redeal", stock, stock, cards, True, bytes(self.arrived)))
        self.arrived[:] = bytes(len(self.arrived))

    def take_back(self) -> None:
        """Forget the last move noted, putting back how its cards had come to their piles."""
        made = self.moves.pop()
        if made.kind == "redeal":
            self.arrived[:] = made.before
            return
        arrived = self.arrived
        for c, was in zip(made.cards + made.refilled, made.before):
            arrived[c] = was

    def key(self) -> tuple:
        """What the rules may read of the moves made, as a position key's part (the solver's keys)."""
        return tuple((m.kind, m.source, m.to, m.cards) for m in self.moves)

    def last(self) -> MoveMade:
        return self.moves[-1] if self.moves else NO_MOVE

    def recent(self) -> list[MoveMade]:
        return self.moves[-MAX_HISTORY_MOVES:]

    def played(self, pile: list[int]) -> list[int]:
        """The cards of `pile` that were played onto it, not dealt there, bottom first."""
        arrived = self.arrived
        return [c for c in pile if arrived[c]]
