"""Loss proofs (solver/dead.py): a card that can never leave its pile proves a position lost, and nothing else does.

The proof's soundness over many rulesets is checked where every technique is (tests/test_solve.py, the generated
rulesets with no spaces among them); here, positions built by hand show what it finds and what it must not.
"""

from __future__ import annotations

import json
from collections import Counter

import yaml
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.interpreter.game import Game
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.dead import DeadCards
from kallisti.solver.solve import NO_WIN, WON, SearchOptions, solve

SUITS = [{"name": "clubs", "symbol": "♣", "letter": "C", "color": "black"},
         {"name": "hearts", "symbol": "♥", "letter": "H", "color": "red"}]
HEARTS_HOME = {"f3": "AH 2H 3H 4H", "f4": "AH 2H 3H 4H"}


def three_fans(tmp_path, *, packs: int = 1, space: str = "none", runs: bool = False):
    """Clubs and hearts A-4, foundations up in suit, three fans of two built down in suit, the rest in a stock
    turned one card at a time onto a waste."""
    one = [] if not runs else ["one card"]
    piles = {"foundation": {"role": "foundation", "count": 2 * packs, "build": ["up in suit", *one],
                            "empty": ["first rank", *one], "take": "none"},
             "tableau": {"role": "tableau", "count": 3, "deal": ["up", "up"], "build": "down in suit", "empty": space,
                         "take": "any run" if runs else "top card", "sequence": "down in suit"},
             "stock": {"role": "stock", "deal": "rest", "take": "none", "turn": {"to": "waste", "count": 1}},
             "waste": {"role": "waste", "take": "top card"}}
    data = {"game": "Three fans", "deck": {"packs": packs, "ranks": ["A", "2", "3", "4"], "suits": SUITS},
            "piles": piles, "win": "foundation.size == deck.size"}
    path = tmp_path / "three-fans.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return load_ruleset(path)


def test_an_ace_under_a_two_that_can_go_nowhere_is_lost(tmp_path):
    rules = three_fans(tmp_path)
    # 4C can go nowhere (no 5, and home wants the ace), so 3C under it never shows; 2C can go only onto 3C or home
    # after the ace, which lies under it. The hearts still have moves to make.
    game = Game(rules, seed=1).arrange({"t1": "AC 2C", "t2": "3C 4C", "t3": "4H 3H 2H AH"})
    assert DeadCards.of(rules).lost(game)
    found = solve(rules, options=SearchOptions(states=100, loss_proofs=True), game=game)
    plain = solve(rules, options=SearchOptions(states=100, loss_proofs=False), game=game)
    assert found.verdict == plain.verdict == NO_WIN
    assert found.states < plain.states


def test_a_card_with_somewhere_to_go_frees_what_lies_under_it(tmp_path):
    rules = three_fans(tmp_path)
    game = Game(rules, seed=1).arrange({"t1": "AC 2C", "t2": "4C 3C", "t3": "4H 3H 2H AH"})  # 2C onto 3C frees AC
    assert not DeadCards.of(rules).lost(game)
    assert solve(rules, options=SearchOptions(states=100, loss_proofs=True), game=game).verdict == WON


def test_a_space_frees_every_card_it_takes(tmp_path):
    rules = three_fans(tmp_path, space="any")
    game = Game(rules, seed=1).arrange({"t1": "AC 2C", "t2": "3C 4C", "t3": "4H 3H 2H AH"})  # t3 may empty
    assert not DeadCards.of(rules).lost(game)


def test_cards_leaving_in_runs_are_never_called_stuck(tmp_path):
    rules = three_fans(tmp_path, runs=True)
    game = Game(rules, seed=1).arrange({"t1": "AC 2C", "t2": "3C 4C", "t3": "4H 3H 2H AH"})
    assert not DeadCards.of(rules).lost(game)  # 2C may leave t1 with the ace under it, as a run


