"""How `--help` reads: typer's rich help in Markdown, values named (N, FILE) and never typed, and examples at the end."""

from __future__ import annotations

from typer.core import TyperGroup

from kallisti.cli.examples import EXAMPLES


class HelpGroup(TyperGroup):
    """The `kallisti` command group: each command it hands out has its help tidied for reading (see `tidy`)."""

    def get_command(self, ctx, cmd_name: str):
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            tidy(command, ctx, cmd_name)
        return command

    def format_help(self, ctx, formatter) -> None:
        tidy(self, ctx, None)
        super().format_help(ctx, formatter)


def tidy(command, ctx, name: str | None) -> None:
    """Make a command's help say what a value is called, never its Python type, and end with its examples.

    An option names its value by its metavar (`--seed N`); a flag takes no value, so it shows none (typer would show
    `<bool>`); an argument is named by its metavar already, so its type (`<str>`) is not shown beside it. The range an
    option's `min=`/`max=` checks is still shown and checked. Done once a command; the examples come from
    `examples.EXAMPLES`.
    """
    if getattr(command, "_kallisti_tidy", False):
        return
    command._kallisti_tidy = True
    params = list(command.get_params(ctx))
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""  # shown as no type at all
        elif param.param_type_name == "argument":
            param.display_type_rich = _no_type
    if name is not None and name in EXAMPLES and not command.epilog:
        command.epilog = examples_text(name)


def _no_type(ctx=None) -> None:
    return None


def examples_text(name: str) -> str:
    """The `Examples:` section of a command's help, in Markdown: one item per example, the command then what it does."""
    items = "\n".join(f"* `{line}`: {what}" for line, what in EXAMPLES[name])
    return f"**Examples:**\n\n{items}"
