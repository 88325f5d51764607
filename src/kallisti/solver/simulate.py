"""Play many deals of a ruleset with a strategy and count the outcomes, with a confidence interval.

Deal `i` of a run uses the seed `seed + i` both for the shuffle and for the strategy's own random
stream (the solver has none), so a run is fully determined by (ruleset, deals, seed, strategy and
its budget: the move cap, or the solver's positions), and any single deal of it can be replayed on
its own. With a `numbering` (`ms`, `pysol`: kallisti.interpreter.world_deals), deal `i` is instead the world's deal
number `seed + i`, laid out as `--deal ms:N` or `--deal pysol:N` lays it out, the strategy's stream still seeded by
that number. Deals may be played in other processes or on a Ray cluster (`kallisti.solver.parallel`) and
recorded in a journal that an interrupted run resumes from (`kallisti.solver.journal`); the outcomes
are merged in seed order, so the totals are the same however the deals were played.
"""

from __future__ import annotations

import json
import math
import time
from contextlib import closing
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from kallisti.interpreter.game import Game
from kallisti.interpreter.save import ruleset_hash
from kallisti.interpreter.world_deals import world_deal_order
from kallisti.solver.journal import Journal, JournalError
from kallisti.solver.parallel import outcomes as played_outcomes
from kallisti.solver.solve import DEFAULT_STATES, NO_WIN, PORTFOLIO, WON as SOLVED, SearchOptions, solve
from kallisti.solver.strategies import STRATEGIES, RandomStrategy, make_strategy

DEFAULT_CAP = 2000
SOLVER = "solver"

WON, LOST, CAPPED, UNKNOWN = "won", "lost", "capped", "unknown"
NUMBERINGS = {"ms": "Microsoft deals", "pysol": "PySolFC games"}  # world numberings a run may play, and what it says


@dataclass(frozen=True)
class DealOutcome:
    """How one deal ended: `won`, `lost`, `capped` (a strategy's move cap) or `unknown` (the solver's budget), after
    how many player moves (the solver: its winning line's); the solver's positions searched, and the seconds taken."""

    seed: int
    outcome: str
    moves: int
    states: int = 0
    seconds: float = field(default=0.0, compare=False)


class WinRate:
    """The win rate of `won` out of `deals`, and its 95% Wilson interval, made conservative by the `unknown` deals:
    its low end counts them lost and its high end counts them won."""

    won: int
    deals: int
    unknown = 0

    @property
    def win_rate(self) -> float:
        return self.won / self.deals if self.deals else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson(self.won, self.deals)[0], wilson(self.won + self.unknown, self.deals)[1]


