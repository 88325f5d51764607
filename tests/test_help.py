"""Help that reads well: every command's `--help` names its values (N, FILE) without Python types and ends with
examples; short options agree across commands; the in-game `help` wraps to the terminal and fits a 24-row screen."""

from __future__ import annotations

import pytest
import typer.main
from typer.testing import CliRunner

from kallisti import __version__
from kallisti.cli.app import app
from kallisti.cli.examples import EXAMPLES
from kallisti.cli.play import run_session
from kallisti.interpreter.game import Game
from kallisti.model.ruleset import load_ruleset

runner = CliRunner()
GROUP = typer.main.get_command(app)
COMMANDS = sorted(GROUP.list_commands(GROUP.make_context("kallisti", ["--version"], resilient_parsing=True)))


def commands() -> dict:
    """Every command of the group, made (each is made when first asked for: cli/app.py's COMMANDS)."""
    ctx = GROUP.make_context("kallisti", ["--version"], resilient_parsing=True)
    return {name: GROUP.get_command(ctx, name) for name in GROUP.list_commands(ctx)}
TYPE_NOISE = ("<bool>", "<int range>", "<float range>", "<str>", "<list", "<path>", "<file>", "[[")


def help_of(*argv: str, columns: int = 100) -> str:
    result = runner.invoke(app, [*argv, "--help"], env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    return result.stdout


def test_every_command_is_found():
    assert {"play", "show", "simulate", "solve", "serve"} <= set(COMMANDS)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_commands_help_has_examples_and_no_type_noise(command):
    text = help_of(command)
    assert "Examples:" in text and f"kallisti {command}" in text.split("Examples:")[1]
    assert [noise for noise in TYPE_NOISE if noise in text] == []


def test_every_example_is_of_its_own_command():
    assert set(EXAMPLES) == set(COMMANDS)
    for command, examples in EXAMPLES.items():
        assert examples and all(line.startswith(f"kallisti {command}") for line, _ in examples)


def test_the_app_help_lists_the_version_option_without_type_noise():
    text = help_of()
    assert "--version" in text and "--help" in text
    assert [noise for noise in TYPE_NOISE if noise in text] == []


def test_version():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout == f"kallisti {__version__}\n"


def test_values_are_named_and_ranges_still_checked():
    text = help_of("simulate")
    assert "--deals" in text and "N [x>=1]" in text
    assert runner.invoke(app, ["simulate", "lucas", "--deals", "0"]).exit_code == 2


def test_seed_is_s_in_every_command_that_takes_one():
    made = commands()
    with_seed = [name for name, cmd in made.items() if any("--seed" in p.opts for p in cmd.params)]
    assert {"play", "simulate", "solve", "check"} <= set(with_seed)
    for name in with_seed:
        (seed,) = [p for p in made[name].params if "--seed" in p.opts]
        assert "-s" in seed.opts, name


def test_play_takes_s_for_seed():
    result = runner.invoke(app, ["play", "forty-thieves", "-s", "7"], input="q\n")
    assert result.exit_code == 4 and "Forty Thieves, deal 7" in result.stdout


def test_help_paragraphs_are_reflowed_to_the_width():
    """Paragraphs written on long source lines are wrapped to the terminal, not cut where the source broke them."""
    for columns in (60, 100):
        lines = help_of("play", columns=columns).splitlines()
        assert max(len(line.rstrip()) for line in lines) <= columns
    text = " ".join(help_of("play", columns=60).split())
    assert "The game's end is checked after every step, and a marker line is printed" in text


# -- the in-game help ------------------------------------------------------------------------------------------
def in_game_help(monkeypatch, columns: int) -> list[str]:
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.setenv("LINES", "24")
    out: list[str] = []
    run_session(Game(load_ruleset("forty-thieves"), seed=1), ["help"], out.append)
    start = out.index("commands:")
    return out[start:-1]  # up to the QUIT marker


def test_in_game_help_fits_a_24_row_screen_of_80_columns(monkeypatch):
    lines = in_game_help(monkeypatch, 80)
    assert len(lines) <= 23, "with the prompt, the help fits 24 rows"
    assert max(map(len, lines)) < 80


def test_in_game_help_wraps_at_word_boundaries_to_a_narrow_terminal(monkeypatch):
    lines = in_game_help(monkeypatch, 50)
    assert max(map(len, lines)) < 50
    text = " ".join(" ".join(lines).split())
    assert "`t2 t7 3`" in text, "a command to type is never split across lines"
    for word in ("hint", "undo", "save FILE", "moves", "SRC DST [N]", "legend", "rules"):
        assert word in text
