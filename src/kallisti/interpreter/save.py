"""Saves: a versioned JSON file holding the resolved ruleset, the deal and the event log; checksummed, written
atomically, the save it replaces kept beside it, older versions read through migrations (docs/saves.md)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from kallisti.durable import write_atomic  # the commands that write files import it from here too
from kallisti.errors import Finding, KallistiError, Pos
from kallisti.interpreter.game import LayoutChanged
from kallisti.interpreter.save_log import refuse_another_change, refuse_too_many_events
from kallisti.located import located
from kallisti.textfiles import line_column
from kallisti.unsafe import char_name, unsafe_char, visible

FORMAT = "kallisti-save"
MATCH_FORMAT = "kallisti-match"
VERSION = 2
CHECKSUM_SINCE = 2  # the first version whose files carry a checksum
MAX_SAVE_BYTES = 20_000_000
BACKUP_SUFFIX = ".bak"
# Findings of a file that is not as kallisti wrote it.
DAMAGED = frozenset({"save-syntax", "save-checksum", "save-control-char"})


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
            "sources": [{"name": visible(Path(s.name).name), "sha256": s.sha256} for s in rules.sources],
        },
        "deal": {"seed": game.seed, "order": list(game.order), "cards": " ".join(game.deck.ascii_name(c) for c in game.order)},
        "events": list(game.events),
    }
    if next_deal:
        data["next_deal"] = [dict(ev) for ev in next_deal]
    return data


def save_game(game, path: Path, next_deal: Sequence[dict] = ()) -> Path | None:
    """Save `game` to `path` (docs/saves.md); the backup kept of the save it replaced, or None."""
    return write_save(Path(path), game_to_data(game, next_deal))


def load_game(path: Path, *, with_next_deal: bool = False):
    """Rebuild a saved game: its ruleset, its deal, then every event replayed in order.

    With `with_next_deal`, (game, the changes waiting for its next deal), each checked against its rules.
    """
    path = Path(path)
    with _loading(path):
        data = read_save(path)
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
    data = current_version(data, source)
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
    refuse_too_many_events(data, where)
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
    from kallisti.model.loader import refuse_unsafe_strings, schema_findings
    from kallisti.model.ruleset import Ruleset

    where = Pos(source)
    if recorded_hash != ruleset_hash(raw):
        raise KallistiError(Finding("save-tampered", "the saved ruleset does not match its recorded hash", where))
    resolved = located(raw, Pos(f"{source}:ruleset"))
    refuse_unsafe_strings(resolved)  # as in a ruleset file: its names and texts are printed as they are
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
            if kind in ("move", "auto"):
                then = ev.get("then", [])
                if not isinstance(then, list):
                    raise MoveRefused("its `then` is not a list of moves")
                for text in then:  # moves autoplay added to the step (Game.extend_step), undone with it
                    game.extend_step(parse_move(game, str(text)))
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
        except (MoveRefused, KeyError, LayoutChanged, ValueError) as exc:  # ValueError: `then` after no step
            raise KallistiError(Finding("save-event", f"event {i} cannot be replayed: {exc}", Pos(source))) from None
        except KallistiError as exc:
            raise KallistiError(Finding("save-event", f"event {i} cannot be replayed: {exc.findings[0].message}", Pos(source))) from None


def adopt_change(game, text: str, source: str = "<change>"):
    """Check a rule change typed during play (`rule ...`) and play on under it; KallistiError or LayoutChanged if not.
    A game whose log holds MAX_SAVE_CHANGES rule changes takes no more (`change-too-many`), whatever plays it."""
    from kallisti.interpreter import amend

    refuse_another_change(game.events, 0, Pos(source, 1, 1))
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
    """Play on under a whole new ruleset (a file reloaded by `play --watch`), unless the game's log holds
    MAX_SAVE_CHANGES rule changes already (`change-too-many`)."""
    from kallisti.located import plain

    refuse_another_change(game.events, 0, Pos(file or "<rules>", 1, 1))
    game.change_rules(rules, {"type": "rules", "file": visible(file), "resolved": plain(rules.data)})


def compile_resolved(raw, source: str):
    """A ruleset from resolved data stored in a save (schema-checked first)."""
    from kallisti.interpreter import amend
    from kallisti.model.loader import refuse_unsafe_strings

    if not isinstance(raw, dict):
        raise KallistiError(Finding("save-shape", "a stored ruleset must be a map", Pos(source)))
    data = located(raw, Pos(f"{source}:ruleset"))
    refuse_unsafe_strings(data)
    return amend.compile_data(data, Pos(source))


# -- matches ----------------------------------------------------------------------------------------
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
                    "sources": [{"name": visible(Path(s.name).name), "sha256": s.sha256} for s in match.base.sources]},
        "seed": match.seed,
        "seats": [{"name": s.name, "strategy": s.strategy} for s in match.seats],
        "events": list(match.events),
    }


def save_match(match, path: Path) -> Path | None:
    """Save `match` to `path` (docs/saves.md); the backup kept of the save it replaced, or None."""
    return write_save(Path(path), match_to_data(match))


def load_saved(path: Path):
    """A saved game or match, whichever the file holds."""
    path = Path(path)
    with _loading(path):
        data = read_save(path)
        if data["format"] == MATCH_FORMAT:
            return match_from_data(data, str(path))
        return game_from_data(data, str(path))


def match_from_data(data: dict, source: str = "<save>"):
    """Rebuild a saved match by replaying its log from the seed (bots' actions are in the log like anyone's)."""
    from kallisti.interpreter.match import Match, MatchError, Seat
    from kallisti.interpreter.notation import MoveRefused

    where = Pos(source)
    data = current_version(data, source)
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
    refuse_too_many_events(data, where)
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


# -- the file: checksum, versions, migrations, backup -----------------------------------------------
def write_save(path: Path, data: dict) -> Path | None:
    """Write a save's data to `path` atomically, after keeping the save it replaces; that backup, or None.

    KallistiError, and nothing written, when `path` is a file that is not a kallisti save (`save notes.txt` typed by
    mistake must not destroy the notes) or when the data holds more events than a save may."""
    where = Pos(str(path))
    refuse_replacing(path)
    refuse_too_many_events(data, where)
    kept = keep_previous(path)
    write_atomic(path, save_text(data))
    return kept


# The start of every save kallisti writes (save_text puts the format first), whole or not: a save damaged further
# on, or cut short, may still be saved over (its backup, the last whole save, is kept).
SAVE_HEAD = re.compile(rb'\s*\{\s*"format"\s*:\s*"(?:kallisti-save|kallisti-match)"')


def refuse_replacing(path: Path) -> None:
    """Refuse to save over anything at `path` but a kallisti save (whole or damaged) or an empty file."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return  # nothing there, or nothing that can be there: writing says why not, if it cannot
    if stat.S_ISREG(info.st_mode) and (info.st_size == 0 or _begins_like_a_save(path) or whole_save_text(path)):
        return
    what = "a folder" if stat.S_ISDIR(info.st_mode) else "a file that is not a kallisti save"
    raise KallistiError(Finding("save-overwrite", f"not saved: {path} is {what}, which saving would replace",
                                Pos(str(path)), suggestion="save to another name, or move that file away first"))


