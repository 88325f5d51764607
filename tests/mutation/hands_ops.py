"""Operators on the `hands`, `table` and `modifiers` sections of a shipped ruleset's resolved data (Cripple Mr Onion's),
written back as a standalone YAML file."""

from __future__ import annotations

import re

from .base import Shipped, fresh_name, get_in, misspell, misspelt_references, operator, pick, set_in, standalone, where

TARGETS = ("all", "declarer", "others")
MAX_SEATS = 12  # the most players `table.seats` may name


def groupings(game: Shipped) -> dict:
    return game.data.get("hands", {}).get("groupings", {})


def multiples(game: Shipped) -> list[str]:
    """The groupings made of several of another (`of`)."""
    return [gid for gid, g in groupings(game).items() if "of" in g]


# -- hands --------------------------------------------------------------------------------------------------------

def grouping_references(game: Shipped) -> list[tuple]:
    """The path of every place `hands` names a grouping: a multiple's `of`, a cripple's `by` and `beats`."""
    hands = game.data.get("hands", {})
    out = [("hands", "groupings", gid, "of") for gid in multiples(game)]
    for cid, cripple in hands.get("cripples", {}).items():
        out.append(("hands", "cripples", cid, "by"))
        out += [("hands", "cripples", cid, "beats", i) for i in range(len(cripple.get("beats", [])))]
    return out


@operator("misspelt-grouping", "unknown-grouping")
def misspelt_grouping(game, rng):
    """A place that names a grouping (a multiple's `of`, a cripple's `by` or `beats`) names it misspelt, which is no
    grouping."""
    return misspelt_references(game, rng, grouping_references(game), groupings(game))


@operator("multiple-of-multiple", "nested-multiple")
def multiple_of_multiple(game, rng):
    """A multiple grouping (`double-bagel: {of: bagel}`) is made of another multiple grouping instead."""
    out = []
    for a, b in pick(rng, [(a, b) for a in multiples(game) for b in multiples(game) if a != b]):
        data = game.fresh()
        data["hands"]["groupings"][a]["of"] = b
        out.append(standalone(data, f"hands.groupings.{a} made of {b}"))
    return out


@operator("reversed-grouping-size", "grouping-size")
def reversed_grouping_size(game, rng):
    """A grouping's range of sizes `[fewest, most]` is turned round, so its fewest cards are more than its most."""
    ranged = [gid for gid, g in groupings(game).items() if isinstance(g.get("cards"), list) and g["cards"][0] < g["cards"][1]]
    out = []
    for gid in pick(rng, ranged):
        data = game.fresh()
        grouping = data["hands"]["groupings"][gid]
        grouping["cards"] = grouping["cards"][::-1]
        out.append(standalone(data, f"hands.groupings.{gid}.cards made {grouping['cards']}"))
    return out


