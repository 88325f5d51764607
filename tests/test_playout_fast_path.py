"""`Game.playout` plays exactly as the general step-by-step path does, and `kallisti simulate --strategy random`,
which plays its deals with `Game.playout`, exactly as a player who asks `status` and the strategy before every move.

Rulesets of plain moves (every card move is one top card onto a pile the index judges alone) are played out by
`Game._plain_playout`, which makes the moves inline; every other ruleset by the general loop. Either way a playout
must make the same moves as the public steps (win check, `legal_moves`, lose check, `apply` or `play`) chosen by
the same random numbers: the same number of moves, the same final position, and an index of destinations that a
fresh filing agrees with. Every shipped patience is played both ways.
"""

from __future__ import annotations

import random
from pathlib import Path
from unittest import mock

import pytest

import kallisti
from kallisti.interpreter.game import Game
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.simulate import DealOutcome, DealPlay, play_deal
from kallisti.solver.strategies import RandomStrategy
from shipped import shipped

RULESETS = Path(kallisti.__file__).parent / "rulesets"


def shipped_patiences() -> list[str]:
    """Every shipped ruleset played alone (piles to play on, no match between seats, no card table)."""
    names = []
    for path in sorted(RULESETS.iterdir()):
        if path.suffix in (".yaml", ".rules"):
            rules = shipped(path.stem)  # loaded once per process: every worker collects this file
            if rules.pile_count and rules.match is None and rules.table is None:
                names.append(path.stem)
    return names


SHIPPED = shipped_patiences()
# Shipped games: plain ones (taking the fast path, with spaces judged beyond their tables in busy-aces, congress and
# house-on-the-hill, and compulsory moves in congress and discordian), and others with runs, discards, checked
# build clauses, hands, refills, automatic moves (intelligence, la-nivernaise) and compulsory moves (decade): every
# shipped patience, and Discordian (a match's ruleset, played here as a patience).
PLAIN = ["busy-aces", "congress", "discordian", "forty-thieves", "freecell", "house-in-the-wood", "house-on-the-hill",
         "indian", "limited", "lucas", "maria", "number-ten", "octave", "rank-and-file", "rouge-et-noir"]
GENERAL = [name for name in SHIPPED if name not in PLAIN]
SEEDS = [1, 2, 3]
CAPS = [1000, 45]  # to the end (or the cap), and stopped part-way


def stepwise_playout(game: Game, choose, cap: int) -> int:
    """The playout loop written out with the public steps, one move at a time."""
    rules = game.rules
    has_auto = any(p.trigger == "each-move" for p in rules.auto)
    made = 0
    while made < cap:
        if rules.win(game.ctx):
            break
        moves = game.legal_moves()
        if not moves or any(loss.when(game.ctx) for loss in rules.lose):
            break
        m = moves[choose(len(moves))]
        if has_auto:
            game.play(m)
        else:
            game.apply(m)
        made += 1
    return made


def index_snapshot(game: Game):
    """The destination index as sets (filing order depends on history), and each simple source's list."""
    sources = [game.source_dests[i] == (game.dests[game.top_key[src]] if game.top_key[src] >= 0 else ())
               and (game.top_key[src] < 0 or game.source_dests[i] is game.dests[game.top_key[src]])
               for src, _, i in game.simple_sources]
    return (list(game.top_key), [sorted(lst) for lst in game.dests], [sorted(lst) for lst in game.checked],
            sorted(game.open_spaces), [sorted(lst) for lst in game.empties], sources)


def assert_same_playouts(rules, seed: int, cap: int, fast_path: bool) -> None:
    original = Game._plain_playout
    fast = Game(rules, seed=seed)
    with mock.patch.object(Game, "_plain_playout", autospec=True, side_effect=original) as spy:
        made = fast.playout(random.Random(seed).randrange, cap)
    assert spy.called == fast_path
    slow = Game(rules, seed=seed)
    assert made == stepwise_playout(slow, random.Random(seed).randrange, cap)
    assert fast.state.key() == slow.state.key()
    assert fast.state.sizes == slow.state.sizes
    assert fast.moves_played == slow.moves_played
    assert fast.legal_moves() == slow.legal_moves()  # the index lists hold the same piles in the same order
    assert fast.status() == slow.status()
    kept = index_snapshot(fast)
    fast._reindex()
    assert kept == index_snapshot(fast)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", PLAIN + GENERAL)
