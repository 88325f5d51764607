"""The security contract (docs/security.md) for saves, paths and terminals: a save holding invalid Unicode or terminal
escapes is refused with a finding, a save's log has a limit, `load` and `save` mistakes never end a game, every
filesystem error on `extends` is a finding at its value, and no text typed or piped in reaches a terminal raw."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.cli.play import QUIT, RulesWatcher, run_session
from kallisti.errors import KallistiError
from kallisti.interpreter import save as saves
from kallisti.interpreter import save_log
from kallisti.interpreter.game import Game
from kallisti.interpreter.notation import describe
from kallisti.interpreter.save import game_to_data, load_game, load_saved, match_to_data, save_game, save_text
from kallisti.interpreter.save_log import MAX_SAVE_CHANGES, MAX_SAVE_EVENTS
from kallisti.model.ruleset import load_ruleset
from harness import output_of, web_client

runner = CliRunner()
SEED = 3
# What no output may carry: ESC, BEL, the 8-bit CSI, OSC, DCS and ST, NUL, and a bidirectional override.
RAW = ("\x1b", "\x07", "\x9b", "\x9d", "\x90", "\x9c", "\x00", "\u202e")
# Input lines that would take over a terminal echoed raw: set the window title (OSC 0), reset the terminal (ESC c),
# write the clipboard (OSC 52), query the terminal (DCS), clear the screen (CSI), the same in 8-bit controls, and a
# bidirectional override.
HOSTILE_WORDS = ["\x1b]0;pwned\x07", "\x1bc", "\x1b]52;c;cHduZWQ=\x07", "\x1bP1$qm\x1b\\", "\x1b[2J", "\x9b2J",
                 "\x9d0;pwned\x9c", "t\u202e1"]


@pytest.fixture(scope="module")
def forty():
    return load_ruleset("forty-thieves")


def assert_clean(text: str) -> None:
    assert "Traceback" not in text
    for ch in RAW:
        assert ch not in text, f"{ch!r} reached the output: {text[-500:]!r}"


def played(rules, n: int) -> tuple[Game, list[str]]:
    """Deal SEED with its first `n` legal moves made, and the commands that made them."""
    game = Game(rules, seed=SEED)
    commands = []
    for _ in range(n):
        command = describe(game, game.legal_moves()[0])
        game.play(game.legal_moves()[0])
        commands.append(command)
    return game, commands


def write_data(path: Path, data: dict) -> Path:
    """A save of `data`, whole: its ruleset's hash and its checksum made for what it holds."""
    data["ruleset"]["sha256"] = saves.ruleset_hash(data["ruleset"]["resolved"])
    path.write_text(save_text(data), encoding="utf-8")
    return path


def with_surrogate(path: Path, rules) -> Path:
    """A save whose game name holds `\\ud800` written as a JSON escape: half of a surrogate pair, no character."""
    save_game(played(rules, 1)[0], path)
    text = path.read_text(encoding="utf-8")
    assert '"game": "Forty Thieves"' in text
    path.write_text(text.replace('"game": "Forty Thieves"', '"game": "Forty \\ud800Thieves"', 1), encoding="utf-8")
    return path


def refusal(path: Path):
    with pytest.raises(KallistiError) as caught:
        load_saved(path)
    return caught.value.findings[0]


# -- saves: invalid Unicode and terminal escapes ------------------------------------------------------------------

@pytest.mark.parametrize("old, new", [
    ('"game": "Forty Thieves"', '"game": "Forty \\ud800Thieves"'),  # a value
    ('"events": [', '"\\udfff": 1, "events": ['),  # a key
    ('"type": "move"', '"type": "mo\\udc80ve"'),  # an event
    ('"description": "', '"description": "\\ud83d'),  # deep in the ruleset: the first half of an emoji, alone
])
def test_a_lone_surrogate_anywhere_in_a_save_is_refused_with_a_finding(forty, tmp_path, old, new):
    path = tmp_path / "game.json"
    save_game(played(forty, 1)[0], path)
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    finding = refusal(path)
    assert finding.code == "save-control-char", str(finding)
    assert "invalid Unicode" in finding.message
    line = text.replace(old, new, 1)[: text.index(old)].count("\n") + 1
    assert finding.pos.source == str(path) and finding.pos.line == line
    assert finding.suggestion  # what to load instead


