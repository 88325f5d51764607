"""One game or match played through the JSON API: the engine calls of `kallisti play`, and its state as plain data.

A Session wraps a Game (a patience) or a Match (Discordian Solitaire) and its bots. Every action goes
through the calls the terminal makes — move text through `notation.parse_move`, so a refused move
carries the terminal's explanation word for word; `Game.play_auto`, `strategies.hint`, `amend.amend`,
the Match's actions and `Bots.act` — and answers with plain dicts ready for JSON. Nothing here knows
of the web: a refusal is a `Refused` exception with an error code, and `state()` is the table as data.
"""

from __future__ import annotations

import secrets

from kallisti.errors import Finding, KallistiError, Pos
from kallisti.interpreter.honour import HonourRules
from kallisti.interpreter.notation import MoveRefused, describe, narrate, parse_move
from kallisti.model.layout import group_layouts
from kallisti.persons import does, hir

from kallisti.web.faces import HIDDEN, faces_of
from kallisti.web.match_data import change_dict, honour_dict, match_dict
from kallisti.web.move_data import move_dict, moves_list
from kallisti.web.patience_data import dealt_text, honour_replayed, stats_recorder
from kallisti.web.request_fields import (CHANGE_SOURCE, BadRequest, Refused, change_text, finding_dict, move_text,
                                   parse_players, plain_finding)

__all__ = ["BadRequest", "CHANGE_SOURCE", "Refused", "SEED_LIMIT", "Session", "finding_dict", "game_kind", "game_players",
           "plain_finding"]

SEED_LIMIT = 10**9  # a fresh session picks its deal number below this, as `kallisti play` does (cli.play.MAX_SEED)
PLAYED_OUT_MOVES = 120  # bots' moves of one answer that carry the table after them (`bot[].piles`), the last ones


def game_kind(rules) -> str:
    """`match` (seats and Player X), `table` (a card table without piles: Cripple Mr Onion) or `patience`."""
    if rules.match is not None:
        return "match"
    if not rules.pile_count:
        return "table"
    return "patience"


def game_players(rules) -> int:
    if rules.match is not None:
        return rules.match.seats
    if rules.table is not None and not rules.pile_count:
        seats = rules.table.seats
        return seats[-1] if isinstance(seats, (tuple, list)) else int(seats)
    return 1


