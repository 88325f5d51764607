"""The mutation test of the checks: shipped rulesets broken in seeded ways (tests/mutation/), each mutant truly broken
by construction, must be flagged by `validate --strict` or `check`, and mostly with the code its operator targets.

`python -m tests.mutation.run --missed` prints the same table and lists the mutants missed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from kallisti.cli.check import check_files
from kallisti.cli.validate import validate_files
from kallisti.codes import CODES, ruleset_codes
from mutation.base import dump, games
from mutation.operators import OPERATORS
from mutation.run import CAP, DEALS, fingerprint, rows, run, table

SEED = 1
RATE = 0.9  # the least share of an operator's mutants that must be flagged, and flagged with its target code


@pytest.fixture(scope="module")
def outcomes():
    return run(SEED)


def test_rate_table(outcomes, capsys):
    """Print the table of rates, in every run (not only with -s)."""
    with capsys.disabled():
        print(f"\nmutation test, seed {SEED}\n{table(outcomes)}")


def test_every_ruleset_code_has_an_operator():
    targets = {op.code for op in OPERATORS}
    assert not [code for code in ruleset_codes() if code not in targets]
    assert targets <= set(ruleset_codes())


def test_play_codes_have_play_operators():
    for op in OPERATORS:
        assert op.plays == (CODES[op.code].stage == "play"), op.name


def test_operators_have_names_and_reasons():
    assert len({op.name for op in OPERATORS}) == len(OPERATORS)
    assert all(op.why for op in OPERATORS)


@pytest.mark.parametrize("op", OPERATORS, ids=lambda op: op.name)
def test_operator_makes_mutants(outcomes, op):
    assert any(o.operator is op for o in outcomes)


@pytest.mark.parametrize("op", OPERATORS, ids=lambda op: op.name)
def test_mutants_are_flagged(outcomes, op):
    row = next(r for r in rows(outcomes) if r.operator is op)
    assert row.rate >= RATE, missed_by(outcomes, op)


@pytest.mark.parametrize("op", OPERATORS, ids=lambda op: op.name)
def test_mutants_are_flagged_with_the_target_code(outcomes, op):
    row = next(r for r in rows(outcomes) if r.operator is op)
    assert row.target_rate >= RATE, missed_by(outcomes, op)


def missed_by(outcomes, op) -> str:
    return "\n".join(f"{o.game}: {o.mutant.description} -> {', '.join(o.codes) or 'nothing'}"
                     for o in outcomes if o.operator is op and not o.on_target)


def test_the_same_seed_makes_the_same_mutants():
    """The choices depend on the seed alone: the same in two fresh interpreters with other hash seeds, other with
    another seed."""
    def elsewhere(hash_seed):
        return subprocess.Popen([sys.executable, "-c", f"from mutation.run import fingerprint; print(fingerprint({SEED}))"],
                                cwd=Path(__file__).parent, env={**os.environ, "PYTHONHASHSEED": str(hash_seed)},
                                stdout=subprocess.PIPE, text=True)
    runs = [elsewhere(n) for n in (1, 2)]
    here = fingerprint(SEED)
    assert [p.communicate()[0].strip() for p in runs] == [here, here]
    assert fingerprint(SEED + 1) != here


def test_unmutated_games_are_clean():
    """The control: each shipped game, written as the operators write it (its file in either syntax, and its resolved
    data as a standalone YAML file), validates with no finding, and plays as `check` plays a mutant with no finding,
    so the mutants' findings come from the mutations."""
    forms = {"ruleset.yaml": lambda g: g.text("yaml"), "ruleset.rules": lambda g: g.text("rules"),
             "data.yaml": lambda g: dump(g.data)}
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for g in games():
            (Path(tmp) / g.name).mkdir()
            for name, text in forms.items():
                paths.append(Path(tmp) / g.name / name)
                paths[-1].write_text(text(g), encoding="utf-8")
        assert [(r.file, r.findings) for r in validate_files(paths, strict=True) if r.findings] == []
        played = check_files([str(p) for p in paths if p.name == "data.yaml"], DEALS, seed=1, cap=CAP)
        assert [(r.file, r.findings) for r in played if r.findings] == []
