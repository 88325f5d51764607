"""World deal numbers against the world. `--deal ms:N` against fc-solve's board generator (Debian's
freecell-solver-bin): the same columns, bottom to top. `--deal pysol:N` against layouts PySolFC itself dealt and
published, and against pysol-cards' own deal printer. And `kallisti simulate --numbering`, which plays such deals."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest
from pysol_cards.cards import CardRenderer
from pysol_cards.deal_game import Game as PysolCardsGame
from pysol_cards.random_base import RandomBase
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.cli.play import deal_option_order
from kallisti.interpreter.game import Game
from kallisti.interpreter.world_deals import PYSOL_LAYOUTS, WorldDealError, pysol_layout, world_deal_order
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.journal import JournalError
from kallisti.solver.simulate import DealPlay, Plan, simulate

GENERATOR = "make-microsoft-freecell-board"  # also installed as pi-make-microsoft-freecell-board by some packagings
DEALS = [1, 2, 3, 617, 1941, 11982, 24567, 32000, 32001, 1_000_000, 2**31 - 1]


def generator() -> str:
    found = shutil.which(GENERATOR) or shutil.which("pi-" + GENERATOR)
    if found is None:
        why = f"no {GENERATOR} (apt-get install freecell-solver-bin)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{why} (CI=true: a missing test dependency fails)")
        pytest.skip(why)
    return found


@pytest.mark.parametrize("number", DEALS)
def test_kallisti_lays_out_microsoft_deal_n_as_fc_solve_generates_it(number):
    board = subprocess.run([generator(), "-t", str(number)], capture_output=True, text=True, check=True, timeout=30)
    expected = [line.replace("T", "10").split() for line in board.stdout.splitlines() if line.strip()]
    rules = load_ruleset("freecell")
    g = Game(rules, seed=None, order=world_deal_order(rules, f"ms:{number}"))
    columns = [[g.deck.ascii_name(c) for c in g.state.piles[rules.pile_of_tag[f"t{i}"]]] for i in range(1, 9)]
    assert columns == expected


# -- pysol:N ---------------------------------------------------------------------------------------------------------
def dealt(game: str, deal: str) -> Game:
    rules = load_ruleset(game)
    return Game(rules, seed=None, order=world_deal_order(rules, deal))


def pile(g: Game, tag: str) -> str:
    """A pile bottom to top in PySolFC's card names (`T` for ten), face-down cards in <>, as PySolFC prints them."""
    p = g.rules.pile_of_tag[tag]
    names = [g.deck.ascii_name(c).replace("10", "T") for c in g.state.piles[p]]
    return " ".join(f"<{n}>" if i < g.state.down[p] else n for i, n in enumerate(names))


def stock(g: Game) -> str:
    """The stock top first (the first card turned first), in PySolFC's card names."""
    return " ".join(g.deck.ascii_name(c).replace("10", "T") for c in reversed(g.state.piles[g.rules.pile_of_tag["s"]]))


# Forty Thieves as PySolFC dealt it: its own FortyThieves class (github.com/shlomif/PySolFC at commit 7a3d146,
# pysollib/games/fortythieves.py), created, shuffled (Game.shuffle) and dealt (startGame) with PySolFC's own
# construct_random(N), run headless outside this project with its canvas stubbed out. Piles t1..t10 bottom to top;
# the stock is the card PySolFC's deal ends by turning onto the waste, then PySolFC's talon from the top.
# Game 5 is shuffled by Microsoft's generator (PySolFC uses it below 32,000), the others by the Mersenne Twister.
PYSOLFC_FORTY_THIEVES = {
    5: (["3C KH 2C TC", "8C JD JH KC", "3S TC 8H QC", "8C 5C JS QS", "9C 2S 5D 5D",
         "9D TH 6S TS", "JD 6H JC 9H", "2D JC KC 9H", "4S QS 6S AD", "4C 3D 5C AD"],
        "4D QD 7S 7C JH 4H 9D 8D 4S 9S 2D 7H 6H QD 4H QH 4D 7C KS AH 5H AC KH AC 2H TD AS 8D 6C QC 6C 9C 2S 2C 6D 7S "
        "2H KS 7H TD QH 3D 3H 8S 5S KD 7D 5S AS 4C 7D 8H 5H 8S AH TS JS 3C 9S 3H 3S TH 6D KD"),
    123456: (["6H 7D 7H 9C", "4H TD 6S 7C", "4C 3C 3D QD", "5S KD 4D 6H", "AC 8H KC 2C",
              "AS 6C JD TS", "8C 7H TC KS", "AH TS 7D 4S", "QC 8D KH QS", "9S QH 7C 5C"],
             "2D 2S 9H 8S 6D JS AC 2C 2H 6C 4S 9C KC 2D TD QS 3C JD 5D 4C 5S JS 5C JC 5H 2H AS AH 8C 8D AD 9H 9S 3H 9D "
             "KS 7S TC QH KD JH 3S 4H 2S TH 3D 3H 3S 6S JC KH QC 8H 7S TH JH QD AD 4D 9D 5D 8S 6D 5H"),
    98765432109876543210: (["TD 2C 2D 8S", "QS 3C TC 9H", "KH 4C 4S AD", "6D 7S JH 4H", "5S KS 5H 6H",
                            "5C 7C 9D QS", "8D AD 5H 3H", "KD 7S 9D 9S", "TS 6C 8H JH", "7D QC 4C JS"],
                           "KH KC JC 5C JD 2D TC 6D 2H 6S KD AS 3D AH 3C 4S 7D QC 7H JC 2H QD 8S 3H 9S AC TS JS 4H 6C "
                           "AC TD AH 8H 4D 8D 2S JD TH 3S KC 2C 8C QD 2S QH 6S 4D 5D 5S TH 3S 5D 7C 9C QH 3D 7H 8C 9C "
                           "AS 9H 6H KS"),
}


