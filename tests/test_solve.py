"""The thoughtful solver: its verdicts are sound, its lines replay to a win, and `kallisti solve` says so.

A false "no win" is the worst bug a solver can have, so the soundness test compares, deal by deal,
the verdict of the search with every technique switched on against a plain exhaustive search
(exact positions as keys, every legal move tried) on patiences cut down to small packs, two-pack
ones included, where the plain search can run to the end.
"""

from __future__ import annotations

import json

import pytest
import yaml
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.dead import DeadCards
from kallisti.solver.safe import SafeMoves
from kallisti.solver.solve import NO_WIN, UNKNOWN, WON, SearchOptions, solve
from small_decks import cut_down

PLAIN = SearchOptions(states=80_000, symmetry=False, safe_moves=False, loss_proofs=False, search="depth-first")
FULL = SearchOptions(states=80_000, loss_proofs=True)
# Every search with every technique on: the portfolio (FULL), and each of its two searches alone.
ALONE = [SearchOptions(states=80_000, search=search, loss_proofs=True) for search in ("depth-first", "best-first")]

# (games, ranks, packs, suits, rows, piles, seeds): each cut-down game is searched on every seed.
SOUNDNESS = [
    (("forty-thieves", "lucas", "maria", "limited", "number-ten"), ["A", "2", "3", "4", "5"], 1, 4, 4, 3, 25),
    (("forty-thieves", "maria", "indian", "number-ten", "busy-aces", "limited", "lucas", "rouge-et-noir",
      "rouge-et-noir-whole-piles"),
     ["A", "2", "3", "4"], 2, 2, 3, 2, 10),
    (("maria", "indian", "number-ten"), ["A", "2", "3", "4", "5"], 2, 2, 3, 2, 10),
]
CASES = [(game, *rest) for games, *rest in SOUNDNESS for game in games]
verdicts: dict[str, list[str]] = {}  # the plain search's verdicts, per case, for the test of the mix


@pytest.mark.parametrize("game, ranks, packs, suits, rows, piles, seeds", CASES,
                         ids=[f"{c[0]}-{c[2]}x{c[3]}-{len(c[1])}" for c in CASES])
def test_every_technique_leaves_the_verdict_of_a_plain_search(tmp_path, game, ranks, packs, suits, rows, piles, seeds):
    rules = cut_down(game, tmp_path, ranks, packs, suits, rows, piles)
    plain, full = [], []
    alone = [[] for _ in ALONE]
    for seed in range(1, seeds + 1):
        plain.append(solve(rules, seed, PLAIN).verdict)
        full.append(solve(rules, seed, FULL).verdict)
        for verdicts_alone, options in zip(alone, ALONE):
            verdicts_alone.append(solve(rules, seed, options).verdict)
    assert UNKNOWN not in plain, "the plain search must finish for the comparison to mean anything"
    assert full == plain
    for verdicts_alone, options in zip(alone, ALONE):
        assert verdicts_alone == plain, options.search
    verdicts[f"{game}-{packs}x{suits}-{len(ranks)}"] = plain


def test_the_soundness_deals_hold_wins_and_losses_of_both_kinds_of_pack():
    """Runs after the comparisons above: the deals must test both verdicts, with one pack and with two."""
    if len(verdicts) < len(CASES):
        pytest.skip("needs the whole soundness comparison in the same run")
    every = [v for vs in verdicts.values() for v in vs]
    assert len(every) >= 200
    two_packs = [v for key, vs in verdicts.items() if "-2x" in key for v in vs]
    for group in (every, two_packs):
        assert group.count(WON) >= 20 and group.count(NO_WIN) >= 5, (group.count(WON), group.count(NO_WIN))


# Rulesets generated to stress each pruning, above all the safe moves (docs/solver.md, "Safe moves"): foundations
# built up or down (which card goes first decides which can follow), one foundation every suit shares, wrap-around,
# a foundation cards may leave, several foundations a suit (two packs), a tableau that takes nothing, a deal onto
# the tableau allowed only without a space, a redeal, runs. Each is small enough for the plain search to finish.
SUITS = [{"name": "clubs", "symbol": "♣", "letter": "C", "color": "black"},
         {"name": "hearts", "symbol": "♥", "letter": "H", "color": "red"}]
