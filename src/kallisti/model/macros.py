"""Named rule macros ("down in suit", "top card", …) and their expansion into clauses with documented ids."""

from __future__ import annotations

from kallisti.errors import Finding, KallistiError, Pos, did_you_mean
from kallisti.model.located import LDict, LList, located

# Direction clauses, for build and sequence rules: `card` goes on `top`.
_DIRECTIONS = {
    "down": ("rank-down", "card.rank == top.rank - 1", "builds down"),
    "up": ("rank-up", "card.rank == top.rank + 1", "builds up"),
    "up or down": ("rank-up-or-down", "card.rank == top.rank + 1 or card.rank == top.rank - 1", "builds up or down"),
}
_WRAPPED = {
    "down": ("rank-down", "(top.rank - card.rank) % ranks == 1", "builds down, the first rank going on the last"),
    "up": ("rank-up", "(card.rank - top.rank) % ranks == 1", "builds up, the last rank going on the first"),
    "up or down": ("rank-up-or-down", "(card.rank - top.rank) % ranks == 1 or (top.rank - card.rank) % ranks == 1",
                   "builds up or down, around the corner"),
}
# Suit clauses; None adds no clause.
_SUITS = {
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
_SIMPLE = {
    "any": [],
    "none": [("nothing", "forbid", "true", "takes nothing")],
    "first rank": [("first-rank", "require", "card.rank == first", "takes only the first rank")],
    "last rank": [("last-rank", "require", "card.rank == last", "takes only the last rank")],
    "top card": [("one-card", "require", "count == 1", "moves one card at a time")],
    "one card": [("one-card", "require", "count == 1", "moves one card at a time")],
    "any run": [],
}

_WORDS_WRAP = (" with wrap", ", wrapping", " wrapping")


def macro_names() -> list[str]:
    """Every macro phrase, for documentation and suggestions."""
    names = list(_SIMPLE)
    for d in _DIRECTIONS:
        for s in _SUITS:
            names.append(f"{d} {s}")
    names += [f"{n} with wrap" for n in names if n.split()[0] in ("up", "down")]
    return names


def expand_macro(phrase: str) -> list[tuple[str, str, str, str]] | None:
    """The clauses (id, require|forbid, expression, says) a macro phrase stands for, or None."""
    text = " ".join(phrase.lower().split())
    if text in _SIMPLE:
        return list(_SIMPLE[text])
    wrap = False
    for w in _WORDS_WRAP:
        if text.endswith(w):
            text, wrap = text[: -len(w)], True
    for direction in sorted(_DIRECTIONS, key=len, reverse=True):
        if text == direction or text.startswith(direction + " "):
            rest = text[len(direction):].strip() or "any suit"
            if rest not in _SUITS:
                return None
            cid, expr, says = (_WRAPPED if wrap else _DIRECTIONS)[direction]
            clauses = [(cid, "require", expr, says)]
            suit = _SUITS[rest]
            if suit is not None:
                sid, sexpr, ssays = suit
                clauses.append((sid, "require", sexpr, f"builds {ssays}"))
            return clauses
    return None


def macro_wording(phrase: str) -> str | None:
    """How a refusal says a build macro in words: `down alternate colour` -> `down in alternate colours`."""
    clauses = expand_macro(phrase)
    if not clauses or not all(says.startswith("builds ") for _, _, _, says in clauses):
        return None
    return " ".join(says[len("builds "):] for _, _, _, says in clauses)


def expand_rule(value, pos: Pos | None, where: str):
    """Normalise a rule written as a macro phrase, a clause, or a list of both, into a list of clause dicts."""
    items = value if isinstance(value, list) else [value]
    out = LList(pos=getattr(value, "pos", pos))
    item_pos = getattr(value, "item_pos", None)
    for i, item in enumerate(items):
        ipos = (item_pos[i] if item_pos and i < len(item_pos) else None) or getattr(item, "pos", None) or pos
        if isinstance(item, str):
            clauses = expand_macro(item)
            if clauses is None:
                raise KallistiError(Finding("unknown-macro", f"'{item}' is not a rule macro in {where}", ipos or Pos("<rule>"),
                                            suggestion=did_you_mean(item, macro_names()) or "write a clause: {id: ..., require: ...}"))
            for cid, kind, expr, says in clauses:
                clause = located({"id": cid, kind: expr, "says": says, "macro": " ".join(item.split())}, ipos or Pos("<macro>"))
                out.append(clause)
                out.item_pos.append(ipos)
        elif isinstance(item, bool) and isinstance(value, bool):
            out.extend(expand_rule("any" if item else "none", pos, where))
        else:
            out.append(item)
            out.item_pos.append(ipos)
    return out
