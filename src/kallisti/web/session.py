"""One game or match played through the JSON API: the engine calls of `kallisti play`, and its state as plain data.

A Session wraps a Game (a patience) or a Match (Discordian Solitaire) and its bots. Every action goes
through the calls the terminal makes — move text through `notation.parse_move`, so a refused move
carries the terminal's explanation word for word; `Game.play_auto`, `strategies.hint`, `amend.amend`,
the Match's actions and `Bots.act` — and answers with plain dicts ready for JSON. Nothing here knows
of the web: a refusal is a `Refused` exception with an error code, and `state()` is the table as data.
"""

from __future__ import annotations

import re
import secrets
import threading
from types import SimpleNamespace

from kallisti.errors import Finding, KallistiError, Pos
from kallisti.interpreter.honour import HonourRules
from kallisti.interpreter.notation import MoveRefused, describe, narrate, parse_move
from kallisti.model.layout import group_layouts
from kallisti.persons import does, hir

SEED_LIMIT = 10**9  # a fresh session picks its deal number below this, as `kallisti play` does (cli.play.MAX_SEED)
CHANGE_SOURCE = "<change>"  # the source name of rule-change text: findings there have a line and column in it
_TAG = re.compile(r"[a-z][a-z0-9]{0,15}")
_COUNT_LIMIT = 10**6


class Refused(Exception):
    """An action refused: `code` (docs/web.md), the refusal in words, and the findings of a refused rule change."""

    def __init__(self, code: str, message: str, findings: list[dict] | None = None):
        super().__init__(message)
        self.code, self.message, self.findings = code, message, findings or []


class BadRequest(Exception):
    """A request the session cannot read: a field missing or of the wrong type, an unknown seat, a bad seed."""

    def __init__(self, message: str, code: str = "bad-request"):
        super().__init__(message)
        self.code, self.message = code, message


def finding_dict(finding, source: str = CHANGE_SOURCE) -> dict:
    """A Finding as JSON: line and column only when it points into the text typed (`source`), else null."""
    here = finding.pos.source == source and finding.pos.line > 0
    return {"line": finding.pos.line if here else None, "column": finding.pos.column if here else None,
            "code": finding.code, "message": finding.message, "severity": finding.severity,
            "suggestion": finding.suggestion}


def plain_finding(code: str, message: str, severity: str = "error") -> dict:
    from kallisti.unsafe import visible  # a message may quote what was sent, as a Finding's may

    return {"line": None, "column": None, "code": code, "message": visible(message), "severity": severity,
            "suggestion": None}


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


