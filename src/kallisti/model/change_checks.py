"""Checks of a rule change against the rules it changes: what no check of the changed rules alone can see.

A `replace` change swaps one clause of a rule for another, and leaves the rule's other clauses as
they were. When the new clause allows moves the old one refused, a clause left in place may still
refuse them: the Ace and the Queen made neighbours by a new build clause, while a clause left
behind still takes nothing on a Queen. The new clause is judged part by part — a `require` clause
by its top-level `or` parts, each a way of letting a move through that its author wrote on purpose;
a `forbid` clause as a whole — and a part is in vain when, of the moves it newly allows (those the
old clause refused), a clause left behind refuses every one (`change-left-behind`). Like the clause
checks, this judges only clauses that read the moving card, the card it goes on and the count, for
every value they can take, so it proves what it reports.
"""

from __future__ import annotations

from kallisti.errors import Finding, KallistiError, Pos
from kallisti.interpreter import compiler as C
from kallisti.model.clause_checks import JUDGED, _cases, _outcome


def left_behind_findings(before, after, patch, where: Pos) -> list[tuple[Finding, str]]:
    """Findings about a `replace` change (`patch`) that took `before` to `after` (compiled rulesets), each with the
    id of the clause left behind."""
    if "replace" not in patch:
        return []
    path = str(patch["replace"])
    parts = path.split(".")
    if len(parts) != 3 or parts[0] != "piles" or parts[1] not in after.groups or parts[1] not in before.groups:
        return []
    group, key = parts[1], parts[2]
    old_rule, new_rule = getattr(before.groups[group], key, None), getattr(after.groups[group], key, None)
    if old_rule is None or new_rule is None or before.deck.signature != after.deck.signature:
        return []
    cid = str(patch["id"])
    old = next((c for c in old_rule.clauses if c.id == cid), None)
    new = next((c for c in new_rule.clauses if c.id == cid), None)
    others = [c for c in new_rule.clauses if c.id != cid and c.uses <= JUDGED]
    if old is None or new is None or not others or not old.uses <= JUDGED:
        return []
    findings = []
    for text, holds, uses in _parts(after, new, key, where):
        cases = _cases(after.deck, uses | old.uses | frozenset().union(*(c.uses for c in others)))
        if cases is None:
            continue
        at = cases.at
        try:
            # what a whole clause does in every case is worked out once (clause_checks, whose checks of the new rules
            # have judged it); a part of one is judged here
            allows = _outcome(after.deck, new, cases.uses) if text == new.text else \
                [holds(at(combo)) for combo in cases.combos]
            if allows is None:  # the new clause fails in some case
                continue
            # when the old clause fails in some case, it is asked only where the new clause lets the move through
            before = _outcome(after.deck, old, cases.uses)
            if before is not None:
                newly = [combo for combo, yes, was in zip(cases.combos, allows, before) if yes and not was]
            else:
                newly = [combo for combo, yes in zip(cases.combos, allows) if yes and not old.holds(at(combo))]
            if not newly:
                continue
            culprit = next((k for k in others if not any(k.holds(at(combo)) for combo in newly)), None)
        except C.RuleRuntimeError:
            continue
        if culprit is None:
            continue
        findings.append((Finding(
            "change-left-behind",
            f"{path}: the new clause '{cid}' lets {_example(after.deck, at(newly[0]), key)} through"
            + (f" (its part `{text}`)" if text != new.text else "")
            + f", but the clause '{culprit.id}' ({culprit.text}), left in the rule, refuses every "
              f"{'move that part' if text != new.text else 'move it'} newly allows", where), culprit.id))
    return findings


def without_clauses(data, path: str, ids: set[str]) -> list[dict]:
    """The clauses of the rule at `path` in resolved `data` but those of `ids`, as plain maps a `set` of the whole
    rule can give (their ids, kinds, expressions and what they say)."""
    group, key = path.split(".")[1:3]
    out = []
    for clause in data["piles"][group][key]:
        if clause["id"] in ids:
            continue
        kind = "require" if "require" in clause else "forbid"
        item = {"id": str(clause["id"]), kind: str(clause[kind])}
        if clause.get("says"):
            item["says"] = str(clause["says"])
        out.append(item)
    return out


def _parts(rules, clause, key: str, where: Pos):
    """(text, holds(ctx), uses) for each part of a new clause: a require clause's top-level `or` parts, each
    compiled alone; a forbid clause (or a require clause with one part) whole."""
    from kallisti.model.ruleset import RULE_SCOPES

    whole = [(clause.text, clause.holds, clause.uses)]
    if clause.kind != "require":
        return whole
    texts = or_parts(clause.text)
    if len(texts) < 2:
        return whole
    out = []
    for text in texts:
        try:
            comp = rules.compiler.compile(text, where, RULE_SCOPES[key])
        except KallistiError:
            return whole
        if not comp.uses <= JUDGED:
            return whole
        out.append((text, lambda ctx, fn=comp.fn: bool(fn(ctx)), comp.uses))
    return out


def or_parts(text: str) -> list[str]:
    """The texts of an expression's top-level `or` parts, in order (one part when it is no `or`); a part in
    brackets is given without them."""
    from lark import Token
    from lark.exceptions import LarkError

    from kallisti.grammar.expressions import parser

    try:
        tree = parser().parse(text)
    except (LarkError, RecursionError):  # the compiler accepted the whole; a part that will not split stays whole
        return [text]
    parts, todo = [], [tree]
    while todo:
        node = todo.pop(0)
        if not isinstance(node, Token) and node.data == "op_or":
            todo[:0] = list(node.children)
            continue
        parts.append(node)
    out = []
    for node in parts:
        if isinstance(node, Token):
            out.append(str(node))
        elif node.meta.empty:
            return [text]
        else:
            out.append(text[node.meta.start_pos:node.meta.end_pos])
    return out


def _example(deck, ctx, key: str) -> str:
    card = deck.name(ctx.card) if ctx.card >= 0 else None
    top = deck.name(ctx.top) if ctx.top >= 0 else None
    if card and top:
        return f"{card} on {top}"
    if card:
        return f"{card}" + (" on a space" if key == "empty" else "")
    return f"{ctx.count} card{'s' if ctx.count != 1 else ''}"
