"""Compile a ruleset's `hands` section (groupings and cripples) into HandRules, checking its references."""

from __future__ import annotations

from dataclasses import dataclass

from kallisti.errors import Finding, KallistiError, did_you_mean
from kallisti.interpreter import compiler as C

HAND_DEFAULTS = {"budget": 200_000, "cripples": {}, "nulls": {}, "wild": {}, "devalue": {}, "shift": {}, "wild_ties": "none"}


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
    reads: frozenset = frozenset()  # what the condition reads of its cards (wild cards' stand-ins need differ only there)
    parts: tuple = ()  # the condition's top-level `and` parts: (function, what it reads), to judge wild cards part by part
    text: str = ""  # the condition as written (what its answers depend on, with the deck)


@dataclass(frozen=True)
class Cripple:
    """A hand holding grouping `by` beats a hand whose best grouping is one of `beats`, whatever their ranks."""

    id: str
    by: str
    beats: tuple[str, ...]
    rank: int  # between two cripplers, the higher outcripples the lower
    enabled: bool
    says: str
    wild_limit: bool = False  # the crippler may hold no more wild cards than the grouping it cripples


@dataclass(frozen=True)
class NullRule:
    """Cards (by kind) that may join the named groupings as nothing, making them larger: Onion's null eights."""

    id: str
    kinds: frozenset
    groupings: frozenset


@dataclass(frozen=True)
class WildRule:
    """Cards (by kind) that stand for any card of the pack but those of `never`: the kinds they may stand for."""

    id: str
    kinds: frozenset
    stand_ins: tuple[int, ...]


@dataclass(frozen=True)
class Devaluation:
    """Cards of `kinds` count only the values `to`: `count` of them of the player's choosing (None: all), unless
    the hand's best grouping is one of `spare`; with `if_uses`, only in a hand whose groupings use such a card."""

    id: str
    kinds: frozenset
    to: tuple[int, ...]
    count: int | None
    spare: frozenset
    if_uses: frozenset


@dataclass(frozen=True)
class Shift:
    """The player may take `points` from one card's value and give them to another's, both staying in [low, high]."""

    id: str
    points: int
    low: int
    high: int


@dataclass(frozen=True)
class HandRules:
    """The compiled `hands` section: hand size, the search budget, groupings by id, cripples."""

    size: int
    budget: int
    groupings: dict
    cripples: tuple[Cripple, ...]
    nulls: tuple[NullRule, ...] = ()
    wild: tuple[WildRule, ...] = ()
    devalue: tuple[Devaluation, ...] = ()
    shift: tuple[Shift, ...] = ()
    wild_ties: str = "none"  # between groups of equal rank: none, fewer-wins or more-wins (wild cards)


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
            c.setdefault("wild_limit", False)


def compile_hands(data, compiler: C.Compiler, at, findings: list[Finding]) -> HandRules:
    hands = _compile_groupings(data, compiler, at, findings)
    known = data["groupings"]
    deck = compiler.deck

    def kinds(patterns, *path) -> frozenset:
        return card_kinds(deck, patterns, lambda *p: at("hands", *path, *p), findings)

    def groupings(names, *path) -> frozenset:
        for i, name in enumerate(names):
            if name not in known:
                findings.append(Finding("unknown-grouping", f"hands.{'.'.join(path)} names no grouping '{name}'",
                                        at("hands", *path, i), suggestion=did_you_mean(name, known)))
        return frozenset(names)

    nulls = tuple(NullRule(nid, kinds(n["cards"], "nulls", nid, "cards"), groupings(n["in"], "nulls", nid, "in"))
                  for nid, n in data["nulls"].items())
    regular = sorted(set(deck.kind[:deck.size]))  # the kinds the pack holds
    wild = []
    for wid, w in data["wild"].items():
        never = kinds(w.get("never", []), "wild", wid, "never")
        wild.append(WildRule(wid, kinds(w["cards"], "wild", wid, "cards"), tuple(k for k in regular if k not in never)))
    devalue = tuple(Devaluation(did, kinds(d["cards"], "devalue", did, "cards"), tuple(int(v) for v in d["to"]),
                                d.get("count"), groupings(d.get("spare", []), "devalue", did, "spare"),
                                kinds(d.get("if_uses", []), "devalue", did, "if_uses"))
                    for did, d in data["devalue"].items())
    shift = []
    for sid, sh in data["shift"].items():
        if sh["low"] > sh["high"]:
            findings.append(Finding("shift-range", f"hands.shift.{sid}: low ({sh['low']}) is more than high ({sh['high']})",
                                    at("hands", "shift", sid, "low")))
        shift.append(Shift(sid, int(sh["points"]), int(sh["low"]), int(sh["high"])))
    return HandRules(hands.size, hands.budget, hands.groupings, hands.cripples, nulls, tuple(wild), devalue, tuple(shift),
                     str(data["wild_ties"]))


