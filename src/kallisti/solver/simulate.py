"""Play many deals of a ruleset with a strategy and count the outcomes, with a confidence interval.

Deal `i` of a run uses the seed `seed + i` both for the shuffle and for the strategy's own random
stream, so a run is fully determined by (ruleset, deals, seed, strategy, cap), and any single deal
of it can be replayed on its own.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable

from kallisti.interpreter.game import Game
from kallisti.solver.strategies import make_strategy

DEFAULT_CAP = 2000

WON, LOST, CAPPED = "won", "lost", "capped"


@dataclass(frozen=True)
class DealOutcome:
    """How one deal ended: `won`, `lost` or `capped`, after how many player moves."""

    seed: int
    outcome: str
    moves: int


class WinRate:
    """The win rate of `won` out of `deals`, and its 95% Wilson interval."""

    won: int
    deals: int

    @property
    def win_rate(self) -> float:
        return self.won / self.deals if self.deals else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.won, self.deals)


@dataclass(frozen=True)
class SimulationResult(WinRate):
    """The totals of a simulation run; `as_dict()` is the JSON form."""

    game: str
    strategy: str
    deals: int
    won: int
    lost: int
    capped: int
    moves: int
    seconds: float
    outcomes: tuple[DealOutcome, ...] = field(default=(), repr=False)

    def as_dict(self) -> dict:
        low, high = self.ci95
        return {
            "game": self.game,
            "strategy": self.strategy,
            "deals": self.deals,
            "won": self.won,
            "lost": self.lost,
            "capped": self.capped,
            "moves": self.moves,
            "seconds": round(self.seconds, 3),
            "win_rate": self.win_rate,
            "ci95": [low, high],
        }


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion: `successes` out of `n` trials, `z` standard errors wide.

    With no trials nothing is known, and the interval is the whole of [0, 1].
    """
    if n <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= n:
        raise ValueError(f"successes must lie between 0 and {n}")
    p = successes / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


class DealPlay:
    """One deal being played by a strategy, a player move at a time (`play_deal` plays it through; a check may look
    at the game between moves)."""

    def __init__(self, rules, seed: int, strategy: str, cap: int = DEFAULT_CAP):
        self.seed, self.cap = seed, cap
        self.game = Game(rules, seed=seed)
        self.chooser = make_strategy(strategy, seed)
        # Automatic moves that follow every move need a full player step; otherwise a raw move is enough.
        self.full_steps = any(p.trigger == "each-move" for p in rules.auto)
        self.made = 0  # player moves made
        self.moves: list | None = None  # the legal moves, once `outcome()` has found them

    def outcome(self) -> str | None:
        """`won`, `lost` or `capped` when the game is over, else None (the legal moves are then in `moves`)."""
        self.moves = self.game.legal_moves()
        outcome = self.game.status(self.moves).outcome
        if outcome != "playing":
            return outcome
        return CAPPED if self.made >= self.cap else None

    def step(self) -> None:
        """The strategy makes its next move among `moves`."""
        m = self.chooser.choose(self.game, self.moves)
        if self.full_steps:
            self.game.play(m)
        else:
            self.game.apply(m)
        self.made += 1


def play_deal(rules, seed: int, strategy: str, cap: int = DEFAULT_CAP) -> DealOutcome:
    """Play one deal to its end, or until `cap` player moves have been made."""
    play = DealPlay(rules, seed, strategy, cap)
    while (outcome := play.outcome()) is None:
        play.step()
    return DealOutcome(seed, outcome, play.made)


def simulate(rules, deals: int, seed: int, strategy: str, cap: int = DEFAULT_CAP,
             progress: Callable[[DealOutcome], None] | None = None) -> SimulationResult:
    """Play `deals` games with seeds `seed`, `seed + 1`, …; `progress` is told after each one."""
    if deals < 0:
        raise ValueError("deals must not be negative")
    if cap < 0:
        raise ValueError("cap must not be negative")
    make_strategy(strategy, seed)  # refuse an unknown strategy before any work
    start = time.perf_counter()
    outcomes = []
    for i in range(deals):
        result = play_deal(rules, seed + i, strategy, cap)
        outcomes.append(result)
        if progress is not None:
            progress(result)
    seconds = time.perf_counter() - start
    count = {WON: 0, LOST: 0, CAPPED: 0}
    for o in outcomes:
        count[o.outcome] += 1
    return SimulationResult(
        game=rules.name, strategy=strategy, deals=deals, won=count[WON], lost=count[LOST], capped=count[CAPPED],
        moves=sum(o.moves for o in outcomes), seconds=seconds, outcomes=tuple(outcomes))


@dataclass(frozen=True)
class MatchSimulation:
    """The totals of bot-versus-bot matches; `as_dict()` is the JSON form (docs/model.md §13)."""

    game: str
    strategy: str
    matches: tuple  # the finished Match objects, in seed order
    seconds: float

    def as_dict(self) -> dict:
        n = len(self.matches)
        first_won = sum(1 for m in self.matches if m.result.loser is not None and m.result.loser != 0)
        first_lost = sum(1 for m in self.matches if m.result.loser == 0)
        capped = sum(1 for m in self.matches if m.turn >= m.base.match.max_turns)
        low, high = wilson(first_won, n)
        seats = []
        for s, seat in enumerate(self.matches[0].seats if self.matches else ()):
            wins = sum(1 for m in self.matches if m.result.loser is not None and m.result.loser != s)
            mean = sum(m.totals[s] for m in self.matches) / n
            imposed = sum(1 for m in self.matches for c in m.changes if c.target == s)
            seats.append({"name": seat.name, "strategy": seat.strategy, "wins": wins, "mean_score": round(mean, 2),
                          "changes_imposed_on": imposed})
        by_text: dict[str, int] = {}
        for m in self.matches:
            for c in m.changes:
                by_text[c.text] = by_text.get(c.text, 0) + 1
        return {
            "game": self.game, "strategy": self.strategy, "deals": n, "won": first_won, "lost": first_lost,
            "capped": capped, "moves": sum(len([e for e in m.events if e["type"] == "move"]) for m in self.matches),
            "seconds": round(self.seconds, 3), "win_rate": first_won / n if n else 0.0, "ci95": [low, high],
            "seats": seats,
            "turns": sum(m.turn for m in self.matches),
            "changes": {"imposed": sum(len(m.changes) for m in self.matches),
                        "revoked": sum(1 for m in self.matches for c in m.changes if not c.active),
                        "by_change": dict(sorted(by_text.items(), key=lambda kv: (-kv[1], kv[0])))},
            "results": [{"seed": m.seed, "loser": None if m.result.loser is None else m.seats[m.result.loser].name,
                         "totals": list(m.totals), "turns": m.turn, "changes": len(m.changes)} for m in self.matches],
        }


def simulate_matches(rules, matches: int, seed: int, strategy: str,
                     progress: Callable[[object], None] | None = None) -> MatchSimulation:
    """Play `matches` bot-versus-bot matches with seeds `seed`, `seed + 1`, …; every seat plays `strategy`."""
    from kallisti.interpreter.match import Match, Seat
    from kallisti.solver.bots import Bots

    make_strategy(strategy, seed)  # refuse an unknown strategy before any work
    start = time.perf_counter()
    done = []
    for i in range(matches):
        seats = [Seat(f"bot{s + 1}", strategy) for s in range(rules.match.seats)]
        match = Match(rules, seats, seed + i)
        Bots(match).act()
        done.append(match)
        if progress is not None:
            progress(match)
    return MatchSimulation(rules.name, strategy, tuple(done), time.perf_counter() - start)