GENERATED = {
    "up-or-down-in-suit": dict(ranks=3, suits=2, build="up or down in suit", empty="any", fans=3, rows=2,
                               tableau="down in suit", space="any"),
    "up-or-down-wrap": dict(ranks=5, suits=2, build="up or down in suit with wrap", prefill="card.rank == A",
                            fans=4, rows=2),
    "shared-up-or-down-wrap": dict(ranks=5, suits=2, count=1, build="up or down with wrap",
                                   prefill="card.rank == A and card.suit == clubs", fans=3, rows=3),
    "shared-up-wrap": dict(ranks=5, suits=2, count=1, build="up with wrap",
                           prefill="card.rank == A and card.suit == clubs", fans=3, rows=3, tableau="down in suit",
                           space="any"),
    "wrap-in-suit": dict(ranks=5, suits=2, build="up in suit with wrap", prefill="card.rank == 3", fans=4, rows=2,
                         tableau="down in suit", space="any"),
    "foundation-gives-back": dict(ranks=5, suits=2, take="top card", fans=5, rows=2, tableau="down alternate colour",
                                  space="any"),
    "two-packs-tableau-takes-nothing": dict(packs=2, ranks=4, suits=1, fans=3, rows=2, stock="waste"),
    "two-packs-down-in-suit": dict(packs=2, ranks=4, suits=2, fans=3, rows=3, tableau="down in suit", space="any",
                                   stock="waste"),
    "two-packs-up-or-down": dict(packs=2, ranks=4, suits=1, build="up or down in suit", empty="any", fans=4, rows=2),
    "deal-only-without-spaces": dict(ranks=4, suits=2, fans=3, rows=1, tableau="down in suit", space="any",
                                     stock="each", dealing="all(p in tableau: not p.empty)"),
    "runs": dict(ranks=5, suits=2, build=["up in suit", "one card"], empty=["first rank", "one card"], fans=3, rows=3,
                 tableau="down alternate colour", space="any", take_run="any run", sequence="down alternate colour",
                 stock="waste"),
    "redeal-by-twos": dict(ranks=5, suits=2, fans=3, rows=2, tableau="down in suit", stock="redeal"),
    # No spaces: cards beneath cards that can never leave, which the loss proofs find (solver/dead.py).
    "no-spaces-down-in-suit": dict(ranks=4, suits=2, fans=4, rows=2, tableau="down in suit"),
    "two-packs-no-spaces": dict(packs=2, ranks=3, suits=2, fans=3, rows=2, tableau="down in suit", stock="waste"),
}
GENERATED_SEEDS = range(1, 21)
generated_verdicts: dict[str, list[str]] = {}
safe_moves_played: dict[str, int] = {}
losses_proved: dict[str, int] = {}


def generated(folder, name, *, ranks, suits, packs=1, count=None, build="up in suit", empty="first rank", take="none",
              prefill=None, fans, rows, tableau="none", space="none", take_run="top card", sequence="any", stock=None,
              dealing=None):
    """A small patience: foundations (one a suit and pack unless `count`), fans of `rows` cards, maybe a stock."""
    foundation = {"role": "foundation", "count": count or packs * suits, "build": build, "empty": empty, "take": take}
    if prefill:
        foundation["prefill"] = prefill
    piles = {"foundation": foundation, "tableau": {"role": "tableau", "count": fans, "deal": ["up"] * rows,
                                                   "build": tableau, "empty": space, "take": take_run,
                                                   "sequence": sequence}}
    if stock in ("waste", "redeal"):
        turn = {"to": "waste", "count": 1 if stock == "waste" else 2}
        piles["stock"] = {"role": "stock", "deal": "rest", "take": "none", "turn": turn,
                          "redeals": int(stock == "redeal")}
        piles["waste"] = {"role": "waste", "take": "top card"}
    elif stock == "each":
        piles["stock"] = {"role": "stock", "deal": "rest", "take": "none", "turn": {"to": "tableau", "each": True},
                          "dealing": [{"id": "no-space", "require": dealing}]}
    data = {"game": f"Generated {name}", "deck": {"packs": packs, "ranks": ["A", "2", "3", "4", "5"][:ranks],
                                                   "suits": SUITS[:suits]},
            "piles": piles, "win": "foundation.size == deck.size"}
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return load_ruleset(path)


@pytest.mark.parametrize("case", list(GENERATED))
def test_on_generated_rulesets_every_technique_leaves_the_verdict_of_a_plain_search(tmp_path, monkeypatch, case):
    rules = generated(tmp_path, case, **GENERATED[case])
    plain = [solve(rules, seed, PLAIN).verdict for seed in GENERATED_SEEDS]
    played = []
    pick = SafeMoves.pick

    def counted(self, game, moves, *home):
        move = pick(self, game, moves, *home)
        played.append(move is not None)
        return move

    proved = []
    lost = DeadCards.lost

    def proof_counted(self, game):
        found = lost(self, game)
        proved.append(found)
        return found

    monkeypatch.setattr(SafeMoves, "pick", counted)
    monkeypatch.setattr(DeadCards, "lost", proof_counted)
    full = [solve(rules, seed, FULL).verdict for seed in GENERATED_SEEDS]
    assert UNKNOWN not in plain, "the plain search must finish for the comparison to mean anything"
    assert full == plain
    for options in ALONE:
        assert [solve(rules, seed, options).verdict for seed in GENERATED_SEEDS] == plain, options.search
    generated_verdicts[case] = plain
    safe_moves_played[case] = sum(played)
    losses_proved[case] = sum(proved)


