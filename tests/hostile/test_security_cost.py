"""The cost of a rule (docs/security.md, "The cost of a rule"), as tests that count steps and never time.

The compiler's count of the most steps one evaluation may take (`Compiled.steps`) is checked, construct by construct,
against the meter every evaluation keeps (`Ctx.steps`); and a rule whose steps, times how often the engine evaluates
it, pass a bound is refused when it compiles, at the expression, by `validate`, `check`, `play` (a live rule change)
and the web API's rule check, before a step of it is taken.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.errors import KallistiError, Pos
from kallisti.grammar.expressions import MAX_QUANTIFIED_ITEMS, quantifier_steps
from kallisti.interpreter import compiler as C
from kallisti.interpreter.game import Game
from kallisti.interpreter.rng import STREAM_STRATEGY, Rng
from kallisti.model.ruleset import load_ruleset
from harness import output_of, web_client

HOSTILE = Path(__file__).parent
AT = Pos("<test>", 1, 1)
runner = CliRunner()

SIXTY = "[" + ",".join(str(i) for i in range(60)) + "]"  # the numbers 0 to 59, written out
# Four counts nested over written lists of 60 numbers: within every limit of length and depth, 60 x (1 + 60 x (1 +
# 60 x (1 + 60))) = 13,179,660 steps each time it is evaluated.
FOUR = (f"count(a in {SIXTY}: count(b in {SIXTY}: count(c in {SIXTY}: count(d in {SIXTY}: a+b+c+d > 100) > 0) > 0) > 0)"
        " > 0")
FOUR_STEPS = 60 * (1 + 60 * (1 + 60 * (1 + 60)))

# A deck whose first five clubs have eight values each, chosen so that together they make 4,512 different totals:
# more than the 2,880 items a quantifier over cards counts as, fewer than MAX_TOTALS.
MANY_TOTALS = """extends: forty-thieves
game: Many Totals
deck:
  values: {A: [0, 1, 2, 3, 4, 5, 6, 7], "2": [0, 8, 16, 24, 32, 40, 48, 56], "3": [0, 64, 128, 192, 256, 320, 384, 448],
           "4": [0, 512, 1000, -512, -1000, 300, -300, 750], "5": [0, 3, 5, 1000, -1000, 997, -997, 13]}
"""


@pytest.fixture(scope="module")
def thieves():
    return load_ruleset("forty-thieves")


@pytest.fixture(scope="module")
def many_totals():
    return load_ruleset(Path("many-totals.yaml"), text=MANY_TOTALS)


def positions(rules, seed: int = 1, moves: int = 60):
    """The positions of a game of random moves, one after another (the same game object, moved on)."""
    game = Game(rules, seed=seed)
    rng = Rng(seed, 1, STREAM_STRATEGY)
    yield game
    for _ in range(moves):
        legal = game.legal_moves()
        if not legal:
            return
        game.play(legal[rng.below(len(legal))])
        yield game


def contexts(game: Game, scope: dict):
    """Contexts of `scope` in the game's position, each as demanding as the position allows: the longest pile's
    cards moving, onto each other pile."""
    st = game.state
    longest = max(range(game.P), key=lambda p: len(st.piles[p]))
    cards = list(st.piles[longest])
    for target in range(game.P):
        ctx = C.Ctx(st)
        ctx.game = game
        if scope is not C.STATE_SCOPE:
            ctx.cards, ctx.count = cards, len(cards)
            ctx.card = cards[0] if cards else st.no_card
            ctx.source, ctx.pile = longest, target
            ctx.top = st.piles[target][-1] if st.piles[target] else st.no_card
        yield ctx


def metered(compiled: C.Compiled, ctx: C.Ctx) -> int:
    """The steps one evaluation takes, by the meter."""
    before = ctx.steps
    try:
        compiled.fn(ctx)
    except C.RuleRuntimeError:
        pass
    return ctx.steps - before


def unbounded(monkeypatch) -> None:
    """Lift the compiler's bounds, to measure constructs past them."""
    for name in ("MAX_EVALUATION_STEPS", "MAX_LOAD_STEPS", "MAX_POSITION_STEPS"):
        monkeypatch.setattr(C, name, 10**15)


# -- the static count and the meter agree --------------------------------------------------------------------------

