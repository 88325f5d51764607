"""The move generator's shortcuts list exactly the moves, in exactly the order, of the general way, on every shipped
patience: spaces whose empty rule has no table filed in `checked` lists (`FILE_UNTABLED_SPACES`), sources of single
cards listed by one index lookup beside groups that take cards into spaces judged the general way
(`SIMPLE_BESIDE_SPACE_TARGETS`: their spaces looked at only while one is empty), verdicts read off
kept memos (`kept_checked`), a take rule's verdicts kept by the pile's shape (`take_shapes`), compulsory and
automatic moves matched only where the move's number allows (`compulsory_masks`, `step_auto_masks`, with
`step_auto_bound`), runs' general
targets passed over while those that take cards into spaces alone have none that the clauses their empty rule runs
first, reading nothing of the move, leave open (`space_only_targets`, `space_gates`), only the
sources some space may take from gone through beside those spaces (`_space_sources`), a pile's runs
kept by its cards for every later position where it holds them (`run_memo`), kinds of card that every pile files
alike sharing their index lists (`SHARE_KIND_LISTS`), and the checked lists of a simple source whose card every rule
filed there refuses (`refuses_single`), verdicts kept by card while the piles of the groups a rule reads stand
(`build_judges`, `empty_judges`, `watched_checked`: House on the Hill's one foundation a suit), the verdicts of an
empty rule's clauses past its space gates kept by source and count (`gated_counts`), runs that every general
target refuses for good asked about once (`space_refused`), runs tried only up to the counts a take rule's
leading count clauses let through (`TAKE_LIMITS`: La Nivernaise's foundations give their top card alone), the
runs of a source that gives its top card alone read off by the kind of its top (`single_runs`), the moves of a
ruleset whose piles give no top cards listed as the stock's and the windows' alone (`windows_only`: Decade),
dealing rules that ask only whether a group's piles are empty read off the index (`deal_gates`: Blockade, Spider,
Intelligence), and runs listed by a loop that reads only their kinds' `dests` and `checked` lists where no
space is open and runs' general targets are idle (`READ_OFF_RUNS`).

A game with every shortcut and a twin with none are stepped through the same random moves, with steps taken back
(the order of the legal moves follows the history of the move indexes); each position must list the same moves in
the same order, and a playout of each must make the same moves."""

from __future__ import annotations

import random
from unittest import mock

import pytest

from kallisti.interpreter.game import Game
from kallisti.model.ruleset import load_ruleset
from test_playout_fast_path import SHIPPED

NAMES = SHIPPED + ["discordian"]


class KeepsNothing(set):
    """A set that keeps nothing added to it: the twin asks every general target about every run again."""

    def add(self, item) -> None:
        pass


def general_twin(name: str, seed: int) -> Game:
    """A game of a freshly loaded ruleset (its own tables) that takes none of the shortcuts."""
    with mock.patch.object(Game, "FILE_UNTABLED_SPACES", False), \
            mock.patch.object(Game, "SIMPLE_BESIDE_SPACE_TARGETS", False), \
            mock.patch.object(Game, "SHARE_KIND_LISTS", False), \
            mock.patch.object(Game, "TAKE_LIMITS", False), \
            mock.patch.object(Game, "READ_OFF_RUNS", False):
        twin = Game(load_ruleset(name), seed=seed)
    twin.kept_checked = False
    twin.take_shapes = [None] * len(twin.take_shapes)
    twin.compulsory_masks = twin.step_auto_masks = None
    twin.space_only_targets = twin.run_memo = None
    twin.refuses_single = [False] * twin.P  # every simple source's checked lists read
    twin.build_judges = [g.build for g in twin.group_list]  # no verdict kept by card while some piles stand
    twin.empty_judges = [g.empty for g in twin.group_list]
    twin.watched_checked = False
    twin.gated_counts = [None] * len(twin.gated_counts)  # every empty rule past its space gates judged in full
    twin.space_refused = KeepsNothing()  # no run's refusal by every general target kept
    twin.single_runs = [None] * twin.P  # a top card's runs worked out as any run source's
    twin.windows_only = False  # every listing through `_all_moves`' loops, over no source where no pile gives cards
    twin.deal_gates = [None] * twin.P  # every dealing rule judged by its clauses
    return twin


@pytest.mark.parametrize("name", NAMES)
def test_the_shortcuts_list_what_the_general_way_lists(name):
    for seed in (1, 2):
        game, twin, rnd = Game(load_ruleset(name), seed=seed), general_twin(name, seed), random.Random(seed)
        for step in range(150):
            moves = game.legal_moves()
            assert moves == twin.legal_moves(), (name, seed, step)
            if not moves or game.rules.win(game.ctx):
                break
            if game.history and rnd.random() < 0.2:
                game.take_back_step()
                twin.take_back_step()
                continue
            m = moves[rnd.randrange(len(moves))]
            assert game._step(m) == twin._step(m)
        assert game.state.key() == twin.state.key()
        assert (game.failures, game.rule_errors) == (twin.failures, twin.rule_errors)


