"""`kallisti check FILE|GAME... --deals N`: validate each ruleset, then play seeded deals of it with the
random and greedy strategies and report what went wrong, the dead starts, the capped games and the win rates."""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import typer

from kallisti.cli.defaults import DEFAULT_CAP
from kallisti.cli.report import FileResult, plural, github_command, summary
from kallisti.cli.validate import Format, check_arguments, with_excerpt, validate_files
from kallisti.errors import KallistiError

if TYPE_CHECKING:
    from kallisti.solver.check import CheckResult


@dataclass
class CheckedFile(FileResult):
    """A file's validation findings and play-test findings; `valid` means the file passed; `check` is None when
    the file was not played (it did not validate, for a fault other than PLAYABLE's proofs of how it plays)."""

    check: CheckResult | None = None


def check_files(paths: list[str], deals: int, seed: int = 1, cap: int = DEFAULT_CAP, progress=None) -> list[CheckedFile]:
    """Validate each file and play-test the valid ones, and those whose only errors are PLAYABLE (the rules are whole,
    and play shows the fault too: such a file fails with both); `progress(path, rules)` may return a per-game callback."""
    from kallisti.model.ruleset import PLAYABLE, load_ruleset
    from kallisti.solver.check import check_ruleset

    out = []
    for path in paths:
        validated = validate_files([path])[0]
        errors = frozenset(f.code for f in validated.findings if f.severity == "error")
        if not errors <= PLAYABLE:
            out.append(CheckedFile(path, False, validated.findings))
            continue
        try:
            rules = load_ruleset(path, despite=errors)
        except KallistiError as exc:  # it validated a moment ago; the file changed since
            out.append(CheckedFile(path, False, validated.findings + list(exc.findings)))
            continue
        tick = progress(path, rules) if progress is not None else None
        result = check_ruleset(rules, str(path), deals, seed, cap, progress=tick)
        texts: dict[str, str | None] = {}
        findings = validated.findings + [with_excerpt(f, texts) for f in result.findings]
        out.append(CheckedFile(path, not errors and not result.failed, findings, result))
    return out


# -- reports ---------------------------------------------------------------------------------------

def play_lines(r: CheckedFile) -> list[str]:
    """The play-test's figures for one file, as indented lines after a heading."""
    c = r.check
    if c is None:
        return []
    if not c.played:
        return [f"{r.file}: {c.game}: {c.note}"]
    last = c.seed + c.deals - 1
    seeds = f"seed {c.seed}" if c.deals == 1 else f"seeds {c.seed}..{last}"
    lines = [f"{r.file}: {c.game}: {plural(c.deals, 'deal')} ({seeds}), cap {c.cap} moves, {c.seconds:.2f}s"]
    if c.note:
        lines.append(f"  {c.note}")
    for s in c.strategies:
        low, high = s.ci95
        failed = f", failed {s.failed}" if s.failed else ""
        lines.append(f"  {s.strategy:<7} won {s.won} of {s.deals}: win rate {100 * s.win_rate:.1f}% "
                     f"(95% interval {100 * low:.1f}%–{100 * high:.1f}%); lost {s.lost}, capped {s.capped}{failed}")
    lines.append(f"  dead starts {c.dead_starts} of {c.deals}")
    return lines


def status_line(r: CheckedFile) -> str:
    errors = [f for f in r.findings if f.severity == "error"]
    warnings = [f for f in r.findings if f.severity == "warning"]
    counts = [plural(len(errors), "error")] if errors else []
    if warnings:
        counts.append(plural(len(warnings), "warning"))
    note = f" ({', '.join(counts)})" if counts else ""
    if r.check is None:
        return f"{r.file}: invalid{note}, not played"
    return f"{r.file}: {'passed' if r.valid else 'failed'}{note}"


def check_summary(results: list[CheckedFile]) -> dict:
    s = summary(results)
    return {"files": s["files"], "passed": s["valid"], "failed": s["invalid"], "errors": s["errors"],
            "warnings": s["warnings"]}


def check_summary_line(results: list[CheckedFile]) -> str:
    s = check_summary(results)
    return f"{plural(s['files'], 'file')} checked: {s['passed']} passed, {s['failed']} failed"


def render_text(results: list[CheckedFile]) -> str:
    """Each file's findings, its play-test figures and its status, then the summary."""
    lines: list[str] = []
    for r in results:
        lines.extend(str(f) for f in r.findings)
        lines.extend(play_lines(r))
        lines.append(status_line(r))
    lines.append(check_summary_line(results))
    return "\n".join(lines)


def render_json(results: list[CheckedFile]) -> str:
    """`{"files": [{file, valid, findings, check}], "summary": {...}}`: `valid` says the file passed, `check` holds
    the play-test's figures (null for a file that did not validate)."""
    data = {
        "files": [{"file": r.file, "valid": r.valid, "findings": [f.as_dict() for f in r.findings],
                   "check": r.check.as_dict() if r.check is not None else None} for r in results],
        "summary": check_summary(results),
    }
    return json.dumps(data, indent=2, ensure_ascii=False)


def render_github(results: list[CheckedFile]) -> str:
    """Every finding as a GitHub Actions workflow command, the play-test figures as plain log lines, then the summary."""
    lines = [github_command(f) for r in results for f in r.findings]
    for r in results:
        lines.extend(play_lines(r))
    lines.append(check_summary_line(results))
    return "\n".join(lines)


@contextmanager
def _progress_bar(total_per_file: int):
    """A `progress(path, rules)` for check_files that draws a bar on stderr when it is a terminal, else None."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        def start(path, rules):
            task = bar.add_task(rules.name, total=total_per_file if rules.pile_count else 0)
            return lambda _: bar.advance(task)

        yield start


def check(
    files: list[str] = typer.Argument(
        ..., metavar="FILE|GAME",
        help="Ruleset files, folders (every *.yaml, *.yml and *.rules file below) or shipped game names."),
    deals: int = typer.Option(20, "--deals", "-n", metavar="N", min=1, help="How many deals of each ruleset to play."),
    seed: int = typer.Option(1, "--seed", "-s", metavar="N", min=0, help="Seed of the first deal; the others follow it."),
    cap: int = typer.Option(DEFAULT_CAP, "--cap", metavar="MOVES", min=1, help="Most moves per game; a game that reaches it is `capped`."),
    format: Format = typer.Option(
        Format.text, "--format",
        help="Output format: text, json, or github (GitHub Actions annotations). Each ends with a summary."),
) -> None:
    """Play-test rulesets: validate each, then play seeded deals with the random and greedy strategies.

    Fails (exit 1) on an exception while playing (check-exception), cards not conserved after a move
    (check-conservation), a foundation holding cards its rules refuse judged card by card
    (check-foundation-build), or no legal move at the start of every deal (check-all-dead); reports dead
    starts, capped games and each strategy's win rate with a 95% interval. A ruleset that does not
    validate is reported with validate's findings and not played, unless its only errors prove how its
    rules play out (run-onto-foundation, win-unreachable, foundation-capacity): then it is played too.
    Exit 0 when all pass, 2 on a usage error.
    """
    from kallisti.solver.check import CHECK_STRATEGIES

    paths = check_arguments(files)
    with _progress_bar(deals * len(CHECK_STRATEGIES)) as progress:
        results = check_files(paths, deals, seed, cap, progress)
    render = {Format.text: render_text, Format.json: render_json, Format.github: render_github}[format]
    typer.echo(render(results))
    raise typer.Exit(0 if all(r.valid for r in results) else 1)