def test_a_playout_plays_as_the_step_by_step_path(name, seed):
    rules = shipped(name)
    for cap in CAPS:
        assert_same_playouts(rules, seed, cap, fast_path=name in PLAIN)


@pytest.mark.parametrize("name", ["intelligence", "la-nivernaise"])
def test_a_playout_makes_the_automatic_moves_without_keeping_steps(name):
    """A playout of a ruleset with automatic moves after each move makes them as `play` does, card moves inline
    as the loop makes them, but keeps neither the player's steps (`events`) nor their undo records: it is never
    taken back."""
    rules = shipped(name)
    for seed in SEEDS:
        fast, slow = Game(rules, seed=seed), Game(rules, seed=seed)
        applied, apply = [], fast.apply
        fast.apply = lambda m: applied.append(m) or apply(m)
        made = fast.playout(random.Random(seed).randrange, 1000)
        # Only deals through `apply`: the automatic ones, and those that may divert a card (Intelligence's aces);
        # card moves, refills (diverted or not) and redeals are made inline.
        assert applied and all(m < fast.P for m in applied)
        assert made == stepwise_playout(slow, random.Random(seed).randrange, 1000)
        assert fast.state.key() == slow.state.key() and fast.moves_played == slow.moves_played
        assert slow.history and not fast.history and not fast.events
        assert (fast.failures, fast.rule_errors) == (slow.failures, slow.rule_errors)


def test_a_playout_makes_deals_refills_and_redeals_inline():
    """La Nivernaise deals four cards together onto each packet, refills a packet played out with four from the pack
    and redeals: a playout makes the deals and refills inline, not through `_deal_from` and its undo record (only the
    automatic deal after a redeal goes through it), and its redeals without their undo record, and ends where the
    step-by-step path does."""
    rules = shipped("la-nivernaise")
    dealt, redealt = [], []
    deal_from, redeal = Game._deal_from, Game._redeal

    def dealing(self, s, dests):
        dealt.append(tuple(dests) == self.deal_to[s] and self.made_auto)
        return deal_from(self, s, dests)

    def redealing(self, s, undoable=True):
        redealt.append(undoable)
        return redeal(self, s, undoable)

    for seed in SEEDS:
        fast, slow = Game(rules, seed=seed), Game(rules, seed=seed)
        apply = fast.apply
        fast.made_auto = False

        def applying(m, game=fast):  # the automatic moves are made through `apply`: their deals are theirs
            game.made_auto = True
            try:
                return apply(m)
            finally:
                game.made_auto = False

        fast.apply = applying
        with mock.patch.object(Game, "_deal_from", dealing), mock.patch.object(Game, "_redeal", redealing):
            made = fast.playout(random.Random(seed).randrange, 1000)
        assert all(dealt) and redealt and not any(redealt)
        del dealt[:], redealt[:]
        assert made == stepwise_playout(slow, random.Random(seed).randrange, 1000)
        assert fast.state.key() == slow.state.key() and fast.redeal_positions == slow.redeal_positions
        assert slow.state.redeals == fast.state.redeals


# Forty Thieves changed so that the fast path meets what it takes the general path for, or skips work for:
# wins that are reached (by a card move between groups, by a deal, by a move within a group: a win reading
# more than group sizes), a lose rule, redeals (the index filed afresh),
# a dealing condition, deals of several cards and deals onto the tableau, and compulsory moves.
VARIANTS = {
    "win-on-sizes": "win: foundation.size >= 3",
    "win-on-piles": 'win: "any(p in foundation: p.size >= 2)"',
    "win-by-a-deal": "win: waste.size >= 8",
    "win-within-a-group": 'win: "any(p in tableau: p.size <= 1)"',
    "lose": "lose:\n  - {id: full-waste, when: waste.size >= 12, says: the waste is full}",
    "redeals": "piles:\n  stock: {redeals: 2}",
    "dealing-rule": 'piles:\n  stock:\n    dealing: [{id: short-waste, require: "waste.size < 6"}]',
    "deal-three": "piles:\n  stock: {turn: {to: waste, count: 3}}",
    "deal-a-row": "piles:\n  stock: {turn: {to: tableau}}\nadd:\n  piles:\n    stock: {turn: {each: true}}",
    "compulsory": "compulsory:\n  - {id: aces-home, kind: move, from: [tableau, waste], to: foundation, when: card.rank == first}",
}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_playout_of_a_changed_ruleset_plays_as_the_step_by_step_path(tmp_path, variant, seed):
    path = tmp_path / f"{variant}.yaml"
    path.write_text(f"extends: forty-thieves\ngame: Forty Thieves ({variant})\n{VARIANTS[variant]}\n", encoding="utf-8")
    rules = load_ruleset(path)
    for cap in CAPS:
        assert_same_playouts(rules, seed, cap, fast_path=True)


