"""Bots at a match: they act for their seats — acknowledge, shuffle or not, play, and act as Player X."""

from __future__ import annotations

from kallisti.solver.strategies import make_strategy

MAX_BOT_ACTIONS = 1_000_000  # a bound on one run of bot actions; a match always needs far fewer


class Bots:
    """The bot seats of a match, each with its own strategy drawn from its own random stream."""

    def __init__(self, match):
        self.match = match
        self.strategies = {}
        # Per seat, the line it played in its head when it chose to keep the pack (`choose_shuffle`): the turn it
        # deals, the positions' keys and the moves, and how many of them were played.
        self.plans: dict[int, list] = {}
        for s, seat in enumerate(match.seats):
            if seat.is_bot:
                self.strategies[s] = _strategy(seat.strategy, match.seed * 16 + s)

    def act(self, on_action=None) -> None:
        """Act for bot seats until a person must act or the match is over; `on_action(seat, what, detail)` hears each."""
        from kallisti.interpreter.notation import describe

        match = self.match
        for _ in range(MAX_BOT_ACTIONS):
            w = match.waiting()
            if w.what == "over" or w.seat not in self.strategies:
                return
            seat = w.seat
            if w.what == "ack":
                rule = match.acknowledge(seat)
                detail = rule.says
            elif w.what == "shuffle":
                shuffle = self.choose_shuffle(seat)
                match.choose_shuffle(seat, shuffle)
                detail = "shuffles" if shuffle else "keeps the pack as it is"
            elif w.what == "move":
                game = match.game
                moves = game.legal_moves()
                m = self._planned(seat, game, moves)
                if m is None:
                    m = self.strategies[seat].choose(game, moves)
                detail = describe(game, m)
                match.move(seat, m)
            else:
                detail = self.player_x(seat)
            if on_action is not None:
                on_action(seat, w.what, detail)

    def choose_shuffle(self, seat: int) -> bool:
        try:
            from kallisti.solver.search import choose_shuffle
        except ImportError:
            return True
        match = self.match
        pack = match.pack_of(seat)
        rules = match.rules_for(seat)
        if pack is None or len(pack) != rules.deck.size:
            return True
        self.plans.pop(seat, None)  # a line is for the deal it was played on
        line: list = []
        shuffle = choose_shuffle(rules, pack, match.seed * 16 + seat + match.turn * 256, line=line)
        if not shuffle and line:
            self.plans[seat] = [match.turn, line, 0]
        return shuffle

    def _planned(self, seat: int, game, moves: list[int]):
        """The move of the line the seat played in its head for this deal, when it kept the pack and the game stands
        where that line stood (the same position, the move legal); None otherwise, and the line is dropped: the bot
        then searches as ever. Having played the deal out and kept the pack for it, the bot plays the line it found,
        rather than searching the same deal again (a shuffling redeal, say, may take the game elsewhere)."""
        plan = self.plans.get(seat)
        if plan is None:
            return None
        turn, line, i = plan
        if turn == self.match.turn and i < len(line):
            key, m = line[i]
            if m in moves and game.state.key() == key:
                plan[2] = i + 1
                return m
        del self.plans[seat]
        return None

    def player_x(self, seat: int) -> str:
        """Impose a change, revoke one, or pass, by the Player X policy; returns what was done."""
        match = self.match
        try:
            from kallisti.solver.playerx import choose_action
        except ImportError:
            match.pass_turn(seat)
            return "passes"
        action = choose_action(match, seat)
        if action[0] == "change":
            change = match.impose(seat, action[1], nastiness=action[2] if len(action) > 2 else None)
            return f"imposes {change.id}: {change.text}"
        if action[0] == "revoke":
            match.revoke(seat, action[1])
            return f"revokes {action[1]}"
        match.pass_turn(seat)
        return "passes"


def _strategy(name: str, seed: int):
    """A bot's turn strategy; `search` plays to keep the turn's score low (in a match a high total loses)."""
    if name == "search":
        try:
            from kallisti.solver.search import SearchStrategy
        except ImportError:
            return make_strategy("greedy", seed)
        return SearchStrategy(seed, minimize=True)
    return make_strategy(name, seed)
