"""Compile a ruleset's `hands` section (groupings and cripples) into HandRules, checking its references."""

from __future__ import annotations

from dataclasses import dataclass

from kallisti.errors import Finding, KallistiError, did_you_mean
from kallisti.interpreter import compiler as C

HAND_DEFAULTS = {"budget": 200_000, "cripples": {}}


@dataclass(frozen=True)
class Grouping:
    """One declared card grouping: a set of cards for which `when` holds, or `count` disjoint groupings of `of`."""

    id: str
    name: str
    says: str
    rank: int | None  # None: only a part of multiple groupings and cripples, never scored alone
    sizes: tuple[int, int]  # fewest and most cards (a multiple's are derived from its part's)
    when: object  # compiled condition over `cards`, `count` and `hand`, or None for a multiple
    of: str | None
    count: int
    enabled: bool
    uses_hand: bool = False  # the condition reads the whole hand, so its answers depend on more than the group's cards


@dataclass(frozen=True)
class Cripple:
    """A hand holding grouping `by` beats a hand whose best grouping is one of `beats`, whatever their ranks."""

    id: str
    by: str
    beats: tuple[str, ...]
    rank: int  # between two cripplers, the higher outcripples the lower
    enabled: bool
    says: str


@dataclass(frozen=True)
class HandRules:
    """The compiled `hands` section: hand size, the search budget, groupings by id, cripples."""

    size: int
    budget: int
    groupings: dict
    cripples: tuple[Cripple, ...]


def normalise_hands(hands, pos, located) -> None:
    """Fill the defaults of a `hands` section in place (names from ids, everything enabled)."""
    for key, value in HAND_DEFAULTS.items():
        if key not in hands:
            hands[key] = located(value, hands.pos or pos)
    for gid, g in (hands.get("groupings") or {}).items():
        if isinstance(g, dict):
            g.setdefault("name", gid.replace("-", " "))
            g.setdefault("enabled", True)
    for c in (hands.get("cripples") or {}).values():
        if isinstance(c, dict):
            c.setdefault("rank", 0)
            c.setdefault("enabled", True)


def compile_hands(data, compiler: C.Compiler, at, findings: list[Finding]) -> HandRules:
    """The HandRules of resolved `hands` data; faults are added to `findings` with their positions."""
    size = int(data["size"])
    raw = data["groupings"]
    groupings: dict[str, Grouping] = {}
    for gid, g in raw.items():
        when, sizes, uses_hand = None, (0, 0), False
        if "of" in g:
            part = raw.get(g["of"])
            if part is None:
                findings.append(Finding("unknown-grouping", f"hands.groupings.{gid}.of names no grouping '{g['of']}'",
                                        at("hands", "groupings", gid, "of"), suggestion=did_you_mean(g["of"], raw)))
                continue
            if "of" in part:
                findings.append(Finding("nested-multiple", f"hands.groupings.{gid} is made of '{g['of']}', itself a multiple "
                                        "grouping; make it of the simple grouping instead", at("hands", "groupings", gid, "of")))
                continue
            lo, hi = _sizes(part["cards"])
            sizes = (lo * g["count"], hi * g["count"])
        else:
            lo, hi = sizes = _sizes(g["cards"])
            if lo > hi:
                findings.append(Finding("grouping-size", f"hands.groupings.{gid}.cards: fewest ({lo}) is more than most ({hi})",
                                        at("hands", "groupings", gid, "cards")))
                continue
            try:
                compiled = compiler.compile(g["when"], at("hands", "groupings", gid, "when"), C.HAND_SCOPE)
                when, uses_hand = compiled.fn, "hand" in compiled.uses
            except KallistiError as exc:
                findings.extend(exc.findings)
                continue
        if sizes[0] > size:
            findings.append(Finding("grouping-size", f"hands.groupings.{gid} needs at least {sizes[0]} cards; a hand holds {size}",
                                    at("hands", "groupings", gid), severity="warning"))
        groupings[gid] = Grouping(gid, str(g["name"]), str(g.get("says", "")), g.get("rank"), (sizes[0], min(sizes[1], size)),
                                  when, g.get("of"), int(g.get("count", 1)), bool(g["enabled"]), uses_hand)
    cripples = []
    for cid, c in data["cripples"].items():
        for key, names in (("by", [c["by"]]), ("beats", list(c["beats"]))):
            for i, name in enumerate(names):
                if name not in raw:
                    where = at("hands", "cripples", cid, key, *([i] if key == "beats" else []))
                    findings.append(Finding("unknown-grouping", f"hands.cripples.{cid}.{key} names no grouping '{name}'", where,
                                            suggestion=did_you_mean(name, raw)))
        cripples.append(Cripple(cid, str(c["by"]), tuple(c["beats"]), int(c["rank"]), bool(c["enabled"]), str(c.get("says", ""))))
    if not any(g.rank is not None for g in groupings.values()) and raw:
        findings.append(Finding("no-ranked-grouping", "no grouping has a rank, so every hand scores nothing",
                                at("hands", "groupings"), suggestion="give the groupings a `rank`: higher beats lower"))
    return HandRules(size, int(data["budget"]), groupings, tuple(cripples))


def _sizes(cards) -> tuple[int, int]:
    if isinstance(cards, list):
        return int(cards[0]), int(cards[1])
    return int(cards), int(cards)
