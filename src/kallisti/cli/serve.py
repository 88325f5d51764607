"""`kallisti serve [GAME|FILE] [--port P]`: play in the browser, through the JSON API of docs/web.md."""

from __future__ import annotations

import typer

from kallisti.errors import KallistiError

SERVED, BAD_INPUT, USAGE = 0, 1, 2
NEEDS_EXTRA = "kallisti serve needs the web extra: pip install 'kallisti[web]'"


def serve(
    game: str | None = typer.Argument(None, metavar="GAME|FILE", help="A shipped game or a ruleset file to open first "
                                      "(it is listed with the shipped games)."),
    port: int = typer.Option(8000, "--port", metavar="PORT", min=0, max=65535, help="The port on 127.0.0.1; 0 picks a free one."),
) -> None:
    """Play in the browser: start a local web server on 127.0.0.1 and print its address.

    The page lists the games and opens one; it talks to the server through a JSON API over the same
    engine as `kallisti play` (docs/web.md). Ctrl-C stops the server.

    Exit codes:

    * 0 stopped with Ctrl-C
    * 1 a bad ruleset file (each problem printed as file:line:column), or the port is in use
    * 2 usage error, or the web extra is not installed (`pip install 'kallisti[web]'`)
    """
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        typer.echo(NEEDS_EXTRA, err=True)
        raise typer.Exit(USAGE)
    from kallisti.web.api import create_app
    from kallisti.web.server import serve as run

    extra = None
    if game is not None:
        from kallisti.model.ruleset import load_ruleset

        try:
            rules = load_ruleset(game)
        except KallistiError as exc:
            for finding in exc.findings:
                typer.echo(str(finding), err=True)
            raise typer.Exit(BAD_INPUT)
        for finding in rules.findings:
            typer.echo(str(finding), err=True)
        extra = (game, rules)
    app = create_app(extra)
    try:
        run(app, port, game, typer.echo)
    except OSError as exc:
        typer.echo(f"cannot serve on 127.0.0.1:{port}: {exc.strerror or exc} (--port 0 picks a free port)", err=True)
        raise typer.Exit(BAD_INPUT)
    except KeyboardInterrupt:
        pass
    raise typer.Exit(SERVED)
