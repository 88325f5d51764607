"""Rule changes in text play: `rule`, a watched ruleset file (`play --watch`), and undo and redo over them."""

from __future__ import annotations

from pathlib import Path

from kallisti.errors import KallistiError, Pos

NEW_LOG = "`new` deals again under the rules as they stand, with a log of its own"


class RulesWatcher:
    """Watches a ruleset file for `play --watch`: reads it again whenever its text changes.

    It is polled between commands, so an edit takes effect at a well-defined point of play.
    """

    def __init__(self, path: Path, rules):
        self.path = path
        self.text = self._read()

    def _read(self) -> str | None:
        from kallisti.textfiles import MAX_FILE_BYTES
        from kallisti.textfiles import read_text

        try:
            return read_text(self.path, MAX_FILE_BYTES, "the ruleset file", "file")
        except (OSError, UnicodeDecodeError, KallistiError):
            return None  # unreadable for now (mid-save, too large): the rules in play stay

    def poll(self):
        """None when the file is unchanged; else the new Ruleset, or the KallistiError that refuses it."""
        from kallisti.model.ruleset import load_ruleset

        text = self._read()
        if text is None or text == self.text:
            return None
        self.text = text
        try:
            return load_ruleset(self.path, text)
        except KallistiError as exc:
            return exc


# The keys of a pile group that make the table's layout (with the group's name and place, and the deck but for its
# shuffle): what Game.same_layout compares, and what a reloaded file cannot change before the next deal.
LAYOUT_KEYS = ("count", "tag")


def rules_on_table(new, game, where: Pos):
    """The rules of `new` on the deck and the piles of `game`'s table, for `play --watch`: what of a reloaded file can
    apply from the next move while its layout waits for the next deal. None when they cannot go without that layout
    (a rule names a pile group the table lacks) or fail the trial a change must pass."""
    from kallisti.interpreter import amend
    from kallisti.interpreter.save import compile_resolved
    from kallisti.located import plain

    data, table = plain(new.data), plain(game.rules.data)
    data["deck"] = {**table["deck"], "shuffle": data["deck"].get("shuffle", table["deck"].get("shuffle"))}
    piles = {}
    for name, group in table["piles"].items():
        edited = data["piles"].get(name)
        if edited is None:
            piles[name] = group
        else:
            piles[name] = {k: v for k, v in edited.items() if k not in LAYOUT_KEYS}
            piles[name].update({k: group[k] for k in LAYOUT_KEYS if k in group})
    data["piles"] = piles
    try:
        rules = compile_resolved(data, where.source)
    except KallistiError:
        return None
    if not game.same_layout(rules) or amend.trial_findings(rules, game.rules, where):
        return None
    return rules