def parse_players(players) -> list:
    """Seats from a list of names (or a comma-separated string), `bot` or `bot:STRATEGY`, as `play --players`."""
    from kallisti.interpreter.match import seats_from_text
    from kallisti.solver.strategies import STRATEGIES

    if isinstance(players, list):
        if not all(isinstance(p, str) for p in players):
            raise BadRequest("`players` is a list of names: strings")
        if any("," in p for p in players):
            raise BadRequest("a player's name holds no comma")
        text = ",".join(players)
    elif isinstance(players, str):
        text = players
    else:
        raise BadRequest("`players` is a list of names, e.g. [\"ann\", \"bot\"]")
    if len(text) > 1000:
        raise BadRequest("`players` is too long")
    try:
        seats = seats_from_text(text)
    except ValueError as exc:
        raise BadRequest(str(exc), "not-playable") from None
    for s in seats:
        if s.is_bot and s.strategy not in STRATEGIES:
            raise BadRequest(f"no bot strategy '{s.strategy}'; choose from {', '.join(STRATEGIES)}", "not-playable")
    return seats


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
        self.stats = _stats_recorder(self._game)
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
            self.honour = _honour_replayed(self._game)
        self.kind = game_kind(rules)
        self.reported_turns = len(self.match.records) if self.match is not None else 0
        self._extra = {}
        self._told_over = self.match is not None and self.match.result is not None
        self.stats = _stats_recorder(self._game, restored=True)
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
                        "tags": [rules.tag_of[p] for p in g.piles], "layout": layouts[g.name]}
                       for g in rules.groups.values()],
            "legal": self.moves_list(legal) if playing_turn and (self.match is not None or status == "playing") else [],
            "honour": self._honour_dict(),
            "match": self._match_dict() if self.match is not None else None,
        }

    def _piles(self, game) -> list[dict]:
        rules, st = game.rules, game.state
        up, seen = _faces(game.deck)
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
        """Every legal move as data (`legal`, the game's legal moves, in its order)."""
        game = self.game
        decoded = [game.decode(m) for m in legal]
        runs = {(src, dst) for kind, src, dst, n in decoded if kind == "move" and n > 1}
        return [self.move_dict(m, runs) for m in legal]

    def move_dict(self, m: int, runs: set | None = None) -> dict:
        """A move as data: its kind, piles, card count, the exact text that makes it, and a sentence.

        `runs`: the (source, target) pairs of the legal moves of several cards, when known: then the text is
        `describe`'s without its search of the legal moves for them (which would cost a move generation a move).
        """
        game = self.game
        kind, src, dst, n = game.decode(m)
        tag = game.rules.tag_of
        if runs is not None and kind == "move" and n == 1 and game.take_max[game.gindex[src]] > 1:
            text = f"{tag[src]} {tag[dst]}" + (" 1" if (src, dst) in runs else "")  # as describe writes it
        else:
            text = describe(game, m)
        out = {"kind": kind, "from": tag[src], "to": tag[dst] if kind in ("move", "discard") else None,
               "count": n if kind in ("move", "discard") else 1, "text": text, "says": narrate(game, m)}
        if kind == "discard":
            _, start, length = game.window(m)
            out["start"], out["count"] = start + 1, length
        return out

    def _honour_dict(self) -> dict | None:
        if self.match is not None:
            return None
        due = self.honour_due()
        return _honour(due[0]) if due else None

    def _match_dict(self) -> dict:
        from kallisti.model.diff import ruleset_diff

        m = self.match
        w = m.waiting()
        seats = []
        for i, s in enumerate(m.seats):
            seats.append({
                "seat": i, "name": s.name, "bot": s.is_bot, "strategy": s.strategy, "total": m.totals[i],
                "loses_at": m.loses_at(i), "turns": m.turns_taken[i],
                "changes": [_change(c) for c in m.changes if c.target == i],
                "diff": ruleset_diff(m.base.data, m.rules_for(i).data)})
        x = m.player_x()
        x_waits = w.what == "player-x"
        result = None
        if m.result is not None:
            loser = m.result.loser
            result = {"loser": loser, "loser_name": None if loser is None else m.seats[loser].name,
                      "draw": loser is None, "reason": m.result.reason}
        return {
            "turn": m.turn,
            "current": m.current,
            "player_x": x,
            "waiting": {"seat": w.seat, "name": None if w.seat is None else m.seats[w.seat].name, "what": w.what,
                        "says": m._waiting_text(w), "honour": _honour(w.honour) if w.what == "ack" else None},
            "seats": seats,
            "revokable": [c.id for c in m.revokable(x)] if x_waits and m.x_rules(x).revoke and not m.x_actions else [],
            "may_change": x_waits and m.x_actions < m.x_rules(x).changes,
            "turns": [{"seat": r.seat, "turn": r.turn, "score": r.score, "total": r.total, "reason": r.reason}
                      for r in m.records],
            "result": result,
        }

    # -- honour rules of a patience (as `kallisti play` keeps them) -----------------------------------------
    def honour_due(self) -> list:
        return self.honour.due(self.game)

    def _honour_first(self) -> None:
        due = self.honour_due() if self.match is None else []
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
        self._honour_first()
        said = [narrate(game, m)]
        made = game.play(m)
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
        said = [narrate(game, m)]
        made = self.match.move(seat, m)
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
                return ["redone"]
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
        if not made:
            raise Refused("not-now", "no automatic move to make")
        self._moved()
        return {"said": ["auto: " + ", ".join(describe(game, m) for m in made)]}

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
                rule = self.match.acknowledge(s)
                return [does(self.match.seats[s].name, f"acknowledges: {rule.says}")]
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

        text = _change_text(text)
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

        text = _change_text(text)
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
                self._extra = {"diff": ruleset_diff(before.data, m.rules_for(target).data), "change": _change(change)}
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
            actions.append({"seat": seat, "name": self.match.seats[seat].name, "what": what, "detail": detail})
        self.bots.act(heard)
        return actions

    def _turn_reports(self) -> list[str]:
        """`turn over (...): ann scores 12, total -11` for each turn finished since the last report."""
        m = self.match
        out = []
        while self.reported_turns < len(m.records):
            rec = m.records[self.reported_turns]
            self.reported_turns += 1
            out.append(f"turn over ({rec.reason}): {m.seats[rec.seat].name} scores {rec.score}, total {rec.total}")
        if m.result is not None and not self._told_over:
            self._told_over = True
            who = "a draw" if m.result.loser is None else f"{m.seats[m.result.loser].name} loses"
            out.append(f"match over: {who}: {m.result.reason}")
        return out


