"""Rules judged where they can change: what the compiler says a rule reads, and the engine's use of it.

The compiler tells which places of the position an expression reads (`Compiled.places`: the pile a move goes to, its
top, the source, or anything else) and which clauses judge a window of cards by sums alone (`Compiler.additive`).
The engine then judges a rule blind to the destination once for all the piles it would judge, keeps the runs a pile
may give up until the pile changes, refuses by count before judging cards (`count == ranks and ...`), and lists a
discard rule's windows from running or prefix sums. Each shortcut must list exactly the moves, in exactly the order,
of the engine judging every rule for every move; and rules changed during play are judged afresh.
"""

from __future__ import annotations

import random

import pytest

from kallisti.errors import Pos
from kallisti.interpreter import compiler as C
from kallisti.interpreter.game import Game, LayoutChanged
from kallisti.interpreter.move_patterns import pattern_masks, stock_bound
from kallisti.model.ruleset import load_ruleset

AT = Pos("<test>")


@pytest.mark.parametrize("text, scope, places", [
    ("card.rank == top.rank - 1", C.BUILD_SCOPE, {"top"}),
    ("card.suit == top.suit and count == 1", C.BUILD_SCOPE, {"top"}),
    ("count == ranks and descending(cards) and same_suit(cards)", C.EMPTY_SCOPE, set()),
    ("source in waste or source in foundation", C.EMPTY_SCOPE, {"source"}),
    ("pile.size < 3", C.BUILD_SCOPE, {"pile", "pile.state"}),
    ("source.face_down > 0", C.BUILD_SCOPE, {"source", "source.state"}),
    ("pile.index > 2", C.BUILD_SCOPE, {"pile"}),
    ("pile in foundation", C.BUILD_SCOPE, {"pile"}),
    ("count == 1 or count == pile.face_up", C.TAKE_SCOPE, {"pile", "pile.state"}),  # a take rule's pile: the source
    ("pile.size > 1 and not pile.empty", C.TAKE_SCOPE, {"pile", "pile.state"}),  # its shape alone
    ("pile.top.rank == K", C.TAKE_SCOPE, {"pile", "pile.state", "pile.cards"}),  # more: which cards it holds
    ("source.cards.size > 2", C.BUILD_SCOPE, {"source", "source.state", "source.cards"}),
    ("waste.empty", C.EMPTY_SCOPE, {"position"}),
    ("foundation.size > 4", C.BUILD_SCOPE, {"position"}),
    ("tableau.count > 4", C.BUILD_SCOPE, set()),  # how many piles a group has is fixed
    ("any(p in foundation: not p.empty and p.top.suit == card.suit)", C.EMPTY_SCOPE, {"position"}),
    ("all(p in tableau: p.index > 0)", C.EMPTY_SCOPE, set()),
    ("card.face_up", C.BUILD_SCOPE, {"pile", "top", "position"}),
    ("sum(c in cards: c.value) in [10, 20, 30]", C.DISCARD_SCOPE, set()),
])
def test_the_compiler_knows_what_of_the_position_a_rule_reads(text, scope, places):
    compiled = load_ruleset("forty-thieves").compiler.compile(text, AT, scope)
    assert compiled.places == frozenset(places)


@pytest.mark.parametrize("text, groups", [
    ("any(p in kings: p.size > 0 and p.cards.bottom.suit == card.suit)", {"kings"}),
    ("foundation.size > 4 and not kings.empty", {"foundation", "kings"}),
    ("any(p in tableau: any(p in foundation: p.size > 0) and p.face_down > 0)", {"tableau", "foundation"}),
    ("card.rank == K and tableau.count > 4", set()),
    ("any(p in tableau: p.index > 2)", set()),
    ("last_move.to.size > 0", None),  # a pile a move made names: any pile
    ("card.face_up", None),
    ("any(p in foundation.piles: p.size > 0)", None),  # a group's piles as a list: not followed
])
def test_the_compiler_knows_which_groups_piles_a_rule_reads(text, groups):
    compiled = load_ruleset("house-on-the-hill").compiler.compile(text, AT, C.EMPTY_SCOPE)
    assert compiled.groups == (None if groups is None else frozenset(groups))


