"""Rule changes to a running game: parsed, applied to a copy, checked, compiled and tried before they count.

A change is adopted only when every stage passes (docs/model.md §2 and §14):

1. parse — the rule-change language (`grammar/changes.py`) gives one patch with the positions of
   its text, so every later finding points at a line and column of what the player typed;
2. apply — `apply_patch` on a copy of the effective data (the ruleset is never modified);
3. check — the resolved schema, then compiling the ruleset, which runs the semantic checks (applying and compiling
   are the model's, `model/amended.py`, which keeps each distinct result compiled once);
4. trial — a few seeded deals played on copies by a random player: a change is refused when its
   rules cannot be dealt, raise an error while playing, or make play unable to end within the move
   cap where the rules before it could. A change that merely makes the game harder is adopted.

Nothing here touches the game being played, so a refused change leaves it exactly as it was.
"""

from __future__ import annotations

import functools
import threading
import weakref
from collections import OrderedDict
from dataclasses import dataclass, replace

from kallisti.errors import Finding, KallistiError, Pos, caret
from kallisti.interpreter.compiler import RuleRuntimeError
from kallisti.interpreter.rng import STREAM_STRATEGY, replayed_below
from kallisti.interpreter.ruleset_keys import forget as forget_keys, remember_key
# The keys of compiled rulesets, read through this module by most of their users.
from kallisti.interpreter.ruleset_keys import rules_key, rules_moves_key, rules_play_key, texts_of  # noqa: F401
from kallisti.interpreter.shared_compiled import forget_compiled
from kallisti.model import amended
from kallisti.model.amended import MAX_CACHED, apply_all, data_key
# The bounds of the cache of compiled changes, where limits.py lists them.
from kallisti.model.amended import MAX_CACHED_BYTES  # noqa: F401
from kallisti.located import LDict, copy
from kallisti.model.ruleset import Ruleset

TRIAL_DEALS = 3  # seeded deals a change is tried on
TRIAL_CAP = 2000  # moves a trial deal may take before play counts as unable to end
TRIAL_SEED = 0x7A1A1  # the trial's own deals: never the match's, so a trial shifts no deal


@dataclass(frozen=True)
class Amendment:
    """A checked change: its patch, and the effective data and compiled ruleset once it is applied."""

    text: str
    patch: LDict
    data: LDict
    rules: object  # Ruleset
    # What the player who makes it should know, though it is adopted (`runs_warnings`): shown to Player X.
    warnings: tuple = ()


def compile_data(data, where: Pos | None = None, key: str | None = None, base=None):
    """The compiled Ruleset of resolved data (model/amended.py `compile_data`, with the Ruleset class the engine
    plays): compiled once per distinct data; `base`, valid data `data` was made from, has its schema judged only
    where `data` differs from it."""
    return amended.compile_data(data, Ruleset, where, key, base)


# A live ruleset per moves key (`rules_moves_key`) and whether it reads the moves made (`plain_moves`): rulesets later
# alike in both share its engine tables, for they make the same moves everywhere (as `_played_deal` relies on).
_engines: "weakref.WeakValueDictionary" = weakref.WeakValueDictionary()


def _share_engine(rules) -> None:
    """Give `rules` the engine tables of a ruleset that makes the same moves, or keep it as the one that gives them."""
    if rules.engine_tables is not None or not rules.pile_count:
        return
    key = (rules_moves_key(rules), rules.reads_history)
    with _lock:
        other = _engines.get(key)
        if other is None or other.engine_tables is None:
            _engines[key] = rules
            return
    rules.engine_tables = other.engine_tables


def parse(text: str, source: str = "<change>") -> LDict:
    """One change's patch, with the positions of its text (KallistiError with line:column otherwise): a copy of its
    own, which the caller may keep or change, of the patch parsed once per (text, source)."""
    return copy(parsed(text, source))


@functools.lru_cache(maxsize=1024)  # texts kept, a few kilobytes each: the least recently used forgotten
def parsed(text: str, source: str = "<change>") -> LDict:
    """The patch of a change's text, parsed once and shared: a match checks the same text again and again (a bot
    weighs its candidates every turn, and the change it picks is checked again when it is imposed). Never to be
    modified by its reader (`parse` hands out a copy of its own)."""
    from kallisti.grammar.changes import parse_change
    from kallisti.model.loader import refuse_unsafe_strings, refuse_unsafe_text

    refuse_unsafe_text(text, source)  # typed by an opponent: no escape sequence may reach the other player's screen
    patch = parse_change(text, source)
    refuse_unsafe_strings(patch)  # nor one written as an escape (`set game "\\u001b[2J"`)
    return patch


