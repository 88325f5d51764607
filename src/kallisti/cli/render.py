"""Terminal rendering of a table: one line per pile with its tag, foundations and stock compact."""

from __future__ import annotations

import os
import sys

import typer

# Groups shown by their top card only, side by side on one line.
COMPACT_ROLES = ("foundation",)
FACE_DOWN = "##"
NO_CARD = "--"
ANSI = {"red": "red", "blue": "blue", "green": "green", "yellow": "yellow", "magenta": "magenta", "cyan": "cyan"}


def use_color(stream=None, no_color: bool = False) -> bool:
    """Colour only on a terminal, and never when asked not to (`--no-color` or the NO_COLOR variable)."""
    stream = stream or sys.stdout
    if no_color or os.environ.get("NO_COLOR"):
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


def card_text(game, card: int, color: bool = False, width: int = 0) -> str:
    """A card's name padded to `width`, in its suit's colour when colour is on (colours a terminal knows)."""
    deck = game.deck
    name = deck.name(card)
    pad = " " * max(width - len(name), 0)
    if color and card < deck.size:
        fg = ANSI.get(deck.suits[deck.suit[card]].color)
        if fg:
            return typer.style(name, fg=fg, bold=True) + pad
    return name + pad


def pile_cards(game, p: int, color: bool = False) -> str:
    """A pile's cards bottom to top, face-down cards as `##`; `--` for an empty pile."""
    pile = game.state.piles[p]
    if not pile:
        return NO_CARD
    down = game.state.down[p]
    hidden = down - game.visible_down(p)  # the ruleset may let the player look at some face-down cards
    width = name_width(game.deck)
    cells = [FACE_DOWN.ljust(width) if i < hidden else
             (f"({game.deck.name(c)})".ljust(width) if i < down else card_text(game, c, color, width))
             for i, c in enumerate(pile)]
    return " ".join(cells).rstrip()


def name_width(deck) -> int:
    """The widest card name of a deck (3 for `10♥`), so cards line up in columns."""
    return max(len(deck.name(c)) for c in range(deck.size)) if deck.size else 2


def top_text(game, p: int, color: bool = False) -> str:
    """A pile's top card (`##` when it lies face down, `--` when the pile is empty)."""
    pile = game.state.piles[p]
    if not pile:
        return NO_CARD
    if len(pile) <= game.state.down[p]:
        return FACE_DOWN
    return card_text(game, pile[-1], color)


def table_lines(game, color: bool = False) -> list[str]:
    """The whole table as lines of text, groups in ruleset order.

    Foundations: every pile's top card on one line (`f1 5♠  f2 --`). A stock (a group that
    deals with `turn`): its card count (`s [64]`). A waste: its top card and count
    (`w 7♠ [3]`). Every other pile: a line of its own listing its cards bottom to top.
    """
    rules = game.rules
    tag = rules.tag_of
    lines: list[str] = []
    wide = [p for g in rules.groups.values() if not _compact(g) for p in g.piles]
    width = max((len(tag[p]) for p in wide), default=0)
    joinable = False  # a stock and the waste after it share a line
    for g in rules.groups.values():
        if g.role in COMPACT_ROLES:
            lines.append("  ".join(f"{tag[p]} {top_text(game, p, color)}" for p in g.piles))
            joinable = False
        elif g.turn is not None or g.role in ("stock", "waste"):
            if g.turn is not None or g.role == "stock":
                text = "  ".join(_stock_text(game, p, color) for p in g.piles)
            else:
                text = "  ".join(f"{tag[p]} {top_text(game, p, color)} [{len(game.state.piles[p])}]" for p in g.piles)
            if joinable:
                lines[-1] += "  " + text
            else:
                lines.append(text)
            joinable = True
        else:
            for p in g.piles:
                lines.append(f"{tag[p]:<{width}} {pile_cards(game, p, color)}")
            joinable = False
    return lines


def _compact(g) -> bool:
    return g.role in COMPACT_ROLES or g.role in ("stock", "waste") or g.turn is not None


def _stock_text(game, p: int, color: bool) -> str:
    """`s [64]`; a stock whose top card lies face up shows it too."""
    n = len(game.state.piles[p])
    text = f"{game.rules.tag_of[p]} [{n}]"
    if n and n > game.state.down[p]:
        text += f" {top_text(game, p, color)}"
    return text


# -- text that fits the terminal --------------------------------------------------------------
SCREEN = (80, 24)  # the screen assumed where the terminal's size is unknown (a pipe, a test)
MIN_WIDTH = 40  # narrower than this, wrapping helps no more: lines are cut at this width instead


def terminal_width() -> int:
    """The terminal's width in columns (80 when it is not a terminal), never under MIN_WIDTH."""
    import shutil

    return max(shutil.get_terminal_size(SCREEN).columns, MIN_WIDTH)


