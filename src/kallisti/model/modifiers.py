"""Compile a ruleset's `modifiers` (named rule overlays brought into play by a card, a round's start, or the round
before) and build the overlaid rules."""

from __future__ import annotations

from dataclasses import dataclass

from kallisti.errors import Finding, KallistiError, did_you_mean
from kallisti.grammar.changes import parse_change
from kallisti.model.amended import apply_all, compile_data

TARGETS = ("all", "declarer", "others")  # the `to` keywords; any other `to` names a modifier
FOLLOWS = ("nulls",)  # what a round's showdown may leave for the next round's `after` modifiers


@dataclass(frozen=True)
class Modifier:
    """A named overlay: the patches of its rule changes, what brings it into play, when it may, and whom it changes."""

    id: str
    name: str
    says: str
    enabled: bool
    declare: int | None  # the card kind whose holder may declare it
    visible: int | None  # the card kind that brings it into play when it lies face up
    patches: tuple
    replace: int = 0  # a declared card is replaced by the player's choice of this many next cards (0: kept)
    always: bool = False  # in play from the start of every round
    after: str | None = None  # in play in a round that follows a round that showed this (one of FOLLOWS)
    needs: tuple[str, ...] = ()  # `while`: only while all these modifiers are in play
    unless: tuple[str, ...] = ()  # never while any of these is in play
    not_by: tuple[str, ...] = ()  # not declared by a player who declared any of these
    to: str = "all"  # whose hands the changes apply to: all, declarer, others, or the declarer of a named modifier
    must: bool = False  # declared automatically as soon as its card is dealt
    compel: int | None = None  # the card kind whose holder must lay it face up when this modifier is declared
    unheld: tuple = ()  # patches applied when nobody still in holds the compelled card
    opening: bool = False  # declared only before the first hand is laid down at the showdown

    @property
    def trigger(self) -> str:
        """What brings the modifier into play: declare, visible, always or after."""
        if self.declare is not None:
            return "declare"
        if self.visible is not None:
            return "visible"
        return "always" if self.always else "after"

    def part(self, name: str) -> tuple:
        """The patches of one part of the modifier: `changes` or `unheld`."""
        return self.patches if name == "changes" else self.unheld


def compile_modifiers(data, deck, at, findings: list[Finding]) -> tuple[Modifier, ...]:
    """The Modifiers of resolved data; each change must read as a rule change (faults at the change's position),
    and every modifier a condition or target names must exist (faults at the name)."""
    out = []
    for mid, m in data.items():
        cards = {}
        try:
            for key in ("declare", "visible", "compel"):
                if key in m:
                    cards[key] = deck.suit_index(m[key]["suit"], at("modifiers", mid, key, "suit")) * len(deck.ranks) + \
                        deck.rank_index(m[key]["rank"], at("modifiers", mid, key, "rank"))
        except KallistiError as exc:
            findings.extend(exc.findings)
            continue
        out.append(Modifier(mid, str(m.get("name", mid)), str(m.get("says", "")), bool(m["enabled"]),
                            cards.get("declare"), cards.get("visible"), _patches(m, mid, "changes", at, findings),
                            int(m.get("replace", 0)), bool(m.get("always", False)),
                            str(m["after"]) if "after" in m else None,
                            tuple(map(str, m.get("while", ()))), tuple(map(str, m.get("unless", ()))),
                            tuple(map(str, m.get("not_by", ()))), str(m.get("to", "all")), bool(m.get("must", False)),
                            cards.get("compel"), _patches(m, mid, "unheld", at, findings), bool(m.get("opening", False))))
    findings += reference_findings(data, at)
    return tuple(out)


def _patches(m, mid: str, key: str, at, findings: list[Finding]) -> tuple:
    """The parsed rule changes of a modifier's `changes` or `unheld` list; a fault is reported at its change."""
    patches = []
    for i, text in enumerate(m.get(key, ())):
        try:
            patches.append(parse_change(text, f"modifiers.{mid}.{key}[{i}]"))
        except KallistiError as exc:
            where = at("modifiers", mid, key, i)
            findings.extend(Finding(f.code, f"modifiers.{mid}.{key}[{i}]: {f.message}", where, suggestion=f.suggestion)
                            for f in exc.findings)
    return tuple(patches)