@pytest.mark.parametrize("name", NAMES)
def test_a_playout_with_the_shortcuts_plays_as_one_without(name):
    for seed in (1, 2, 3):
        game, twin = Game(load_ruleset(name), seed=seed), general_twin(name, seed)
        assert game.playout(random.Random(seed).randrange, 400) == twin.playout(random.Random(seed).randrange, 400)
        assert game.state.key() == twin.state.key()
        assert game.status() == twin.status()


def test_the_shortcuts_are_taken_where_they_are_there_for():
    busy = Game(load_ruleset("busy-aces"), seed=1)  # a space filled only from the waste: no table, filed as checked
    assert busy.simple_sources and not busy.general_targets and busy.plain_moves
    assert not general_twin("busy-aces", 1).simple_sources
    octave = Game(load_ruleset("octave"), seed=1)  # two groups whose spaces take only the waste's card
    assert len(octave.general_targets) == 2 and octave.space_targets and octave.simple_sources and octave.plain_moves
    assert not general_twin("octave", 1).simple_sources
    spider = Game(load_ruleset("spider"), seed=1)  # runs of many cards: its whole-suit spaces stay general targets
    assert spider.general_targets
    # Whole piles move onto the tableau, whose spaces take only the waste's card: while none is open, the runs'
    # general targets are passed over.
    rouge = Game(load_ruleset("rouge-et-noir-whole-piles"), seed=1)
    assert rouge.run_plan and rouge.space_only_targets == (list(rouge.rules.groups).index("tableau"),)
    # Its runs, judged by a take rule that reads the pile's size, are kept by the pile's cards across positions.
    rouge.playout(random.Random(1).randrange, 200)
    # And the runs its spaces refuse for good (from the tableau) are not asked about again while a space is open.
    waste, span = rouge.rules.groups["waste"].piles[0], rouge.window_span
    assert rouge.space_refused and all(key // span != waste for key in rouge.space_refused)
    plan = {src: (limit, seq, counts) for src, limit, seq, counts, _ in rouge.run_plan}
    here = [(src, runs) for (src, down, cards), runs in rouge.run_memo.items()
            if cards == bytes(rouge.piles[src]) and down == rouge.down[src]]
    assert here and all(runs == rouge._runs(src, *plan[src]) for src, runs in here)
    emperor = Game(load_ruleset("emperor"), seed=1)
    assert emperor.kept_checked  # one card at a time, and none from another foundation
    foundations = emperor.rules.groups["foundation"].piles
    assert [emperor.refuses_single[p] for p in range(emperor.P)] == [p in foundations for p in range(emperor.P)]
    milligan = Game(load_ruleset("miss-milligan"), seed=1)  # a reserve that takes a build into its one space
    assert milligan.space_only_targets
    reserve = list(milligan.rules.groups).index("reserve")  # closed while the stock has cards, whatever the move
    assert [clause.text for clause in milligan.space_gates[reserve]] == ["stock.empty"]
    assert milligan.gated_counts[reserve] is not None  # past it, `source in tableau`: kept by source and count
    milligan.playout(random.Random(1).randrange, 600)  # the stock dealt out, the reserve's verdicts are kept
    tableau = milligan.rules.groups["tableau"].piles
    assert milligan.gated_counts[reserve] and all(ok == ((key // milligan.window_span) in tableau)
                                                  for key, ok in milligan.gated_counts[reserve].items())
    assert emperor.take_shapes[list(emperor.rules.groups).index("tableau")] is not None
    congress = Game(load_ruleset("congress"), seed=1)
    pairs, *_ = congress.compulsory_masks  # only the waste's moves to the tableau may be compulsory
    waste, tableau = congress.rules.groups["waste"].piles[0], congress.rules.groups["tableau"].piles
    assert {(s, d) for s in range(congress.P) for d in range(congress.P) if pairs[s * congress.P + d]} == \
        {(waste, d) for d in tableau}
    # Discordian's compulsory play names the groups alone: a field card's move to a foundation matches it surely,
    # whose number says so without a look at the pattern.
    discordian = Game(load_ruleset("discordian"), seed=1)
    pairs, _, _, sure, _ = discordian.compulsory_masks
    field, foundation = discordian.rules.groups["field"].piles, discordian.rules.groups["foundation"].piles
    assert sure == pairs and {(s, d) for s in range(discordian.P) for d in range(discordian.P)
                              if sure[s * discordian.P + d]} == {(s, d) for s in field for d in foundation}


def test_only_the_sources_a_space_may_take_from_are_gone_through_for_it():
    """Octave's spaces take only the waste's card: while one is open, the other sources with nowhere else to go are
    passed over (`_space_sources`), and the moves listed are those of going through every source."""
    game, rnd, seen = Game(load_ruleset("octave"), seed=3), random.Random(3), 0
    for _ in range(300):
        moves = game.legal_moves()
        if any(game.empties[tg] for tg in game.space_targets):
            seen += 1
            with mock.patch.object(Game, "_space_sources", lambda self, targets: self.simple_sources):
                assert game.legal_moves() == moves
        if not moves or game.status(moves).outcome != "playing":
            game = Game(game.rules, seed=game.seed + 1)
            continue
        game._step(moves[rnd.randrange(len(moves))])
    waste = game.rules.groups["waste"].piles[0]
    assert seen > 50 and game.space_takers
    assert all(game.source_slot[waste] in takers and len(takers) < len(game.simple_sources) / 2
               for _, takers in game.space_takers.values())


def test_kinds_filed_alike_share_their_lists():
    """Spider builds down regardless of suit: the four suits of a rank are filed alike, one list for the four; Forty
    Thieves builds in suit: a list per kind."""
    spider = Game(load_ruleset("spider"), seed=1)
    assert spider.class_count == 13
    ranks = {}
    for c in range(spider.deck.size):
        ranks.setdefault(spider.deck.rank[c], set()).add(id(spider.dests[spider.deck.kind[c]]))
    assert all(len(lists) == 1 for lists in ranks.values()) and len(ranks) == 13
    assert all(len(under) <= 1 for per_top in spider.filed_under for under in per_top)
    forty = Game(load_ruleset("forty-thieves"), seed=1)
    assert forty.class_count == forty.deck.kinds
    assert len({id(lst) for lst in forty.dests}) == forty.deck.kinds


def test_the_runs_kept_by_a_piles_cards_are_bounded_and_forgetting_them_changes_no_move(monkeypatch):
    from kallisti.interpreter import kept_verdicts

    name = "rouge-et-noir-whole-piles"
    kept = Game(load_ruleset(name), seed=2)
    moves = kept.playout(random.Random(2).randrange, 300)
    assert len(kept.run_memo) > 5
    monkeypatch.setattr(kept_verdicts, "MAX_RUNS_MEMO", 5)
    bounded = Game(load_ruleset(name), seed=2)  # a ruleset of its own: its memo starts empty
    assert bounded.playout(random.Random(2).randrange, 300) == moves
    assert 0 < len(bounded.run_memo) <= 5
    assert bounded.state.key() == kept.state.key()


@pytest.mark.parametrize("name", ["harp", "emperor", "miss-milligan"])
def test_the_runs_kept_are_the_runs_of_the_pile_as_it_is(name):
    """The runs a pile may give up, kept until it changes (through a playout's moves, deals and redeals, which keep
    those of the piles they leave as they were), are those `_runs` finds in the position reached."""
    for seed in (1, 2):
        game, rnd = Game(load_ruleset(name), seed=seed), random.Random(seed)
        for _ in range(600):
            for src, limit, seq, counts, kept in game.run_plan:
                if game.runs[src] is not None:
                    assert game.runs[src] == game._runs(src, limit, seq, counts), (name, seed, src)
            if not game.playout(rnd.randrange, 1):  # one move at a time
                break
        assert sum(game.state.redeals.values()) or name != "harp"


def test_a_ruleset_whose_piles_give_no_top_cards_lists_the_stock_and_the_windows_alone():
    """Decade's line only discards windows of its cards: its moves are listed as the stock's and the discards'
    (`windows_only`), as the general listing finds them, in positions reached by play and taken back."""
    decade = Game(load_ruleset("decade"), seed=3)
    assert decade.windows_only
    assert not any(Game(load_ruleset(name), seed=1).windows_only for name in ("forty-thieves", "harp", "tournament"))
    rnd = random.Random(3)
    for _ in range(200):
        moves = decade._all_moves()
        decade.windows_only = False
        assert decade._all_moves() == moves
        decade.windows_only = True
        assert decade._all_moves() == moves  # listed again in the same position: the windows kept
        moves = decade.legal_moves()
        if not moves:
            break
        if decade.history and rnd.random() < 0.2:
            decade.take_back_step()
        else:
            decade._step(moves[rnd.randrange(len(moves))])


@pytest.mark.parametrize("name", ["emperor", "midshipman", "blockade", "harp", "rouge-et-noir-whole-piles"])
def test_runs_read_off_their_kinds_lists_list_what_the_full_loop_lists(name):
    """Where the piles filed in `checked` are all judged by verdicts kept by source and count, runs are listed while
    no space is open and their general targets, if any, are idle (Rouge et Noir's tableau spaces, which take only the
    waste's card) by a loop that reads their kinds' `dests` and `checked` lists alone (`READ_OFF_RUNS`): the same
    moves, in the same order, as the loop that asks about spaces and targets too."""
    for seed in (1, 2):
        game, rnd, read = Game(load_ruleset(name), seed=seed), random.Random(seed), 0
        assert game.has_checked and game.kept_checked
        for _ in range(200):
            moves = game.legal_moves()
            read += not game.open_spaces and (not game.general_targets or game._targets_idle())
            with mock.patch.object(Game, "READ_OFF_RUNS", False):
                assert game.legal_moves() == moves
            if not moves or game.rules.win(game.ctx):
                break
            if game.history and rnd.random() < 0.2:
                game.take_back_step()
                continue
            game._step(moves[rnd.randrange(len(moves))])
        assert read > 50
