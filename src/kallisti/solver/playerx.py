"""The bot as Player X: weighs catalogue and generated rule changes by their simulated effect, remembers the match.

The seed's trust policy: "when one is Player X one tends to be nasty only if one's opponent was
nasty as Player X". Nastiness is measured, not labelled: a change's nastiness is how much it
raises the target's expected turn score (cards left, which count against the player), estimated
on the same seeded deals with and without it (common random numbers keep the estimate steady).

The candidates are the entries of the game's catalogue and the changes generated from the target's
rules in force (`generated_changes`). Those that would set a setting back to a value it has had in
the match, or that the bot itself took back, are dropped unweighed (`Memory`); the others are
weighed in the order their nastiness on the base rules suggests, within a budget of measuring
moves (DECISION_STEPS) and checks (MAX_CHECKS) a decision, so a decision is bounded and depends
only on the match.

- If the opponent's last act as Player X towards the bot was nasty, the bot's pick is the nastiest
  change it weighed; otherwise the most mischievous gentle one (it costs the target less than NASTY
  cards, and never helps).
- When the rules let it revoke, the bot revokes the change the opponent imposed on it that hurts it
  most, if that change costs the bot at least as much as its pick would cost the opponent.
- With neither, it passes.
"""

from __future__ import annotations

import functools
import json
import weakref

from kallisti.errors import KallistiError
from kallisti.interpreter import amend
from kallisti.interpreter.game import Game
from kallisti.interpreter.rng import STREAM_STRATEGY, Rng, replayed_below
from kallisti.located import plain
from kallisti.model.amended import applied
from kallisti.model.patch import split_path, verb_of

NASTY = 1.0  # a change that costs the target at least this many cards a turn is nasty
MEASURE_DEALS = 8  # seeded deals a nastiness estimate plays, with and without the change
# The measuring deals are the trial's (amend.TRIAL_SEED, never the match's): a change's trial deals, played when it
# is checked, are the first of those that measure it, and are not played again (`amend.trial_deal_end`).
MEASURE_SEED = amend.TRIAL_SEED
SHORTLIST = 3  # candidates in the wanted band weighed on the target's rules in force before one is picked
DECISION_STEPS = 4000  # measuring moves one decision may spend weighing candidates
MAX_CHECKS = 12  # candidates one decision may check against the target's rules (a check compiles and tries them)
# A match's limit lowered by these many points below the base rules' own: mischief in small steps, bounded, where a
# lower limit every turn would end every match early.
LIMIT_STEPS = (10, 20, 30)
ABSENT = "<absent>"  # the value of a setting the rules do not hold (a clause not in its rule, a key not set)
_scores: dict[str, tuple[float, int]] = {}  # (expected turn score, measuring moves) by ruleset play key
MAX_MEASURES = 20_000  # measures (and nastiness on the base rules) kept, a few hundred bytes each: forgotten past this


def rules_key(rules) -> str:
    """The data key of a compiled ruleset (its data never change), computed once per ruleset."""
    return amend.rules_key(rules)


def parsed(text: str):
    """A change's patch, parsed once per text and shared (`amend.parsed`; KallistiError when it does not parse);
    never modified by its users."""
    return amend.parsed(text)


def measure(rules, deals: int = MEASURE_DEALS) -> tuple[float, int]:
    """(the mean turn score of a random player over the measuring deals, the moves played); cached per ruleset, and
    shared by rulesets that differ only where no deal reads them (`amend.rules_play_key`), which play alike.

    The moves are returned on a cache hit too, so a budget charged with them is the same whatever was cached.
    """
    key = amend.rules_play_key(rules)
    if key not in _scores:
        total = moves = 0
        for k in range(1, deals + 1):
            played = amend.trial_deal_end(rules, k) if k <= amend.TRIAL_DEALS else None
            if played is None:  # past the trial's deals, or one where a rule fails: played here, as it always was
                game = Game(rules, seed=MEASURE_SEED, deal_number=k)
                made = game.playout(replayed_below(MEASURE_SEED, k, STREAM_STRATEGY), amend.TRIAL_CAP)
                played = game.score(), made
            total += played[0]
            moves += played[1]
        if len(_scores) >= MAX_MEASURES:
            _scores.clear()
        _scores[key] = found = (total / deals, moves)
        return found
    return _scores[key]


