"""Autoplay in `kallisti play` (kallisti.solver.autoplay): safe moves home after each move, a game won by force
finished, both undone with the move that set them off; `a` on request; the compulsory move that is the only one;
and the property that autoplay never turns a deal that can be won into one that cannot."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.cli.play import QUIT, WON, read_deal_file, run_session
from kallisti.interpreter.game import Game
from kallisti.interpreter.notation import parse_move
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.autoplay import Autoplay, sole_compulsory
from kallisti.solver.solve import WON as SOLVED, SearchOptions, solve
from small_decks import cut_down

runner = CliRunner()
EXAMPLES = Path(__file__).parent.parent / "examples"
# Forty Thieves, deal 337: A♠ tops t4, t6 holds 2♠ under the other A♠, and t10's top is the second 2♠.
SEED = 337


def lines_of(text: str) -> list[str]:
    return text.splitlines()


def tops(game, *tags: str) -> list[str]:
    piles, name = game.state.piles, game.deck.name
    return [name(piles[game.rules.pile_of_tag[t]][-1]) if piles[game.rules.pile_of_tag[t]] else "--" for t in tags]


def won_line() -> tuple[Game, list[str]]:
    """The committed winning deal of Forty Thieves and its script."""
    rules = load_ruleset("forty-thieves")
    game = Game(rules, seed=None, order=read_deal_file(rules.deck, EXAMPLES / "forty-thieves-win.deal"))
    moves = [line.strip() for line in (EXAMPLES / "forty-thieves-win.moves").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    return game, moves


# -- safe moves home, after each move ---------------------------------------------------------------------------
def test_a_piped_game_with_auto_sends_the_spades_home_after_the_ace_without_a_command():
    result = runner.invoke(app, ["play", "forty-thieves", "--seed", str(SEED), "--auto", "--no-stats"],
                           input="t4 f\nq\n")
    out = lines_of(result.stdout)
    assert result.exit_code == QUIT, result.output[-800:]
    moved = out.index("A♠ from t4 to f1")
    # The other A♠ (nothing can be built on an ace), then both 2♠ now that both aces are home.
    assert out[moved + 1] == "auto: t6 f2, t6 f1, t10 f2"
    assert out[moved + 2].startswith("1 move | score 4 | 4/104 home")
    assert out[moved + 3].startswith("f1 2♠  f2 2♠  f3 --")


def test_piped_commands_replay_move_for_move_unless_autoplay_is_asked_for():
    def play(*options: str, script: str) -> str:
        return runner.invoke(app, ["play", "forty-thieves", "--seed", str(SEED), "--no-stats", *options],
                             input=script).stdout

    assert "auto:" not in play(script="t4 f\nq\n")  # piped: off unless asked for
    assert "auto:" not in play("--auto", script="auto off\nt4 f\nq\n")
    switched = lines_of(play("--no-auto", script="auto on\nt4 f\nq\n"))
    assert switched[switched.index("A♠ from t4 to f1") + 1] == "auto: t6 f2, t6 f1, t10 f2"
    assert any(line.startswith("autoplay on: after each move") for line in switched)


def test_autoplay_is_undone_with_the_move_that_set_it_off_and_redone_with_it():
    game = Game(load_ruleset("forty-thieves"), seed=SEED)
    dealt = game.state.key()
    out: list[str] = []
    run_session(game, ["t4 f", "u"], out.append, auto=True)
    assert "undone: 4 moves in one step (automatic moves go back with the move or `a` that made them)" in out
    assert game.state.key() == dealt and tops(game, "t4", "t6", "t10") == ["A♠", "A♠", "2♠"]
    run_session(game, ["r"], out.append, auto=True)
    assert tops(game, "f1", "f2", "t6", "t10") == ["2♠", "2♠", "4♣", "5♦"] and len(game.history) == 1


def test_the_step_records_its_autoplayed_moves_and_they_replay_after_its_move():
    game = Game(load_ruleset("forty-thieves"), seed=SEED)
    run_session(game, ["t4 f"], lambda _: None, auto=True)
    assert game.events == [{"type": "move", "move": "t4 f1", "then": ["t6 f2", "t6 f1", "t10 f2"]}]
    again = Game(load_ruleset("forty-thieves"), seed=SEED)
    for event in game.events:  # as a save's replay plays an event: its move, then what followed it
        again.play(parse_move(again, event["move"]))
        for text in event.get("then", ()):
            again.extend_step(parse_move(again, text))
    assert again.state.key() == game.state.key() and len(again.history) == 1


def test_a_save_of_autoplayed_steps_loads_to_the_same_position_and_undoes_them_with_their_move(tmp_path):
    from kallisti.interpreter.save import load_game, save_game

    game = Game(load_ruleset("forty-thieves"), seed=SEED)
    run_session(game, ["t4 f"], lambda _: None, auto=True)
    save_game(game, tmp_path / "auto.sav")
    loaded = load_game(tmp_path / "auto.sav")
    assert loaded.state.key() == game.state.key() and len(loaded.history) == 1
    assert loaded.undo() and loaded.state.key() == Game(load_ruleset("forty-thieves"), seed=SEED).state.key()


def test_a_save_whose_then_follows_no_step_is_refused_naming_the_event(tmp_path):
    import json

    from kallisti.errors import KallistiError
    from kallisti.interpreter.save import load_game, save_game

    game = Game(load_ruleset("forty-thieves"), seed=SEED)
    run_session(game, ["t4 f"], lambda _: None, auto=True)
    game.events[0]["then"] = "t6 f2"  # not a list
    save_game(game, tmp_path / "bad.sav")
    with pytest.raises(KallistiError, match="event 0 cannot be replayed: its `then` is not a list"):
        load_game(tmp_path / "bad.sav")


def test_only_the_step_just_made_can_be_extended():
    game = Game(load_ruleset("forty-thieves"), seed=SEED)
    with pytest.raises(ValueError, match="only the step just made"):
        game.extend_step(parse_move(game, "t4 f"))
    game.play(parse_move(game, "t4 f"))
    game.undo()
    with pytest.raises(ValueError, match="only the step just made"):
        game.extend_step(parse_move(game, "t6 f"))


def test_a_makes_the_safe_moves_home_as_a_step_of_their_own_with_autoplay_off():
    game = Game(load_ruleset("forty-thieves"), seed=SEED)
    out: list[str] = []
    run_session(game, ["t4 f", "a", "a"], out.append)
    assert "auto: t6 f2, t6 f1, t10 f2" in out and out[-1] != "no automatic move to make"
    assert "no automatic move to make" in out and len(game.history) == 2


# -- a game won by force ------------------------------------------------------------------------------------------
def test_a_game_won_by_force_completes_by_itself_and_undo_takes_the_completion_back():
    game, moves = won_line()
    autoplay = Autoplay()
    probe, forced_at = game.fork(), None
    for i, text in enumerate(moves):  # the first position of the script from which moves home alone win
        if autoplay.won_by_force(probe):
            forced_at = i
            break
        probe.play(parse_move(probe, text))
    assert forced_at is not None and forced_at < len(moves) - 20
    out: list[str] = []
    code = run_session(game, [*moves[:forced_at - 1], "auto on", moves[forced_at - 1]], out.append)
    assert code == WON and f"*** WON: Forty Thieves in {forced_at} moves ***" in out
    assert len(next(line for line in reversed(out) if line.startswith("auto: ")).split(", ")) >= 20
    code = run_session(game, ["u"], out.append)
    assert code == QUIT and not game.rules.win(game.ctx) and len(game.history) == forced_at - 1


def test_no_game_with_a_card_face_down_is_won_by_force():
    game = Game(load_ruleset("forty-thieves"), seed=SEED)
    game.arrange({"f1": "AS", "t1": "3S 2S"}, down={"t1": 1})
    assert Autoplay().won_by_force(game) is None


# -- the compulsory move that is the only legal move -----------------------------------------------------------
def test_the_only_legal_move_when_compulsory_is_named_in_a_refusal_and_played_by_a():
    game = Game(load_ruleset("decade"), seed=2)  # after five cards drawn, 10♣ J♠ must be discarded
    out: list[str] = []
    run_session(game, ["d"] * 5 + ["t1 x", "a"], out.append)
    refused = [line for line in out if line.startswith("refused:")]
    assert len(refused) == 2 and all(line.endswith("the only legal move is the compulsory `l 6-7` (`a` plays it)")
                                      for line in refused)
    assert "discard 10♣ J♠ from l to x" in out and sole_compulsory(game) is None


# -- the property: autoplay loses no deal that can be won ----------------------------------------------------------
PLAIN = SearchOptions(states=20_000, symmetry=False, safe_moves=False, loss_proofs=False, search="depth-first")
A4, A5 = ["A", "2", "3", "4"], ["A", "2", "3", "4", "5"]
CUTS = [("forty-thieves", A4, 2, 2, 3, 2), ("lucas", A5, 1, 4, 4, 3), ("maria", A4, 2, 2, 3, 2),
        ("number-ten", A4, 2, 2, 3, 2), ("busy-aces", A4, 2, 2, 3, 2)]
DEALS = 20


@pytest.mark.parametrize("game_name, ranks, packs, suits, rows, piles", CUTS, ids=[c[0] for c in CUTS])
def test_autoplay_never_turns_a_won_deal_into_a_lost_one(tmp_path, game_name, ranks, packs, suits, rows, piles):
    """Sound check of the claim "if a position can be won, so can the position after autoplay", on 20 deals of a
    shipped patience cut down to a small pack (so that a search runs to the end).

    A plain search (no safe moves, no symmetry, no loss proofs: it does not use the proof under test) finds a
    winning line of each deal it can win. Every position Q on that line can be won. At each, autoplay's moves (the safe moves
    home, then the line of a game won by force) are made on a copy, giving A(Q), which must be shown winnable: by a
    witness, the rest of the line played from A(Q) with the moves autoplay made impossible skipped, when it reaches
    the win (a win reached is a proof); else by the plain search, whose verdict must be "won" (not "no win", and
    not "unknown": the budget of 20,000 positions suffices on these packs). The test also asks that autoplay acted
    at many positions, finishing a game won by force at some, so that it is not passed by doing nothing."""
    rules = cut_down(game_name, tmp_path, ranks, packs, suits, rows, piles)
    autoplay = Autoplay()
    won = acted = finished = 0
    for seed in range(1, DEALS + 1):
        result = solve(rules, seed, PLAIN)
        if result.verdict != SOLVED:
            continue
        won += 1
        game, line = Game(rules, seed=seed), list(result.moves)
        for i in range(len(line) + 1):
            if i:
                game._step(line[i - 1])
            after = game.fork()
            forced = autoplay.won_by_force(after) is not None
            if not autoplay.follow(after, new_step=True):
                continue
            acted += 1
            finished += forced
            witness = after.fork()
            for m in line[i:]:
                if m in witness.legal_moves():
                    witness._step(m)
            if rules.win(witness.ctx):
                continue
            verdict = solve(rules, options=PLAIN, game=after).verdict
            assert verdict == SOLVED, f"deal {seed}, position {i}: autoplay left a position the search calls {verdict}"
    assert won >= DEALS // 2 and acted >= 5 * won and finished >= won // 2
