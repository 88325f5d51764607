"""Catalogues of rule changes a Player X may impose, shipped as package data: loaded, checked and shown."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import jsonschema

from kallisti.errors import Finding, KallistiError, Pos, did_you_mean
from kallisti.model.loader import schema_message, schema_suggestion
from kallisti.schema import ID_PATTERN

CATALOGUES = Path(__file__).resolve().parent
TONES = ("gentle", "mischievous", "nasty")  # the author's label, gentlest first
MAX_CATALOGUE_BYTES = 200_000

_TEXT = {"type": "string", "minLength": 1}
ENTRY_SCHEMA = {
    "type": "object",
    "properties": {
        "id": {"type": "string", "pattern": ID_PATTERN, "description": "kebab-case name of the entry"},
        "title": {**_TEXT, "maxLength": 200, "description": "the rule as Player X says it"},
        "change": {**_TEXT, "maxLength": 2000, "description": "one statement of the rule-change language"},
        "tone": {"enum": list(TONES), "description": "how nasty the author thinks the change is"},
        "note": {**_TEXT, "maxLength": 1000, "description": "how the change bites"},
    },
    "required": ["id", "title", "change", "tone", "note"],
    "additionalProperties": False,
}
CATALOGUE_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {
        "game": {"type": "string", "description": "the shipped ruleset the changes apply to"},
        "changes": {"type": "array", "minItems": 1, "items": ENTRY_SCHEMA},
    },
    "required": ["game", "changes"],
    "additionalProperties": False,
}


@dataclass(frozen=True)
class CatalogueEntry:
    """One rule change of a catalogue: what Player X says, the change statement, its tone and how it bites."""

    id: str
    title: str
    change: str
    tone: str
    note: str


def catalogue_games() -> list[str]:
    """The games that have a shipped catalogue, by ruleset name."""
    return sorted(p.stem for p in CATALOGUES.glob("*.yaml"))


@functools.lru_cache(maxsize=8)
def load_catalogue(game: str) -> tuple[CatalogueEntry, ...]:
    """The shipped catalogue of rule changes for `game`, in the file's order (KallistiError when it is missing or malformed)."""
    from kallisti.textfiles import read_text

    games = catalogue_games()
    if game not in games:
        raise KallistiError(Finding("unknown-catalogue", f"no catalogue of rule changes for '{game}'", Pos(game),
                                    suggestion=did_you_mean(game, games) or f"catalogues exist for: {', '.join(games)}"))
    path = CATALOGUES / f"{game}.yaml"
    return read_catalogue(read_text(path, MAX_CATALOGUE_BYTES, "the catalogue", "catalogue"), str(path), game)


def read_catalogue(text: str, source: str, game: str) -> tuple[CatalogueEntry, ...]:
    """The entries of catalogue text for `game`, after the schema and the uniqueness of ids; every problem at once."""
    from kallisti.located import load_yaml, position_at

    data = load_yaml(text, source)
    start = Pos(source, 1, 1)
    validator = jsonschema.Draft202012Validator(CATALOGUE_SCHEMA)
    findings = []
    for err in sorted(validator.iter_errors(data), key=lambda e: list(map(str, e.absolute_path))):
        path = list(err.absolute_path)
        where = ".".join(map(str, path)) or "the catalogue"
        findings.append(Finding("catalogue-schema", f"{where}: {schema_message(err)}", position_at(data, path, start) or start,
                                suggestion=_schema_suggestion(err)))
    if findings:
        raise KallistiError(findings)
    if data["game"] != game:
        findings.append(Finding("catalogue-game", f"this catalogue is for '{data['game']}', not '{game}'",
                                position_at(data, ["game"], start) or start))
    seen: dict[str, int] = {}
    for i, item in enumerate(data["changes"]):
        if item["id"] in seen:
            findings.append(Finding("catalogue-duplicate-id", f"changes.{i}: the id '{item['id']}' is already used by "
                                    f"changes.{seen[item['id']]}", position_at(data, ["changes", i, "id"], start) or start))
        seen.setdefault(item["id"], i)
    if findings:
        raise KallistiError(findings)
    return tuple(CatalogueEntry(**{key: str(item[key]) for key in ENTRY_SCHEMA["required"]}) for item in data["changes"])


def _schema_suggestion(err) -> str | None:
    if err.validator == "pattern":
        return "an id is lower-case letters, digits and hyphens: black-on-black"
    return schema_suggestion(err)


def _cell(text: str) -> str:
    """Text for a Markdown table cell: on one line, its pipes escaped."""
    return " ".join(text.split()).replace("|", "\\|")


def catalogue_markdown(game: str) -> str:
    """The catalogue of `game` as a Markdown page: how to impose a change, then one table row per entry."""
    from kallisti.model.ruleset import load_ruleset

    name = load_ruleset(game).name
    entries = load_catalogue(game)
    lines = [
        f"# Rule changes for {name}",
        "",
        "After each turn the other player, Player X, may change one rule for the player who has just played,",
        "or revoke a change that player imposed on hir. In `kallisti play`, Player X types `rule` followed by",
        "the change, written in the rule-change language (`docs/rules-syntax.md`), `revoke ID` to take back a",
        "change, or `pass`. For example:",
        "",
        "```",
        f"rule {entries[0].change}",
        "```",
        "",
        "A change is adopted only when it parses, passes the checks and can still be played to an end;",
        "otherwise it is refused with the reason, and nothing changes. Honour rules, which the cards cannot",
        "enforce, are shown at their moment of play and acknowledged by the player.",
        "",
        f"The {len(entries)} changes below are the catalogue the bot chooses from, gentlest first. The tone is",
        "the author's label; the bot measures how nasty a change is by playing it. This page is generated",
        f"from `src/kallisti/catalogue/{game}.yaml` by `kallisti.catalogue.catalogue_markdown(\"{game}\")`.",
        "",
        "| Player X says | Change | Tone | How it bites |",
        "| --- | --- | --- | --- |",
    ]
    for e in entries:
        lines.append(f"| {_cell(e.title)} | `{_cell(e.change)}` | {e.tone} | {_cell(e.note)} |")
    return "\n".join(lines) + "\n"
