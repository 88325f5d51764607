"""The least and the most a ruleset's score can be, read off its score expression where its form tells them."""

from __future__ import annotations

from kallisti.errors import KallistiError, Pos
from kallisti.grammar.expressions import Attr, Name, Num, Op, parse_expression


def score_bounds(rules) -> tuple[int, int] | None:
    """(least, most) the ruleset's score can be in any position, or None when its expression does not say.

    Told from the form of the expression alone, so that no position is needed: a whole number; the size of a group
    of piles (from 0 to the cards of the deck, since cards are conserved); a sum of the sizes of distinct groups
    (together they hold at most the whole deck); and sums and differences of those. Any other form (a product, a
    quantifier, a card's value...) is left unbounded. A search uses the bounds to stop once more play-outs could no
    longer change what it decides (`choose_shuffle`).
    """
    text = rules.data.get("score") if isinstance(rules.data, dict) else None
    if text is None or isinstance(text, bool):
        return None
    try:
        node = parse_expression(str(text), Pos("<score>"))
    except KallistiError:
        return None
    terms: list[tuple[int, object]] = []  # (sign, node) of each term of the top-level sum
    if not _terms(node, 1, terms):
        return None
    if any(isinstance(term, str) and term not in rules.groups for _, term in terms):
        return None  # a name that is no group of piles: its size is not a count of cards
    low = sum(sign * term for sign, term in terms if isinstance(term, int))
    high = low
    for sign in (1, -1):
        groups = [term for s, term in terms if s == sign and isinstance(term, str)]
        # Distinct groups hold at most the whole deck between them; a group counted twice may count it twice.
        most = rules.deck.size * (1 if len(groups) == len(set(groups)) else len(groups)) if groups else 0
        if sign > 0:
            high += most
        else:
            low -= most
    return (low, high)


def _terms(node, sign: int, out: list) -> bool:
    """Collect the terms of a sum: a number (as an int) or a group's size (as the group's name); False when some
    term is of another form."""
    if isinstance(node, Num):
        out.append((sign, node.value))
        return True
    if isinstance(node, Attr) and node.name == "size" and isinstance(node.obj, Name):
        out.append((sign, node.obj.name))
        return True
    if isinstance(node, Op) and node.op in ("arith_add", "arith_sub") and len(node.args) == 2:
        return _terms(node.args[0], sign, out) and _terms(node.args[1], sign if node.op == "arith_add" else -sign, out)
    if isinstance(node, Op) and node.op == "arith_neg" and len(node.args) == 1:
        return _terms(node.args[0], -sign, out)
    return False
