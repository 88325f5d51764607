"""The session of text play: one game, the commands typed into it, and how it ends."""

from __future__ import annotations

from pathlib import Path

from kallisti.cli.play_rules import RuleCommands
from kallisti.cli.play_text import (HELP, HELP_AFTER, LOST, QUIT, WON, Out, command_for, distinct_moves, end_summary,
                                    file_refused, moves_text, status_line, title)
from kallisti.cli.render import entry_lines, legend_lines, table_lines, wrapped
from kallisti.errors import KallistiError
from kallisti.interpreter.honour import AT_NEXT_DEAL, HonourRules
from kallisti.unsafe import visible


class Session(RuleCommands):
    """The state of one text session: the game being played and how to print it. Its rule changes, and undo and redo
    over them, are `RuleCommands`' (play_rules.py)."""

    def __init__(self, game, out: Out, err: Out, color: bool, deal_source: str | None = None, auto: bool = False, *,
                 most_seed: int):
        from kallisti.solver.autoplay import Autoplay

        self.game, self.out, self.err, self.color = game, out, err, color
        # Autoplay (`auto on|off`): after each move, the safe moves home and the end of a game won by force; the
        # same moves are made on request by `a` whether it is on or off.
        self.auto = auto
        self.autoplay = Autoplay()
        self.deal_source = deal_source  # where the deal in play came from (`--deal`), for `restart`'s title
        self.most_seed = most_seed  # `new N` takes a deal number of at most as many digits (kallisti.cli.play.MAX_SEED)
        self.watcher = None
        # The game's status as last judged, and what it was judged on (the game and its log's length): an end is
        # announced once, when the outcome changes to won or lost, and judged again only after a step.
        self.outcome: str | None = None
        self.judged: tuple | None = None
        # Changes that cannot apply to the cards on the table wait for the next deal: `rule` and `rules`
        # events in order, each with the number of the game's steps done when it was made (its place among
        # the steps undo and redo walk), so that undo takes back the latest one once the steps after it are
        # undone. Undo and redo log events of their own, so the log's length cannot place a change.
        self.waiting: list[tuple[dict, int]] = []
        # Waiting changes taken back by undo, for redo: each with its place and how many game steps were done
        # and waiting to be redone when it was taken back; redo makes it again from there only (a step undone
        # after it is redone first). A new step clears them, as it clears the game's redo.
        self.unwaited: list[tuple[dict, int, tuple[int, int]]] = []
        self.honour = HonourRules(game)

    # -- honour rules ----------------------------------------------------------------------------
    def honour_due(self) -> list:
        """The honour rules to acknowledge before the next move, in order."""
        return self.honour.due(self.game)

    def show_honour(self) -> None:
        due = self.honour_due()
        if due:
            h = due[0]
            self.out(f"honour rule ({h.at.replace('-', ' ')}): {h.says}  [do it, then type `ok`]")

    def acknowledge(self) -> None:
        h = self.honour.acknowledge(self.game)
        if h is None:
            self.out("no honour rule is waiting to be acknowledged")
            return
        self.out(f"acknowledged: {h.says}")
        self.show_honour()

    def honour_first(self, m: int | None = None) -> bool:
        """Whether a move (`m`, when known: a deal makes the `before deal` rules due) must wait for an honour rule
        (said so when it must)."""
        due = self.honour.ask(self.game, m) if m is not None else self.honour_due()
        if due:
            self.out(f"first acknowledge: {due[0].says} (type `ok`)")
        return bool(due)

    def moved(self) -> None:
        """After a move: the before-move rules are due again, and nothing undone before it can be redone."""
        self.unwaited.clear()
        self.honour.moved()
        if self.game.status().outcome == "playing":
            self.show_honour()

    # -- dealing again, showing the table, the end ------------------------------------------------
    def new_deal(self, arg: str) -> None:
        """`new [SEED]`: a new deal, under the changes waiting for it if any."""
        from kallisti.interpreter.game import Game

        if arg and not (arg.isascii() and arg.isdigit() and len(arg) <= len(str(self.most_seed))):
            self.out("new takes a deal number, e.g. `new 7`")
            return
        try:
            rules = self.next_rules()
        except KallistiError as exc:
            self._refused("the changes waiting for the next deal no longer fit the rules in play; they are dropped:",
                          exc.findings)
            rules = self.game.rules
        seed = int(arg) if arg else (self.game.seed or 0) + 1
        try:
            game = Game(rules, seed=seed)
        except KallistiError as exc:
            self._refused("the new deal cannot be made:", exc.findings)
            return
        self.game, self.deal_source, self.outcome = game, None, None
        self.waiting.clear()
        self.unwaited.clear()
        self.honour = HonourRules(game, AT_NEXT_DEAL)
        self.out(title(self.game))
        self.show_table()
        self.show_honour()

    def restart(self) -> None:
        """`restart`: the same deal again from its start, under the rules it was dealt with (a rule change made in
        play is gone with the moves; one waiting for the next deal waits on). Undo does not step back over it."""
        from kallisti.interpreter.game import Game

        old = self.game
        self.game = Game(old.initial_rules, seed=old.seed, order=old.order, deal_number=old.deal_number)
        self.outcome = None
        self.waiting = [(event, 0) for event, _ in self.waiting]
        self.unwaited.clear()
        self.honour = HonourRules(self.game)
        self.out(f"restarted: {title(self.game, self.deal_source)}")
        self.show_table()
        self.show_honour()

    def show_table(self) -> None:
        for line in table_lines(self.game, self.color):
            self.out(line)

    def check_end(self) -> int | None:
        """After a step: the exit code of a game that has ended (announced when it has just ended), else None.

        The end line keeps its greppable form (`*** WON: <game> in <N> moves ***`, `*** LOST: <reason> ***`) and
        stays the last line printed; the line before it gives the score, where the ruleset has one, the moves made
        and what the player may do next."""
        game = self.game
        if self.judged is None or self.judged[0] is not game or self.judged[1] != len(game.events):
            self.judged = (game, len(game.events))
            status = game.status()
            if status.outcome != self.outcome and status.outcome != "playing":
                self._announce(status)
            self.outcome = status.outcome
        return {"won": WON, "lost": LOST}.get(self.outcome or "playing")

    def _announce(self, status) -> None:
        game = self.game
        for h in game.rules.honour:
            if h.at == "turn-end":
                self.out(f"honour rule (turn end): {h.says}")
        self.out(f"game over, {end_summary(game)}; play on: u (undo), restart, new [N], q (quit)")
        if status.outcome == "won" and self.stats is not None:  # a loss is recorded when the game is left
            self.stats.won(game, self.deal_source)
        if status.outcome == "won":
            self.out(f"*** WON: {game.rules.name} in {moves_text(game.moves_made)} ***")
        else:
            self.out(f"*** LOST: {status.reason} ***")

    def leave(self) -> int:
        """`q`, or the end of the input: the exit code of the game as it stands (QUIT while it is still on)."""
        code = self.check_end()
        if code is None:
            self.out("*** QUIT ***")
            return QUIT
        return code

    # -- the commands ----------------------------------------------------------------------------
    def command(self, line: str) -> int | None:
        """Carry out one command line; an exit code when the session ends."""
        from kallisti.interpreter.notation import describe, narrate

        words = line.split()
        verb = words[0].lower()
        game = self.game
        if len(words) == 1 and verb in ("q", "quit", "exit"):
            return self.leave()
        if len(words) == 1 and verb in ("help", "?"):
            for text in ["commands:", *entry_lines(HELP), *wrapped(HELP_AFTER)]:
                self.out(text)
        elif len(words) == 1 and verb == "rules":
            from kallisti.cli.show import rules_text

            self.out(rules_text(game.rules))
        elif len(words) == 1 and verb == "legend":
            for text in legend_lines(game):
                self.out(text)
        elif len(words) == 1 and verb in ("table", "l"):
            self.show_table()
        elif len(words) == 1 and verb in ("u", "undo"):
            self.undo()
        elif len(words) == 1 and verb in ("r", "redo"):
            self.redo()
        elif len(words) == 1 and verb in ("ok", "ack", "done"):
            self.acknowledge()
        elif len(words) <= 2 and verb in ("a", "auto"):
            self.automatic(words[1].lower() if len(words) == 2 else "")
        elif len(words) == 1 and verb == "hint":
            from kallisti.solver.strategies import hint_with_source

            h = hint_with_source(game)
            self.out(f"hint: {command_for(game, h.move)} ({h.why})" if h.move is not None else f"hint: {h.why}")
        elif len(words) == 1 and verb == "moves":
            moves = distinct_moves(game)
            self.out(f"{moves_text(len(moves))}:")
            for command, m in moves:
                self.out(f"  {command:<10} {narrate(game, m)}")
        elif verb in ("save", "load"):
            return self._file_command(verb, line)
        elif verb == "rule":
            self.rule(line.split(None, 1)[1].strip() if len(words) > 1 else "")
        elif verb == "new" and len(words) <= 2:
            self.new_deal(words[1] if len(words) == 2 else "")
        elif len(words) == 1 and verb == "restart":
            self.restart()
        else:
            self._move(line)
        return None

    def _move(self, line: str) -> None:
        from kallisti.interpreter.notation import MoveRefused, describe, narrate, parse_move

        game = self.game
        try:
            m = parse_move(game, line.lower())  # tags are lower case
        except MoveRefused as exc:
            self.out(f"refused: {exc}{self._compulsory_note()}")
            return
        if self.honour_first(m):
            return
        said = narrate(game, m)
        made = game.play(m)
        if self.auto:
            made += self.autoplay.follow(game)  # part of the move's step: one undo takes them back with it
        self.out(said)
        if len(made) > 1:
            self.out("auto: " + ", ".join(describe(game, am) for am in made[1:]))
        self.out(status_line(game))
        self.show_table()
        self.moved()

    def _compulsory_note(self) -> str:
        """For a refusal: the compulsory move that must be played, when it is the only legal move (else '')."""
        from kallisti.interpreter.notation import describe
        from kallisti.solver.autoplay import sole_compulsory

        m = sole_compulsory(self.game)
        return "" if m is None else f"; the only legal move is the compulsory `{describe(self.game, m)}` (`a` plays it)"

    def automatic(self, arg: str) -> None:
        """`a` (`auto`): make the automatic moves now, as one step: the ruleset's own, then the safe moves home and
        the end of a game won by force; else the compulsory move, when it is the only legal move. `auto on|off`:
        autoplay after each move."""
        from kallisti.interpreter.notation import describe, narrate
        from kallisti.solver.autoplay import sole_compulsory

        if arg in ("on", "off"):
            self.auto = arg == "on"
            self.out("autoplay on: after each move, cards nothing else could need go home, and a game won by force is "
                     "finished (undo takes them back with the move)" if self.auto else
                     "autoplay off: `a` makes the automatic moves on request")
            return
        if arg:
            self.out("auto takes on or off (`auto on`, `auto off`); `a` alone makes the automatic moves now")
            return
        if self.honour_first():
            return
        game = self.game
        made = game.play_auto()
        made += self.autoplay.follow(game, new_step=not made)
        if not made:
            m = sole_compulsory(game)
            if m is None:
                moves = game.legal_moves()
                forced = bool(game.rules.compulsory and moves) and all(
                    game._matches_any(game.rules.compulsory, mv) for mv in moves)
                self.out("no automatic move to make" + ("; choose among the compulsory moves (`moves` lists them)"
                                                         if forced else ""))
                return
            self.out(narrate(game, m))
            made = game.play(m)
            if self.auto:
                made += self.autoplay.follow(game)
            if len(made) > 1:
                self.out("auto: " + ", ".join(describe(game, am) for am in made[1:]))
        else:
            self.out("auto: " + ", ".join(describe(game, m) for m in made))
        self.out(status_line(game))
        self.show_table()
        self.moved()

    def _file_command(self, verb: str, line: str) -> None:
        """`save FILE` or `load FILE`. Neither ever ends the session: a save that cannot be loaded and a file that
        saving must not replace are refused, with the findings that say why, and the game in progress goes on."""
        from kallisti.interpreter.save import load_game, save_game

        name = line.split(None, 1)[1].strip() if len(line.split(None, 1)) > 1 else ""
        if not name:
            self.out(f"{verb} needs a file name, e.g. `{verb} game.json`")
            return None
        if verb == "save":
            try:
                kept = save_game(self.game, Path(name), [event for event, _ in self.waiting])
            except (OSError, ValueError) as exc:  # ValueError: a name holding NUL
                self.out(f"cannot save to {visible(name)}: {visible(getattr(exc, 'strerror', None) or str(exc))}; "
                         "the game goes on unsaved")
                return None
            except KallistiError as exc:
                file_refused(exc, self.err, self.out, "not saved; the game goes on unsaved")
                return None
            self.out(f"saved to {visible(name)}" + ("" if kept is None else f" (the save it replaced is kept in "
                                                      f"{visible(str(kept))})"))
            return None
        try:
            self.game, waiting = load_game(Path(name), with_next_deal=True)
        except KallistiError as exc:
            file_refused(exc, self.err, self.out, "not loaded; the game goes on as it was")
            return None
        self.waiting = [(event, len(self.game.history)) for event in waiting]
        self.unwaited.clear()
        self.deal_source, self.outcome = None, None
        self.out(f"loaded {visible(name)}: {title(self.game)}, {moves_text(self.game.moves_made)} made")
        self.show_table()
        return None