def amend(current: LDict, text: str, *, source: str = "<change>", baseline=None, trial: bool = True,
          patch: LDict | None = None, suggest: bool = True, screen=None, intent: bool = True,
          current_key: str | None = None) -> Amendment:
    """Check a change against the effective data `current`; an Amendment, or KallistiError saying why not.

    `baseline` is the compiled ruleset in force now (for the trial's comparison); `patch` skips parsing, and
    `current_key`, `data_key(current)` when the caller knows it, hashing `current` again.
    Every finding of a refused change is reported at the change's own text, and a suggestion that offers
    another change has been tried and works (`suggest`; `screen(patch)` raises KallistiError for a change
    the caller would refuse before it is tried, such as a key fixed in a match). With `intent`, a change is also
    judged against what it meant to do: what it meant to allow (`change-left-behind`), a clause of its own that never
    or always holds (validate's warnings about its text), and a player left with no way to take it back
    (`change-no-way-back`).
    """
    if patch is None:
        patch = parse(text, source)
    if "revoke" in patch:
        raise KallistiError(Finding("revoke-here", "`revoke` takes back a change of a match's change log; "
                                    "it is handled by the match, not applied to a ruleset", patch.pos or Pos(source, 1, 1)))
    try:
        data = apply_all(current, [patch])
        texts = texts_of(baseline) if baseline is not None else None
        key = data_key(data, texts)
        # Data rebuilt from the changes themselves (a match's check) share with the rules in force every part no change
        # touched: their texts are read from those rules' rather than written again.
        if baseline is not None and baseline.data is current:
            current_key = rules_key(baseline)
        elif current_key is None:
            current_key = data_key(current, texts)
        if key == current_key:
            raise KallistiError(Finding("change-nothing", "this change changes nothing: the rules already say so",
                                        patch.pos or Pos(source, 1, 1)))
        # Data equal to the compiled rules in force passed the schema: only what the change made is judged again.
        valid = baseline is not None and current_key == rules_key(baseline)
        rules = compile_data(data, Pos(source, 1, 1), key, base=current if valid else None)
        remember_key(rules, key)
        if baseline is not None:
            texts_of(rules, baseline)  # the texts of the parts it shares with the rules in force, for its other keys
        if intent:  # what a change means to do: a log made before these checks still replays
            _refuse_warnings(rules, source)
            _refuse_no_way_back(current, data, patch, source)
            _left_behind(current, baseline, rules, patch, text, source, suggest, screen)
        if trial:
            findings = trial_findings(rules, baseline, Pos(source, 1, 1))
            if findings:
                raise KallistiError(findings)
    except KallistiError as exc:
        raise KallistiError(_for_change(exc.findings, patch, text, source, current, baseline, suggest, screen)) from None
    where = _change_pos(patch, source) if isinstance(patch, LDict) else Pos(source, 1, 1)
    return Amendment(text, patch, data, rules, runs_warnings(baseline, rules, where))


def runs_warnings(before, after, where: Pos) -> tuple[Finding, ...]:
    """A warning for each group whose piles gave one card at a time under `before` and give several at once under
    `after` (`set field.take any` lets a whole column go where a card went): the change may mean another card."""
    if before is None:
        return ()
    most_before = dict(zip(before.groups, before.move_tables()[2]))
    out = []
    for name, most in zip(after.groups, after.move_tables()[2]):
        if most > 1 and most_before.get(name) == 1:
            tag = after.tag_of[after.groups[name].piles[0]]
            out.append(Finding(
                "change-moves-runs", f"with this change up to {most} cards may leave a pile of the {name} at once, "
                f"where one card at a time did before", where, severity="warning",
                suggestion=f"to let another single card leave instead, keep `take` and set `{name}.take_from` "
                           f"(top, bottom, any, runs; `{tag}@1` then names a pile's first card)"))
    return tuple(out)


# The warnings that say a change's own text does nothing as written (or refuses every move): refused at the change.
# Others stay warnings the player is told of, and the change is adopted: a win made unreachable on purpose (Player X's
# "you can no longer win") is a rule change, not a mistake.
REFUSED_WARNINGS = frozenset({"clause-never-true", "clause-always-true", "rule-contradiction", "lose-never-true",
                              "constant-comparison"})