@dataclass(frozen=True)
class Plan:
    """How every deal of a run is played: the strategy, its move cap, the solver's budget, and the numbering the deal
    numbers are in (None: kallisti's own seeds)."""

    strategy: str
    cap: int = DEFAULT_CAP
    states: int = DEFAULT_STATES  # the solver's most positions a deal
    seconds: float | None = None  # the solver's most seconds a deal (then `unknown` depends on the machine)
    safe_moves: bool = True  # whether the solver plays its safe moves without trying the others
    numbering: str | None = None  # a world numbering (NUMBERINGS) the deal numbers are in
    search: str = PORTFOLIO  # how the solver searches (solve.SEARCHES)

    def __post_init__(self):
        if self.strategy not in (*STRATEGIES, SOLVER):
            raise ValueError(f"unknown strategy {self.strategy!r}; choose from {', '.join((*STRATEGIES, SOLVER))}")
        if self.numbering is not None and self.numbering not in NUMBERINGS:
            raise ValueError(f"unknown numbering {self.numbering!r}; choose from {', '.join(NUMBERINGS)}")
        if self.cap < 0:
            raise ValueError("cap must not be negative")
        if self.states < 1:
            raise ValueError("states must be at least 1")

    @property
    def budget(self) -> dict:
        """What bounds a deal: the solver's positions and seconds (and `safe_moves: false` when they are off), or a
        strategy's moves. A journal's header holds it, so a journal of a run searched otherwise is refused."""
        if self.strategy != SOLVER:
            return {"cap": self.cap}
        return {"states": self.states, "seconds": self.seconds, "search": self.search,
                **({} if self.safe_moves else {"safe_moves": False})}

    @property
    def per_task(self) -> int:
        """The most deals a worker plays in one task: one for the solver (a deal may take minutes), else 16."""
        return 1 if self.strategy == SOLVER else 16

    def deal(self, rules, seed: int) -> Game:
        """The deal `seed` as it begins: kallisti's deal `seed`, or the world's deal number `seed` in the numbering."""
        if self.numbering is None:
            return Game(rules, seed=seed)
        return Game(rules, seed=None, order=world_deal_order(rules, f"{self.numbering}:{seed}"))

    def play(self, rules, seed: int) -> DealOutcome:
        """Play the deal `seed` to its end."""
        if self.strategy != SOLVER:
            start = time.perf_counter()
            o = play_deal(rules, seed, self.strategy, self.cap, game=self.deal(rules, seed))
            return DealOutcome(seed, o.outcome, o.moves, seconds=time.perf_counter() - start)
        options = SearchOptions(states=self.states, seconds=self.seconds, safe_moves=self.safe_moves, search=self.search)
        s = solve(rules, seed, options, game=self.deal(rules, seed))
        outcome = WON if s.verdict == SOLVED else LOST if s.verdict == NO_WIN else UNKNOWN
        return DealOutcome(seed, outcome, len(s.line), s.states, s.seconds)


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
    unknown: int = 0
    budget: dict = field(default_factory=dict)
    resumed: int = 0  # deals taken from a journal rather than played by this run
    numbering: str | None = None  # the world numbering the seeds are deal numbers in (None: kallisti's seeds)

    @classmethod
    def of(cls, game: str, plan: Plan, outcomes: list[DealOutcome], seconds: float, resumed: int = 0):
        """The totals of these outcomes."""
        count = {WON: 0, LOST: 0, CAPPED: 0, UNKNOWN: 0}
        for o in outcomes:
            count[o.outcome] += 1
        return cls(game=game, strategy=plan.strategy, deals=len(outcomes), won=count[WON], lost=count[LOST],
                   capped=count[CAPPED], moves=sum(o.moves for o in outcomes), seconds=seconds, outcomes=tuple(outcomes),
                   unknown=count[UNKNOWN], budget=plan.budget, resumed=resumed, numbering=plan.numbering)

    @property
    def solver(self) -> bool:
        return self.strategy == SOLVER

    @property
    def mean_states(self) -> float:
        return sum(o.states for o in self.outcomes) / self.deals if self.deals else 0.0

    @property
    def mean_seconds(self) -> float:
        return sum(o.seconds for o in self.outcomes) / self.deals if self.deals else 0.0

    def as_dict(self) -> dict:
        low, high = self.ci95
        record = {
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
            "unknown": self.unknown,
        }
        if self.numbering is not None:
            record["numbering"] = self.numbering
        if self.solver:
            record.update(states=sum(o.states for o in self.outcomes), mean_states=round(self.mean_states, 1),
                          mean_seconds=round(self.mean_seconds, 4), budget=self.budget)
        return record


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

    def __init__(self, rules, seed: int, strategy: str, cap: int = DEFAULT_CAP, game: Game | None = None):
        self.seed, self.cap = seed, cap
        self.game = game if game is not None else Game(rules, seed=seed)  # `game`: the deal as it begins, if not `seed`
        self.chooser = make_strategy(strategy, seed)
        # Automatic moves that follow every move need a full player step; otherwise a raw move is enough.
        self.full_steps = any(p.trigger == "each-move" for p in rules.auto)
        self.made = 0  # player moves made
        self.moves: list | None = None  # the legal moves, once `outcome()` has found them
        self.conceded = False  # the strategy found no move worth making (greedy: every move goes back)

    def outcome(self) -> str | None:
        """`won`, `lost` or `capped` when the game is over, else None (the legal moves are then in `moves`). A deal
        the strategy conceded is lost: like a pass through the stock that changed nothing, play has stopped getting
        anywhere, which a cap (moves still worth making, the budget spent) does not say."""
        if self.conceded:
            return LOST
        self.moves = self.game.legal_moves()
        outcome = self.game.status(self.moves).outcome
        if outcome != "playing":
            return outcome
        return CAPPED if self.made >= self.cap else None

    def step(self) -> list[int]:
        """The strategy makes its next move among `moves`; the moves made (the automatic moves it set off too), none
        when it concedes instead (then `outcome()` says lost)."""
        m = self.chooser.choose(self.game, self.moves)
        if m is None:
            self.conceded = True
            return []
        if self.full_steps:
            made = self.game.play(m)
        else:
            self.game.apply(m)
            made = [m]
        self.made += 1
        return made


def play_deal(rules, seed: int, strategy: str, cap: int = DEFAULT_CAP, game: Game | None = None) -> DealOutcome:
    """Play one deal (`game` as it begins, else deal `seed`) to its end, or until `cap` player moves have been made.

    The random strategy needs nothing but the number of legal moves to choose among, so its deals are played by the
    engine's own loop (`Game.playout`, which stops where `status` finds the game blocked, as `DealPlay.outcome`
    does): the same moves, the same end, without a `status` and a strategy call a move."""
    if strategy == "random":
        game = game if game is not None else Game(rules, seed=seed)
        made = game.playout(RandomStrategy(seed).rng.below, cap, blocked=True)
        outcome = game.status().outcome
        return DealOutcome(seed, CAPPED if outcome == "playing" else outcome, made)
    play = DealPlay(rules, seed, strategy, cap, game)
    while (outcome := play.outcome()) is None:
        play.step()
    return DealOutcome(seed, outcome, play.made)


