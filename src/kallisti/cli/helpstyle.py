"""How the commands are found and how `--help` reads: each command's module imported when it is used, typer's rich
help in Markdown, values named (N, FILE) and never typed, and examples at the end."""

from __future__ import annotations

from importlib import import_module

from typer.core import TyperGroup
from typer.main import get_command_from_info
from typer.models import CommandInfo

from kallisti.cli.examples import EXAMPLES


class HelpGroup(TyperGroup):
    """A command group whose commands are made when first asked for, from `lazy_commands` (name: "module:function"),
    each with its help tidied for reading (see `tidy`)."""

    lazy_commands: dict[str, str] = {}

    def list_commands(self, ctx) -> list[str]:
        return [*self.lazy_commands, *(name for name in super().list_commands(ctx) if name not in self.lazy_commands)]

    def get_command(self, ctx, cmd_name: str):
        command = super().get_command(ctx, cmd_name)
        if command is None and cmd_name in self.lazy_commands:
            module, function = self.lazy_commands[cmd_name].split(":")
            info = CommandInfo(name=cmd_name, callback=getattr(import_module(module), function))
            command = get_command_from_info(info, pretty_exceptions_short=True, rich_markup_mode=self.rich_markup_mode)
            self.add_command(command, cmd_name)
        if command is not None:
            tidy(command, ctx, cmd_name)
        return command

    def get_help_option(self, ctx):
        return settled(super().get_help_option(ctx))

    def format_help(self, ctx, formatter) -> None:
        tidy(self, ctx, None)
        super().format_help(ctx, formatter)


def settled(help_option):
    """The `--help` flag, its value when not given False rather than None: typer converts a flag's value through
    pydantic unless it is already a bool, and building that converter costs more than everything else `kallisti list`
    does, so a command with no option of its own (and the group) never imports pydantic."""
    if help_option is not None and help_option.default is None:
        help_option.default = False
    return help_option


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
    settled(command.get_help_option(ctx))
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
