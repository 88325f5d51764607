"""What rules say in words: `says` texts that name ranks by role (`{last}`), and the check that a text naming a rank
names one its rule means; and the booleans of expression keys, which are expressions too."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kallisti.errors import Finding, Pos, did_you_mean
from kallisti.interpreter.ranknames import PLACEHOLDERS, picture_words, placeholders, render, spoken


def placeholders_removed(text: str) -> str:
    """The text without its `{first}` and `{last}`."""
    for m in reversed(placeholders(text)):
        if m.group(1) in PLACEHOLDERS:
            text = text[:m.start()] + text[m.end():]
    return text


# Keys whose values are expressions wherever they are written (clauses, patterns, win, score, lose, hand groupings):
# a YAML `true` or `false` there, or one set by a rule change, is the expression of that name.
EXPRESSION_VALUE_KEYS = frozenset({"require", "forbid", "expr", "when", "win", "score", "prefill"})


def booleans_as_words(data) -> None:
    """Write every boolean value of an expression key in `data` as the expression `true` or `false`, in place (its
    position kept), so that whatever reads the text of an expression reads an expression."""
    todo = [data]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if key in EXPRESSION_VALUE_KEYS and isinstance(value, bool):
                    node[key] = "true" if value else "false"
                elif isinstance(value, (dict, list)):
                    todo.append(value)
        elif isinstance(node, list):
            todo.extend(v for v in node if isinstance(v, (dict, list)))


def render_says(text, deck, pos: Pos, findings: list[Finding]) -> str:
    """A `says` text as the rules in force say it: `{first}` and `{last}` become the deck's first and last ranks
    (`a {last}`: `a King`, or `a Queen` in a deck whose order ends with the Queen). A `{name}` that is neither is
    noted as an `unknown-name` finding."""
    text = "" if text is None else str(text)
    for m in placeholders(text):
        if m.group(1) not in PLACEHOLDERS:
            findings.append(Finding("unknown-name", f"'{m.group(0)}' in a says text names nothing; braces name a rank by "
                                    "its role: {first} or {last}", pos,
                                    suggestion=did_you_mean(m.group(0), [f"{{{p}}}" for p in PLACEHOLDERS])))
    return render(text, deck.ranks)


@dataclass(frozen=True)
class SaysSeen:
    """An explanation as written, where it is, and the ranks its rule's expression names (by index)."""

    where: str  # `piles.foundation.build clause nothing-on-the-last`, `lose.stuck`, `auto.aces-up`
    says: str  # as written: a rank named by its role (`{last}`) is always the one in force, and is not read
    ranks: frozenset
    pos: Pos


def says_findings(deck, said: list[SaysSeen]) -> list[Finding]:
    """`says-rank`: an explanation names a rank by its word (`a Queen`, `kings`) that its expression, which does name
    ranks, does not name: after the deck's order changed (`first`, `last`, `last - 1` now mean other ranks), or by a
    slip. Refusals would tell the player one rule while another is in force."""
    words = picture_words(deck.ranks)
    if not words:
        return []
    pattern = re.compile(r"\b(" + "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True)) + r")(?:e?s)?\b",
                         re.IGNORECASE)
    findings = []
    for seen in said:
        if not seen.ranks or not seen.says:
            continue  # an expression that names no rank (`source in reserve`) leans on another clause's
        text = " ".join(placeholders_removed(str(seen.says)).split())
        for m in pattern.finditer(text):
            named = words[m.group(1).lower()]
            if named in seen.ranks:
                continue
            meant = [deck.ranks[i] for i in sorted(seen.ranks)]
            roles = {0: "{first}", len(deck.ranks) - 1: "{last}"}
            role = next((roles[i] for i in sorted(seen.ranks) if i in roles), None)
            fix = (f"write {role} for the rank it means, whatever the deck's order" if role else
                   f"name the rank it compares: {' or '.join(spoken(r) for r in meant)}")
            findings.append(Finding("says-rank", f"{seen.where} says '{m.group(0)}', but its expression names the rank"
                                    f"{'s' if len(meant) > 1 else ''} {' '.join(meant)} of this deck, not "
                                    f"{deck.ranks[named]}", seen.pos, severity="warning", suggestion=fix))
            break
    return findings