def test_a_stock_card_counts_as_free_and_as_somewhere_to_go(tmp_path):
    rules = three_fans(tmp_path, packs=2)
    proof = DeadCards.of(rules)
    # The second 3C is still in the stock: it may come out and take 2C, which frees the ace.
    game = Game(rules, seed=1).arrange({"t1": "AC 2C", "t2": "3C 4C", "s": "AC 2C 3C 4C", **HEARTS_HOME})
    assert not proof.lost(game)
    # With the stock dealt and the other clubs home, the same fans are stuck again.
    game = Game(rules, seed=1).arrange({"t1": "AC 2C", "t2": "3C 4C", "f1": "AC 2C 3C 4C", **HEARTS_HOME})
    assert proof.lost(game)
    # Or with the other clubs in the waste: 3C under 4C there as on t2 is stuck as well ...
    game = Game(rules, seed=1).arrange({"t1": "AC 2C", "t2": "3C 4C", "w": "3C 4C 2C AC", **HEARTS_HOME})
    assert proof.lost(game)
    # ... but with 4C under 3C, the waste's clubs go home up to 3C, t2's 4C follows, 2C goes onto t2's 3C: won.
    game = Game(rules, seed=1).arrange({"t1": "AC 2C", "t2": "3C 4C", "w": "4C 3C 2C AC", **HEARTS_HOME})
    assert not proof.lost(game)
    assert solve(rules, options=SearchOptions(states=1_000, loss_proofs=True), game=game).verdict == WON


def test_a_stuck_card_home_does_not_count(tmp_path):
    rules = three_fans(tmp_path, packs=2)
    game = Game(rules, seed=1).arrange({"f1": "AC 2C 3C 4C", "f2": "AC 2C", "t1": "3C", "t2": "4C", **HEARTS_HOME})
    assert not DeadCards.of(rules).lost(game)  # home cards never leave, and the two left go home


def test_a_win_by_discarding_from_anywhere_has_no_loss_proof():
    assert DeadCards.of(load_ruleset("decade")) is None  # every card of Decade's line may be discarded from within


def test_forty_thieves_deals_are_searched_alike_with_and_without_loss_proofs():
    rules = load_ruleset("forty-thieves")
    with_proofs = solve(rules, 5, SearchOptions(states=5_000, search="depth-first", loss_proofs=True))
    without = solve(rules, 5, SearchOptions(states=5_000, search="depth-first"))
    assert with_proofs.verdict == without.verdict == WON
    assert with_proofs.line == without.line  # a lost position is a leaf either way on this line's path


def test_solve_gives_the_same_verdicts_with_loss_proofs_at_a_lower_cost(tmp_path):
    rules_file = tmp_path / "three-fans.yaml"
    three_fans(tmp_path)
    verdicts, positions = Counter(), Counter()
    for flag in ("--loss-proofs", "--no-loss-proofs"):
        for seed in range(1, 25):
            out = CliRunner().invoke(app, ["solve", str(rules_file), "--seed", str(seed), flag, "--format", "json"])
            found = json.loads(out.output)
            verdicts[flag, seed] = found["verdict"]
            positions[flag] += found["states"]
    assert all(verdicts["--loss-proofs", s] == verdicts["--no-loss-proofs", s] for s in range(1, 25))
    assert NO_WIN in verdicts.values() and WON in verdicts.values()
    assert positions["--loss-proofs"] < positions["--no-loss-proofs"]


def test_by_default_the_proofs_are_used_where_no_space_takes_every_card():
    from kallisti.solver.depth_first import _shape

    for game, used in (("house-in-the-wood", True), ("forty-thieves", False), ("freecell", False)):
        rules = load_ruleset(game)
        assert (_shape(rules, SearchOptions()).dead is not None) is used, game
        assert _shape(rules, SearchOptions(loss_proofs=True)).dead is not None
        assert _shape(rules, SearchOptions(loss_proofs=False)).dead is None
