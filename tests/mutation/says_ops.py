"""Operators that leave what a rule says behind what it means: the "piles" stage's explanations (`says`)."""

from __future__ import annotations

import re

from kallisti.interpreter.ranknames import picture_words

from .base import RULE_KEYS, clause_expr, operator, pick, piles, variant

ROLES = {"first": 0, "last": -1}


def _role(text: str) -> str | None:
    """`first` or `last` when the expression names exactly one of them (and so the rank at that end of the order)."""
    named = {w for w in re.findall(r"(?<![\w.])(first|last)(?!\w)", text)}
    return named.pop() if len(named) == 1 else None


def _reordered(ranks: list[str], how: str) -> list[str]:
    """The ranks reversed, or turned one place round: either way neither end of the order keeps its rank."""
    if how == "reversed":
        return ranks[::-1]
    return ranks[1:] + ranks[:1] if how == "up" else ranks[-1:] + ranks[:-1]


@operator("rank-order-under-message", "says-rank")
def rank_order_under_message(game, rng):
    """A variant reorders `deck.ranks` (reversed, or turned one place round) and rewords a clause that names `first`
    or `last` to say the rank that stood there before ("takes only a King"): the refusal names a rank the rule no
    longer means, where `{last}` would have followed the order."""
    ranks = game.ranks
    if len(set(ranks)) < 3:
        return []
    words = {i: w for w, i in picture_words(ranks).items()}
    places = []
    for name, g in piles(game.data).items():
        for key in RULE_KEYS:
            for clause in g.get(key) or []:
                kind, text = clause_expr(clause)
                role = _role(text)
                if role is not None and ROLES[role] % len(ranks) in words:
                    places.append((name, key, clause, kind, text, role))
    out = []
    for name, key, clause, kind, text, role in pick(rng, places):
        word = words[ROLES[role] % len(ranks)].capitalize()
        how = rng.choice(("reversed", "up", "down"))
        says = f"{'takes only' if kind == 'require' else 'refuses'} a{'n' if word[0] in 'AEIOU' else ''} {word}"
        changes = [{"set": "deck.ranks", "value": _reordered(ranks, how)},
                   {"replace": f"piles.{name}.{key}", "id": clause["id"], kind: text, "says": says}]
        out.append(variant(game, f"deck.ranks {how}; piles.{name}.{key} clause '{clause['id']}' says '{says}'",
                           changes=changes))
    return out
