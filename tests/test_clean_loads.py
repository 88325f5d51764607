"""Loads known to find nothing (model/clean_loads.py): the same texts read again skip the schema and the checks, and
give the same rules; a text that changed, a finding of any kind, new checking code or a damaged record means the
checks run."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from kallisti.errors import KallistiError
from kallisti.interpreter.game import Game
from kallisti.model import clean_loads, loader, ruleset
from kallisti.model.loader import locate
from kallisti.model.ruleset import load_ruleset

WARN = Path(__file__).resolve().parent / "rulesets" / "warn" / "pile-inert.yaml"


@pytest.fixture
def cache(tmp_path, monkeypatch):
    """The record on, in a cache folder of the test's own; counts of the schema's and the checks' runs."""
    monkeypatch.setattr(clean_loads, "enabled", True)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("KALLISTI_NO_CACHE", raising=False)
    runs = {"schema": 0, "checks": 0}
    schema, check = loader.schema_findings, ruleset.Ruleset._check

    def counted_schema(*args, **kwargs):
        runs["schema"] += 1
        return schema(*args, **kwargs)

    def counted_check(self, *args, **kwargs):
        runs["checks"] += 1
        return check(self, *args, **kwargs)

    monkeypatch.setattr(loader, "schema_findings", counted_schema)
    monkeypatch.setattr(ruleset.Ruleset, "_check", counted_check)
    return tmp_path / "cache" / "kallisti" / clean_loads.FILE, runs


def recorded(record: Path) -> list[str]:
    return json.loads(record.read_text(encoding="utf-8"))["keys"]


def test_a_clean_load_is_recorded_and_the_same_texts_skip_the_checks_and_give_the_same_rules(cache):
    record, runs = cache
    first = load_ruleset("forty-thieves")
    assert runs == {"schema": 2, "checks": 1} and len(recorded(record)) == 1
    again = load_ruleset("forty-thieves")
    assert runs == {"schema": 2, "checks": 1}  # neither ran again
    assert again.plain() == first.plain() and again.findings == [] and again is not first
    one, two = Game(first, seed=7), Game(again, seed=7)
    for _ in range(40):  # the same deal, the same moves
        moves = one.legal_moves()
        assert two.legal_moves() == moves
        if not moves:
            break
        one.play(moves[0])
        two.play(moves[0])


def test_the_errors_let_pass_are_part_of_what_is_recorded(cache):
    record, runs = cache
    load_ruleset("forty-thieves")
    load_ruleset("forty-thieves", despite=frozenset({"unwinnable"}))
    assert runs["checks"] == 2 and len(recorded(record)) == 2


def test_a_load_with_a_warning_is_never_recorded_and_warns_every_time(cache):
    record, runs = cache
    for expected in (1, 2):
        rules = load_ruleset(WARN)
        assert [f.code for f in rules.findings] == ["pile-inert"]
        assert runs["checks"] == expected
    assert not record.exists()


def test_an_edited_parent_is_checked_afresh_and_its_fault_found(cache, tmp_path):
    record, runs = cache
    parent, child = tmp_path / "parent.yaml", tmp_path / "child.yaml"
    shutil.copy(locate("forty-thieves"), parent)
    child.write_text("extends: parent.yaml\ngame: Child\n", encoding="utf-8")
    assert load_ruleset(child).name == "Child" and runs["checks"] == 1
    load_ruleset(child)
    assert runs["checks"] == 1
    text = parent.read_text(encoding="utf-8")
    assert "to: foundation" in text
    parent.write_text(text.replace("to: foundation", "to: fundation", 1), encoding="utf-8")
    with pytest.raises(KallistiError) as caught:
        load_ruleset(child)
    assert "unknown-pile" in [f.code for f in caught.value.findings]


def test_new_checking_code_checks_afresh(cache, monkeypatch):
    record, runs = cache
    load_ruleset("forty-thieves")
    monkeypatch.setattr(clean_loads, "_code_stamp", lambda: "another checkout")
    load_ruleset("forty-thieves")
    assert runs["checks"] == 2 and len(recorded(record)) == 2