@operator("oversized-grouping", "grouping-too-large")
def oversized_grouping(game, rng):
    """A grouping is made to need more cards than a hand holds: its size (its fewest, for a range) one more than a
    hand, or, for a multiple, so many of its part that they cannot fit in a hand."""
    size = game.data.get("hands", {}).get("size", 0)

    def grown(g):
        if "of" in g:
            part = groupings(game)[g["of"]]["cards"]
            return {"count": size // (part[0] if isinstance(part, list) else part) + 1}
        return {"cards": size + 1 if isinstance(g["cards"], int) else [size + 1, max(g["cards"][1], size + 1)]}
    out = []
    for gid in pick(rng, groupings(game)):
        data = game.fresh()
        data["hands"]["groupings"][gid].update(grown(groupings(game)[gid]))
        out.append(standalone(data, f"hands.groupings.{gid} needs more than {size} cards: {grown(groupings(game)[gid])}"))
    return out


SHIFT = re.compile(r"low: (-?\d+), high: (-?\d+)")


@operator("inverted-shift", "shift-range")
def inverted_shift(game, rng):
    """A shift rule's `low` and `high` are given the wrong way round, so the lowest value is above the highest: one a
    modifier adds (its change text edited), or a new one in `hands`."""
    if "hands" not in game.data:
        return []
    def ordered(text):
        found = SHIFT.search(text)
        return found is not None and int(found[1]) < int(found[2])
    places = [("modifiers", mid, "changes", i) for mid, m in modifiers(game).items()
              for i, text in enumerate(m.get("changes", [])) if ordered(text)]
    out = []
    for path in pick(rng, places + [None]):
        data = game.fresh()
        if path is None:
            name = fresh_name(data["hands"]["shift"], "nudge")
            data["hands"]["shift"][name] = {"points": 2, "low": 9, "high": 3}
            out.append(standalone(data, f"hands.shift.{name} from 9 to 3"))
        else:
            set_in(data, path, SHIFT.sub(lambda m: f"low: {m[2]}, high: {m[1]}", get_in(data, path)))
            out.append(standalone(data, f"{where(path)}: low and high swapped"))
    return out


@operator("unranked-groupings", "no-ranked-grouping")
def unranked_groupings(game, rng):
    """Every grouping loses its `rank`, so no grouping is worth anything and every hand scores nothing."""
    if not groupings(game):
        return []
    data = game.fresh()
    for grouping in data["hands"]["groupings"].values():
        grouping.pop("rank", None)
    return [standalone(data, "no grouping has a rank")]


# -- the table ----------------------------------------------------------------------------------------------------

def table(game: Shipped) -> dict:
    return game.data.get("table", {})


@operator("table-without-hands", "table-without-hands")
def table_without_hands(game, rng):
    """A game of pile groups without a `hands` section is given a `table` (players dealt five cards each), whose
    showdown compares hands the ruleset does not define."""
    if "hands" in game.data or not game.data.get("piles"):
        return []
    data = game.fresh()
    most = rng.randint(2, 6)
    data["table"] = {"seats": [2, most], "deal": [{"dealer": 5, "others": 5}]}
    return [standalone(data, f"table for 2 to {most} players added, no hands")]


@operator("crowded-table", "table-pack")
def crowded_table(game, rng):
    """The table seats up to 11 or 12 players, who need more cards for their hands alone than the pack has."""
    size = game.data.get("hands", {}).get("size", 0)
    out = []
    for most in pick(rng, [n for n in range(2, MAX_SEATS + 1) if table(game) and n * size > game.deck_size]):
        data = game.fresh()
        data["table"]["seats"] = [data["table"]["seats"][0], most]
        out.append(standalone(data, f"table.seats up to {most}: {most * size} cards for the hands alone"))
    return out


@operator("uneven-deal", "table-hand-size")
def uneven_deal(game, rng):
    """One pass of the table's deal gives the dealer or the others a card more or less, so a player's hand is not
    `hands.size` cards."""
    places = [(i, role, step) for i in range(len(table(game).get("deal", []))) for role in ("dealer", "others")
              for step in (1, -1) if table(game)["deal"][i][role] + step >= 0]
    out = []
    for i, role, step in pick(rng, places):
        data = game.fresh()
        data["table"]["deal"][i][role] += step
        out.append(standalone(data, f"table.deal[{i}].{role} {'+' if step > 0 else '-'}1"))
    return out


@operator("seats-reversed", "table-seats")
def seats_reversed(game, rng):
    """`table.seats` gives a fewest number of players above the most."""
    if not table(game):
        return []
    most = table(game)["seats"][1]
    out = []
    for fewest in pick(rng, range(most + 1, MAX_SEATS + 1)):
        data = game.fresh()
        data["table"]["seats"] = [fewest, most]
        out.append(standalone(data, f"table.seats [{fewest}, {most}]"))
    return out


# -- modifiers ------------------------------------------------------------------------------------------------------

def modifiers(game: Shipped) -> dict:
    return game.data.get("modifiers", {})


@operator("misspelt-modifier", "modifier-unknown")
def misspelt_modifier(game, rng):
    """A place that names a modifier (`while`, `unless`, `not_by`, or `to`) names it misspelt, which is no modifier."""
    places = [("modifiers", mid, key, i) for mid, m in modifiers(game).items() for key in ("while", "unless", "not_by")
              for i in range(len(m.get(key, [])))]
    places += [("modifiers", mid, "to") for mid, m in modifiers(game).items() if m.get("to", "all") in modifiers(game)]
    out = []
    for path in pick(rng, places):
        data = game.fresh()
        wrong = misspell(get_in(data, path), rng, list(modifiers(game)) + list(TARGETS))
        set_in(data, path, wrong)
        out.append(standalone(data, f"{where(path)} names '{wrong}'"))
    return out


@operator("declarer-less-target", "modifier-no-declarer")
def declarer_less_target(game, rng):
    """A modifier's changes are aimed at a declarer that cannot exist: `to: declarer` or `to: others` on a modifier
    nobody declares (it comes into play by `visible`, `always` or `after`), or `to` the id of such a modifier."""
    undeclared = [mid for mid, m in modifiers(game).items() if "declare" not in m]
    places = [(mid, to) for mid in undeclared for to in ("declarer", "others")]
    places += [(mid, other) for mid in modifiers(game) for other in undeclared if other != mid]
    out = []
    for mid, to in pick(rng, places):
        data = game.fresh()
        data["modifiers"][mid]["to"] = to
        out.append(standalone(data, f"modifiers.{mid}.to: {to}"))
    return out


@operator("must-that-asks", "modifier-must-asks")
def must_that_asks(game, rng):
    """A declared modifier that asks a question (`replace`, `compel`) is made compulsory (`must: true`), declared as
    the card is dealt, when nobody may be asked anything."""
    out = []
    asking = [mid for mid, m in modifiers(game).items() if "declare" in m and ("replace" in m or "compel" in m)]
    for mid in pick(rng, asking):
        data = game.fresh()
        data["modifiers"][mid]["must"] = True
        out.append(standalone(data, f"modifiers.{mid} made must: true"))
    return out
