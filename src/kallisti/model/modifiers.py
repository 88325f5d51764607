"""Compile a ruleset's `modifiers` (named rule overlays a player declares with a card) and build the overlaid rules."""

from __future__ import annotations

from dataclasses import dataclass

from kallisti.errors import Finding, KallistiError


@dataclass(frozen=True)
class Modifier:
    """A named overlay: the patches of its rule changes, and the card (a kind) whose holder may declare it."""

    id: str
    name: str
    says: str
    enabled: bool
    declare: int | None  # the card kind whose holder may declare it
    visible: int | None  # the card kind that brings it into play when it lies face up
    patches: tuple
    replace: int = 0  # a declared card is replaced by the player's choice of this many next cards (0: kept)


def compile_modifiers(data, deck, at, findings: list[Finding]) -> tuple[Modifier, ...]:
    """The Modifiers of resolved data; each change must read as a rule change (faults at the change's position)."""
    from kallisti.grammar.changes import parse_change

    out = []
    for mid, m in data.items():
        how = "declare" if "declare" in m else "visible"
        try:
            kind = deck.suit_index(m[how]["suit"], at("modifiers", mid, how, "suit")) * len(deck.ranks) + \
                deck.rank_index(m[how]["rank"], at("modifiers", mid, how, "rank"))
        except KallistiError as exc:
            findings.extend(exc.findings)
            continue
        patches = []
        for i, text in enumerate(m.get("changes", ())):
            try:
                patches.append(parse_change(text, f"modifiers.{mid}.changes[{i}]"))
            except KallistiError as exc:
                where = at("modifiers", mid, "changes", i)
                findings.extend(Finding(f.code, f"modifiers.{mid}.changes[{i}]: {f.message}", where, suggestion=f.suggestion)
                                for f in exc.findings)
        out.append(Modifier(mid, str(m.get("name", mid)), str(m.get("says", "")), bool(m["enabled"]),
                            kind if how == "declare" else None, kind if how == "visible" else None, tuple(patches),
                            int(m.get("replace", 0))))
    return tuple(out)


def overlaid(rules, ids) -> object:
    """`rules` with the named modifiers' changes applied, in the order given (compiled once per distinct result)."""
    from kallisti.interpreter.amend import apply_all, compile_data

    by_id = {m.id: m for m in rules.modifiers}
    patches = [p for mid in ids for p in by_id[mid].patches]
    if not patches:
        return rules
    data = apply_all(rules.data, patches)
    data.pop("modifiers", None)  # the overlaid rules are for judging hands; they bring no further modifiers
    return compile_data(data)


def overlay_findings(rules, at) -> list[Finding]:
    """Each modifier applied alone must give a valid ruleset: what goes wrong, at the modifier."""
    from kallisti.interpreter.amend import apply_all

    findings = []
    for m in rules.modifiers:
        data = rules.data
        for i, patch in enumerate(m.patches):  # one at a time, so a fault points at its change
            try:
                data = apply_all(data, [patch])
            except KallistiError as exc:
                findings += [Finding(f.code, f"modifier '{m.id}': {f.message}", at("modifiers", m.id, "changes", i),
                                     suggestion=f.suggestion) for f in exc.findings]
                break
        else:
            try:
                overlaid(rules, [m.id])
            except KallistiError as exc:
                findings += [Finding(f.code, f"with modifier '{m.id}' in play: {f.message}", at("modifiers", m.id, "changes"),
                                     suggestion=f.suggestion) for f in exc.findings]
    return findings
