"""A group's help (`kallisti --help`) drawn as typer's rich help draws it in Markdown mode, without importing
typer.rich_utils: that module imports rich.markdown (and through it markdown_it and pygments) and rich.traceback,
which cost more than the rest of the help. Help texts written as plain paragraphs with `code` spans are drawn with
rich's own console, table and panel; a group whose texts use more of Markdown is left to typer (`show` says False
before anything heavy is imported), as is any group once typer.rich_utils is loaded (its styles may have been
changed). tests/test_startup.py checks that both draw the same bytes, plain and coloured, at several widths."""

from __future__ import annotations

import inspect
import os
import re
import sys
from dataclasses import dataclass, field
from gettext import gettext as _

from typer._click.types import _NumberRangeBase
from typer.core import HAS_RICH, TyperArgument, TyperOption

# typer's rich help styles (typer/rich_utils.py): the help drawn here must read as typer's does.
THEME = {"option": "bold cyan", "switch": "bold green", "negative_option": "bold magenta",
         "negative_switch": "bold red", "types": "bold yellow", "types_sep": "dim", "usage": "yellow"}
USAGE_STYLE = "bold"
REST_OF_HELP_STYLE = "dim"  # the group's help after its first paragraph
TYPES_STYLE = "bold yellow"
ENVVAR_STYLE = "dim yellow"
DEFAULT_STYLE = "dim"
REQUIRED_STYLE = "red"
REQUIRED_LONG_STYLE = "dim red"
PANEL_BORDER = "dim"
COMMAND_STYLE = "bold cyan"

# Characters that mean more than themselves in Markdown text outside a code span (emphasis, links, HTML, entities,
# escapes, strikethrough, tables), and control characters Markdown reads otherwise than as text.
MARKDOWN_SIGNS = set("*_[]<&\\~|\t\r\x00\b\f")
# How a line may begin and still be a paragraph's text, not a list, heading, quote, rule or code block.
PLAIN_START = re.compile(r"[^\W_]|[`(\"']")
ORDERED_ITEM = re.compile(r"\d{1,9}[.)]( |$)")
EMOJI_CODE = re.compile(r":\S*:")  # rich replaces `:name:` by its emoji in Markdown help

Piece = tuple[str, bool]  # a run of text, and whether it is a `code` span
Paragraph = list[Piece]


def applies(group) -> bool:
    """Whether typer would draw `group`'s help with rich in Markdown mode, and its drawing is not already loaded."""
    return HAS_RICH and group.rich_markup_mode == "markdown" and "typer.rich_utils" not in sys.modules


def show(group, ctx) -> bool:
    """Print `group`'s help on standard output as typer's rich help prints it, and return True; return False, printing
    nothing, when typer must draw it (see the module's docstring)."""
    if not applies(group):
        return False
    try:
        layout = _layout(group, ctx)
    except LeftToTyper:
        return False
    _print(layout)
    return True


class LeftToTyper(Exception):
    """The help holds something drawn here otherwise than typer draws it: Markdown beyond plain paragraphs, or a
    deprecation typer marks."""


# -- what the help says: read from the group, heavy imports none -------------------------------------------------

@dataclass
class Row:
    """One option's or argument's line: its names, its value's type and its help (Markdown paragraphs, then the
    env var, default and required notes typer adds)."""

    required: bool
    names: list[str]  # long names, short names, secondary long names, secondary short names
    types: str
    help: list[Paragraph] | None = None
    envvar: str | None = None
    default: str | None = None


@dataclass
class Layout:
    """Everything the help prints, as text."""

    usage: str
    help: list[Paragraph] | None = None  # None: no help paragraph at all
    rest_of_help: list[Paragraph] | None = None
    param_panels: list[tuple[str, list[Row]]] = field(default_factory=list)
    command_panels: list[tuple[str, list[tuple[str, list[Paragraph]]]]] = field(default_factory=list)
    command_width: int = 0
    epilog: list[Paragraph] | None = None


