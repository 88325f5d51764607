"""Play one game of a ruleset: legal moves, apply and undo, automatic and compulsory moves, end and score."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from weakref import proxy

from kallisti.errors import Pos, error
from kallisti.interpreter.expr_types import Ctx
from kallisti.interpreter.history import Trail
from kallisti.interpreter.kept_verdicts import KeptVerdicts
from kallisti.interpreter.live_rules import LayoutChanged, LiveRules, RuleStep
from kallisti.interpreter.move_gen import MoveGeneration
from kallisti.interpreter.move_index import MoveIndex
from kallisti.interpreter.moves_apply import MoveApplication
from kallisti.interpreter.playout import Playout
from kallisti.interpreter.state import Dealer, initial_state, shuffled_order
from kallisti.interpreter.window_moves import WindowMoves

__all__ = ["MAX_AUTO_MOVES", "Game", "LayoutChanged", "RuleStep", "Status", "require_piles"]

MAX_AUTO_MOVES = 10_000  # automatic moves in a row before the engine stops them (a ruleset cannot loop forever)


@dataclass(frozen=True)
class Status:
    """Where a game stands: `playing`, `won` or `lost`, with the reason."""

    outcome: str
    reason: str = ""


PLAYING = Status("playing")  # one for every position still in play (a search asks at every position it values)


def require_piles(rules) -> None:
    """Refuse, with a pointer to `kallisti hand`, a ruleset that has no piles to play on (it only scores hands)."""
    if rules.pile_count == 0:
        raise error("no-piles", f"{rules.name} has no piles to play on; it scores hands (kallisti hand GAME \"CARDS\")",
                    Pos(rules.name))


class Game(MoveIndex, MoveGeneration, KeptVerdicts, WindowMoves, MoveApplication, LiveRules, Playout):
    """One game: the state, the move generator and the history for undo/redo.

    Moves are small ints: a card move is `(n * P + src) * P + dst` (P piles, n cards);
    a deal from stock pile s is `s`, a redeal of it is `P + s`.

    Its parts are in modules of their own: the move indexes (`move_index.py`), move generation (`move_gen.py`, the
    moves of windows of cards in `window_moves.py`), applying and undoing moves (`moves_apply.py`), rule changes
    during play and the trail of moves (`live_rules.py`) and playouts (`playout.py`). Here: the deal, a player's
    steps with the automatic moves they set off, undo and redo, the end and the score.
    """

    def __init__(self, rules, seed: int | None = None, order: list[int] | None = None, deal_number: int = 0):
        """A new deal: from `order` (card ids in dealing order) if given, else shuffled from `seed` (default 1)."""
        require_piles(rules)
        self.rules = rules
        self.initial_rules = rules  # the rules of the deal, before any change made during play (what a save stores)
        self.deck = rules.deck
        if order is None and seed is None:
            seed = 1
        self.seed = seed
        self.order = list(order) if order is not None else shuffled_order(rules.deck.size, seed or 0, deal_number)
        self.deal_number = deal_number
        self.state = initial_state(rules, self.order)
        self.ctx = Ctx(self.state)
        # Weakly: a context naming its game would make a cycle, and a game dropped (a playout's) would then wait for
        # the cycle collector, with all it holds, rather than be freed at once.
        self.ctx.game = proxy(self)
        self.redeal_positions: list[tuple] = []  # the position before each redeal, to see a stalled game
        self.P = rules.pile_count
        self.history: list[list] = []  # one entry per player step: the undo records of its moves
        self.redo_stack: list[list[int]] = []  # undone steps, each the moves it made, replayed exactly by redo
        self.moves_played = 0
        # Decoded card moves, shared by every game of the ruleset and filled as moves are first made.
        self._card_moves: dict[int, tuple] = rules.card_move_cache
        self.events: list[dict] = []  # the player's steps, for saves and replays
        self.rule_errors: list[str] = []  # errors rules raised while judging moves (the moves were refused)
        self.failures = 0  # how many times a rule raised an error while judging a move (rule_errors keeps the first ten)
        self.listed: list[int] | None = None  # the legal moves here, while a lose rule is judged (see `_lost`)
        self.relisted: list[int] | None = None  # the legal moves where the last automatic moves stopped (`playout`)
        self.hint_plan: tuple | None = None  # (position, moves, positions searched): the rest of the last hint's line
        # The piles re-filed (`_refresh`) since a position key last read them, and that key's maker: the solver's
        # keys (kallisti.solver.keys) key again only these piles. A change that bypasses `_refresh` (a playout's
        # inline moves) sets `key_owner` to None, and the next key is built from every pile.
        self.dirty: set[int] = set()
        self.key_owner: object = None
        self._build_indexes()
        # The moves made, as rules that read them see them (`moves`, `last_move`, a pile's `played`); kept only for
        # such rules (`_keep_trail`), None otherwise.
        self.trail: Trail | None = None
        if rules.reads_history:
            self._keep_trail(True)

    @cached_property
    def dealer(self) -> Dealer:
        """What deals a redeal's rows and places a card a group may divert (`moves_apply`): made when first asked for,
        as most games never do."""
        return Dealer(self.rules, self.state)

    def arrange(self, layout: dict[str, str], down: dict[str, int] | None = None) -> "Game":
        """Set up a position by hand (for scenarios and tests): `{"t1": "9S 8S", "f1": "AS"}`, cards bottom first.

        Piles not named are emptied; `down` gives how many cards at the bottom of a pile lie face down.
        Each card name takes the next unused physical twin, so no card appears twice.
        """
        from kallisti.errors import Pos

        free: dict[int, list[int]] = {}
        for c in range(self.deck.size - 1, -1, -1):
            free.setdefault(self.deck.kind[c], []).append(c)
        st = self.state
        for p in range(self.P):
            st.piles[p] = []
            st.down[p] = 0
        for tag, text in layout.items():
            p = self.rules.pile_of_tag[tag]
            for name in text.split():
                kind = self.deck.parse_card(name, Pos("<layout>"))
                if not free.get(kind):
                    raise ValueError(f"{name} is used more often than the deck holds it")
                st.piles[p].append(free[kind].pop())
        for tag, n in (down or {}).items():
            st.down[self.rules.pile_of_tag[tag]] = n
        for name, g in self.rules.groups.items():
            st.sizes[name] = sum(len(st.piles[p]) for p in g.piles)
        self.history.clear()
        self.redo_stack.clear()
        self.events.clear()
        self.redeal_positions.clear()
        if self.trail is not None:
            self.trail = Trail(self.deck.size)  # an arranged position: every card as if dealt there
        self._reindex()
        return self

    def fork(self) -> "Game":
        """An independent game at this position, under the same rules, with no history: for a look-ahead (a hint's
        search) that must leave this game exactly as it was. Stepping and taking back a move restores the
        position but not the order of the legal moves, which follows the history of the move indexes (undo
        re-files a pile at the end of a list); a search on a fork changes neither."""
        twin = Game(self.rules, seed=self.seed, order=self.order, deal_number=self.deal_number)
        twin.initial_rules = self.initial_rules
        st, ts = self.state, twin.state
        for p in range(self.P):
            ts.piles[p][:] = st.piles[p]
        ts.down[:] = st.down
        ts.sizes.clear()
        ts.sizes.update(st.sizes)
        ts.redeals.clear()
        ts.redeals.update(st.redeals)
        twin.redeal_positions = list(self.redeal_positions)
        twin.moves_played = self.moves_played
        if self.trail is not None:
            twin._keep_trail(True)
            twin.trail = self.trail.copy()
        twin._reindex()
        return twin

    # -- steps: a player's move plus the automatic moves it triggers ------------------------
    def play(self, m: int) -> list[int]:
        """Make a legal move as a player step, then the ruleset's automatic moves; returns the moves made."""
        from kallisti.interpreter.notation import describe

        self.events.append({"type": "move", "move": describe(self, m, exact=True)})
        made = self._step(m)
        self.redo_stack.clear()
        return made

    def _step(self, m: int) -> list[int]:
        records = [self.apply(m)]
        made = [m]
        if self.step_auto:
            for am, rec in self._auto_moves(("each-move",)):
                records.append(rec)
                made.append(am)
        self.history.append(records)
        return made

    def take_back_step(self) -> None:
        """Reverse the last step without a trace in the events or the redo stack (for searches that look ahead)."""
        records = self.history.pop()
        if len(records) == 1:
            self.undo_record(records[0])
            return
        for record in reversed(records):
            self.undo_record(record)

    def play_auto(self) -> list[int]:
        """The `a` command: every automatic move the ruleset declares, as one undoable step."""
        records, made = [], []
        for am, rec in self._auto_moves(("each-move", "on-request")):
            records.append(rec)
            made.append(am)
        if records:
            self.events.append({"type": "auto"})
            self.history.append(records)
            self.redo_stack.clear()
        return made

    def extend_step(self, m: int) -> list[int]:
        """Make a legal move as part of the step just made (a player's move or `play_auto`), with the automatic
        moves it triggers; returns the moves made. Undo takes it back with that step and redo makes it again; the
        step's event lists it under `then`, which a replay plays after the event's own move.

        For a front end that plays moves on the player's behalf (autoplay, `kallisti.solver.autoplay`); `play`,
        which every other caller uses, is left as it was."""
        from kallisti.interpreter.notation import describe

        event = self.events[-1] if self.events else None
        if not self.history or event is None or event.get("type") not in ("move", "auto"):
            raise ValueError("only the step just made can be extended: a move or the automatic moves of `a`")
        event.setdefault("then", []).append(describe(self, m, exact=True))
        made = self._step(m)
        self.history[-2].extend(self.history.pop())
        return made

    def _auto_moves(self, triggers):
        patterns = [p for p in self.rules.auto if p.trigger in triggers]
        if not patterns:
            return
        rules, ctx = self.rules, self.ctx
        masks = self.step_auto_masks if tuple(triggers) == ("each-move",) else None  # which moves may match, by number
        for _ in range(MAX_AUTO_MOVES):
            # While `status` says playing (as it finds it, the legal moves listed once for it and for the choice).
            if rules.win(ctx) or rules.lose and any(loss.when(ctx) for loss in rules.lose):
                return
            moves = self.legal_moves()
            if not moves or self.redeal_positions and self._blocked(moves):
                self.relisted = moves
                return
            # The lowest matching move, not the first listed: the order of `legal_moves` follows the history of
            # the move indexes (undo re-files a pile at the end of a list), and an automatic move must depend on
            # the position alone, or a save's replay could send an ace to another foundation than the game did.
            # Only the moves numbered below `step_auto_bound` (deals, redeals) may match, where it is known: the rest,
            # which the masks would pass over unjudged, are not sorted.
            bound = self.step_auto_bound if masks is not None else None
            candidates = moves if bound is None else [m for m in moves if m < bound]
            found = next(self._matches(patterns, sorted(candidates), masks), None)
            if found is None:
                self.relisted = moves
                return
            yield found, self.apply(found)

    def undo(self) -> bool:
        """Take back the last step: a move with its automatic moves, or a rule change."""
        if not self.history:
            return False
        records = self.history.pop()
        for rec in reversed(records):
            if isinstance(rec, RuleStep):
                self._use_rules(rec.before)
            else:
                self.undo_record(rec)
        self.redo_stack.append([rec if isinstance(rec, RuleStep) else rec[0] for rec in records])
        self.events.append({"type": "undo"})
        return True

    def redo(self) -> bool:
        if not self.redo_stack:
            return False
        step = []
        for m in self.redo_stack.pop():
            if isinstance(m, RuleStep):
                self._use_rules(m.after)
                step.append(m)
            else:
                step.append(self.apply(m))
        self.history.append(step)
        self.events.append({"type": "redo"})
        return True

    @property
    def moves_made(self) -> int:
        """The player's steps that moved cards (rule changes are steps too, for undo, but not moves)."""
        return sum(1 for step in self.history if not (step and isinstance(step[0], RuleStep)))

    def visited_positions(self) -> set:
        """The state keys of every position the game has stood in since the deal (or `arrange`), on the way to
        this one, this one included: read off the undo history by taking it back on a fork, so this game
        (its position and the order of its legal moves) is left exactly as it was."""
        return {twin.state.key() for twin in self._forks_back()}

    # -- end and score ----------------------------------------------------------------------
    def status(self, moves: list[int] | None = None) -> Status:
        """Won, lost (a declared loss condition, or no legal move left) or still playing. `moves`, when given, are
        the `legal_moves` of this position (a lose rule's `pile.movable` reads them rather than list them again)."""
        ctx = self.ctx
        if self.rules.win(ctx):
            return Status("won", "the win condition holds")
        if self.rules.lose:
            loss = self._lost(moves)
            if loss is not None:
                return Status("lost", loss.says)
        moves = moves if moves is not None else self.legal_moves()
        if not moves:
            return Status("lost", "no legal move is left")
        if self.redeal_positions and self._blocked(moves):
            return Status("lost", "blocked: a whole pass through the stock changed nothing")
        return PLAYING

    def _blocked(self, moves: list[int]) -> bool:
        """Whether only redeals are left among `moves` and the position is one a redeal was made from: a whole pass
        through the stock changed nothing."""
        P = self.P
        return all(P <= m < 2 * P for m in moves) and self._position() in self.redeal_positions

    def score(self) -> int:
        return self.rules.score(self.ctx)
