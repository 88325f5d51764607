"""Operators whose mutants validate but fail in play, found by `kallisti check` (the "play" stage); and one engine
mutant, since no ruleset can make a correct engine lose a card."""

from __future__ import annotations

from contextlib import contextmanager
from unittest import mock

from kallisti.interpreter.game import Game
from kallisti.model.ruleset import load_ruleset

from .base import BIG, Shipped, add_clause, as_text, dealt, live_rules, operator, pick, piles, standalone


def layout_weight(game: Shipped) -> tuple[str, int]:
    """An expression for the sum, over every pile, of (its number in the layout, from 1) times its size, and its value
    after the first deal: a move of n cards from pile a to pile b changes it by n * (b - a), never by 0."""
    rules = load_ruleset(game.path)
    terms = [f"sum(p in {name}: ({g.piles.start} + p.index) * p.size)" for name, g in rules.groups.items()]
    state = Game(rules, seed=1).state
    return " + ".join(terms), sum((i + 1) * len(pile) for i, pile in enumerate(state.piles))


@operator("overflowing-lose", "check-exception", plays=True)
def overflowing_lose(game, rng):
    """A lose condition is added whose product passes 10^18 as soon as any card has moved: it weighs every pile's size
    by the pile's place in the layout, and multiplies how far that weight is from its value after the deal by 10^18
    and by 2 to 9. It validates, and fails once play has begun."""
    if not piles(game.data):
        return []
    weight, start = layout_weight(game)
    data = game.fresh()
    factor = rng.randint(2, 9)
    when = f"abs({weight} - {start}) * {BIG} * {BIG} * {factor} == 1"  # a multiple of 10^18: never 1
    data["lose"] = list(data["lose"]) + [{"id": "overflow", "when": when, "says": "never lost this way"}]
    return [standalone(data, f"lose condition overflowing once a card moves (factor {factor})")]


@operator("erring-take", "check-rule-error", plays=True)
def erring_take(game, rng):
    """A group dealt two or more rows, whose take rule allows something, gets a take clause whose product passes 10^18
    for a pile of two or more cards (`forbid: pile.size * 10^9 * 10^9 < 0`): judging whether cards may leave such a
    pile fails, while a pile of one card is judged."""
    def stacked(g):
        return g["deal"] != "rest" and dealt(g) >= 2 * g["count"]
    groups = [n for n, _ in live_rules(game.data, ("take",)) if stacked(piles(game.data)[n])]
    return [standalone(add_clause(game.fresh(), name, "take", "forbid", f"pile.size * {BIG} * {BIG} < 0"),
                       f"piles.{name}.take fails for piles of two or more cards") for name in pick(rng, groups)]


LOCK = "pile.size > deck.size"  # no pile ever holds more cards than the deck


@operator("locked-layout", "check-all-dead", plays=True)
def locked_layout(game, rng):
    """Every group's take rule, and its dealing and discard rules, require a pile larger than the deck, which no pile
    ever is, and redeals are taken away: no card can move and every deal is dead from the start. The rules read the
    position, which validation takes at its most permissive, so it is play that shows it."""
    if not piles(game.data):
        return []
    data = game.fresh()
    for group in piles(data).values():
        for key in ("take", "dealing", "discard"):
            if key in group:
                group[key] = [{"id": "locked", "require": LOCK}]
        group["redeals"] = 0
        group.pop("redeal", None)
    return [standalone(data, "every group locked")]


@contextmanager
def dropping_engine():
    """The engine with a fault: a move of cards from pile to pile loses the top card of the pile it lands on."""
    apply = Game.apply

    def faulty(self, m):
        undo = apply(self, m)
        kind, _, dst, _ = self.decode(m)
        if kind == "move" and self.state.piles[dst]:
            self.state.piles[dst].pop()
            self.state.sizes[self.rules.group_of[dst]] -= 1
            self._refresh(dst)
        return undo

    with mock.patch.object(Game, "apply", faulty):
        yield


@operator("card-dropping-engine", "check-conservation", plays=True)
def card_dropping_engine(game, rng):
    """An engine mutant, not a ruleset one: the game is played as shipped by an engine whose moves lose the top card of
    the pile they land on (`Game.apply` patched). No ruleset can make a correct engine lose a card, so this is how
    the conservation check is tested. Only games with moves from pile to pile (some take rule and some build or empty
    rule allow something) are played so."""
    if not live_rules(game.data, ("take",)) or not live_rules(game.data, ("build", "empty")):
        return []
    return [as_text(game.text(game.syntax), game.syntax, "as shipped, played by an engine that drops moved cards",
                    dropping_engine)]