def _layout(group, ctx) -> Layout:
    """The help of `group` as text, in the order typer prints it."""
    if group.deprecated:
        raise LeftToTyper("deprecated")
    layout = Layout(usage=group.get_usage(ctx))
    if group.help:
        # typer's reading: the first paragraph, then the rest dimmed; nothing after a form feed
        first, *rest = inspect.cleandoc(group.help).partition("\f")[0].split("\n\n")
        layout.help = plain(first.strip())
        if rest:
            layout.rest_of_help = plain("\n\n".join(rest))
    _add_params(layout, group, ctx)
    _add_commands(layout, group, ctx)
    if group.epilog:
        layout.epilog = plain(group.epilog)
    return layout


def _add_params(layout: Layout, group, ctx) -> None:
    """Add the panels of the group's arguments then options, each kind's own panel first, the others in the order
    they were first named, as typer orders them."""
    arguments: dict[str, list] = {_("Arguments"): []}
    options: dict[str, list] = {_("Options"): []}
    for param in group.get_params(ctx):
        if getattr(param, "hidden", False):
            continue
        panels = arguments if isinstance(param, TyperArgument) else options if isinstance(param, TyperOption) else None
        if panels is not None:
            panels.setdefault(getattr(param, "rich_help_panel", None) or next(iter(panels)), []).append(param)
    for panels in (arguments, options):
        layout.param_panels += [(name, [_row(param, ctx) for param in params]) for name, params in panels.items()
                                if params]


def _row(param, ctx) -> Row:
    """One parameter's line of the help, as typer's rich help writes it."""
    metavar = param.make_metavar(ctx=ctx)
    shown_name = None  # an argument is shown by its metavar or name in place of its short names
    if isinstance(param, TyperArgument):
        shown_name = param.metavar if param.metavar is not None else param.name or ""
        metavar = param.type.get_metavar(param=param, ctx=ctx)
        if metavar is None:
            metavar = f"<{param.type.name}>"
    names = []
    for opts in (param.opts, param.secondary_opts):
        names.append(",".join(opt for opt in opts if "--" in opt))
        names.append(",".join(shown_name or opt for opt in opts if "--" not in opt))
    types = metavar if metavar and "bool" not in metavar.lower() else ""
    if (isinstance(param.type, _NumberRangeBase) and isinstance(param, TyperOption)
            and not (param.count and param.type.min == 0 and param.type.max is None)):
        described = param.type._describe_range()
        if described:
            types += f" [{described}]"
    row = Row(required=param.required, names=names, types=types, envvar=_envvar(param, ctx))
    if getattr(param, "help", None):
        row.help = plain("\n".join(param.help.split("\n\n")).strip())  # typer joins its paragraphs
    default = param._extract_default_help_str(ctx=ctx)
    shown_as = isinstance(param.show_default, str)
    if shown_as or (default is not None and (param.show_default or ctx.show_default)):
        row.default = param._get_default_string(ctx=ctx, show_default_is_str=shown_as, default_value=default) or None
    return row


def _envvar(param, ctx) -> str | None:
    """The environment variable(s) the help names for `param`, when it shows them."""
    envvar = getattr(param, "envvar", None)
    if envvar is None and getattr(param, "allow_from_autoenv", None) and param.name is not None \
            and getattr(ctx, "auto_envvar_prefix", None) is not None:
        envvar = f"{ctx.auto_envvar_prefix}_{param.name.upper()}"
    if not envvar or not getattr(param, "show_envvar", None):
        return None
    return envvar if isinstance(envvar, str) else ", ".join(str(d) for d in envvar)


def _add_commands(layout: Layout, group, ctx) -> None:
    """Add the panels of the group's commands, each listed by the first paragraph of its help."""
    panels: dict[str, list] = {_("Commands"): []}
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if command is None or command.hidden:
            continue
        if command.deprecated:
            raise LeftToTyper(f"{name} deprecated")
        first = inspect.cleandoc(command.short_help or command.help or "").split("\n\n")[0]
        summary = plain(first.replace("\n", " ").strip())
        panel = getattr(command, "rich_help_panel", None) or _("Commands")
        panels.setdefault(panel, []).append((command.name or "", summary))
    layout.command_width = max((len(name) for rows in panels.values() for name, _summary in rows), default=0)
    layout.command_panels = [(name, rows) for name, rows in panels.items() if rows]


def plain(text: str) -> list[Paragraph]:
    """The paragraphs of `text` (see `markdown`); LeftToTyper if it holds more of Markdown."""
    paragraphs = markdown(text)
    if paragraphs is None:
        raise LeftToTyper(text)
    return paragraphs


