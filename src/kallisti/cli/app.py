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


# Each command's line in `kallisti --help`: the first paragraph of its own help, kept here so that the top help
# imports no command (tests/test_startup.py checks that the help reads the same with every command imported).
SUMMARIES = {
    "list": "List the shipped games: the name to pass to play, the title, and the game it extends.",
    "show": "Print a game's rules, generated from the ruleset itself: deck, layout, the deal, foundations, play, how to "
            "win.",
    "play": "Play a game in text mode: one command a line, from the keyboard or a piped script.",
    "validate": "Check ruleset files and report every finding as file:line:column. Exit 0 when all are valid, 1 when "
                "not, 2 on a usage error.",
    "simulate": "Play many deals with a strategy and report how many were won, with a 95% confidence interval.",
    "convert": "Write a ruleset in the other syntax (YAML or .rules), keeping its comments and its extends.",
    "fmt": "Rewrite ruleset files in the canonical layout of their syntax, keeping comments.",
    "schema": "Print the JSON Schema for ruleset files (YAML), for editors and validators.",
    "hand": "Print the best partition of each hand into the game's groupings, and its ranking.",
    "new": "Write a variant of GAME, ready to edit: extends GAME, a new name, and the parent's keys as comments.",
    "check": "Play-test rulesets: validate each, then play seeded deals with the random and greedy strategies.",
    "solve": "Search one deal with every card known (face-down cards and the stock included) for a win.",
    "report": "Solve deals 1..N of every shipped patience with every card known, and write the table of win rates.",
    "serve": "Play in the browser: start a local web server on 127.0.0.1 and print its address.",
    "stats": "Print the statistics of the games played, e.g. kallisti stats forty-thieves --format json.",
}


class KallistiGroup(HelpGroup):
    """The `kallisti` group: its commands are those of COMMANDS, listed in its help by SUMMARIES."""

    lazy_commands = COMMANDS
    lazy_summaries = SUMMARIES


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