def test_verdicts_by_card_are_kept_while_the_piles_they_read_stand():
    """House on the Hill starts a foundation only with a suit that has none yet: the clause reads the card and the
    foundations of its kind, so its verdicts are kept by card until one of those piles changes."""
    game = Game(load_ruleset("house-on-the-hill"), seed=1)
    groups = list(game.rules.groups)
    watch = game.empty_judges[groups.index("kings")]
    assert watch.piles == tuple(game.rules.groups["kings"].piles) and game.watched_checked
    assert game.empty_judges[groups.index("tableau")] is game.group_list[groups.index("tableau")].empty
    game.playout(random.Random(1).randrange, 60)
    kept = dict(watch.stand(game.state))
    king = next(c for c in range(game.deck.size) if game.deck.rank[c] == len(game.deck.ranks) - 1)
    game.ctx.card = king
    assert watch.residual_allows(game.ctx) == game.group_list[groups.index("kings")].empty.residual_allows(game.ctx)
    assert watch.stand(game.state) == {**kept, king: watch.verdicts[king]}
    pile = game.rules.groups["kings"].piles[0]
    game.state.piles[pile].append(king)  # a watched pile changes: every verdict is forgotten
    assert watch.stand(game.state) == {}


def test_each_game_keeps_its_own_watches():
    """Games of one ruleset share its tables, but what a watch keeps holds for one position: two games played in
    turns each list the moves of judging every rule."""
    rules = load_ruleset("house-on-the-hill")
    games = [Game(rules, seed=1), Game(rules, seed=2)]
    assert not set(map(id, games[0].watches)) & set(map(id, games[1].watches))
    rnd = random.Random(1)
    for _ in range(80):
        for game in games:
            moves = game.legal_moves()
            assert moves == judging_everything(game)
            if moves:
                game.apply(moves[rnd.randrange(len(moves))])


def test_a_watched_clause_that_fails_is_judged_again_each_time():
    rules = load_ruleset("house-on-the-hill", "extends: house-on-the-hill\ngame: House on the Hill (failing)\n"
                         "changes:\n  - {forbid: piles.kings.empty, id: huge, "
                         "expr: 'any(p in foundation: p.size * 1000000000 * 1000000000 * 10 > 0)'}\n")
    for seed in (1, 2, 3):
        game, rnd = Game(rules, seed=seed), random.Random(seed)
        assert game.watched_checked
        for _ in range(200):
            moves = game.legal_moves()
            assert moves == judging_everything(game)
            if not moves:
                break
            game.apply(moves[rnd.randrange(len(moves))])
        played, twin = Game(rules, seed=seed), Game(rules, seed=seed)
        twin.build_judges = [g.build for g in twin.group_list]
        twin.empty_judges = [g.empty for g in twin.group_list]
        twin.watched_checked = False
        assert played.playout(random.Random(seed).randrange, 300) == twin.playout(random.Random(seed).randrange, 300)
        assert played.failures and (played.failures, played.rule_errors) == (twin.failures, twin.rule_errors)


def test_places_are_worked_out_once_for_each_clause():
    compiler = load_ruleset("forty-thieves").compiler
    first = compiler.places("pile.size < 3", AT, C.BUILD_SCOPE)
    assert compiler.places("pile.size < 3", AT, C.BUILD_SCOPE) is first


def test_a_sum_over_the_cards_is_additive():
    compiler = load_ruleset("decade").compiler
    additive = compiler.additive("sum(c in cards: c.value) in [10, 20, 30]", AT, C.DISCARD_SCOPE)
    deck = load_ruleset("decade").deck
    assert additive.terms == (tuple(deck.value[:deck.size]),)
    assert not additive.counts
    ctx = C.Ctx()
    for total, verdict in [(10, True), (20, True), (25, False), (30, True), (40, False)]:
        ctx.locals[C.SUM_SLOTS[0]] = total
        assert bool(additive.judge(ctx)) is verdict


def test_additive_clauses_with_counts_and_several_sums():
    compiler = load_ruleset("decade").compiler
    both = compiler.additive("count(c in cards: c.suit == hearts) < 2 and sum(c in cards: c.value) == count * 5",
                             AT, C.DISCARD_SCOPE, first=1)
    deck = load_ruleset("decade").deck
    hearts = deck.suits.index(next(s for s in deck.suits if s.name == "hearts"))
    assert both.terms == (tuple(int(deck.suit[c] == hearts) for c in range(deck.size)), tuple(deck.value[:deck.size]))
    assert both.counts
    ctx = C.Ctx()
    ctx.count = 3
    for held, total, verdict in [(0, 15, True), (1, 15, True), (2, 15, False), (0, 14, False)]:
        ctx.locals.update({C.SUM_SLOTS[1]: held, C.SUM_SLOTS[2]: total})  # its sums read from the slots after `first`
        assert bool(both.judge(ctx)) is verdict


