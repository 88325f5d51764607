"""Apply every mutation operator to the shipped games, check each mutant with `validate --strict` (and, for the
operators that break play, `kallisti check`), and print how often each operator's mutants are flagged.

    python -m tests.mutation.run [--seed N] [--limit N] [--operator NAME ...] [--missed]
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import random
import tempfile
import time
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path

from kallisti.cli.check import check_files
from kallisti.cli.validate import validate_files

from .operators import OPERATORS, Mutant, Operator, Shipped, games

LIMIT = 6  # the most mutants tried per operator
DEALS, CAP = 2, 60  # what `kallisti check` plays of a mutant that breaks play


@dataclass(frozen=True)
class Outcome:
    """One mutant checked: the operator and game it came from, and the codes validate and check reported."""

    operator: Operator
    game: str
    mutant: Mutant
    codes: tuple[str, ...]

    @property
    def flagged(self) -> bool:
        return bool(self.codes)

    @property
    def on_target(self) -> bool:
        return self.operator.code in self.codes


@functools.cache
def sample(op: Operator, seed: int, limit: int = LIMIT) -> tuple[tuple[Shipped, Mutant], ...]:
    """Up to `limit` mutants of `op`, chosen by the seed among its mutants of every shipped game (made once per
    process: the run and the fingerprint of a seed share them; mutants are frozen and never edited)."""
    made = [(g, m) for g in games() for m in op.make(g, random.Random(f"{seed}:{op.name}:{g.name}"))]
    return tuple(random.Random(f"{seed}:{op.name}").sample(made, min(limit, len(made))))


def fingerprint(seed: int) -> str:
    """A digest of every operator's sampled mutants (games, descriptions and files) for the seed."""
    digest = hashlib.sha256()
    for op in OPERATORS:
        for game, mutant in sample(op, seed, LIMIT):
            digest.update(repr((op.name, game.name, mutant.description, mutant.main, mutant.files)).encode())
    return digest.hexdigest()


def reported(op: Operator, mutant: Mutant, folder: Path) -> tuple[str, ...]:
    """The codes of every finding `validate --strict` reports for the mutant, and `check` for a play operator's."""
    path = mutant.write(folder)
    codes = [f.code for f in validate_files([path], strict=True)[0].findings]
    if op.plays:
        with (mutant.fault or nullcontext)():
            codes += [f.code for f in check_files([str(path)], DEALS, seed=1, cap=CAP)[0].findings]
    return tuple(dict.fromkeys(codes))


def run(seed: int = 1, limit: int = LIMIT, operators: tuple[Operator, ...] = OPERATORS) -> list[Outcome]:
    """Every sampled mutant of every operator, checked."""
    out = []
    with tempfile.TemporaryDirectory(prefix="kallisti-mutants-") as tmp:
        for op in operators:
            for i, (game, mutant) in enumerate(sample(op, seed, limit)):
                folder = Path(tmp) / op.name / str(i)
                out.append(Outcome(op, game.name, mutant, reported(op, mutant, folder)))
    return out


@dataclass(frozen=True)
class Row:
    """An operator's totals: mutants, how many were flagged, how many with the code it targets."""

    operator: Operator
    mutants: int
    flagged: int
    on_target: int

    @property
    def rate(self) -> float:
        return self.flagged / self.mutants if self.mutants else 0.0

    @property
    def target_rate(self) -> float:
        return self.on_target / self.mutants if self.mutants else 0.0


def rows(outcomes: list[Outcome], operators: tuple[Operator, ...] = OPERATORS) -> list[Row]:
    """One row per operator, in the operators' order."""
    def row(op):
        mine = [o for o in outcomes if o.operator is op]
        return Row(op, len(mine), sum(o.flagged for o in mine), sum(o.on_target for o in mine))
    return [row(op) for op in operators]


def table(outcomes: list[Outcome], operators: tuple[Operator, ...] = OPERATORS) -> str:
    """The rate table: operator, target code, mutants, flagged, rate, flagged with the target code."""
    head = ("operator", "target code", "mutants", "flagged", "rate", "on target")
    body = [(r.operator.name, r.operator.code, str(r.mutants), str(r.flagged), f"{100 * r.rate:.0f}%",
             str(r.on_target)) for r in rows(outcomes, operators)]
    widths = [max(len(line[i]) for line in [head] + body) for i in range(len(head))]
    lines = ["  ".join(cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths)))
             for line in [head] + body]
    total = sum(o.flagged for o in outcomes)
    lines.append(f"{len(operators)} operators, {len(outcomes)} mutants: {total} flagged "
                 f"({100 * total / max(len(outcomes), 1):.1f}%), {sum(o.on_target for o in outcomes)} with the target code")
    return "\n".join(lines)


def missed(outcomes: list[Outcome]) -> str:
    """The mutants not flagged with their operator's code: game, what was broken, what was reported instead."""
    return "\n".join(f"{o.operator.name} ({o.operator.code}) on {o.game}: {o.mutant.description} -> "
                     f"{', '.join(o.codes) or 'nothing reported'}" for o in outcomes if not o.on_target)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.mutation.run",
                                     description="Print how often `validate --strict` or `check` flags the mutants of "
                                                 "every mutation operator.")
    parser.add_argument("--seed", type=int, default=1, help="seed of the choices (default 1)")
    parser.add_argument("--limit", type=int, default=LIMIT, help=f"most mutants per operator (default {LIMIT})")
    parser.add_argument("--operator", action="append", help="run only this operator (may be repeated)")
    parser.add_argument("--missed", action="store_true", help="list the mutants not flagged with their target code")
    args = parser.parse_args(argv)
    chosen = tuple(op for op in OPERATORS if not args.operator or op.name in args.operator)
    start = time.perf_counter()
    outcomes = run(args.seed, args.limit, chosen)
    print(table(outcomes, chosen))
    if args.missed:
        print(missed(outcomes) or "every mutant was flagged with its target code")
    print(f"seed {args.seed}, {time.perf_counter() - start:.1f}s")


if __name__ == "__main__":
    main()
