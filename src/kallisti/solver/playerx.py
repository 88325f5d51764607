"""The bot as Player X: measures how nasty a rule change is by simulation, and answers nastiness with nastiness.

The seed's trust policy: "when one is Player X one tends to be nasty only if one's opponent was
nasty as Player X". Nastiness is measured, not labelled: a change's nastiness is how much it
raises the target's expected turn score (cards left, which count against the player), estimated
on the same seeded deals with and without it (common random numbers keep the estimate steady).

- If the opponent's last act as Player X towards the bot was nasty, the bot imposes the nastiest
  change of the catalogue it finds that can be adopted (a shortlist of the nastiest on the base
  rules, weighed again on the target's rules in force).
- Otherwise, if a nasty change the opponent imposed is still in force on the bot, it revokes the
  worst of them (forgiveness goes both ways).
- Otherwise it imposes a gentle change (one that costs the target less than NASTY cards, never one
  that helps), drawn from its own random stream; with none to hand it passes.
"""

from __future__ import annotations

from kallisti.errors import KallistiError
from kallisti.interpreter import amend
from kallisti.interpreter.game import Game
from kallisti.interpreter.rng import STREAM_STRATEGY, Rng

NASTY = 1.0  # a change that costs the target at least this many cards a turn is nasty
MEASURE_DEALS = 8  # seeded deals a nastiness estimate plays, with and without the change
MEASURE_SEED = 0xE415  # the measuring deals' own seed: never the match's
SHORTLIST = 3  # nasty candidates weighed on the target's rules in force in one decision
_scores: dict[str, float] = {}  # expected turn score by ruleset data key


def expected_score(rules, deals: int = MEASURE_DEALS) -> float:
    """The mean turn score of a random player over the measuring deals (cached per ruleset)."""
    key = amend.data_key(rules.data)
    if key not in _scores:
        total = 0
        for k in range(1, deals + 1):
            game = Game(rules, seed=MEASURE_SEED, deal_number=k)
            rng = Rng(MEASURE_SEED, k, STREAM_STRATEGY)
            game.playout(lambda n: rng.below(n), amend.TRIAL_CAP)
            total += game.score()
        _scores[key] = total / deals
    return _scores[key]


def nastiness(before, after) -> float:
    """How many cards a turn a change costs the target (negative: it helps).

    The change in the expected turn score, plus, in a match, a lowered limit spread over the turns
    the match can be expected to last (reaching 200 instead of 230 costs 30 cards over the match).
    """
    cost = expected_score(after) - expected_score(before)
    if before.match is not None and after.match is not None:
        turns = max(1.0, (before.match.loses_at - before.match.start_score) / max(1.0, expected_score(before)))
        cost += (before.match.loses_at - after.match.loses_at) / turns
    return cost


def measure_imposed(match, seat: int) -> None:
    """Fill in the nastiness of every change in force on `seat` that has not been measured yet."""
    active = match.active_changes(seat)
    for i, change in enumerate(active):
        if change.nastiness is None:
            before = amend.compile_data(amend.apply_all(match.base.data, [c.patch for c in active[:i]]))
            after = amend.compile_data(amend.apply_all(before.data, [change.patch]))
            change.nastiness = nastiness(before, after)


def base_nastiness(base, entry) -> float | None:
    """An entry's nastiness against the base ruleset (None when it does not apply to it); measured once."""
    key = (amend.data_key(base.data), entry.change)
    if key not in _on_base:
        try:
            after = amend.amend(base.data, entry.change, baseline=base).rules
            _on_base[key] = nastiness(base, after)
        except KallistiError:
            _on_base[key] = None
    return _on_base[key]


_on_base: dict[tuple, float | None] = {}


def _weigh(match, seat: int, entry) -> tuple[float, str] | None:
    """(nastiness on the target's rules in force, text) of an entry that can be imposed now, else None."""
    try:
        adopted = match.check_change(seat, entry.change)
    except KallistiError:
        return None  # already in force, or it no longer fits the target's rules
    return nastiness(match.rules_for(match.current), adopted.rules), entry.change


def nastiest(match, seat: int) -> tuple[float, str] | None:
    """The worst change the bot can impose: the SHORTLIST nastiest entries (as measured on the base
    rules) that can be imposed now are measured on the target's rules in force, and the worst taken."""
    entries = [e for e in catalogue_for(match.base) if (base_nastiness(match.base, e) or 0) >= NASTY]
    entries.sort(key=lambda e: (-base_nastiness(match.base, e), e.id))
    weighed = []
    for entry in entries:
        found = _weigh(match, seat, entry)
        if found is not None:
            weighed.append(found)
            if len(weighed) == SHORTLIST:
                break
    return max(weighed, default=None)


def gentlest(match, seat: int) -> tuple[float, str] | None:
    """A gentle change, drawn from the bot's own stream among the entries gentle on the base rules, and
    checked gentle on the target's rules in force (never one that helps the target)."""
    entries = [e for e in catalogue_for(match.base) if 0 <= (base_nastiness(match.base, e) if base_nastiness(match.base, e)
                                                              is not None else -1) < NASTY]
    Rng(match.seed, match.turn, STREAM_STRATEGY + 64 + seat).shuffle(entries)
    for entry in entries[:SHORTLIST * 2]:
        found = _weigh(match, seat, entry)
        if found is not None and 0 <= found[0] < NASTY:
            return found
    return None


def catalogue_for(rules) -> tuple:
    """The catalogue of changes shipped for a ruleset or the game it extends (none: an empty tuple)."""
    from pathlib import Path

    from kallisti.catalogue import catalogue_games, load_catalogue

    for source in reversed(rules.sources):
        stem = Path(source.name).stem
        if stem in catalogue_games():
            return load_catalogue(stem)
    return ()


def last_act(match, seat: int):
    """The opponent's most recent act as Player X towards `seat`: a Change, "revoke", "pass" or None."""
    for ev in reversed(match.events):
        if ev.get("type") in ("change", "revoke", "pass") and ev.get("by") == match.current:
            if ev["type"] == "change":
                return next(c for c in match.changes if c.id == ev["id"])
            return ev["type"]
    return None


def choose_action(match, seat: int) -> tuple:
    """("change", text, nastiness), ("revoke", change id) or ("pass",) for the bot at `seat` as Player X."""
    measure_imposed(match, seat)
    act = last_act(match, seat)
    opponent_nasty = getattr(act, "nastiness", None) is not None and act.nastiness >= NASTY
    rules = match.x_rules(seat)
    if not opponent_nasty and rules.revoke:
        hurting = [c for c in match.revokable(seat) if c.nastiness is not None and c.nastiness >= NASTY
                   and match.dependent(seat, c)[0] is None]  # a change another one builds on cannot be revoked first
        if hurting:
            worst = max(hurting, key=lambda c: (c.nastiness, c.id))
            return ("revoke", worst.id)
    if rules.changes == 0:
        return ("pass",)
    # Gentle: mischief that costs the target little. A change that helps the target is no choice of Player X's.
    pick = nastiest(match, seat) if opponent_nasty else gentlest(match, seat)
    if pick is None:
        return ("pass",)
    return ("change", pick[1], pick[0])