@pytest.mark.parametrize("text", [
    "descending(cards)",
    "sum(c in cards: c.value) > pile.size",
    "sum(c in cards: c.value) == card.value",
    "count(c in cards: c.face_up) > 1",
    "count >= 2",
])
def test_what_is_not_additive(text):
    assert load_ruleset("decade").compiler.additive(text, AT, C.DISCARD_SCOPE) is None


def test_a_whole_suit_is_refused_by_its_count_before_its_cards_are_looked_at():
    game = Game(load_ruleset("spider"), seed=1)
    discard = list(game.rules.groups).index("discard")
    gate = game.empty_gates[discard]
    assert [n for n in range(len(gate)) if gate[n]] == [13]
    assert not game.blind_empty[discard] or game.empty_memos[discard] is not None
    # Runs of any other count are not even offered to the discard piles.
    assert all(tg != discard for n in range(len(gate)) if n != 13 for tg, *_ in game.general_by_count[n])


def judging_everything(game: Game) -> list[int]:
    """The legal moves as the engine lists them with every rule judged for every move: no kept runs, no verdict
    shared between destinations or kept from one position to the next, no count gates, discard windows judged
    window by window."""
    saved = {name: game.__dict__[name] for name in ("run_plan", "blind_build", "blind_empty", "window_sums",
                                                    "general_by_count", "empty_gates", "window_gates", "runs",
                                                    "build_counts", "space_counts", "take_cards", "take_shapes",
                                                    "kept_checked", "build_judges", "empty_judges",
                                                    "watched_checked", "compulsory_masks", "single_runs")}
    try:
        game.run_plan = [(p, limit, seq, counts, False) for p, limit, seq, counts, _ in saved["run_plan"]]
        game.runs = [None] * game.P
        game.blind_build = [False] * len(saved["blind_build"])
        game.blind_empty = [False] * len(saved["blind_empty"])
        game.window_sums = [None] * len(saved["window_sums"])
        game.empty_gates = [None] * len(saved["empty_gates"])
        game.window_gates = [None] * len(saved["window_gates"])
        game.general_by_count = [tuple(game.general_targets)] * len(saved["general_by_count"])
        for name in ("build_counts", "space_counts", "take_cards", "take_shapes"):
            setattr(game, name, [None] * len(saved[name]))
        game.kept_checked = game.watched_checked = False
        game.build_judges = [g.build for g in game.group_list]
        game.empty_judges = [g.empty for g in game.group_list]
        game.compulsory_masks = None
        game.single_runs = [None] * game.P
        return game.legal_moves()
    finally:
        game.__dict__.update(saved)


# Decade with discard rules that take the other paths: a rule whose sum is compared with the count (running sums,
# judged by count and sum), two sums in one rule, a forbid, and a rule of the first card (its table).
DECADE_VARIANTS = {
    "count-dependent": ("require", "sum(c in cards: c.value) == count * 5 or sum(c in cards: c.value) in [10, 20, 30]"),
    "two-sums": ("require", "count(c in cards: c.suit == hearts) < 2 and sum(c in cards: c.value) in [10, 20, 30]"),
    "forbid": ("forbid", "sum(c in cards: c.value) in [5, 15, 25, 35, 45]"),
    "first-card": ("require", "card.rank != K"),
}


def decade_variant(name: str):
    verb, expr = DECADE_VARIANTS[name]
    return load_ruleset("decade", f'extends: decade\ngame: Decade ({name})\nchanges:\n'
                                  f'  - {{{verb}: piles.line.discard, id: extra, expr: "{expr}"}}\n')


@pytest.mark.parametrize("name", ["spider", "decade", "emperor", "midshipman", "harp", "la-nivernaise", "tournament",
                                  "miss-milligan", "rouge-et-noir-whole-piles", "congress", "octave", "busy-aces",
                                  "house-on-the-hill", *DECADE_VARIANTS])
def test_the_shortcuts_list_the_moves_of_judging_every_rule(name):
    rules = decade_variant(name) if name in DECADE_VARIANTS else load_ruleset(name)
    for seed in (1, 2):
        game, rnd, history = Game(rules, seed=seed), random.Random(seed), []
        for _ in range(250):
            moves = game.legal_moves()
            assert moves == judging_everything(game)
            if not moves:
                break
            if history and rnd.random() < 0.2:
                game.undo_record(history.pop())  # runs kept for a pile must be forgotten when it changes back
                continue
            history.append(game.apply(moves[rnd.randrange(len(moves))]))