@pytest.mark.parametrize("damage", ["garbage", "not-mine-to-trust", "a-link"])
def test_a_damaged_or_untrusted_record_is_passed_over(cache, tmp_path, damage):
    record, runs = cache
    load_ruleset("forty-thieves")
    key = recorded(record)[0]
    if damage == "garbage":
        record.write_text("{not json", encoding="utf-8")
    elif damage == "not-mine-to-trust":  # writable by others: anyone could have said the texts were clean
        os.chmod(record, 0o666)
    else:
        elsewhere = tmp_path / "elsewhere.json"
        shutil.move(record, elsewhere)
        record.symlink_to(elsewhere)
    assert not clean_loads.known(key)
    load_ruleset("forty-thieves")
    assert runs["checks"] == 2  # checked again, and recorded anew in a file of the user's own
    assert record.is_file() and not record.is_symlink() and recorded(record) == [key]


def test_the_record_keeps_the_newest_hashes(cache, monkeypatch):
    record, runs = cache
    monkeypatch.setattr(clean_loads, "MAX_KEPT", 3)
    for i in range(5):
        clean_loads.remember(f"k{i}")
    assert recorded(record) == ["k2", "k3", "k4"]
    clean_loads.remember("k2")
    assert recorded(record) == ["k3", "k4", "k2"]


def test_off_when_the_cache_is_off(cache, monkeypatch):
    record, runs = cache
    monkeypatch.setenv("KALLISTI_NO_CACHE", "1")
    load_ruleset("forty-thieves")
    load_ruleset("forty-thieves")
    assert runs["checks"] == 2 and not record.exists()


def test_a_command_records_its_clean_load_for_the_next(tmp_path):
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("KALLISTI_NO_CACHE", None)
    command = [sys.executable, "-m", "kallisti", "validate", str(locate("forty-thieves"))]
    for _ in range(2):
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and "1 valid" in done.stdout, done.stdout + done.stderr
    assert len(recorded(tmp_path / "cache" / "kallisti" / clean_loads.FILE)) == 1


def test_validate_answers_a_file_known_clean_without_compiling_it_and_checks_an_edited_one(cache, tmp_path):
    from kallisti.cli.validate import validate_files

    record, runs = cache
    parent, child = tmp_path / "parent.yaml", tmp_path / "child.yaml"
    shutil.copy(locate("forty-thieves"), parent)
    child.write_text("extends: parent.yaml\ngame: Child\n", encoding="utf-8")
    assert not clean_loads.known_clean(child)
    assert [r.valid for r in validate_files([child])] == [True] and runs["checks"] == 1
    assert clean_loads.known_clean(child)
    compiled = []
    original = ruleset.Ruleset.__init__

    def counted_init(self, *args, **kwargs):
        compiled.append(1)
        return original(self, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ruleset.Ruleset, "__init__", counted_init)
        (result,) = validate_files([child])
        assert result.valid and result.findings == [] and compiled == []  # answered from the record
        parent.write_text(parent.read_text(encoding="utf-8").replace("to: foundation", "to: fundation", 1),
                          encoding="utf-8")
        (result,) = validate_files([child])
    assert not result.valid and "unknown-pile" in [f.code for f in result.findings]
    assert not clean_loads.known_clean(child)


def test_validate_of_a_file_known_clean_imports_neither_the_compiler_nor_lark(tmp_path):
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("KALLISTI_NO_CACHE", None)
    path = str(locate("forty-thieves"))
    code = ("import sys\nsys.argv = ['kallisti', 'validate', sys.argv[1]]\nfrom kallisti.cli.app import main\n"
            "try:\n    main()\nexcept SystemExit as done:\n    code = done.code\n"
            "print(code, sorted(m for m in sys.modules if m.startswith(('lark', 'jsonschema', 'kallisti.interpreter'))))")
    first = subprocess.run([sys.executable, "-c", code, path], env=env, capture_output=True, text=True, timeout=120)
    assert "0 ['jsonschema'" in first.stdout, first.stdout + first.stderr  # the first validate checks and compiles
    again = subprocess.run([sys.executable, "-c", code, path], env=env, capture_output=True, text=True, timeout=120)
    assert again.stdout.splitlines()[-1] == "0 []" and "1 valid" in again.stdout, again.stdout + again.stderr