def _refuse_warnings(rules, source: str) -> None:
    """Refuse a change about whose own text the checks warn, with the finding `validate` gives, at the change: a clause
    that never or always holds (so it refuses nothing, or everything; `none` says that on purpose), clauses that
    together refuse every move, a loss condition that can never hold. A change that does nothing as written is a mistake
    to point out before it counts."""
    found = [f for f in rules.findings if f.pos.source == source and f.code in REFUSED_WARNINGS]
    if found:
        raise KallistiError([replace(f, severity="error") for f in found])


def _refuse_no_way_back(current, data, patch, source: str) -> None:
    """Refuse a change that leaves its player able to do nothing as Player X: neither a change nor a revoke. That
    player would never be Player X again, so the change could never be taken back."""
    from kallisti.model.patch import verb_of

    def may(d) -> bool:
        px = d.get("match", {}).get("player_x") if isinstance(d.get("match"), dict) else None
        return not isinstance(px, dict) or px.get("changes", 0) > 0 or bool(px.get("revoke"))

    if may(current) and not may(data):
        raise KallistiError(Finding(
            "change-no-way-back", "with this change the player could never be Player X again (match.player_x allows "
            "neither a change nor a revoke), so the change could never be revoked", _change_pos(patch, source),
            suggestion="leave the player one change or the revoke: `set match.player_x.changes 0` keeps the revoke"
            if verb_of(patch) != "delete" else "keep match.player_x"))


def _left_behind(current, baseline, rules, patch, text: str, source: str, suggest: bool, screen) -> None:
    """Refuse a `replace` that leaves in its rule a clause refusing what the new clause was meant to allow
    (`change-left-behind`), suggesting the whole rule without that clause when that works."""
    from kallisti.grammar.rules_writer import change_text
    from kallisti.model.change_checks import left_behind_findings, without_clauses

    if "replace" not in patch:
        return
    try:
        before = baseline if baseline is not None and rules_key(baseline) == data_key(current) else compile_data(current)
    except KallistiError:
        return
    found = left_behind_findings(before, rules, patch, _change_pos(patch, source))
    if not found:
        return
    findings = []
    for finding, culprit in found:
        path = str(patch["replace"])
        whole = change_text({"set": path, "value": without_clauses(rules.data, path, {culprit})})
        works = suggest and _works(current, whole, source, baseline, screen)
        findings.append(replace(finding, excerpt=caret(text, finding.pos), suggestion=(
            f"drop '{culprit}' too, setting the whole rule: `{whole}`" if works else
            f"take the clause '{culprit}' out of the rule too")))
    raise KallistiError(findings)


def _change_pos(patch, source: str) -> Pos:
    """Where a change names what it changes: its path (after the verb), else its start."""
    from kallisti.located import child_pos
    from kallisti.model.patch import verb_of

    try:
        verb = verb_of(patch)
    except KallistiError:
        return patch.pos or Pos(source, 1, 1)
    return child_pos(patch, verb) or patch.pos or Pos(source, 1, 1)


def _short(path: str) -> str:
    """A path as a rule change may write it: `piles.field.count` is `field.count`."""
    from kallisti.grammar.rules_words import TOP_KEYS

    parts = str(path).split(".")
    return ".".join(parts[1:]) if len(parts) > 1 and parts[0] == "piles" and parts[1] not in TOP_KEYS else str(path)


def _for_change(findings, patch, text: str, source: str, current, baseline, suggest: bool, screen) -> list[Finding]:
    """The findings of a refused change, each at the change's own text: one the rules report elsewhere (in the
    ruleset file, or in an earlier change) is caused by this change, so it is moved to where the change names what
    it changes, saying where the rules broke, with a suggestion for the change; and a suggestion of another change
    is one that works (`suggest`)."""
    at = _change_pos(patch, source)
    out = []
    for f in findings:
        if f.pos.source != source:
            f = Finding(f.code, f"with this change, {f.message} (the rules at {f.pos})", at, severity=f.severity,
                        suggestion=_instead(patch, current), excerpt=caret(text, at))
        elif suggest:
            f = _working_suggestion(f, patch, source, current, baseline, screen)
        out.append(f)
    return out


