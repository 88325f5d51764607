"""FreeCell, rule by rule on fixed deals, and Microsoft's numbered deals (`--deal ms:N`) as it lays them out."""

from __future__ import annotations

from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.interpreter.game import Game
from kallisti.interpreter.world_deals import world_deal_order

from scenario import ROOT, cards as pile, for_game, legal, play, refusal

NAME = "freecell"
rules, game = for_game(NAME)
TABLEAU = [f"t{i}" for i in range(1, 9)]


def ms(number: int) -> Game:
    return Game(rules(), seed=None, order=world_deal_order(rules(), f"ms:{number}"))


def test_deal_1_lays_seven_cards_on_the_four_left_piles_and_six_on_the_others_all_face_up():
    g = game()
    assert [len(pile(g, t)) for t in TABLEAU] == [7, 7, 7, 7, 6, 6, 6, 6]
    assert all(g.state.down[g.rules.pile_of_tag[t]] == 0 for t in TABLEAU)
    assert all(pile(g, f"c{i}") == [] and pile(g, f"f{i}") == [] for i in range(1, 5))


def test_a_cell_takes_one_card_only():
    g = game({"t1": "9S 8H", "t2": "9C"})
    play(g, "t1 c1")
    assert pile(g, "c1") == ["8H"]
    assert refusal(g, "t1 c1").startswith("9♠ cannot go on 8♥")
    play(g, "t1 c2")
    assert pile(g, "c2") == ["9S"] and pile(g, "t1") == []
    play(g, "c1 t2")  # and gives it back to the tableau
    assert pile(g, "c1") == [] and pile(g, "t2") == ["9C", "8H"]


def test_a_tableau_move_of_two_cards_is_refused_even_a_built_pair():
    g = game({"t1": "9S 8H", "t2": "10D", "t3": ""})
    assert refusal(g, "t1 t2 2").startswith("9♠ 8♥ cannot leave t1")
    assert refusal(g, "t1 t3 2").startswith("9♠ 8♥ cannot leave t1")
    assert not any(m.split()[-1] == "2" for m in legal(g))


def test_the_tableau_builds_down_in_alternate_colours():
    g = game({"t1": "8H", "t2": "9D", "t3": "10S", "t4": "9C", "t5": "7S"})
    assert refusal(g, "t1 t2") == ("8♥ cannot go on 9♦: the tableau builds down in alternate colours "
                                   "(piles.tableau.build, clause alternate-colour)")
    assert refusal(g, "t1 t3").startswith("8♥ cannot go on 10♠: the tableau builds down in alternate colours")
    play(g, "t1 t4")
    assert pile(g, "t4") == ["9C", "8H"]
    play(g, "t5 t4")
    assert pile(g, "t4") == ["9C", "8H", "7S"]


def test_any_card_fills_a_space_from_the_tableau_or_a_cell():
    g = game({"t1": "2D", "t2": "KS", "c1": "5C"})
    play(g, "t1 t3")
    assert pile(g, "t3") == ["2D"]
    play(g, "c1 t1")
    assert pile(g, "t1") == ["5C"]
    play(g, "t2 t4")
    assert pile(g, "t4") == ["KS"]


def test_foundations_build_up_in_suit_from_the_ace_one_card_at_a_time():
    g = game({"t1": "2H AH", "t2": "2S", "t3": "3H"})
    assert refusal(g, "t2 f1").startswith("2♠ cannot go to the empty f1")
    play(g, "t1 f1")
    assert refusal(g, "t2 f1").startswith("2♠ cannot go on A♥")
    play(g, "t1 f1")
    play(g, "t3 f1")
    assert pile(g, "f1") == ["AH", "2H", "3H"]


def test_microsoft_deal_11982_is_laid_out_as_every_freecell_program_numbers_it():
    g = ms(11982)
    assert [" ".join(pile(g, t)) for t in TABLEAU] == [
        "AH 3D KD JC 6C JD KC", "AS 3H 6H 5D 2C 7D 8D", "4H QS 5S 5C 10H 8H 2S", "AC QC 4D 8C QH 9C 3S",
        "2D 8S 9H 9D 6D 2H", "6S 7H JH 10D 10C QD", "10S AD 9S KH 4S 4C", "JS KS 3C 7C 7S 5H"]


def test_play_and_solve_take_a_microsoft_deal_number_and_refuse_it_for_a_game_not_dealt_so():
    shown = CliRunner().invoke(app, ["play", NAME, "--deal", "ms:11982"], input="q\n")
    assert shown.exit_code == 4 and shown.output.splitlines()[0] == "FreeCell, deal ms:11982"
    assert "t1 A♥  3♦  K♦  J♣  6♣  J♦  K♣" in shown.output
    line = (ROOT / "examples" / "freecell-ms-1.moves").read_text(encoding="utf-8")  # `solve --deal ms:1 --beam 100`
    won = CliRunner().invoke(app, ["play", NAME, "--deal", "ms:1"], input=line)
    assert won.exit_code == 0 and "*** WON: FreeCell in 112 moves ***" in won.output
    for game_name, deal in (("forty-thieves", "ms:5"), (NAME, "ms:0"), (NAME, "ms:2147483648"), (NAME, "ms:x")):
        refused = CliRunner().invoke(app, ["play", game_name, "--deal", deal], input="q\n")
        assert refused.exit_code == 2, (game_name, deal, refused.output)
    solved = CliRunner().invoke(app, ["solve", NAME, "--deal", "ms:1", "--beam", "100", "--states", "60000"])
    assert solved.exit_code == 0 and solved.output.startswith("# FreeCell, deal ms:1: won in 112 moves")


def test_the_portfolio_weighs_cells_apart_in_a_second_best_first_search_only_where_a_group_builds_nothing():
    from kallisti.solver.bestfirst import CELL_WEIGHTS
    from kallisti.solver.portfolio import _Portfolio
    from kallisti.solver.solve import SearchOptions

    freecell = _Portfolio(ms(454), SearchOptions(states=1_000))
    searches = [search for search, _, _ in freecell.walks]
    assert [type(s).__name__ for s in searches] == ["_Search", "BestFirst", "BestFirst"]
    assert searches[2].estimate.weights == CELL_WEIGHTS
    shares = [share for _, _, share in freecell.walks]
    assert shares[0] == shares[1] + shares[2]  # the depth-first search has as many positions as the other two
    thieves = _Portfolio(for_game("forty-thieves")[1](), SearchOptions(states=1_000))
    assert [type(s).__name__ for s, _, _ in thieves.walks] == ["_Search", "BestFirst"]


def test_microsoft_deal_454_is_won_by_the_search_that_weighs_cells_apart():
    # The first estimate alone leaves it unknown at 200,000 positions (docs/solver.md, "FreeCell against fc-solve").
    from kallisti.solver.solve import WON, SearchOptions, solve

    result = solve(rules(), options=SearchOptions(states=10_000), game=ms(454))
    assert result.verdict == WON
    assert result.states <= 10_000
