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
from kallisti.interpreter.game import Game
from kallisti.interpreter.notation import parse_move
from kallisti.model.ruleset import load_ruleset
from kallisti.model.runs import lands_as_unit
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


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_a_stored_solution_puts_several_cards_on_a_foundation_only_where_its_rules_let_runs_land(path):
    """No move of a stored win (automatic moves included) puts more than one card on a foundation pile at once,
    unless the foundation's build or empty rule takes runs as a unit (it reads `count` or `cards`)."""
    game, seed = NAME.match(path.name).group("game", "seed")
    rules = load_ruleset(game)
    runs_land = {name for name, g in rules.groups.items()
                 if lands_as_unit(rules.deck, g.build) or lands_as_unit(rules.deck, g.empty)}
    played = Game(rules, seed=int(seed))
    commands = [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]
    for number, command in enumerate(commands, 1):
        for m in played.play(parse_move(played, command)):
            kind, _, dst, n = played.decode(m)
            group = rules.groups[rules.group_of[dst]] if kind == "move" else None
            assert not (group is not None and group.role == "foundation" and n > 1 and group.name not in runs_land), \
                f"{path.name}, move {number} ({command}): {n} cards onto {rules.tag_of[dst]}"


def test_every_shipped_patience_has_a_stored_solution():
    solved = {NAME.match(p.name).group("game") for p in SOLUTIONS}
    assert set(patiences()) - solved == set()