def _begins_like_a_save(path: Path) -> bool:
    try:
        with open(path, "rb") as fh:
            return SAVE_HEAD.match(fh.read(200)) is not None
    except OSError:
        return False


def save_text(data: dict) -> str:
    """The text of a save file: `data` with its checksum, which comes after its format and version."""
    content = {k: v for k, v in data.items() if k != "checksum"}
    head = {"format": content["format"], "version": content["version"], "checksum": content_checksum(content)}
    return json.dumps({**head, **content}, indent=1, ensure_ascii=False) + "\n"


def content_checksum(data: dict) -> str:
    """`sha256:HEX` of the canonical JSON (keys sorted, no spaces, UTF-8) of everything in `data` but its checksum.

    Over the content, not the bytes: re-indenting a save keeps it whole, changing a value does not.
    """
    content = {k: v for k, v in data.items() if k != "checksum"}
    canonical = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    # surrogatepass: hashing never fails, whatever the data hold (a file holding a lone surrogate is refused before its
    # checksum is looked at)
    return "sha256:" + hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def read_save(path: Path) -> dict:
    """The data of the save file at `path`, found whole (its checksum right) and brought to the current version."""
    return migrated(_whole_data(_text_of(path), path))


def _whole_data(text: str, path: Path):
    """The data of a save's text, refused unless it is whole: JSON, only safe text, of a version this kallisti reads,
    its checksum right."""
    data = _parsed(text, path)
    _refuse_unsafe_text(text, Pos(str(path)))  # before the checksum, which a lone surrogate would make meaningless
    _check_whole(data, Pos(str(path)))
    return data