def expected_score(rules, deals: int = MEASURE_DEALS) -> float:
    """The mean turn score of a random player over the measuring deals (cached per ruleset)."""
    return measure(rules, deals)[0]


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


_on_base: dict[tuple, float | None] = {}


def base_nastiness(base, text: str) -> float | None:
    """A change's nastiness against the base ruleset (None when it does not apply to it); measured once."""
    key = (rules_key(base), text)
    if key not in _on_base:
        try:
            # Only whether it is adopted counts here: a refusal's suggestions (each a change checked in full) are not sought.
            after = amend.amend(base.data, text, baseline=base, patch=parsed(text), suggest=False).rules
            found = nastiness(base, after)
        except KallistiError:
            found = None
        if len(_on_base) >= MAX_MEASURES:
            _on_base.clear()
        _on_base[key] = found
        return found
    return _on_base[key]


def catalogue_for(rules) -> tuple:
    """The catalogue of changes shipped for a ruleset or the game it extends (none: an empty tuple)."""
    from pathlib import Path

    from kallisti.catalogue import catalogue_games, load_catalogue

    for source in reversed(rules.sources):
        stem = Path(source.name).stem
        if stem in catalogue_games():
            return load_catalogue(stem)
    return ()


# -- generated changes ------------------------------------------------------------------------------
def generated_changes(data, base=None) -> list[str]:
    """Changes made from the shape of any ruleset's data, beyond its catalogue: for every group whose `build` is
    open (no clause forbids everything), a ban on each rank and on each suit; for every group whose `take` is open,
    a ban on touching each of its piles; one pile more or fewer in each group of several piles; and in a match, the
    limit LIMIT_STEPS below the `base` rules' own. A ban whose condition its rule holds already is left out."""
    d = plain(data)
    rules_match = (base if base is not None else data).get("match")
    limit = rules_match.get("loses_at") if isinstance(rules_match, dict) else None
    ranks = [_rank_literal(r) for r in d.get("deck", {}).get("ranks", [])]
    suits = [s.get("name") for s in d.get("deck", {}).get("suits", []) if isinstance(s, dict)]
    out = []
    for group, spec in d.get("piles", {}).items():
        if not isinstance(spec, dict):
            continue
        if _open(spec.get("build")):
            out += _bans(group, "build", spec["build"], [(f"rank-{r.lower()}", f"card.rank == {r}", f"takes no {r}")
                                                          for r in ranks if r])
            out += _bans(group, "build", spec["build"], [(f"suit-{s}", f"card.suit == {s}", f"takes no {s}")
                                                          for s in suits if _is_name(s)])
        count = spec.get("count")
        if _open(spec.get("take")) and isinstance(count, int):
            piles = [(f"pile-{i}", f"pile.index == {i}", f"lets nothing leave pile {i}") for i in range(1, count + 1)]
            out += _bans(group, "take", spec["take"], piles)
        if isinstance(count, int) and count > 1:
            out += [f"set {group}.count {count - 1}", f"set {group}.count {count + 1}"]
    if isinstance(limit, int):
        out += [f"set match.loses_at {limit - step}" for step in LIMIT_STEPS]
    return out


def _bans(group: str, rule: str, clauses: list, bans: list[tuple[str, str, str]]) -> list[str]:
    held = {c.get("forbid") for c in clauses if isinstance(c, dict)}
    return [f'forbid {group}.{rule} no-{cid}: {expr} "{says}"' for cid, expr, says in bans if expr not in held]


def _open(rule) -> bool:
    """Whether a rule (a clause list) lets something through: none of its clauses forbids everything."""
    return isinstance(rule, list) and not any(isinstance(c, dict) and str(c.get("forbid")) == "true" for c in rule)


def _rank_literal(rank) -> str | None:
    """A rank as an expression names it: its number, or its name when that is a word; else None."""
    text = str(rank)
    if text.isascii() and text.isdigit():
        return text
    return text if _is_name(text) else None


def _is_name(text) -> bool:
    return isinstance(text, str) and text.isascii() and text.isidentifier()