def test_the_variants_reach_what_they_test():
    """The changed rulesets do meet the cases they are there for, on the seeds played."""
    def ends(text: str) -> set[str]:
        seen = set()
        for seed in SEEDS:
            game = Game(load_ruleset("forty-thieves", f"extends: forty-thieves\ngame: X\n{text}\n"), seed=seed)
            game.playout(random.Random(seed).randrange, 1000)
            seen.add(game.status().outcome)
            seen |= {"redealt"} if any(game.state.redeals.values()) else set()
        return seen

    assert "won" in ends(VARIANTS["win-on-sizes"])
    assert "won" in ends(VARIANTS["win-on-piles"])
    assert "won" in ends(VARIANTS["win-by-a-deal"])
    assert "won" in ends(VARIANTS["win-within-a-group"])
    assert "lost" in ends(VARIANTS["lose"])
    assert "redealt" in ends(VARIANTS["redeals"])


@pytest.mark.parametrize("text, sizes", [
    ("foundation.size == deck.size", {"foundation"}),
    ("foundation.size + waste.size >= 3 and not (tableau.size > 40)", {"foundation", "waste", "tableau"}),
    ("deck.size > 0", set()),
    ("any(p in foundation: p.size >= 2)", None),  # a pile's size: more than a group's
    ("foundation.size > 3 and tableau.empty", None),
    ("foundation.size > 3 or any(p in tableau: p.movable)", None),
])
def test_the_compiler_knows_when_an_expression_reads_only_group_sizes(text, sizes):
    """What lets a playout skip the win after a move that changes none of the sizes it reads."""
    from kallisti.errors import Pos
    from kallisti.interpreter.compiler import STATE_SCOPE

    compiled = load_ruleset("forty-thieves").compiler.compile(text, Pos("<test>"), STATE_SCOPE)
    assert compiled.sizes == (None if sizes is None else frozenset(sizes))


def stepped_deal(rules, seed: int, cap: int) -> tuple[DealOutcome, Game]:
    """A deal of `simulate --strategy random` played the general way: `status` and the strategy before every move."""
    play = DealPlay(rules, seed, "random", cap)
    while (outcome := play.outcome()) is None:
        play.step()
    return DealOutcome(seed, outcome, play.made), play.game


@pytest.mark.parametrize("name", SHIPPED)
def test_simulate_plays_a_random_deal_as_the_step_by_step_path(name):
    """`play_deal(..., "random")` takes the engine's loop: the same outcome, moves and final position."""
    rules = shipped(name)
    for seed in (1, 2):
        for cap in (400, 37):
            game = Game(rules, seed=seed)
            with mock.patch.object(DealPlay, "step", autospec=True, side_effect=AssertionError("the general path")):
                fast = play_deal(rules, seed, "random", cap, game=game)
            slow, stepped = stepped_deal(rules, seed, cap)
            assert fast == slow
            assert game.state.key() == stepped.state.key()
            assert game.status() == stepped.status()


# Forty Thieves (plain moves) and Harp (runs) where nothing but aces can leave the tableau and the waste, and the
# stock is turned again and again: a pass through it soon changes nothing, and the game is lost as blocked.
STALLING = """extends: {base}
game: {base} (stalling)
piles:
  stock: {{redeals: unlimited}}
  tableau: {{build: none, empty: none}}
"""


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("base, plain", [("forty-thieves", True), ("harp", False)])
def test_a_simulated_deal_stops_where_status_finds_it_blocked(base, plain, seed):
    rules = load_ruleset(base, STALLING.format(base=base))
    game = Game(rules, seed=seed)
    assert game.plain_moves == plain
    fast = play_deal(rules, seed, "random", 2000, game=game)
    slow, stepped = stepped_deal(rules, seed, 2000)
    assert fast == slow and fast.outcome == "lost"
    assert game.status().reason.startswith("blocked")
    assert game.state.key() == stepped.state.key()
    # A playout not told to stop there goes on redealing to the cap.
    assert Game(rules, seed=seed).playout(RandomStrategy(seed).rng.below, 2000) == 2000