def simulate(rules, deals: int, seed: int, strategy: str, cap: int = DEFAULT_CAP,
             progress: Callable[[DealOutcome], None] | None = None, *, states: int = DEFAULT_STATES,
             seconds: float | None = None, jobs: int | None = None, backend: str = "local", address: str | None = None,
             journal: str | Path | None = None, safe_moves: bool = True,
             numbering: str | None = None, worker_start: str | None = None) -> SimulationResult:
    """Play `deals` games with seeds `seed`, `seed + 1`, …; `progress` is told after each one (first of the deals a
    journal already holds, then of each deal played, as it finishes).

    `states` and `seconds` are the solver's budget a deal, and `safe_moves` whether it plays its safe moves; `jobs`,
    `backend` and `address` say where the deals are played, and `worker_start` how local workers start (`fork` or
    `spawn`; by default the platform's best: `kallisti.solver.parallel.outcomes`); with `journal`, a JSONL file, each
    finished deal is appended to it and the deals it already holds are not played again (a JournalError if it records
    another run). With `numbering` (`ms`, `pysol`), the seeds are the world's deal numbers
    (a WorldDealError, before any work, if the first or the last is not one the ruleset can lay out).
    """
    if deals < 0:
        raise ValueError("deals must not be negative")
    plan = Plan(strategy, cap, states, seconds, safe_moves, numbering)  # refuses an unknown strategy before any work
    if numbering is not None and deals:
        for number in {seed, seed + deals - 1}:
            world_deal_order(rules, f"{numbering}:{number}")
    header = {"game": rules.name, "ruleset": fingerprint(rules), "strategy": strategy, "seed": seed, "deals": deals,
              "budget": plan.budget, **({} if numbering is None else {"numbering": numbering})}
    recorded = None if numbering is not None or journal is None else _journal_numbering(Path(journal))
    if recorded is not None:  # a Journal compares only the keys our header has, so a run on kallisti's seeds checks
        raise JournalError(f"{journal} records another run (numbering {json.dumps(recorded)} there, kallisti's seeds "
                           "here): resume with the same --numbering, or give a new file")
    start = time.perf_counter()
    with Journal(journal, header) as log:
        done = {}
        for s, record in log.deals.items():
            done[s] = _recorded(record, journal)
            if progress is not None:
                progress(done[s])
        todo = [s for s in range(seed, seed + deals) if s not in done]
        with closing(played_outcomes(rules, plan, todo, jobs, backend, address,
                                     worker_start)) as played:  # closed at once on ^C
            for outcome in played:
                done[outcome.seed] = outcome
                log.append(asdict(outcome))
                if progress is not None:
                    progress(outcome)
    outcomes = [done[s] for s in range(seed, seed + deals)]
    return SimulationResult.of(rules.name, plan, outcomes, time.perf_counter() - start, deals - len(todo))


def _journal_numbering(path: Path) -> str | None:
    """The world numbering a journal's header records, if any (a missing or damaged journal: the Journal says so)."""
    try:
        with open(path, "rb") as f:
            header = json.loads(f.readline())
    except (OSError, ValueError):
        return None
    return header.get("numbering") if isinstance(header, dict) else None


def _recorded(record: dict, journal) -> DealOutcome:
    """A deal as a journal recorded it."""
    try:
        outcome = DealOutcome(**record)
    except TypeError:
        outcome = None
    if outcome is None or outcome.outcome not in (WON, LOST, CAPPED, UNKNOWN):
        raise JournalError(f"{journal}: not a deal of `kallisti simulate`: {json.dumps(record)}")
    return outcome


def fingerprint(rules) -> str:
    """A short hash of the resolved ruleset, as saves record it: a journal of other rules is not resumed."""
    return ruleset_hash(rules.plain())[:16]


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
        from kallisti.solver.playerx import Memory

        by_text: dict[str, int] = {}
        for m in self.matches:
            for c in m.changes:
                by_text[c.text] = by_text.get(c.text, 0) + 1
        # A change that sets a setting back to a value it had earlier in its match (docs/solver.md, Player X).
        toggled = sum(len(Memory(m).catch_up(m).toggled) for m in self.matches)
        return {
            "game": self.game, "strategy": self.strategy, "deals": n, "won": first_won, "lost": first_lost,
            "capped": capped, "moves": sum(len([e for e in m.events if e["type"] == "move"]) for m in self.matches),
            "seconds": round(self.seconds, 3), "win_rate": first_won / n if n else 0.0, "ci95": [low, high],
            "seats": seats,
            "turns": sum(m.turn for m in self.matches),
            "changes": {"imposed": sum(len(m.changes) for m in self.matches), "distinct": len(by_text),
                        "revoked": sum(1 for m in self.matches for c in m.changes if not c.active),
                        "toggled_back": toggled,
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
