"""The solver's safe moves (docs/solver.md, "Safe moves"): which moves home are played alone, on the rulesets and
positions that decide it, and `--no-safe-moves` in `simulate` and `report`.

The fixture tests/rulesets/solver/shared-hole.yaml is a one-pack patience with one foundation every card goes on,
built up or down with wrap: with a five on top, a four and a six both fit, and which goes first decides which can
follow. The soundness comparisons on generated rulesets are in test_solve.py.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import yaml
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.interpreter.game import Game
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.safe import SafeMoves, expression_reads
from kallisti.solver.solve import NO_WIN, UNKNOWN, WON, SearchOptions, solve

HOLE = Path(__file__).parent / "rulesets" / "solver" / "shared-hole.yaml"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def every_card_but(*names: str) -> list[str]:
    """The names of one pack's cards, less `names`."""
    return [f"{r}{s}" for s in "CDHS" for r in RANKS if f"{r}{s}" not in names]


def move(game, src: str, dst: str) -> int:
    return game.encode(game.rules.pile_of_tag[src], game.rules.pile_of_tag[dst], 1)


# -- the shared foundation --------------------------------------------------------------------
def test_deal_1_of_the_shared_foundation_is_won_and_its_line_replays_in_play():
    rules = load_ruleset(HOLE)
    result = solve(rules, 1, SearchOptions(states=5_000))
    assert result.verdict == WON and len(result.line) == 51
    played = CliRunner().invoke(app, ["play", str(HOLE), "--seed", "1"], input="\n".join(result.line) + "\n")
    assert played.exit_code == 0, played.output[-400:]
    assert "WON: Shared Hole in 51 moves" in played.output


def test_over_200_deals_the_safe_moves_never_change_a_verdict_both_searches_reach():
    """50 positions a deal: the deals lost at once are proved lost by both, the others are unknown to both."""
    rules = load_ruleset(HOLE)
    with_safe = [solve(rules, seed, SearchOptions(states=50)).verdict for seed in range(1, 201)]
    without = [solve(rules, seed, SearchOptions(states=50, safe_moves=False)).verdict for seed in range(1, 201)]
    both = [(a, b) for a, b in zip(with_safe, without) if UNKNOWN not in (a, b)]
    assert all(a == b for a, b in both)
    assert Counter(with_safe)[NO_WIN] >= 10 and len(both) >= 10


def test_a_card_on_the_shared_foundation_is_safe_only_when_no_other_card_it_takes_is_out():
    rules = load_ruleset(HOLE)
    safe, why = SafeMoves.of(rules)
    assert safe is not None and why == ""
    # The hole shows 5S; out are 4C on 5D, and 6H. 6H first strands 4C on 5D; 4C, 5D, 6H wins.
    game = Game(rules, seed=1).arrange({"h": " ".join(every_card_but("4C", "5D", "6H", "5S") + ["5S"]),
                                         "f1": "5D 4C", "f2": "6H"})
    assert safe.pick(game, game.legal_moves()) is None
    found = solve(rules, options=SearchOptions(states=100), game=game)
    assert found.verdict == WON and found.line == ("f1 h", "f1 h", "f2 h")
    # With 4C and 5D home, 6H is the only card left that fits: now it is safe.
    game = Game(rules, seed=1).arrange({"h": " ".join(every_card_but("4C", "5D", "6H") + ["4C", "5D"]), "f2": "6H"})
    assert safe.pick(game, game.legal_moves()) == move(game, "f2", "h")


# -- two packs, several foundations a suit ----------------------------------------------------
def forty_thieves_position(layout: dict[str, str]) -> Game:
    """A Forty Thieves position: `layout`, and every other card face down in the stock."""
    rules = load_ruleset("forty-thieves")
    used = Counter(name for text in layout.values() for name in text.split())
    rest = []
    for name in every_card_but():
        rest += [name] * (2 - used[name])
    return Game(rules, seed=1).arrange({**layout, "s": " ".join(rest)}, down={"s": len(rest)})


def test_a_card_goes_home_alone_when_every_twin_has_an_alike_foundation_to_go_to():
    game = forty_thieves_position({"f1": "AS 2S", "f2": "AS 2S", "t1": "3S", "t2": "KH 3S"})
    safe, _ = SafeMoves.of(game.rules)
    assert safe.pick(game, game.legal_moves()) in (move(game, "t1", "f1"), move(game, "t1", "f2"))


def test_a_card_is_not_safe_while_a_card_that_could_go_on_it_is_out():
    game = forty_thieves_position({"f1": "AS 2S", "f2": "AS", "t1": "3S", "t2": "KH 2S"})
    safe, _ = SafeMoves.of(game.rules)
    assert move(game, "t1", "f1") in game.legal_moves()
    assert safe.pick(game, game.legal_moves()) != move(game, "t1", "f1")


