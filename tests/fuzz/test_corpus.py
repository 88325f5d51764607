"""The regression corpus: every input a fuzzer ever broke kallisti with, and hand-made nasty ones, replayed.

`corpus/TARGET/NAME.txt` holds one input, exactly as it reaches kallisti: a `.rules` or YAML file, a rule change,
an expression, or the standard input of a `kallisti play` session (`play`, `match`; `play-file` is a ruleset file
given to `kallisti play`). Text is UTF-8, with a lone surrogate written as its three bytes (`surrogatepass`), so
that any Python string can be kept; a session's input is given to `play` as the bytes of the file, invalid UTF-8
included. A new case is a new file (`targets.keep`); the name says what it tries. Each replays under the same
contract as its fuzzer (targets.py), so a fixed bug stays fixed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fuzz import targets
from fuzz.targets import CORPUS


def _ruleset(suffix: str):
    """A ruleset target: the text loaded as given, then the file's bytes read as a stranger's file is read."""

    def replay(raw: bytes, tmp_path: Path) -> None:
        targets.load_text(targets.text_of(raw), suffix)
        path = tmp_path / f"fuzz{suffix}"
        path.write_bytes(raw)
        targets.load_file(path)

    return replay


def _changes(raw: bytes, tmp_path: Path) -> None:
    for base in targets.BASES:  # a patience and a match, each with the trial a change in play goes through
        targets.change_text(targets.text_of(raw), base, trial=True)


REPLAY = {
    "rules": _ruleset(".rules"),
    "yaml": _ruleset(".yaml"),
    "change": _changes,
    "expression": lambda raw, tmp_path: targets.expression_text(targets.text_of(raw)),
    "play": lambda raw, tmp_path: targets.play_session(raw),
    "match": lambda raw, tmp_path: targets.match_session(raw),
    "play-file": lambda raw, tmp_path: targets.play_file(targets.text_of(raw)),
}
CASES = sorted(CORPUS.glob("*/*.txt"))


def test_every_corpus_folder_is_a_target():
    assert {p.name for p in CORPUS.iterdir() if p.is_dir()} == set(REPLAY)


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_corpus_case_is_taken_or_refused_with_findings(path: Path, tmp_path: Path):
    REPLAY[path.parent.name](path.read_bytes(), tmp_path)
