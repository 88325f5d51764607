"""`kallisti show`: a ruleset's rules as a rule book (text, Markdown or HTML), generated from the compiled model so it
cannot drift; `--all --output DIR` writes every shipped game's book and an index of them."""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path

import typer

from kallisti.errors import KallistiError


class Format(str, Enum):
    text = "text"
    md = "md"
    html = "html"
    json = "json"


def show(
    game: str = typer.Argument(None, metavar="GAME|FILE", show_default=False,
                               help="A shipped game's name (see `kallisti list`) or a ruleset file."),
    format: Format = typer.Option(Format.text, "--format",
                                  help="text: the rules for a player; md: a Markdown rule book; html: a standalone HTML "
                                       "page; json: the resolved ruleset as plain data."),
    all_games: bool = typer.Option(False, "--all", help="Every shipped game; needs --output DIR."),
    output: Path = typer.Option(None, "--output", "-o", metavar="FILE|DIR",
                                help="Write to this file (atomically) instead of standard output; with --all, the "
                                     "folder for one file per game (GAME.txt|md|html|json) and an index."),
) -> None:
    """Print a game's rules, generated from the ruleset itself: deck, layout, the deal, foundations, play, how to win.

    Every rule clause is listed with its id, the name a rule change uses to point at it.
    Exit codes: 0 shown, 1 the game or file is not a valid ruleset, 2 usage error.
    """
    from kallisti.interpreter.save import write_atomic
    from kallisti.model.loader import shipped_games
    from kallisti.rulebook.build import first_sentence
    from kallisti.rulebook.render import EXTENSIONS, render_index

    fmt = format.value
    if all_games:
        if game is not None:
            raise typer.BadParameter("give a game or --all, not both", param_hint="GAME|FILE")
        if output is None:
            raise typer.BadParameter("--all writes one file per game: name the folder with --output DIR", param_hint="--all")
        if output.exists() and not output.is_dir():
            raise typer.BadParameter(f"'{output}' is not a folder", param_hint="--output")
        output.mkdir(parents=True, exist_ok=True)
        ext = EXTENSIONS.get(fmt, fmt)
        entries, failed = [], False
        for name in shipped_games():
            rules = _load(name)
            if rules is None:
                failed = True
                continue
            write_atomic(output / f"{name}.{ext}", _render(rules, fmt))
            entries.append((f"{name}.{ext}", rules.name, first_sentence(rules.description)))
        if fmt == "json":
            index = json.dumps([{"file": f, "game": n, "summary": s} for f, n, s in entries], indent=2, ensure_ascii=False) + "\n"
        else:
            index = render_index(entries, fmt)
        write_atomic(output / f"index.{ext}", index)
        typer.echo(f"wrote {len(entries)} rule books and index.{ext} to {output}", err=True)
        raise typer.Exit(1 if failed else 0)
    if game is None:
        raise typer.BadParameter("name a game or a ruleset file, or give --all", param_hint="GAME|FILE")
    rules = _load(game)
    if rules is None:
        raise typer.Exit(1)
    text = _render(rules, fmt)
    if output is None:
        typer.echo(text, nl=not text.endswith("\n"))
        return
    if output.is_dir():
        raise typer.BadParameter(f"'{output}' is a folder; name the file to write", param_hint="--output")
    if not output.resolve().parent.is_dir():
        raise typer.BadParameter(f"no folder {output.resolve().parent} to write '{output}' in", param_hint="--output")
    write_atomic(output, text if text.endswith("\n") else text + "\n")
    typer.echo(f"wrote {output}", err=True)


def _load(game: str):
    """The loaded ruleset, its findings printed; None (the findings printed) when it does not load."""
    from kallisti.model.ruleset import load_ruleset

    try:
        rules = load_ruleset(game)
    except KallistiError as exc:
        for finding in exc.findings:
            typer.echo(str(finding), err=True)
        return None
    for finding in rules.findings:
        typer.echo(str(finding), err=True)
    return rules


def _render(rules, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(rules.plain(), indent=2, ensure_ascii=False)
    from kallisti.rulebook.build import build_book
    from kallisti.rulebook.render import RENDERERS

    return RENDERERS[fmt](build_book(rules))


def rules_text(rules) -> str:
    """The whole ruleset as plain text: the rule book rendered for a terminal."""
    from kallisti.rulebook.build import build_book
    from kallisti.rulebook.render import render_text

    return render_text(build_book(rules))
