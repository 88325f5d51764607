"""The `kallisti` command: registers one sub-command per module."""

from __future__ import annotations

import typer

from kallisti.cli.helpstyle import HelpGroup

# Each command's function, by the name typed: its module is imported when the command is used (or its help shown),
# so that `kallisti list` does not pay for `simulate`'s imports. Listed in the order `--help` shows them.
COMMANDS = {
    "list": "kallisti.cli.games:list_games",
    "show": "kallisti.cli.show:show",
    "play": "kallisti.cli.play:play",
    "validate": "kallisti.cli.validate:validate",
    "simulate": "kallisti.cli.simulate:simulate",
    "convert": "kallisti.cli.convert:convert",
    "fmt": "kallisti.cli.fmt:fmt",
    "schema": "kallisti.cli.schema:schema",
    "hand": "kallisti.cli.hand:hand",
    "new": "kallisti.cli.new:new",
    "check": "kallisti.cli.check:check",
    "solve": "kallisti.cli.solve:solve",
    "report": "kallisti.cli.winnability:report",
    "serve": "kallisti.cli.serve:serve",
    "stats": "kallisti.cli.stats:stats",
}


class KallistiGroup(HelpGroup):
    """The `kallisti` group: its commands are those of COMMANDS."""

    lazy_commands = COMMANDS


app = typer.Typer(
    name="kallisti",
    help="kallisti: card games written as rules. Play, show, validate, simulate, convert and format rulesets; score hands.",
    epilog="`kallisti COMMAND --help` shows a command's options and examples.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=KallistiGroup,  # commands imported when used; their help names values (N, FILE), and ends with examples
    rich_markup_mode="markdown",  # help paragraphs are reflowed to the terminal's width, lists and `commands` kept
)


def _print_version(value: bool) -> None:
    if value:
        from kallisti import __version__  # the package's own small __init__: nothing heavy

        typer.echo(f"kallisti {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: bool = typer.Option(False, "--version", callback=_print_version, is_eager=True,
                                 help="Print kallisti's version and exit."),
) -> None:
    pass


def main() -> None:
    app()
