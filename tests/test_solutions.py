"""Winning lines found by `kallisti solve`, stored in tests/solutions/GAME-SEED.moves exactly as the command
printed them: each must still win its deal when piped into `kallisti play GAME --seed SEED`. Spider's were
found by the beam search (`kallisti solve spider --seed SEED --beam 100 --states 600000`; deals 3 and 4 while
its weights were being tuned, deal 4 at width 200).

A line that stops winning means the engine or a shipped ruleset changed how a deal plays.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.solver.winnability import patiences

SOLUTIONS = sorted((Path(__file__).parent / "solutions").glob("*.moves"))
NAME = re.compile(r"^(?P<game>[a-z-]+)-(?P<seed>\d+)\.moves$")


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_a_stored_solution_wins_its_deal_in_play(path):
    game, seed = NAME.match(path.name).group("game", "seed")
    text = path.read_text(encoding="utf-8")
    moves = [line for line in text.splitlines() if line and not line.startswith("#")]
    played = CliRunner().invoke(app, ["play", game, "--seed", seed], input=text)
    assert played.exit_code == 0, played.output[-500:]
    assert re.search(rf"\*\*\* WON: .+ in {len(moves)} moves \*\*\*", played.output)


def test_every_shipped_patience_has_a_stored_solution():
    solved = {NAME.match(p.name).group("game") for p in SOLUTIONS}
    assert set(patiences()) - solved == set()