LIST = "[" + ", ".join(str(i) for i in range(40)) + "]"
CONSTRUCTS = [
    # Each quantifier, over each kind of collection.
    ("all(p in tableau: p.size >= 0)", C.STATE_SCOPE),
    ("any(p in tableau: p.size < 0)", C.STATE_SCOPE),
    ("count(p in foundation: p.empty)", C.STATE_SCOPE),
    ("sum(p in tableau: p.size)", C.STATE_SCOPE),
    ("sum(p in tableau.piles: p.face_up)", C.STATE_SCOPE),
    ("all(c in cards: c.value >= 0)", C.BUILD_SCOPE),
    ("any(c in pile.cards: c.rank == K)", C.BUILD_SCOPE),
    ("count(c in pile.cards: c.face_up)", C.TAKE_SCOPE),
    ("sum(c in cards: c.value)", C.DISCARD_SCOPE),
    ("any(v in card.values: v > 100)", C.CARD_SCOPE),
    ("count(m in card.marks: true) == 0", C.CARD_SCOPE),
    # Written lists of numbers (a range, written out), of suits, of ranks.
    (f"count(x in {LIST}: x > 20)", C.STATE_SCOPE),
    (f"sum(x in {LIST}: count(y in {LIST}: x < y))", C.STATE_SCOPE),
    ("any(s in [clubs, hearts, spades, diamonds]: count(c in cards: c.suit == s) > 3)", C.BUILD_SCOPE),
    # Nested quantifiers.
    ("count(p in tableau: count(c in p.cards: c.rank == K) > 0)", C.STATE_SCOPE),
    ("sum(p in tableau: sum(c in p.cards: count(s in [hearts]: c.suit == s)))", C.STATE_SCOPE),
    ("all(p in tableau: any(p in foundation: p.empty) or p.size > 0)", C.STATE_SCOPE),
    ("count(a in cards: count(b in cards: a == b) > 1) == 0", C.TAKE_SCOPE),
    # Built-ins over a list of cards; membership; a group's piles; movable.
    ("descending(cards) or ascending(cards) or same_suit(cards) or same_color(cards) or alternating_colors(cards)",
     C.TAKE_SCOPE),
    ("consecutive(cards) or same_family(cards)", C.TAKE_SCOPE),
    ("card in pile.cards or top not in cards", C.BUILD_SCOPE),
    ("card.rank in [A, K, Q] and card.suit not in [hearts] or card.rank in [2, 3]", C.BUILD_SCOPE),
    ("tableau.empty or foundation.empty or count(p in tableau.piles: p.empty) > 2", C.STATE_SCOPE),
    ("any(p in waste: p.movable) or any(p in tableau: p.movable)", C.STATE_SCOPE),
    ("pile.size + 1 > count and not pile.empty", C.BUILD_SCOPE),
]


@pytest.mark.parametrize("text, scope", CONSTRUCTS, ids=[t[:60] for t, _ in CONSTRUCTS])
def test_no_evaluation_takes_more_steps_than_the_compiler_counts(thieves, text, scope):
    compiled = thieves.compiler.compile(text, AT, scope, None)
    most = 0
    for game in positions(thieves):
        for ctx in contexts(game, scope):
            steps = metered(compiled, ctx)
            assert steps <= compiled.steps, (text, steps, compiled.steps)
            most = max(most, steps)
    assert compiled.steps <= C.MAX_EVALUATION_STEPS
    if not any(word in text for word in ("marks", "movable", "pile.size")):  # Forty Thieves has no marks
        assert most > 0, "the construct took no step: the test measures nothing"


def test_a_quantifier_over_a_written_list_takes_exactly_the_steps_counted(thieves):
    for text in (f"count(x in {LIST}: x > 20)", f"sum(x in {LIST}: count(y in {LIST}: x < y))"):
        compiled = thieves.compiler.compile(text, AT, C.STATE_SCOPE, C.INT)
        assert metered(compiled, C.Ctx()) == compiled.steps == quantifier_steps(_parse(text))


def test_totals_counts_every_total_it_can_make_not_the_2880_of_a_list_of_cards(many_totals):
    """`totals()` can go through up to MAX_TOTALS totals: more than a quantifier over cards counts as going through."""
    compiler = many_totals.compiler
    cards = [many_totals.deck.representative[r] for r in range(5)]  # the ace to the five of clubs
    for text in ("count(t in totals(cards): t > -10000)", "21 in totals(cards)", "totals(cards).size > 4000"):
        try:
            compiled = compiler.compile(text, AT, C.HAND_SCOPE, None)
        except KallistiError as exc:  # past the bound of one evaluation, with this deck's 40 cards of many values
            assert exc.findings[0].code == "expr-too-costly"
            continue
        ctx = C.Ctx()
        ctx.cards = ctx.locals["hand"] = cards
        assert metered(compiled, ctx) <= compiled.steps
    # Counted without the bounds, the steps of the count are more than 2,880 and no more than the compiler says.
    text = "count(t in totals(cards): t > -10000)"
    assert quantifier_steps(_parse(text)) == C.MAX_TOTALS > MAX_QUANTIFIED_ITEMS
    with pytest.MonkeyPatch.context() as mp:
        unbounded(mp)
        compiled = compiler.compile(text, AT, C.HAND_SCOPE, C.INT)
    ctx = C.Ctx()
    ctx.cards = cards
    assert compiled.fn(ctx) == 4_512
    assert MAX_QUANTIFIED_ITEMS < ctx.steps <= compiled.steps


