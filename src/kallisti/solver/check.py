"""Play-testing a ruleset: deal seeded games, play them with simple strategies and watch for faults.

Deal `i` of a check uses the seed `seed + i`, for the shuffle and for the strategy's own random
stream, as `simulate` does; every deal is played once by each strategy, each game capped at `cap`
player moves. A check fails on

- `check-exception`: an exception raised while dealing or playing (a rule's runtime error, an engine
  error), reported with the seed, the strategy and the move;
- `check-conservation`: after a move, the piles hold more or fewer cards than the deck;
- `check-foundation-build`: after a step, a foundation pile holds cards its rules refuse when judged card by card
  from its base (`kallisti.solver.watch`);
- `check-all-dead`: no legal move at the start of any deal.

and reports, without failing, the dead starts, the capped games and the win rate of each strategy
with its 95% Wilson interval. Errors a rule raised while judging a move (the engine refuses the
move and plays on) are reported as the warning `check-rule-error`.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field, replace
from typing import Callable

from kallisti.errors import Finding, KallistiError, Pos
from kallisti.interpreter.compiler import RuleRuntimeError
from kallisti.solver.simulate import DEFAULT_CAP, DealPlay, WinRate
from kallisti.solver.watch import FoundationWatch

CHECK_STRATEGIES = ("random", "greedy")
FAILED = "failed"  # a game stopped by an exception or a lost card

EXCEPTION, CONSERVATION, ALL_DEAD, RULE_ERROR = "check-exception", "check-conservation", "check-all-dead", "check-rule-error"
FOUNDATION = "check-foundation-build"


@dataclass(frozen=True)
class Problem:
    """One fault seen in one game: its code, what happened, and where (seed, strategy, move; move 0 is the deal)."""

    code: str
    message: str
    seed: int
    strategy: str
    move: int
    pos: Pos | None = None  # the rule at fault, when it can be found in the ruleset's files
    fault: str = ""  # what makes problems of several games one fault, when their messages differ (default: the message)

    def where(self) -> str:
        at = "at the deal" if self.move == 0 else f"move {self.move}"
        return f"seed {self.seed}, {self.strategy} strategy, {at}"

    def as_dict(self) -> dict:
        return {"code": self.code, "message": self.message, "seed": self.seed, "strategy": self.strategy,
                "move": self.move}

    def at(self, fallback: Pos) -> Pos:
        return self.pos or fallback


@dataclass(frozen=True)
class GameOutcome:
    """How one game of a check ended: `won`, `lost`, `capped` or `failed`; `dead` when no move was legal at the start."""

    seed: int
    strategy: str
    outcome: str
    moves: int
    dead: bool = False
    problem: Problem | None = None
    rule_errors: tuple[str, ...] = ()


@dataclass
class StrategyStats(WinRate):
    """The totals of one strategy over the deals of a check."""

    strategy: str
    deals: int = 0
    won: int = 0
    lost: int = 0
    capped: int = 0
    failed: int = 0
    moves: int = 0

    def add(self, o: GameOutcome) -> None:
        self.deals += 1
        self.moves += o.moves
        setattr(self, o.outcome, getattr(self, o.outcome) + 1)

    def as_dict(self) -> dict:
        low, high = self.ci95
        return {"strategy": self.strategy, "deals": self.deals, "won": self.won, "lost": self.lost,
                "capped": self.capped, "failed": self.failed, "moves": self.moves, "win_rate": self.win_rate,
                "ci95": [low, high]}


@dataclass
class CheckResult:
    """What play-testing one ruleset found: `played` is False when the ruleset is checked by validation only
    (`note` says why); `findings` are the failures (errors) and warnings, positioned at `source`."""

    game: str
    source: str
    deals: int
    seed: int
    cap: int
    played: bool = True
    note: str | None = None
    dead_starts: int = 0
    strategies: list[StrategyStats] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    rule_errors: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def findings(self) -> list[Finding]:
        """One finding per distinct fault (the first game that showed it, and how many others did), then the
        all-dead failure, then the rule-error warnings."""
        pos = Pos(self.source)
        out: list[Finding] = []
        groups: dict[tuple[str, str], list[Problem]] = {}
        for p in self.problems:
            groups.setdefault((p.code, p.fault or p.message), []).append(p)
        for (code, _), seen in groups.items():
            first = seen[0]
            more = f" (and in {len(seen) - 1} other game{'' if len(seen) == 2 else 's'})" if len(seen) > 1 else ""
            out.append(Finding(code, f"{first.where()}: {first.message}{more}", first.at(pos)))
        if self.played and self.deals and self.dead_starts == self.deals:
            out.append(Finding(ALL_DEAD, f"no legal move at the start of any of the {self.deals} deals "
                                         f"(seeds {self.seed}..{self.seed + self.deals - 1})", pos))
        for message, n in self.rule_errors.items():
            out.append(Finding(RULE_ERROR, f"a rule failed while judging moves, which were refused ({n} "
                                           f"game{'' if n == 1 else 's'}): {message}", pos, severity="warning"))
        return out

    @property
    def failed(self) -> bool:
        return any(f.severity == "error" for f in self.findings)

    def as_dict(self) -> dict:
        return {"game": self.game, "deals": self.deals, "seed": self.seed, "cap": self.cap, "played": self.played,
                "note": self.note, "dead_starts": self.dead_starts,
                "strategies": [s.as_dict() for s in self.strategies],
                "problems": [p.as_dict() for p in self.problems], "rule_errors": dict(self.rule_errors),
                "seconds": round(self.seconds, 3)}


def describe_exception(exc: BaseException) -> str:
    """An exception as one line for a report: a rule's or kallisti's own error by its message, any other with its type."""
    if isinstance(exc, KallistiError):
        return "; ".join(f.message for f in exc.findings) or exc.__class__.__name__
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    if isinstance(exc, RuleRuntimeError):
        return f"a rule failed: {text}"
    return f"{exc.__class__.__name__}: {text}" if text else exc.__class__.__name__


QUOTED = re.compile(r"`([^`]+)`")


def locate(rules, message: str) -> Pos | None:
    """Where the rule an error message quotes (`...`) is written: the first line of the ruleset's files that holds
    the quoted text, the variant's own file before the files it extends; None when it is not found."""
    quoted = QUOTED.search(message)
    if quoted is None:
        return None
    text = quoted[1]
    for source in reversed(getattr(rules, "sources", None) or []):
        for number, line in enumerate(source.text.splitlines(), 1):
            column = line.find(text)
            if column >= 0:
                return Pos(source.name, number, column + 1)
    return None


