"""Saves: a versioned JSON file holding the resolved ruleset, the deal and the event log, written atomically."""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from kallisti.errors import Finding, KallistiError, Pos
from kallisti.interpreter.game import LayoutChanged
from kallisti.model.located import located

FORMAT = "kallisti-save"
VERSION = 1
MAX_SAVE_BYTES = 20_000_000


def ruleset_hash(resolved: dict) -> str:
    """The hash a save records for its ruleset, checked on loading."""
    return hashlib.sha256(json.dumps(resolved, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def game_to_data(game, next_deal: Sequence[dict] = ()) -> dict:
    """A game as plain data: enough to rebuild it exactly on any machine.

    `next_deal` holds the changes waiting for the next deal (they alter the deck or the piles),
    as `rule` and `rules` events like those of the log.
    """
    rules = game.initial_rules  # changes made during play are events of the log
    resolved = rules.plain()
    data = {
        "format": FORMAT,
        "version": VERSION,
        "game": rules.name,
        "ruleset": {
            "resolved": resolved,
            "sha256": ruleset_hash(resolved),
            "sources": [{"name": Path(s.name).name, "sha256": s.sha256} for s in rules.sources],
        },
        "deal": {"seed": game.seed, "order": list(game.order), "cards": " ".join(game.deck.ascii_name(c) for c in game.order)},
        "events": list(game.events),
    }
    if next_deal:
        data["next_deal"] = [dict(ev) for ev in next_deal]
    return data


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` so that a crash leaves either the old file or the new one, never half of one."""
    path = Path(path)
    folder = path.resolve().parent
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def save_game(game, path: Path, next_deal: Sequence[dict] = ()) -> None:
    write_atomic(Path(path), json.dumps(game_to_data(game, next_deal), indent=1, ensure_ascii=False) + "\n")


def load_game(path: Path, *, with_next_deal: bool = False):
    """Rebuild a saved game: its ruleset, its deal, then every event replayed in order.

    With `with_next_deal`, (game, the changes waiting for its next deal), each checked against its rules.
    """
    from kallisti.textfiles import read_text

    path = Path(path)
    text = read_text(path, MAX_SAVE_BYTES, "the save", "save")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise KallistiError(Finding("save-syntax", f"not a kallisti save: {exc.msg}", Pos(str(path), exc.lineno, exc.colno))) from None
    game = game_from_data(data, str(path))
    waiting = next_deal_from_data(data, game, str(path))
    return (game, waiting) if with_next_deal else game


def next_deal_from_data(data: dict, game, source: str = "<save>") -> list[dict]:
    """The changes a save keeps for the next deal, once they are known to apply to the game's rules."""
    waiting = data.get("next_deal", []) if isinstance(data, dict) else []
    if not isinstance(waiting, list) or not all(isinstance(ev, dict) and ev.get("type") in ("rule", "rules") for ev in waiting):
        raise KallistiError(Finding("save-shape", "the save's next_deal must be a list of `rule` and `rules` events", Pos(source)))
    try:
        next_deal_rules(game.rules, waiting, source)
    except (KeyError, TypeError):
        raise KallistiError(Finding("save-shape", "a change waiting for the next deal lacks its text or its rules",
                                    Pos(source))) from None
    except KallistiError as exc:
        raise KallistiError(Finding("save-event", f"a change waiting for the next deal cannot be applied: "
                                    f"{exc.findings[0].message}", Pos(source))) from None
    return [dict(ev) for ev in waiting]


def game_from_data(data: dict, source: str = "<save>"):
    from kallisti.interpreter.game import Game
    from kallisti.interpreter.notation import MoveRefused, parse_move

    where = Pos(source)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise KallistiError(Finding("save-format", "not a kallisti save (no `format: kallisti-save`)", where))
    if data.get("version") != VERSION:
        raise KallistiError(Finding("save-version", f"save version {data.get('version')!r}; this kallisti reads version {VERSION}", where))
    try:
        raw_ruleset = data["ruleset"]["resolved"]
        recorded_hash = data["ruleset"]["sha256"]
        order_names = data["deal"]["order"]
        cards_text = data["deal"].get("cards")
        seed = data["deal"].get("seed")
        events = data["events"]
    except (KeyError, TypeError, AttributeError):
        raise KallistiError(Finding("save-shape", "the save lacks its ruleset, deal or events", where)) from None
    if not isinstance(raw_ruleset, dict) or not isinstance(order_names, list) or not isinstance(events, list) \
            or not (seed is None or isinstance(seed, int)):
        raise KallistiError(Finding("save-shape", "the save's ruleset must be a map, its deal order and events lists", where))
    rules = saved_ruleset(raw_ruleset, recorded_hash, source)
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in order_names) or sorted(order_names) != list(range(rules.deck.size)):
        raise KallistiError(Finding("save-deal", f"the saved deal is not an order of the {rules.deck.size} cards", where))
    order = list(order_names)
    if cards_text is not None and cards_text != " ".join(rules.deck.ascii_name(c) for c in order):
        raise KallistiError(Finding("save-deal", "the saved deal's card ids and card names disagree", where))
    game = Game(rules, seed=seed, order=order)
    replay(game, events, source)
    return game


def saved_ruleset(raw: dict, recorded_hash, source: str):
    """The Ruleset a save stores, after checking its hash and the resolved schema."""
    from kallisti.model.loader import schema_findings
    from kallisti.model.ruleset import Ruleset

    where = Pos(source)
    if recorded_hash != ruleset_hash(raw):
        raise KallistiError(Finding("save-tampered", "the saved ruleset does not match its recorded hash", where))
    resolved = located(raw, Pos(f"{source}:ruleset"))
    findings = schema_findings(resolved, "resolved", where)
    if findings:
        raise KallistiError(findings)
    return Ruleset(resolved, during_play=True)  # a deal's rules may come from changes made in play


def replay(game, events: list, source: str = "<events>") -> None:
    """Apply a saved event log; an event the rules refuse is an error, naming its index."""
    from kallisti.interpreter.notation import MoveRefused, parse_move

    for i, ev in enumerate(events):
        kind = ev.get("type") if isinstance(ev, dict) else None
        try:
            if kind == "move":
                game.play(parse_move(game, str(ev["move"])))
            elif kind == "auto":
                game.play_auto()
            elif kind == "ack":
                pass  # an honour rule acknowledged: recorded for the player's word, it changes no card
            elif kind == "undo":
                if not game.undo():
                    raise MoveRefused("nothing to undo")
            elif kind == "redo":
                if not game.redo():
                    raise MoveRefused("nothing to redo")
            elif kind == "rule":
                adopt_change(game, str(ev["text"]))
            elif kind == "rules":
                adopt_rules(game, compile_resolved(ev["resolved"], source), str(ev.get("file", "")))
            else:
                raise MoveRefused(f"unknown event {ev!r}")
        except (MoveRefused, KeyError, LayoutChanged) as exc:
            raise KallistiError(Finding("save-event", f"event {i} cannot be replayed: {exc}", Pos(source))) from None
        except KallistiError as exc:
            raise KallistiError(Finding("save-event", f"event {i} cannot be replayed: {exc.findings[0].message}", Pos(source))) from None


def adopt_change(game, text: str, source: str = "<change>"):
    """Check a rule change typed during play (`rule ...`) and play on under it; KallistiError or LayoutChanged if not."""
    from kallisti.interpreter import amend

    adopted = amend.amend(game.rules.data, text, source=source, baseline=game.rules)
    game.change_rules(adopted.rules, {"type": "rule", "text": text})
    return adopted


def next_deal_rules(rules, waiting: Sequence[dict], source: str = "<next deal>"):
    """The rules of the next deal: `rules` with the waiting `rule` and `rules` events applied in order.

    A `rules` event (a reloaded file) is a whole ruleset: it replaces what came before it.
    """
    from kallisti.interpreter import amend

    if not waiting:
        return rules
    data = rules.data
    for ev in waiting:
        if ev["type"] == "rule":
            data = amend.apply_all(data, [amend.parse(str(ev["text"]), source)])
        else:
            data = compile_resolved(ev["resolved"], source).data
    return amend.compile_data(data, Pos(source))


def adopt_rules(game, rules, file: str = "") -> None:
    """Play on under a whole new ruleset (a file reloaded by `play --watch`)."""
    from kallisti.model.located import plain

    game.change_rules(rules, {"type": "rules", "file": file, "resolved": plain(rules.data)})


def compile_resolved(raw, source: str):
    """A ruleset from resolved data stored in a save (schema-checked first)."""
    from kallisti.interpreter import amend

    if not isinstance(raw, dict):
        raise KallistiError(Finding("save-shape", "a stored ruleset must be a map", Pos(source)))
    return amend.compile_data(located(raw, Pos(f"{source}:ruleset")), Pos(source))


# -- matches ----------------------------------------------------------------------------------------
MATCH_FORMAT = "kallisti-match"


def match_to_data(match) -> dict:
    """A match as plain data: the base ruleset, the seed, the seats and the whole log of actions.

    The effective rulesets are not stored: replaying the log's changes from the base rebuilds them.
    """
    resolved = match.base.plain()
    return {
        "format": MATCH_FORMAT,
        "version": VERSION,
        "game": match.base.name,
        "ruleset": {"resolved": resolved, "sha256": ruleset_hash(resolved),
                    "sources": [{"name": Path(s.name).name, "sha256": s.sha256} for s in match.base.sources]},
        "seed": match.seed,
        "seats": [{"name": s.name, "strategy": s.strategy} for s in match.seats],
        "events": list(match.events),
    }


def save_match(match, path: Path) -> None:
    write_atomic(Path(path), json.dumps(match_to_data(match), indent=1, ensure_ascii=False) + "\n")


def load_saved(path: Path):
    """A saved game or match, whichever the file holds."""
    from kallisti.textfiles import read_text

    path = Path(path)
    text = read_text(path, MAX_SAVE_BYTES, "the save", "save")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise KallistiError(Finding("save-syntax", f"not a kallisti save: {exc.msg}", Pos(str(path), exc.lineno, exc.colno))) from None
    if isinstance(data, dict) and data.get("format") == MATCH_FORMAT:
        return match_from_data(data, str(path))
    return game_from_data(data, str(path))


def match_from_data(data: dict, source: str = "<save>"):
    """Rebuild a saved match by replaying its log from the seed (bots' actions are in the log like anyone's)."""
    from kallisti.interpreter.match import Match, MatchError, Seat
    from kallisti.interpreter.notation import MoveRefused

    where = Pos(source)
    if data.get("version") != VERSION:
        raise KallistiError(Finding("save-version", f"save version {data.get('version')!r}; this kallisti reads version {VERSION}", where))
    try:
        raw = data["ruleset"]["resolved"]
        recorded = data["ruleset"]["sha256"]
        seed = data["seed"]
        seats = [Seat(str(s["name"]), None if s.get("strategy") is None else str(s["strategy"])) for s in data["seats"]]
        events = data["events"]
    except (KeyError, TypeError, AttributeError):
        raise KallistiError(Finding("save-shape", "the save lacks its ruleset, seed, seats or events", where)) from None
    if not isinstance(raw, dict) or not isinstance(events, list) or not isinstance(seed, int) or isinstance(seed, bool):
        raise KallistiError(Finding("save-shape", "the save's ruleset must be a map, its seed a number and its events a list", where))
    match = Match(saved_ruleset(raw, recorded, source), seats, seed)
    for i, ev in enumerate(events):
        try:
            if not isinstance(ev, dict):
                raise MatchError(f"event {ev!r} is not a map")
            match.apply_event(ev)
        except (MatchError, MoveRefused, KeyError, ValueError) as exc:
            raise KallistiError(Finding("save-event", f"event {i} cannot be replayed: {exc}", where)) from None
        except KallistiError as exc:
            raise KallistiError(Finding("save-event", f"event {i} cannot be replayed: {exc.findings[0].message}", where)) from None
    return match