# -- what each ruleset allows -----------------------------------------------------------------
def test_rulesets_where_a_move_home_can_be_undone_or_lost_have_no_safe_moves(tmp_path):
    giving_back = load_ruleset("forty-thieves").plain()  # Forty Thieves whose foundations give their top card back
    giving_back["piles"]["foundation"]["take"] = "top card"
    path = tmp_path / "giving-back.yaml"
    path.write_text(yaml.safe_dump(giving_back, allow_unicode=True, sort_keys=False), encoding="utf-8")
    assert SafeMoves.of(load_ruleset(path))[1] == "cards may leave piles.foundation"
    assert SafeMoves.of(load_ruleset("octave"))[1] == "a `lose` rule"
    assert SafeMoves.of(load_ruleset("decade"))[1] == "compulsory moves"
    assert SafeMoves.of(load_ruleset("spider"))[1] == "a run may land on piles.discard"
    assert SafeMoves.of(load_ruleset("forty-thieves"))[0] is not None


def group(rules, name: str) -> int:
    return list(rules.groups).index(name)


def test_a_card_is_never_safe_where_its_leaving_could_change_a_deal():
    """Blockade deals only when no tableau pile is empty; Harp's redeal gathers the waste in order."""
    blockade = load_ruleset("blockade")
    safe, _ = SafeMoves.of(blockade)
    assert all(safe.static(group(blockade, "tableau"), k) is None for k in safe.kinds)
    harp = load_ruleset("harp")
    safe, _ = SafeMoves.of(harp)
    assert all(safe.static(group(harp, "waste"), k) is None for k in safe.kinds)
    assert all(safe.static(group(harp, "tableau"), k) == () for k in safe.kinds)


def test_a_foundation_whose_spaces_read_the_position_is_safe_only_once_no_space_is_left():
    rules = load_ruleset("house-on-the-hill")
    safe, _ = SafeMoves.of(rules)
    must_fill = safe.static(group(rules, "tableau"), 0)
    assert set(must_fill) == set(rules.groups["foundation"].piles) | set(rules.groups["kings"].piles)


def test_what_a_rule_reads_of_the_position():
    groups = {"stock", "tableau", "waste", "foundation"}
    assert expression_reads("stock.size + tableau.count == deck.size", "tableau", groups) == {"stock"}
    assert expression_reads("all(p in tableau: not p.empty)", "stock", groups) == {"tableau"}
    assert expression_reads("any(p in foundation: p.size > 0 and p.cards.bottom.suit == card.suit)", "foundation",
                            groups) == {"foundation"}
    assert expression_reads("source in waste", "tableau", groups) == frozenset()
    assert expression_reads("pile.empty", "stock", groups) == {"stock"}
    assert expression_reads("card.rank == top.rank - 1", "tableau", groups) == frozenset()
    assert expression_reads("source.size > 1", "tableau", groups) is None
    assert expression_reads("card.face_up", "tableau", groups) is None


# -- simulate and report ----------------------------------------------------------------------
def simulate(*args):
    return CliRunner().invoke(app, ["simulate", str(HOLE), "--strategy", "solver", "--states", "50", *args])


def test_simulate_without_safe_moves_says_so_and_its_journal_is_not_resumed_with_them(tmp_path):
    journal = tmp_path / "hole.jsonl"
    off = simulate("--deals", "4", "--no-safe-moves", "--resume", str(journal), "--format", "json")
    assert off.exit_code == 0, off.output
    assert json.loads(off.output)["budget"] == {"states": 50, "seconds": None, "search": "portfolio", "safe_moves": False}
    assert json.loads(journal.read_text(encoding="utf-8").splitlines()[0])["budget"]["safe_moves"] is False
    assert "safe moves off" in simulate("--deals", "2", "--no-safe-moves").output
    refused = simulate("--deals", "4", "--resume", str(journal))
    assert refused.exit_code == 2 and "safe_moves" in refused.output
    on = simulate("--deals", "4", "--format", "json")
    counts = [{k: json.loads(r.output)[k] for k in ("won", "lost", "unknown")} for r in (off, on)]
    assert counts[0] == counts[1]


def test_report_without_safe_moves_says_so_and_refuses_the_journals_of_a_run_with_them(tmp_path):
    def report(*args):
        return CliRunner().invoke(app, ["report", "--jobs", "1", "--deals", "2", "--states", "200", "--game", "lucas",
                                        *args, str(tmp_path)])

    off = report("--no-safe-moves")
    assert off.exit_code == 0, off.output
    text = (tmp_path / "winnability.md").read_text(encoding="utf-8")
    assert "within **200 positions** with its safe moves off" in text
    assert "Regenerate: `kallisti report --deals 2 --states 200 --no-safe-moves --game lucas " in text
    again = report()
    assert again.exit_code == 2 and "safe_moves" in again.output