def markdown(text: str) -> list[Paragraph] | None:
    """`text` as the paragraphs rich's Markdown makes of it, each a list of pieces as Markdown appends them to its
    Text (a line's text, the space a line break becomes, a code span); None when the text holds any Markdown but
    paragraphs and single-line code spans, or a character Markdown reads otherwise than as text."""
    text = inspect.cleandoc(text)
    if any(c.isspace() and c not in " \n" for c in text):
        return None  # Markdown strips some kinds of space where this would not (cleandoc has expanded the tabs)
    if EMOJI_CODE.search(text):
        from rich.emoji import Emoji  # its table is read only here

        text = Emoji.replace(text)
    paragraphs: list[Paragraph] = []
    lines: list[str] = []
    for line in [*text.split("\n"), ""]:
        if line.strip(" "):
            lines.append(line)
            continue
        if lines:
            paragraph = _paragraph(lines)
            if paragraph is None:
                return None
            paragraphs.append(paragraph)
        lines = []
    return paragraphs


def _paragraph(lines: list[str]) -> Paragraph | None:
    """The pieces of one paragraph of plain lines; None if a line starts a block of another kind, breaks hard (two
    spaces at its end) or holds Markdown inline."""
    if lines[0].startswith(" "):
        return None  # indented: maybe a code block
    pieces: Paragraph = []
    for i, line in enumerate(lines):
        last = i == len(lines) - 1
        if not last and line.endswith("  "):
            return None
        line = line.strip(" ")
        if not PLAIN_START.match(line) or ORDERED_ITEM.match(line):
            return None
        if i:
            pieces.append((" ", False))  # a soft line break is drawn as a space
        spans = _code_spans(line)
        if spans is None:
            return None
        pieces.extend(spans)
    return pieces


def _code_spans(line: str) -> Paragraph | None:
    """One line's pieces: text, and `code` spans (the backticks dropped); None for an unclosed or spaced span or
    Markdown outside the spans."""
    pieces: Paragraph = []
    parts = line.split("`")
    if len(parts) % 2 == 0:
        return None
    for i, part in enumerate(parts):
        if i % 2:
            if not part or part[0] == " " or part[-1] == " ":
                return None
            pieces.append((part, True))
        elif MARKDOWN_SIGNS.intersection(part):
            return None
        elif part:
            pieces.append((part, False))
    return pieces


# -- drawing: rich's console, table and panel ---------------------------------------------------------------------

def _print(layout: Layout) -> None:
    """Print the help as typer's rich help prints it: usage, help, panels of parameters and commands, epilog."""
    from rich.align import Align
    from rich.console import Group
    from rich.padding import Padding
    from rich.text import Text

    console = _console()
    console.print(Padding(highlighter("options")(Text(layout.usage)), 1), style=USAGE_STYLE)
    if layout.help is not None:
        parts = [Paragraphs(layout.help)]
        if layout.rest_of_help is not None:
            parts += [Text(""), Paragraphs(layout.rest_of_help, REST_OF_HELP_STYLE)]
        console.print(Padding(Align(Group(*parts), pad=False), (0, 1, 1, 1)))
    for name, rows in layout.param_panels:
        console.print(_panel(name, _params_table(rows)))
    for name, rows in layout.command_panels:
        console.print(_panel(name, _commands_table(rows, layout.command_width)))
    if layout.epilog is not None:
        console.print(Padding(Align(Paragraphs(layout.epilog), pad=False), 1))


def _console():
    """A console as typer makes one for its help: its theme and highlighter, colour and width as the environment
    says (typer reads the same variables)."""
    from rich.console import Console
    from rich.theme import Theme

    force = True if os.getenv("GITHUB_ACTIONS") or os.getenv("FORCE_COLOR") or os.getenv("PY_COLORS") else None
    if os.getenv("_TYPER_FORCE_DISABLE_TERMINAL"):
        force = False
    width = os.getenv("TERMINAL_WIDTH")
    return Console(theme=Theme(THEME), highlighter=highlighter("options"), color_system="auto", force_terminal=force,
                   width=int(width) if width else None)


