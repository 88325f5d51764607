"""The rulesets shipped with kallisti: their folder, and each file by its game's name."""

from __future__ import annotations

from pathlib import Path

RULESETS = Path(__file__).resolve().parent / "rulesets"


def shipped_games() -> dict[str, Path]:
    """The shipped rulesets, by name (the file name without its extension)."""
    return {p.stem: p for p in sorted(list(RULESETS.glob("*.yaml")) + list(RULESETS.glob("*.rules")))}
