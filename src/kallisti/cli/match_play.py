"""Text-mode play of a match: people at one terminal and bots, turns, honour rules and Player X's rule changes."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from kallisti.cli.command_lines import command_lines
from kallisti.cli.play_text import file_refused
from kallisti.cli.render import entry_lines, legend_lines, table_lines, wrapped
from kallisti.errors import KallistiError
from kallisti.interpreter.match import MatchError
from kallisti.interpreter.notation import MoveRefused, describe, narrate, parse_move
from kallisti.model.diff import ruleset_diff
from kallisti.persons import does, hir, whose
from kallisti.unsafe import visible

OVER, BAD_INPUT, QUIT = 0, 1, 4

# The commands, as `help` lists them (whoever the match waits for types them), wrapped to the terminal's width.
HELP = (
    ("ok", "acknowledge the honour rule shown (do what it says first)"),
    ("shuffle / keep", "shuffle the pack before dealing, or deal it as it was gathered (where the rules let you "
                       "choose)"),
    ("SRC DST [N]", "move cards, e.g. `c3 f`;  d: deal a new foundation;  u / r: undo / redo within your turn"),
    ("hint / moves", "a move to make / every legal move"),
    ("table / legend", "the table again / what its tags and marks mean"),
    ("rule CHANGE", "as Player X: change one rule for the player who has just played, e.g. "
                    "`rule set field.count 5` or `rule honour dance before deal: \"Dance first.\"`"),
    ("revoke ID / pass", "as Player X: take back a change that player imposed on you / change nothing"),
    ("rules / diff [NAME]", "the changes imposed on each player / a player's rules against the base"),
    ("scores", "every player's total"),
    ("save / load FILE", "save the match / go on from a save"),
    ("help / q", "this list / quit"),
)
HELP_AFTER = "Blank lines and lines starting with # are ignored."

Out = Callable[[str], None]


def run_match_session(match, lines: Iterable[str], out: Out, *, err: Out | None = None, color: bool = False,
                      tip: bool = False) -> int:
    """Play `match` with one command per line; returns 0 when the match ends, 4 on quit (a save that cannot be loaded,
    or a file that `save` must not replace, is refused and the match goes on)."""
    session = _MatchSession(match, out, err or out, color)
    out(f"{match.base.name}: " + " vs ".join(s.name + (" (bot)" if s.is_bot else "") for s in match.seats) + f", match {match.seed}")
    if tip:
        out("type `help` for the commands, `q` to quit")
    session.go_on()
    for line in command_lines(lines, out, stop=session.over):
        code = session.command(line)
        if code is not None:
            return code
        session.go_on()
    if session.over():
        return OVER
    out("*** QUIT ***")
    return QUIT


class _MatchSession:
    def __init__(self, match, out: Out, err: Out, color: bool):
        from kallisti.solver.bots import Bots

        self.match, self.out, self.err, self.color = match, out, err, color
        self.bots = Bots(match)
        self.shown: tuple | None = None  # the last prompt shown, so it is not repeated
        self.bot_moves: list[str] = []
        self.reported_turns = 0
        self.bannered = 0  # the turn whose banner was shown
        self.ended = False
        # A deal from the stock waiting for the honour rules due before it (Match.deferred): what to say once it is
        # made, and a bot's deal, listed among its moves only then, after its acknowledgements.
        self.deal_said: str | None = None
        self.bot_deal: str | None = None

    def over(self) -> bool:
        return self.ended

    # -- what happens between commands -----------------------------------------------------------
    def go_on(self) -> None:
        """Report the turns finished, let the bots act, and show what the match waits for.

        A turn is reported as soon as it is over, before anything done after it (Player X's change, the next turn's
        moves): every report comes in the order of play."""
        self._report_turns()
        self.bots.act(self._bot_action)
        self._report_turns()
        w = self.match.waiting()
        if w.what == "over":
            if not self.ended:
                self._flush_bot_moves()
                r = self.match.result
                totals = ", ".join(f"{s.name} {t}" for s, t in zip(self.match.seats, self.match.totals))
                who = "a draw" if r.loser is None else does(self.match.seats[r.loser].name, "loses")
                self.out(f"*** MATCH OVER: {who}: {r.reason} ({totals}) ***")
                self.ended = True
            return
        key = (w.what, w.seat, self.match.turn, len(self.match.events))
        if key == self.shown:
            return
        self.shown = key
        name = self.match.seats[w.seat].name
        if w.what == "ack":
            moment = w.honour.at.replace("-", " ")
            self.out(f"honour rule for {name} ({moment}): {w.honour.says}  [do it, then type `ok`]")
        elif w.what == "shuffle":
            self.out(f"{name}: you need not shuffle. `shuffle`, or `keep` to deal the pack as it was gathered")
        elif w.what == "move":
            if self.bannered != self.match.turn:
                self.bannered = self.match.turn
                self._turn_banner()
            self.show_table()
        elif w.what == "player-x":
            target = self.match.seats[self.match.current].name
            may = [c.id for c in self.match.revokable(w.seat)]
            revoke = f", `revoke ID` ({', '.join(may)})" if may and self.match.x_rules(w.seat).revoke else ""
            self.out(does(name, f"is Player X: `rule CHANGE` to change a rule for {target}{revoke}, or `pass`"))

    def _turn_banner(self) -> None:
        """Who plays, every player's total, and the rules imposed on each player."""
        m = self.match
        seat = m.current
        self.out(f"-- turn {m.turn}: {m.seats[seat].name} to play; scores: "
                 + ", ".join(f"{s.name} {t} (loses at {m.loses_at(i)})" for i, (s, t) in enumerate(zip(m.seats, m.totals))))
        for s in range(len(m.seats)):
            for line in self._changes_lines(s):
                self.out("   " + line)

    def _changes_lines(self, seat: int) -> list[str]:
        active = self.match.active_changes(seat)
        if not active:
            return [f"rules on {self.match.seats[seat].name}: the base rules"]
        return [f"rules on {self.match.seats[seat].name}:"] + [
            f"  {c.id} (by {self.match.seats[c.author].name}, after turn {c.turn}): {c.text}" for c in active]

    def _bot_action(self, seat: int, what: str, detail: str) -> None:
        """What a bot did, just after it did it. Every turn finished before it has been reported (go_on reports them
        before the bots act), so a turn finished now was finished by this action: a move is that turn's last."""
        name = self.match.seats[seat].name
        if what == "move":
            if self.match.deferred is not None:
                self.bot_deal = detail
                return
            self.bot_moves.append(detail)
            self._report_turns()
            return
        self._flush_bot_moves()
        if what == "ack":
            self.out(f"{name} acknowledges: {detail}")
            if self.bot_deal is not None and self.match.deferred is None:
                self.bot_moves.append(self.bot_deal)
                self.bot_deal = None
        elif what == "shuffle":
            self.out(f"{name} {detail}")
        else:
            self.out(f"{name} (Player X) {detail}")
        self._report_turns()

    def _flush_bot_moves(self) -> None:
        if self.bot_moves:
            self.out(f"   plays: {', '.join(self.bot_moves)}")
            self.bot_moves = []

    def _report_turns(self) -> None:
        m = self.match
        while self.reported_turns < len(m.records):
            rec = m.records[self.reported_turns]
            self.reported_turns += 1
            if m.seats[rec.seat].is_bot:
                self.out(f"-- turn {rec.turn}: {m.seats[rec.seat].name} (total {rec.total - rec.score})")
            self._flush_bot_moves()
            if rec.final is not None:  # the field the score is counted on
                self.out(f"   turn {rec.turn} ends with this field:")
                for line in table_lines(rec.final, self.color):
                    self.out("   " + line)
            self.out(f"   turn over ({rec.reason}): " + does(m.seats[rec.seat].name, f"scores {rec.score}, total {rec.total}"))
            totals = [m.base.match.start_score] * len(m.seats)
            for earlier in m.records[:self.reported_turns]:
                totals[earlier.seat] = earlier.total
            self.out("   scores: " + ", ".join(f"{s.name} {t}" for s, t in zip(m.seats, totals)))

    def scores_text(self) -> str:
        m = self.match
        return ", ".join(f"{s.name} {t}" for s, t in zip(m.seats, m.totals))

    def show_table(self) -> None:
        for line in table_lines(self.match.game, self.color):
            self.out(line)

    # -- commands ----------------------------------------------------------------------------------
    def command(self, line: str) -> int | None:
        words = line.split()
        verb = words[0].lower()
        rest = line.split(None, 1)[1].strip() if len(words) > 1 else ""
        m = self.match
        w = m.waiting()
        if len(words) == 1 and verb in ("q", "quit", "exit"):
            self.out("*** QUIT ***")
            return QUIT
        try:
            if len(words) == 1 and verb in ("help", "?"):
                for text in ["commands (whoever the match waits for types them):", *entry_lines(HELP), *wrapped(HELP_AFTER)]:
                    self.out(text)
            elif len(words) == 1 and verb == "legend" and m.game is not None:
                for text in legend_lines(m.game):
                    self.out(text)
            elif len(words) == 1 and verb == "scores":
                self.out("scores: " + self.scores_text())
            elif len(words) == 1 and verb == "rules":
                for s in range(len(m.seats)):
                    for text in self._changes_lines(s):
                        self.out(text)
                revoked = [c for c in m.changes if not c.active]
                for c in revoked:
                    self.out(f"revoked: {c.id} (on {m.seats[c.target].name}, after turn {c.revoked_turn}): {c.text}")
            elif verb == "diff":
                self._diff(rest)
            elif verb in ("save", "load"):
                return self._file_command(verb, rest)
            elif len(words) == 1 and verb in ("ok", "ack", "done"):
                rule = m.acknowledge(w.seat)
                self.out(does(m.seats[w.seat].name, f"acknowledges: {rule.says}"))
                if self.deal_said is not None and m.deferred is None:  # the deal waited for that rule: now made
                    self.out(self.deal_said)
                    self.deal_said = None
            elif len(words) == 1 and verb in ("shuffle", "keep"):
                m.choose_shuffle(w.seat, verb == "shuffle")
            elif verb == "rule":
                self._rule(w, rest)
            elif verb == "revoke":
                c = m.revoke(w.seat, rest)
                self.out(does(m.seats[w.seat].name, f"revokes {c.id}: {c.text}"))
            elif len(words) == 1 and verb == "pass":
                m.pass_turn(w.seat)
                self.out(does(m.seats[w.seat].name, "passes"))
            elif w.what != "move":
                self.out(f"not now: {m._waiting_text(w)}")
            else:
                self._play_command(w.seat, words, verb, line)
        except MatchError as exc:
            self.out(f"not now: {exc}")
        return None

    def _play_command(self, seat: int, words: list[str], verb: str, line: str) -> None:
        m, game = self.match, self.match.game
        if len(words) == 1 and verb in ("table", "l"):
            self.show_table()
        elif len(words) == 1 and verb in ("u", "undo"):
            self.out("undone" if m.undo(seat) else "nothing to undo in this turn")
        elif len(words) == 1 and verb in ("r", "redo"):
            if not m.redo(seat):
                self.out("nothing to redo")
            elif m.deferred is not None:
                self.deal_said = "redone"
            else:
                self.out("redone")
        elif len(words) == 1 and verb == "hint":
            from kallisti.solver.strategies import hint

            mv = hint(game)
            self.out(f"hint: {describe(game, mv)}" if mv is not None else "hint: no move is left")
        elif len(words) == 1 and verb == "moves":
            moves = game.legal_moves()
            for mv in moves:
                self.out(f"  {describe(game, mv):<10} {narrate(game, mv)}")
        else:
            try:
                mv = parse_move(game, line.lower())
            except MoveRefused as exc:
                self.out(f"refused: {exc}")
                return
            said = narrate(game, mv)
            m.move(seat, mv)
            if m.deferred is not None:  # a deal waits for the honour rules due before it: said once it is made
                self.deal_said = said
            else:
                self.out(said)

    def _rule(self, w, text: str) -> None:
        m = self.match
        if w.what != "player-x":
            self.out(f"not now: {m._waiting_text(w)}")
            return
        if not text:
            self.out("rule needs a change, e.g. `rule set field.count 5`")
            return
        target = m.current
        before = m.rules_for(target)
        try:
            change = m.impose(w.seat, text)
        except KallistiError as exc:
            self.out("change refused; the rules stay as they were:")
            for finding in exc.findings:
                self.out(f"  {finding}")
            return
        target_name = m.seats[target].name
        self.out(does(m.seats[w.seat].name, f"imposes {change.id} on {target_name}, from {hir(target_name)} next turn: "
                                            f"{change.text}"))
        for finding in change.warnings:
            self.out(f"  {finding}")
        for line in ruleset_diff(before.data, m.rules_for(target).data):
            self.out("   " + line)

    def _diff(self, name: str) -> None:
        m = self.match
        if name:
            seats = [i for i, s in enumerate(m.seats) if s.name == name]
            if not seats:
                self.out(f"no player named '{visible(name)}' (players: {', '.join(s.name for s in m.seats)})")
                return
            seat = seats[0]
        else:
            w = m.waiting()
            seat = m.current if w.what != "player-x" else m.current
        lines = ruleset_diff(m.base.data, m.rules_for(seat).data)
        self.out(f"{whose(m.seats[seat].name)} rules against the base: " + ("the same" if not lines else ""))
        for line in lines:
            self.out("   " + line)

    def _file_command(self, verb: str, name: str) -> None:
        """`save FILE` or `load FILE`; a refused one says why, and the match in progress goes on."""
        from kallisti.interpreter.save import load_saved, save_match

        if not name:
            self.out(f"{verb} needs a file name, e.g. `{verb} match.json`")
            return None
        if verb == "save":
            try:
                kept = save_match(self.match, Path(name))
            except (OSError, ValueError) as exc:  # ValueError: a name holding NUL
                self.out(f"cannot save to {visible(name)}: {visible(getattr(exc, 'strerror', None) or str(exc))}; "
                         "the match goes on unsaved")
                return None
            except KallistiError as exc:
                file_refused(exc, self.err, self.out, "not saved; the match goes on unsaved")
                return None
            self.out(f"saved to {visible(name)}" + ("" if kept is None else f" (the save it replaced is kept in "
                                                      f"{visible(str(kept))})"))
            return None
        try:
            loaded = load_saved(Path(name))
        except KallistiError as exc:
            file_refused(exc, self.err, self.out, "not loaded; the match goes on as it was")
            return None
        if not hasattr(loaded, "seats"):
            self.out(f"{visible(name)} holds a single game, not a match; the match goes on as it was")
            return None
        from kallisti.solver.bots import Bots

        self.match = loaded
        self.bots = Bots(loaded)
        self.reported_turns = len(loaded.records)
        self.shown = None
        self.bot_deal = None
        deferred = loaded.deferred  # saved while a deal waited for its honour rules: said once they are acknowledged
        self.deal_said = None
        if deferred is not None:
            self.deal_said = narrate(loaded.game, deferred[1]) if deferred[0] == "move" else "redone"
        self.out(f"loaded {visible(name)}: turn {loaded.turn}; scores: {self.scores_text()}")
        return None
