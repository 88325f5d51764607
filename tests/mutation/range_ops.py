"""Operators on the numbers a shipped ruleset's win, lose conditions and score compare, written back as a standalone
YAML file: comparisons that no position can make hold, because no group ever holds more cards than the deck, nor a
group no card can reach more than were dealt to it."""

from __future__ import annotations

from .base import Shipped, dealt, operator, pick, piles, refuses_all, rest_size, standalone


def unreached(game: Shipped) -> dict[str, int]:
    """The groups no card can ever reach, with the cards dealt to them: nothing may be built on them or put in their
    spaces, they neither redeal nor refill, and no other group turns, deals, diverts or discards cards to them."""
    groups = piles(game.data)
    fed = set()
    for g in groups.values():
        fed.add(g.get("turn", {}).get("to"))
        fed.update(g.get("redeal", {}).get("deal", []))
        fed.add(g.get("discard_to"))
        fed.add(g.get("divert", {}).get("to"))
    out = {}
    for name, g in groups.items():
        if name in fed or "redeal" in g or "refill" in g or g.get("redeals", 0) != 0:
            continue
        if refuses_all(g["build"]) and refuses_all(g["empty"]):
            out[name] = rest_size(game, game.data) if g["deal"] == "rest" else dealt(g)
    return out


def beyond_deck(game: Shipped, rng) -> str:
    """A condition no position meets: a group, a pile or two groups together holding more cards than the deck, or a
    group no card reaches holding more than were dealt to it; written in one of several forms."""
    groups = sorted(piles(game.data))
    x = rng.choice(groups)
    y = rng.choice([g for g in groups if g != x] or [x])
    k = rng.randint(1, 9)
    forms = [f"{x}.size == deck.size + {k}", f"{x}.size > deck.size", f"deck.size < {x}.size",
             f"{x}.size - deck.size >= {k}", f"sum(p in {x}: p.size) > deck.size", f"any(p in {x}: p.size > deck.size)",
             f"not ({x}.size <= deck.size)", f"2 * {x}.size > 2 * deck.size + {k - 1}",
             f"count(p in {x}: p.size > deck.size) > 0", f"abs({x}.size - {y}.size) > deck.size"]
    if y != x:
        forms.append(f"{x}.size + {y}.size >= deck.size + {k}")
    for name, n in unreached(game).items():
        forms.append(f"{name}.size == {n + k}")
        forms.append(f"{name}.size > {n}")
    return rng.choice(forms)


@operator("win-beyond-the-deck", "win-unreachable")
def win_beyond_the_deck(game, rng):
    """The win asks for a group, a pile or two groups together to hold more cards than the deck has (`foundation.size
    == deck.size + 1`, `foundation.size > deck.size`, `sum(p in tableau: p.size) > deck.size`...), or a group no
    card can reach to hold more than were dealt to it (`stock.size == 65` when 64 are dealt to it), alone or with the
    game's own win: no position ever meets it, so the game can never be won."""
    if not piles(game.data) or "win" not in game.data:
        return []
    out = []
    for _ in range(3):
        data = game.fresh()
        condition = beyond_deck(game, rng)
        data["win"] = condition if rng.random() < 0.7 else f"{data['win']} and {condition}"
        out.append(standalone(data, f"win: `{data['win']}`"))
    return out


@operator("lose-beyond-the-deck", "lose-never-true")
def lose_beyond_the_deck(game, rng):
    """A lose condition is added that asks for a group, a pile or two groups together to hold more cards than the deck,
    or a group no card can reach to hold more than were dealt to it: no position meets it, so the game is never lost
    that way."""
    if not piles(game.data):
        return []
    out = []
    for _ in range(3):
        data = game.fresh()
        condition = beyond_deck(game, rng)
        data["lose"] = list(data.get("lose", [])) + [{"id": "beyond", "when": condition, "says": "never lost this way"}]
        out.append(standalone(data, f"lose condition `{condition}`"))
    return out


@operator("constant-comparison-in-score", "constant-comparison")
def constant_comparison_in_score(game, rng):
    """A comparison that holds for every position, or for none, is put inside the score (it counts the piles of a
    group larger than the deck, or of a negative size) or joined to the game's win (`... and waste.size >= 0`,
    `... or waste.size > deck.size`), where the whole still can hold: the comparison decides nothing."""
    if not piles(game.data):
        return []
    groups = sorted(piles(game.data))
    out = []
    for _ in range(3):
        data = game.fresh()
        x = rng.choice(groups)
        forms = [("score", f"{data.get('score', 0)} + count(p in {x}: p.size > deck.size)"),
                 ("score", f"{data.get('score', 0)} - count(p in {x}: p.size < 0)"),
                 ("score", f"{data.get('score', 0)} + count(p in {x}: p.size <= deck.size)")]
        if "win" in data:
            forms += [("win", f"{data['win']} and {x}.size >= 0"), ("win", f"{data['win']} or {x}.size > deck.size")]
        key, text = rng.choice(forms)
        data[key] = text
        out.append(standalone(data, f"{key}: `{text}`"))
    return out
