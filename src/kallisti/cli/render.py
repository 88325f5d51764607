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