# A `\u` escape of a character UNSAFE_CHARS names, or of one close to it (each match is read for what it is). Written
# without IGNORECASE, so that a search looks for its `\u` first: a save of 20 MB is searched in a fraction of a second.
_ESCAPE = re.compile(r"\\u(00[01][0-9a-fA-F]|007[fF]|00[89][0-9a-fA-F]|202[a-eA-E]|206[6-9]|[dD][89a-fA-F][0-9a-fA-F]{2})")
_HIGH, _LOW = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}"), re.compile(r"\\u[dD][c-fC-F][0-9a-fA-F]{2}")


def _refuse_unsafe_text(text: str, where: Pos) -> None:
    """Refuse a save one of whose texts (a key or a value, raw or written as a `\\u` escape) holds a character no
    untrusted text may hold (kallisti.unsafe): a control character, a bidirectional control, or a lone surrogate,
    which is no character at all. kallisti writes none: every text of a save passed the same check before.

    JSON takes DEL, the C1 controls and the bidirectional controls raw in a string, and an escape occurs only in a
    string: neither search needs the JSON read again."""
    found = [(at, ch) for at, ch in (_first_raw(text), _first_escaped(text)) if ch is not None]
    if not found:
        return
    at, ch = min(found)
    what = (f"{char_name(ch)}, half of a surrogate pair without its other half: no character at all (invalid "
            "Unicode)") if "\ud800" <= ch <= "\udfff" else f"the control character {char_name(ch)}"
    line, column = line_column(text, at)
    raise KallistiError(Finding("save-control-char", f"a text of the save holds {what}: kallisti never writes one, so "
                                "the file was damaged or edited", Pos(where.source, line, column)))


def _first_raw(text: str) -> tuple[int, str | None]:
    at = unsafe_char(text)
    return (at, text[at]) if at is not None else (0, None)


def _first_escaped(text: str) -> tuple[int, str | None]:
    """Where the first escape of an unsafe character is, and the character; (0, None) when there is none."""
    for found in _ESCAPE.finditer(text):
        at = found.start()
        ch = chr(int(found.group(1), 16))
        if unsafe_char(ch) is None or not _is_escape(text, at):
            continue  # an escaped tab or line feed; a `u` after an escaped backslash
        if (_HIGH.match(text, at) and _LOW.match(text, found.end())) or (
                _LOW.match(text, at) and at >= 6 and _HIGH.match(text, at - 6) and _is_escape(text, at - 6)):
            continue  # a half of a surrogate pair with its other half: one character, written as two escapes
        return at, ch
    return 0, None


def _is_escape(text: str, at: int) -> bool:
    """Whether the backslash at `at` begins an escape: an even number of backslashes come before it."""
    start = at
    while start and text[start - 1] == "\\":
        start -= 1
    return (at - start) % 2 == 0


def _check_whole(data, where: Pos) -> None:
    """Refuse data that is no save of a version this kallisti reads, or whose checksum is wrong."""
    try:
        if recognised_version(data, where) >= CHECKSUM_SINCE:
            verify_checksum(data, where)
    except RecursionError:  # lists nested almost as deep as json.loads follows: hashing them goes deeper
        raise KallistiError(_never_written(where)) from None


def _text_of(path: Path) -> str:
    from kallisti.textfiles import read_text

    return read_text(path, MAX_SAVE_BYTES, "the save", "save")


