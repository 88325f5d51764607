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
    for name, path in games.items():
        data = heading(path)
        parent = f"  (extends {data['extends']})" if "extends" in data else ""
        typer.echo(f"{name:<{width}} {data.get('game', name)}{parent}")


def heading(path: Path) -> dict:
    """The `game` and `extends` of a ruleset file, those it has, as the loader reads them (model/loader.py,
    parse_file), but without building the file's data or any parser: a `.rules` file is read line by line, a YAML
    file by libyaml's events. A file these cannot settle at once (a quoted title, a value that is not a plain string,
    a key given twice, no libyaml) is read by the loader, whose findings then stop the listing as before."""
    from kallisti.located import MAX_FILE_BYTES
    from kallisti.textfiles import read_text

    text = read_text(path, MAX_FILE_BYTES, "the ruleset file", "file")
    found = _rules_heading(text) if path.suffix == ".rules" else _yaml_heading(text)
    if found is not None:
        return found
    from kallisti.model.loader import parse_file

    data, _ = parse_file(path, text)
    return {key: data[key] for key in HEADING_KEYS if key in data}


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
