"""The winnability table: the thoughtful win rate of every shipped patience, as Markdown and as a bar chart (SVG)."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Callable

from kallisti.model.loader import shipped_games
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.simulate import SOLVER, Plan, SimulationResult, simulate

OUT_OF_REACH = 0.2  # a row with more unknown deals than this share gets no rate
CHEAP = 2_000  # mean positions a deal at or under which a game is cheap enough to play all its deals


@dataclass(frozen=True)
class Row:
    """One game's line of the table."""

    game: str
    result: SimulationResult

    @property
    def out_of_reach(self) -> bool:
        return self.result.unknown > OUT_OF_REACH * self.result.deals


def patiences() -> list[str]:
    """The shipped games played alone with piles: those a thoughtful win rate means something for."""
    out = []
    for name in sorted(shipped_games()):
        rules = load_ruleset(name)
        if rules.pile_count and rules.match is None:
            out.append(name)
    return out


def winnability(games: list[str], deals: int, states: int, jobs: int | None, journals: Path | None,
                progress: Callable[[str, object], None] | None = None, at_least: int | None = None,
                cheap: int = CHEAP, safe_moves: bool = True) -> list[Row]:
    """Solve deals 1..`deals` of each game within `states` positions; with `journals`, a folder, each game's deals
    are kept there (GAME.jsonl, and GAME.more.jsonl for the deals past `at_least`), so a report stopped part-way
    goes on where it stopped.

    With `at_least`, each game first plays deals 1..`at_least`; only a game whose mean cost over them is at most
    `cheap` positions a deal goes on to `deals`. The choice is counted in positions, so it is the same on every
    machine, and costly games still get a sample of `at_least` deals. `safe_moves` False searches without the
    solver's safe moves (the journals record it).
    """
    first = deals if at_least is None else min(at_least, deals)
    rows = []
    for game in games:
        rules = load_ruleset(game)
        tell = None if progress is None else (lambda outcome, g=game: progress(g, outcome))

        def play(start: int, count: int, suffix: str) -> SimulationResult:
            journal = None if journals is None else journals / f"{game}{suffix}.jsonl"
            return simulate(rules, count, start, SOLVER, states=states, jobs=jobs, journal=journal, progress=tell,
                            safe_moves=safe_moves)

        result = play(1, first, "")
        if deals > first and result.mean_states <= cheap:
            more = play(first + 1, deals - first, ".more")
            result = SimulationResult.of(rules.name, Plan(SOLVER, states=states, safe_moves=safe_moves),
                                         [*result.outcomes, *more.outcomes],
                                         result.seconds + more.seconds, result.resumed + more.resumed)
        rows.append(Row(game, result))
    return rows


def markdown(rows: list[Row], deals: int, states: int, command: str, at_least: int | None = None,
             cheap: int = CHEAP, safe_moves: bool = True) -> str:
    """The table, with the budget and the command that regenerates it."""
    if at_least is None or at_least >= deals:
        which = f"deals 1–{deals} of each game"
    else:
        which = (f"deals 1–{deals} of each game whose first {at_least} deals cost at most {cheap:,} positions a deal "
                 f"on average, and deals 1–{at_least} of the others")
    lines = [
        "# Winnability of the shipped patiences",
        "",
        f"The thoughtful win rate (every card known) of {which}, each deal searched by `kallisti "
        f"solve` within **{states:,} positions**{'' if safe_moves else ' with its safe moves off'} (the same on every "
        f"machine). *Lost* deals are proved to have no win; "
        f"*unknown* ones ran out of budget. The 95% interval is conservative: Wilson's low end with the unknown deals "
        f"counted lost, its high end with them counted won. A game with more than {OUT_OF_REACH:.0%} of its deals "
        "unknown is *out of reach at this budget*: its interval is given, not a rate.",
        "",
        f"Regenerate: `{command}`",
        "",
        "![win rates](winnability.svg)",
        "",
        "| game | deals | won | lost | unknown | win rate | 95% interval | mean positions | mean seconds |",
        "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |",
    ]
    for row in rows:
        r = row.result
        low, high = r.ci95
        rate = "out of reach at this budget" if row.out_of_reach else f"{100 * r.won / r.deals:.1f}%"
        lines.append(f"| {r.game} | {r.deals} | {r.won} | {r.lost} | {r.unknown} | {rate} | {100 * low:.1f}%–{100 * high:.1f}% "
                     f"| {r.mean_states:,.0f} | {r.mean_seconds:.2f} |")
    return "\n".join(lines) + "\n"


def bar_chart(rows: list[Row]) -> str:
    """A horizontal bar per game: the win rate (none when out of reach) and its interval as a whisker."""
    bar_h, gap, left, width = 18, 8, 170, 420
    height = len(rows) * (bar_h + gap) + 50
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 60}" height="{height}" '
             'font-family="sans-serif" font-size="12">',
             f'<text x="{left}" y="16" font-weight="bold">thoughtful win rate, with its 95% interval</text>']
    for pct in (0, 25, 50, 75, 100):
        x = left + width * pct / 100
        parts.append(f'<line x1="{x}" y1="24" x2="{x}" y2="{height - 20}" stroke="#ddd"/>')
        parts.append(f'<text x="{x}" y="{height - 6}" text-anchor="middle">{pct}%</text>')
    for i, row in enumerate(rows):
        y = 30 + i * (bar_h + gap)
        low, high = row.result.ci95
        parts.append(f'<text x="{left - 8}" y="{y + 13}" text-anchor="end">{escape(row.result.game)}</text>')
        if not row.out_of_reach:
            rate = row.result.won / row.result.deals if row.result.deals else 0
            parts.append(f'<rect x="{left}" y="{y}" width="{width * rate:.1f}" height="{bar_h}" fill="#4a7ab5"/>')
        mid = y + bar_h / 2
        parts.append(f'<line x1="{left + width * low:.1f}" y1="{mid}" x2="{left + width * high:.1f}" y2="{mid}" '
                     'stroke="#222" stroke-width="2"/>')
        if row.out_of_reach:
            parts.append(f'<text x="{left + width * high + 6:.1f}" y="{y + 13}" fill="#888">out of reach</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
