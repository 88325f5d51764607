"""fc-solve (Debian's freecell-solver-bin) as an outside judge of Microsoft FreeCell deals: its verdict, positions and line."""

# It runs programs, so it lives beside the benchmarks, never in the package, which starts none (tests/test_security.py
# finds no subprocess call under src/kallisti); tests/test_fcsolve_oracle.py loads it from here, as
# tests/test_benchmark_agreement.py loads benchmarks/reference_forty_thieves.py.

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from dataclasses import dataclass

from kallisti.interpreter.game import Game
from kallisti.interpreter.world_deals import world_deal_order
from kallisti.solver.solve import NO_WIN, UNKNOWN, WON

FC_SOLVE = "fc-solve"
GENERATOR = "make-microsoft-freecell-board"  # some packagings install it as pi-make-microsoft-freecell-board
INSTALL = "apt-get install freecell-solver-bin"
DEFAULT_ITERATIONS = 2_000_000  # positions fc-solve checks before it gives up (5.0.0 needs at most 771,751 on deals 1-1000)

# fc-solve's scans: toons-for-twenty-somethings, a preset shipped with fc-solve whose every scan makes single-card
# moves only (its move types 0, 1 and A-E: a top card or a cell card home, a top card onto a card, into a space or a
# cell, a cell card onto a card or into a space). Those are FreeCell's moves as kallisti's ruleset states them (its
# one more, a card from cell to cell, changes nothing but which cell holds it), so a line fc-solve finds replays move
# for move under kallisti's rules, and "I could not solve this game" means that every position was searched: a
# proof. Its default scans move runs as one meta-move and may miss a win.
SCANS = ("-l", "toons-for-twenty-somethings")
# kallisti's freecell.yaml spelled out, rather than left to fc-solve's defaults: 4 cells, 8 columns, one pack, built
# down in alternate colours, a space takes any card. Runs move only as single cards through cells and spaces
# (`limited`), so a run move, were a scan to make one, would be a line of kallisti's moves too.
GAME = ("--freecells-num", "4", "--stacks-num", "8", "--decks-num", "1", "--sequences-are-built-by", "alternate_color",
        "--sequence-move", "limited", "--empty-stacks-filled-by", "all")
# -sel: "Iterations count exceeded." when fc-solve gives up, so "I could not solve this game." is a proof;
# -m -snx: the line in standard notation (`2a` column 2 to cell a, `a5`, `87`, `3h` home), ten moves a line.
OUTPUT = ("-sel", "-m", "-snx")
VERDICTS = {"This game is solveable.": WON, "I could not solve this game.": NO_WIN, "Iterations count exceeded.": UNKNOWN}
_STATES = re.compile(r"^Total number of states checked is (\d+)\.$", re.MULTILINE)
_MOVE = re.compile(r"^([1-8a-d])([1-8a-dh])(?:v([0-9a-f]+))?$")
_TAG = {**{str(i): f"t{i}" for i in range(1, 9)}, **{c: f"c{i}" for i, c in enumerate("abcd", 1)}, "h": "f"}  # -> play's tags


class FcSolveMissing(RuntimeError):
    """fc-solve or its board generator is not installed."""


class FcSolveError(RuntimeError):
    """fc-solve failed or said something this module does not read."""


@dataclass(frozen=True)
class FcVerdict:
    """fc-solve's verdict on one board: `won` with its line in standard notation, `no win`, or `unknown`."""

    verdict: str
    states: int  # the positions it checked ("Total number of states checked")
    seconds: float  # wall-clock time of the fc-solve process
    line: tuple[str, ...] = ()


def tool(name: str) -> str:
    """The path of an fc-solve program, or FcSolveMissing."""
    found = shutil.which(name) or shutil.which("pi-" + name)
    if found is None:
        raise FcSolveMissing(f"no {name} ({INSTALL})")
    return found


def ms_game(rules, number: int) -> Game:
    """Microsoft deal `number` laid out by kallisti under `rules` (FreeCell), as `--deal ms:N` lays it out."""
    return Game(rules, seed=None, order=world_deal_order(rules, f"ms:{number}"))


def board(game: Game) -> str:
    """The tableau of a FreeCell deal (cells and foundations empty) as fc-solve reads a board: a column a line, t1
    first, its cards bottom to top, `T` for ten."""
    rules, deck = game.rules, game.deck
    columns = (game.state.piles[rules.pile_of_tag[f"t{i}"]] for i in range(1, 9))
    return "".join(" ".join(deck.ascii_name(c).replace("10", "T") for c in column) + "\n" for column in columns)


def generated_board(number: int) -> str:
    """Microsoft deal `number` as fc-solve's own board generator writes it (`make-microsoft-freecell-board -t N`)."""
    run = subprocess.run([tool(GENERATOR), "-t", str(number)], capture_output=True, text=True, check=True, timeout=60)
    return "".join(line.rstrip() + "\n" for line in run.stdout.splitlines() if line.strip())


def fc_solve(text: str, iterations: int = DEFAULT_ITERATIONS) -> FcVerdict:
    """fc-solve's verdict on the board `text`, after at most `iterations` positions."""
    command = [tool(FC_SOLVE), *SCANS, *GAME, *OUTPUT, "-mi", str(iterations), "-"]
    start = time.perf_counter()
    run = subprocess.run(command, input=text, capture_output=True, text=True, env={**os.environ, "FREECELL_SOLVER_QUIET": "1"})
    seconds = time.perf_counter() - start
    said = [VERDICTS[line.strip()] for line in run.stdout.splitlines() if line.strip() in VERDICTS]
    states = _STATES.search(run.stdout)
    if run.returncode != 0 or len(said) != 1 or states is None:
        raise FcSolveError(f"fc-solve exited {run.returncode}: {(run.stderr or run.stdout)[-500:]}")
    line = ()
    if said[0] == WON:
        head = run.stdout.split("This game is solveable.")[0]
        line = tuple(word for word in head.split() if _MOVE.match(word))
    return FcVerdict(said[0], int(states.group(1)), seconds, line)


def judge(rules, number: int, iterations: int = DEFAULT_ITERATIONS) -> FcVerdict:
    """fc-solve's verdict on Microsoft deal `number`, fed the board kallisti lays out under `rules`."""
    return fc_solve(board(ms_game(rules, number)), iterations)


def command(move: str) -> str:
    """A move of fc-solve's standard notation as `kallisti play` types it: `2a` is `t2 c1`, `3h` is `t3 f`."""
    m = _MOVE.match(move)
    if m is None:
        raise ValueError(f"{move!r} is not a move of fc-solve's standard notation")
    count = f" {int(m.group(3), 16)}" if m.group(3) else ""
    return f"{_TAG[m.group(1)]} {_TAG[m.group(2)]}{count}"