class RuleCommands:
    """The part of a text session (`Session`) that changes its rules: `rule`, the watched file adopted or refused
    between commands, the changes that wait for the next deal, and `u` and `r`, which step back and forth over them."""

    def next_rules(self):
        """The rules the next deal is dealt under: those in play with the waiting changes applied."""
        from kallisti.interpreter.save import next_deal_rules

        return next_deal_rules(self.game.rules, [event for event, _ in self.waiting])

    def rule(self, text: str) -> None:
        """`rule CHANGE`: check the change completely, then play on under it (undo steps back over it)."""
        from kallisti.interpreter import amend
        from kallisti.interpreter.game import LayoutChanged
        from kallisti.interpreter.save import adopt_change
        from kallisti.interpreter.save_log import refuse_another_change
        from kallisti.model.ruleset import UNWINNABLE

        if not text:
            self.out("rule needs a change, e.g. `rule forbid foundation.build \"no kings\": card.rank == K`")
            return
        before = self.game.rules
        try:
            refuse_another_change(self.game.events, len(self.waiting), Pos("<change>", 1, 1), NEW_LOG)
            upcoming = self.next_rules()
            # Checked against the rules of the next deal: with nothing waiting, those in play.
            amend.amend(upcoming.data, text, baseline=upcoming)
        except KallistiError as exc:
            self._refused("change refused; the rules stay as they were:", exc.findings)
            return
        try:
            adopted = adopt_change(self.game, text)
        except LayoutChanged:
            self._wait({"type": "rule", "text": text}, upcoming,
                       "this changes the deck or the piles: it takes effect from the next deal (`new` deals again)")
            return
        except KallistiError:
            self._wait({"type": "rule", "text": text}, upcoming,
                       "this fits only the rules of the next deal, with the changes waiting for it: it takes effect from "
                       "the next deal too")
            return
        self.out(f"rule changed, from the next move: {text}")
        self.unwaited.clear()  # a new step: what undo took back before it is not redone
        for finding in adopted.rules.findings:
            if finding.code in UNWINNABLE:
                self.out(f"note: the game can no longer be won: {finding.message}")
        self._show_diff(before, self.game.rules)
        self.show_honour()

    def _wait(self, event: dict, upcoming, why: str) -> None:
        """Keep a change for the next deal and show what it does to that deal's rules."""
        self.waiting.append((event, len(self.game.history)))
        self.unwaited.clear()
        self.out(why)
        self._show_diff(upcoming, self.next_rules())

    def _refused(self, headline: str, findings) -> None:
        self.out(headline)
        for finding in findings:
            self.out(f"  {finding}")

    def _show_diff(self, before, after) -> None:
        from kallisti.model.diff import ruleset_diff

        for line in ruleset_diff(before.data, after.data):
            self.out("   " + line)

    def check_watch(self) -> None:
        """Between commands: adopt the watched file's new rules, or report why they are refused.

        The file describes the whole ruleset: when it is adopted, nothing typed before waits for the next deal.
        """
        from kallisti.interpreter import amend
        from kallisti.interpreter.game import LayoutChanged
        from kallisti.interpreter.save import adopt_rules
        from kallisti.interpreter.save_log import refuse_another_change

        if self.watcher is None:
            return
        new = self.watcher.poll()
        if new is None:
            return
        path = self.watcher.path
        refused = f"{path} changed but cannot be used; play goes on under the old rules:"
        if isinstance(new, KallistiError):
            self._refused(refused, new.findings)
            return
        try:
            refuse_another_change(self.game.events, 0, Pos(str(path), 1, 1), NEW_LOG)  # it replaces what waits
        except KallistiError as exc:
            self._refused(refused, exc.findings)
            return
        before = self.game.rules
        findings = amend.trial_findings(new, before, Pos(str(path), 1, 1))
        if findings:
            self._refused(refused, findings)
            return
        for finding in new.findings:  # warnings: the rules are used all the same
            self.out(f"  {finding}")
        if amend.data_key(new.data) == amend.data_key(before.data):
            if self.waiting:
                self.out(f"{path} reloaded: it says the rules in play; nothing waits for the next deal any more")
                self.waiting.clear()
                self.unwaited.clear()
            else:
                self.out(f"{path} reloaded: no rule changed")
            return
        layout_waits = not self.game.same_layout(new)
        # What applies from the next move: the file's rules, on the deck and the piles of the table when its own
        # wait for the next deal (so that an edit of rules alone never waits behind an edit of the layout).
        now = rules_on_table(new, self.game, Pos(str(path), 1, 1)) if layout_waits else new
        had_waiting = bool(self.waiting)
        self.waiting.clear()  # the file is the whole ruleset: it replaces whatever waited
        self.unwaited.clear()
        if now is not None and amend.data_key(now.data) != amend.data_key(before.data):
            try:
                adopt_rules(self.game, now, str(path))
            except LayoutChanged:  # rules_on_table keeps the table's layout; kept as a guard all the same
                now = None
            else:
                self.out(f"{path} reloaded: the new rules apply from the next move")
                self._show_diff(before, now)
        if not layout_waits:
            if had_waiting:
                self.out("nothing waits for the next deal any more")
            return
        adopted = now is not None and self.game.rules is now
        # Shown against the rules in play: everything that still waits, earlier edits of the layout included.
        self._wait({"type": "rules", "file": str(path), "resolved": new.plain()}, self.game.rules,
                   f"{path} also changes the deck or the piles: they take effect from the next deal (`new` deals again)"
                   if adopted else
                   f"{path} reloaded: it changes the deck or the piles, so it takes effect from the next deal "
                   "(`new` deals again)")

    def undo(self) -> None:
        """`u`: take back the last step: a change waiting for the next deal, a rule change or a move."""
        from kallisti.interpreter.game import RuleStep

        game = self.game
        if self.waiting and self.waiting[-1][1] == len(game.history):
            before = self.next_rules()
            self.unwaited.append((*self.waiting.pop(), self._steps()))
            self.out("undone: the change waiting for the next deal")
            self._show_diff(before, self.next_rules())
            return
        if not game.undo():
            self.out("nothing to undo")
            return
        undone = game.redo_stack[-1]
        steps = [rec for rec in undone if isinstance(rec, RuleStep)]
        if steps:
            self.out("undone: the rule change")
        elif len(undone) > 1:  # a move and the automatic moves it set off, autoplay's among them: one step
            self.out(f"undone: {len(undone)} moves in one step (automatic moves go back with the move or `a` that "
                     "made them)")
        else:
            self.out("undone")
        for step in steps:
            self._show_diff(step.after, step.before)
        self.show_table()

    def _steps(self) -> tuple[int, int]:
        """Where the game's undo and redo stand: the steps done and the steps waiting to be redone."""
        return len(self.game.history), len(self.game.redo_stack)

    def redo(self) -> None:
        """`r`: make again the step undo took back last."""
        from kallisti.interpreter.game import RuleStep

        game = self.game
        if self.unwaited and self.unwaited[-1][2] == self._steps():
            before = self.next_rules()
            self.waiting.append(self.unwaited.pop()[:2])
            self.out("redone: the change waits for the next deal again")
            self._show_diff(before, self.next_rules())
            return
        if not game.redo():
            self.out("nothing to redo")
            return
        steps = [rec for rec in game.history[-1] if isinstance(rec, RuleStep)]
        self.out("redone: the rule change" if steps else "redone")
        for step in steps:
            self._show_diff(step.before, step.after)
        self.show_table()