def test_the_decade_variants_take_the_paths_they_are_there_for():
    def paths(name):
        game = Game(decade_variant(name), seed=1)
        sums = game.window_sums[0]
        return sums is not None, sums is not None and sums.counts is not None

    assert paths("count-dependent") == (True, False)  # running sums, verdicts by count and sum
    assert paths("two-sums") == (True, False)
    assert paths("forbid") == (True, True)  # prefix sums matched against the few sums let through
    assert paths("first-card") == (True, True)
    assert Game(load_ruleset("decade"), seed=1).window_sums[0].totals == (10, 20, 30)


def test_kept_judgments_are_dropped_when_the_rules_change_during_play():
    """A live rule change (Discordian's, `Game.change_rules`) judges the position afresh: the runs kept under the
    old take rule are not offered under the new one, and taking the change back brings them back."""
    emperor = load_ruleset("emperor")
    top_only = load_ruleset("emperor", "extends: emperor\ngame: Emperor (top card only)\npiles:\n  tableau: {take: top card}\n")
    game, rnd = Game(emperor, seed=4), random.Random(4)
    for _ in range(500):  # to a position where a unit of several cards may move
        before = game.legal_moves()
        if any(game.decode(m)[3] > 1 for m in before):
            break
        game.apply(before[rnd.randrange(len(before))])
    assert any(game.decode(m)[3] > 1 for m in before)
    game.change_rules(top_only, {"type": "rule", "text": "tableau take top card"})
    after = game.legal_moves()
    fresh = Game(top_only, seed=4)
    for p in range(game.P):
        fresh.state.piles[p][:] = game.state.piles[p]
    fresh.state.down[:] = game.state.down
    fresh.state.sizes.update(game.state.sizes)
    fresh._reindex()
    assert sorted(after) == sorted(fresh.legal_moves())
    assert all(game.decode(m)[3] <= 1 for m in after)
    game.undo()
    assert sorted(game.legal_moves()) == sorted(before)


def test_a_change_of_layout_still_waits_for_the_next_deal():
    game = Game(load_ruleset("spider"), seed=1)
    with pytest.raises(LayoutChanged):
        game.change_rules(load_ruleset("forty-thieves"), {"type": "rule"})


def test_verdicts_are_kept_across_positions_only_for_rules_of_a_few_values():
    emperor = Game(load_ruleset("emperor"), seed=1)
    groups = list(emperor.rules.groups)
    # One card at a time, and none from another foundation: a function of the count and the source alone.
    assert emperor.build_counts[groups.index("foundation")] is not None
    # One card, or all the face-up cards: it reads the source's faces, which change from one position to the next.
    assert emperor.take_cards[groups.index("tableau")] is None
    assert emperor.run_plan[0][4]  # though they are kept while the pile stays as it is
    assert emperor.take_shapes[groups.index("tableau")] is not None  # and kept by the pile's shape
    harp = Game(load_ruleset("harp"), seed=1)
    assert harp.take_cards[list(harp.rules.groups).index("tableau")] is not None  # count == 1 or card.rank == last
    tournament = Game(load_ruleset("tournament"), seed=1)
    aces = list(tournament.rules.groups).index("aces")
    assert tournament.space_counts[aces] is None  # one ace foundation per suit: it reads the other foundations
    assert tournament.blind_empty[aces]  # but not the pile the ace would go to


def test_a_take_rule_that_allows_one_card_first_is_tried_for_one_card_alone():
    """La Nivernaise's foundations give their top card alone and keep their base (`count == 1`, then `pile.size >
    1`): the count clause that runs first refuses every longer run, so only one card is tried (`take_limit`), while
    the rule still reads the pile for that one."""
    game = Game(load_ruleset("la-nivernaise"), seed=1)
    aces = game.rules.groups["aces"]
    gi = game.rules.gindex[aces.piles[0]]
    assert game.take_max[gi] == game.deck.size  # the take rule reads the pile: not tabulated by count
    assert {limit for p, limit, *_ in game.source_info if p in aces.piles} == {1}
    tried = []
    take_ok = Game._take_ok

    def counting(self, src, n):
        tried.append(n)
        return take_ok(self, src, n)

    rnd = random.Random(3)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Game, "_take_ok", counting)
        for _ in range(60):
            moves = game.legal_moves()
            assert moves == judging_everything(game)
            if not moves:
                break
            game.apply(moves[rnd.randrange(len(moves))])
    assert tried and set(tried) == {1}


