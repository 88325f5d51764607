"""What evaluating a hand gives: its groups, its best partition, and the step counter of the search."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Group:
    """One grouping found in a hand: its grouping's id, name and rank, and its cards (physical card ids)."""

    id: str
    name: str
    rank: int
    cards: tuple[int, ...]
    nulls: int = 0  # cards that joined the group as nothing (`hands.nulls`): fewer wins a tie of equal rank
    wild: int = 0  # wild cards standing in for others (`hands.wild`)


@dataclass(frozen=True)
class Evaluation:
    """A hand's best partition: its groups, highest first, the cards left out, and what the search cost."""

    cards: tuple[int, ...]
    groups: tuple[Group, ...]
    unused: tuple[int, ...]
    holds: frozenset  # every grouping some set of the hand's cards forms (cripples look here)
    steps: int
    complete: bool  # False: the budget ran out and the partition is the best found so far
    keys: tuple = ()  # what partitions compare: each group's (rank, -nulls, wild tie-break), highest first
    fewest_wild: dict = field(default_factory=dict)  # grouping id -> the fewest wild cards of a set forming it
    stand_ins: tuple = ()  # (card, the stand-in it was judged as): devalued or shifted cards
    wild_devalued: tuple = ()  # (wild card, devaluation id): a wild card that stands for the devaluation's cards as devalued

    @property
    def ranks(self) -> tuple[int, ...]:
        """The groups' ranks, highest first (a longer tuple wins a tie of its prefix)."""
        return tuple(g.rank for g in self.groups)

    @property
    def top(self) -> str | None:
        """The id of the highest grouping, or None for a hand with no grouping."""
        return self.groups[0].id if self.groups else None


class BudgetSpent(Exception):
    """The search took more steps than the ruleset's `hands.budget`."""


@dataclass
class Steps:
    """The work of evaluating one hand, every variant of it included: a step counter checked against the budget."""

    budget: int
    steps: int = 0
    approximate: bool = False  # some set's wild cards had more ways of standing in than were tried

    def step(self, n: int = 1) -> None:
        self.steps += n
        if self.steps > self.budget:
            raise BudgetSpent
