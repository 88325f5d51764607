"""Table bots (cautious and bold draws, judged with the hand evaluator) and whole rounds played by bots."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from kallisti.interpreter.hands import HandEvaluator
from kallisti.interpreter.table import Round, TableError

BOTS = ("cautious", "bold")


def choose_discards(rnd: Round, seat: int, evaluator: HandEvaluator, kind: str) -> list[int]:
    """The cards a bot exchanges, from what it may see (its own hand): the cards its best partition leaves out.

    A bold bot throws away every unused card it may; a cautious one keeps aces and cards worth ten
    (the makings of onions and pontoons) and exchanges only the rest.
    """
    view = rnd.view(seat)
    hand = view["hand"]
    unused = list(evaluator.evaluate(hand).unused)
    deck = rnd.rules.deck
    if kind == "cautious":
        unused = [c for c in unused if max(deck.values[c]) < 10]
    # Lowest-valued first: they are the least use in onions.
    unused.sort(key=lambda c: (max(deck.values[c]), c))
    return unused[: rnd.rules.table.draw_most]


@dataclass
class TableRecord:
    """What a run of bot rounds showed: who won, with which grouping, and how the rounds went."""

    game: str
    rounds: int
    players: tuple[str, ...]
    wins: list = field(default_factory=list)
    by_grouping: Counter = field(default_factory=Counter)
    showdowns: int = 0
    ties: int = 0
    cripples: int = 0
    cards_exchanged: int = 0
    sat_out: int = 0
    stacks: list | None = None  # chips at the end, when the table plays for money
    played: int = 0  # rounds played: fewer than asked when all the chips end with one player
    seconds: float = 0.0

    def as_dict(self) -> dict:
        return {"game": self.game, "rounds": self.rounds, "players": list(self.players), "wins": list(self.wins),
                "won_with": dict(self.by_grouping.most_common()), "showdowns": self.showdowns,
                "ties_to_seniority": self.ties, "cripples": self.cripples, "cards_exchanged": self.cards_exchanged,
                "played": self.played, "sat_out": self.sat_out,
                **({"stacks": list(self.stacks)} if self.stacks is not None else {}), "seconds": round(self.seconds, 3)}


def simulate_rounds(rules, rounds: int, seed: int, players: list[str], progress=None) -> TableRecord:
    """Play `rounds` rounds between bots (`cautious` or `bold` per seat); the winner of a round deals the next."""
    evaluator = HandEvaluator(rules)
    record = TableRecord(rules.name, rounds, tuple(players), wins=[0] * len(players))
    dealer = 0
    table = rules.table
    stacks = [table.chips] * len(players) if table.stake else None
    record.stacks = stacks
    start = time.perf_counter()
    for number in range(rounds):
        try:
            rnd = Round(rules, len(players), dealer=dealer, seed=seed, number=number, stacks=stacks)
        except TableError:
            break  # one player holds every chip that can cover a stake: the table is over
        record.sat_out += sum(e["type"] == "sit-out" for e in rnd.events)
        while rnd.waiting is not None:
            seat = rnd.waiting
            cards = choose_discards(rnd, seat, evaluator, players[seat])
            record.cards_exchanged += len(cards)
            rnd.exchange(seat, cards)
        result = rnd.showdown(evaluator)
        if rnd.card_count() != rules.deck.size:
            raise AssertionError(f"round {number}: {rnd.card_count()} cards, the pack has {rules.deck.size}")
        if stacks is not None and rnd.chip_count() != table.chips * len(players):
            raise AssertionError(f"round {number}: {rnd.chip_count()} chips, the table began with {table.chips * len(players)}")
        record.played += 1
        record.wins[result.winner] += 1
        record.showdowns += result.showdown
        record.ties += bool(result.tied)
        if result.shown:
            mine = result.shown[result.winner]
            others = [e for s, e in result.shown.items() if s != result.winner]
            crippler = evaluator.crippler(mine, others)
            record.cripples += crippler is not None
            record.by_grouping[crippler.by if crippler else (mine.top or "nothing")] += 1
        dealer = result.winner
        if progress:
            progress(number)
    record.seconds = time.perf_counter() - start
    return record