def reference_findings(data, at) -> list[Finding]:
    """The modifiers named by `while`, `unless`, `not_by` and `to` must exist, and `to` must name a seat that has
    declared something: only a declared modifier (`declare`) has a declarer."""
    ids = list(data)
    declared = {mid for mid, m in data.items() if "declare" in m}
    findings = []
    for mid, m in data.items():
        for key in ("while", "unless", "not_by"):
            for i, other in enumerate(m.get(key, ())):
                if other not in ids:
                    findings.append(Finding("modifier-unknown", f"modifiers.{mid}.{key}: there is no modifier '{other}'",
                                            at("modifiers", mid, key, i), suggestion=did_you_mean(other, ids)))
        to = str(m.get("to", "all"))
        if to in ("declarer", "others") and "declare" not in m:
            trigger = next((k for k in ("visible", "always", "after") if k in m), "visible")
            findings.append(Finding("modifier-no-declarer", f"modifiers.{mid}.to: a modifier that comes into play by "
                                    f"`{trigger}` has no declarer, so `to: {to}` names nobody", at("modifiers", mid, "to"),
                                    suggestion="use `to: all`, or `declare` with `must: true`"))
        elif to not in TARGETS and to not in ids:
            findings.append(Finding("modifier-unknown", f"modifiers.{mid}.to: there is no modifier '{to}' (nor is it one "
                                    f"of {', '.join(TARGETS)})", at("modifiers", mid, "to"),
                                    suggestion=did_you_mean(to, ids + list(TARGETS))))
        elif to not in TARGETS and to not in declared:
            findings.append(Finding("modifier-no-declarer", f"modifiers.{mid}.to: modifier '{to}' is never declared, so "
                                    "nobody is its declarer", at("modifiers", mid, "to")))
        if m.get("must") and ("replace" in m or "compel" in m):
            # A compulsory declaration happens during the deal, when no question may be asked of anyone.
            key = "replace" if "replace" in m else "compel"
            findings.append(Finding("modifier-must-asks", f"modifiers.{mid}: a modifier declared by `must` asks nobody "
                                    f"anything, so it cannot have `{key}`", at("modifiers", mid, key)))
    return findings


def overlaid(rules, ids) -> object:
    """`rules` with the named modifiers' changes applied, in the order given (compiled once per distinct result)."""
    return overlaid_entries(rules, tuple((mid, "changes") for mid in ids))


def overlaid_entries(rules, entries) -> object:
    """`rules` with the given parts of modifiers applied in order: entries are (modifier id, `changes` or `unheld`)."""
    by_id = {m.id: m for m in rules.modifiers}
    patches = [p for mid, part in entries for p in by_id[mid].part(part)]
    if not patches:
        return rules
    return _compiled_overlay(apply_all(rules.data, patches), type(rules))


def _compiled_overlay(data, ruleset: type) -> object:
    """The compiled rules of overlaid data (a private copy, changed here), built by `ruleset`, the class of the rules
    overlaid."""
    data.pop("modifiers", None)  # the overlaid rules are for judging hands; they bring no further modifiers
    return compile_data(data, ruleset)


def overlay_findings(rules, at) -> list[Finding]:
    """Each modifier's `changes`, and its `unheld` changes, applied alone must give a valid ruleset: what goes wrong,
    at the modifier."""
    findings = []
    for m in rules.modifiers:
        for part in ("changes", "unheld"):
            data = rules.data
            for i, patch in enumerate(m.part(part)):  # one at a time, so a fault points at its change
                try:
                    data = apply_all(data, [patch])
                except KallistiError as exc:
                    findings += [Finding(f.code, f"modifier '{m.id}': {f.message}", at("modifiers", m.id, part, i),
                                         suggestion=f.suggestion) for f in exc.findings]
                    break
            else:
                try:
                    if data is not rules.data:  # the part's patches, applied above, compiled as play would
                        _compiled_overlay(data, type(rules))
                except KallistiError as exc:
                    findings += [Finding(f.code, f"with modifier '{m.id}' in play: {f.message}", at("modifiers", m.id, part),
                                         suggestion=f.suggestion) for f in exc.findings]
    return findings