def play_checked(rules, seed: int, strategy: str, cap: int = DEFAULT_CAP) -> GameOutcome:
    """Play one deal as `simulate` does (a DealPlay), checking after every player move that the piles still hold the
    whole deck and that every foundation the rules let be judged card by card (`verified_groups`) still holds cards its
    rules accept so; an exception, a lost card or a foundation so refused ends the game as `failed`, with the problem."""
    play = None
    dead = False

    def failed(code: str, message: str, move: int, pos: Pos | None = None, fault: str = "") -> GameOutcome:
        made = play.made if play is not None else 0
        errors = tuple(play.game.rule_errors) if play is not None else ()
        return GameOutcome(seed, strategy, FAILED, made, dead, Problem(code, message, seed, strategy, move, pos, fault),
                           errors)

    def refused(found, move: int) -> GameOutcome:
        message, clause = found
        return failed(FOUNDATION, message, move, clause.pos, f"{clause.pos} {clause.id}")

    try:
        play = DealPlay(rules, seed, strategy, cap)
        watch = FoundationWatch(rules)
    except Exception as exc:  # noqa: BLE001 - any fault is a finding, never a traceback
        return failed(EXCEPTION, describe_exception(exc), 0)
    game, size = play.game, play.game.deck.size
    if game.state.card_count() != size:
        return failed(CONSERVATION, f"the deal lays out {game.state.card_count()} cards of a deck of {size}", 0)
    if (found := watch.fault(game)) is not None:
        return refused(found, 0)
    while True:
        try:
            outcome = play.outcome()
        except Exception as exc:  # noqa: BLE001
            dead = dead or (play.made == 0 and play.moves is not None and not play.moves)
            return failed(EXCEPTION, describe_exception(exc), play.made)
        if play.made == 0 and not play.moves:
            dead = True
        if outcome is not None:
            return GameOutcome(seed, strategy, outcome, play.made, dead, None, tuple(game.rule_errors))
        try:
            moves = play.step()
        except Exception as exc:  # noqa: BLE001
            return failed(EXCEPTION, describe_exception(exc), play.made + 1)
        count = game.state.card_count()
        if count != size:
            return failed(CONSERVATION, f"the piles hold {count} cards after the move, the deck {size}", play.made)
        if (found := watch.fault(game, moves)) is not None:
            return refused(found, play.made)


def check_ruleset(rules, source: str, deals: int, seed: int = 1, cap: int = DEFAULT_CAP,
                  strategies: tuple[str, ...] = CHECK_STRATEGIES,
                  progress: Callable[[GameOutcome], None] | None = None) -> CheckResult:
    """Play `deals` deals (seeds `seed`, `seed + 1`, …) of `rules` with each strategy; `progress` is told after each game.

    A ruleset without piles (it only scores hands) is not played: the result says it is checked by
    validation only. A ruleset with a `match` is played one deal at a time, each deal one player's turn.
    """
    if deals < 0 or cap < 0:
        raise ValueError("deals and cap must not be negative")
    result = CheckResult(rules.name, source, deals, seed, cap)
    if not rules.pile_count:
        result.played = False
        result.note = "no piles to play on (it scores hands): checked by validation only"
        return result
    if rules.match is not None:
        result.note = "a match: each deal is one player's turn, played alone; the match itself is checked by validation"
    start = time.perf_counter()
    stats = {s: StrategyStats(s) for s in strategies}
    result.strategies = list(stats.values())
    for i in range(deals):
        for k, strategy in enumerate(strategies):
            o = play_checked(rules, seed + i, strategy, cap)
            stats[strategy].add(o)
            if k == 0 and o.dead:
                result.dead_starts += 1
            if o.problem is not None:
                result.problems.append(replace(o.problem, pos=o.problem.pos or locate(rules, o.problem.message)))
            for message in dict.fromkeys(o.rule_errors):
                result.rule_errors[message] = result.rule_errors.get(message, 0) + 1
            if progress is not None:
                progress(o)
    result.seconds = time.perf_counter() - start
    return result