# -- settings and the match's memory ----------------------------------------------------------------
def setting_of(patch) -> tuple:
    """The setting a change names: ("key", path) for `set`, `add` and `delete`, ("clause", rule path, clause id) for
    the verbs that edit a clause of a rule."""
    verb = verb_of(patch)
    if verb in ("set", "add", "delete"):
        return ("key", str(patch[verb]))
    return ("clause", str(patch[verb]), str(patch.get("id")))


def setting_in(patch, after) -> tuple:
    """The setting a change names, as the data `after` it hold it: ("rules",), the rules as a whole, when a `set` or
    `add` names its key in words the data do not use (a key's alias), so that its value is not found there."""
    setting = setting_of(patch)
    if setting[0] == "key" and verb_of(patch) != "delete" and value_at(after, setting) == ABSENT:
        return ("rules",)
    return setting


def value_at(snapshot: dict, setting: tuple) -> str:
    """A setting's value in ruleset data, as canonical JSON (ABSENT when the data do not hold it). A path may name an
    item of a list of maps by its id, as a change's path may."""
    if setting[0] == "rules":
        return amend.data_key(snapshot)
    node = snapshot
    for part in split_path(setting[1]):
        if isinstance(node, dict) and str(part) in node:
            node = node[str(part)]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        elif isinstance(node, list) and any(isinstance(c, dict) and c.get("id") == str(part) for c in node):
            node = next(c for c in node if isinstance(c, dict) and c.get("id") == str(part))
        else:
            return ABSENT
    if setting[0] == "clause":
        node = next((c for c in node if isinstance(c, dict) and c.get("id") == setting[2]), None) \
            if isinstance(node, list) else None
        if node is None:
            return ABSENT
    return json.dumps(plain(node), sort_keys=True, ensure_ascii=False)


class Memory:
    """What a match has done to each player's rules: every state of them since the match began (ruleset data), the
    changes that set a setting back to a value it had had, and the changes each seat revoked. Read from the match's
    events, so it serves a finished match (the report) and one under way (the bot) alike."""

    def __init__(self, match):
        self.base = match.base
        n = len(match.seats)
        self.active: list[list] = [[] for _ in range(n)]  # the changes in force on each seat, in order
        self.data = [match.base.data] * n
        self.snapshots: list[list[dict]] = [[match.base.data] for _ in range(n)]  # never modified: apply_all copies
        self.toggled: list[str] = []  # ids of the changes that set a setting back to an earlier value
        self.revoked_by: list[set[str]] = [set() for _ in range(n)]  # canonical patches each seat took back
        self.seen = 0  # events read
        self.keys: list[tuple] = [(None, None)] * n  # each seat's (data, its data key), hashed once per state of them
        # (seat, setting) -> (the snapshots read, the values the setting has in them): snapshots are only added to,
        # so each is read once for a setting, however many decisions ask
        self.values_had: dict[tuple, tuple[int, frozenset]] = {}
        self.catalogue: tuple | None = None  # the texts of the base rules' catalogue, read once
        self.offered: list[tuple] = [(None, [])] * n  # each seat's (data, the changes offered against them)

    def catch_up(self, match) -> Memory:
        by_id = {c.id: c for c in match.changes}
        for ev in match.events[self.seen:]:
            if ev.get("type") == "change":
                change = by_id[ev["id"]]
                t = change.target
                self.active[t].append(change)
                self.data[t] = amend.apply_all(self.data[t], [change.patch])
                if self.toggles_back(t, change.patch, self.data[t]):
                    self.toggled.append(change.id)
                self.snapshots[t].append(self.data[t])
            elif ev.get("type") == "revoke":
                change = by_id[ev["change"]]
                t = change.target
                self.active[t].remove(change)
                self.data[t] = amend.apply_all(self.base.data, [c.patch for c in self.active[t]])
                self.snapshots[t].append(self.data[t])
                self.revoked_by[ev["by"]].add(canonical(change.patch))
        self.seen = len(match.events)
        return self

    def texts_for(self, target: int) -> list[str]:
        """The changes to weigh against `target`'s rules in force: the base rules' catalogue, then those generated from
        the rules in force (`generated_changes`), made once per state of them."""
        if self.catalogue is None:
            self.catalogue = tuple(e.change for e in catalogue_for(self.base))
        data, texts = self.offered[target]
        if data is not self.data[target]:
            texts = list(self.catalogue) + generated_changes(self.data[target], self.base.data)
            self.offered[target] = (self.data[target], texts)
        return texts

    def data_key(self, target: int) -> str:
        """The data key of `target`'s rules in force (`amend.data_key`), hashed once per state of them."""
        data, key = self.keys[target]
        if data is not self.data[target]:
            key = amend.data_key(self.data[target], amend.texts_of(self.base))  # shared parts' texts: the base's
            self.keys[target] = (self.data[target], key)
        return key

    def toggles_back(self, target: int, patch, after: dict) -> bool:
        """Whether a change on `target` that leaves its rules as `after` sets its setting to a value the setting has
        had before in the match (the base rules' value included, and values of changes since revoked)."""
        setting = setting_in(patch, after)
        return self.had(target, setting, value_at(after, setting))

    def had(self, target: int, setting: tuple, value: str) -> bool:
        """Whether `setting` has had `value` in `target`'s rules at some point of the match so far."""
        snapshots = self.snapshots[target]
        read, values = self.values_had.get((target, setting), (0, frozenset()))
        if read < len(snapshots):
            values = values.union(value_at(s, setting) for s in snapshots[read:])
            self.values_had[(target, setting)] = (len(snapshots), values)
        return value in values