def test_the_generated_deals_hold_wins_and_losses_and_safe_moves_played():
    """Runs after the comparisons above: both verdicts are tested, and so are safe moves, with one pack and two."""
    if len(generated_verdicts) < len(GENERATED):
        pytest.skip("needs the whole comparison on generated rulesets in the same run")
    every = [v for vs in generated_verdicts.values() for v in vs]
    assert every.count(WON) >= 100 and every.count(NO_WIN) >= 20, (every.count(WON), every.count(NO_WIN))
    assert sum(1 for n in safe_moves_played.values() if n) >= 5, safe_moves_played
    assert safe_moves_played["two-packs-tableau-takes-nothing"] and safe_moves_played["up-or-down-wrap"]
    assert not safe_moves_played["foundation-gives-back"]  # cards may leave its foundations: no move home is safe
    assert not safe_moves_played["deal-only-without-spaces"]  # a card leaving the tableau may forbid a deal
    assert sum(1 for n in losses_proved.values() if n) >= 5, losses_proved
    assert losses_proved["no-spaces-down-in-suit"] and losses_proved["two-packs-up-or-down"]  # one pack and two


def test_a_won_line_replays_to_a_win_in_play():
    rules = load_ruleset("forty-thieves")
    result = solve(rules, 5, SearchOptions(states=20_000))
    assert result.verdict == WON and result.line
    played = CliRunner().invoke(app, ["play", "forty-thieves", "--seed", "5"], input="\n".join(result.line) + "\n")
    assert played.exit_code == 0, played.output[-400:]
    assert f"WON: Forty Thieves in {len(result.line)} moves" in played.output


def test_the_search_leaves_the_game_where_it_found_it_only_for_a_win():
    rules = load_ruleset("decade")
    result = solve(rules, 1, SearchOptions(states=20_000))
    assert result.verdict == NO_WIN and result.line == ()
    assert result.states > 1


def test_the_budget_is_counted_in_positions():
    rules = load_ruleset("forty-thieves")
    first = solve(rules, 1, SearchOptions(states=500))
    again = solve(rules, 1, SearchOptions(states=500))
    assert (first.verdict, first.stopped_by, first.states) == (UNKNOWN, "states", 500)
    assert again.states == first.states
    # The depth-first search alone counts the position beyond its budget that stopped it.
    alone = solve(rules, 1, SearchOptions(states=500, search="depth-first"))
    assert (alone.verdict, alone.stopped_by, alone.states) == (UNKNOWN, "states", 501)


def test_a_memory_bound_stops_the_search_as_unknown():
    result = solve(load_ruleset("forty-thieves"), 1, SearchOptions(states=10_000, memory=100))
    assert (result.verdict, result.stopped_by) == (UNKNOWN, "memory")


def run(*args):
    return CliRunner().invoke(app, ["solve", *args])


def test_solve_prints_a_line_that_play_takes_as_it_is():
    result = run("forty-thieves", "--seed", "5")
    assert result.exit_code == 0, result.output
    head, *moves = result.output.strip().splitlines()
    assert head.startswith("# Forty Thieves, deal 5: won in ") and "positions searched" in head
    played = CliRunner().invoke(app, ["play", "forty-thieves", "--seed", "5"], input=result.output)
    assert played.exit_code == 0 and f"WON: Forty Thieves in {len(moves)} moves" in played.output


def test_solve_exit_codes_and_json():
    no_win = run("decade", "--seed", "1", "--format", "json")
    assert no_win.exit_code == 3
    record = json.loads(no_win.output)
    assert record["verdict"] == "no win" and record["moves"] == [] and record["budget"]["states"] > 0
    unknown = run("forty-thieves", "--seed", "1", "--states", "200")
    assert unknown.exit_code == 5
    assert "unknown — the search stopped at its states budget (200 positions searched" in unknown.output
    assert run("no-such-game").exit_code == 2
    assert run("discordian").exit_code == 2  # a match: several players


@pytest.mark.parametrize("states", [50, 20_000])
def test_searching_a_game_leaves_it_as_it_was(states):
    """Whether the search wins or runs out of budget, the game it searched is where it was (the hint relies on it)."""
    from kallisti.interpreter.game import Game

    game = Game(load_ruleset("forty-thieves"), seed=5)
    game.play(game.legal_moves()[0])
    before, history = game.state.key(), len(game.history)
    result = solve(game.rules, options=SearchOptions(states=states), game=game)
    assert result.verdict == (UNKNOWN if states == 50 else WON)
    assert (game.state.key(), len(game.history)) == (before, history)


def test_the_hint_is_the_first_move_of_a_win_the_solver_finds():
    from kallisti.interpreter.game import Game
    from kallisti.solver.strategies import hint

    game = Game(load_ruleset("busy-aces"), seed=1)
    found = solve(game.rules, options=SearchOptions(states=2000), game=game)
    assert found.verdict == WON
    assert hint(game) == found.moves[0]
    # Following the hint all the way wins the deal (each hint searches again, so the line may change).
    for _ in range(3 * len(found.moves)):
        if game.status().outcome != "playing":
            break
        game.play(hint(game))
    assert game.status().outcome == "won"