def test_a_save_holding_a_lone_surrogate_is_saved_over_and_play_goes_on(forty, tmp_path):
    path = with_surrogate(tmp_path / "game.json", forty)
    game, commands = played(forty, 2)
    out, err = [], []
    code = run_session(Game(forty, seed=SEED), commands + [f"save {path}", "q"], out.append, err=err.append)
    assert code == QUIT and f"saved to {path}" in out, out[-3:] + err
    assert load_game(path).state.key() == game.state.key()
    assert not saves.backup_path(path).exists()  # a damaged save is not kept as the backup


@pytest.mark.parametrize("where", ["game", "ruleset name", "says", "seat"])
def test_terminal_escapes_in_a_save_are_refused_though_its_checksum_is_right(tmp_path, where):
    escape = "\x1b]0;pwned\x07\x1b[2J"
    if where == "seat":
        from kallisti.interpreter.match import Match, Seat

        data = match_to_data(Match(load_ruleset("discordian"), [Seat("ann"), Seat("bot", "random")], 1))
        data["seats"][0]["name"] = "ann" + escape
    else:
        data = game_to_data(Game(load_ruleset("forty-thieves"), seed=SEED))
        if where == "game":
            data["game"] = escape
        elif where == "ruleset name":
            data["ruleset"]["resolved"]["game"] = escape
        else:
            data["ruleset"]["resolved"]["honour"] = {"x": {"at": "before-move", "says": escape}}
    path = write_data(tmp_path / "game.json", data)
    finding = refusal(path)
    assert finding.code == "save-control-char" and "U+001B" in finding.message and finding.pos.line > 1
    result = runner.invoke(app, ["play", "forty-thieves", "--seed", "1"], input=f"load {path}\nq\n")
    assert result.exit_code == QUIT
    assert_clean(output_of(result))


def test_a_saved_ruleset_is_checked_for_unsafe_text_as_a_ruleset_file_is(forty):
    # Save data that never was a file (the web's store keeps sessions so) passes the same check as a ruleset file.
    data = game_to_data(Game(forty, seed=SEED))
    data["ruleset"]["resolved"]["game"] = "Forty \x1b]0;pwned\x07Thieves"
    data["ruleset"]["sha256"] = saves.ruleset_hash(data["ruleset"]["resolved"])
    with pytest.raises(KallistiError) as caught:
        saves.game_from_data(data)
    assert caught.value.findings[0].code == "control-char"
    assert_clean(str(caught.value))


# -- saves: the limits on a log ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("events, next_deal, what", [
    ([{"type": "undo"}] * (MAX_SAVE_EVENTS + 1), [], f"{MAX_SAVE_EVENTS + 1:,} events"),
    ([{"type": "rule", "text": 'set game "G"'}] * (MAX_SAVE_CHANGES + 1), [], f"{MAX_SAVE_CHANGES + 1:,} rule changes"),
    ([{"type": "rule", "text": 'set game "G"'}] * MAX_SAVE_CHANGES, [{"type": "rule", "text": "set tableau.count 9"}],
     f"{MAX_SAVE_CHANGES + 1:,} rule changes"),
])
def test_a_save_holding_more_events_than_its_limit_is_refused_before_any_is_replayed(forty, tmp_path, events,
                                                                                     next_deal, what):
    data = game_to_data(Game(forty, seed=SEED))
    data["events"] = events
    if next_deal:
        data["next_deal"] = next_deal
    path = write_data(tmp_path / "game.json", data)
    start = time.perf_counter()
    finding = refusal(path)
    assert time.perf_counter() - start < 5
    assert finding.code == "save-too-many-events" and what in finding.message, str(finding)


def test_a_match_save_holding_more_rule_changes_than_its_limit_is_refused(tmp_path):
    from kallisti.interpreter.match import Match, Seat

    data = match_to_data(Match(load_ruleset("discordian"), [Seat("ann"), Seat("bob")], 1))
    data["events"] = [{"type": "change", "by": 1, "on": 0, "text": "set field.count 5"}] * (MAX_SAVE_CHANGES + 1)
    finding = refusal(write_data(tmp_path / "match.json", data))
    assert finding.code == "save-too-many-events" and "rule changes" in finding.message