def test_generated_expressions_never_take_more_steps_than_counted(thieves):
    """Every expression the fuzzers' well-typed generators make, in many positions."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from fuzz.strategies import card_conditions, game_conditions, game_scores

    @settings(max_examples=150, derandomize=True, database=None, deadline=None)
    @given(st.one_of(game_conditions.map(lambda t: (t, C.STATE_SCOPE)), game_scores.map(lambda t: (t, C.STATE_SCOPE)),
                     card_conditions.map(lambda t: (t, C.BUILD_SCOPE))))
    def check(case):
        text, scope = case
        try:
            compiled = thieves.compiler.compile(text, AT, scope, None)
        except KallistiError:
            return
        for game in positions(thieves, moves=8):
            for ctx in contexts(game, scope):
                assert metered(compiled, ctx) <= compiled.steps, text

    check()


def _parse(text):
    from kallisti.grammar.expressions import parse_expression

    return parse_expression(text, AT)


# -- what passes a bound is refused when it compiles ------------------------------------------------------------

def refusal(compiler, text, scope, want=C.BOOL):
    with pytest.raises(KallistiError) as caught:
        compiler.compile(text, AT, scope, want)
    return caught.value.findings[0]


def test_four_nested_counts_are_refused_where_the_outer_count_is(thieves):
    finding = refusal(thieves.compiler, FOUR, C.STATE_SCOPE)
    assert finding.code == "expr-too-costly" and (finding.pos.line, finding.pos.column) == (1, 1)
    assert f"{FOUR_STEPS:,} steps" in finding.message and finding.suggestion
    assert 700 < len(FOUR) < 800  # within MAX_EXPRESSION_CHARS, nested 4 deep: only its cost refuses it
    padded = f"foundation.size == deck.size or {FOUR}"
    assert refusal(thieves.compiler, padded, C.STATE_SCOPE).pos.column == 1 + padded.index("count(")


def test_a_clause_read_for_every_pair_of_cards_is_bounded_by_its_table(thieves):
    """The same clause is a fine win, evaluated once a position; as a clause of a pile rule that reads only the card
    and the card under it, it is evaluated for every pair of card kinds as the ruleset loads, and that is too much."""
    clause = f"card.rank == top.rank - 1 and count(a in {SIXTY}: count(b in {SIXTY}: a < b) > 0) > 0"
    compiled = thieves.compiler.compile(clause.replace("card.rank == top.rank - 1", "true"), AT, C.STATE_SCOPE)
    assert compiled.steps == 60 * 61 <= C.MAX_EVALUATION_STEPS
    finding = refusal(thieves.compiler, clause, C.BUILD_SCOPE)
    kinds = len(thieves.deck.representative) + 1
    assert finding.code == "expr-too-costly"
    assert f"evaluated {2 * kinds * kinds:,} times as the ruleset loads" in finding.message
    assert 2 * kinds * kinds * compiled.steps > C.MAX_LOAD_STEPS


def test_a_clause_that_reads_the_position_is_bounded_by_the_moves_it_judges(thieves):
    clause = "pile.empty or count(p in tableau: count(c in p.cards: c.rank == card.rank) > 0) > 0"
    as_win = thieves.compiler.compile(clause.replace("pile.empty", "false").replace("card.rank)", "K)"), AT,
                                      C.STATE_SCOPE)
    assert as_win.steps <= C.MAX_EVALUATION_STEPS
    finding = refusal(thieves.compiler, clause, C.BUILD_SCOPE)
    assert finding.code == "expr-too-costly" and "times in one position" in finding.message
    (_, _), (times, _) = thieves.compiler.evaluations(C.BUILD_SCOPE, frozenset({"pile", "card", "state"}))
    assert times * as_win.steps > C.MAX_POSITION_STEPS


def test_every_rule_of_every_kind_is_within_all_three_bounds(thieves):
    """What compiles is within its bounds: the product of its steps and its evaluations, for each kind of rule."""
    scopes = (C.STATE_SCOPE, C.PILE_STATE_SCOPE, C.CARD_SCOPE, C.BUILD_SCOPE, C.EMPTY_SCOPE, C.TAKE_SCOPE,
              C.SEQUENCE_SCOPE, C.DISCARD_SCOPE, C.MOVE_SCOPE, C.HAND_SCOPE)
    texts = ["count(p in tableau: p.size > 3) > 2", f"count(x in {SIXTY}: count(y in {SIXTY}: x < y) > 0) > 0",
             "count(p in tableau: count(q in tableau: p.size < q.size) > 0) > 0", "card.rank == top.rank - 1"]
    for scope in scopes:
        for text in texts:
            try:
                compiled = thieves.compiler.compile(text, AT, scope)
            except KallistiError as exc:
                assert exc.findings[0].code in ("expr-too-costly", "unknown-name"), exc
                continue
            (load, _), (position, _) = thieves.compiler.evaluations(scope, compiled.uses)
            assert compiled.steps <= C.MAX_EVALUATION_STEPS
            assert compiled.steps * load <= C.MAX_LOAD_STEPS
            assert compiled.steps * position <= C.MAX_POSITION_STEPS


# -- validate, check, play and the web API refuse it, within a bounded number of steps ------------------------------

@pytest.fixture
def meter(monkeypatch):
    """The steps every context made from now on has taken, together."""
    made: list[C.Ctx] = []
    init = C.Ctx.__init__

    def counted(self, state=None):
        init(self, state)
        made.append(self)
    monkeypatch.setattr(C.Ctx, "__init__", counted)
    return lambda: sum(ctx.steps for ctx in made)


def four_deep(tmp_path: Path, where: str = "win") -> Path:
    path = tmp_path / "four-deep.yaml"
    if where == "win":
        path.write_text(f'extends: forty-thieves\ngame: Four Deep\nwin: "{FOUR}"\n', encoding="utf-8")
    else:
        path.write_text("extends: forty-thieves\ngame: Four Deep\nchanges:\n  - require: piles.tableau.build\n"
                        f'    id: slow\n    expr: "card.rank == top.rank - 1 and {FOUR}"\n', encoding="utf-8")
    return path


@pytest.mark.parametrize("where, at", [("win", "3:7"), ("build", "6:42")])
@pytest.mark.parametrize("command", [["validate"], ["check", "--deals", "1"], ["play", "--seed", "1"],
                                     ["simulate", "--deals", "1"]])
def test_the_cli_refuses_four_nested_counts_within_a_bounded_number_of_steps(tmp_path, meter, command, where, at):
    path = four_deep(tmp_path, where)
    result = runner.invoke(app, [command[0], str(path), *command[1:]], input="q\n")
    out = output_of(result)
    assert result.exit_code == 1 and "Traceback" not in out, out[-2000:]
    assert f"four-deep.yaml:{at}: error expr-too-costly:" in out, out[-2000:]
    assert meter() <= C.MAX_LOAD_STEPS  # the rest of Forty Thieves loaded, and not one evaluation of the four counts


@pytest.mark.parametrize("change", [f"set win {FOUR}", f"require tableau.build slow: card.rank == top.rank - 1 and {FOUR}",
                                    f"set score {FOUR.removesuffix(' > 0')}"])
def test_a_live_rule_change_of_four_nested_counts_is_refused_and_play_goes_on(meter, change):
    result = runner.invoke(app, ["play", "forty-thieves", "--seed", "1"], input=f"rule {change}\nmoves\nq\n")
    out = output_of(result)
    assert result.exit_code == 4 and "Traceback" not in out, out[-2000:]  # quit at `q`: the session went on
    assert "change refused" in out and "error expr-too-costly:" in out
    assert f"<change>:1:{1 + change.index('count(')}:" in out
    assert meter() <= C.MAX_LOAD_STEPS


def test_the_web_api_rule_check_refuses_four_nested_counts_at_the_count():
    with web_client() as client:
        created = client.post("/api/sessions", json={"game": "forty-thieves", "seed": 1})
        assert created.status_code == 201, created.text
        sid = created.json()["id"]
        before = client.get(f"/api/sessions/{sid}").json()
        for text in (f"set win {FOUR}", f"require tableau.build slow: {FOUR}"):
            check = client.post(f"/api/sessions/{sid}/rule/check", json={"text": text}).json()
            assert check["ok"] is False
            finding = check["findings"][0]
            assert (finding["code"], finding["line"], finding["column"]) == ("expr-too-costly", 1, 1 + text.index("count("))
            refused = client.post(f"/api/sessions/{sid}/rule", json={"text": text})
            assert (refused.status_code, refused.json()["ok"]) == (200, False)
            assert refused.json()["findings"][0]["code"] == "expr-too-costly"
        assert client.get(f"/api/sessions/{sid}").json() == before


def test_the_hostile_example_is_the_four_nested_counts():
    text = (HOSTILE / "four-nested-counts.yaml").read_text(encoding="utf-8")
    assert FOUR in text