@pytest.mark.parametrize("number", sorted(PYSOLFC_FORTY_THIEVES))
def test_pysol_n_lays_out_forty_thieves_as_pysolfc_deals_its_game_n(number):
    piles, rest = PYSOLFC_FORTY_THIEVES[number]
    g = dealt("forty-thieves", f"pysol:{number}")
    assert [pile(g, f"t{i}") for i in range(1, 11)] == piles
    assert stock(g) == rest


# FreeCell as PySolFC deals it. Game 123456 (Mersenne Twister) and game 24 (Microsoft's deal 24): the layouts
# published in PySolFC's own test suite (tests/lib/pysol_tests/test_ms_deals.py, "PySolFC deal No. 123456" and
# "Deal 24"), printed there one line a pile, bottom card first. Game 32000: PySolFC's FreeCell class run headless as
# above; it is not Microsoft's deal 32000, as PySolFC switches to the Mersenne Twister at 32,000
# (pysollib/pysolrandom.py, construct_random; its klondike_solvable_seeds.py warns of it), though pysol-cards' own
# `shuffle` switches above it.
PYSOLFC_FREECELL = {
    123456: ["3D 6C AS TS QC 8D 4D", "2D TC 4H JD TD 2H 5C", "2C 8S AH KD KH 5S 7C", "9C 8C QH 3C 5D 9S QD",
             "AC 9D 7H 6D KS JH", "6H TH 8H QS 7D JC", "4C 2S 3S 6S 5H 3H", "KC JS 9H 4S 7S AD"],
    24: ["4C 2C 9C 8C QS 4S 2H", "5H QH 3C AC 3H 4H QD", "QC 9S 6H 9H 3S KS 3D", "5D 2S JC 5C JH 6D AS",
         "2D KD TH TC TD 8D", "7H JS KH TS KC 7C", "AH 5S 6S AD 8H JD", "7S 6C 7D 4D 8S 9D"],
    32000: ["7S JC 4H 6H AH 6C 7C", "4D 3C 6S 7D JD 2H 8H", "JS 2C 8S 5H 4S 2D KC", "8D 5S 9S QS JH 5D AS",
            "6D 9D TS AD TD KS", "3H AC 9H QH 3S QC", "3D 9C KD TC 7H KH", "TH 2S QD 4C 8C 5C"],
}


@pytest.mark.parametrize("number", sorted(PYSOLFC_FREECELL))
def test_pysol_n_lays_out_freecell_as_pysolfc_deals_its_game_n(number):
    g = dealt("freecell", f"pysol:{number}")
    assert [pile(g, f"t{i}") for i in range(1, 9)] == PYSOLFC_FREECELL[number]


@pytest.mark.parametrize("number", [1, 24, 617, 11982, 24567, 31999])
def test_pysol_n_below_32000_is_microsofts_deal_n_for_freecell(number):
    # ms:N is itself checked against fc-solve's generator above.
    rules = load_ruleset("freecell")
    assert world_deal_order(rules, f"pysol:{number}") == world_deal_order(rules, f"ms:{number}")


def test_pysol_32000_is_not_microsofts_deal_32000():
    assert dealt("freecell", "pysol:32000").state.piles != dealt("freecell", "ms:32000").state.piles