@functools.lru_cache(maxsize=1024)
def _identity(text: str) -> tuple[str, str] | None:
    """(what a change does, its canonical patch) for a change's text (`effect_of`, `canonical`), worked out once per
    text: the same candidates are met decision after decision. None when the text does not parse."""
    try:
        patch = parsed(text)
    except KallistiError:
        return None
    return effect_of(patch), canonical(patch)


def canonical(patch) -> str:
    """A change's patch as canonical JSON: two texts that make the same change are equal."""
    return json.dumps(plain(patch), sort_keys=True, ensure_ascii=False)


def effect_of(patch) -> str:
    """What a change does, for telling duplicates apart: its canonical patch, without the clause id of a clause it adds
    (`no-hearts` and `no-suit-hearts` forbid the same cards)."""
    verb = verb_of(patch)
    if verb in ("require", "forbid"):
        return json.dumps([verb, str(patch[verb]), str(patch["expr"])])
    return canonical(patch)


_memories: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def memory_of(match) -> Memory:
    """The match's Memory, kept with the match while it lives and brought up to date."""
    memory = _memories.get(match)
    if memory is None:
        memory = _memories[match] = Memory(match)
    return memory.catch_up(match)


# -- the decision -----------------------------------------------------------------------------------
class Budget:
    """What one decision may still spend: measuring moves and checks."""

    def __init__(self, steps: int = DECISION_STEPS, checks: int = MAX_CHECKS):
        self.steps, self.checks = steps, checks

    @property
    def spent(self) -> bool:
        return self.steps <= 0 or self.checks <= 0


def candidates(match, seat: int, memory: Memory) -> list[str]:
    """The changes worth weighing against the player who has just played: the catalogue's and the generated ones,
    less those that do not apply to hir rules, that set their setting to a value it has had in the match (a change
    that changes nothing among them), and those the bot itself took back."""
    target = match.current
    current = memory.data[target]
    key = memory.data_key(target)
    out, seen = [], set()
    for text in memory.texts_for(target):
        identity = _identity(text)
        if identity is None:
            continue
        effect, patch_key = identity
        if effect in seen or patch_key in memory.revoked_by[seat]:
            continue
        seen.add(effect)
        found = _value_after(current, key, text, parsed(text))
        if found is not None and not memory.had(target, *found):
            out.append(text)
    return out


_values_after: dict[tuple, tuple] = {}  # (part, found) by (the part's id, text), or (None, found) by (data key, text)
MAX_VALUES_AFTER = 50_000  # values kept (a few hundred bytes each): forgotten all at once past this


