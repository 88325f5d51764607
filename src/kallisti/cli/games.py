"""`kallisti list`: the shipped games, one line each."""

from __future__ import annotations

import typer

from kallisti.model.loader import parse_file, shipped_games


def list_games() -> None:
    """List the shipped games: the name to pass to `play`, the title, and the game it extends."""
    games = shipped_games()
    width = max([20, *map(len, games)])  # the titles in one column, however long a name
    for name, path in games.items():
        data, _ = parse_file(path)
        parent = f"  (extends {data['extends']})" if "extends" in data else ""
        typer.echo(f"{name:<{width}} {data.get('game', name)}{parent}")
