"""How the commands are found and how `--help` reads: each command's module imported when it is used (the top help
lists the commands by their summaries, importing none), typer's rich help in Markdown (the group's own drawn by
cli/tophelp.py, without typer's renderer and its imports), values named (N, FILE) and never typed, and examples at
the end."""

from __future__ import annotations

from copy import copy
from importlib import import_module

from typer.core import TyperCommand, TyperGroup
from typer.main import get_command_from_info
from typer.models import CommandInfo

from kallisti.cli import tophelp
from kallisti.cli.examples import EXAMPLES


class HelpGroup(TyperGroup):
    """A command group whose commands are made when first asked for, from `lazy_commands` (name: "module:function"),
    each with its help tidied for reading (see `tidy`). Its own help lists them by `lazy_summaries` (name: the first
    paragraph of the command's help, as the listing shows it), so that `kallisti --help` imports no command's module;
    a command without a summary is imported to list it."""

    lazy_commands: dict[str, str] = {}
    lazy_summaries: dict[str, str] = {}
    _listing = False  # while the group's own help is written

    def list_commands(self, ctx) -> list[str]:
        return [*self.lazy_commands, *(name for name in super().list_commands(ctx) if name not in self.lazy_commands)]

    def get_command(self, ctx, cmd_name: str):
        command = super().get_command(ctx, cmd_name)
        if command is None and self._listing and cmd_name in self.lazy_summaries:
            return TyperCommand(name=cmd_name, help=self.lazy_summaries[cmd_name])  # for its line in the listing only
        if command is None and cmd_name in self.lazy_commands:
            module, function = self.lazy_commands[cmd_name].split(":")
            info = CommandInfo(name=cmd_name, callback=getattr(import_module(module), function))
            command = get_command_from_info(info, pretty_exceptions_short=True, rich_markup_mode=self.rich_markup_mode)
            self.add_command(command, cmd_name)
        if command is not None:
            tidy(command, ctx, cmd_name)
        return command

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        # With no arguments typer prints the help by raising NoArgsIsHelpError, and its handler of that imports
        # typer.rich_utils only to print nothing more: print the help here and exit with the same status instead.
        if not args and self.no_args_is_help and not ctx.resilient_parsing and tophelp.applies(self):
            self.format_help(ctx, ctx.make_formatter())
            ctx.exit(2)
        return super().parse_args(ctx, args)

    def format_help(self, ctx, formatter) -> None:
        tidy(self, ctx, None)
        self._listing = True
        try:
            if not tophelp.show(self, ctx):  # drawn as typer draws it, without typer.rich_utils's imports
                super().format_help(ctx, formatter)
        finally:
            self._listing = False


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
            # The help shows an argument's type by its type's metavar, or `<name>` when that is None: an empty one
            # shows nothing. A copy, as a type may be shared by every parameter of its kind.
            param.type = copy(param.type)
            param.type.get_metavar = _no_type
    if name is not None and name in EXAMPLES and not command.epilog:
        command.epilog = examples_text(name)


def _no_type(*args, **kwargs) -> str:
    return ""


def examples_text(name: str) -> str:
    """The `Examples:` section of a command's help, in Markdown: one item per example, the command then what it does."""
    items = "\n".join(f"* `{line}`: {what}" for line, what in EXAMPLES[name])
    return f"**Examples:**\n\n{items}"
