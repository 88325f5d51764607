"""The characters no text from a stranger may hold, and how to show one harmlessly.

Rulesets, rule changes, deal files and saves are untrusted: their text is printed to terminals and to CI logs.
A terminal obeys an escape sequence printed to it (ESC, BEL), a NUL cuts a C string short, and bidirectional-text
controls make a text display in another order than it reads ("Trojan Source", CVE-2021-42574). A lone surrogate,
which an escape (`"\\udc80"` in YAML or a quoted text) can put in a string, is no character at all: no UTF-8 output
can carry it, so printing or hashing it raises UnicodeEncodeError. This module has no dependencies, so that every
stage, down to the error messages, can use it.
"""

from __future__ import annotations

import re

# C0 controls but tab, line feed and carriage return; DEL; the C1 controls; the bidirectional embeddings,
# overrides and isolates (U+202A-U+202E, U+2066-U+2069); the surrogates (U+D800-U+DFFF), which a Python string
# holds only unpaired. The marks U+200E and U+200F stay allowed: they change no order of what follows, and
# right-to-left text needs them.
UNSAFE_CHARS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def unsafe_char(text: str) -> int | None:
    """The index of the first character of `text` that no untrusted text may hold, or None."""
    found = UNSAFE_CHARS.search(text)
    return found.start() if found else None


def char_name(ch: str) -> str:
    """A character named so that printing the name is harmless: `U+001B`."""
    return f"U+{ord(ch):04X}"


def visible(text: str) -> str:
    """`text` with every unsafe character replaced by its name in angle brackets (`<U+001B>`), safe to print."""
    if UNSAFE_CHARS.search(text) is None:
        return text
    return UNSAFE_CHARS.sub(lambda m: f"<{char_name(m.group())}>", text)


class QuotingError(Exception):
    """An error whose message may quote what a player typed (a pile tag, a change's id, a file name): shown, it
    names every unsafe character (`visible`), so that echoing a piped command never sends its escapes on."""

    def __str__(self) -> str:
        return visible(super().__str__())
