"""The honour rules a player of a game alone must acknowledge, and when: shared by `play` and the web table."""

from __future__ import annotations

# When a fresh game begins, the rules due at the start of a match, of a turn and before the deal are due at
# once; a new deal in the same session is a new turn, not a new match.
AT_FIRST_DEAL = ("match-start", "turn-start", "before-deal")
AT_NEXT_DEAL = ("turn-start", "before-deal")


class HonourRules:
    """What is still to be acknowledged: the rules due at the deal, in order, then every `before-move` rule not yet
    acknowledged for the next move. An acknowledgement is logged in the game's events, so a save replays it."""

    def __init__(self, game, at=AT_FIRST_DEAL):
        self.pending = [h for h in game.rules.honour if h.at in at]
        self.move_acks: set[str] = set()

    def due(self, game) -> list:
        """The honour rules to acknowledge before the next move, in order."""
        return self.pending + [h for h in game.rules.honour if h.at == "before-move" and h.id not in self.move_acks]

    def acknowledge(self, game):
        """Acknowledge the first rule due and return it; None when none is due."""
        due = self.due(game)
        if not due:
            return None
        h = due[0]
        if self.pending and self.pending[0] is h:
            self.pending.pop(0)
        else:
            self.move_acks.add(h.id)
        game.events.append({"type": "ack", "rule": h.id, "at": h.at})
        return h

    def moved(self) -> None:
        """After a move: the before-move rules are due again."""
        self.move_acks.clear()