def _instead(patch, current) -> str:
    """What to do instead of a change that breaks the rest of the rules."""
    from kallisti.model.patch import split_path, verb_of

    verb = verb_of(patch)
    path = str(patch[verb])
    short = _short(path)
    if verb == "delete":
        node = current
        for part in split_path(path):
            node = node.get(str(part)) if isinstance(node, dict) else None
        if isinstance(node, dict) and node:
            return f"keep {short}, which the rest of the rules need; change one of its keys instead (`set {short}.KEY VALUE`)"
        return f"keep {short}, which the rest of the rules need"
    if verb in ("set", "add"):
        return f"give {short} a value the rest of the rules allow"
    return f"change {short} so that the rest of the rules still hold"


def _works(current, statement: str, source: str, baseline, screen) -> bool:
    """Whether the change `statement` would be adopted: read, screened, applied, checked and tried."""
    try:
        patch = parse(statement, source)
        if screen is not None:
            screen(patch)
        amend(current, statement, source=source, baseline=baseline, patch=patch, suggest=False)
    except KallistiError:
        return False
    return True


def _working_suggestion(f: Finding, patch, source: str, current, baseline, screen) -> Finding:
    """`f` with a suggestion that works: the changes a refusal can suggest instead (a close key or clause id, `add`
    for a key the ruleset may have, `set` for one it has, `replace` for a clause it has, a group's `deal` for its
    rows), each tried; the first that works is suggested, and when none does, what the place holds is named."""
    from kallisti.grammar.rules_writer import change_text

    candidates, otherwise = _candidates(f, patch, current)
    if candidates is None:
        return f
    for candidate, say in candidates:
        try:
            statement = change_text(candidate)
        except ValueError:  # a candidate no statement can say (Unwritable) is no suggestion
            continue
        if _works(current, statement, source, baseline, screen):
            return replace(f, suggestion=say.replace("{}", statement, 1))
    return replace(f, suggestion=otherwise)


def _candidates(f: Finding, patch, current):
    """([(patch, how to say it with `{}` for its statement)], what to say when none works), or (None, None) when
    the finding's own suggestion offers no change."""
    import difflib

    from kallisti.located import plain
    from kallisti.model.patch import split_path, verb_of

    verb = verb_of(patch)
    body = {k: plain(v) for k, v in patch.items()}
    if f.code == "unknown-path" and verb in ("set", "add", "delete"):
        parts = split_path(patch[verb])
        if not parts:  # an empty path: no key to be close to
            return None, None
        node, i = current, 0
        while i < len(parts) - 1:
            step = _child(node, parts[i])
            if step is None:
                break
            node, i = step, i + 1
        keys = [str(k) for k in node] if isinstance(node, dict) else _item_ids(node)
        if isinstance(node, list) and isinstance(parts[i], int) and verb == "add":
            # an item added by its place: the same item, named by its id (the one it gives, if any)
            value = body["value"]
            if not (isinstance(value, dict) and isinstance(value.get("id"), str)):
                return None, None
            named = {"add": ".".join(map(str, parts[:i] + [value["id"]])), "value": {k: v for k, v in value.items() if k != "id"}}
            return [(named, "name the item by its id: `{}`")], f.suggestion
        if isinstance(node, list) and not keys:  # a list without named items: the finding's own advice stands
            return None, None
        where = ".".join(map(str, parts[:i])) or "the ruleset"
        out = []
        for close in difflib.get_close_matches(str(parts[i]), keys, n=3, cutoff=0.6):
            out.append(({**body, verb: ".".join(map(str, parts[:i] + [close] + parts[i + 1:]))}, "did you mean `{}`?"))
        if verb == "set" and i == len(parts) - 1:
            out.append(({"add": body["set"], "value": body["value"]}, "to add a new key, use `{}`"))
            rows = _rows(current, parts, body["value"])
            if rows is not None:
                out.append(({"set": ".".join(map(str, parts[:-1] + ["deal"])), "value": rows},
                            "a group's rows are its deal, one entry a row: `{}`"))
        return out, (f"{where} has: {', '.join(keys)}" if keys else None)
    if f.code == "schema" and verb == "add":  # a key the ruleset may not have: one it has, or a group's rows
        parts = split_path(patch["add"])
        node = current
        for part in parts[:-1]:
            node = node.get(str(part)) if isinstance(node, dict) else None
        keys = [str(k) for k in node] if isinstance(node, dict) else []
        out = [({"set": ".".join(map(str, parts[:-1] + [close])), "value": body["value"]}, "did you mean `{}`?")
               for close in difflib.get_close_matches(str(parts[-1]), keys, n=3, cutoff=0.6)]
        rows = _rows(current, parts, body["value"])
        if rows is not None:
            out.append(({"set": ".".join(map(str, parts[:-1] + ["deal"])), "value": rows},
                        "a group's rows are its deal, one entry a row: `{}`"))
        return (out, f.suggestion) if out else (None, None)
    if f.code == "key-exists" and verb == "add":
        return [({"set": body["add"], "value": body["value"]}, "it is there already: use `{}`")], None
    if f.code == "unknown-clause" and verb in ("replace", "remove"):
        try:
            rule = current
            for part in split_path(patch[verb]):
                rule = rule[str(part)] if isinstance(rule, dict) else rule[part]
            ids = [str(c["id"]) for c in rule if isinstance(c, dict) and "id" in c]
        except (KeyError, IndexError, TypeError):
            return None, None
        return [({**body, "id": close}, "did you mean `{}`?")
                for close in difflib.get_close_matches(str(patch["id"]), ids, n=3, cutoff=0.6)], None
    if f.code == "duplicate-clause" and verb in ("require", "forbid"):
        swap = {"replace": body[verb], "id": body["id"], verb: body["expr"]}
        if "says" in body:
            swap["says"] = body["says"]
        return [(swap, "to change that clause, use `{}`; or give this one another id")], "give the clause another id"
    return None, None


