"""The contract every fuzzer and the corpus assert: an input is taken or refused with kallisti's own error.

One function per target runs the input through the same entry point a stranger's text reaches, with small limits
so each example costs milliseconds. Each returns normally when the input was taken or refused with
`KallistiError`; any other exception (KeyError, TypeError, RecursionError, a Lark or YAML exception…) escapes and
fails the test that called it, with the input shown by Hypothesis or named by the corpus file.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings
from typer.testing import CliRunner

from kallisti.errors import KallistiError
from kallisti.located import plain

CORPUS = Path(__file__).parent / "corpus"
SUPPRESSED = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.large_base_example]
PLAY_MOVES = 12  # moves of random play tried on a ruleset that loads: enough to judge rules, cheap enough to fuzz
EXIT_CODES = {0, 1, 2, 3, 4}  # `kallisti play`: won, bad input, usage, lost, quit (its --help)
BASES = ("forty-thieves", "discordian")  # the rulesets rule changes are tried on: a patience and a match


# A longer campaign, still reproducible: `KALLISTI_FUZZ_SCALE=20 pytest tests/fuzz` draws 20 times the examples.
SCALE = int(os.environ.get("KALLISTI_FUZZ_SCALE", "1"))


def fuzz(examples: int) -> settings:
    """The settings of every fuzzer: a fixed number of examples drawn the same way on every run (no database, no
    random seed), and no deadline, so that a run depends neither on the machine's speed nor on runs before it."""
    return settings(max_examples=examples * SCALE, derandomize=True, database=None, deadline=None,
                    suppress_health_check=SUPPRESSED)


@functools.lru_cache(maxsize=None)
def base_rules(name: str):
    from kallisti.model.ruleset import load_ruleset

    return load_ruleset(name)


def _refused_or_taken(action) -> object | None:
    """What `action()` gives, or None when it refuses with KallistiError; anything else escapes."""
    try:
        return action()
    except KallistiError as exc:
        assert exc.findings, "a KallistiError carries at least one finding"
        for finding in exc.findings:
            str(finding).encode("utf-8")  # every finding can be printed, even about a lone surrogate
        return None


def _play_a_little(rules) -> None:
    """Deal the ruleset and make a few random moves, as `kallisti check` does, without the CLI.

    The engine reports a rule that fails at run time (a product past its limit) with RuleRuntimeError, which
    `check` and the trial of a rule change catch; that the `play` command handles it too is asserted through the
    CLI by the corpus (corpus/play-file/).
    """
    from kallisti.interpreter.compiler import RuleRuntimeError
    from kallisti.interpreter.game import Game
    from kallisti.interpreter.rng import STREAM_STRATEGY, Rng

    json.dumps(plain(rules.data))  # saves, `convert` and the rule-change cache write the data as JSON
    if not rules.pile_count:
        return  # a ruleset that only scores hands has nothing to deal
    game = _refused_or_taken(lambda: Game(rules, seed=1))
    if game is None:
        return
    rng = Rng(1, 1, STREAM_STRATEGY)
    try:
        game.playout(lambda n: rng.below(n), PLAY_MOVES)
        game.status()
        game.score()
    except RuleRuntimeError:
        pass


def load_text(text: str, suffix: str) -> None:
    """Load ruleset text as a file named `fuzz<suffix>` (`.rules` or `.yaml`); if it loads, play it a little."""
    from kallisti.model.ruleset import load_ruleset

    rules = _refused_or_taken(lambda: load_ruleset(Path("fuzz" + suffix), text=text))
    if rules is not None:
        _play_a_little(rules)


def load_file(path: Path) -> None:
    """Load a ruleset file from disk (its bytes read as a stranger's file is read); if it loads, play it a little."""
    from kallisti.model.ruleset import load_ruleset

    rules = _refused_or_taken(lambda: load_ruleset(path))
    if rules is not None:
        _play_a_little(rules)


def rules_text(text: str) -> None:
    load_text(text, ".rules")


def yaml_text(text: str) -> None:
    load_text(text, ".yaml")


def change_text(text: str, base: str = "forty-thieves", trial: bool = False) -> None:
    """A rule change typed by Player X, parsed, applied, checked and compiled against a base ruleset (and tried on
    the trial deals when `trial`); if adopted, the changed rules are played a little."""
    from kallisti.interpreter import amend

    rules = base_rules(base)
    adopted = _refused_or_taken(lambda: amend.amend(rules.data, text, baseline=rules, trial=trial))
    if adopted is not None:
        _play_a_little(adopted.rules)


def expression_text(text: str) -> None:
    """An expression parsed alone, then compiled and run as a win condition, a build clause and a score."""
    from kallisti.errors import Pos
    from kallisti.grammar.expressions import parse_expression

    _refused_or_taken(lambda: parse_expression(text, Pos("<fuzz>", 1, 1)))
    for change in (f"set win {text}", f"forbid tableau.build fuzz: {text}", f"set score {text}"):
        change_text(change)


def play_session(script: str | bytes, game: str = "forty-thieves", *args: str, ruleset: str | None = None) -> None:
    """`kallisti play GAME --seed 3` fed `script` on standard input: it ends with a documented exit code, never
    a traceback. Run in a scratch folder, since a script may `save` files; `ruleset` is the text of a ruleset file
    written there as GAME, for playing a stranger's ruleset."""
    runner = CliRunner()
    data = script if isinstance(script, bytes) else script.encode("utf-8", "surrogatepass")
    with tempfile.TemporaryDirectory() as scratch, contextlib.chdir(scratch):
        if ruleset is not None:
            Path(game).write_bytes(ruleset.encode("utf-8", "surrogatepass"))
        result = runner.invoke(_app(), ["play", game, "--seed", "3", "--no-color", *args], input=data)
    output = result.stdout_bytes.decode("utf-8", "replace") + (result.stderr_bytes or b"").decode("utf-8", "replace")
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception  # the traceback a user would see, with its own type and frames
    assert result.exit_code in EXIT_CODES, (result.exit_code, output[-2000:])
    assert "Traceback" not in output, output[-2000:]


def match_session(script: str | bytes) -> None:
    """A match of Discordian Solitaire, the bot against ann: after her two acknowledgements ann is Player X, so the
    script's `rule` lines are rule changes imposed on the bot (see strategies.match_scripts)."""
    play_session(script, "discordian", "--players", "bot,ann")


PLAY_FILE_SCRIPT = "moves\nd\na\nu\nr\nmoves\n"  # what a player first types: every move, a deal, auto, undo, redo


def play_file(text: str) -> None:
    """`kallisti play fuzz.rules`, the ruleset written by a stranger, played a few commands."""
    play_session(PLAY_FILE_SCRIPT, "fuzz.rules", ruleset=text)


@functools.lru_cache(maxsize=1)
def _app():
    from kallisti.cli.app import app

    return app


def text_of(raw: bytes) -> str:
    """The text a corpus file holds (a lone surrogate kept as its three UTF-8 bytes)."""
    return raw.decode("utf-8", "surrogatepass")


def keep(target: str, name: str, text: str | bytes) -> Path:
    """Add an input to the regression corpus, as corpus/TARGET/NAME.txt (see test_corpus.py)."""
    path = CORPUS / target / f"{name}.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
    return path