def _table(**options):
    """A table as typer lays out a panel's rows: no box, no header, the full width."""
    from rich.table import Table

    return Table(show_header=False, expand=True, box=None, show_lines=False, leading=0, border_style=None,
                 row_styles=None, pad_edge=False, padding=(0, 1), **options)


def _panel(title: str, table):
    from rich.panel import Panel

    return Panel(table, border_style=PANEL_BORDER, title=title, title_align="left")


def _params_table(rows: list[Row]):
    """The table of a panel of parameters: a column for `*` when one is required, the names, the type, the help."""
    from rich.columns import Columns
    from rich.text import Text

    table = _table(highlight=True)
    marked = any(row.required for row in rows)
    for row in rows:
        notes = [Paragraphs(row.help)] if row.help is not None else []
        if row.envvar:
            notes.append(Text(f"[env var: {row.envvar}]", style=ENVVAR_STYLE))
        if row.default:
            notes.append(Text(f"[default: {row.default}]", style=DEFAULT_STYLE))
        if row.required:
            notes.append(Text(_("[required]"), style=REQUIRED_LONG_STYLE))
        types = Text(style=TYPES_STYLE, overflow="fold")
        types.append(row.types)
        cells = [highlighter("options")(Text(row.names[0])), highlighter("options")(Text(row.names[1])),
                 highlighter("negative")(Text(row.names[2])), highlighter("negative")(Text(row.names[3])),
                 highlighter("types")(types), Columns(notes)]
        if marked:
            cells.insert(0, Text("*", style=REQUIRED_STYLE) if row.required else "")
        table.add_row(*cells)
    return table


def _commands_table(rows: list[tuple[str, list[Paragraph]]], width: int):
    """The table of a panel of commands: the name, in a column as wide as the longest in every panel, then its
    summary taking the rest."""
    from rich.text import Text

    table = _table(highlight=False)
    table.add_column(style=COMMAND_STYLE, no_wrap=True, width=width)
    table.add_column("Description", justify="left", no_wrap=False, ratio=10)
    for name, summary in rows:
        table.add_row(Text(name), Paragraphs(summary))
    return table


# typer's highlighters (rich RegexHighlighters): option names and `Usage: `, negative option names, a type's brackets.
HIGHLIGHTS = {
    "options": (r"(^|\W)(?P<switch>\-\w+)(?![a-zA-Z0-9])", r"(^|\W)(?P<option>\-\-[\w\-]+)(?![a-zA-Z0-9])",
                r"(?P<types>\<[^\>]+\>)", r"(?P<usage>Usage: )"),
    "negative": (r"(^|\W)(?P<negative_switch>\-\w+)(?![a-zA-Z0-9])",
                 r"(^|\W)(?P<negative_option>\-\-[\w\-]+)(?![a-zA-Z0-9])"),
    "types": (r"^(?P<types_sep>(\[|<))", r"(?P<types_sep>\|)", r"(?P<types_sep>(\]|>))(\.\.\.)?$"),
}
_highlighters: dict = {}


def highlighter(kind: str):
    """The highlighter of HIGHLIGHTS[kind], made when first asked for."""
    if kind not in _highlighters:
        from rich.highlighter import RegexHighlighter

        made = type(f"{kind.title()}Highlighter", (RegexHighlighter,), {"highlights": list(HIGHLIGHTS[kind])})
        _highlighters[kind] = made()
    return _highlighters[kind]


class Paragraphs:
    """Paragraphs drawn as rich's Markdown draws them: each a Text of its pieces (code spans in `markdown.code`, all
    over `style`), justified left, a blank line between two. Like Markdown, it has no measure of its own, so a table
    or column gives it the room it would give Markdown."""

    def __init__(self, paragraphs: list[Paragraph], style: str = "") -> None:
        self.paragraphs = paragraphs
        self.style = style

    def __rich_console__(self, console, options):
        from rich.segment import Segment
        from rich.text import Text

        # Markdown stacks the paragraph's style, then the code span's, on its own
        plain = console.get_style(self.style, default="none") + console.get_style("markdown.paragraph", default="none")
        code = plain + console.get_style("markdown.code", default="none")
        for i, paragraph in enumerate(self.paragraphs):
            if i:
                yield Segment.line()
            text = Text(justify="left")
            for piece, is_code in paragraph:
                text.append(piece, code if is_code else plain)
            yield text
