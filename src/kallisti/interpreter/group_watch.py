"""A pile rule's verdicts by card, kept while the piles of the groups its clauses read stay as they were."""

from __future__ import annotations

from kallisti.interpreter.rule_reads import groups_read


class GroupWatch:
    """Judges a build or empty rule's clauses beyond its tables (`residual_allows`, as the rule does) when they read
    nothing of a move but its card, and of the position only the piles of named groups (`rule_reads.groups_read`:
    `forbid: any(p in kings: p.size > 0 and p.cards.bottom.suit == card.suit)`): a verdict is then a function of the
    card and those piles, so it is kept by card until one of those piles changes (its cards, or how many lie face
    down), which the next judgement sees by comparing them with the copy taken when the verdicts were kept. A clause
    that fails keeps nothing: it is judged again, its failure noted, each time."""

    __slots__ = ("rule", "piles", "cards", "down", "verdicts")

    def __init__(self, rule, piles: tuple) -> None:
        self.rule, self.piles = rule, piles
        self.cards: list | None = None  # the watched piles' cards, and face-down counts, when the verdicts were kept
        self.down: list | None = None
        self.verdicts: dict[int, bool] = {}

    def stand(self, st) -> dict[int, bool]:
        """The verdicts kept by card, forgotten first when a watched pile of `st` changed since they were kept."""
        piles = self.piles
        now = list(map(st.piles.__getitem__, piles))
        if now != self.cards or list(map(st.down.__getitem__, piles)) != self.down:
            self.verdicts.clear()
            self.cards, self.down = list(map(list, now)), list(map(st.down.__getitem__, piles))
        return self.verdicts

    def residual_allows(self, ctx) -> bool:
        """The rule's `residual_allows(ctx)`, kept by `ctx.card` while the watched piles stand."""
        verdicts = self.stand(ctx.state)
        ok = verdicts.get(ctx.card)
        if ok is None:
            ok = verdicts[ctx.card] = bool(self.rule.residual_allows(ctx))
        return ok


def watched_piles(rules, rule) -> tuple | None:
    """The piles a `GroupWatch` of `rule` watches, when its clauses beyond its tables read of the position only the
    piles of named groups, and of a move only its card (`groups_read`); else None."""
    groups = groups_read(rules, rule) if rule.residual else None
    if not groups:
        return None  # it reads more, or nothing of the position (kept by other means, when at all)
    return tuple(p for name in sorted(groups) for p in rules.groups[name].piles)


def watch_rules(groups, gindex, build_watched: list, empty_watched: list) -> tuple:
    """A game's judges of its groups' build and empty rules beyond their tables: per group, the rule, or a
    `GroupWatch` of it over the piles `build_watched` (`empty_watched`) names; the watches; and per pile (`gindex`:
    its group), the verdicts its build rule's and its empty rule's watch keeps, or None. A game has its own watches:
    what they keep holds for its position alone."""
    builds = [g.build if piles is None else GroupWatch(g.build, piles) for g, piles in zip(groups, build_watched)]
    empties = [g.empty if piles is None else GroupWatch(g.empty, piles) for g, piles in zip(groups, empty_watched)]
    watches = [w for w in builds + empties if isinstance(w, GroupWatch)]
    if not watches:
        return builds, empties, watches, (), ()
    kept = [[j.verdicts if isinstance(j, GroupWatch) else None for j in judges] for judges in (builds, empties)]
    return builds, empties, watches, [kept[0][gi] for gi in gindex], [kept[1][gi] for gi in gindex]