def gypsy_talon(number: int) -> list[str]:
    """PySolFC's two-pack talon for game `number`, top first, read off pysol-cards' own deal printer for Gypsy (a
    two-pack game dealt in rows across 8 piles, the rest left in the talon): pile c holds talon cards c, c + 8 and
    c + 16."""
    text = PysolCardsGame("gypsy", number, RandomBase.DEALS_PYSOLFC).calc_layout_string(CardRenderer(True))
    talon, *columns = text.splitlines()
    columns = [[card.strip("<>") for card in line.split()] for line in columns]
    return [columns[c][r] for r in range(3) for c in range(8)] + talon.removeprefix("Talon: ").split()


@pytest.mark.parametrize("number", [1, 5, 617, 31999, 32001, 123456, 2**33 + 1, 10**20])
def test_pysol_n_lays_out_forty_thieves_from_the_talon_pysol_cards_deals_for_gypsy(number):
    # The same shuffle of the same two packs; Forty Thieves deals four rows across 10 piles from the same talon.
    talon = gypsy_talon(number)
    g = dealt("forty-thieves", f"pysol:{number}")
    assert [pile(g, f"t{j + 1}") for j in range(10)] == [" ".join(talon[j:40:10]) for j in range(10)]
    assert stock(g) == " ".join(talon[40:])


def test_pysol_n_places_each_card_where_pysolfc_does_even_when_kallistis_rows_reach_it_in_another_order():
    # PySolFC's HouseInTheWood and DoubleKlondike classes, run headless as above. PySolFC deals House in the Wood's
    # row of 34 first, kallisti's ruleset last; and Double Klondike (kallisti's Harp) its face-up cards in one last row.
    g = dealt("house-in-the-wood", "pysol:5")
    assert [pile(g, t) for t in ("t1", "t2", "t34", "t35")] == ["3C 5D QC", "8C TS 6C", "QS 8D 6D", "6C KD"]
    g = dealt("house-in-the-wood", "pysol:40000")
    assert [pile(g, t) for t in ("t1", "t2", "t34", "t35")] == ["AS 9H KC", "2S 7C AD", "8D 8D 6C", "TD 6H"]
    g = dealt("harp", "pysol:5")
    assert [pile(g, f"t{i}") for i in (1, 2, 3, 9)] == [
        "9H", "<3C> 9H", "<8C> <4S> AD", "<2D> <2S> <2C> <6S> <5C> <QC> <5D> <TS> JH"]
    assert stock(g).startswith("4H 9D 8D 4S")  # the card PySolFC turns onto the waste, then its talon


# The shipped games whose deal has the shape of a layout PySolFC deals, and the PySolFC games that deal it; and some
# shipped games it does not know: Spider (PySolFC deals its four extra cards to piles 1, 4, 7 and 10, kallisti's ruleset
# to the first four), Lucas (its aces taken out first; PySolFC's Lucas deals 13 rows of 4), Octave (a reserve too).
KNOWN = {"forty-thieves": "Forty Thieves", "number-ten": "Number Ten", "rank-and-file": "Rank and File",
         "emperor": "Emperor", "indian": "Indian", "maria": "Maria", "midshipman": "Midshipman", "limited": "Limited",
         "busy-aces": "Busy Aces", "blockade": "Blockade", "miss-milligan": "Miss Milligan", "congress": "Congress",
         "house-in-the-wood": "House in the Wood", "house-on-the-hill": "House on the Hill", "harp": "Double Klondike",
         "freecell": "FreeCell"}


@pytest.mark.parametrize("game", sorted(KNOWN))
def test_pysol_n_is_known_for_a_shipped_game_dealt_as_pysolfc_deals_it(game):
    assert KNOWN[game] in pysol_layout(load_ruleset(game)).games.split(", ")


@pytest.mark.parametrize("game", ["spider", "lucas", "octave"])
def test_pysol_n_is_a_usage_error_for_a_game_dealt_otherwise_naming_the_games_it_is_known_for(game):
    rules = load_ruleset(game)
    known = rf"pysol:5 is PySolFC's game 5, .*Forty Thieves.*; {rules.name}'s deal is laid out otherwise"
    with pytest.raises(WorldDealError, match=known):
        world_deal_order(rules, "pysol:5")


def test_no_two_pysolfc_layouts_share_a_shape():
    shapes = [layout.shape() for layout in PYSOL_LAYOUTS]
    assert len(set(shapes)) == len(shapes)


