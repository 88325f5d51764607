"""`kallisti list`: the shipped games, one line each."""

from __future__ import annotations

import typer

from kallisti.model.loader import parse_file, shipped_games


def list_games() -> None:
    """List the shipped games: the name to pass to `play`, the title, and the game it extends."""
    for name, path in shipped_games().items():
        data, _ = parse_file(path)
        parent = f"  (extends {data['extends']})" if "extends" in data else ""
        typer.echo(f"{name:<20} {data.get('game', name)}{parent}")
