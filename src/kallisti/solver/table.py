"""Table bots (cautious and bold draws, judged with the hand evaluator) and whole rounds played by bots."""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from kallisti.interpreter.hands import HandEvaluator
from kallisti.interpreter.table import Round, TableError, evaluator_for

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


def strength(rnd: Round, seat: int, evaluator: HandEvaluator) -> int:
    """A bot's judgement of its hand: the rank of the best grouping among the cards it holds (0 for none)."""
    result = evaluator.evaluate(rnd.view(seat)["hand"])
    return result.ranks[0] if result.ranks else 0


def bet_choice(rnd: Round, seat: int, evaluator: HandEvaluator, kind: str, what: str) -> tuple:
    """A bot's betting action, from its own hand and the chips it can see: the arguments of `Round.bet`.

    A bold bot bets and raises on a fair hand; a cautious one names little, raises nothing, and folds
    a weak hand facing a bet.
    """
    table = rnd.rules.table
    if what == "declare":
        return (wants_declared(rnd, seat, evaluator),)
    if what == "choose":  # the offered card that makes the best hand, judged under the bot's own rules
        mine = rnd.view(seat)["hand"]
        own = rnd.seat_evaluator(seat, evaluator)
        return (max(rnd.offer, key=lambda c: (own.evaluate(mine + [c]).ranks, -c)),)
    if what == "reveal":
        return (card_to_reveal(rnd, seat, evaluator),)
    s = strength(rnd, seat, evaluator)
    stack = rnd.stacks[seat]
    bold = kind == "bold"
    if what == "name":
        amount = (1 + s // 40) if bold else (1 if s >= 40 else 0)
        return (min(amount * table.stake, table.max_bet, stack),)
    if what == "answer":
        amount = rnd.betting.amount
        if amount > stack or (s < (20 if bold else 40) and amount > (2 if bold else 1) * table.stake):
            return (False, 0)
        raise_by = min(table.max_bet, s // 40, stack - amount) if bold and s >= 80 and rnd.betting.raises_allowed() else 0
        return (True, max(raise_by, 0))
    if what == "cover":
        total = sum(rnd.betting.aside.values())
        return (total <= stack and (s >= (20 if bold else 60) or total <= table.stake),)
    if what == "buy":  # a bold bot hides two of its second cards when it can afford them
        return (min(2, table.buy, table.second, stack // table.stake) if bold and s >= 40 else 0,)
    if what == "extra":
        return (min(table.max_bet, s // 40, stack) if bold and s >= 60 else 0,)
    if what == "accept":
        cost = sum(c for x, c in rnd.extra.items() if x != seat)
        if seat == rnd.dealer:  # ten cards are in: a cautious dealer wants a strong hand to take on the extra bets
            return (cost <= stack and (s >= (60 if bold else 100) or cost <= table.stake),)
        return (cost <= stack and s >= (100 if bold else 130) and cost <= 3 * table.stake,)
    # The auction: a strong hand bids for the dealership while the price stays low.
    price = rnd.betting.high + table.stake - rnd.betting.aside.get(seat, 0)
    limit = 3 if bold else 2
    return (price <= stack and s >= (60 if bold else 100) and rnd.betting.high < limit * table.stake,)


def wants_declared(rnd: Round, seat: int, evaluator: HandEvaluator) -> bool:
    """Whether a bot declares the modifier it is asked about, from what it may see.

    A modifier that replaces its card is declared when the best partition leaves the card out.
    Otherwise the bot judges its own hand under the rules it would have with the modifier in play
    and without: it declares when that is better, or when it is no worse and the modifier changes
    some other seat's hand (so it can only harm, or change, the others). Whether nobody holds a
    compelled card is unknown to it: it guesses so when the card is nowhere it can see.
    """
    view = rnd.view(seat)
    mine = view["hand"]
    m = rnd.modifiers[rnd.declaring]
    kind = rnd.rules.deck.kind
    if m.replace:  # trade the card in when the best partition leaves it out
        own = rnd.seat_evaluator(seat, evaluator)
        return any(kind[c] == m.declare for c in own.evaluate(mine).unused)
    seen = mine + [c for o in view["others"].values() for c in o["face_up"]]
    unheld = set(rnd.unheld) | ({m.id} if m.compel is not None and all(kind[c] != m.compel for c in seen) else set())
    in_play = view["in_play"] + [(m.id, seat)]
    before = rnd.seat_evaluator(seat, evaluator).evaluate(mine).ranks
    after = rnd.seat_evaluator(seat, evaluator, in_play, unheld).evaluate(mine).ranks
    if after != before:
        return after > before
    return bool(rnd.targets(m.id, in_play) - {seat})


def card_to_reveal(rnd: Round, seat: int, evaluator: HandEvaluator) -> int:
    """The face-down card a bot lays face up when compelled to: one its best partition leaves unused, else its
    lowest-valued card (the least use to the others' reading of its hand)."""
    view = rnd.view(seat)
    down = [c for c in view["hand"] if c not in view["face_up"]]
    unused = set(rnd.seat_evaluator(seat, evaluator).evaluate(view["hand"]).unused)
    values = rnd.rules.deck.values
    return min(down, key=lambda c: (c not in unused, max(values[c]), c))


def play_bot_turns(rnd: Round, evaluator: HandEvaluator, kinds: list[str | None], record=None) -> None:
    """Let the bots act while it is a bot's turn (a seat whose kind is None is a person: stop there)."""
    while rnd.asks is not None:
        seat, what = rnd.asks
        kind = kinds[seat]
        if kind is None:
            return
        if what == "draw":
            cards = choose_discards(rnd, seat, evaluator, kind)
            if record is not None:
                record.cards_exchanged += len(cards)
            rnd.exchange(seat, cards)
        else:
            if record is not None and what == "bid":
                record.auction_bids += 1
            rnd.bet(seat, what, *bet_choice(rnd, seat, evaluator, kind, what))


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
    auctions: int = 0
    declared: Counter = field(default_factory=Counter)  # rounds each modifier was in play, by id
    nulls: int = 0  # rounds whose showdown showed a hand using a null card
    bought: int = 0
    passes: int = 0
    auction_bids: int = 0
    carried: int = 0  # rounds whose pot went on to the next one
    folds: int = 0
    stacks: list | None = None  # chips at the end, when the table plays for money
    played: int = 0
    tables: int = 1  # a table ends when one player holds every chip that can cover a stake; the next begins afresh
    seconds: float = 0.0

    def as_dict(self) -> dict:
        return {"game": self.game, "rounds": self.rounds, "players": list(self.players), "wins": list(self.wins),
                "won_with": dict(self.by_grouping.most_common()), "showdowns": self.showdowns,
                "ties_to_seniority": self.ties, "cripples": self.cripples, "cards_exchanged": self.cards_exchanged,
                "played": self.played, "tables": self.tables, "sat_out": self.sat_out, "auctions": self.auctions, "carried_over": self.carried,
                "cards_bought": self.bought, "dealership_passes": self.passes, "modifiers_in_play": dict(self.declared),
                "nulls_played": self.nulls, "folds": self.folds,
                **({"stacks": list(self.stacks)} if self.stacks is not None else {}), "seconds": round(self.seconds, 3)}


def simulate_rounds(rules, rounds: int, seed: int, players: list[str], progress=None) -> TableRecord:
    """Play `rounds` rounds between bots (`cautious` or `bold` per seat); the winner of a round deals the next."""
    evaluator = HandEvaluator(rules)
    record = TableRecord(rules.name, rounds, tuple(players), wins=[0] * len(players))
    dealer = 0
    table = rules.table
    stacks = [table.chips] * len(players) if table.stake else None
    record.stacks = stacks
    carry, after = 0, frozenset()
    start = time.perf_counter()
    for number in range(rounds):
        try:
            rnd = Round(rules, len(players), dealer=dealer, seed=seed, number=number, stacks=stacks, carry=carry,
                        after=after)
        except TableError:
            # One player holds every chip that can cover a stake: that table is over, and a new one sits down.
            record.tables += 1
            stacks[:] = [table.chips] * len(players)
            carry = 0
            rnd = Round(rules, len(players), dealer=dealer, seed=seed, number=number, stacks=stacks, after=after)
        record.sat_out += sum(e["type"] == "sit-out" for e in rnd.events)
        play_bot_turns(rnd, evaluator, list(players), record)
        result = rnd.showdown(evaluator)
        record.auctions += sum(e["type"] == "auction" for e in rnd.events)
        record.folds += sum(e["type"] == "fold" for e in rnd.events)
        record.bought += sum(e["count"] for e in rnd.events if e["type"] == "buy")
        record.passes += sum(e["type"] == "pass" for e in rnd.events)
        for mid in rnd.declared:  # however each came into play: declared, by itself, or at the round's start
            record.declared[mid] += 1
        record.nulls += "nulls" in result.follows
        if rnd.card_count() != rules.deck.size:
            raise AssertionError(f"round {number}: {rnd.card_count()} cards, the pack has {rules.deck.size}")
        if stacks is not None and rnd.chip_count() + result.carried != table.chips * len(players):
            raise AssertionError(f"round {number}: {rnd.chip_count()} chips, the table began with {table.chips * len(players)}")
        record.played += 1
        carry, after = result.carried, result.follows
        if result.winner is None:
            record.carried += 1
            dealer = rnd.dealer  # the old dealer stays dealer
            continue
        record.wins[result.winner] += 1
        record.showdowns += result.showdown
        record.ties += bool(result.tied)
        if result.shown:
            mine = result.shown[result.winner]
            others = [e for s, e in result.shown.items() if s != result.winner]
            judge = evaluator_for(evaluator, rnd.common_entries())  # hands are compared under the rules common to all
            crippler = judge.crippler(mine, others)
            record.cripples += crippler is not None
            record.by_grouping[crippler.by if crippler else (mine.top or "nothing")] += 1
        dealer = result.winner
        if progress:
            progress(number)
    record.seconds = time.perf_counter() - start
    return record
