"""`kallisti list`: the shipped games, one line each."""

from __future__ import annotations

import re
from pathlib import Path

import typer

HEADING_KEYS = ("game", "extends")
_STR_TAG = "tag:yaml.org,2002:str"
# The .rules lines `game: TITLE` and `extends NAME` in their plainest form (no quotes, no comment: `#` and `"` send
# the file to the full reader), as rules.lark reads them: the title is the rest of the line, trimmed.
_RULES_LINE = re.compile(r'game[ \t]*:[ \t]*(?P<game>[^"#\s][^"#]*)|extends[ \t]+(?P<extends>[A-Za-z0-9_./-]+)[ \t]*')


def list_games() -> None:
    """List the shipped games: the name to pass to `play`, the title, and the game it extends."""
    from kallisti.shipped import shipped_games

    games = shipped_games()
    width = max([20, *map(len, games)])  # the titles in one column, however long a name
    recorded = _recorded_headings()
    fresh = {}
    for name, path in games.items():
        text = _read(path)
        key = _heading_key(path, text)
        data = recorded.get(key)
        if not _is_heading(data):
            data = _quick_heading(path, text)
            if data is not None:
                fresh[key] = data
            else:  # the loader's reading, never recorded: its findings stop the listing every time
                data = _loaders_heading(path, text)
        parent = f"  (extends {data['extends']})" if "extends" in data else ""
        typer.echo(f"{name:<{width}} {data.get('game', name)}{parent}")
    if fresh:
        _record_headings(recorded, fresh)


def heading(path: Path, text: str | None = None) -> dict:
    """The `game` and `extends` of a ruleset file, those it has, as the loader reads them (model/loader.py,
    parse_file), but without building the file's data or any parser: a `.rules` file is read line by line, a YAML
    file by libyaml's events. A file these cannot settle at once (a quoted title, a value that is not a plain string,
    a key given twice, no libyaml) is read by the loader, whose findings then stop the listing as before."""
    if text is None:
        text = _read(path)
    found = _quick_heading(path, text)
    return found if found is not None else _loaders_heading(path, text)


def _loaders_heading(path: Path, text: str) -> dict:
    from kallisti.model.loader import parse_file

    data, _ = parse_file(path, text)
    return {key: data[key] for key in HEADING_KEYS if key in data}


def _read(path: Path) -> str:
    from kallisti.textfiles import MAX_FILE_BYTES, read_text

    return read_text(path, MAX_FILE_BYTES, "the ruleset file", "file")


def _quick_heading(path: Path, text: str) -> dict | None:
    return _rules_heading(text) if path.suffix == ".rules" else _yaml_heading(text)


# -- the headings read before, by the hash of their file's text ----------------------------------------------------
# Reading a YAML heading imports PyYAML, which costs more than the rest of `list`; a heading the quick readers found is
# kept in the user's cache folder (kallisti/user_cache.py: read and written under its rules), keyed by the file's
# text, its kind, kallisti's version and this file's own size and time (an edited reader reads afresh). A missing,
# untrusted or broken record, or an entry that is not a heading, is passed over and the file read.
HEADINGS_FILE = "headings.json"
HEADINGS_FORMAT = 1
MAX_HEADINGS = 512  # headings kept, the newest: a file that drops out is read once more and kept again


def _heading_key(path: Path, text: str) -> str:
    import hashlib
    import os

    from kallisti import __version__

    reader = os.stat(__file__)
    what = f"{HEADINGS_FORMAT}|{__version__}|{reader.st_size}|{reader.st_mtime_ns}|{path.suffix}|"
    return hashlib.sha256((what + text).encode("utf-8", "surrogatepass")).hexdigest()


def _is_heading(data) -> bool:
    return (isinstance(data, dict) and set(data) <= set(HEADING_KEYS)
            and all(isinstance(value, str) for value in data.values()))


def _recorded_headings() -> dict:
    """The headings recorded, by key; none when the cache is off or its record cannot be trusted or read."""
    import json

    from kallisti.user_cache import cache_folder, read_owned

    folder = cache_folder()
    raw = read_owned(folder / HEADINGS_FILE, 1_000_000) if folder is not None else None
    try:
        record = json.loads(raw) if raw is not None else None
    except ValueError:
        return {}
    if not isinstance(record, dict) or record.get("format") != HEADINGS_FORMAT or not isinstance(record.get("headings"), dict):
        return {}
    return record["headings"]


def _record_headings(recorded: dict, fresh: dict) -> None:
    """Add `fresh` to the record (the newest MAX_HEADINGS kept); a record that cannot be written is left as it is."""
    import json

    from kallisti.user_cache import cache_folder, write_owned

    folder = cache_folder()
    if folder is None:
        return
    kept = {k: v for k, v in recorded.items() if k not in fresh and _is_heading(v)} | fresh
    kept = dict(list(kept.items())[-MAX_HEADINGS:])
    try:
        write_owned(folder, HEADINGS_FILE, json.dumps({"format": HEADINGS_FORMAT, "headings": kept}))
    except OSError:
        pass


def _rules_heading(text: str) -> dict | None:
    """The heading of a .rules file from its unindented lines (every statement starts at the margin; lines under
    it are indented), or None when a line that may set one is not in the plainest form."""
    found: dict = {}
    for raw in text.split("\n"):
        line = raw.rstrip("\r")
        if not line or line[0] in " \t\f#":
            continue
        if not line.startswith(HEADING_KEYS):
            continue
        match = _RULES_LINE.fullmatch(line)
        if match is None:
            return None
        key = "game" if match["game"] is not None else "extends"
        if key in found:
            return None
        found[key] = match[key].strip()
    return found


def _yaml_heading(text: str) -> dict | None:
    """The heading of a YAML file from libyaml's events: the top map's `game` and `extends` when they are strings;
    None when libyaml is missing, the text is not one YAML map, it holds what the loader refuses before reading a
    value (an anchor, an alias, a tag), or either key is given twice or not a string."""
    import yaml

    if not getattr(yaml, "__with_libyaml__", False):
        return None
    loader = yaml.CSafeLoader(text)
    found: dict = {}
    depth, key, documents = 0, None, 0
    expect_key = True  # in the top map: the next node is a key (else the value of `key`)
    try:
        while loader.check_event():
            event = loader.get_event()
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) or getattr(event, "tag", None):
                return None
            if isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    return None
            elif isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                if depth == 0 and not isinstance(event, yaml.MappingStartEvent):
                    return None
                if depth == 1 and (expect_key or key in HEADING_KEYS):
                    return None
                depth += 1
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
                expect_key = True
            elif depth == 1 and isinstance(event, yaml.ScalarEvent):
                tag = loader.resolve(yaml.ScalarNode, event.value, event.implicit)
                if expect_key:
                    key = event.value if tag == _STR_TAG else None
                    if key in found:
                        return None
                elif key in HEADING_KEYS:
                    if tag != _STR_TAG:
                        return None
                    found[key] = event.value
                expect_key = not expect_key
    except yaml.YAMLError:
        return None
    finally:
        loader.dispose()
    return found if documents == 1 else None
