"""Save files: a versioned JSON format, strict loading with precise errors, and atomic writes.

Crash safety (checksums, the backup, kills mid-save): test_crash_safety.py; older versions: test_save_migrations.py."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from kallisti.errors import KallistiError
from kallisti.interpreter.game import Game
from kallisti.interpreter.save import game_to_data, load_game, save_game, save_text
from kallisti.model.ruleset import load_ruleset

RANKS = "A 2 3 4 5 6 7 8 9 10 J Q K".split()


@pytest.fixture(scope="module")
def rules():
    return load_ruleset("forty-thieves")


def played(rules, seed: int = 3, moves: int = 12) -> Game:
    """A game a few random steps in, with an undo among them."""
    game = Game(rules, seed=seed)
    rnd = random.Random(seed)
    for i in range(moves):
        legal = game.legal_moves()
        if not legal:
            break
        game.play(legal[rnd.randrange(len(legal))])
        if i == 4:
            game.undo()
    return game


def saved(rules, tmp_path: Path, **kw) -> tuple[Game, Path]:
    game = played(rules, **kw)
    path = tmp_path / "game.json"
    save_game(game, path)
    return game, path


def write_json(path: Path, data) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def write_save(path: Path, data: dict) -> Path:
    """`data` written as kallisti writes a save, checksum included: a save edited by a program that signs it again,
    so that what is refused is the edit, not the checksum."""
    path.write_text(save_text(data), encoding="utf-8")
    return path


def refusal(path: Path):
    """The single finding load_game raises for `path`."""
    with pytest.raises(KallistiError) as info:
        load_game(path)
    assert info.value.findings, "a refused save names at least one finding"
    return info.value.findings[0]


# -- the format -------------------------------------------------------------------------------

def test_save_is_versioned_json(rules, tmp_path):
    game, path = saved(rules, tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "kallisti-save"
    assert data["version"] == 2
    assert data["checksum"].startswith("sha256:")
    assert data["game"] == "Forty Thieves"
    assert data["deal"]["seed"] == 3
    assert data["deal"]["order"] == game.order
    assert sorted(data["deal"]["order"]) == list(range(104))
    assert data["deal"]["cards"].split() == [game.deck.ascii_name(c) for c in game.order]
    assert data["events"] == game.events
    assert {"type": "undo"} in data["events"]
    assert all(e["type"] in ("move", "auto", "undo", "redo") for e in data["events"])
    # The ruleset travels with the save, so a later change to the ruleset file cannot change it.
    assert data["ruleset"]["resolved"]["game"] == "Forty Thieves"
    assert len(data["ruleset"]["sha256"]) == 64


def test_save_is_plain_data(rules):
    data = game_to_data(played(rules))
    assert json.loads(json.dumps(data)) == data


def test_save_and_load_round_trip(rules, tmp_path):
    game, path = saved(rules, tmp_path)
    loaded = load_game(path)
    assert loaded.state.key() == game.state.key()
    assert loaded.events == game.events
    assert loaded.order == game.order
    assert loaded.legal_moves() == game.legal_moves()
    # Undo history survives: the loaded game undoes like the original.
    while game.undo():
        assert loaded.undo()
        assert loaded.state.key() == game.state.key()
    assert not loaded.undo()


def test_saving_twice_replaces_the_file(rules, tmp_path):
    game, path = saved(rules, tmp_path)
    game.play(game.legal_moves()[0])
    save_game(game, path)
    assert load_game(path).state.key() == game.state.key()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "game.json.bak"]  # the save it replaced


def test_one_card_moved_into_a_space_is_replayed_as_one_card(tmp_path):
    # In Emperor a pile may move one card or all its face-up cards; moving just one card into a
    # space must replay as just that card when the save is loaded.
    rules = load_ruleset("emperor")
    game, rnd = Game(rules, seed=2), random.Random(1)  # a deal whose random play reaches such a position
    single = None
    for _ in range(300):
        moves = game.legal_moves()
        steps = [game.decode(m) for m in moves]
        single = next((m for m, (kind, src, dst, n) in zip(moves, steps) if kind == "move" and n == 1
                       and any(s[1:3] == (src, dst) and s[3] > 1 for s in steps)), None)
        if single is not None:
            break
        game.play(moves[rnd.randrange(len(moves))])
    assert single is not None, "random play reaches a position where one card or a run may move into a space"
    game.play(single)
    path = tmp_path / "emperor.json"
    save_game(game, path)
    assert load_game(path).state.key() == game.state.key()


# -- refusing bad saves -------------------------------------------------------------------------

@pytest.mark.parametrize("version", [3, 0, "1", None, True])
def test_wrong_version_is_refused(rules, tmp_path, version):
    _, path = saved(rules, tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    data["version"] = version
    finding = refusal(write_json(path, data))
    assert finding.code == "save-version"
    assert repr(version) in finding.message


def test_missing_version_is_refused(rules, tmp_path):
    _, path = saved(rules, tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["version"]
    assert refusal(write_json(path, data)).code == "save-version"


@pytest.mark.parametrize("data", [{"hello": "world"}, [], [1, 2], "kallisti-save", 7, None,
                                  {"format": "other-save", "version": 1}])
def test_json_that_is_not_a_save_is_refused(tmp_path, data):
    finding = refusal(write_json(tmp_path / "other.json", data))
    assert finding.code == "save-format"
    assert finding.pos.source == str(tmp_path / "other.json")


@pytest.mark.parametrize("missing", ["ruleset", "deal", "events"])
def test_save_without_a_part_is_refused(rules, tmp_path, missing):
    _, path = saved(rules, tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    del data[missing]
    assert refusal(write_save(path, data)).code == "save-shape"


@pytest.mark.parametrize("fraction", [0.0, 0.01, 0.3, 0.5, 0.9, 0.999])
def test_truncated_file_is_a_syntax_error_with_position(rules, tmp_path, fraction):
    _, path = saved(rules, tmp_path)
    text = path.read_text(encoding="utf-8")
    cut = text[: int(len(text) * fraction)]
    path.write_text(cut, encoding="utf-8")
    finding = refusal(path)
    assert finding.code == "save-syntax"
    assert finding.pos.source == str(path)
    assert 1 <= finding.pos.line <= cut.count("\n") + 1
    assert finding.pos.column >= 1
    assert f"{path}:{finding.pos.line}:{finding.pos.column}" in str(finding)


def test_file_truncated_inside_a_character_still_names_line_and_column(rules, tmp_path):
    # The save holds the suit symbols (e.g. ♣, three bytes in UTF-8); a write cut off in the
    # middle of one leaves invalid UTF-8, which is still a truncated save with a position.
    _, path = saved(rules, tmp_path)
    raw = path.read_bytes()
    at = raw.index("♣".encode())
    path.write_bytes(raw[: at + 1])
    finding = refusal(path)
    assert finding.code == "save-syntax"
    assert finding.pos.line == raw[:at].count(b"\n") + 1
    assert finding.pos.column >= 1


def test_unreadable_file_is_refused(tmp_path):
    assert refusal(tmp_path / "nowhere.json").code == "save-unreadable"


def tampered(rules, tmp_path, change) -> Path:
    _, path = saved(rules, tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    return write_save(path, data)


@pytest.mark.parametrize("change", [
    pytest.param(lambda o: o.__setitem__(1, o[0]), id="duplicate-card"),
    pytest.param(lambda o: o.pop(), id="missing-card"),
    pytest.param(lambda o: o.append(104), id="extra-card"),
    pytest.param(lambda o: o.__setitem__(5, 104), id="out-of-range"),
    pytest.param(lambda o: o.__setitem__(5, -1), id="negative"),
    pytest.param(lambda o: o.__setitem__(5, "AS"), id="card-name"),
    pytest.param(lambda o: o.__setitem__(5, 5.0), id="float"),
])
def test_tampered_deal_is_refused(rules, tmp_path, change):
    path = tampered(rules, tmp_path, lambda d: change(d["deal"]["order"]))
    assert refusal(path).code == "save-deal"


@pytest.mark.parametrize("order", [5, None, "3D 8S JC", {"0": 1}])
def test_deal_that_is_not_a_list_is_refused(rules, tmp_path, order):
    path = tampered(rules, tmp_path, lambda d: d["deal"].__setitem__("order", order))
    assert refusal(path).code in ("save-deal", "save-shape")


def test_deal_whose_cards_disagree_with_its_order_is_refused(rules, tmp_path):
    # Swapping two cards keeps the order a permutation, but the save's own card list
    # (written alongside the order) no longer matches it: the deal was edited.
    def swap(data):
        order = data["deal"]["order"]
        i = next(i for i in range(1, 104) if order[i] % 52 != order[0] % 52)
        order[0], order[i] = order[i], order[0]

    assert refusal(tampered(rules, tmp_path, swap)).code == "save-deal"


def test_tampered_ruleset_is_refused(rules, tmp_path):
    # The save records the hash of its resolved ruleset; a changed rule must not load silently
    # (here: a win condition that holds from the start).
    path = tampered(rules, tmp_path, lambda d: d["ruleset"]["resolved"].__setitem__("win", "foundation.size == 0"))
    assert refusal(path).code.startswith("save-")


@pytest.mark.parametrize("event", [
    {"type": "move", "move": "f1 t1"},
    {"type": "move", "move": "t1 t1"},
    {"type": "move", "move": "x9 t1"},
    {"type": "move", "move": ""},
    {"type": "move"},
    {"type": "teleport"},
    {"move": "d"},
    "d",
])
def test_event_the_rules_refuse_is_refused(rules, tmp_path, event):
    def change(data):
        data["events"][1] = event

    finding = refusal(tampered(rules, tmp_path, change))
    assert finding.code == "save-event"
    assert "event 1" in finding.message


def test_undo_with_nothing_to_undo_is_refused(rules, tmp_path):
    path = tampered(rules, tmp_path, lambda d: d["events"].insert(0, {"type": "undo"}))
    finding = refusal(path)
    assert finding.code == "save-event"
    assert "event 0" in finding.message


def test_redo_with_nothing_to_redo_is_refused(rules, tmp_path):
    path = tampered(rules, tmp_path, lambda d: d["events"].append({"type": "redo"}))
    assert refusal(path).code == "save-event"


@pytest.mark.parametrize("events", [5, None])
def test_events_that_are_not_a_list_are_refused(rules, tmp_path, events):
    path = tampered(rules, tmp_path, lambda d: d.__setitem__("events", events))
    assert refusal(path).code in ("save-shape", "save-event")


def test_invalid_ruleset_in_save_is_refused(rules, tmp_path):
    path = tampered(rules, tmp_path, lambda d: d["ruleset"]["resolved"]["piles"]["tableau"].__setitem__("count", "ten"))
    with pytest.raises(KallistiError):
        load_game(path)


# -- atomic writes -----------------------------------------------------------------------------

def test_failed_replace_keeps_the_previous_save(rules, tmp_path, monkeypatch):
    game, path = saved(rules, tmp_path)
    before = path.read_bytes()
    game.play(game.legal_moves()[0])

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        save_game(game, path)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"], "no temporary file is left behind"
    assert load_game(path).events == json.loads(before)["events"]


def test_failed_first_save_leaves_nothing(rules, tmp_path, monkeypatch):
    game = played(rules)

    def broken_replace(src, dst):
        raise OSError(13, "Permission denied")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError):
        save_game(game, tmp_path / "new.json")
    assert list(tmp_path.iterdir()) == []


def test_interrupted_write_keeps_the_previous_save(rules, tmp_path, monkeypatch):
    game, path = saved(rules, tmp_path)
    before = path.read_bytes()
    game.play(game.legal_moves()[0])

    def interrupted(fd):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        save_game(game, path)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["game.json"]
