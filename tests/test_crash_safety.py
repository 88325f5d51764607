"""Never lose a player's game: saves carry a checksum and keep the save they replace, every file is written
atomically, and `kallisti play` and `kallisti simulate` killed with SIGKILL at fixed points lose at most what was
in progress. The kill tests run the real command in a subprocess and wait on files, never on the clock."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kallisti import durable
from kallisti.cli.play import QUIT, run_session
from kallisti.durable import PAUSE_BEFORE_RENAME, write_atomic
from kallisti.errors import KallistiError
from kallisti.interpreter.game import Game
from kallisti.interpreter.notation import describe, parse_move
from kallisti.interpreter.save import backup_path, content_checksum, load_game, save_game
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.simulate import simulate

GAME, SEED = "forty-thieves", 3
WAIT_SECONDS = 120  # how long a kill test waits for a file before it gives up: generous, as it is never the result

needs_sigkill = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="SIGKILL is a POSIX signal")


@pytest.fixture(scope="module")
def rules():
    return load_ruleset(GAME)


def commands(rules, count: int) -> list[str]:
    """The first `count` moves of deal SEED as commands, moves on the table before stock deals."""
    game, made = Game(rules, seed=SEED), []
    for _ in range(count):
        legal = game.legal_moves()
        m = next((m for m in legal if describe(game, m) != "d"), legal[0])
        made.append(describe(game, m))
        game.play(m)
    return made


def game_after(rules, moves: list[str]) -> Game:
    """Deal SEED after `moves`: what a save of that point must load to."""
    game = Game(rules, seed=SEED)
    for text in moves:
        game.play(parse_move(game, text))
    return game


def refusal(path: Path):
    with pytest.raises(KallistiError) as info:
        load_game(path)
    return info.value.findings[0]


# -- the checksum ---------------------------------------------------------------------------------------------------

def test_a_save_records_the_checksum_of_its_content(rules, tmp_path):
    path = tmp_path / "game.json"
    save_game(game_after(rules, commands(rules, 3)), path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert list(data)[:3] == ["format", "version", "checksum"]
    assert data["checksum"] == content_checksum(data) and data["checksum"].startswith("sha256:")
    # Over the content, not the bytes: the same save indented otherwise is still whole.
    path.write_text(json.dumps(data, indent=4), encoding="utf-8")
    assert load_game(path).events == data["events"]


def test_a_value_changed_in_a_save_is_refused_by_its_checksum(rules, tmp_path):
    # The edited save is still a valid one (another legal first move), so only the checksum can tell.
    path = tmp_path / "game.json"
    save_game(game_after(rules, commands(rules, 1)), path)
    data = json.loads(path.read_text(encoding="utf-8"))
    fresh = Game(rules, seed=SEED)
    other = next(describe(fresh, m) for m in fresh.legal_moves() if describe(fresh, m) != data["events"][0]["move"])
    data["events"][0]["move"] = other
    path.write_text(json.dumps(data), encoding="utf-8")
    finding = refusal(path)
    assert finding.code == "save-checksum"
    assert finding.pos.source == str(path)
    assert "does not match its checksum" in finding.message and "damaged or edited" in finding.message
    assert "no whole backup game.json.bak" in finding.suggestion  # what to do, when there is no backup


def test_a_save_of_version_2_without_its_checksum_is_refused(rules, tmp_path):
    path = tmp_path / "game.json"
    save_game(game_after(rules, commands(rules, 2)), path)
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["checksum"]
    path.write_text(json.dumps(data), encoding="utf-8")
    finding = refusal(path)
    assert finding.code == "save-checksum" and "no checksum" in finding.message


def test_every_flipped_bit_is_refused_with_a_finding_never_a_traceback(rules, tmp_path):
    path = tmp_path / "game.json"
    save_game(game_after(rules, commands(rules, 4)), path)
    whole = path.read_bytes()
    rnd = random.Random(5)
    for at in sorted(rnd.sample(range(len(whole)), 150)):
        damaged = bytearray(whole)
        damaged[at] ^= 1 << rnd.randrange(8)
        path.write_bytes(bytes(damaged))
        assert refusal(path).code.startswith("save-"), at  # mostly save-checksum or save-syntax


@pytest.mark.parametrize("fraction", [0.0, 0.2, 0.5, 0.9, 0.999])
def test_a_truncated_save_names_the_backup_to_load_instead(rules, tmp_path, fraction):
    path = tmp_path / "game.json"
    save_game(game_after(rules, commands(rules, 2)), path)
    save_game(game_after(rules, commands(rules, 4)), path)
    text = path.read_text(encoding="utf-8")
    path.write_text(text[: int(len(text) * fraction)], encoding="utf-8")
    finding = refusal(path)
    assert finding.code == "save-syntax" and "cut short or damaged" in finding.message
    assert f"kept whole in {backup_path(path)}" in finding.suggestion
    # Loading the backup, as the finding says, gives the game of the save before.
    assert load_game(backup_path(path)).state.key() == game_after(rules, commands(rules, 2)).state.key()


def test_the_play_command_reports_a_damaged_save_and_its_backup_without_a_traceback(rules, tmp_path):
    path = tmp_path / "game.json"
    save_game(game_after(rules, commands(rules, 2)), path)
    save_game(game_after(rules, commands(rules, 3)), path)
    path.write_bytes(path.read_bytes().replace(b'"move"', b'"mvoe"', 1))
    out, err = [], []
    code = run_session(Game(rules, seed=SEED), [f"load {path}"], out.append, err=err.append)
    assert code == QUIT and out[-2:] == ["not loaded; the game goes on as it was", "*** QUIT ***"]
    assert err == [f"{path}: error save-checksum: the save's content does not match its checksum: the file was damaged "
                   f"or edited after it was saved (the save before it is kept whole in {path}.bak: load that file to go "
                   "on from there)"]
    code = run_session(Game(rules, seed=SEED), [f"load {path}.bak", "q"], out.append, err=err.append)
    assert code == 4 and any(line.startswith(f"loaded {path}.bak") for line in out)


@pytest.mark.parametrize("where", ["the folder", "."])
def test_loading_a_folder_is_a_finding(tmp_path, where, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path if where == "the folder" else Path(where)
    assert refusal(path).code == "save-unreadable"


# -- the backup ------------------------------------------------------------------------------------------------------

def test_saving_over_a_save_keeps_it_as_the_backup(rules, tmp_path):
    path = tmp_path / "game.json"
    assert save_game(game_after(rules, commands(rules, 1)), path) is None  # nothing to keep yet
    first = path.read_bytes()
    assert save_game(game_after(rules, commands(rules, 2)), path) == backup_path(path)
    second = path.read_bytes()
    assert backup_path(path).read_bytes() == first
    save_game(game_after(rules, commands(rules, 3)), path)
    assert backup_path(path).read_bytes() == second
    assert backup_path(path) == tmp_path / "game.json.bak"


def test_a_damaged_save_never_replaces_a_whole_backup(rules, tmp_path):
    # Saves 1 and 2; save 2 is damaged on disk; save 3 goes over it. The backup is still save 1, the last one that
    # was whole: the player loses at most what happened since the save before the damaged one.
    path = tmp_path / "game.json"
    save_game(game_after(rules, commands(rules, 1)), path)
    first = path.read_bytes()
    save_game(game_after(rules, commands(rules, 2)), path)
    path.write_bytes(path.read_bytes()[:100])
    assert save_game(game_after(rules, commands(rules, 3)), path) is None
    assert backup_path(path).read_bytes() == first
    assert load_game(path).state.key() == game_after(rules, commands(rules, 3)).state.key()


def test_a_file_that_is_no_save_is_neither_replaced_nor_kept_as_the_backup(rules, tmp_path):
    path = tmp_path / "notes.json"
    path.write_text('{"shopping": ["eggs"]}\n', encoding="utf-8")
    with pytest.raises(KallistiError) as caught:
        save_game(game_after(rules, commands(rules, 1)), path)
    assert caught.value.findings[0].code == "save-overwrite"
    assert path.read_text(encoding="utf-8") == '{"shopping": ["eggs"]}\n' and not backup_path(path).exists()


# -- the atomic write ------------------------------------------------------------------------------------------------

def test_the_folder_is_synced_after_the_rename(tmp_path, monkeypatch):
    path = tmp_path / "file.txt"
    seen = []
    monkeypatch.setattr(durable, "fsync_folder", lambda folder: seen.append((folder, path.read_text())))
    write_atomic(path, "new\n")
    assert seen == [(tmp_path, "new\n")]  # once, and after the new version took the name


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_a_replaced_file_keeps_its_permissions_and_a_new_one_gets_the_usual_ones(tmp_path):
    shared = tmp_path / "shared.json"
    shared.write_text("old\n")
    shared.chmod(0o640)
    write_atomic(shared, "new\n")
    assert shared.stat().st_mode & 0o777 == 0o640
    old_mask = os.umask(0o022)
    try:
        write_atomic(tmp_path / "fresh.json", "new\n")
    finally:
        os.umask(old_mask)
    assert (tmp_path / "fresh.json").stat().st_mode & 0o777 == 0o644  # as open() would make it, not 0600


def test_the_pause_hook_waits_while_its_marker_exists_and_goes_on_once_it_is_gone(tmp_path, monkeypatch):
    marker = tmp_path / "paused"
    monkeypatch.setenv(PAUSE_BEFORE_RENAME, str(marker))
    sleeps = []

    def release(seconds):  # the test's side of the protocol, run where the writer waits
        sleeps.append(Path(marker.read_text().strip()))
        marker.unlink()

    monkeypatch.setattr(durable.time, "sleep", release)
    write_atomic(tmp_path / "file.txt", "text\n")
    assert sleeps == [tmp_path / "file.txt"]
    assert (tmp_path / "file.txt").read_text() == "text\n"


# -- simulate's journal ----------------------------------------------------------------------------------------------

def test_each_journal_line_is_fsynced_as_it_is_written(rules, tmp_path, monkeypatch):
    path = tmp_path / "run.jsonl"
    synced = []
    real_fsync = os.fsync

    def fsync(fd):
        real_fsync(fd)
        if path.exists() and os.fstat(fd).st_ino == path.stat().st_ino:
            synced.append(path.read_bytes())

    monkeypatch.setattr(os, "fsync", fsync)
    simulate(rules, 4, seed=1, strategy="random", cap=100, journal=path)
    assert [data.count(b"\n") for data in synced] == [1, 2, 3, 4, 5]  # the header, then each deal at once
    assert all(data.endswith(b"\n") for data in synced)


# -- kill tests: real processes, SIGKILL at fixed points -------------------------------------------------------------

def wait_for(condition, what: str, process: subprocess.Popen | None = None):
    """Poll `condition` until it gives a true value; fail after WAIT_SECONDS, or at once if `process` ended."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        if process is not None and process.poll() is not None:
            pytest.fail(f"the process ended (exit {process.returncode}) before {what}")
        time.sleep(0.005)
    pytest.fail(f"no {what} within {WAIT_SECONDS}s")


