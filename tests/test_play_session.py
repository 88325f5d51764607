"""`kallisti play` as players of PySolFC and Aisleriot expect it: play goes on after the end (undo, restart, new),
saves resumed from the command line, `moves` listing each move once, `--version`, the status line."""

from __future__ import annotations

from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.cli.play import LOST, QUIT, WON, run_session
from kallisti.interpreter.game import Game
from kallisti.model.ruleset import load_ruleset

runner = CliRunner()

# Decade, deal 2 (`kallisti solve decade --seed 2`): the common start of a winning and a losing line, then how each
# goes on. The losing line chooses another run at its first discard (`l 2-4`), and is left with one card.
SEED = 2
START = ("d, d, d, d, l 6-7, d, l 2-6, d, d, d, d, l 3-5, d, d, l 3-4, d, d, d, d, d, l 6-7, d, l 2-6, d, d, d, "
         "l 3-4, d, d, l 1-4, d, d, d, d").split(", ")
WINS = "l 1-4, d, d, d, d, d, l 3-5, d, d, d, l 4-5, d, l 2-4, d, d, d, d, d, l 1-6, d, d, d, d, d, d, d, l 5-7, d, " \
       "l 3-5, d, l 1-3".split(", ")
LOSES = "l 2-4, d, d, d, d, d, l 4-6, d, d, d, l 5-6, d, l 3-5, d, d, d, d, d, l 2-7, d, d, d, d, d, d, d, l 6-8, d, " \
        "l 5-6, d, l 2-5".split(", ")


def decade() -> Game:
    return Game(load_ruleset("decade"), seed=SEED)


def session(game, *lines: str) -> tuple[int, list[str]]:
    out: list[str] = []
    code = run_session(game, list(lines), out.append)
    return code, "\n".join(out).splitlines()


# -- the game goes on after its end ----------------------------------------------------------------------------------
def test_a_lost_game_is_undone_then_won_from_the_same_deal_then_quit():
    lines = [*START, *LOSES, *["u"] * len(LOSES), *WINS, "q"]
    result = runner.invoke(app, ["play", "decade", "--seed", str(SEED)], input="\n".join(lines) + "\n")
    out = result.stdout.splitlines()
    assert result.exit_code == WON, result.output[-2000:]
    lost = out.index("*** LOST: no legal move is left ***")
    assert out[lost - 1] == f"game over, score 1, {len(START) + len(LOSES)} moves; play on: u (undo), restart, new [N], q (quit)"
    won = out.index(f"*** WON: Decade in {len(START) + len(WINS)} moves ***")
    assert won > lost and out.count("undone") == len(LOSES)
    assert out[won - 1].startswith(f"game over, score 0, {len(START) + len(WINS)} moves; play on:")
    assert "refused:" not in result.stdout and "QUIT" not in result.stdout
    assert out[-1] == out[won]  # `q` after the win adds nothing


def test_the_exit_code_is_the_games_state_when_the_input_ends():
    code, out = session(decade(), *START, *LOSES)
    assert code == LOST and out[-1] == "*** LOST: no legal move is left ***" and out[-2].startswith("game over, score 1,")
    code, out = session(decade(), *START, *LOSES, "table", "moves", "hint")  # the end is announced once
    assert code == LOST and sum(line.startswith("*** LOST") for line in out) == 1
    code, out = session(decade(), *START, *LOSES, "u")
    assert code == QUIT and out[-1] == "*** QUIT ***"
    code, out = session(decade(), *START, *WINS, "u", "r")  # undone, redone: won again, and said again
    assert code == WON and sum(line.startswith("*** WON") for line in out) == 2


def test_a_move_after_a_loss_is_refused_and_the_loss_stands():
    code, out = session(decade(), *START, *LOSES, "d", "q")
    assert code == LOST
    assert any(line.startswith("refused:") for line in out)


def test_restart_deals_the_same_deal_again():
    game = decade()
    dealt = game.state.key()
    out: list[str] = []
    code = run_session(game, [*START, *LOSES, "restart", *START, *WINS], out.append)
    assert code == WON
    assert "restarted: Decade, deal 2" in out
    assert "*** WON: Decade in 65 moves ***" in out  # the moves count from the restart
    fresh = decade()
    assert fresh.state.key() == dealt


def test_new_after_a_loss_deals_another_game():
    code, out = session(decade(), *START, *LOSES, "new 7")
    assert code == QUIT and "Decade, deal 7" in out and out[-1] == "*** QUIT ***"


def test_a_ruleset_without_a_score_gives_the_moves_alone():
    from types import SimpleNamespace

    from kallisti.cli.play import end_summary

    assert end_summary(SimpleNamespace(rules=SimpleNamespace(score=None), moves_made=1)) == "1 move"
    game = decade()
    assert end_summary(game) == "score 52, 0 moves"  # Decade scores the cards left