def _child(node, part):
    """The child of a map by key, or of a list by place or by the id of an item (None when there is none)."""
    if isinstance(node, dict):
        return node.get(str(part))
    if isinstance(node, list):
        if isinstance(part, int):
            return node[part] if 0 <= part < len(node) else None
        return next((item for item in node if isinstance(item, dict) and item.get("id") == str(part)), None)
    return None


def _item_ids(node) -> list[str]:
    """The ids of a list's items (the move patterns, loss conditions or clauses it holds)."""
    return [str(item["id"]) for item in node if isinstance(item, dict) and "id" in item] if isinstance(node, list) else []


def _rows(current, parts: list, value):
    """For `set GROUP.rows N`: the group's `deal` with N rows (its last row repeated, or its last rows dropped), or
    None when the path is no group's `rows` or the group has no rows to go by."""
    if len(parts) != 3 or parts[0] != "piles" or parts[2] != "rows" or isinstance(value, bool) or not isinstance(value, int):
        return None
    group = current.get("piles", {}).get(str(parts[1]))
    deal = group.get("deal") if isinstance(group, dict) else None
    if not isinstance(deal, list) or not deal or not 1 <= value <= 100:
        return None
    rows = [str(r) for r in deal]
    return rows[:value] if value <= len(rows) else rows + [rows[-1]] * (value - len(rows))


_trials: "OrderedDict[tuple, object]" = OrderedDict()
# Trials of several sessions run on worker threads at once (the web server): the cache is read and trimmed under it.
_lock = threading.Lock()


def forget_checked() -> None:
    """Forget every compiled change, trial and shared compiled expression kept (so that the next change is checked afresh,
    as benchmarks want)."""
    with _lock:
        _trials.clear()
        _engines.clear()
        for rules in list(_keeping):
            rules.trial_games.clear()
        _keeping.clear()
    with amended._lock:
        amended._cache.clear()
    parsed.cache_clear()
    forget_compiled()
    forget_keys()


def trial_findings(rules, baseline, where: Pos, deals: int = TRIAL_DEALS, cap: int = TRIAL_CAP) -> list[Finding]:
    """What goes wrong when `rules` are played on a few seeded deals by a random player (nothing: []).

    In games with moves that can be taken back, random play reaches the cap or not partly by chance,
    so play counts as unable to end only when no trial deal ends under the change while every one
    ended under the rules before it.
    """
    if not rules.pile_count:
        return []  # a ruleset that only scores hands has no play to try; its schema and checks judged it
    _share_engine(rules)
    outcomes = []
    for k in range(1, deals + 1):
        outcome = _trial_outcome(rules, k, cap, baseline)
        if isinstance(outcome, Finding):
            return [Finding(outcome.code, outcome.message, where, suggestion=outcome.suggestion)]
        outcomes.append(outcome[0])
    if "ended" not in outcomes and (baseline is None or
                                    all(_ended(_trial_outcome(baseline, k, cap, baseline)) for k in range(1, deals + 1))):
        return [Finding("change-endless", f"with this change, no trial deal ends within {cap} moves "
                        "(with the rules before it, every one did)", where,
                        suggestion="a change may make the game harder, but play must still come to an end")]
    return []