def test_a_top_card_among_runs_is_read_off_by_its_kind():
    """La Nivernaise's Flanks, Line and pack give their top card alone, every count allowed, but are listed among runs
    (the foundations before them give runs): their runs are read off by the kind of their top (`single_runs`)
    rather than worked out, and list what working them out lists."""
    game = Game(load_ruleset("la-nivernaise"), seed=2)
    groups = game.rules.groups
    singles = {p for p in range(game.P) if game.single_runs[p] is not None}
    assert singles == set(groups["reserve"].piles) | set(groups["line"].piles) | set(groups["stock"].piles)
    worked = []
    runs = Game._runs

    def counting(self, src, *args):
        worked.append(src)
        return runs(self, src, *args)

    rnd = random.Random(2)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Game, "_runs", counting)
        for _ in range(60):
            del worked[:]
            moves = game.legal_moves()
            assert not set(worked) & singles
            assert moves == judging_everything(game)
            if not moves:
                break
            game.apply(moves[rnd.randrange(len(moves))])


def test_automatic_deals_are_matched_among_the_stock_moves_alone():
    """La Nivernaise deals the Line again by itself after a redeal: its only automatic move is a deal, so after each
    step only the moves numbered as deals and redeals are sorted and matched (`step_auto_bound`), and the game plays
    as matching every move does."""
    rules = load_ruleset("la-nivernaise")
    game, twin = Game(rules, seed=4), Game(rules, seed=4)
    assert game.step_auto_bound == 2 * game.P
    twin.step_auto_bound = None
    judged = []
    matches_any = Game._matches_any

    def judging(self, patterns, m):
        if self is game:
            judged.append(m)
        return matches_any(self, patterns, m)

    rnd = random.Random(4)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Game, "_matches_any", judging)
        for _ in range(120):
            moves = game.legal_moves()
            assert moves == twin.legal_moves()
            if not moves:
                break
            m = moves[rnd.randrange(len(moves))]
            assert game._step(m) == twin._step(m)
    assert judged and all(m < game.P for m in judged)
    moving = load_ruleset("forty-thieves").auto  # aces to the foundations: card moves
    assert moving and stock_bound(game.P, moving) is None and stock_bound(2, rules.auto) is None


@pytest.mark.parametrize("verb", ["require", "forbid"])
@pytest.mark.parametrize("expr", ["any(p in foundation: not p.empty)", "all(p in foundation: p.empty)",
                                  "any(p in tableau: p.empty)"])
def test_a_dealing_rule_of_empty_piles_is_read_off_the_index(verb, expr):
    """Blockade deals only when every space of its tableau has a card; with a clause more of the same kind (a
    quantifier over a group's piles that asks only whether each is empty), the dealing rule is still judged by how
    many of those groups' piles are empty (`deal_gates`), as its clauses judge it."""
    rules = load_ruleset("blockade", f'extends: blockade\ngame: "Blockade ({verb} {expr})"\nchanges:\n'
                                     f'  - {{{verb}: piles.stock.dealing, id: extra, expr: "{expr}"}}\n')
    stock = rules.groups["stock"].piles[0]
    seen = set()
    for seed in (1, 2):
        game, rnd = Game(rules, seed=seed), random.Random(seed)
        assert len(game.deal_gates[stock]) == 2
        for _ in range(300):
            gated = game._may_deal(stock)
            gates, game.deal_gates = game.deal_gates, [None] * game.P
            assert game._may_deal(stock) == gated
            game.deal_gates = gates
            seen.add(gated)
            moves = game.legal_moves()
            if not moves:
                break
            game._step(moves[rnd.randrange(len(moves))])
    # Both verdicts met, but where the clause added contradicts Blockade's own (a space and none at once).
    assert seen == ({False} if (verb, expr) == ("require", "any(p in tableau: p.empty)") else {True, False})


@pytest.mark.parametrize("name", ["discordian", "forty-thieves", "intelligence", "la-nivernaise", "octave"])
def test_the_pairs_a_move_pattern_may_match_are_those_naming_both_piles_groups(name):
    """`pattern_masks` marks, per pair of piles, whether a card move between them may match a compulsory or automatic
    pattern (one that names both piles' groups) and whether it surely does (such a pattern with no `when`): the
    table, made row by row, is what asking every pattern about every pair gives."""
    rules = load_ruleset(name)
    P, group_of = rules.pile_count, rules.group_of
    for patterns in (rules.compulsory, rules.auto):
        masks = pattern_masks(P, 1, group_of, patterns)
        moving = [p for p in patterns if p.kind == "move"]
        for s in range(P):
            for d in range(P):
                naming = [p for p in moving if group_of[s] in p.sources and group_of[d] in p.targets]
                assert masks[0][s * P + d] == bool(naming)
                assert masks[3][s * P + d] == any(p.when is None for p in naming)
    assert any(pattern_masks(P, 1, group_of, patterns)[0].count(1) for patterns in (rules.compulsory, rules.auto)) \
        or name in ("intelligence", "la-nivernaise")  # their only automatic move is a deal
