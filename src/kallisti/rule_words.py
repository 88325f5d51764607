"""The words of a ruleset that the front ends and the model share: a pile group's rule keys, the parts of a dotted
path, and the rule macros' phrases with the clauses each stands for."""

from __future__ import annotations

RULE_KEYS = ("build", "empty", "take", "sequence", "dealing", "discard")


def path_part(part: str):
    """A part of a dotted path: a list index when it is a short run of ASCII digits, else a key. (`str.isdigit`
    also takes `²`, which `int` refuses, and a run of thousands of digits is no index but a ValueError.)"""
    return int(part) if part.isascii() and part.isdigit() and len(part) <= 9 else part


# Direction clauses, for build and sequence rules: `card` goes on `top`.
DIRECTIONS = {
    "down": ("rank-down", "card.rank == top.rank - 1", "builds down"),
    "up": ("rank-up", "card.rank == top.rank + 1", "builds up"),
    "up or down": ("rank-up-or-down", "card.rank == top.rank + 1 or card.rank == top.rank - 1", "builds up or down"),
}
WRAPPED = {
    "down": ("rank-down", "(top.rank - card.rank) % ranks == 1", "builds down, the first rank going on the last"),
    "up": ("rank-up", "(card.rank - top.rank) % ranks == 1", "builds up, the last rank going on the first"),
    "up or down": ("rank-up-or-down", "(card.rank - top.rank) % ranks == 1 or (top.rank - card.rank) % ranks == 1",
                   "builds up or down, around the corner"),
}
# Suit clauses; None adds no clause.
SUITS = {
    "in suit": ("same-suit", "card.suit == top.suit", "in suit"),
    "alternate colour": ("alternate-colour", "card.color != top.color", "in alternate colours"),
    "alternate color": ("alternate-colour", "card.color != top.color", "in alternate colours"),
    "same colour": ("same-colour", "card.color == top.color", "in the same colour"),
    "same color": ("same-colour", "card.color == top.color", "in the same colour"),
    "any suit but its own": ("other-suit", "card.suit != top.suit", "on any suit but its own"),
    "any suit": None,
    "regardless of suit": None,
}

# Whole-rule macros, for any kind of rule.
SIMPLE = {
    "any": [],
    "none": [("nothing", "forbid", "true", "takes nothing")],
    "first rank": [("first-rank", "require", "card.rank == first", "takes only the first rank")],
    "last rank": [("last-rank", "require", "card.rank == last", "takes only the last rank")],
    "top card": [("one-card", "require", "count == 1", "moves one card at a time")],
    "one card": [("one-card", "require", "count == 1", "moves one card at a time")],
    "any run": [],
}

WRAP_WORDS = (" with wrap", ", wrapping", " wrapping")


def macro_names() -> list[str]:
    """Every macro phrase, for documentation and suggestions."""
    names = list(SIMPLE)
    for d in DIRECTIONS:
        for s in SUITS:
            names.append(f"{d} {s}")
    names += [f"{n} with wrap" for n in names if n.split()[0] in ("up", "down")]
    return names


def expand_macro(phrase: str) -> list[tuple[str, str, str, str]] | None:
    """The clauses (id, require|forbid, expression, says) a macro phrase stands for, or None."""
    text = " ".join(phrase.lower().split())
    if text in SIMPLE:
        return list(SIMPLE[text])
    wrap = False
    for w in WRAP_WORDS:
        if text.endswith(w):
            text, wrap = text[: -len(w)], True
    for direction in sorted(DIRECTIONS, key=len, reverse=True):
        if text == direction or text.startswith(direction + " "):
            rest = text[len(direction):].strip() or "any suit"
            if rest not in SUITS:
                return None
            cid, expr, says = (WRAPPED if wrap else DIRECTIONS)[direction]
            clauses = [(cid, "require", expr, says)]
            suit = SUITS[rest]
            if suit is not None:
                sid, sexpr, ssays = suit
                clauses.append((sid, "require", sexpr, f"builds {ssays}"))
            return clauses
    return None
