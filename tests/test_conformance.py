"""What every shipped ruleset must satisfy, whatever its rules: one data-driven suite run over all of them.

Deals are determined by the seed; no card is ever lost or duplicated; undo, redo, saves and move
text are exact inverses of play; hints are legal; the game is "playing" exactly while it should be.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kallisti.interpreter.game import Game
from kallisti.interpreter.state import row_faces
from kallisti.interpreter.notation import describe, narrate, parse_move
from kallisti.interpreter.save import load_game, save_game
from kallisti.interpreter.state import shuffled_order
from kallisti.model.loader import shipped_games
from kallisti.solver.strategies import hint_with_source
from shipped import shipped, shipped_data

ALL_GAMES = sorted(shipped_games())
# Games played on piles; a ruleset that only scores hands (Cripple Mr Onion's) has its own checks below. Chosen from
# the resolved data, so that collecting this file compiles nothing; each game is compiled once per process by the
# tests that play it (shipped.py).
GAMES = [n for n in ALL_GAMES if "piles" in shipped_data(n)]
HAND_GAMES = [n for n in ALL_GAMES if "hands" in shipped_data(n)]


def rules_of(name: str):
    return shipped(name)


def test_every_shipped_game_is_covered():
    assert len(GAMES) >= 10
    assert "forty-thieves" in GAMES


# -- helpers ------------------------------------------------------------------------------------

def check_invariants(game: Game) -> None:
    """Every card exactly once; group sizes agree with the piles; face-down counts make sense."""
    st_, rules = game.state, game.rules
    cards = sorted(c for pile in st_.piles for c in pile)
    assert cards == list(range(game.deck.size)), "a card was lost or duplicated"
    for name, group in rules.groups.items():
        assert st_.sizes[name] == sum(len(st_.piles[p]) for p in group.piles), f"sizes[{name}]"
        for p in group.piles:
            assert 0 <= st_.down[p] <= len(st_.piles[p])
            if group.turn is None and group.flip and st_.piles[p]:
                assert st_.down[p] < len(st_.piles[p]), f"{rules.tag_of[p]}: its top card was left face down"


def check_invariants_partial(game: Game) -> None:
    """The invariants for a hand-made position, which holds only some of the cards."""
    st_ = game.state
    cards = [c for pile in st_.piles for c in pile]
    assert len(cards) == len(set(cards))
    for name, group in game.rules.groups.items():
        assert st_.sizes[name] == sum(len(st_.piles[p]) for p in group.piles)


def rebuilt(game: Game) -> Game:
    """A new game set up by hand in the same position: its move indexes are built from scratch."""
    deck, rules = game.deck, game.rules
    layout = {rules.tag_of[p]: " ".join(deck.ascii_name(c) for c in pile) for p, pile in enumerate(game.state.piles)}
    down = {rules.tag_of[p]: n for p, n in enumerate(game.state.down) if n}
    fresh = Game(rules, order=game.order).arrange(layout, down)
    fresh.state.redeals.update(game.state.redeals)
    return fresh


def random_game(name: str, seed: int, steps: int, undo_every: int = 0, auto_every: int = 0):
    """Play a seeded random game, yielding the game after each step (a move, an undo or an `a`)."""
    game = Game(rules_of(name), seed=seed)
    rnd = random.Random(seed)
    for i in range(steps):
        if undo_every and i % undo_every == undo_every - 1 and game.history:
            game.undo()
        elif auto_every and i % auto_every == auto_every - 1:
            game.play_auto()
        else:
            moves = game.legal_moves()
            if not moves:
                return
            game.play(moves[rnd.randrange(len(moves))])
        yield game


def effect(game: Game, m: int) -> tuple:
    """The position after move m, leaving the game as it was."""
    record = game.apply(m)
    after = game.state.key()
    game.undo_record(record)
    return after


# -- the deal -------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_deal_is_determined_by_the_seed(name):
    rules = rules_of(name)
    for seed in (1, 7, 2**40 + 3):
        assert Game(rules, seed=seed).state.key() == Game(rules, seed=seed).state.key()
        by_order = Game(rules, order=shuffled_order(rules.deck.size, seed))
        assert by_order.state.key() == Game(rules, seed=seed).state.key()
    keys = {Game(rules, seed=seed).state.key() for seed in range(1, 21)}
    assert len(keys) == 20, "different seeds must give different deals"
    assert Game(rules, seed=1, deal_number=1).state.key() != Game(rules, seed=1).state.key()


@pytest.mark.parametrize("name", GAMES)
def test_deal_lays_out_the_declared_rows(name):
    rules = rules_of(name)
    game = Game(rules, seed=5)
    check_invariants(game)
    for group in rules.groups.values():
        if isinstance(group.deal, list) and group.deal and group.prefill is None and group.divert is None:
            for k, p in enumerate(group.piles):
                faces = [row_faces(group, row)[k] for row in group.deal]
                faces = [f for f in faces if f]
                assert len(game.state.piles[p]) == len(faces)
                if not group.top_face_up:
                    assert game.state.down[p] == faces.count("down")
    assert game.events == [] and game.history == []
    assert game.status().outcome == "playing"


# -- cards are conserved --------------------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), picks=st.lists(st.integers(0, 2**16), min_size=1, max_size=80))
def test_cards_are_conserved_under_random_play(name, seed, picks):
    game = Game(rules_of(name), seed=seed)
    check_invariants(game)
    for i, pick in enumerate(picks):
        moves = game.legal_moves()
        if pick % 9 == 0 and game.history:
            game.undo()
        elif pick % 13 == 0:
            game.play_auto()
        elif moves:
            game.play(moves[pick % len(moves)])
        else:
            break
        check_invariants(game)
        if i % 5 == 0:
            # The incrementally kept move indexes agree with indexes built from scratch.
            assert sorted(game.legal_moves()) == sorted(rebuilt(game).legal_moves())


# -- undo and redo --------------------------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_undo_and_redo_retrace_the_game(name):
    rules = rules_of(name)
    for seed in (1, 2, 3):
        game = Game(rules, seed=seed)
        rnd = random.Random(seed)
        keys, legal = [game.state.key()], [sorted(game.legal_moves())]
        for _ in range(40):
            moves = game.legal_moves()
            if not moves:
                break
            game.play(moves[rnd.randrange(len(moves))])
            keys.append(game.state.key())
            legal.append(sorted(game.legal_moves()))
        assert len(keys) > 5
        assert not game.redo()
        for i in range(len(keys) - 2, -1, -1):
            assert game.undo()
            assert game.state.key() == keys[i], f"seed {seed}: undo to step {i}"
            assert sorted(game.legal_moves()) == legal[i]
        assert not game.undo()
        for i in range(1, len(keys)):
            assert game.redo()
            assert game.state.key() == keys[i], f"seed {seed}: redo to step {i}"
            assert sorted(game.legal_moves()) == legal[i]
        assert not game.redo()
        check_invariants(game)


@pytest.mark.parametrize("name", GAMES)
def test_a_new_move_after_undo_clears_redo(name):
    game = Game(rules_of(name), seed=4)
    game.play(game.legal_moves()[0])
    game.undo()
    game.play(game.legal_moves()[-1])
    assert not game.redo()


# Automatic moves made on request (`a`): an `auto` entry's kind is a move unless it says otherwise.
ON_REQUEST = [n for n in GAMES if any(a.get("trigger") == "on-request" and a.get("kind", "move") == "move"
                                      for a in shipped_data(n).get("auto", ()))]


def test_the_parameters_chosen_from_the_data_are_those_the_compiled_rules_give():
    compiled = [n for n in GAMES if any(p.trigger == "on-request" and p.kind == "move" for p in rules_of(n).auto)]
    assert ON_REQUEST == compiled and ON_REQUEST
    assert HAND_GAMES == [n for n in ALL_GAMES if rules_of(n).hands is not None]
    assert GAMES == [n for n in ALL_GAMES if rules_of(n).pile_count]


@pytest.mark.parametrize("name", ON_REQUEST)
def test_undo_and_redo_of_an_automatic_step(name):
    # The `a` command is one step, however many moves it makes: undo takes all of them back,
    # redo makes all of them again. Two aces on top of two piles a pattern moves from.
    rules = rules_of(name)
    pattern = next(p for p in rules.auto if p.trigger == "on-request" and p.kind == "move")
    piles = [p for g in sorted(pattern.sources) for p in rules.groups[g].piles]
    assert len(piles) >= 2
    first, second = (rules.tag_of[p] for p in piles[:2])
    spare = next(t for t in rules.pile_of_tag if t not in (first, second) and rules.group_of[rules.pile_of_tag[t]] in pattern.sources)
    game = Game(rules, seed=1).arrange({first: "5C AS", second: "AH", spare: "9D"})
    before = game.state.key()
    made = game.play_auto()
    assert len(made) >= 2, "both aces go up"
    after = game.state.key()
    check_invariants_partial(game)
    assert game.undo()
    assert game.state.key() == before
    assert game.redo()
    assert game.state.key() == after, f"redo of an `a` step that made {len(made)} moves"
    assert game.undo()
    assert game.state.key() == before


# -- saves ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_save_and_load_round_trip(name, tmp_path):
    for seed in (1, 2):
        game = None
        for game in random_game(name, seed, 30, undo_every=7, auto_every=11):
            pass
        path = tmp_path / f"{seed}.json"
        save_game(game, path)
        loaded = load_game(path)
        assert loaded.state.key() == game.state.key()
        assert loaded.legal_moves() == game.legal_moves()
        assert loaded.events == game.events
        assert loaded.status() == game.status()
        assert loaded.score() == game.score()
        # The loaded game goes on exactly as the original would.
        rnd = random.Random(seed * 101)
        for _ in range(20):
            moves = game.legal_moves()
            assert loaded.legal_moves() == moves
            if not moves:
                break
            m = moves[rnd.randrange(len(moves))]
            game.play(m)
            loaded.play(m)
            assert loaded.state.key() == game.state.key()
        while game.undo():
            assert loaded.undo()
            assert loaded.state.key() == game.state.key()
        assert not loaded.undo()


# -- hints and move text ----------------------------------------------------------------------------

def leads_back(game, m: int) -> bool:
    """Whether move m (a step, with its automatic moves) leads to a position the game has already been in."""
    twin = game.fork()
    twin._step(m)
    return twin.state.key() in game.visited_positions()


@pytest.mark.parametrize("name", GAMES)
def test_every_hint_is_legal(name):
    """At every eighth position of random play (a hint may search 2,000 positions), the hint is a legal move that
    leads to a position not seen before, or none when every move would go back to one; asking for it leaves the
    game as it was."""
    for seed in (1, 2):
        game = Game(rules_of(name), seed=seed)
        rnd = random.Random(seed)
        for step in range(80):
            moves = game.legal_moves()
            if step % 8 == 0 or not moves:
                before = game.state.key()
                h = hint_with_source(game)
                assert game.state.key() == before and game.legal_moves() == moves
                if not moves:
                    assert h.move is None and h.source == "none"
                    break
                if h.move is None:  # random play went round in circles: every move goes back
                    assert h.source == "circle" and all(leads_back(game, m) for m in moves)
                    continue
                assert h.move in moves and (game.rules.match is not None or not leads_back(game, h.move))
            game.play(moves[rnd.randrange(len(moves))])


@pytest.mark.parametrize("name", GAMES)
def test_move_text_parses_back_to_the_same_move(name):
    for seed in (1, 2):
        game = Game(rules_of(name), seed=seed)
        rnd = random.Random(seed)
        for _ in range(60):
            moves = game.legal_moves()
            if not moves:
                break
            here = game.state.key()
            texts = [describe(game, m) for m in moves]
            for m, text in zip(moves, texts):
                parsed = parse_move(game, text)
                assert parsed in moves
                assert effect(game, parsed) == effect(game, m), (
                    f"seed {seed}: `{text}` ({narrate(game, m)}) parses to a different move ({narrate(game, parsed)})")
                assert game.state.key() == here, "apply then undo_record must restore the position"
            # Two different moves never share one text unless they have the same effect.
            by_text: dict[str, tuple] = {}
            for m, text in zip(moves, texts):
                assert by_text.setdefault(text, effect(game, m)) == effect(game, m), f"`{text}` names two moves"
            game.play(moves[rnd.randrange(len(moves))])


# -- the end of the game ----------------------------------------------------------------------------

def expected_outcome(game: Game, moves: list[int]) -> str:
    rules, ctx = game.rules, game.ctx
    if rules.win(ctx):
        return "won"
    if any(loss.when(ctx) for loss in rules.lose):
        return "lost"
    return "playing" if moves else "lost"


@pytest.mark.parametrize("name", GAMES)
def test_status_is_playing_while_moves_remain(name):
    for seed in (1, 2, 3):
        game = Game(rules_of(name), seed=seed)
        rnd = random.Random(seed)
        for _ in range(300):
            moves = game.legal_moves()
            status = game.status()
            assert status.outcome == expected_outcome(game, moves)
            assert game.status(moves) == status
            if status.outcome != "playing":
                assert status.reason
                break
            game.play(moves[rnd.randrange(len(moves))])


# -- the fast move generator agrees with the rules read one by one -------------------------------

def brute_force_card_moves(game) -> set:
    """Every (src, dst, n) the rules allow, found by asking each rule directly: no tables, no indexes."""
    from kallisti.interpreter.compiler import Ctx

    st, rules = game.state, game.rules
    ctx = Ctx(st)
    ctx.game = game
    found = set()
    for src in range(game.P):
        pile = st.piles[src]
        group = rules.groups[rules.group_of[src]]
        for n in range(1, len(pile) - st.down[src] + 1):
            ctx.card, ctx.cards, ctx.count, ctx.pile, ctx.source, ctx.top = pile[-n], pile[-n:], n, src, src, st.no_card
            if not _clauses_pass(group.take, ctx):
                continue
            if not all(_pair_allowed(group.sequence, ctx, pile[-i], pile[-i - 1]) for i in range(1, n)):
                continue
            for dst in range(game.P):
                target = st.piles[dst]
                if dst == src or (target and len(target) <= st.down[dst]):
                    continue
                dg = rules.groups[rules.group_of[dst]]
                ctx.card, ctx.cards, ctx.count, ctx.source, ctx.pile = pile[-n], pile[-n:], n, src, dst
                ctx.top = target[-1] if target else st.no_card
                if _clauses_pass(dg.build if target else dg.empty, ctx):
                    found.add((src, dst, n))
    return found


def _clauses_pass(rule, ctx) -> bool:
    """Every clause asked in turn (`failing`), as written: no table involved."""
    from kallisti.interpreter.compiler import RuleRuntimeError

    try:
        return rule.failing(ctx) is None
    except RuleRuntimeError:
        return False


def _pair_allowed(rule, ctx, card, top) -> bool:
    saved = ctx.card, ctx.top
    ctx.card, ctx.top = card, top
    ok = _clauses_pass(rule, ctx)
    ctx.card, ctx.top = saved
    return ok


@pytest.mark.parametrize("name", GAMES)
def test_move_generator_agrees_with_the_rules_read_one_by_one(name):
    game = Game(rules_of(name), seed=9)
    rnd = random.Random(9)
    for _ in range(60):
        generated = {game.decode(m)[1:] for m in game._all_moves() if game.decode(m)[0] == "move"}
        generated = {(src, dst, n) for src, dst, n in generated}
        assert generated == brute_force_card_moves(game)
        moves = game.legal_moves()
        if not moves:
            break
        game.play(moves[rnd.randrange(len(moves))])


# -- rulesets that score hands ----------------------------------------------------------------------

def test_every_shipped_ruleset_plays_on_piles_or_scores_hands():
    assert set(GAMES) | set(HAND_GAMES) == set(ALL_GAMES)
    assert HAND_GAMES, "a shipped ruleset scores hands"


@pytest.mark.parametrize("name", HAND_GAMES)
def test_a_hand_ruleset_without_piles_refuses_play_with_a_pointer_to_hand(name):
    from kallisti.errors import KallistiError

    rules = rules_of(name)
    if rules.pile_count:
        pytest.skip("this ruleset has piles too")
    with pytest.raises(KallistiError) as exc:
        Game(rules, seed=1)
    assert exc.value.findings[0].code == "no-piles"
    assert "kallisti hand" in exc.value.findings[0].message


def _random_hands(rules, count: int, seed: int):
    rnd = random.Random(seed)
    for _ in range(count):
        yield rnd.sample(range(rules.deck.size), rules.hands.size)


@pytest.mark.parametrize("name", HAND_GAMES)
def test_every_group_of_a_best_partition_is_its_grouping_and_no_card_is_used_twice(name):
    from kallisti.interpreter.compiler import Ctx
    from kallisti.interpreter.hands import HandEvaluator

    rules = rules_of(name)
    evaluator = HandEvaluator(rules)
    ctx = Ctx()
    for cards in _random_hands(rules, 60, 5):
        result = evaluator.evaluate(cards)
        assert result.complete, "a random hand is evaluated within the ruleset's budget"
        used = [c for g in result.groups for c in g.cards] + list(result.unused)
        assert sorted(used) == sorted(cards), "each card in exactly one group, or unused"
        assert list(result.ranks) == sorted(result.ranks, reverse=True)
        for g in result.groups:
            grouping = rules.hands.groupings[g.id]
            assert grouping.enabled and grouping.rank == g.rank
            if grouping.of is None:
                ctx.cards, ctx.count = list(g.cards), len(g.cards)
                assert grouping.when(ctx), f"{g.name} {g.cards} does not satisfy its condition"
            else:
                assert grouping.sizes[0] <= len(g.cards) <= grouping.sizes[1]
        assert evaluator.evaluate(list(reversed(cards))).ranks == result.ranks, "the order of the cards does not matter"


@pytest.mark.parametrize("name", HAND_GAMES)
def test_the_showdown_is_a_consistent_comparison(name):
    from kallisti.interpreter.hands import HandEvaluator

    rules = rules_of(name)
    evaluator = HandEvaluator(rules)
    hands = [evaluator.evaluate(c) for c in _random_hands(rules, 30, 11)]
    for a, b in zip(hands, hands[1:]):
        assert evaluator.compare(a, b) == -evaluator.compare(b, a)
        assert evaluator.compare(a, a) == 0
    winners = evaluator.showdown(hands)
    assert winners and all(evaluator.compare(hands[w], h) >= 0 for w in winners for h in hands)