@pytest.mark.parametrize("deal, message", [("pysol:0", "numbered 1 to 100000000000000000000; 0 is not one"),
                                           (f"pysol:{10**20 + 1}", f"{10**20 + 1} is not one"),
                                           ("pysol:x", "is not a world deal number: write ms:N"),
                                           ("pysol:-3", "is not a world deal number")])
def test_a_bad_pysolfc_game_number_is_a_usage_error(deal, message):
    with pytest.raises(WorldDealError, match=message):
        world_deal_order(load_ruleset("forty-thieves"), deal)


def test_play_and_solve_take_a_pysolfc_game_number():
    shown = CliRunner().invoke(app, ["play", "forty-thieves", "--deal", "pysol:5"], input="q\n")
    assert shown.exit_code == 4 and shown.output.splitlines()[0] == "Forty Thieves, deal pysol:5"
    solved = CliRunner().invoke(app, ["solve", "forty-thieves", "--deal", "pysol:5", "--states", "2000",
                                      "--format", "json"])
    assert solved.exit_code in (0, 3, 5) and json.loads(solved.output)["deal"] == "pysol:5"
    for game, deal in (("spider", "pysol:5"), ("forty-thieves", "pysol:0")):
        refused = CliRunner().invoke(app, ["play", game, "--deal", deal], input="q\n")
        assert refused.exit_code == 2, (game, deal, refused.output)


# -- simulate --numbering --------------------------------------------------------------------------------------------
@pytest.mark.parametrize("numbering, number", [("ms", 617), ("ms", 11982), ("pysol", 123456)])
def test_simulate_with_a_numbering_plays_the_layout_of_deal_option_n(numbering, number):
    rules = load_ruleset("freecell")
    simulated = Plan("greedy", numbering=numbering).deal(rules, number)
    given = Game(rules, seed=None, order=deal_option_order(rules, f"{numbering}:{number}"))  # `--deal ms:N`
    assert simulated.state.key() == given.state.key()


def test_simulate_numbering_ms_plays_microsofts_deals_and_says_so():
    rules = load_ruleset("freecell")
    result = simulate(rules, 3, seed=1, strategy="greedy", cap=300, numbering="ms")
    for outcome in result.outcomes:  # each deal as `--deal ms:N` lays it out, played by the same strategy
        game = Game(rules, seed=None, order=world_deal_order(rules, f"ms:{outcome.seed}"))
        play = DealPlay(rules, outcome.seed, "greedy", 300, game=game)
        while (ended := play.outcome()) is None:
            play.step()
        assert (outcome.outcome, outcome.moves) == (ended, play.made)
    shown = CliRunner().invoke(app, ["simulate", "freecell", "--numbering", "ms", "--seed", "1", "--deals", "3",
                                     "--cap", "300"])
    assert shown.exit_code == 0 and "3 deals (Microsoft deals 1..3)" in shown.output
    record = json.loads(CliRunner().invoke(app, ["simulate", "freecell", "--numbering", "ms", "--deals", "3", "--cap",
                                                 "300", "--format", "json"]).output)
    assert record["numbering"] == "ms" and (record["won"], record["lost"], record["capped"]) == (
        result.won, result.lost, result.capped)


@pytest.mark.parametrize("args", [["spider", "--numbering", "pysol"], ["freecell", "--numbering", "ms", "--seed", "0"],
                                  ["freecell", "--numbering", "ms", "--seed", str(2**31 - 2), "--deals", "3"]])
def test_simulate_refuses_a_numbering_unfit_for_the_game_or_its_deals_before_playing(args):
    refused = CliRunner().invoke(app, ["simulate", *args])
    assert refused.exit_code == 2 and "--numbering" in refused.output


@pytest.mark.parametrize("first, then", [(None, "ms"), ("ms", None), ("ms", "pysol")])
def test_a_journal_of_a_run_in_another_numbering_is_refused(tmp_path, first, then):
    rules, path = load_ruleset("freecell"), tmp_path / "run.jsonl"
    simulate(rules, 2, seed=1, strategy="greedy", cap=100, journal=path, numbering=first)
    header = json.loads(path.read_text(encoding="utf-8").splitlines()[0])
    assert header.get("numbering") == first
    before = path.read_bytes()
    with pytest.raises(JournalError, match=r"records another run \(numbering "):
        simulate(rules, 2, seed=1, strategy="greedy", cap=100, journal=path, numbering=then)
    assert path.read_bytes() == before
    resumed = simulate(rules, 2, seed=1, strategy="greedy", cap=100, journal=path, numbering=first)
    assert resumed.resumed == 2
