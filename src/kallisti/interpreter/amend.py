"""Rule changes to a running game: parsed, applied to a copy, checked, compiled and tried before they count.

A change is adopted only when every stage passes (docs/model.md §2 and §14):

1. parse — the rule-change language (`grammar/changes.py`) gives one patch with the positions of
   its text, so every later finding points at a line and column of what the player typed;
2. apply — `apply_patch` on a copy of the effective data (the ruleset is never modified);
3. check — the resolved schema, then compiling the ruleset, which runs the semantic checks;
4. trial — a few seeded deals played on copies by a random player: a change is refused when its
   rules cannot be dealt, raise an error while playing, or make play unable to end within the move
   cap where the rules before it could. A change that merely makes the game harder is adopted.

Nothing here touches the game being played, so a refused change leaves it exactly as it was.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from kallisti.errors import Finding, KallistiError, Pos
from kallisti.interpreter.compiler import RuleRuntimeError
from kallisti.interpreter.rng import STREAM_STRATEGY, Rng
from kallisti.model.located import LDict, copy, plain

TRIAL_DEALS = 3  # seeded deals a change is tried on
TRIAL_CAP = 2000  # moves a trial deal may take before play counts as unable to end
TRIAL_SEED = 0x7A1A1  # the trial's own deals: never the match's, so a trial shifts no deal
MAX_CACHED = 128  # compiled rulesets kept, keyed by their data


@dataclass(frozen=True)
class Amendment:
    """A checked change: its patch, and the effective data and compiled ruleset once it is applied."""

    text: str
    patch: LDict
    data: LDict
    rules: object  # Ruleset


_cache: "OrderedDict[str, object]" = OrderedDict()


def data_key(data) -> str:
    """A hash of a ruleset's data: equal data, equal key."""
    return hashlib.sha256(json.dumps(plain(data), sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def compile_data(data: LDict, where: Pos | None = None):
    """The compiled Ruleset of resolved data, after the resolved schema; compiled once per distinct data.
    The data come from rule changes made during play, which may leave the game unwinnable."""
    from kallisti.model.loader import schema_findings
    from kallisti.model.ruleset import Ruleset

    key = data_key(data)
    rules = _cache.get(key)
    if rules is not None:
        _cache.move_to_end(key)
        return rules
    findings = schema_findings(data, "resolved", where or data.pos or Pos("<ruleset>"))
    if findings:
        raise KallistiError(findings)
    rules = Ruleset(data, during_play=True)
    _cache[key] = rules
    if len(_cache) > MAX_CACHED:
        _cache.popitem(last=False)
    return rules


def apply_all(base: LDict, patches: Sequence[dict]) -> LDict:
    """`base ⊕ patches`: each applied in order to a copy (the base is never modified)."""
    from kallisti.model.loader import normalise
    from kallisti.model.patch import apply_patch

    data = copy(base)
    for patch in patches:
        data = apply_patch(data, patch, normalise)
    return data


def parse(text: str, source: str = "<change>") -> LDict:
    """One change's patch, with the positions of its text (KallistiError with line:column otherwise)."""
    from kallisti.grammar.changes import parse_change
    from kallisti.model.loader import refuse_unsafe_strings, refuse_unsafe_text

    refuse_unsafe_text(text, source)  # typed by an opponent: no escape sequence may reach the other player's screen
    patch = parse_change(text, source)
    refuse_unsafe_strings(patch)  # nor one written as an escape (`set game "\\u001b[2J"`)
    return patch


def amend(current: LDict, text: str, *, source: str = "<change>", baseline=None, trial: bool = True,
          patch: LDict | None = None) -> Amendment:
    """Check a change against the effective data `current`; an Amendment, or KallistiError saying why not.

    `baseline` is the compiled ruleset in force now (for the trial's comparison); `patch` skips parsing.
    """
    if patch is None:
        patch = parse(text, source)
    if "revoke" in patch:
        raise KallistiError(Finding("revoke-here", "`revoke` takes back a change of a match's change log; "
                                    "it is handled by the match, not applied to a ruleset", patch.pos or Pos(source, 1, 1)))
    data = apply_all(current, [patch])
    if data_key(data) == data_key(current):
        raise KallistiError(Finding("change-nothing", "this change changes nothing: the rules already say so",
                                    patch.pos or Pos(source, 1, 1)))
    rules = compile_data(data, Pos(source, 1, 1))
    if trial:
        findings = trial_findings(rules, baseline, Pos(source, 1, 1))
        if findings:
            raise KallistiError(findings)
    return Amendment(text, patch, data, rules)


_trials: "OrderedDict[tuple, object]" = OrderedDict()


def trial_findings(rules, baseline, where: Pos, deals: int = TRIAL_DEALS, cap: int = TRIAL_CAP) -> list[Finding]:
    """What goes wrong when `rules` are played on a few seeded deals by a random player (nothing: []).

    In games with moves that can be taken back, random play reaches the cap or not partly by chance,
    so play counts as unable to end only when no trial deal ends under the change while every one
    ended under the rules before it.
    """
    if not rules.pile_count:
        return []  # a ruleset that only scores hands has no play to try; its schema and checks judged it
    outcomes = []
    for k in range(1, deals + 1):
        outcome = _trial_outcome(rules, k, cap)
        if isinstance(outcome, Finding):
            return [Finding(outcome.code, outcome.message, where, suggestion=outcome.suggestion)]
        outcomes.append(outcome)
    if "ended" not in outcomes and (baseline is None or
                                    all(_trial_outcome(baseline, k, cap) == "ended" for k in range(1, deals + 1))):
        return [Finding("change-endless", f"with this change, no trial deal ends within {cap} moves "
                        "(with the rules before it, every one did)", where,
                        suggestion="a change may make the game harder, but play must still come to an end")]
    return []


def _trial_outcome(rules, k: int, cap: int):
    """A trial deal's outcome, played once per distinct ruleset (a trial is a pure function of the rules)."""
    key = (data_key(rules.data), k, cap)
    if key not in _trials:
        _trials[key] = _trial_deal(rules, k, cap)
        if len(_trials) > 4 * MAX_CACHED:
            _trials.popitem(last=False)
    return _trials[key]


def _trial_deal(rules, k: int, cap: int):
    """`ended` or `capped`, or a Finding when the deal cannot be made or a rule raises an error."""
    from kallisti.interpreter.game import Game

    try:
        game = Game(rules, seed=TRIAL_SEED, deal_number=k)
    except KallistiError as exc:
        first = exc.findings[0]
        return Finding("change-undealable", f"with this change the game cannot be dealt: {first.message}", Pos("<trial>"))
    except (ValueError, IndexError) as exc:
        return Finding("change-undealable", f"with this change the game cannot be dealt: {exc}", Pos("<trial>"))
    rng = Rng(TRIAL_SEED, k, STREAM_STRATEGY)
    try:
        made = game.playout(lambda n: rng.below(n), cap)
        game.status()
        game.score()
    except RuleRuntimeError as exc:
        return Finding("change-error", f"with this change a rule fails while playing trial deal {k}: {exc}", Pos("<trial>"))
    if game.rule_errors:
        return Finding("change-error", f"with this change a rule fails while playing trial deal {k}: {game.rule_errors[0]}",
                       Pos("<trial>"))
    return "capped" if made >= cap else "ended"
