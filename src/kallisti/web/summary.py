"""What a game is, for the page: its goal and a short summary of its rules, taken from the rule book that `kallisti
show` prints (kallisti.rulebook), and that book as the HTML page `kallisti show --format html` writes."""

from __future__ import annotations

import base64
import hashlib
import re

from kallisti.rulebook.build import build_book
from kallisti.rulebook.render import render_html
from kallisti.rulebook.structure import Items, Para, Part

# The lines of a pile group's part in the rule book that the summary keeps, by how they begin: what builds on it,
# what a space takes, what may leave it, how it deals. Others (the deal, clause lists) are the full book's.
SUMMARY_KEYS = ("builds", "a space takes", "may leave", "deals", "discards", "redeals")
_CLAUSES = re.compile(r"\s*\(clauses? [^)]*\)")  # `(clauses rank-down, same-suit)`: the rules' names, for the book


def game_summary(rules) -> dict:
    """`{"goal", "rules", "description"}`: the book's "How to win" (its first sentence, the goal), one line per pile
    group of what builds on it and what may leave it, and the game's whole description."""
    book = build_book(rules)
    win = book.section("How to win")
    goal = ""
    if win is not None:
        text = " ".join(b.text for b in win.blocks if isinstance(b, Para))
        goal = text.split(". ")[0].rstrip(".") + "." if text else ""
    lines = []
    for section in book.sections:
        for block in section.blocks:
            if isinstance(block, Part) and block.lead:
                said = [_plain(item.text).replace(": ", " ", 1) for b in block.blocks if isinstance(b, Items) for item in b.items
                        if item.text.split(":")[0] in SUMMARY_KEYS]
                said = [s for s in said if not s.endswith(" none")]
                if said:
                    lines.append(f"{block.title}: " + "; ".join(said))
    return {"goal": goal, "rules": lines, "description": book.description}


def _plain(text: str) -> str:
    """A line of the book without the names of its clauses and its code marks."""
    return _CLAUSES.sub("", text).replace("`", "")


def rule_book_html(rules) -> str:
    """The game's rule book as a standalone HTML page (as `kallisti show --format html` writes it)."""
    return render_html(build_book(rules))


def style_hashes(page: str) -> list[str]:
    """The CSP hashes (`'sha256-...'`) of the page's inline style elements, which its policy then allows alone."""
    out = []
    for style in re.findall(r"<style>(.*?)</style>", page, flags=re.S):
        digest = base64.b64encode(hashlib.sha256(style.encode("utf-8")).digest()).decode("ascii")
        out.append(f"'sha256-{digest}'")
    return out
