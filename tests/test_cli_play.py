"""`kallisti play`: the text session, deal files, exit codes, and the committed example scripts."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.cli.play import LOST, QUIT, WON, command_for, deal_names, read_deal_file, run_session
from kallisti.cli.render import table_lines
from kallisti.interpreter.game import Game
from kallisti.interpreter.notation import parse_move
from kallisti.interpreter.save import load_game
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.strategies import hint

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
WIN_DEAL, WIN_MOVES = EXAMPLES / "forty-thieves-win.deal", EXAMPLES / "forty-thieves-win.moves"
LOSS_DEAL, LOSS_MOVES = EXAMPLES / "forty-thieves-loss.deal", EXAMPLES / "forty-thieves-loss.moves"

runner = CliRunner()


@pytest.fixture(scope="module")
def forty():
    return load_ruleset("forty-thieves")


def win_game(rules) -> Game:
    """The committed winnable deal: t1..t8 hold K Q J 10 of one suit, t9/t10 the nines, the stock A..8 in order."""
    return Game(rules, seed=None, order=read_deal_file(rules.deck, WIN_DEAL))


def session(game, *lines: str) -> tuple[int, list[str]]:
    out: list[str] = []
    code = run_session(game, list(lines), out.append)
    return code, "\n".join(out).splitlines()


def script_commands(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.strip().startswith("#")]


# -- the committed examples, run as a user would run them ------------------------------------
def run_kallisti(*args: str, stdin_path: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONIOENCODING="utf-8", NO_COLOR="1")
    with stdin_path.open("rb") as stdin:
        return subprocess.run([sys.executable, "-m", "kallisti", *args], stdin=stdin, capture_output=True,
                              cwd=ROOT, env=env, timeout=600)


def test_win_script_wins_in_a_real_process():
    proc = run_kallisti("play", "forty-thieves", "--deal", "examples/forty-thieves-win.deal", stdin_path=WIN_MOVES)
    out = proc.stdout.decode("utf-8")
    assert proc.returncode == WON == 0, proc.stderr.decode("utf-8")
    assert "Forty Thieves, deal from examples/forty-thieves-win.deal" in out.splitlines()[0]
    # Every command of the script counts: 64 deals, 64 cards from the waste, 40 from the tableau.
    assert f"*** WON: Forty Thieves in {len(script_commands(WIN_MOVES))} moves ***" in out
    assert "refused:" not in out
    assert out.rstrip().endswith("***")


def test_loss_script_loses_in_a_real_process():
    proc = run_kallisti("play", "forty-thieves", "--deal", str(LOSS_DEAL), "--no-color", stdin_path=LOSS_MOVES)
    out = proc.stdout.decode("utf-8")
    assert proc.returncode == LOST == 3, proc.stderr.decode("utf-8")
    assert "*** LOST: no legal move is left ***" in out
    assert "refused:" not in out
    assert "s [0]" in out  # the whole stock was turned


def test_loss_script_is_only_deals_and_the_loss_comes_with_the_last(forty):
    commands = script_commands(LOSS_MOVES)
    assert commands == ["d"] * 64
    code, out = session(Game(forty, seed=None, order=read_deal_file(forty.deck, LOSS_DEAL)), *commands[:-1])
    assert code == QUIT  # one card still in the stock: not lost yet


def test_loss_deal_is_the_seed_its_comment_names(forty):
    """The loss deal says it is deal 12 written out; the deal stream must agree."""
    assert "--seed 12" in LOSS_DEAL.read_text(encoding="utf-8")
    from_file = read_deal_file(forty.deck, LOSS_DEAL)
    from_seed = Game(forty, seed=12).order
    assert [forty.deck.ascii_name(c) for c in from_file] == [forty.deck.ascii_name(c) for c in from_seed]


def test_win_deal_lays_out_what_its_comment_says(forty):
    game = win_game(forty)
    tag = forty.pile_of_tag
    name = forty.deck.ascii_name
    for i, suit in enumerate("CDHSCDHS", 1):
        assert [name(c) for c in game.state.piles[tag[f"t{i}"]]] == [f"K{suit}", f"Q{suit}", f"J{suit}", f"10{suit}"]
    nines = game.state.piles[tag["t9"]] + game.state.piles[tag["t10"]]
    assert sorted(name(c) for c in nines) == sorted(["9C", "9D", "9H", "9S"] * 2)
    stock = game.state.piles[tag["s"]]
    assert name(stock[-1]) == "AC"  # the first stock card listed is the first one turned


# -- the session -------------------------------------------------------------------------------
def test_header_names_the_deal_so_it_can_be_shared():
    result = runner.invoke(app, ["play", "forty-thieves", "--seed", "7"], input="q\n")
    assert result.stdout.splitlines()[0] == "Forty Thieves, deal 7"
    again = runner.invoke(app, ["play", "forty-thieves", "--seed", "7"], input="q\n")
    assert again.stdout == result.stdout  # the same number gives the same deal


def test_table_shows_every_pile_with_its_tag(forty):
    code, out = session(win_game(forty), "d")
    assert out[1] == "  ".join(f"f{i} --" for i in range(1, 9))
    assert out[2].split() == ["t1", "K♣", "Q♣", "J♣", "10♣"]
    assert out[12] == "s [64]  w -- [0]"
    assert "s [63]  w A♣ [1]" in out


def test_face_down_cards_show_as_hashes():
    rules = load_ruleset("emperor")
    lines = table_lines(Game(rules, seed=3))
    t1 = next(line for line in lines if line.startswith("t1 "))
    assert t1.split()[1:4] == ["##", "##", "##"] and t1.split()[4] != "##"


def test_refused_move_says_why_and_play_goes_on():
    result = runner.invoke(app, ["play", "forty-thieves", "--deal", str(WIN_DEAL)], input="t1 t2\nt9 t3\n")
    lines = result.stdout.splitlines()
    refused = [line for line in lines if line.startswith("refused:")]
    assert refused == ["refused: 10♣ cannot go on 10♦: the tableau builds down in suit (piles.tableau.build, clause rank-down)"]
    assert "9♥ from t9 to t3" in lines  # the next command was played
    assert result.exit_code == QUIT == 4
    assert lines[-1] == "*** QUIT ***"


def test_unknown_pile_is_refused_not_fatal(forty):
    code, out = session(win_game(forty), "x9 f1", "t9 t3")
    assert any(line.startswith("refused: 'x9' names no pile") for line in out)
    assert "9♥ from t9 to t3" in out
    assert code == QUIT


def test_comments_and_blank_lines_are_ignored(forty):
    game = win_game(forty)
    before = game.state.key()
    code, out = session(game, "", "   ", "# d", "#t9 t3")
    assert game.state.key() == before
    assert not any(line.startswith("refused") for line in out)


def test_hint_prints_a_command_that_parse_move_accepts(forty):
    for seed in (1, 2, 3):
        game = Game(forty, seed=seed)
        code, out = session(game, "d", "hint")
        hints = [line for line in out if line.startswith("hint: ")]
        assert len(hints) == 1
        command, why = hints[0][len("hint: "):].split(" (", 1)
        assert parse_move(game, command) == hint(game) and why.endswith(")")


def test_hint_says_whether_it_follows_a_winning_line_or_guesses(forty):
    code, out = session(win_game(forty), "hint", "t9 t3", "hint")
    hints = [line for line in out if line.startswith("hint: ")]
    # The second hint follows on along the line the first one found: the search is not made again.
    assert hints == ["hint: t9 t3 (follows a winning line found in 176 positions)",
                     "hint: t9 t1 (follows a winning line found in 176 positions)"]
    code, out = session(Game(forty, seed=1), "hint")
    assert [line for line in out if line.startswith("hint: ")] == \
        ["hint: t4 t5 (best guess: no win found within 2000 positions)"]


def test_commands_name_exactly_their_move_when_runs_may_move():
    """In Emperor one card or the whole face-up run may move into a space: `t1 t3` alone means the run."""
    game = Game(load_ruleset("emperor"), seed=1)
    game.arrange({"t1": "KS QH JS", "t2": "5C", "s": "2C"}, down={"t1": 1})
    legal = game.legal_moves()
    one_card = [m for m in legal if game.decode(m)[3] == 1 and game.decode(m)[1] == game.rules.pile_of_tag["t1"]]
    assert one_card
    for m in legal:
        assert parse_move(game, command_for(game, m)) == m


def test_moves_lists_every_legal_move_as_a_command(forty):
    game = win_game(forty)
    code, out = session(game, "moves")
    start = next(i for i, line in enumerate(out) if line.endswith("moves:") or line.endswith("move:"))
    listed = [line.split()[:2] for line in out[start + 1:start + 1 + int(out[start].split()[0])]]
    parsed = {parse_move(game, " ".join(words) if words[0] != "d" else "d") for words in listed}
    assert parsed <= set(game.legal_moves())
    # t3 and t7 hold the same cards (so do t4 and t8): a nine going to either is one move, listed once.
    assert [" ".join(words) for words in listed] == ["t9 t3", "t10 t4", "d deal"]  # `d`, then its narration


def test_undo_and_redo(forty):
    game = win_game(forty)
    start = game.state.key()
    code, out = session(game, "t9 t3", "u")
    assert game.state.key() == start
    assert "undone" in out
    moved = win_game(forty)
    moved.play(parse_move(moved, "t9 t3"))
    code, out = session(game, "r")
    assert game.state.key() == moved.state.key()
    assert "redone" in out
    fresh = win_game(forty)
    code, out = session(fresh, "u", "r")
    assert "nothing to undo" in out and "nothing to redo" in out


def test_auto_plays_the_rulesets_automatic_moves(forty):
    game = win_game(forty)
    code, out = session(game, "a", "d", "a")
    assert out.count("no automatic move to make") == 1  # before the deal, no ace is free
    assert "auto: w f1" in out
    assert game.state.piles[forty.pile_of_tag["f1"]] and not game.state.piles[forty.pile_of_tag["w"]]


def test_save_then_load_restores_the_same_table(forty, tmp_path):
    save = tmp_path / "game.json"
    game = win_game(forty)
    code, out = session(game, "d", "w f", "t9 t3", f"save {save}", "u", "u", "d", f"load {save}")
    assert code == QUIT
    assert f"saved to {save}" in out
    reloaded = next(i for i, line in enumerate(out) if line.startswith(f"loaded {save}"))
    table_after_load = out[reloaded + 1:reloaded + 13]
    saved = next(i for i, line in enumerate(out) if line == f"saved to {save}")
    table_before_save = out[saved - 12:saved]  # the table printed after `t9 t3`
    assert table_after_load == table_before_save
    assert table_after_load != out[1:13]
    assert load_game(save).state.key() != game.state.key()  # the session had moved on before loading


def test_load_replaces_the_game_for_the_following_commands(forty, tmp_path):
    save = tmp_path / "game.json"
    code, out = session(win_game(forty), "t9 t3", f"save {save}", "u", f"load {save}", "u", "table")
    assert out.count("undone") == 2  # the loaded game has its own history: `t9 t3` can be undone
    assert out[-13:-1] == out[1:13]  # the table as dealt, before the QUIT line


def test_an_unloadable_save_is_refused_and_the_game_goes_on(forty, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    out: list[str] = []
    errors: list[str] = []
    code = run_session(win_game(forty), [f"load {bad}", "table"], out.append, err=errors.append)
    assert code == QUIT
    assert any(str(bad) in e and "save-syntax" in e for e in errors)
    assert "not loaded; the game goes on as it was" in out


def test_quit_and_end_of_input(forty):
    code, out = session(win_game(forty), "q", "d")
    assert code == QUIT and out[-1] == "*** QUIT ***"
    assert "s [63]  w A♣ [1]" not in out  # nothing after q runs
    code, out = session(win_game(forty))
    assert code == QUIT and out[-1] == "*** QUIT ***"


def test_help_lists_commands(forty):
    code, out = session(win_game(forty), "help")
    text = "\n".join(out)
    for word in ("hint", "undo", "save FILE", "moves", "SRC DST [N]"):
        assert word in text


# -- the command line ----------------------------------------------------------------------------
def test_help_documents_exit_codes():
    result = runner.invoke(app, ["play", "--help"])
    assert result.exit_code == 0
    text = " ".join(result.stdout.replace("│", " ").split())
    for phrase in ("0 won", "1 a bad ruleset or deal file", "2 usage error", "3 lost", "4 quit", "*** WON:"):
        assert phrase in text


def test_seed_and_deal_together_is_a_usage_error():
    result = runner.invoke(app, ["play", "forty-thieves", "--seed", "1", "--deal", str(WIN_DEAL)], input="q\n")
    assert result.exit_code == 2


def test_unknown_game_exits_1():
    result = runner.invoke(app, ["play", "no-such-game", "--seed", "1"], input="q\n")
    assert result.exit_code == 1
    assert "unknown-game" in result.stderr


def test_deal_with_an_unknown_card_exits_1_naming_file_line_column(tmp_path):
    names = WIN_DEAL.read_text(encoding="utf-8").replace("QS  QC", "QS  XC", 1)
    bad = tmp_path / "bad.deal"
    bad.write_text(names, encoding="utf-8")
    line_no = next(i for i, line in enumerate(names.splitlines(), 1) if "XC" in line)
    column = names.splitlines()[line_no - 1].index("XC") + 1
    result = runner.invoke(app, ["play", "forty-thieves", "--deal", str(bad)], input="q\n")
    assert result.exit_code == 1
    assert f"{bad}:{line_no}:{column}: error bad-card" in result.stderr
    assert "XC" in result.stderr
    assert "QUIT" not in result.stdout


def test_deal_with_too_few_cards_exits_1_naming_file_line_column(tmp_path):
    short = tmp_path / "short.deal"
    short.write_text("# too short\nAS KH\n  10D\n", encoding="utf-8")
    result = runner.invoke(app, ["play", "forty-thieves", "--deal", str(short)], input="q\n")
    assert result.exit_code == 1
    assert f"{short}:3:3: error deal-size" in result.stderr
    assert "3 cards" in result.stderr


def test_deal_with_a_card_too_often_exits_1(tmp_path):
    text = WIN_DEAL.read_text(encoding="utf-8").replace("AC 2C", "KC 2C", 1)
    bad = tmp_path / "twice.deal"
    bad.write_text(text, encoding="utf-8")
    result = runner.invoke(app, ["play", "forty-thieves", "--deal", str(bad)], input="q\n")
    assert result.exit_code == 1
    assert "deal-too-many" in result.stderr and f"{bad}:" in result.stderr


def test_missing_deal_file_exits_1(tmp_path):
    result = runner.invoke(app, ["play", "forty-thieves", "--deal", str(tmp_path / "none.deal")], input="q\n")
    assert result.exit_code == 1
    assert "none.deal" in result.stderr


def test_deal_names_positions():
    names = deal_names("AS  10H # a comment 2C\n\n   QD\n", "f.deal")
    assert [(n, p.line, p.column) for n, p in names] == [("AS", 1, 1), ("10H", 1, 5), ("QD", 3, 4)]


def test_won_line_through_the_typer_app():
    result = runner.invoke(app, ["play", "forty-thieves", "--deal", str(WIN_DEAL)], input=WIN_MOVES.read_text(encoding="utf-8"))
    assert result.exit_code == 0
    assert "*** WON: Forty Thieves in 168 moves ***" in result.stdout


def test_no_colour_codes_when_output_is_not_a_terminal():
    result = runner.invoke(app, ["play", "forty-thieves", "--seed", "2"], input="d\nq\n")
    assert "\x1b[" not in result.stdout


def test_colour_marks_red_suits(forty):
    lines = table_lines(win_game(forty), color=True)
    t2 = next(line for line in lines if line.startswith("t2"))  # diamonds
    t1 = next(line for line in lines if line.startswith("t1 "))  # clubs
    assert "\x1b[" in t2 and "\x1b[" not in t1