# -- helpers ---------------------------------------------------------------------------------------------
def _stats_recorder(game, restored: bool = False):
    """What records the patience `game` for `kallisti stats` (None in a match, or with KALLISTI_NO_STATS); a game
    brought back from its save that is won was recorded when it was won. A database that cannot be written is
    logged once."""
    import logging

    from kallisti.stats import recorder

    stats = recorder(logging.getLogger("kallisti.stats").warning) if game is not None else None
    if stats is not None:
        stats.follow(game, recorded=restored and game.status().outcome == "won")
    return stats


def move_text(text, src, dst, count) -> str:
    """The move as typed: `text`, or `src dst [count]` from the fields (tags only, so nothing else is typed)."""
    if text is not None:
        if not isinstance(text, str) or not text.strip():
            raise BadRequest("`text` is a move as typed in `kallisti play`, e.g. \"t3 f1\"")
        return text
    if not isinstance(src, str) or not isinstance(dst, str):
        raise BadRequest("a move is {\"text\": \"t3 f1\"} or {\"from\": \"t3\", \"to\": \"f1\", \"count\": 1}")
    for name, tag in (("from", src), ("to", dst)):
        if not _TAG.fullmatch(tag.lower()):
            raise BadRequest(f"`{name}` is a pile's tag, e.g. \"t3\"")
    line = f"{src} {dst}"
    if count is not None:
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= _COUNT_LIMIT:
            raise BadRequest("`count` is a number of cards, 1 or more")
        line += f" {count}"
    return line


def _change_text(text) -> str:
    if not isinstance(text, str) or not text.strip():
        raise BadRequest("`text` is a rule change, e.g. \"set field.count 5\"")
    return text


HIDDEN = {"id": None, "rank": None, "suit": None, "symbol": None, "colour": None, "face_up": False, "text": "##"}
_FACES: dict[object, tuple[list[dict], list[dict]]] = {}  # per deck: every card face up, and face down but shown
_FACES_LOCK = threading.Lock()  # sessions are played in several threads at once


def _faces(deck) -> tuple[list[dict], list[dict]]:
    """The JSON of each card of a deck, face up and face down but shown (`(5♥)`): made once per deck.

    The dicts are shared by every state of the deck's games; nothing may change them."""
    with _FACES_LOCK:
        return _FACES.get(deck.signature) or _made_faces(deck)


def _made_faces(deck) -> tuple[list[dict], list[dict]]:
    """`_faces` of a deck not yet seen (holding `_FACES_LOCK`)."""
    up, seen = [], []
    for c in range(deck.size):
        suit = deck.suits[deck.suit[c]]
        card = {"id": c, "rank": deck.ranks[deck.rank[c]], "suit": suit.name, "symbol": suit.symbol,
                "colour": suit.color, "face_up": True, "text": deck.name(c)}
        up.append(card)
        seen.append({**card, "face_up": False, "text": f"({card['text']})"})
    faces = _FACES[deck.signature] = (up, seen)
    if len(_FACES) > 256:  # decks changed by rule changes: keep the cache small
        _FACES.pop(next(iter(_FACES)))
    return faces


def _honour_replayed(game) -> HonourRules:
    """The honour rules still due in a patience rebuilt from its save: those of its first deal, less the ones its
    events acknowledged, as `Session.acknowledge` and `Session._moved` kept them while it was played."""
    honour = HonourRules(SimpleNamespace(rules=game.initial_rules))
    for event in game.events:
        kind = event.get("type") if isinstance(event, dict) else None
        if kind == "ack":
            if honour.pending and honour.pending[0].id == event.get("rule"):
                honour.pending.pop(0)
            else:
                honour.move_acks.add(event.get("rule"))
        elif kind in ("move", "auto"):
            honour.moved()
    return honour


def _honour(h) -> dict | None:
    return None if h is None else {"id": h.id, "at": h.at, "says": h.says}


def _change(c) -> dict:
    return {"id": c.id, "by": c.author, "on": c.target, "after_turn": c.turn, "text": c.text, "active": c.active}


def _layout_finding() -> dict:
    return plain_finding("change-layout", "this changes the deck or the piles, which can change only with a new deal; "
                         "the browser plays on the table as dealt (write the change in a ruleset file instead)")


def _new_warnings(before, after) -> list[dict]:
    """Warnings the changed rules have and the rules before did not (e.g. the game can no longer be won)."""
    old = {(f.code, f.message) for f in before.findings}
    return [finding_dict(f) for f in after.findings if (f.code, f.message) not in old]
