"""The honour rules a player of a game alone must acknowledge, and when: shared by `play` and the web table."""

from __future__ import annotations

# When a fresh game begins, the rules due at the start of a match, of a turn and before the deal are due at
# once; a new deal in the same session is a new turn, not a new match.
AT_FIRST_DEAL = ("match-start", "turn-start", "before-deal")
AT_NEXT_DEAL = ("turn-start", "before-deal")


class HonourRules:
    """What is still to be acknowledged: the rules due at the deal, in order; before a deal from the stock that the
    player has asked for, every `before-deal` rule not yet acknowledged for it; then every `before-move` rule not yet
    acknowledged for the next move. An acknowledgement is logged in the game's events, so a save replays it."""

    def __init__(self, game, at=AT_FIRST_DEAL):
        # In the order of their moments (a match's first, a turn's, the deal's), each moment's in the ruleset's order.
        self.pending = sorted((h for h in game.rules.honour if h.at in at), key=lambda h: at.index(h.at))
        self.move_acks: set[str] = set()
        # A deal from the stock was asked for (`ask`): its `before-deal` rules are due until it is made.
        self.deal_asked = False
        self.deal_acks: set[str] = set()

    def ask(self, game, move: int) -> list:
        """The honour rules to acknowledge before `move`, in order. A deal from the stock makes the `before-deal`
        rules due before it, as they are before the game's first deal, until the next move is made."""
        if game.decode(move)[0] == "deal":
            self.deal_asked = True
        return self.due(game)

    def due(self, game) -> list:
        """The honour rules to acknowledge before the next move, in order."""
        return self.pending + self._deal_due(game) + self._move_due(game)

    def _deal_due(self, game) -> list:
        if not self.deal_asked:
            return []
        return [h for h in game.rules.honour if h.at == "before-deal" and h.id not in self.deal_acks]

    def _move_due(self, game) -> list:
        return [h for h in game.rules.honour if h.at == "before-move" and h.id not in self.move_acks]

    def acknowledge(self, game):
        """Acknowledge the first rule due and return it; None when none is due."""
        if self.pending:
            h = self.pending.pop(0)
        elif deal := self._deal_due(game):
            h = deal[0]
            self.deal_acks.add(h.id)
        elif move := self._move_due(game):
            h = move[0]
            self.move_acks.add(h.id)
        else:
            return None
        game.events.append({"type": "ack", "rule": h.id, "at": h.at})
        return h

    def moved(self) -> None:
        """After a move: the before-move rules are due again, and a deal asked for has been made (or given up)."""
        self.move_acks.clear()
        self.deal_acks.clear()
        self.deal_asked = False
