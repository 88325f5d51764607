"""Sentences about a player by name, in the second person for a seat named `you` ("you pass", "your turn")."""

from __future__ import annotations

import re

# Verbs whose second person is not the third person without its -s.
IRREGULAR = {"is": "are", "has": "have", "does": "do", "was": "were"}
# Third-person endings that drop -es rather than -s: "passes" -> "pass", "matches" -> "match", "goes" -> "go".
ES_ENDINGS = ("sses", "shes", "ches", "xes", "zes", "oes")


def is_you(name: str) -> bool:
    """Whether a player's name is the word `you` (the default name of the person at the terminal)."""
    return name.strip().lower() == "you"


def second_person(verb: str) -> str:
    """The second person of a verb given in the third person singular: `acknowledges` -> `acknowledge`."""
    if verb in IRREGULAR:
        return IRREGULAR[verb]
    if verb.endswith(ES_ENDINGS):
        return verb[:-2]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if verb.endswith("s") and not verb.endswith("ss"):
        return verb[:-1]
    return verb  # "must", "cannot", a verb in the past: the same for every person


def does(name: str, phrase: str) -> str:
    """`ann passes` / `you pass`: the name, then the phrase, its first word (a verb in the third person singular)
    conjugated for the name."""
    if not is_you(name):
        return f"{name} {phrase}"
    verb = re.match(r"[A-Za-z]*", phrase).group()  # the verb, without the punctuation after it (`acknowledges:`)
    return f"{name} {second_person(verb)}{phrase[len(verb):]}"


def whose(name: str) -> str:
    """`ann's` / `your`: the possessive of a player's name."""
    return "your" if is_you(name) else f"{name}'s"


def hir(name: str) -> str:
    """`hir` / `your`: the possessive pronoun for a player already named in the sentence."""
    return "your" if is_you(name) else "hir"