def _ended(outcome) -> bool:
    return isinstance(outcome, tuple) and outcome[0] == "ended"


def trial_deal_end(rules, k: int) -> tuple[float, int] | None:
    """(the score, the moves made) at the end of trial deal `k` played under `rules` by the trial's random player
    (up to TRIAL_CAP moves), or None when it cannot be dealt or a rule fails while playing. The same deal a change's
    trial plays, played once for both: Player X measures a change on the trial's deals first
    (`solver/playerx.measure`)."""
    outcome = _trial_outcome(rules, k, TRIAL_CAP)
    return None if isinstance(outcome, Finding) else outcome[1:]


def _trial_outcome(rules, k: int, cap: int, baseline=None):
    """A trial deal's outcome, ("ended" or "capped", the score at its end, the moves made) or a Finding, played once
    per distinct ruleset (a trial is a pure function of the rules), and once
    for rulesets that differ only where no deal reads them (a change of the match's limit or of an honour rule): those
    play the deal move for move alike, so the outcome of one is the other's. A change that leaves what every move reads
    as it was in the rules in force, `baseline` (`model.amended.moves_key`: it changes the score, the game's name or
    the shuffle), makes their moves to the same end: the deal is played once for all such changes, and only the score
    is worked out again, at the end of the deal played."""
    key = (rules_play_key(rules), k, cap)
    with _lock:
        outcome = _trials.get(key)
    if outcome is None:
        # played outside the lock: another session's check need not wait for it
        outcome = _scored(_played_deal(rules, k, cap, baseline), rules, k, cap)
        with _lock:
            _trials[key] = outcome
            if len(_trials) > 4 * MAX_CACHED:
                _trials.popitem(last=False)
    return outcome


_scoring = threading.Lock()  # a game played is scored by one thread at a time (a score may list its legal moves)
_keeping: "weakref.WeakSet" = weakref.WeakSet()  # the rulesets that keep trial deals played (for `forget_checked`)


def _played_deal(rules, k: int, cap: int, baseline):
    """The trial deal `k` played under `rules`: a Finding, or (the game at the end of play, moves made). When `rules`
    make the moves of the rules in force, `baseline`, the deal is kept with those (`Ruleset.trial_games`), and played
    again only for a score that reads the moves made where they were played without keeping them."""
    if baseline is None or (rules is not baseline and rules_moves_key(rules) != rules_moves_key(baseline)):
        return _trial_deal(rules, k, cap)
    with _lock:
        played = baseline.trial_games.get((k, cap))
    if played is None or (isinstance(played, tuple) and rules.reads_history and played[0].trail is None):
        played = _trial_deal(rules, k, cap)
        with _lock:
            baseline.trial_games[(k, cap)] = played
            _keeping.add(baseline)
    return played


def _scored(played, rules, k: int, cap: int):
    """("ended" or "capped", the score, the moves made), or a Finding: the outcome of a trial deal played
    (`_trial_deal`), scored by `rules`."""
    if isinstance(played, Finding):
        return played
    game, made = played
    try:
        with _scoring:
            score = rules.score(game.ctx)
    except RuleRuntimeError as exc:
        return Finding("change-error", f"with this change a rule fails while playing trial deal {k}: {exc}", Pos("<trial>"))
    if game.rule_errors:
        return Finding("change-error", f"with this change a rule fails while playing trial deal {k}: {game.rule_errors[0]}",
                       Pos("<trial>"))
    return ("capped" if made >= cap else "ended", score, made)


def _trial_deal(rules, k: int, cap: int):
    """(game, moves made) at the end of play, or a Finding when the deal cannot be made or a rule raises an error
    while playing (its score is worked out by `_scored`)."""
    from kallisti.interpreter.game import Game

    try:
        game = Game(rules, seed=TRIAL_SEED, deal_number=k)
    except KallistiError as exc:
        first = exc.findings[0]
        return Finding("change-undealable", f"with this change the game cannot be dealt: {first.message}", Pos("<trial>"))
    except (ValueError, IndexError) as exc:
        return Finding("change-undealable", f"with this change the game cannot be dealt: {exc}", Pos("<trial>"))
    try:
        made = game.playout(replayed_below(TRIAL_SEED, k, STREAM_STRATEGY), cap)  # the same stream for every change
        game.status()
    except RuleRuntimeError as exc:
        return Finding("change-error", f"with this change a rule fails while playing trial deal {k}: {exc}", Pos("<trial>"))
    return game, made
