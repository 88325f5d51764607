"""The `kallisti` command: registers one sub-command per module."""

from __future__ import annotations

import typer

from kallisti.cli.helpstyle import HelpGroup

app = typer.Typer(
    name="kallisti",
    help="kallisti: card games written as rules. Play, show, validate, simulate, convert and format rulesets; score hands.",
    epilog="`kallisti COMMAND --help` shows a command's options and examples.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=HelpGroup,  # each command's help names values (N, FILE) rather than typing them, and ends with examples
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


def _register() -> None:
    from kallisti.cli import convert, fmt, games, hand, play, show, simulate, validate

    app.command("list")(games.list_games)
    app.command("show")(show.show)
    app.command("play")(play.play)
    app.command("validate")(validate.validate)
    app.command("simulate")(simulate.simulate)
    app.command("convert")(convert.convert)
    app.command("fmt")(fmt.fmt)
    from kallisti.cli import schema as schema_cli
    app.command("schema")(schema_cli.schema)
    app.command("hand")(hand.hand)
    from kallisti.cli import new as new_cli
    app.command("new")(new_cli.new)
    from kallisti.cli import check as check_cli
    app.command("check")(check_cli.check)
    from kallisti.cli import solve as solve_cli
    app.command("solve")(solve_cli.solve)
    from kallisti.cli import winnability as winnability_cli
    app.command("report")(winnability_cli.report)
    from kallisti.cli import serve as serve_cli
    app.command("serve")(serve_cli.serve)
    from kallisti.cli import stats as stats_cli
    app.command("stats")(stats_cli.stats)


_register()


def main() -> None:
    app()
