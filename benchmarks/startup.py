"""Benchmark of start-up: the CPU seconds of four `kallisti` commands that should answer at once.

Usage: python benchmarks/startup.py [--runs N]

Each command is run N times (default 11) as a fresh process, after one run that is not counted, the commands taking
turns so that a drift in the machine's speed touches each alike: `kallisti --help`, `kallisti list`, `kallisti
validate` of the shipped Forty Thieves file, and `kallisti play forty-thieves --seed 1` up to its first prompt (its
input is `q`, so it prints the table and quits); beside them `python -c pass`, the interpreter's own start, and a
typer app of two commands that do nothing, its `--help` and its command with an argument and an option, and
`import typer` alone: the floors typer sets (rich to render help, its conversion of option values; FLOORS
says which is under which kallisti command). A run's CPU seconds (user + system) are the operating system's accounting
of the finished child (`getrusage(RUSAGE_CHILDREN)` read around it), so time the machine spends on other work does
not count. Printed: min and median per command, and the median less `python -c pass`'s. The targets of issue 24 (CPU,
medians): `--help` and `list` under 0.15 s, the first prompt of `play` under 0.25 s, `validate` of one file under 0.3 s.

The commands are those of the interpreter running this script (its `kallisti` script, else `python -m kallisti`;
`PYTHONPATH=OTHER/src` times another checkout's code). They run as an installed kallisti runs after its first use:
with Python's bytecode cached (in a temporary folder, so the source tree is not written to, whatever
PYTHONDONTWRITEBYTECODE says) and with the parser cache of grammar/cache.py, which the uncounted run fills.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"--help": 0.15, "list": 0.15, "validate": 0.3, "play": 0.25}  # CPU seconds, median
# The floor under every command: a typer app of two commands that do nothing, as kallisti's app is made.
TYPER_APP = """\
import typer
app = typer.Typer(no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False)
app.command("a")(lambda: None)
@app.command("b")
def b(name: str, seed: int = typer.Option(1, "--seed")):
    pass
app()
"""
# Which floor each kallisti command is measured against: typer's --help (rich renders it); typer's import, under a
# command with no option; a command with an argument and an option, as play and validate take (typer converts each
# value).
FLOORS = {"--help": "typer app --help", "list": "import typer", "validate": "typer app b", "play": "typer app b"}


def kallisti() -> list[str]:
    """The `kallisti` command of this interpreter: its console script if installed beside it, else `python -m`."""
    script = Path(sys.executable).parent / "kallisti"
    if script.is_file():
        return [str(script)]
    found = shutil.which("kallisti")
    return [found] if found else [sys.executable, "-m", "kallisti"]


def commands() -> list[tuple[str, list[str], bytes]]:
    """(label, argv, standard input) for each command timed."""
    k = kallisti()
    return [
        ("python -c pass", [sys.executable, "-c", "pass"], b""),
        ("typer app --help", [sys.executable, "-c", TYPER_APP, "--help"], b""),
        ("import typer", [sys.executable, "-c", "import typer"], b""),
        ("typer app b", [sys.executable, "-c", TYPER_APP, "b", "x", "--seed", "2"], b""),
        ("--help", [*k, "--help"], b""),
        ("list", [*k, "list"], b""),
        ("validate", [*k, "validate", str(ROOT / "src/kallisti/rulesets/forty-thieves.yaml")], b""),
        ("play", [*k, "play", "forty-thieves", "--seed", "1"], b"q\n"),
    ]


def cpu_of(argv: list[str], stdin: bytes, env: dict[str, str]) -> float:
    """The user + system CPU seconds of one run of argv to its exit (its children included)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 4):  # 4: `play` quit
        sys.exit(f"{' '.join(argv)} exited {done.returncode}: {done.stderr.decode(errors='replace')}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(runs: int) -> dict[str, float]:
    """Print the table; return each command's median CPU seconds less `python -c pass`'s, by its label."""
    timed = commands()
    seconds: dict[str, list[float]] = {label: [] for label, _, _ in timed}
    with tempfile.TemporaryDirectory(prefix="kallisti-bytecode-") as bytecode:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"PYTHONPYCACHEPREFIX": bytecode}
        for _, argv, stdin in timed:  # warm-up: the bytecode, the parser cache, the file system's cache
            cpu_of(argv, stdin, env)
        for _ in range(runs):
            for label, argv, stdin in timed:
                seconds[label].append(cpu_of(argv, stdin, env))
    base = statistics.median(seconds["python -c pass"])
    print(f"CPU seconds over {runs} runs each (user + system of the whole process)")
    print(f"{'command':<18} {'min':>7} {'median':>7} {'-pass':>7} {'target':>7}")
    for label, _, _ in timed:
        median = statistics.median(seconds[label])
        extra = "" if label == "python -c pass" else f"{median - base:7.3f}"
        target = f"{TARGETS[label]:7.2f}" if label in TARGETS else ""
        print(f"{label:<18} {min(seconds[label]):7.3f} {median:7.3f} {extra:>7} {target:>7}")
    return {label: statistics.median(seconds[label]) - base for label, _, _ in timed}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="counted runs of each command (default 11)")
    measure(parser.parse_args().runs)


if __name__ == "__main__":
    main()