def card_kinds(deck, patterns, at, findings: list[Finding]) -> frozenset:
    """The kinds of card a list of patterns names: `{rank: 8}` every eight, `{suit: coins}` every coin,
    `{rank: Q, suit: coins}` the queen of coins; an unknown rank or suit is a finding at its position."""
    out = set()
    for i, p in enumerate(patterns):
        try:
            ranks = [deck.rank_index(p["rank"], at(i, "rank"))] if "rank" in p else range(len(deck.ranks))
            suits = [deck.suit_index(p["suit"], at(i, "suit"))] if "suit" in p else range(len(deck.suits))
        except KallistiError as exc:
            findings.extend(exc.findings)
            continue
        out.update(s * len(deck.ranks) + r for s in suits for r in ranks)
    return frozenset(out)


def _compile_groupings(data, compiler: C.Compiler, at, findings: list[Finding]) -> HandRules:
    """The HandRules of resolved `hands` data; faults are added to `findings` with their positions."""
    size = int(data["size"])
    raw = data["groupings"]
    groupings: dict[str, Grouping] = {}
    for gid, g in raw.items():
        when, sizes, uses_hand, reads, parts = None, (0, 0), False, frozenset(), ()
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
                when, uses_hand, reads = compiled.fn, "hand" in compiled.uses, compiled.reads
                parts = tuple((c.fn, c.reads) for c in compiler.conjuncts(g["when"], at("hands", "groupings", gid, "when"),
                                                                          C.HAND_SCOPE))
            except KallistiError as exc:
                findings.extend(exc.findings)
                continue
        if sizes[0] > size:
            findings.append(Finding("grouping-too-large", f"hands.groupings.{gid} needs at least {sizes[0]} cards; a hand holds {size}",
                                    at("hands", "groupings", gid), severity="warning"))
        groupings[gid] = Grouping(gid, str(g["name"]), str(g.get("says", "")), g.get("rank"), (sizes[0], min(sizes[1], size)),
                                  when, g.get("of"), int(g.get("count", 1)), bool(g["enabled"]), uses_hand, reads, parts,
                                  str(g.get("when", "")))
    cripples = []
    for cid, c in data["cripples"].items():
        for key, names in (("by", [c["by"]]), ("beats", list(c["beats"]))):
            for i, name in enumerate(names):
                if name not in raw:
                    where = at("hands", "cripples", cid, key, *([i] if key == "beats" else []))
                    findings.append(Finding("unknown-grouping", f"hands.cripples.{cid}.{key} names no grouping '{name}'", where,
                                            suggestion=did_you_mean(name, raw)))
        cripples.append(Cripple(cid, str(c["by"]), tuple(c["beats"]), int(c["rank"]), bool(c["enabled"]), str(c.get("says", "")),
                                bool(c.get("wild_limit", False))))
    if not any(g.rank is not None for g in groupings.values()) and raw:
        findings.append(Finding("no-ranked-grouping", "no grouping has a rank, so every hand scores nothing",
                                at("hands", "groupings"), suggestion="give the groupings a `rank`: higher beats lower"))
    return HandRules(size, int(data["budget"]), groupings, tuple(cripples))


def _sizes(cards) -> tuple[int, int]:
    if isinstance(cards, list):
        return int(cards[0]), int(cards[1])
    return int(cards), int(cards)
