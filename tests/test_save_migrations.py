"""Older save versions load through explicit migrations, each tested on real files of its version (tests/saves/vN/,
written by the kallisti of that version: see tests/saves/README.md); saving again writes the current version."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from kallisti.errors import KallistiError
from kallisti.interpreter.save import (CHECKSUM_SINCE, MIGRATIONS, VERSION, content_checksum, load_game, load_saved,
                                       save_game, save_match)

SAVES = Path(__file__).parent / "saves"


def files_of(version: int) -> list[Path]:
    return sorted((SAVES / f"v{version}").glob("*.json"))


def raw(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def copied(path: Path, folder: Path) -> Path:
    """A stored save copied to `folder`, so that saving over it never changes the stored file."""
    return Path(shutil.copy(path, folder / path.name))


# -- the table of migrations --------------------------------------------------------------------------------------

def test_every_older_version_has_a_migration_to_the_next():
    assert sorted(MIGRATIONS) == list(range(1, VERSION))


@pytest.mark.parametrize("version", sorted(MIGRATIONS))
def test_every_migration_has_real_files_of_its_version(version):
    files = files_of(version)
    assert files, f"tests/saves/v{version}/ holds no save written by version {version}"
    assert all(raw(p)["version"] == version for p in files)


@pytest.mark.parametrize("version", sorted(MIGRATIONS))
def test_a_migration_brings_a_real_file_to_the_next_version(version):
    for path in files_of(version):
        data = raw(path)
        after = MIGRATIONS[version](json.loads(json.dumps(data)))
        assert after["version"] == version + 1
        assert data["version"] == version, "a migration does not change the data it is given"


# -- version 1 -> 2: no checksum, the same content -------------------------------------------------------------------

V1_GAME = SAVES / "v1" / "forty-thieves.json"
V1_MATCH = SAVES / "v1" / "discordian-match.json"


def test_version_1_files_have_no_checksum():
    assert CHECKSUM_SINCE == 2
    for path in files_of(1):
        assert "checksum" not in raw(path)


def test_the_migration_from_1_to_2_keeps_the_content():
    for path in files_of(1):
        data = raw(path)
        assert {**MIGRATIONS[1](data), "version": 1} == data


def test_a_version_1_game_loads_with_its_deal_events_and_waiting_change():
    data = raw(V1_GAME)
    game, waiting = load_game(V1_GAME, with_next_deal=True)
    assert game.seed == data["deal"]["seed"] == 7
    assert game.order == data["deal"]["order"]
    assert game.events == data["events"]
    assert {"type": "undo"} in game.events and any(e["type"] == "rule" for e in game.events)
    assert waiting == data["next_deal"] == [{"type": "rule", "text": "set tableau.count 12"}]
    assert game.rules.name == "Forty Thieves"
    assert "no-kings" in json.dumps(game.rules.plain())  # the rule change made in play is in force


def test_a_version_1_game_saved_again_is_version_2_and_loads_the_same(tmp_path):
    path = copied(V1_GAME, tmp_path)
    game, waiting = load_game(path, with_next_deal=True)
    kept = save_game(game, path, waiting)
    data = raw(path)
    assert data["version"] == VERSION == 2
    assert data["checksum"] == content_checksum(data)
    again, waiting_again = load_game(path, with_next_deal=True)
    assert again.state.key() == game.state.key()
    assert again.events == game.events and waiting_again == waiting
    # The version-1 file replaced is whole, so it is the backup, byte for byte.
    assert kept == tmp_path / "forty-thieves.json.bak"
    assert kept.read_bytes() == V1_GAME.read_bytes()


def test_a_version_1_match_loads_and_saved_again_is_version_2(tmp_path):
    data = raw(V1_MATCH)
    match = load_saved(V1_MATCH)
    assert hasattr(match, "seats") and match.seed == data["seed"] == 2
    assert match.events == data["events"]
    assert any(e["type"] == "change" for e in match.events)
    path = copied(V1_MATCH, tmp_path)
    save_match(match, path)
    assert raw(path)["version"] == 2 and raw(path)["checksum"] == content_checksum(raw(path))
    again = load_saved(path)
    assert again.events == match.events and again.turn == match.turn


def test_a_version_1_file_is_not_checked_against_a_checksum_it_never_had(tmp_path):
    # Version 1 had no checksum: an edit that keeps the save valid cannot be told from the original, and loads.
    data = raw(V1_GAME)
    data["game"] = "Forty Thieves (renamed)"
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert load_game(path).events == data["events"]


@pytest.mark.parametrize("version", [VERSION + 1, 99])
def test_a_save_of_a_newer_version_is_refused_with_what_to_do(tmp_path, version):
    data = {**raw(V1_GAME), "version": version}
    path = tmp_path / "newer.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(KallistiError) as info:
        load_game(path)
    finding = info.value.findings[0]
    assert finding.code == "save-version"
    assert "newer kallisti" in finding.message and "upgrade kallisti" in finding.suggestion