def test_play_refuses_a_rule_change_beyond_what_a_save_holds_and_new_starts_a_log_of_its_own(forty, tmp_path,
                                                                                             monkeypatch):
    monkeypatch.setattr(save_log, "MAX_SAVE_CHANGES", 2)
    path = tmp_path / "game.json"
    out, err = [], []
    code = run_session(Game(forty, seed=SEED), ['rule set game "One"', "rule set tableau.count 9", 'rule set game "Two"',
                                                f"save {path}", "new 4", 'rule set game "Three"', "q"],
                       out.append, err=err.append)
    assert code == QUIT
    refused = [i for i, line in enumerate(out) if line.startswith("change refused")]
    assert len(refused) == 1 and "error change-too-many" in out[refused[0] + 1], out
    assert "rule changed, from the next move: set game \"Three\"" in out  # after `new`, a log of its own
    game, waiting = load_game(path, with_next_deal=True)
    assert game.rules.name == "One" and len(waiting) == 1


def test_a_game_whose_log_is_longer_than_a_save_holds_is_not_saved_and_play_goes_on(forty, tmp_path, monkeypatch):
    monkeypatch.setattr(save_log, "MAX_SAVE_EVENTS", 2)
    path = tmp_path / "game.json"
    _, commands = played(forty, 3)
    out, err = [], []
    code = run_session(Game(forty, seed=SEED), commands + [f"save {path}", "q"], out.append, err=err.append)
    assert code == QUIT and not path.exists()
    assert any("error save-too-many-events" in line for line in err) and "not saved; the game goes on unsaved" in out


# -- play: a mistake with a file never ends the game ------------------------------------------------------------------

