"""How long a game's or a match's log may grow: what a save holds at most, which play checks before a rule change."""

from __future__ import annotations

import itertools

from kallisti.errors import Finding, KallistiError, Pos

# Replaying an event costs up to a tenth of a millisecond for a move, undo or redo, but a rule change is checked
# completely again, trial deals included (up to a tenth of a second). A save holding more than these is refused
# before any event is replayed, `save` writes no more, and play refuses a rule change beyond MAX_SAVE_CHANGES (a
# game played alone starts a log of its own with `new`).
MAX_SAVE_EVENTS = 50_000  # events of a save's log, of any kind
MAX_SAVE_CHANGES = 250  # rule changes among them (`rule`, `rules`, `change`), those waiting for the next deal included
RULE_EVENTS = frozenset({"rule", "rules", "change"})  # the events that change rules, in a game's log or a match's


def refuse_too_many_events(data: dict, where: Pos) -> None:
    """Refuse save data (a game's or a match's) whose log is longer than a save may be, before any of it is replayed:
    MAX_SAVE_EVENTS events, MAX_SAVE_CHANGES rule changes among them and those waiting for the next deal."""
    events = data.get("events")
    waiting = data.get("next_deal")
    events = events if isinstance(events, list) else []
    waiting = waiting if isinstance(waiting, list) else []
    steps = len(events) + sum(len(ev["then"]) for ev in events if isinstance(ev, dict) and isinstance(ev.get("then"), list))
    if steps > MAX_SAVE_EVENTS:  # a step's `then` moves (autoplay) count as events: each is replayed
        raise KallistiError(Finding("save-too-many-events", f"the save holds {steps:,} events; a save holds at "
                                    f"most {MAX_SAVE_EVENTS:,}", where))
    changes = rule_changes(events) + len(waiting)
    if changes > MAX_SAVE_CHANGES:
        raise KallistiError(Finding("save-too-many-events", f"the save holds {changes:,} rule changes; a save holds at "
                                    f"most {MAX_SAVE_CHANGES:,}", where))


def refuse_another_change(events, waiting: int, where: Pos, suggestion: str | None = None, count=None) -> None:
    """Refuse a rule change in play once the log (and `waiting`, the changes waiting for the next deal) holds
    MAX_SAVE_CHANGES: every game and match kallisti plays can then be saved, and its save loaded. `count` counts the
    log's rule changes (by default `rule_changes`; a log that only grows is counted as it grows by `GrowingCount`)."""
    if (count or rule_changes)(events) + waiting >= MAX_SAVE_CHANGES:
        raise KallistiError(Finding("change-too-many", f"{MAX_SAVE_CHANGES} rule changes have been made already, the "
                                    "most a save holds", where, suggestion=suggestion))


def rule_changes(events) -> int:
    """How many of a log's events change rules (each is checked completely again, trial deals included, on loading)."""
    return sum(1 for ev in events if isinstance(ev, dict) and ev.get("type") in RULE_EVENTS)


class GrowingCount:
    """`rule_changes` of a log that is only ever appended to (a match's), each event read once: a match checks its
    log before every change it checks, and a bot checks dozens a decision. A log that is not the one counted, or that
    is shorter than it was, is counted afresh."""

    def __init__(self):
        self.events, self.read, self.count = None, 0, 0

    def __call__(self, events) -> int:
        if events is not self.events or len(events) < self.read:
            self.events, self.read, self.count = events, 0, 0
        self.count += rule_changes(itertools.islice(events, self.read, None))
        self.read = len(events)
        return self.count