def entry_lines(entries, width: int | None = None, indent: int = 2) -> list[str]:
    """(term, what it means) pairs as a two-column list wrapped to `width`: each meaning starts beside its term (the
    terms' column as wide as the widest term) and its further lines start under it. A term too wide for its column
    takes a line of its own."""
    import textwrap

    width = width or terminal_width()
    column = min(max((len(term) for term, _ in entries), default=0), width // 3)
    lines = []
    for term, what in entries:
        lead = " " * indent + term.ljust(column) + "  "
        hanging = " " * (indent + column + 2)
        if len(term) > column:
            lines.append(" " * indent + term)
            lead = hanging
        lines.extend(_unbroken(textwrap.wrap(_keep_together(what), width - 1, initial_indent=lead,
                                             subsequent_indent=hanging, break_on_hyphens=False,
                                             break_long_words=False)) or [lead.rstrip()])
    return lines


KEEP = "\u00a0"  # joins the words of a `command` while wrapping: textwrap breaks lines at ASCII spaces only


def _keep_together(text: str) -> str:
    """The text with each `quoted command` made one word, so that wrapping never splits a command to type."""
    import re

    return re.sub(r"`[^`]*`", lambda m: m.group().replace(" ", KEEP), text)


def _unbroken(lines: list[str]) -> list[str]:
    return [line.replace(KEEP, " ") for line in lines]


def wrapped(text: str, width: int | None = None, indent: str = "") -> list[str]:
    """A paragraph wrapped to `width`, its later lines indented by `indent`."""
    import textwrap

    return _unbroken(textwrap.wrap(_keep_together(text), (width or terminal_width()) - 1, subsequent_indent=indent,
                                   break_on_hyphens=False, break_long_words=False))


# -- legends: what the tags and marks on the table mean ------------------------------------------
def suit_legend(deck) -> str:
    """`suits: ♣ clubs (C), ..., Sw swords (pairs with ♣)`: each suit's mark and name, the letter that types a mark
    a keyboard lacks, and for a suit that counts as another's (a suit pair) which one."""
    symbol = {s.name: s.symbol for s in deck.suits}
    parts = []
    for s in deck.suits:
        typed = f" ({s.letter})" if s.letter != s.symbol else ""
        paired = f" (pairs with {symbol.get(s.family, s.family)})" if s.family != s.name else ""
        parts.append(f"{s.symbol} {s.name}{typed}{paired}")
    typing = " (type the letter in brackets for a mark)" if any(s.letter != s.symbol for s in deck.suits) else ""
    return f"suits{typing}: " + ", ".join(parts)


def _tags(rules, g) -> str:
    first, last = rules.tag_of[g.piles[0]], rules.tag_of[g.piles[-1]]
    return first if first == last else f"{first}..{last}"


def legend_lines(game, width: int | None = None) -> list[str]:
    """What the table `table_lines` draws means, for this game: each group's tags, the marks it can show, the suits."""
    rules = game.rules
    tags = [(_tags(rules, g), f"{g.name} ({g.role})" if g.role not in g.name else g.name) for g in rules.groups.values()]
    marks = [(FACE_DOWN, "a face-down card"), (NO_CARD, "an empty pile")]
    example = game.deck.name(0)
    if any(g.reveal is not None for g in rules.groups.values()):
        marks.append((f"({example})", "a face-down card the rules let you look at: it moves only once turned face up"))
    if any(_compact(g) and g.role not in COMPACT_ROLES for g in rules.groups.values()):
        marks.append(("[24]", "a stock or waste: how many cards it holds (its top card beside it when face up)"))
    home = [g for g in rules.groups.values() if g.role in COMPACT_ROLES]
    if home:
        marks.append((f"{rules.tag_of[home[0].piles[0]]} {example}", "a foundation: its top card only"))
    lines = wrapped("piles (a tag names a pile; a group's letter alone names the first of its piles that takes the "
                    "card):", width)
    lines += entry_lines(tags, width)
    lines.append("marks:")
    lines += entry_lines(marks, width)
    lines += wrapped("other piles list their cards from the bottom (left) to the top (right), the top card the one "
                     "that moves", width)
    for g in rules.groups.values():
        if g.take_from != ("top",):  # cards leave from elsewhere than the top: `c1@1 f` names one by its place
            # The rule book's words; imported for such a game only: drawing a table needs no rule book.
            from kallisti.rulebook.build import take_from_words

            tag = rules.tag_of[g.piles[0]]
            lines += wrapped(f"cards leave the {g.name} from {take_from_words(g.take_from)}: `{tag}@1 ...` moves the "
                             f"first card of {tag} (the leftmost), `{tag}@2 ... 3` three cards from its second", width)
    lines += wrapped(suit_legend(game.deck) + "; ranks " + " ".join(game.deck.ranks), width, "  ")
    return lines