def kallisti(*args, **popen) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "kallisti", *map(str, args)], **popen)


def kill(process: subprocess.Popen) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=WAIT_SECONDS)
    assert process.returncode == -signal.SIGKILL


# `kallisti simulate`: killed after K records, then resumed --------------------------------------------------------
SIMULATE = ("simulate", "lucas", "--deals", 30, "--seed", 4, "--format", "json")  # greedy: tens of ms a deal
K = 3


def whole_lines(path: Path) -> list[bytes]:
    """The lines of a journal that end with their newline (a last one without it was cut short by the kill)."""
    data = path.read_bytes()
    return data[: data.rfind(b"\n") + 1].splitlines()


def totals(output: str) -> dict:
    return {k: v for k, v in json.loads(output).items() if "seconds" not in k}


def without_time(line: bytes) -> dict:
    return {k: v for k, v in json.loads(line).items() if k != "seconds"}


@needs_sigkill
def test_simulate_killed_after_k_records_resumes_to_the_totals_of_a_run_never_killed(tmp_path):
    whole_journal = tmp_path / "whole.jsonl"
    whole = kallisti(*SIMULATE, "--resume", whole_journal, stdout=subprocess.PIPE, text=True)
    whole_out, _ = whole.communicate(timeout=600)
    assert whole.returncode == 0

    journal = tmp_path / "killed.jsonl"
    run = kallisti(*SIMULATE, "--resume", journal, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(lambda: journal.exists() and len(whole_lines(journal)) >= 1 + K, f"{K} records in the journal", run)
    assert run.poll() is None, "the run was still playing deals when it was killed"
    kill(run)
    kept = whole_lines(journal)
    recorded = [json.loads(line)["seed"] for line in kept[1:]]
    assert K <= len(recorded) < 30
    assert recorded == list(range(4, 4 + len(recorded)))  # one deal after another, none lost, none twice

    resumed = kallisti(*SIMULATE, "--resume", journal, stdout=subprocess.PIPE, text=True)
    resumed_out, _ = resumed.communicate(timeout=600)
    assert resumed.returncode == 0
    assert totals(resumed_out) == totals(whole_out)
    after = whole_lines(journal)
    assert journal.read_bytes().endswith(b"\n")  # a line cut short by the kill was dropped, not kept
    # Every deal recorded before the kill was kept as it was and not played again; only the deals never recorded
    # (the one in progress and those after it) were played, each once.
    assert after[: len(kept)] == kept
    assert len(after) == 1 + 30
    assert sorted(json.loads(line)["seed"] for line in after[1:]) == list(range(4, 34))
    assert sorted(map(without_time, after[1:]), key=lambda r: r["seed"]) == list(map(without_time, whole_lines(whole_journal)[1:]))


# `kallisti play`: killed between writing a save's temporary file and renaming it ----------------------------------

class PausedPlay:
    """`kallisti play` in a subprocess whose every atomic write stops before its rename until told to go on."""

    def __init__(self, tmp_path: Path, lines: list[str]):
        self.marker = tmp_path / "paused-before-rename"
        env = {**os.environ, PAUSE_BEFORE_RENAME: str(self.marker)}
        self.output = tmp_path / "play-output.txt"
        with open(self.output, "w", encoding="utf-8") as out:
            self.process = kallisti("play", GAME, "--seed", SEED, stdin=subprocess.PIPE, stdout=out,
                                    stderr=subprocess.STDOUT, env=env, text=True)
        self.process.stdin.write("".join(line + "\n" for line in lines))
        self.process.stdin.close()

    def paused_at(self) -> Path:
        """Wait until the process stops before a rename; the file that rename would replace."""
        wait_for(self.marker.exists, "the pause before a rename", self.process)
        return Path(self.marker.read_text(encoding="utf-8").strip())

    def go_on(self) -> None:
        self.marker.unlink()

    def kill(self) -> None:
        kill(self.process)


def leftovers(folder: Path, name: str) -> list[Path]:
    """The temporary files left by writes of `name` that were killed before their rename."""
    return sorted(p for p in folder.iterdir() if re.fullmatch(rf"\.{re.escape(name)}\.[0-9a-f]+\.tmp", p.name))


def play_to_the_end(lines: list[str]) -> str:
    """`kallisti play` without the pause: its output, once it quits."""
    run = subprocess.run([sys.executable, "-m", "kallisti", "play", GAME, "--seed", str(SEED)], input="".join(
        line + "\n" for line in lines), capture_output=True, text=True, timeout=600)
    assert run.returncode == 4, run.stdout + run.stderr  # quit
    return run.stdout


@needs_sigkill
def test_play_killed_before_renaming_a_first_save_leaves_no_file_and_nothing_that_confuses_the_next(rules, tmp_path):
    save = tmp_path / "game.json"
    moves = commands(rules, 6)
    play = PausedPlay(tmp_path, moves[:3] + [f"save {save}", "q"])
    assert play.paused_at() == save
    play.kill()
    assert not save.exists() and not backup_path(save).exists()
    [tmp] = leftovers(tmp_path, "game.json")
    assert json.loads(tmp.read_text())["events"], "the temporary file was written whole before the pause"

    # A later session saves and loads under the same name: the leftover is neither read nor in the way.
    out = play_to_the_end(moves + [f"save {save}", f"load {save}", "q"])
    assert f"saved to {save}" in out.splitlines() and f"loaded {save}" in out
    assert load_game(save).state.key() == game_after(rules, moves).state.key()
    assert not backup_path(save).exists()
    assert leftovers(tmp_path, "game.json") == [tmp]


@needs_sigkill
@pytest.mark.parametrize("killed_before", ["backup", "save"])
def test_play_killed_before_a_rename_over_a_save_leaves_the_old_save_whole(rules, tmp_path, killed_before):
    # Saving over game.json renames twice: the old save to game.json.bak, then the new one to game.json.
    save = tmp_path / "game.json"
    moves = commands(rules, 8)
    play = PausedPlay(tmp_path, moves[:3] + [f"save {save}"] + moves[3:6] + [f"save {save}", "q"])
    assert play.paused_at() == save  # the first save
    play.go_on()
    assert play.paused_at() == backup_path(save)  # the second save, keeping the first
    first = save.read_bytes()
    if killed_before == "save":
        play.go_on()
        assert play.paused_at() == save
        assert backup_path(save).read_bytes() == first
    play.kill()

    # The save is the old version, whole: it loads to the game as it was at the first save. The new version is in a
    # leftover temporary file only.
    assert save.read_bytes() == first
    assert load_game(save).state.key() == game_after(rules, moves[:3]).state.key()
    if killed_before == "save":
        assert load_game(backup_path(save)).state.key() == game_after(rules, moves[:3]).state.key()
        assert len(leftovers(tmp_path, "game.json")) == 1
    else:
        assert not backup_path(save).exists()
        assert len(leftovers(tmp_path, "game.json.bak")) == 1

    # The next session saves over it and loads it back; the first save becomes the backup.
    out = play_to_the_end(moves + [f"save {save}", f"load {save}", "q"])
    assert f"saved to {save} (the save it replaced is kept in {backup_path(save)})" in out.splitlines()
    assert load_game(save).state.key() == game_after(rules, moves).state.key()
    assert backup_path(save).read_bytes() == first