def test_one_play_session_survives_every_file_mistake_and_saves_the_game_afterwards(forty, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes, not a save\n", encoding="utf-8")
    save_game(played(forty, 1)[0], tmp_path / "damaged.json")
    damaged = (tmp_path / "damaged.json").read_bytes()
    (tmp_path / "damaged.json").write_bytes(damaged[: len(damaged) // 2])  # cut short
    with_surrogate(tmp_path / "surrogate.json", forty)
    game, commands = played(forty, 2)
    script = [commands[0], "save notes.txt", "load nothere.sav", "load damaged.json", "load surrogate.json",
              commands[1], "save game.json", "q"]
    result = runner.invoke(app, ["play", "forty-thieves", "--seed", str(SEED)], input="\n".join(script) + "\n")
    out = output_of(result)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code == QUIT, out
    assert_clean(out)
    for code in ("save-overwrite", "save-unreadable", "save-syntax", "save-control-char"):
        assert f"error {code}:" in out, code
    assert out.count("not loaded; the game goes on as it was") == 3
    assert "not saved; the game goes on unsaved" in out and "saved to game.json" in out
    assert notes.read_text(encoding="utf-8") == "my notes, not a save\n"
    assert not (tmp_path / "notes.txt.bak").exists()
    assert load_game(tmp_path / "game.json").state.key() == game.state.key()


@pytest.mark.parametrize("target", ["notes", "folder", "empty", "damaged save"])
def test_save_replaces_only_a_save_or_an_empty_file(forty, tmp_path, target):
    path = tmp_path / "target.json"
    if target == "notes":
        path.write_text('{"format": "not kallisti"}\n', encoding="utf-8")
    elif target == "folder":
        path.mkdir()
    elif target == "empty":
        path.write_bytes(b"")
    else:
        save_game(played(forty, 1)[0], path)
        path.write_bytes(path.read_bytes()[:300])
    game = played(forty, 2)[0]
    if target in ("notes", "folder"):
        with pytest.raises(KallistiError) as caught:
            save_game(game, path)
        assert caught.value.findings[0].code == "save-overwrite"
        assert path.is_dir() or path.read_text(encoding="utf-8") == '{"format": "not kallisti"}\n'
    else:
        assert save_game(game, path) is None  # nothing whole to keep
        assert load_game(path).state.key() == game.state.key()


def test_a_match_session_survives_file_mistakes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("notes\n", encoding="utf-8")
    script = "load nothere.json\nsave notes.txt\nsave match.json\nq\n"
    result = runner.invoke(app, ["play", "discordian", "--seed", "1", "--players", "ann,bot"], input=script)
    out = output_of(result)
    assert result.exit_code == QUIT, out
    assert "error save-unreadable:" in out and "error save-overwrite:" in out and "saved to match.json" in out
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "notes\n"
    assert load_saved(tmp_path / "match.json").seats[0].name == "ann"


# -- extends: every filesystem error is a finding at its value ---------------------------------------------------------

COMMANDS = [["validate"], ["check", "--deals", "1"], ["show"], ["convert", "--to", "rules"], ["simulate", "--deals", "1"],
            ["solve", "--states", "10"], ["play"]]


def variant(folder: Path, ref: str) -> Path:
    path = folder / "variant.yaml"
    path.write_text(f'extends: "{ref}"\ngame: Variant\n', encoding="utf-8")
    return path


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
@pytest.mark.parametrize("ref", ["loop.yaml", "loop.yaml/inner.yaml", "via-loop"])
def test_extends_through_a_symlink_loop_is_a_finding_at_its_value(tmp_path, command, ref):
    (tmp_path / "loop.yaml").symlink_to("loop.yaml")
    (tmp_path / "via-loop").symlink_to("loop.yaml/inner.yaml")
    path = variant(tmp_path, ref)
    result = runner.invoke(app, [*command, str(path)], input="q\n")
    out = output_of(result)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert result.exit_code in (1, 2), out  # simulate and solve answer a bad ruleset with their usage code
    assert f"{path}:1:11: error unknown-game: `extends: {ref}` names no file that can be reached: following it goes " \
           "round a loop of symbolic links" in out
    assert_clean(out)


def test_an_extends_loop_is_found_where_resolving_a_path_does_not_raise(tmp_path, monkeypatch):
    # Python 3.13's Path.resolve() follows a loop quietly where 3.11's raises RuntimeError: both are findings.
    (tmp_path / "loop.yaml").symlink_to("loop.yaml")
    path = variant(tmp_path, "loop.yaml")
    monkeypatch.setattr(Path, "resolve", lambda self, strict=False: Path(os.path.realpath(self)))
    with pytest.raises(KallistiError) as caught:
        load_ruleset(path)
    finding = caught.value.findings[0]
    assert finding.code == "unknown-game" and "loop of symbolic links" in finding.message
    assert (finding.pos.line, finding.pos.column) == (1, 11)


@pytest.mark.parametrize("ref", ["a" * 300 + ".yaml", "/".join(["b" * 250] * 20) + ".yaml"])
def test_extends_naming_a_path_too_long_for_the_system_is_a_finding_at_its_value(tmp_path, ref):
    with pytest.raises(KallistiError) as caught:
        load_ruleset(variant(tmp_path, ref))
    finding = caught.value.findings[0]
    assert finding.code == "unknown-game" and (finding.pos.line, finding.pos.column) == (1, 11)


def test_extends_naming_a_file_that_cannot_be_read_is_a_finding_at_its_value(tmp_path, monkeypatch):
    import kallisti.textfiles as textfiles

    (tmp_path / "base.yaml").write_text("extends: forty-thieves\ngame: Base\n", encoding="utf-8")
    path = variant(tmp_path, "base.yaml")
    real_open = os.open

    def denied(name, *args, **kwargs):  # as for a file of another user, mode 600 (the tests may run as root)
        if Path(name).name == "base.yaml":
            raise PermissionError(13, "Permission denied", str(name))
        return real_open(name, *args, **kwargs)

    monkeypatch.setattr(textfiles.os, "open", denied)
    with pytest.raises(KallistiError) as caught:
        load_ruleset(path)
    finding = caught.value.findings[0]
    assert finding.code == "file-unreadable" and finding.pos.source == str(path)
    assert (finding.pos.line, finding.pos.column) == (1, 11) and "Permission denied" in finding.message


def test_play_watch_reports_an_extends_loop_like_any_bad_edit_and_plays_on(forty, tmp_path):
    (tmp_path / "loop.yaml").symlink_to("loop.yaml")
    path = tmp_path / "mine.yaml"
    good = "extends: forty-thieves\ngame: Mine\n"
    path.write_text(good, encoding="utf-8")
    rules = load_ruleset(path)
    game, commands = played(rules, 2)

    def lines():
        yield commands[0]
        path.write_text("extends: loop.yaml\ngame: Mine\n", encoding="utf-8")
        yield commands[1]
        path.write_text(good.replace("Mine", "Mine again"), encoding="utf-8")
        yield "table"

    out = []
    code = run_session(Game(rules, seed=SEED), lines(), out.append, watcher=RulesWatcher(path, rules))
    assert code == QUIT
    assert f"{path} changed but cannot be used; play goes on under the old rules:" in out
    assert any("error unknown-game" in line and "loop of symbolic links" in line for line in out)
    assert f"{path} reloaded: the new rules apply from the next move" in out


# -- nothing typed or piped in reaches a terminal raw ------------------------------------------------------------------

def hostile_lines(prefixes: list[str]) -> str:
    return "".join(f"{prefix}{word}\n" for prefix in prefixes for word in HOSTILE_WORDS)


def test_play_echoes_no_piped_escape(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    script = hostile_lines(["", "t1 ", "t1 t2 ", "save ", "load ", "rule ", "new ", "rule set game "]) + "q\n"
    result = runner.invoke(app, ["play", "forty-thieves", "--seed", "1"], input=script)
    out = output_of(result)
    assert result.exit_code == QUIT, out
    assert_clean(out)
    assert "refused: '<U+001B>]0;pwned<U+0007>' names no pile" in out


def test_a_real_process_echoes_no_piped_escape():
    import subprocess
    import sys

    env = dict(os.environ, PYTHONIOENCODING="utf-8", NO_COLOR="1")
    proc = subprocess.run([sys.executable, "-m", "kallisti", "play", "forty-thieves", "--seed", "1"],
                          input=b"\x1b]0;pwned\x07 t1\n\x1bc\n\x1b]52;c;cHduZWQ=\x07 t1\nq\n", capture_output=True,
                          env=env, timeout=120)
    out = (proc.stdout + proc.stderr).decode("utf-8")
    assert proc.returncode == QUIT, out
    assert_clean(out)


def test_match_play_echoes_no_piped_escape(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    script = "ok\nok\n" + hostile_lines(["", "c1 ", "revoke ", "diff ", "save ", "load ", "rule "]) + "q\n"
    result = runner.invoke(app, ["play", "discordian", "--seed", "1", "--players", "ann,bot"], input=script)
    out = output_of(result)
    assert result.exit_code == QUIT, out
    assert_clean(out)
    assert "no player named '<U+001B>c'" in out


def test_table_play_echoes_no_piped_escape():
    script = hostile_lines(["", "fold "]) * 3 + "q\n"
    result = runner.invoke(app, ["play", "onion", "--seed", "1", "--players", "me,bot"], input=script)
    assert_clean(output_of(result))


@pytest.mark.parametrize("args", [["hand", "onion", "2C 2D 3S 4H 4C 6H 7C KS KD " + HOSTILE_WORDS[0]],
                                  ["hand", "onion", "-m", HOSTILE_WORDS[1], "2C 2D 3S 4H 4C 6H 7C KS KD AS"],
                                  ["hand", "onion", "--format", "json", "2C 2D 3S 4H 4C 6H 7C KS KD " + HOSTILE_WORDS[5]],
                                  ["play", "discordian", "--players", "ann" + HOSTILE_WORDS[0] + ",bot"],
                                  ["play", "onion", "--players", "me" + HOSTILE_WORDS[2] + ",bot"]])
def test_command_line_words_are_never_echoed_raw(args):
    result = runner.invoke(app, args, input="q\n")
    assert result.exit_code in (1, 2), output_of(result)
    assert_clean(output_of(result))


def test_the_web_api_error_messages_echo_no_escape():
    with web_client() as client:
        answers = [client.post("/api/sessions", json={"game": HOSTILE_WORDS[0]}),
                   client.post("/api/sessions", json={"game": "discordian", "players": ["ann" + HOSTILE_WORDS[1], "bot"]})]
        sid = client.post("/api/sessions", json={"game": "forty-thieves", "seed": 1}).json()["id"]
        answers += [client.post(f"/api/sessions/{sid}/move", json={"text": word + " t1"}) for word in HOSTILE_WORDS]
        answers.append(client.post(f"/api/sessions/{sid}/rule", json={"text": "set game " + HOSTILE_WORDS[2]}))
        for answer in answers:  # an error, or a refusal (an ordinary answer that says `ok: false`)
            assert answer.status_code >= 400 or answer.json()["ok"] is False, answer.text
            assert_clean(json.dumps(answer.json(), ensure_ascii=False))


def test_the_web_api_takes_no_rule_change_beyond_what_a_save_holds(monkeypatch):
    # Its sessions are saved when closed to make room: a game it could not save again would be lost.
    monkeypatch.setattr(save_log, "MAX_SAVE_CHANGES", 1)
    with web_client() as client:
        sid = client.post("/api/sessions", json={"game": "forty-thieves", "seed": 1}).json()["id"]
        assert client.post(f"/api/sessions/{sid}/rule", json={"text": 'set game "One"'}).status_code == 200
        refused = client.post(f"/api/sessions/{sid}/rule", json={"text": 'set game "Two"'})
        assert (refused.status_code, refused.json()["ok"]) == (200, False)
        assert [f["code"] for f in refused.json()["error"]["findings"]] == ["change-too-many"]
