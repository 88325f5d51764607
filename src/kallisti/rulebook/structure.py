"""The structure of a rule book: a Book of Sections, each a list of paragraphs, lists and titled parts."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Para:
    """A paragraph; `wrap=False` keeps it on one line in plain text."""

    text: str
    wrap: bool = True


@dataclass
class Item:
    """One entry of a list, with its details under it; `rank` is a number set before it (a grouping's rank)."""

    text: str
    sub: list["Item"] = field(default_factory=list)
    rank: str | None = None


@dataclass
class Items:
    """A list; `wrap=True` wraps long entries in plain text (others stay one line each, to be searched)."""

    items: list[Item]
    wrap: bool = False


@dataclass
class Part:
    """A titled sub-section: one pile group, or a kind of move; `lead` is its one-line summary."""

    title: str
    lead: str
    blocks: list


@dataclass
class Section:
    title: str
    blocks: list
    id: str = ""


@dataclass
class Book:
    title: str
    description: str
    sources: list[str]
    sections: list[Section]

    def section(self, title: str) -> Section | None:
        return next((s for s in self.sections if s.title == title), None)