def _parsed(text: str, path: Path):
    """The JSON value of a save's text; a save-syntax finding where the JSON stops being whole."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise KallistiError(Finding("save-syntax", f"the save is not whole JSON ({exc.msg}): it was cut short or "
                                    "damaged, or it is no save", Pos(str(path), exc.lineno, exc.colno))) from None
    except (ValueError, RecursionError):  # a number of 5,000 digits, lists nested 100,000 deep: nothing kallisti writes
        raise KallistiError(_never_written(Pos(str(path)))) from None


def _never_written(where: Pos) -> Finding:
    return Finding("save-syntax", "the save is JSON that kallisti never writes (a number too long or lists nested too "
                   "deep)", where)


def verify_checksum(data: dict, where: Pos) -> None:
    """Refuse a save whose content is not what its checksum says: a bit flipped on disk, a value edited."""
    recorded = data.get("checksum")
    if recorded is None:
        raise KallistiError(Finding("save-checksum", f"the save has no checksum, though every save of version "
                                    f"{data['version']} has one: it was damaged or edited", where))
    if recorded != content_checksum(data):
        raise KallistiError(Finding("save-checksum", "the save's content does not match its checksum: the file was "
                                    "damaged or edited after it was saved", where))


def recognised_version(data, where: Pos) -> int:
    """The version of a save of a known format, if this kallisti reads it (the current one or one it migrates)."""
    if not isinstance(data, dict) or data.get("format") not in (FORMAT, MATCH_FORMAT):
        raise KallistiError(Finding("save-format", "not a kallisti save (no `format: kallisti-save`)", where))
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise KallistiError(Finding("save-version", f"save version {version!r} is no version of the save format; "
                                    f"this kallisti reads versions 1 to {VERSION}", where))
    if version > VERSION:
        raise KallistiError(Finding("save-version", f"save version {version!r} was written by a newer kallisti; this "
                                    f"one reads versions 1 to {VERSION}", where, suggestion="upgrade kallisti to load it"))
    return version


def current_version(data: dict, source: str = "<save>") -> dict:
    """Save data of any version this kallisti reads, brought to the current one (a checksum is not checked here:
    it belongs to the file, see read_save)."""
    recognised_version(data, Pos(source))
    return migrated(data)


def migrated(data: dict) -> dict:
    """Save data of a recognised version, brought to VERSION one migration at a time."""
    while data["version"] < VERSION:
        data = MIGRATIONS[data["version"]](data)
    return data


def _version_1_to_2(data: dict) -> dict:
    """Version 2 adds the file's checksum, which is checked before migrating: the content is the same."""
    return {**{k: v for k, v in data.items() if k != "checksum"}, "version": 2}


# Each entry brings save data (a game's or a match's) of one version to the next; each has a test loading a file
# of its version written by the kallisti of that version (tests/saves/vN/, tests/test_save_migrations.py).
MIGRATIONS: dict[int, Callable[[dict], dict]] = {1: _version_1_to_2}


def backup_path(path: Path) -> Path:
    """Where the save replaced by the latest one is kept: NAME.bak beside NAME (a name added to, not replaced, so
    that even `.` or `/`, which no save has, give a path)."""
    return Path(f"{path}{BACKUP_SUFFIX}")


def keep_previous(path: Path) -> Path | None:
    """Copy the save at `path`, if it is whole, to its backup (atomically too); the backup, or None.

    A damaged file is never copied: the backup it would replace is the last whole save, and stays. So a player whose
    latest save proves damaged loses only what happened since the save before it.
    """
    text = whole_save_text(path)
    if text is None:
        return None
    backup = backup_path(path)
    write_atomic(backup, text)
    return backup


def whole_save_text(path: Path) -> str | None:
    """The text of the file at `path` if it is a save this kallisti reads whole; None if it is not, or not there."""
    try:
        text = _text_of(path)
        _whole_data(text, path)
    except KallistiError:
        return None
    return text


@contextmanager
def _loading(path: Path) -> Iterator[None]:
    """Loading the save at `path`: a save that cannot be loaded says what to do in its findings (load the backup,
    when a whole one is there), and one nested deeper than Python follows is a finding too, not a traceback."""
    try:
        try:
            yield
        except RecursionError:
            raise KallistiError(_never_written(Pos(str(path)))) from None
    except KallistiError as exc:
        advice = _backup_advice(path)
        raise KallistiError([_advised(f, advice) for f in exc.findings]) from None


def _backup_advice(path: Path) -> tuple[str, frozenset[str] | None]:
    """What a player whose save at `path` cannot be loaded can do, and the codes of the findings it answers (None:
    every finding)."""
    backup = backup_path(path)
    if whole_save_text(backup) is not None:
        return f"the save before it is kept whole in {backup}: load that file to go on from there", None
    return f"there is no whole backup {backup.name} to load instead: load another save of this game", DAMAGED


def _advised(finding: Finding, advice: tuple[str, frozenset[str] | None]) -> Finding:
    text, codes = advice
    if finding.suggestion or (codes is not None and finding.code not in codes):
        return finding
    return replace(finding, suggestion=text)
