"""`kallisti list`: the shipped games, one line each."""

from __future__ import annotations

import typer

from kallisti.model.loader import shipped_games


def list_games() -> None:
    """List the shipped games: name to pass to `play`, title, and the game it extends."""
    from kallisti.model.located import load_yaml

    for name, path in shipped_games().items():
        data = load_yaml(path.read_text(encoding="utf-8"), str(path))
        parent = f"  (extends {data['extends']})" if "extends" in data else ""
        typer.echo(f"{name:<16} {data.get('game', name)}{parent}")
