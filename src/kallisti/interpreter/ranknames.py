"""The words of a deck's ranks: `king` for K, `ten` for 10, in expressions; `King`, `Ten` in messages."""

from __future__ import annotations

import re

# The usual one-letter names of the court cards and the ace; a rank spelt out (`Ace`, `KING`) is its own word.
_LETTERS = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
_PICTURES = frozenset(_LETTERS.values())
_NUMBERS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
            "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty")
WORDS = _PICTURES | frozenset(_NUMBERS)  # every word some deck's rank may have


def rank_word(name: str) -> str | None:
    """The word of a rank name, lower case (`K` -> `king`, `10` -> `ten`, `Ace` -> `ace`), or None when it has none
    but its own name."""
    name = str(name)
    if name in _LETTERS:
        return _LETTERS[name]
    if name.isdigit() and int(name) < len(_NUMBERS) and str(int(name)) == name:
        return _NUMBERS[int(name)]
    if name.lower() in _PICTURES:
        return name.lower()
    return None


def rank_words(ranks) -> dict[str, int]:
    """Each rank's word (see `rank_word`), other than its own name, with the rank's index in `ranks`; a word two ranks
    would share names neither."""
    out: dict[str, int] = {}
    shared: set[str] = set()
    for i, name in enumerate(ranks):
        word = rank_word(name)
        if word is None or word == name:
            continue
        if word in out:
            shared.add(word)
        out[word] = i
    return {w: i for w, i in out.items() if w not in shared}


def spoken(name: str) -> str:
    """How a message names a rank: its word with a capital (`King`, `Ten`), or the rank's own name."""
    word = rank_word(name)
    return word.capitalize() if word else str(name)


def picture_words(ranks) -> dict[str, int]:
    """The words a sentence names ranks by, lower case, with the rank's index: the ace's and the court cards' words
    and every rank whose own name is a word of two letters or more (number words are left out: `two` in `two or more
    cards` is a count, not a rank)."""
    out: dict[str, int] = {}
    for i, name in enumerate(ranks):
        word = rank_word(name)
        if word in _PICTURES:
            out[word] = i
        elif word is None and len(str(name)) > 1 and str(name).isalpha():
            out[str(name).lower()] = i
    return out


_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
PLACEHOLDERS = ("first", "last")  # the ranks a `says` text may name by role, as written in braces


def placeholders(text: str) -> list[re.Match]:
    """The `{name}` placeholders of a `says` text."""
    return list(_PLACEHOLDER.finditer(text))


def render(text: str, ranks) -> str:
    """A `says` text with `{first}` and `{last}` replaced by the words of the deck's first and last ranks, and an `a`
    just before one agreeing with the word (`a {last}`: `a King`, `an Ace`). Other braces are left as written."""
    if "{" not in text or not ranks:
        return text
    named = {"first": spoken(ranks[0]), "last": spoken(ranks[-1])}
    out, at = [], 0
    for m in placeholders(text):
        if m.group(1) not in named:
            continue
        word = named[m.group(1)]
        before = text[at:m.start()]
        article = re.search(r"(?:^|(?<=\W))([Aa])(n?) $", before)
        if article:
            wanted = "n" if word[:1].lower() in "aeiou" and not word.lower().startswith("one") else ""
            before = before[:article.start(2)] + wanted + " "
        out += [before, word]
        at = m.end()
    out.append(text[at:])
    return "".join(out)
