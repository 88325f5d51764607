"""Every test that the seed-sentence tables in docs/sentences/ name exists, so the tables cannot drift."""

import ast
import functools
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TABLES = sorted((ROOT / "docs" / "sentences").glob("*.md"))
REFERENCE = re.compile(r"`(?:tests/)?(test_[a-z0-9_]+\.py)::(test_[A-Za-z0-9_]+)(?:\[[^\]]*\])?`")


@functools.cache  # a table names many tests of the same file: each file is parsed once
def _tests_in(path: Path) -> frozenset[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return frozenset(node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"))


@pytest.mark.parametrize("table", [t for t in TABLES if t.name != "README.md"], ids=lambda p: p.stem)
def test_every_named_test_exists(table):
    references = REFERENCE.findall(table.read_text(encoding="utf-8"))
    assert references, f"{table.name} names no test"
    missing = [f"{f}::{t}" for f, t in references if t not in _tests_in(ROOT / "tests" / f)]
    assert not missing, f"{table.name} names tests that do not exist: {missing}"


def test_every_issue_game_has_a_table():
    games = {"discordian", "spider", "miss-milligan", "blockade", "harp", "rouge-et-noir", "congress", "octave",
             "house-in-the-wood", "house-on-the-hill", "intelligence", "la-nivernaise", "tournament", "decade"}
    assert games <= {t.stem for t in TABLES}