class Session:
    """A game (or match) being played in the browser; `name` is the game's name in the list of games."""

    def __init__(self, sid: str, name: str, rules, seed: int | None = None, players=None):
        from kallisti.interpreter.game import Game

        self.id, self.name = sid, name
        self.kind = game_kind(rules)
        if self.kind == "table":
            raise BadRequest(f"{rules.name} is played at a card table of bots in the terminal: `kallisti play {name}`",
                             "not-playable")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_LIMIT):
            raise BadRequest(f"`seed` is a whole number from 0 to {SEED_LIMIT:,}", "not-playable")
        seed = secrets.randbelow(SEED_LIMIT) + 1 if seed is None else seed
        self.match = self.bots = None
        self.reported_turns = 0  # the match's finished turns already told of in `said`
        if self.kind == "match":
            from kallisti.interpreter.match import Match
            from kallisti.solver.bots import Bots

            seats = parse_players(["you", "bot"] if players is None else players)
            try:
                self.match = Match(rules, seats, seed)
            except KallistiError as exc:
                raise BadRequest("; ".join(f.message for f in exc.findings), "not-playable") from None
            self.bots = Bots(self.match)
            self._game = None
        else:
            if players is not None:
                names = parse_players(players)
                if len(names) != 1:
                    raise BadRequest(f"{rules.name} is played alone: give one name or none", "not-playable")
            self._game = Game(rules, seed=seed)
        self.seed = seed
        # Honour rules of a patience, kept as the terminal keeps them (a match keeps its own).
        self.honour = None if self.match else HonourRules(self._game)
        self._extra: dict = {}
        self._told_over = False
        self.stats = stats_recorder(self._game)
        # What happened before the first request: the bots' opening actions (a bot seat first, or acknowledging).
        bot = self.let_bots_act()
        self.opening = {"said": self._turn_reports() if self.match is not None else [], "bot": bot}

    # -- kept in a save file -----------------------------------------------------------------------------
    def saved(self) -> dict:
        """The session as the data of a save file (docs/saves.md), with its id and game name under `web`."""
        from kallisti.interpreter.save import game_to_data, match_to_data

        data = match_to_data(self.match) if self.match is not None else game_to_data(self._game)
        data["web"] = {"session": self.id, "game": self.name}
        return data

    @classmethod
    def from_saved(cls, sid: str, data: dict, source: str = "<save>") -> "Session":
        """The session `saved()` wrote, rebuilt by replaying its save; KallistiError when the save is not one.

        The game is exactly as it was (its history, so undo and redo too); bots go on from there with fresh random
        streams, and the turns and results finished before it was saved are not told of again."""
        from kallisti.interpreter.save import MATCH_FORMAT, game_from_data, match_from_data, next_deal_from_data
        from kallisti.solver.bots import Bots

        web = data.get("web") if isinstance(data, dict) else None
        if not isinstance(web, dict) or web.get("session") != sid or not isinstance(web.get("game"), str):
            raise KallistiError(Finding("save-shape", f"the save is not the one of session '{sid}'", Pos(source)))
        self = cls.__new__(cls)
        self.id, self.name = sid, web["game"]
        self.match = self.bots = self._game = self.honour = None
        if data.get("format") == MATCH_FORMAT:
            self.match = match_from_data(data, source)
            self.bots = Bots(self.match)
            self.seed, rules = self.match.seed, self.match.base
        else:
            self._game = game_from_data(data, source)
            next_deal_from_data(data, self._game, source)
            self.seed, rules = self._game.seed, self._game.initial_rules
            # Replaying skips the acknowledgements of honour rules (they change no card): the log keeps them again.
            logged = [e for e in data["events"] if isinstance(e, dict)]
            if [e for e in logged if e.get("type") != "ack"] == self._game.events:
                self._game.events[:] = logged
            self.honour = honour_replayed(self._game)
        self.kind = game_kind(rules)
        self.reported_turns = len(self.match.records) if self.match is not None else 0
        self._extra = {}
        self._told_over = self.match is not None and self.match.result is not None
        self.stats = stats_recorder(self._game, restored=True)
        self.opening = {"said": [], "bot": []}
        return self

    # -- statistics (kallisti.stats): a patience is recorded once, won when reached, else when left ------------
    def record_end(self, status: str) -> None:
        """After an action: a patience whose `status` (that of `state()`) is won is recorded, once."""
        if self.stats is not None and status == "won":
            self.stats.won(self._game)

    def record_left(self) -> None:
        """The session is closed for good (the page deals another): a patience left unwon after a move is recorded,
        as lost or abandoned."""
        if self.stats is not None:
            self.stats.leave()

    # -- what is played -------------------------------------------------------------------------------
    @property
    def game(self):
        """The game on the table: the patience, or the game of the match's present (or just finished) turn."""
        return self.match.game if self.match is not None else self._game

    def _seat(self, seat, what: str) -> int | None:
        """The seat the match waits for to do `what` (refused otherwise); None in a patience."""
        if self.match is None:
            return None
        w = self.match.waiting()
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int)):
            raise BadRequest("`seat` is a seat number, e.g. 0")
        if w.what != what or (seat is not None and seat != w.seat):
            raise Refused("not-now", "not now: " + self.match._waiting_text(w))
        return w.seat

    # -- the state ------------------------------------------------------------------------------------
    def state(self) -> dict:
        """The table, the legal moves and (in a match) the seats, as plain data: docs/web.md, "The state"."""
        from kallisti.interpreter.compiler import RuleRuntimeError

        game = self.game
        rules = game.rules if game is not None else self.match.rules_for(self.match.current)
        playing_turn = self.match is None or self.match.waiting().what == "move"
        legal = game.legal_moves() if game is not None else []
        if self.match is not None:
            status = "over" if self.match.result is not None else "playing"
            reason = self.match.result.reason if self.match.result is not None else ""
        else:
            st = game.status(legal)
            status, reason = st.outcome, st.reason
        score = None
        if game is not None:
            try:
                score = game.score()
            except RuleRuntimeError:  # the score is unknown; the table is still shown
                score = None
        layouts = group_layouts(rules)
        return {
            "id": self.id,
            "game": self.name,
            "title": (self.match.base if self.match is not None else rules).name,
            "kind": self.kind,
            "seed": self.seed,
            "status": status,
            "reason": reason,
            "score": score,
            "moves_made": game.moves_made if game is not None else 0,
            "can_undo": bool(game is not None and playing_turn and game.history),
            "can_redo": bool(game is not None and playing_turn and game.redo_stack),
            "piles": self._piles(game) if game is not None else [],
            "groups": [{"name": g.name, "role": g.role, "tag": g.tag, "count": len(g.piles),
                        "tags": [rules.tag_of[p] for p in g.piles], "layout": layouts[g.name],
                        "take_from": list(g.take_from)} for g in rules.groups.values()],
            "legal": self.moves_list(legal) if playing_turn and (self.match is not None or status == "playing") else [],
            "honour": self._honour_dict(),
            "match": self._match_dict() if self.match is not None else None,
        }

    def _piles(self, game) -> list[dict]:
        rules, st = game.rules, game.state
        up, seen = faces_of(game.deck)
        out = []
        for p in range(game.P):
            g = rules.groups[rules.group_of[p]]
            pile, down = st.piles[p], st.down[p]
            if down:
                hidden = down - game.visible_down(p)
                cards = [HIDDEN if i < hidden else seen[c] if i < down else up[c] for i, c in enumerate(pile)]
            else:
                cards = [up[c] for c in pile]
            out.append({"tag": rules.tag_of[p], "group": g.name, "role": g.role, "index": p - g.piles.start,
                        "size": len(pile), "cards": cards})
        return out

    def moves_list(self, legal: list[int]) -> list[dict]:
        """Every legal move as data (`legal`, the game's legal moves, in its order): kallisti.web.move_data."""
        return moves_list(self.game, legal)

    def move_dict(self, m: int) -> dict:
        return move_dict(self.game, m)

    def _honour_dict(self) -> dict | None:
        if self.match is not None:
            return None
        due = self.honour_due()
        return honour_dict(due[0]) if due else None

    def _match_dict(self) -> dict:
        return match_dict(self.match)

    # -- honour rules of a patience (as `kallisti play` keeps them) -----------------------------------------
    def honour_due(self) -> list:
        return self.honour.due(self.game)

    def _honour_first(self, m: int | None = None) -> None:
        """Refuse to go on while an honour rule is due; `m`, the move asked for when known: a deal from the stock
        makes the `before deal` rules due before it (HonourRules.ask), as in `kallisti play`."""
        if self.match is not None:
            return
        due = self.honour.ask(self.game, m) if m is not None else self.honour_due()
        if due:
            raise Refused("not-now", f"first acknowledge: {due[0].says} (type `ok`)")

    def _moved(self) -> None:
        self.honour.moved()

    # -- actions --------------------------------------------------------------------------------------
    def move(self, text: str | None = None, src: str | None = None, dst: str | None = None, count=None,
             seat: int | None = None) -> dict:
        """Make the move `text` names (or `src dst [count]`), exactly as the terminal reads a typed move."""
        line = move_text(text, src, dst, count)
        if self.match is not None:
            return self._match_action(lambda: self._match_move(line, seat))
        game = self.game
        try:
            m = parse_move(game, line.lower())  # tags are lower case
        except MoveRefused as exc:
            raise Refused("move-refused", str(exc)) from None
        self._honour_first(m)
        sizes = [len(p) for p in game.state.piles]
        said = [narrate(game, m)]
        made = game.play(m)
        if game.decode(m)[0] == "deal":
            said[0] = dealt_text(game, m, sizes)
        if len(made) > 1:
            said.append("auto: " + ", ".join(describe(game, am) for am in made[1:]))
        self._moved()
        return {"said": said}

    def _match_move(self, line: str, seat) -> list[str]:
        seat = self._seat(seat, "move")
        game = self.game
        try:
            m = parse_move(game, line.lower())
        except MoveRefused as exc:
            raise Refused("move-refused", str(exc)) from None
        sizes = [len(p) for p in game.state.piles]
        said = [narrate(game, m)]
        made = self.match.move(seat, m)
        if self.match.deferred is not None:  # the deal waits for the `before deal` rules: told once it is made
            return [f"{said[0]}: first acknowledge the honour rules due before the deal"]
        if game.decode(m)[0] == "deal":
            said[0] = dealt_text(game, m, sizes)
        if len(made) > 1:
            said.append("auto: " + ", ".join(describe(game, am) for am in made[1:]))
        return said

    def deal(self, seat: int | None = None) -> dict:
        return self.move("d", seat=seat)

    def explain(self, src, dst, count=None) -> dict:
        """Whether the move `src dst [count]` is legal, and if not, why (nothing is made)."""
        line = move_text(None, src, dst, count)
        game = self.game
        if game is None or (self.match is not None and self.match.waiting().what != "move"):
            return {"legal": False, "why": "no game is being played now"}
        try:
            m = parse_move(game, line.lower())
        except MoveRefused as exc:
            return {"legal": False, "why": str(exc)}
        return {"legal": True, "why": "that move is legal", "move": self.move_dict(m)}

    def undo(self, seat: int | None = None) -> dict:
        if self.match is not None:
            def act():
                s = self._seat(seat, "move")
                if not self.match.undo(s):
                    raise Refused("not-now", "nothing to undo in this turn")
                return ["undone"]
            return self._match_action(act)
        if not self.game.undo():
            raise Refused("not-now", "nothing to undo")
        return {"said": ["undone"]}

    def redo(self, seat: int | None = None) -> dict:
        if self.match is not None:
            def act():
                s = self._seat(seat, "move")
                if not self.match.redo(s):
                    raise Refused("not-now", "nothing to redo")
                waits = self.match.deferred is not None  # a deal redone waits for the `before deal` rules
                return ["redo: first acknowledge the honour rules due before the deal" if waits else "redone"]
            return self._match_action(act)
        if not self.game.redo():
            raise Refused("not-now", "nothing to redo")
        return {"said": ["redone"]}

    def auto(self, seat: int | None = None) -> dict:
        """The ruleset's automatic moves, on request (the terminal's `a`)."""
        if self.match is not None:
            def act():
                s = self._seat(seat, "move")
                game = self.game
                made = self.match.auto(s)
                if not made:
                    raise Refused("not-now", "no automatic move to make")
                return ["auto: " + ", ".join(describe(game, m) for m in made)]
            return self._match_action(act)
        self._honour_first()
        game = self.game
        made = game.play_auto()
        made += self.autoplay.follow(game, new_step=not made)  # safe moves home, the end of a game won by force
        if not made:
            from kallisti.solver.autoplay import sole_compulsory

            m = sole_compulsory(game)
            if m is None:
                raise Refused("not-now", "no automatic move to make")
            said = [narrate(game, m)]
            made = game.play(m)
            if len(made) > 1:
                said.append("auto: " + ", ".join(describe(game, am) for am in made[1:]))
            self._moved()
            return {"said": said}
        self._moved()
        return {"said": ["auto: " + ", ".join(describe(game, m) for m in made)]}

    @property
    def autoplay(self):
        """The terminal's autoplay (kallisti.solver.autoplay): the moves home that `a` makes besides the ruleset's."""
        if getattr(self, "_autoplay", None) is None:
            from kallisti.solver.autoplay import Autoplay

            self._autoplay = Autoplay()
        return self._autoplay

    def hint(self) -> dict:
        """A good legal move (the terminal's `hint`), and where it comes from."""
        from kallisti.solver.strategies import hint_with_source

        game = self.game
        if game is None or (self.match is not None and self.match.waiting().what != "move") \
                or game.status().outcome != "playing":
            return {"move": None, "source": "none", "positions": 0, "why": "no move is left"}
        h = hint_with_source(game)
        return {"move": None if h.move is None else self.move_dict(h.move), "source": h.source,
                "positions": h.positions, "why": h.why}

    def acknowledge(self, seat: int | None = None) -> dict:
        if self.match is not None:
            def act():
                s = self._seat(seat, "ack")
                waiting, game = self.match.deferred, self.game
                sizes = [len(p) for p in game.state.piles] if waiting is not None else []
                rule = self.match.acknowledge(s)
                said = [does(self.match.seats[s].name, f"acknowledges: {rule.says}")]
                if waiting is not None and self.match.deferred is None:  # the deal that waited for it is made now
                    said.append(dealt_text(game, waiting[1], sizes) if waiting[0] == "move" else "redone")
                return said
            return self._match_action(act)
        h = self.honour.acknowledge(self.game)
        if h is None:
            raise Refused("not-now", "no honour rule is waiting to be acknowledged")
        return {"said": [f"acknowledged: {h.says}"]}

    def shuffle(self, shuffle, seat: int | None = None) -> dict:
        self._need_match()
        if not isinstance(shuffle, bool):
            raise BadRequest("`shuffle` is true or false")

        def act():
            s = self._seat(seat, "shuffle")
            self.match.choose_shuffle(s, shuffle)
            return [f"{self.match.seats[s].name} {'shuffles' if shuffle else 'keeps the pack as it is'}"]
        return self._match_action(act)

    def revoke(self, change_id, seat: int | None = None) -> dict:
        from kallisti.interpreter.match import MatchError

        self._need_match()
        if not isinstance(change_id, str):
            raise BadRequest("`id` is the id of a change, e.g. \"c2\"")

        def act():
            s = self._seat(seat, "player-x")
            try:
                c = self.match.revoke(s, change_id)
            except MatchError as exc:
                raise Refused("not-now", str(exc)) from None
            return [does(self.match.seats[s].name, f"revokes {c.id}: {c.text}")]
        return self._match_action(act)

    def pass_turn(self, seat: int | None = None) -> dict:
        self._need_match()

        def act():
            s = self._seat(seat, "player-x")
            self.match.pass_turn(s)
            return [does(self.match.seats[s].name, "passes")]
        return self._match_action(act)

    # -- rule changes ---------------------------------------------------------------------------------------
    def check_rule(self, text: str, seat: int | None = None) -> dict:
        """Check a change completely without adopting it: findings with line:column, and the diff it would make."""
        from kallisti.interpreter import amend
        from kallisti.interpreter.match import MatchError
        from kallisti.model.diff import ruleset_diff

        text = change_text(text)
        if self.match is not None:
            target = self.match.current
            try:
                x = self._seat(seat, "player-x")
                current = self.match.rules_for(target)
                adopted = self.match.check_change(x, text, CHANGE_SOURCE)
            except Refused as exc:
                return {"ok": False, "findings": [plain_finding(exc.code, exc.message)], "diff": [], "target": target}
            except MatchError as exc:
                return {"ok": False, "findings": [plain_finding("not-now", str(exc))], "diff": [], "target": target}
            except KallistiError as exc:
                return {"ok": False, "findings": [finding_dict(f) for f in exc.findings], "diff": [], "target": target}
            return {"ok": True, "findings": _new_warnings(current, adopted.rules),
                    "diff": ruleset_diff(current.data, adopted.data), "target": target}
        game = self.game
        current = game.rules
        try:
            adopted = amend.amend(current.data, text, source=CHANGE_SOURCE, baseline=current)
        except KallistiError as exc:
            return {"ok": False, "findings": [finding_dict(f) for f in exc.findings], "diff": [], "target": None}
        diff = ruleset_diff(current.data, adopted.data)
        if not game.same_layout(adopted.rules):
            return {"ok": False, "findings": [_layout_finding()], "diff": diff, "target": None}
        return {"ok": True, "findings": _new_warnings(current, adopted.rules), "diff": diff, "target": None}

    def rule(self, text: str, seat: int | None = None) -> dict:
        """Adopt a change (Player X's, in a match), or refuse it with its findings, leaving everything as it was."""
        from kallisti.interpreter.game import LayoutChanged
        from kallisti.interpreter.match import MatchError
        from kallisti.interpreter.save import adopt_change
        from kallisti.model.diff import ruleset_diff

        text = change_text(text)
        refused = "change refused; the rules stay as they were"
        if self.match is not None:
            m = self.match

            def act():
                x = self._seat(seat, "player-x")
                target = m.current
                before = m.rules_for(target)
                try:
                    change = m.impose(x, text, CHANGE_SOURCE)
                except MatchError as exc:
                    raise Refused("change-refused", refused, [plain_finding("not-now", str(exc))]) from None
                except KallistiError as exc:
                    raise Refused("change-refused", refused, [finding_dict(f) for f in exc.findings]) from None
                self._extra = {"diff": ruleset_diff(before.data, m.rules_for(target).data), "change": change_dict(change)}
                return [does(m.seats[x].name, f"imposes {change.id} on {m.seats[target].name}, from {hir(m.seats[target].name)} next "
                             f"turn: {change.text}")]
            return self._match_action(act)
        game = self.game
        before = game.rules
        try:
            adopt_change(game, text, CHANGE_SOURCE)
        except LayoutChanged:
            raise Refused("change-refused", refused, [_layout_finding()]) from None
        except KallistiError as exc:
            raise Refused("change-refused", refused, [finding_dict(f) for f in exc.findings]) from None
        return {"said": [f"rule changed, from the next move: {text.strip()}"],
                "diff": ruleset_diff(before.data, game.rules.data), "change": None,
                "findings": _new_warnings(before, game.rules)}

    # -- the match and its bots -----------------------------------------------------------------------------
    def _need_match(self) -> None:
        if self.match is None:
            raise Refused("not-a-match", f"{self.game.rules.name} is played alone: there is no match")

    def _match_action(self, act) -> dict:
        """Carry out a person's action on the match, then let the bots act until a person must; report both."""
        from kallisti.interpreter.match import MatchError

        self._extra = {}
        try:
            said = act()
        except MatchError as exc:
            raise Refused("not-now", f"not now: {exc}") from None
        said += self._turn_reports()
        result = {"said": said, **self._extra}
        result["bot"] = self.let_bots_act()
        result["said"] += self._turn_reports()
        return result

    def let_bots_act(self) -> list[dict]:
        """Every bot seat acts until the match waits for a person or is over; returns what they did."""
        if self.match is None:
            return []
        actions = []

        def heard(seat, what, detail):
            action = {"seat": seat, "name": self.match.seats[seat].name, "what": what, "detail": detail,
                      "said": self._turn_reports()}
            game = self.match.game
            if what == "move" and game is not None:  # the table after it, for the page to play the turn out
                action["piles"] = self._piles(game)
            actions.append(action)
        self.bots.act(heard)
        moves = [a for a in actions if "piles" in a]
        for a in moves[:-PLAYED_OUT_MOVES]:  # a long run of bots (a match of bots alone): only its end is played out
            del a["piles"]
        return actions

    def _turn_reports(self) -> list[str]:
        """`turn over (...): ann scores 12, total -11` for each turn finished since the last report."""
        m = self.match
        out = []
        while self.reported_turns < len(m.records):
            rec = m.records[self.reported_turns]
            self.reported_turns += 1
            out.append(f"turn over ({rec.reason}): {does(m.seats[rec.seat].name, f'scores {rec.score}')}, total {rec.total}")
        if m.result is not None and not self._told_over:
            self._told_over = True
            who = "a draw" if m.result.loser is None else f"{m.seats[m.result.loser].name} loses"
            out.append(f"match over: {who}: {m.result.reason}")
        return out


# -- helpers ---------------------------------------------------------------------------------------------
def _layout_finding() -> dict:
    return plain_finding("change-layout", "this changes the deck or the piles, which can change only with a new deal; "
                         "the browser plays on the table as dealt (write the change in a ruleset file instead)")


def _new_warnings(before, after) -> list[dict]:
    """Warnings the changed rules have and the rules before did not (e.g. the game can no longer be won)."""
    old = {(f.code, f.message) for f in before.findings}
    return [finding_dict(f) for f in after.findings if (f.code, f.message) not in old]