def _value_after(current, key: str, text: str, patch) -> tuple | None:
    """(the setting a change names, its value) once the change is applied to the data `current` (whose data key is
    `key`); None when it does not apply. Cached: the same rules meet the same candidates decision after decision.

    A change reads and writes only the part of the rules its path starts in (the value of one top-level key: applying
    it walks its path from there, and filling in defaults fills each part from itself alone), so what it gives its
    setting is kept by that part, the very object: rules made from one another share every part no change touched
    (`amended.apply_all`), and a change to the match's limit leaves the value of a ban on a pile group as it was. A
    setting read from the rules as a whole (a key's alias: `setting_in`) is kept by the data key."""
    part = _part_of(current, patch)
    by_part = (id(part), text) if part is not None else None
    kept = _values_after.get(by_part) if by_part is not None else None
    if kept is None:
        kept = _values_after.get((key, text))
    if kept is not None:
        return kept[1]
    try:
        after = applied(current, patch)
        setting = setting_in(patch, after)
        found = (setting, value_at(after, setting))
    except KallistiError:
        found = None
    if len(_values_after) >= MAX_VALUES_AFTER:
        _values_after.clear()
    if by_part is not None and (found is None or found[0] != ("rules",)):
        _values_after[by_part] = (part, found)  # the part kept with its value, so that its id names no other object
    else:
        _values_after[(key, text)] = (None, found)
    return found


def _part_of(data, patch):
    """The value of the top-level key a change's path starts in (None when the data have no such key)."""
    try:
        first = str(patch[verb_of(patch)]).split(".", 1)[0]
    except KallistiError:
        return None
    return data.get(first) if isinstance(data, dict) else None


def weigh(match, seat: int, texts: list[str], nasty: bool, budget: Budget) -> list[tuple[float, str]]:
    """(nastiness on the target's rules in force, text) of candidates that can be imposed now, weighed in the order
    their nastiness on the base rules suggests for the band wanted (nasty: the nastiest first; gentle: the most
    mischievous gentle ones first), until SHORTLIST of them fall in the band or the budget is spent."""
    def band(cost: float | None) -> bool:
        return cost is not None and (cost >= NASTY if nasty else 0 <= cost < NASTY)

    base = {t: base_nastiness(match.base, t) for t in texts}
    # Equals are met in an order drawn from the bot's own stream, so that matches differ; a sort keeps it for ties.
    texts = list(texts)
    Rng(match.seed, match.turn, STREAM_STRATEGY + 64 + seat).shuffle(texts)
    # The base rules' measure is the shortlist: a candidate outside the band there is not weighed again.
    order = sorted((t for t in texts if base[t] is None or band(base[t])),
                   key=lambda t: (base[t] is None, -(base[t] or 0.0)))
    current = match.rules_for(match.current)
    weighed: list[tuple[float, str]] = []
    for text in order:
        if budget.spent or sum(1 for cost, _ in weighed if band(cost)) >= SHORTLIST:
            break
        budget.checks -= 1
        try:
            adopted = match.check_change(seat, text)
        except KallistiError:
            continue  # it no longer fits the target's rules, or would not end
        budget.steps -= measure(adopted.rules)[1]
        weighed.append((nastiness(current, adopted.rules), text))
    return weighed


def pick_change(match, seat: int, nasty: bool, memory: Memory) -> tuple[float, str] | None:
    """The change the bot would impose: the nastiest weighed when answering nastiness, else the most mischievous
    gentle one; never one that helps the target. Ties go to the earlier candidate."""
    weighed = weigh(match, seat, candidates(match, seat, memory), nasty, Budget())
    fit = [(cost, text) for cost, text in weighed if (cost >= 0 if nasty else 0 <= cost < NASTY)]
    return max(fit, key=lambda ct: ct[0], default=None)


def worst_revokable(match, seat: int):
    """The change imposed on the bot that hurts it most and that it may revoke now (None: none hurts it)."""
    if not match.x_rules(seat).revoke:
        return None
    hurting = [c for c in match.revokable(seat) if c.nastiness is not None and c.nastiness > 0
               and match.dependent(seat, c)[0] is None]  # a change another one builds on cannot be revoked first
    return max(hurting, key=lambda c: (c.nastiness, c.id), default=None)


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
    memory = memory_of(match)
    act = last_act(match, seat)
    opponent_nasty = getattr(act, "nastiness", None) is not None and act.nastiness >= NASTY
    pick = pick_change(match, seat, opponent_nasty, memory) if match.x_rules(seat).changes else None
    worst = worst_revokable(match, seat)
    # Revoking saves the bot what the change costs it; imposing costs the opponent what the pick costs: the larger wins.
    if worst is not None and (pick is None or worst.nastiness >= pick[0]):
        return ("revoke", worst.id)
    if pick is None:
        return ("pass",)
    return ("change", pick[1], pick[0])
