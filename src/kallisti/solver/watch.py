"""Watching foundations in a play-test: each pile must hold cards its rules accept card by card from its base."""

from __future__ import annotations

from kallisti.interpreter import compiler as C
from kallisti.model.runs import refusal, verified_groups


class FoundationWatch:
    """The foundation piles of `verified_groups`, judged whenever their cards change: the base by the group's `empty`
    rule (or its `prefill`), each next card by its `build` rule on the card under it, as if it had moved alone."""

    def __init__(self, rules):
        self.rules = rules
        self.groups = {p: rules.groups[name] for name in verified_groups(rules) for p in rules.groups[name].piles}
        self.seen: dict[int, tuple] = {}  # pile -> (size, top card) when last judged
        self.ctx = C.Ctx()

    def fault(self, game, moves: list[int] = ()) -> tuple[str, object] | None:
        """(what is wrong, the clause that refuses) for the first watched pile whose cards changed since the last call
        and that its rules refuse card by card; `moves`, the moves just made, name the ones that put cards there."""
        piles = game.state.piles
        for p, group in self.groups.items():
            pile = piles[p]
            now = (len(pile), pile[-1] if pile else -1)
            if self.seen.get(p) == now:
                continue
            self.seen[p] = now
            found = self._judge(group, pile, game.state.no_card)
            if found is not None:
                return self._describe(game, p, group, pile, moves, *found), found[2]
        return None

    def _judge(self, group, pile, no_card):
        """(position, key, clause) of the first card of `pile` its group's rules refuse card by card, or None."""
        for i, card in enumerate(pile):
            if i == 0:
                if group.prefill is not None and self._prefilled(group, card):
                    continue
                clause = refusal(group.empty, card, no_card, self.ctx)
                key = "empty"
            else:
                clause = refusal(group.build, card, pile[i - 1], self.ctx)
                key = "build"
            if clause is not None:
                return i, key, clause
        return None

    def _prefilled(self, group, card) -> bool:
        self.ctx.card = card
        try:
            return bool(group.prefill(self.ctx))
        except C.RuleRuntimeError:
            return False

    def _describe(self, game, p, group, pile, moves, i, key, clause) -> str:
        rules, name = self.rules, game.deck.name
        tag = rules.tag_of[p]
        what = f"{name(pile[i])} on {name(pile[i - 1])}" if key == "build" else f"{name(pile[i])} as its first card"
        by = [_written(game, m) for m in moves if _lands_on(game, m, p)]
        placed = f" (placed by {', '.join(by)})" if by else ""
        return (f"{tag} holds {' '.join(name(c) for c in pile)}{placed}, but piles.{group.name}.{key} refuses {what} "
                f"when judged card by card (clause {clause.id}: `{clause.text}`)")


def _lands_on(game, m: int, p: int) -> bool:
    kind, _, dst, _ = game.decode(m)
    return kind in ("move", "discard") and dst == p


def _written(game, m: int) -> str:
    """A move as `kallisti play` takes it: source, target and the number of cards."""
    kind, src, dst, n = game.decode(m)
    tags = game.rules.tag_of
    return f"{tags[src]} {tags[dst]} {n}" if kind == "move" else f"a discard from {tags[src]}"
