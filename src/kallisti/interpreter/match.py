"""A match: players take turns at a ruleset, each under hir own effective rules, which Player X changes between turns.

The match is a state machine driven by actions — acknowledge an honour rule, choose whether to
shuffle, make a move, undo, impose or revoke a change, pass — each recorded as an event. Replaying
the events from the seed rebuilds the match exactly, rulesets included (docs/model.md §14).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from kallisti.errors import Finding, KallistiError, Pos
from kallisti.interpreter import amend
from kallisti.interpreter.game import Game
from kallisti.interpreter.rng import STREAM_DEAL, Rng
from kallisti.interpreter.save_log import GrowingCount, refuse_another_change
from kallisti.persons import does, whose
from kallisti.unsafe import QuotingError, char_name, unsafe_char

TURN_MOVE_CAP = 2000  # moves after which a turn ends as it stands, so every turn ends whatever the rules say
# Changes in force on one player at once: each of that player's turns applies them all to a copy of the base, so
# a long match (max_turns up to 10,000, up to 5 changes a turn) must not make every turn slower than the last.
MAX_ACTIVE_CHANGES = 100
# Keys a change may not touch once the match has begun: they shape the match for everyone, not one
# player's rules. A player's own limit (`loses_at`) and what the player may do as Player X
# (`player_x`) are that player's rules, and may change.
FIXED_KEYS = ("match.seats", "match.pack", "match.start_score", "match.equal_turns", "match.last_turns", "match.both_over",
              "match.max_turns")


@dataclass(frozen=True)
class Seat:
    """A player: a name, and a strategy when the seat is a bot (None for a person)."""

    name: str
    strategy: str | None = None

    @property
    def is_bot(self) -> bool:
        return self.strategy is not None


@dataclass
class Change:
    """A rule change imposed on one player: who imposed it, after which turn, its text and its patch."""

    id: str
    author: int
    target: int
    turn: int
    text: str
    patch: object
    revoked_turn: int | None = None
    nastiness: float | None = None  # measured by the bot: the change's effect on the target's expected score
    warnings: tuple = ()  # what its author was told when it was adopted (`amend.runs_warnings`)

    @property
    def active(self) -> bool:
        return self.revoked_turn is None


@dataclass
class TurnRecord:
    seat: int
    turn: int
    score: int
    total: int
    shuffled: bool
    reason: str
    # The turn's game as it ended, so that its final field can be shown with the score it makes; a later turn deals
    # a new Game, so this one stays as it was.
    final: object = field(default=None, repr=False, compare=False)


@dataclass
class Waiting:
    """What the match waits for: `seat` must `ack`, choose `shuffle`, `move`, or act as `player-x`; or the match is `over`."""

    seat: int | None
    what: str
    honour: object = None  # the HonourRule to acknowledge


class MatchError(QuotingError):
    """An action the match cannot take now (not that seat's turn, nothing to revoke, ...)."""


@dataclass
class Result:
    loser: int | None  # None: a draw
    reason: str


class Match:
    """Players taking turns at `base` (a Ruleset with a `match` section), from `seed`."""

    def __init__(self, base, seats: list[Seat], seed: int):
        if base.match is None:
            raise KallistiError(Finding("not-a-match", f"{base.name} is played alone; it has no `match` section",
                                        base.data.pos or Pos("<ruleset>")))
        if len(seats) != base.match.seats:
            raise KallistiError(Finding("seats", f"{base.name} is played by {base.match.seats} players; {len(seats)} were given",
                                        Pos("--players"), suggestion="e.g. --players ann,bot"))
        self.base = base
        self.seats = list(seats)
        self.seed = seed
        n = len(seats)
        self.changes: list[Change] = []
        self.totals = [base.match.start_score] * n
        self.turns_taken = [0] * n
        self.records: list[TurnRecord] = []
        self.events: list[dict] = []
        self._rule_events = GrowingCount()  # the rule changes of `events`, counted as they are appended
        self.turn = 0
        self.current = 0
        self.game: Game | None = None
        self.stage = "turn-start"
        self.pending: list[tuple[int, object]] = []  # (seat, HonourRule) still to acknowledge, in order
        # A deal from the stock asked for while `before-deal` rules are due before it: ("move", m) or ("redo",), made
        # once they are acknowledged. Its event is logged when it is asked for, so a replay asks for the same rules.
        self.deferred: tuple | None = None
        self.shuffle_choice: bool | None = None
        self.x_actions = 0  # changes imposed in the present Player X phase
        self.first_over: int | None = None
        self.turns_at_limit: list[int] | None = None  # the turns each seat had taken when a total first reached its limit
        self.result: Result | None = None
        self.packs: list[tuple[str, list[int]] | None] = [None] * (n if base.match.pack == "per-seat" else 1)
        self._effective: dict[int, tuple] = {}  # seat -> ((changes made, revoked), ids of changes in force, rules)
        self._revocations = 0
        self._rebuilt: dict[int, tuple] = {}  # seat -> (ids of the changes in force, their data, its key)
        for s in range(n):
            self._due(s, "match-start")
        self._begin_turn(0)

    # -- rules in force ---------------------------------------------------------------------------
    def active_changes(self, seat: int) -> list[Change]:
        return [c for c in self.changes if c.target == seat and c.active]

    def rules_for(self, seat: int):
        """The effective ruleset of a seat: the base with the changes imposed on it and not revoked, in order."""
        # The changes in force change only when one is imposed or revoked (a turn's moves ask again and again).
        made = (len(self.changes), self._revocations)
        cached = self._effective.get(seat)
        if cached is not None and cached[0] == made:
            return cached[2]
        ids = tuple(c.id for c in self.active_changes(seat))
        if cached is None or cached[1] != ids:
            data, data_key = self._rebuilt_data(seat)
            cached = (made, ids, amend.compile_data(data, key=data_key))
        self._effective[seat] = (made, ids, cached[2])
        return cached[2]

    def _rebuilt_data(self, seat: int) -> tuple:
        """(the data of a seat's rules in force, rebuilt from the base and its changes with their own positions, or one
        change more applied to the state kept; its data key, the parts shared with the base read from the base's texts),
        kept per state of them. Data that compiling writes to (`booleans_as_words`) are rebuilt for each reader, key None."""
        active = self.active_changes(seat)
        ids = tuple(c.id for c in active)
        kept = self._rebuilt.get(seat)
        if kept is None or kept[0] != ids:
            start, patches = (kept[1], active[-1:]) if kept and kept[0] and ids[:-1] == kept[0] else (self.base.data, active)
            data = amend.apply_all(start, [c.patch for c in patches])
            if _expression_booleans(data):
                return data, None
            kept = self._rebuilt[seat] = (ids, data, amend.data_key(data, amend.texts_of(self.base)))
        return kept[1], kept[2]

    def x_rules(self, seat: int):
        """What `seat` may do as Player X: by hir own effective rules (Player X can be limited too)."""
        return self.rules_for(seat).match

    def player_x(self) -> int:
        """The seat that may change the rules of the player who has just played: the next seat in turn."""
        return (self.current + 1) % len(self.seats)

    # -- what the match waits for -----------------------------------------------------------------
    def waiting(self) -> Waiting:
        if self.result is not None:
            return Waiting(None, "over")
        if self.pending:
            seat, rule = self.pending[0]
            return Waiting(seat, "ack", rule)
        if self.stage == "shuffle":
            return Waiting(self.current, "shuffle")
        if self.stage == "play":
            return Waiting(self.current, "move")
        if self.stage == "player-x":
            return Waiting(self.player_x(), "player-x")
        raise AssertionError(f"match stage {self.stage}")

    def _expect(self, seat: int, what: str) -> None:
        w = self.waiting()
        if w.what != what or w.seat != seat:
            raise MatchError(self._waiting_text(w))

    def _waiting_text(self, w: Waiting) -> str:
        if w.what == "over":
            return "the match is over"
        name = self.seats[w.seat].name
        return {"ack": f"{name} must first acknowledge: {w.honour.says if w.honour else ''} (type `ok`)",
                "shuffle": f"{name} must first choose whether to shuffle (`shuffle` or `keep`)",
                "move": f"it is {whose(name)} turn to play",
                "player-x": does(name, "is Player X: `rule CHANGE`, `revoke ID` or `pass`")}[w.what]

    # -- actions ----------------------------------------------------------------------------------
    def acknowledge(self, seat: int) -> object:
        """The seat acknowledges the first honour rule due; returns it."""
        self._expect(seat, "ack")
        _, rule = self.pending.pop(0)
        self.events.append({"type": "ack", "seat": seat, "rule": rule.id, "at": rule.at})
        self._advance()
        return rule

    def choose_shuffle(self, seat: int, shuffle: bool) -> None:
        self._expect(seat, "shuffle")
        self.shuffle_choice = bool(shuffle)
        self.events.append({"type": "shuffle", "seat": seat, "shuffle": bool(shuffle)})
        self.stage = "before-deal"
        self._advance()

    def move(self, seat: int, m: int) -> list[int]:
        """A legal move of the player whose turn it is (after any honour rule due before it)."""
        from kallisti.interpreter.notation import describe

        self._expect(seat, "move")
        if m not in self.game.legal_moves():
            raise MatchError("that move is not legal now")
        self.events.append({"type": "move", "seat": seat, "move": describe(self.game, m, exact=True)})
        if self._deal_waits(m):
            self.deferred = ("move", m)
            return []
        made = self.game.play(m)
        self._after_move()
        return made

    def auto(self, seat: int) -> list[int]:
        self._expect(seat, "move")
        made = self.game.play_auto()
        if made:
            self.events.append({"type": "auto", "seat": seat})
            self._after_move()
        return made

    def undo(self, seat: int) -> bool:
        """Undo within the player's own turn: the deal and earlier turns, and rule changes, are out of reach."""
        self._expect(seat, "move")
        if not self.game.undo():
            return False
        self.events.append({"type": "undo", "seat": seat})
        return True

    def redo(self, seat: int) -> bool:
        """Make again the step undo took back last; a deal from the stock waits for the `before-deal` rules again."""
        self._expect(seat, "move")
        stack = self.game.redo_stack
        if not stack:
            return False
        self.events.append({"type": "redo", "seat": seat})
        first = stack[-1][0] if stack[-1] else None
        if isinstance(first, int) and self._deal_waits(first):
            self.deferred = ("redo",)
            return True
        self.game.redo()
        self._after_move()
        return True

    def check_change(self, seat: int, text: str, source: str = "<change>", replay: bool = False) -> amend.Amendment:
        """Validate a change Player X proposes, without adopting it (KallistiError says why it is refused). A change
        replayed from a log was adopted once: it is checked again as rules, but not for what it meant to allow
        (`change-left-behind`), so a log made before that check still replays."""
        self._expect(seat, "player-x")
        if self.x_actions >= self.x_rules(seat).changes:
            raise MatchError("Player X may make no (more) rule changes this turn")
        target = self.current
        patch = amend.parse(text, source)
        if len(self.active_changes(target)) >= MAX_ACTIVE_CHANGES:
            raise KallistiError(Finding("change-too-many", f"{MAX_ACTIVE_CHANGES} changes are in force on this player already",
                                        patch.pos or Pos(source, 1, 1), suggestion="revoke one of them first"))
        if "revoke" in patch:
            raise MatchError("use `revoke ID` to take back a change")
        if not replay:  # a save's log was counted before its replay
            refuse_another_change(self.events, 0, patch.pos or Pos(source, 1, 1), "the match goes on without more changes",
                                  self._rule_events)
        _refuse_fixed(patch, source)
        current = self.rules_for(target)
        # The data rebuilt from the changes themselves (compiled rules are shared by equal data, and keep the
        # positions of whichever was compiled first), so that a finding in an earlier change names that change.
        data, data_key = self._rebuilt_data(target)
        return amend.amend(data, text, source=source, baseline=current, patch=patch,
                           screen=lambda p: _refuse_fixed(p, source), intent=not replay, suggest=not replay,
                           current_key=data_key)

    def impose(self, seat: int, text: str, source: str = "<change>", nastiness: float | None = None,
               replay: bool = False) -> Change:
        """Player X imposes a change on the player who has just played; it takes effect from that player's next turn."""
        adopted = self.check_change(seat, text, source, replay)
        cid = f"c{len(self.changes) + 1}"
        # Kept with positions in a text of its own name, so that a later change breaking this one is told apart.
        patch = amend.parse(text, f"<{cid}>")
        change = Change(cid, seat, self.current, self.turn, text.strip(), patch, nastiness=nastiness,
                        warnings=adopted.warnings)
        self.changes.append(change)
        self.events.append({"type": "change", "by": seat, "on": self.current, "id": change.id, "text": change.text})
        self.x_actions += 1
        if self.x_actions >= self.x_rules(seat).changes:
            self._next_turn()
        return change

    def revokable(self, seat: int) -> list[Change]:
        """The changes Player X may revoke: those the player who has just played imposed on hir."""
        return [c for c in self.changes if c.active and c.target == seat and c.author == self.current]

    def revoke(self, seat: int, change_id: str) -> Change:
        """Player X takes back a change the other player imposed on hir, instead of imposing one."""
        self._expect(seat, "player-x")
        if not self.x_rules(seat).revoke:
            raise MatchError("your rules do not let you revoke a change")
        if self.x_actions:
            raise MatchError("a revoke replaces the rule change; one has been made this turn")
        change = next((c for c in self.changes if c.id == change_id), None)
        if change is None or change not in self.revokable(seat):
            ids = ", ".join(c.id for c in self.revokable(seat)) or "none"
            raise MatchError(f"no change '{change_id}' that {self.seats[self.current].name} imposed on you is in force "
                             f"(you may revoke: {ids})")
        dependent, why = self.dependent(seat, change)
        if dependent is not None:
            may = dependent in self.revokable(seat)
            raise MatchError(f"revoking {change_id} would leave {dependent.id} ({dependent.text}) without its subject: "
                             f"{why}; " + (f"revoke {dependent.id} first" if may else
                                           f"{dependent.id} was imposed by {self.seats[dependent.author].name}, so "
                                           f"{change_id} stays while it is in force"))
        change.revoked_turn = self.turn
        self._revocations += 1
        self.events.append({"type": "revoke", "by": seat, "change": change_id})
        self._next_turn()
        return change

    def dependent(self, seat: int, change: Change) -> tuple[Change | None, str]:
        """When the changes in force on `seat` no longer make valid rules once `change` is taken away: the first of
        them that no longer applies, or no longer compiles, and what goes wrong; otherwise (None, "")."""
        rest = [c for c in self.active_changes(seat) if c is not change]
        try:
            amend.compile_data(amend.apply_all(self.base.data, [c.patch for c in rest]))
            return None, ""
        except KallistiError:
            pass
        data = self.base.data
        for c in rest:
            try:
                data = amend.apply_all(data, [c.patch])
                amend.compile_data(data)
            except KallistiError as exc:
                return c, exc.findings[0].message
        return None, ""

    def pass_turn(self, seat: int) -> None:
        """Player X makes no (further) change."""
        self._expect(seat, "player-x")
        self.events.append({"type": "pass", "by": seat})
        self._next_turn()

    # -- the flow of a turn -----------------------------------------------------------------------
    def _due(self, seat: int, moment: str) -> bool:
        """Queue the seat's honour rules of `moment`; whether there were any."""
        due = [(seat, rule) for rule in self.rules_for(seat).honour if rule.at == moment]
        self.pending.extend(due)
        return bool(due)

    def _deal_waits(self, m: int) -> bool:
        """Whether move `m` is a deal from the stock with `before-deal` rules due before it (queued if so): a turn's
        later deals ask for them as its first deal does."""
        return self.game.decode(m)[0] == "deal" and self._due(self.current, "before-deal")

    def _make_deferred(self) -> None:
        """Make the deal that waited for its `before-deal` rules, then go on as after any move."""
        deferred, self.deferred = self.deferred, None
        if deferred[0] == "move":
            self.game.play(deferred[1])
        else:
            self.game.redo()
        if self.game.status().outcome == "playing":
            self._due(self.current, "before-move")

    def _begin_turn(self, seat: int) -> None:
        self.turn += 1
        self.current = seat
        self.game = None
        self.shuffle_choice = None
        self.x_actions = 0
        self.stage = "turn-start"
        self._due(seat, "turn-start")
        self._advance()

    def _advance(self) -> None:
        """Go on as far as the match can without a decision."""
        while not self.pending and self.result is None:
            rules = self.rules_for(self.current)
            if self.stage == "turn-start":
                self.stage = "shuffle"
            elif self.stage == "shuffle":
                if rules.shuffle == "optional":
                    return
                self.shuffle_choice = rules.shuffle == "always"
                self.stage = "before-deal"
            elif self.stage == "before-deal":
                self._due(self.current, "before-deal")
                self.stage = "deal"
            elif self.stage == "deal":
                self._deal(rules)
                self.stage = "play"
                if self.game.status().outcome == "playing":
                    self._due(self.current, "before-move")
            elif self.stage == "play":
                if self.deferred is not None:
                    self._make_deferred()
                    continue
                if self.game.status().outcome == "playing" and self.game.moves_played < TURN_MOVE_CAP:
                    return
                self._end_turn()
                self._due(self.current, "turn-end")
                self.stage = "turn-end"
            elif self.stage == "turn-end":
                if self._check_end():
                    return
                px = self.x_rules(self.player_x())
                if px.changes == 0 and not (px.revoke and self.revokable(self.player_x())):
                    self._next_turn()
                    return
                self.stage = "player-x"
                return
            else:
                return

    def _after_move(self) -> None:
        if self.game.status().outcome == "playing":
            self._due(self.current, "before-move")
        self._advance()

    def pack_of(self, seat: int) -> list[int] | None:
        held = self.packs[seat if len(self.packs) > 1 else 0]
        return None if held is None else list(held[1])

    def _deal(self, rules) -> None:
        """Deal the turn from the seat's pack: as gathered at the end of its last turn, shuffled unless the player kept it.

        A pack whose cards the effective rules no longer describe (Player X changed the deck) is
        replaced by a fresh one, in card-id order.
        """
        slot = self.current if len(self.packs) > 1 else 0
        signature = rules.deck.signature
        held = self.packs[slot]
        pack = list(held[1]) if held is not None and held[0] == signature else list(range(rules.deck.size))
        if self.shuffle_choice:
            Rng(self.seed, self.turn, STREAM_DEAL).shuffle(pack)
        self.game = Game(rules, seed=self.seed, order=pack, deal_number=self.turn)
        self.packs[slot] = (signature, pack)

    def _end_turn(self) -> None:
        game, seat = self.game, self.current
        score = game.score()
        self.totals[seat] += score
        self.turns_taken[seat] += 1
        status = game.status()
        reason = status.reason if status.outcome != "playing" else f"the turn reached {TURN_MOVE_CAP} moves"
        self.records.append(TurnRecord(seat, self.turn, score, self.totals[seat], bool(self.shuffle_choice), reason,
                                       final=game))
        # The cards are gathered pile by pile in pile order, each bottom first: the next deal's order if not shuffled.
        slot = seat if len(self.packs) > 1 else 0
        self.packs[slot] = (self.packs[slot][0], [c for pile in game.state.piles for c in pile])

    def loses_at(self, seat: int) -> int:
        return self.rules_for(seat).match.loses_at

    def _check_end(self) -> bool:
        """Whether the match is over after this turn; if so, sets the result."""
        m = self.base.match
        over = [s for s in range(len(self.seats)) if self.totals[s] >= self.loses_at(s)]
        if over and self.first_over is None:
            self.first_over = self.current if self.current in over else over[0]
            self.turns_at_limit = list(self.turns_taken)
        round_done = len(set(self.turns_taken)) == 1
        if over and self._last_turns_played(m.last_turns, round_done):
            if len(over) == 1:
                self.result = Result(over[0], f"{self.seats[over[0]].name} reached {self.loses_at(over[0])}")
            elif m.both_over == "first-loses":
                s = self.first_over
                self.result = Result(s, f"{self.seats[s].name} reached {self.loses_at(s)} first")
            elif m.both_over == "higher-loses":
                self.result = self._highest("both reached the limit; the higher total loses")
            else:
                self.result = Result(None, "both reached the limit: a draw")
        elif self.turn >= m.max_turns and round_done:
            self.result = self._highest(f"{m.max_turns} turns played; the higher total loses")
        return self.result is not None

    def _last_turns_played(self, last_turns: str, round_done: bool) -> bool:
        """Whether the turns still owed once a total reached its limit have been played (`match.last_turns`)."""
        if last_turns == "none":
            return True
        if last_turns == "round":
            return round_done
        # others: every seat but the one that reached the limit first has taken a turn since
        return all(taken > before for s, (taken, before) in enumerate(zip(self.turns_taken, self.turns_at_limit))
                   if s != self.first_over)

    def _highest(self, reason: str) -> Result:
        top = max(self.totals)
        losers = [s for s, t in enumerate(self.totals) if t == top]
        if len(losers) > 1:
            return Result(None, reason + "; the totals are equal: a draw")
        return Result(losers[0], reason)

    def _next_turn(self) -> None:
        self._begin_turn((self.current + 1) % len(self.seats))

    # -- replay -----------------------------------------------------------------------------------
    def _deal_at_once(self) -> None:
        """In a replay, a deal whose `before-deal` rules the log never acknowledged: a log written when they were
        asked once a turn, before its first deal only. The deal is made at once, as it was then, so the log replays."""
        self.pending = [(s, rule) for s, rule in self.pending if not (s == self.current and rule.at == "before-deal")]
        self._advance()

    def apply_event(self, ev: dict) -> None:
        """Carry out one recorded event (MatchError or KallistiError when it cannot be)."""
        from kallisti.interpreter.notation import parse_move

        kind = ev.get("type")
        seat = ev.get("seat", ev.get("by"))
        if not isinstance(seat, int) or not 0 <= seat < len(self.seats):
            raise MatchError(f"event {ev!r} names no seat of this match")
        if self.deferred is not None and kind != "ack":
            self._deal_at_once()
        if kind == "ack":
            rule = self.acknowledge(seat)
            if rule.id != ev.get("rule"):
                raise MatchError(f"the honour rule due is {rule.id}, not {ev.get('rule')}")
        elif kind == "shuffle":
            self.choose_shuffle(seat, bool(ev["shuffle"]))
        elif kind == "move":
            self._expect(seat, "move")
            self.move(seat, parse_move(self.game, str(ev["move"])))
        elif kind == "auto":
            self.auto(seat)
        elif kind == "undo":
            if not self.undo(seat):
                raise MatchError("nothing to undo")
        elif kind == "redo":
            if not self.redo(seat):
                raise MatchError("nothing to redo")
        elif kind == "change":
            change = self.impose(seat, str(ev["text"]), replay=True)
            if ev.get("id") not in (None, change.id):
                raise MatchError(f"the change would be {change.id}, not {ev.get('id')}")
        elif kind == "revoke":
            self.revoke(seat, str(ev["change"]))
        elif kind == "pass":
            self.pass_turn(seat)
        else:
            raise MatchError(f"unknown event {ev!r}")


def _refuse_fixed(patch, source: str) -> None:
    """Refuse a change to a key that shapes the match for everyone (FIXED_KEYS)."""
    path = next((str(patch[v]) for v in ("set", "add", "delete") if v in patch), "")
    for fixed in FIXED_KEYS:
        if path == fixed or path.startswith(fixed + ".") or fixed.startswith(path + ".") or path == "match":
            raise KallistiError(Finding("change-fixed", f"'{path}' cannot change once the match has begun",
                                        patch.pos or Pos(source, 1, 1),
                                        suggestion="change a rule of play, the score, the layout or an honour rule"))


def seats_from_text(text: str) -> list[Seat]:
    """`ann,bob` or `ann,bot:search`: a person's name, or `bot` with an optional strategy."""
    seats = []
    parts = [p.strip() for p in text.split(",")]
    bots = sum(1 for p in parts if p == "bot" or p.startswith("bot:"))
    for i, part in enumerate(parts):
        if not part:
            raise ValueError(f"seat {i + 1} is empty: give a name or `bot`")
        bad = unsafe_char(part)
        if bad is not None:  # a name is printed on every turn and kept in saves, which refuse such characters
            raise ValueError(f"seat {i + 1} holds the control character {char_name(part[bad])}")
        if part == "bot" or part.startswith("bot:"):
            strategy = part[4:] or "search"
            seats.append(Seat(f"bot{i + 1}" if bots > 1 else "bot", strategy))
        else:
            seats.append(Seat(part))
    names = [s.name for s in seats]
    if len(set(names)) != len(names):
        raise ValueError("two seats have the same name")
    return seats


def _expression_booleans(node) -> bool:
    """Whether ruleset data hold a boolean where an expression goes (`says.booleans_as_words` writes it as a word)."""
    from kallisti.model.says import EXPRESSION_VALUE_KEYS

    if isinstance(node, dict):
        return any((isinstance(v, bool) and k in EXPRESSION_VALUE_KEYS) or _expression_booleans(v) for k, v in node.items())
    return isinstance(node, list) and any(_expression_booleans(v) for v in node)