# -- resuming a save from the command line ----------------------------------------------------------------------------
def test_a_save_is_resumed_by_play_file_at_the_exact_position(tmp_path):
    from kallisti.interpreter.save import load_game

    save = tmp_path / "game2.sav"
    first = runner.invoke(app, ["play", "decade", "--seed", str(SEED)], input="\n".join([*START, f"save {save}", "q"]) + "\n")
    assert first.exit_code == QUIT and f"saved to {save}" in first.stdout
    before_save = first.stdout.split(f"saved to {save}")[0].rstrip("\n").splitlines()[-3:]  # the table after the last move
    resumed = runner.invoke(app, ["play", str(save)], input="table\nq\n")
    assert resumed.exit_code == QUIT, resumed.output
    lines = resumed.stdout.splitlines()
    assert lines[:2] == ["Decade, deal 2", f"resumed from {save}, {len(START)} moves made"]
    assert lines[2:5] == before_save  # the table as it was saved
    game = load_game(save)
    assert game.state.key() == session_game(*START).state.key()
    # --load does the same, and the game goes on from there: the rest of the winning line wins.
    won = runner.invoke(app, ["play", "--load", str(save)], input="\n".join(WINS) + "\n")
    assert won.exit_code == WON and f"*** WON: Decade in {len(START) + len(WINS)} moves ***" in won.stdout


def session_game(*lines: str) -> Game:
    game = decade()
    session(game, *lines)
    return game


def test_a_save_under_any_name_is_recognised_and_a_bad_one_exits_1(tmp_path):
    save = tmp_path / "mine.json"
    runner.invoke(app, ["play", "decade", "--seed", str(SEED)], input=f"d\nsave {save}\nq\n")
    resumed = runner.invoke(app, ["play", str(save)], input="q\n")
    assert resumed.exit_code == QUIT and "resumed from" in resumed.stdout
    broken = tmp_path / "broken.sav"
    broken.write_text("{not json", encoding="utf-8")
    bad = runner.invoke(app, ["play", str(broken)], input="q\n")
    assert bad.exit_code == 1 and "save-syntax" in bad.stderr


def test_a_save_takes_no_seed_deal_or_game(tmp_path):
    save = tmp_path / "g.sav"
    runner.invoke(app, ["play", "decade", "--seed", "1"], input=f"save {save}\nq\n")
    assert runner.invoke(app, ["play", str(save), "--seed", "3"], input="q\n").exit_code == 2
    assert runner.invoke(app, ["play", "decade", "--load", str(save)], input="q\n").exit_code == 2
    assert runner.invoke(app, ["play"], input="q\n").exit_code == 2


# -- `moves` ----------------------------------------------------------------------------------------------------------
def listed_moves(game) -> list[str]:
    code, out = session(game, "moves")
    start = next(i for i, line in enumerate(out) if line.endswith(("moves:", "move:")))
    count = int(out[start].split()[0])
    return [line[2:12].rstrip() for line in out[start + 1:start + 1 + count]]


def test_moves_lists_each_distinct_move_once_by_source_then_destination():
    from kallisti.interpreter.notation import parse_move

    forty = load_ruleset("forty-thieves")
    game = Game(forty, seed=3)  # three aces free, eight empty foundations
    assert listed_moves(game) == ["t2 f", "t8 f", "t8 t3", "t9 f", "d"]
    assert len(game.legal_moves()) == 26
    for command in listed_moves(game):
        assert parse_move(game, command) in game.legal_moves()
    # Every legal move is one listed or goes where one listed goes: the same cards to an alike pile of its group.
    group_of = forty.group_of
    listed = {(game.decode(parse_move(game, c))[1], group_of[game.decode(parse_move(game, c))[2]]) for c in listed_moves(game)}
    assert {(game.decode(m)[1], group_of[game.decode(m)[2]]) for m in game.legal_moves()} == listed
    game.play(parse_move(game, "t2 f"))
    # f1 now holds A♣ and is no longer alike the empty ones: 2♣ goes to f1 and nowhere else, named exactly.
    assert listed_moves(game) == ["t2 f1", "t8 f", "t8 t3", "t9 f", "d"]


def test_moves_is_the_same_list_every_time():
    game = Game(load_ruleset("forty-thieves"), seed=3)
    first = listed_moves(game)
    game.play(game.legal_moves()[0])
    game.undo()
    assert listed_moves(game) == first  # the listing does not follow the order the move indexes happen to keep


# -- the status line ----------------------------------------------------------------------------------------------------
def test_a_status_line_follows_each_move():
    code, out = session(decade(), "d", "d", "d", "d", "l 6-7")
    assert "1 move | score 52 | 0/52 home | deal 2" in out
    assert "5 moves | score 50 | 2/52 home | deal 2" in out  # l 6-7 discarded two cards
    narrated = out.index("discard 10♣ J♠ from l to x")
    assert out[narrated + 1] == "5 moves | score 50 | 2/52 home | deal 2"  # then the table
    assert all(len(line) <= 80 for line in out if " home | " in line)


def test_the_status_line_counts_foundations_as_home():
    code, out = session(Game(load_ruleset("forty-thieves"), seed=3), "t2 f")
    assert "1 move | score 1 | 1/104 home | deal 3" in out
