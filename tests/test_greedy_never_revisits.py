"""The greedy strategy never moves back to a position the deal has been in, and `simulate` deals with it end.

It used to shuttle a card between two piles (`t2 t5`, `t5 t2`, ...) until the move cap: `kallisti simulate
forty-thieves --deals 100` capped 53 deals at 2,000 moves. A position is the engine's state key, as the hint and the
search strategy keep them: the cards of every pile, their faces and the redeals done, so a redeal always leads
somewhere new and the rules of these games never force a position to come back. When every move would lead back,
the strategy concedes and the deal counts as lost.
"""

from __future__ import annotations

import pytest

from kallisti.model.ruleset import load_ruleset
from kallisti.solver.simulate import DealPlay
from kallisti.solver.strategies import GreedyStrategy

# Small samples (a few hundred moves a deal at most) whose deals all end well before the cap. Rouge et Noir redeals
# once (in four of these deals), Intelligence shuffles at each of its two redeals and makes automatic moves.
SAMPLES = {
    "forty-thieves": range(1, 11),
    "spider": range(1, 6),
    "rouge-et-noir": range(1, 9),
    "intelligence": range(1, 6),
}


def play_through(rules, seed: int) -> tuple[DealPlay, str, list]:
    """Deal `seed` played greedily to its end, asserting after every move that its position is new; the play, its
    outcome and the positions it stood in."""
    play = DealPlay(rules, seed, "greedy")
    positions = [play.game.state.key()]
    seen = set(positions)
    while (outcome := play.outcome()) is None:
        if not play.step():
            continue  # conceded: `outcome()` says so
        key = play.game.state.key()
        assert key not in seen, f"{rules.name} deal {seed}: move {play.made} went back to a position"
        seen.add(key)
        positions.append(key)
    return play, outcome, positions


@pytest.mark.parametrize("name", list(SAMPLES))
def test_greedy_play_never_comes_back_to_a_position_and_no_deal_is_capped(name):
    rules = load_ruleset(name)
    outcomes, redealt = [], 0
    for seed in SAMPLES[name]:
        play, outcome, positions = play_through(rules, seed)
        assert outcome != "capped", f"{name} deal {seed} reached the cap of {play.cap} moves"
        assert len(positions) == play.made + 1
        outcomes.append(outcome)
        redealt += any(play.game.state.redeals.values())
    assert set(outcomes) <= {"won", "lost"}
    if name in ("rouge-et-noir", "intelligence"):
        assert redealt, f"no deal of the {name} sample redealt"


def test_forty_thieves_deals_end_by_conceding_where_they_used_to_shuttle_cards():
    """Deals 1–10 all end lost, some of them with no legal move left, the others because every move would go back:
    where the strategy used to shuttle cards until the cap, it now gives up."""
    rules = load_ruleset("forty-thieves")
    conceded = 0
    for seed in SAMPLES["forty-thieves"]:
        play, outcome, _ = play_through(rules, seed)
        assert outcome == "lost"
        conceded += play.conceded
    assert conceded


def test_a_lone_king_visits_every_space_then_the_strategy_concedes():
    """Forty Thieves reduced to a king on t1 and nine spaces, no stock: the king goes to each space once (each move is
    a new position), and then every move goes back, so the strategy gives up and the deal is lost after 9 moves."""
    rules = load_ruleset("forty-thieves")
    play = DealPlay(rules, 1, "greedy")
    play.game.arrange({"t1": "KS"})
    tops = []
    while play.outcome() is None:
        if play.step():
            tops.append(next(p for p in play.game.rules.groups["tableau"].piles if play.game.state.piles[p]))
    assert play.conceded and play.outcome() == "lost" and play.made == 9
    assert len(set(tops)) == 9  # t2..t10, each once
    assert play.game.state.card_count() == 1


def test_the_strategy_concedes_only_when_every_move_goes_back_and_none_deals():
    rules = load_ruleset("forty-thieves")
    game = DealPlay(rules, 1, "greedy").game.arrange({"t1": "KS"})
    greedy = GreedyStrategy(1)
    assert greedy.choose(game, game.legal_moves()) is not None
    # Every position the king could go to, and the one it stands in, already visited: no move is worth making.
    greedy.seen |= {key_after(game, m) for m in game.legal_moves()}
    assert greedy.choose(game, game.legal_moves()) is None
    # With a card in the stock, a deal is made even if it led back (under the state key a deal never does).
    game = DealPlay(rules, 1, "greedy").game.arrange({"t1": "KS", "s": "2H"}, down={"s": 1})
    greedy = GreedyStrategy(1)
    greedy.choose(game, game.legal_moves())
    greedy.seen |= {key_after(game, m) for m in game.legal_moves()}
    assert game.decode(greedy.choose(game, game.legal_moves()))[0] == "deal"


def key_after(game, m: int) -> tuple:
    """The state key after move m (made and taken back)."""
    record = game.apply(m)
    key = game.state.key()
    game.undo_record(record)
    return key
