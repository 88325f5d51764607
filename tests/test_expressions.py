"""The expression language: precedence, ranks, arithmetic, collections, errors with positions, limits, tabulation."""

from __future__ import annotations

from functools import lru_cache

import pytest

from kallisti.errors import KallistiError, Pos
from kallisti.grammar.expressions import MAX_EXPRESSION_CHARS, MAX_EXPRESSION_DEPTH, MAX_INT_LITERAL
from kallisti.interpreter import compiler as C
from kallisti.interpreter.game import Game
from kallisti.interpreter.notation import MoveRefused, parse_move
from kallisti.model.ruleset import load_ruleset

WHERE = Pos("rules.yaml", 7, 12)  # where the expression text starts in its file


@lru_cache(maxsize=None)
def rules():
    return load_ruleset("forty-thieves")


def compiler() -> C.Compiler:
    r = rules()
    return C.Compiler(r.deck, {name: g.piles for name, g in r.groups.items()}, list(r.group_of))


def card(name: str, pack: int = 0) -> int:
    """The physical card of that name in the given pack."""
    deck = rules().deck
    kind = deck.parse_card(name)
    return [c for c in range(deck.size) if deck.kind[c] == kind][pack]


def position(layout=None) -> Game:
    g = Game(rules(), seed=1)
    g.arrange(layout or {})
    return g


def ev(text: str, scope=C.BUILD_SCOPE, want=C.BOOL, game: Game | None = None, **slots):
    compiled = compiler().compile(text, WHERE, scope, want)
    ctx = C.Ctx((game or position()).state)
    for key, value in slots.items():
        setattr(ctx, key, value)
    return compiled.fn(ctx)


def fault(text: str, scope=C.BUILD_SCOPE, want=C.BOOL):
    with pytest.raises(KallistiError) as exc:
        compiler().compile(text, WHERE, scope, want)
    assert len(exc.value.findings) == 1
    return exc.value.findings[0]


def column_in_text(finding) -> int:
    """The 0-based offset into the expression text that a finding's column points at."""
    assert finding.pos.source == WHERE.source and finding.pos.line == WHERE.line
    return finding.pos.column - WHERE.column


# -- precedence ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text, value", [
    ("true or false and false", True),  # and binds tighter than or
    ("(true or false) and false", False),
    ("not true or true", True),  # not binds tighter than or
    ("not (true or true)", False),
    ("not false and false", False),
    ("not 1 == 2", True),  # not applies to the whole comparison
    ("2 + 3 * 4 == 14", True),
    ("(2 + 3) * 4 == 20", True),
    ("10 - 2 - 3 == 5", True),  # left to right
    ("12 // 2 // 3 == 2", True),
    ("-2 * 3 == -6", True),
    ("1 + 2 == 3 and 2 * 2 == 4", True),
    ("7 // 2 == 3 and 7 % 3 == 1", True),
    ("5 // 0 == 0", True),  # division by zero gives 0
    ("5 % 0 == 0", True),
    ("1 != 1 or 2 >= 2", True),
])
def test_precedence_and_arithmetic(text, value):
    assert ev(text, C.STATE_SCOPE) is value


def test_comparisons_do_not_chain():
    f = fault("1 < 2 < 3")
    assert f.code == "expr-syntax"
    assert column_in_text(f) == 6


# -- ranks -------------------------------------------------------------------------------------


def test_number_compared_with_a_rank_names_that_rank():
    assert ev("card.rank == 10", card=card("10H")) is True
    assert ev("card.rank == 10", card=card("JH")) is False  # not the eleventh rank
    assert ev("card.rank == 9", card=card("10H")) is False
    assert ev("10 == card.rank", card=card("10C")) is True
    assert ev("card.rank == 2", card=card("2D")) is True


def test_rank_words_and_first_last():
    assert ev("card.rank == K", card=card("KS")) is True
    assert ev("card.rank == K", card=card("QS")) is False
    assert ev("card.rank == A and card.rank == first", card=card("AS")) is True
    assert ev("card.rank == last", card=card("KD")) is True
    assert ev("card.rank < Q", card=card("JS")) is True
    assert ev("card.rank > 10", card=card("JS")) is True
    assert ev("ranks == 13", C.STATE_SCOPE) is True


def test_a_number_that_is_no_rank_is_refused():
    f = fault("card.rank == 14")
    assert f.code == "unknown-rank"
    assert column_in_text(f) == len("card.rank == ")
    assert fault("card.rank == 1").code == "unknown-rank"


def test_rank_arithmetic():
    q, j, k, a = card("QS"), card("JS"), card("KS"), card("AS")
    assert ev("card.rank == top.rank - 1", card=j, top=q) is True
    assert ev("card.rank == top.rank - 1", card=q, top=j) is False
    assert ev("card.rank + 1 == top.rank", card=j, top=q) is True
    assert ev("top.rank - card.rank == 1", card=j, top=q) is True  # rank - rank is a number
    assert ev("card.rank - 1 == 9", card=card("10H")) is True  # rank - number is a rank: the nine
    assert ev("card.rank == top.rank - 1", card=k, top=a) is False  # ranks never wrap by themselves
    assert ev("(top.rank - card.rank) % ranks == 1", card=k, top=a) is True  # unless the rule says so
    assert ev("(card.rank - top.rank) % ranks == 1", card=a, top=k) is True


def test_rank_arithmetic_type_errors():
    f = fault("card.rank + top.rank == 3")
    assert f.code == "expr-type" and "add" in f.message
    assert fault("card.rank * 2 == 4").code == "expr-type"
    assert fault("card.rank == hearts").code == "expr-type"


# -- membership -----------------------------------------------------------------------------


def test_in_with_lists():
    assert ev("card.rank in [J, Q, K]", card=card("QH")) is True
    assert ev("card.rank in [J, Q, K]", card=card("10H")) is False
    assert ev("card.rank not in [J, Q, K]", card=card("10H")) is True
    assert ev("card.suit in [hearts, diamonds]", card=card("5D")) is True
    assert ev("card.color == red and card.suit != hearts", card=card("5D")) is True
    assert ev("card.value in [1, 2, 3]", card=card("3C")) is True
    assert ev("10 in [card.rank, top.rank]", card=card("10C"), top=card("2C")) is True


def test_numbers_in_a_rank_list_name_ranks():
    # As in a comparison, a number tested against ranks names the rank of that name.
    assert ev("card.rank in [9, 10]", card=card("10H")) is True
    assert ev("card.rank in [9, 10]", card=card("JH")) is False


def test_in_with_mismatched_types_is_refused():
    f = fault("card.suit in [1, 2]")
    assert f.code == "expr-type"
    assert fault("card.rank in [J, hearts]").code == "expr-type"


def test_source_in_a_group():
    r = rules()
    w, t1 = r.pile_of_tag["w"], r.pile_of_tag["t1"]
    assert ev("source in waste", source=w) is True
    assert ev("source in waste", source=t1) is False
    assert ev("source not in waste", source=t1) is True
    assert ev("pile in tableau and source in waste", source=w, pile=t1) is True


# -- quantifiers ------------------------------------------------------------------------------


def test_quantifiers_over_groups():
    g = position({"t1": "9S 8S", "t2": "KH", "f1": "AD"})
    assert ev("count(p in tableau: p.empty) == 8", C.STATE_SCOPE, game=g) is True
    assert ev("sum(p in tableau: p.size) == 3", C.STATE_SCOPE, game=g) is True
    assert ev("any(p in foundation: not p.empty)", C.STATE_SCOPE, game=g) is True
    assert ev("all(p in foundation: p.empty)", C.STATE_SCOPE, game=g) is False
    assert ev("all(p in tableau.piles: p.size < 3)", C.STATE_SCOPE, game=g) is True
    assert ev("tableau.size == 3 and foundation.size == 1 and tableau.count == 10", C.STATE_SCOPE, game=g) is True
    # Every attribute of a pile a quantifier's variable names, read as the same attribute of a named pile reads it.
    g.state.down[g.rules.pile_of_tag["t1"]] = 1
    for attr, value, piles in (("size", 2, 1), ("empty", "false", 2), ("top.rank", 8, 1), ("face_up", 1, 2),
                               ("face_down", 1, 1), ("cards.bottom.rank", 9, 1), ("cards.size", 2, 1), ("index", 1, 1)):
        assert ev(f"count(p in tableau: p.{attr} == {value}) == {piles}", C.STATE_SCOPE, game=g) is True, attr
        assert ev(f"any(p in tableau: p.{attr} == {value} and p.size == 2)", C.STATE_SCOPE, game=g) is True, attr


@pytest.mark.parametrize("fast, general", [
    ("all(p in tableau: p.empty)", "all(p in tableau: p.size == 0)"),
    ("all(p in tableau: not p.empty)", "all(p in tableau: p.size > 0)"),
    ("any(p in tableau: p.empty)", "any(p in tableau: p.size == 0)"),
    ("any(p in tableau: not p.empty)", "any(p in tableau: p.size > 0)"),
])
def test_a_quantifier_over_a_groups_emptiness_reads_it_off_the_piles(fast, general):
    """`all(p in tableau: not p.empty)` (a dealing rule, judged at every listing) is judged without the body's
    closures: the same verdict as the general way's, the same piles counted on the meter."""
    fn = compiler().compile(fast, WHERE, C.STATE_SCOPE, C.BOOL).fn
    assert fn.__qualname__.startswith("pile_quantifier")
    slow = compiler().compile(general, WHERE, C.STATE_SCOPE, C.BOOL).fn
    full = {f"t{i}": name for i, name in enumerate("AC 2C 3C 4C 5C 6C 7C 8C 9C 10C".split(), 1)}
    for layout in ({}, {"t1": "KH"}, {"t3": "KH"}, full, {tag: name for tag, name in full.items() if tag != "t10"}):
        g = position(layout)
        fast_ctx, slow_ctx = C.Ctx(g.state), C.Ctx(g.state)
        assert fn(fast_ctx) == slow(slow_ctx), layout
        assert fast_ctx.steps == slow_ctx.steps and fast_ctx.locals == slow_ctx.locals


def test_quantifiers_over_a_piles_cards_and_the_moving_cards():
    g = position({"t1": "9S 8S", "t2": "KH 9S"})
    r = rules()
    t1, t2 = r.pile_of_tag["t1"], r.pile_of_tag["t2"]
    assert ev("all(c in pile.cards: c.suit == spades)", game=g, pile=t1) is True
    assert ev("all(c in pile.cards: c.suit == spades)", game=g, pile=t2) is False
    assert ev("sum(c in pile.cards: c.value) == 17", game=g, pile=t1) is True
    moving = [card("4D"), card("5S"), card("6H")]
    assert ev("count(c in cards: c.color == red) == 2", cards=moving) is True
    assert ev("any(c in cards: c.rank == 5)", cards=moving) is True
    assert ev("all(n in [1, 2, 3]: n > 0)", C.STATE_SCOPE) is True
    assert ev("any(p in tableau: any(c in p.cards: c.rank == K))", C.STATE_SCOPE, game=g) is True


def test_a_quantifier_variable_shadows_and_is_restored():
    # The inner `p` hides the outer one only inside the inner quantifier, even when it stops early.
    g = position({f"t{i}": f"{i}H" for i in range(2, 11)} | {"t1": "5C", "f1": "AS"})
    assert ev("all(p in tableau: any(p in foundation: p.empty) and p.size > 0)", C.STATE_SCOPE, game=g) is True
    assert ev("all(p in tableau: p.size > 0 and any(p in foundation: p.empty))", C.STATE_SCOPE, game=g) is True


def test_quantifier_type_errors():
    f = fault("all(x in 3: true)", C.STATE_SCOPE)
    assert f.code == "expr-type" and column_in_text(f) == len("all(x in ")
    f = fault("sum(p in tableau: p.empty) == 1", C.STATE_SCOPE)
    assert f.code == "expr-type" and column_in_text(f) == len("sum(p in tableau: ")
    assert fault("all(tableau)", C.STATE_SCOPE).code == "expr-syntax"


# -- errors with positions ---------------------------------------------------------------------


def test_type_error_points_at_the_offending_part():
    text = "count == 1 and card.suit == 3"
    f = fault(text)
    assert f.code == "expr-type"
    assert column_in_text(f) == text.index("card.suit")
    assert str(f).startswith(f"rules.yaml:7:{WHERE.column + text.index('card.suit')}: error expr-type")


def test_and_needs_truth_values():
    text = "card.suit == hearts and card.rank"
    f = fault(text)
    assert f.code == "expr-type"
    assert column_in_text(f) == text.index("card.rank")


def test_the_whole_expression_must_be_true_or_false():
    f = fault("card.rank")
    assert f.code == "expr-type" and "rank" in f.message


def test_unknown_name_with_suggestion():
    text = "tableu.size == 0"
    f = fault(text, C.STATE_SCOPE)
    assert f.code == "unknown-name" and "tableu" in f.message
    assert f.suggestion == "did you mean 'tableau'?"
    assert column_in_text(f) == 0


def test_names_out_of_scope_are_unknown():
    f = fault("top.rank == 3", C.EMPTY_SCOPE)  # a space has no top card
    assert f.code == "unknown-name"
    f = fault("card.rank == 3 and source in waste", C.SEQUENCE_SCOPE)
    assert f.code == "unknown-name" and column_in_text(f) == len("card.rank == 3 and ")


def test_unknown_attribute_with_suggestion():
    text = "card.rank == top.rnak"
    f = fault(text)
    assert f.code == "unknown-attribute"
    assert f.suggestion == "did you mean 'rank'?"
    start = text.index("top.rnak")
    assert start <= column_in_text(f) < start + len("top.rnak")


def test_unknown_function():
    f = fault("card.rank == maximum(1, 2)")
    assert f.code == "unknown-function"
    assert column_in_text(f) == len("card.rank == ")


def test_syntax_error_has_a_caret_excerpt():
    text = "card.rank == == 3"
    f = fault(text)
    assert f.code == "expr-syntax"
    offset = column_in_text(f)
    assert offset == text.index("==", 11)
    line, marker = f.excerpt.splitlines()
    assert line.strip() == text
    assert marker.index("^") - line.index(text) == offset


def test_syntax_error_lists_what_was_expected_in_plain_words():
    f = fault("card.rank == == 3")
    assert "a name" in f.message and "a number" in f.message
    for internal in ("lsqb", "minus", "LSQB", "MINUS"):  # no grammar-internal token names
        assert internal not in f.message


def test_syntax_error_at_the_end():
    text = "(card.rank == 3"
    f = fault(text)
    assert f.code == "expr-syntax" and "ends too early" in f.message
    assert column_in_text(f) == len(text)


def test_unexpected_character():
    text = "card.rank == 3 $ 4"
    f = fault(text)
    assert f.code == "expr-syntax"
    assert column_in_text(f) == text.index("$")


# -- limits -------------------------------------------------------------------------------------


def test_expression_too_long_is_refused():
    text = "true or " * (MAX_EXPRESSION_CHARS // 8) + "true"
    assert len(text) > MAX_EXPRESSION_CHARS
    assert fault(text, C.STATE_SCOPE).code == "expr-too-long"


def test_expression_too_deep_is_refused():
    nots = MAX_EXPRESSION_DEPTH - 1  # with `true` itself, exactly at the limit
    assert ev("not " * nots + "true", C.STATE_SCOPE) is (nots % 2 == 0)
    assert fault("not " * MAX_EXPRESSION_DEPTH + "true", C.STATE_SCOPE).code == "expr-too-deep"
    assert fault("1 + " * (MAX_EXPRESSION_DEPTH + 5) + "1 == 1", C.STATE_SCOPE).code == "expr-too-deep"


@pytest.mark.parametrize("text", [
    "not " * 480 + "true",
    "-" * 1500 + "1 == 1",
    "[" * 600 + "1" + "]" * 600 + " == 1",
    "card." + "rank." * 380 + "rank == 1",
])
def test_deep_nesting_within_the_length_limit_is_refused_cleanly(text):
    # Long chains that fit in MAX_EXPRESSION_CHARS must give a finding, never a Python crash.
    assert len(text) <= MAX_EXPRESSION_CHARS
    assert fault(text).code == "expr-too-deep"


def test_deep_nesting_in_a_ruleset_file_is_a_finding(tmp_path):
    path = tmp_path / "deep.yaml"
    path.write_text("extends: forty-thieves\ngame: Deep\nwin: \"" + "not " * 480 + "true\"\n")
    with pytest.raises(KallistiError) as exc:
        load_ruleset(path)
    assert exc.value.findings[0].code == "expr-too-deep"


def test_number_literal_too_large_is_refused():
    assert ev(f"{MAX_INT_LITERAL} > 0", C.STATE_SCOPE) is True
    text = f"card.value == {MAX_INT_LITERAL + 1}"
    f = fault(text)
    assert f.code == "number-too-large"
    assert column_in_text(f) == len("card.value == ")


def test_arithmetic_overflow_refuses_the_move_at_run_time():
    compiled = compiler().compile("999999999 * 999999999 * 999999999 > 0", WHERE, C.STATE_SCOPE)
    with pytest.raises(C.RuleRuntimeError):
        compiled.fn(C.Ctx(position().state))


def test_control_characters_are_refused():
    assert fault("true\x00", C.STATE_SCOPE).code == "expr-control-char"


# -- no way out to Python -----------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "card.__class__ == 1",
    "deck.__dict__ == 1",
    "top.__init__ == 1",
    "pile.__class__.__name__ == 1",
    "tableau.__len__ == 1",
])
def test_python_attributes_are_unknown(text):
    f = fault(text)
    assert f.code == "unknown-attribute"


@pytest.mark.parametrize("text", ["__import__(1) == 1", "eval(1) == 1", "getattr(card, 1) == 1"])
def test_python_functions_are_unknown(text):
    assert fault(text).code == "unknown-function"


def test_python_names_are_unknown():
    assert fault("__builtins__ == 1").code == "unknown-name"
    assert fault("\"a\".__class__ == 1").code == "unknown-attribute"


# -- rules through a ruleset file ---------------------------------------------------------------


def test_expression_error_in_a_file_points_at_its_line_and_column(tmp_path):
    path = tmp_path / "bad.yaml"
    text = (
        "extends: forty-thieves\n"
        "game: Bad\n"
        "changes:\n"
        "  - require: piles.tableau.build\n"
        "    id: odd\n"
        "    expr: \"card.rank == top.rank - 1 and card.colour == top.sute\"\n"
    )
    path.write_text(text)
    with pytest.raises(KallistiError) as exc:
        load_ruleset(path)
    [f] = exc.value.findings
    assert f.code == "unknown-attribute" and f.pos.source == str(path) and f.pos.line == 6
    line = text.splitlines()[5]
    start = line.index("top.sute")
    assert start <= f.pos.column - 1 < start + len("top.sute")


def test_a_clause_written_in_a_file_is_applied(tmp_path):
    path = tmp_path / "nines.yaml"
    path.write_text(
        "extends: forty-thieves\n"
        "game: No Nines On Tens\n"
        "changes:\n"
        "  - forbid: piles.tableau.build\n"
        "    id: no-nine\n"
        "    expr: card.rank == 9 and top.rank == 10\n"
        "    says: takes no nine on a ten\n"
    )
    r = load_ruleset(path)
    g = Game(r).arrange({"t1": "10S", "t2": "9S", "t3": "JS", "t4": "10S"})
    with pytest.raises(MoveRefused) as exc:
        parse_move(g, "t2 t1")
    assert str(exc.value) == "9♠ cannot go on 10♠: the tableau takes no nine on a ten (piles.tableau.build, clause no-nine)"
    parse_move(g, "t4 t3")


# -- tabulation ---------------------------------------------------------------------------------


def test_card_and_top_rules_are_tabulated_and_agree_with_their_clauses():
    r = rules()
    deck = r.deck
    build = r.groups["tableau"].build
    assert build.pair_table is not None
    ctx = C.Ctx()
    allowed = 0
    for c in range(deck.size + 1):  # including the "no card" sentinel
        for t in range(deck.size + 1):
            ctx.card, ctx.top = c, t
            expected = all(clause.holds(ctx) for clause in build.clauses)
            assert build.allows(ctx) == expected
            allowed += expected
    # Every card but a king goes on exactly two tops (the twins one rank higher in its suit), twice over.
    assert allowed == 2 * 48 * 2


def test_foundation_rules_are_tabulated():
    r = rules()
    f = r.groups["foundation"]
    assert f.build.pair_table is not None
    assert f.empty.card_table is not None and f.empty.pair_table is None
    ctx = C.Ctx()
    for c in range(r.deck.size):
        ctx.card = c
        assert f.empty.allows(ctx) == (r.deck.rank[c] == 0)


def test_rules_reading_more_than_cards_are_not_tabulated():
    emperor_take = load_ruleset("emperor").groups["tableau"].take
    assert emperor_take.pair_table is None and emperor_take.card_table is None
    busy_empty = load_ruleset("busy-aces").groups["tableau"].empty
    assert busy_empty.pair_table is None and busy_empty.card_table is None


def test_tabulated_custom_rule_agrees_with_evaluation(tmp_path):
    path = tmp_path / "custom.yaml"
    path.write_text(
        "extends: forty-thieves\n"
        "game: Custom\n"
        "piles:\n"
        "  tableau:\n"
        "    build:\n"
        "      - id: odd-sum\n"
        "        require: (card.value + top.value) % 2 == 1\n"
        "      - id: not-face\n"
        "        forbid: card.rank in [J, Q, K] or top.suit == clubs\n"
    )
    r = load_ruleset(path)
    build = r.groups["tableau"].build
    assert build.pair_table is not None
    deck = r.deck
    ctx = C.Ctx()
    for c in range(0, deck.size, 3):
        for t in range(0, deck.size, 5):
            ctx.card, ctx.top = c, t
            expected = (deck.value[c] + deck.value[t]) % 2 == 1 and not (
                deck.rank[c] >= 10 or deck.suits[deck.suit[t]].name == "clubs")
            assert build.allows(ctx) == expected


# -- sequence tests ---------------------------------------------------------------------------


@pytest.mark.parametrize("text, cards, expected", [
    ("descending(p.cards)", "KS QH JS", True),
    ("descending(p.cards)", "KS JS", False),
    ("ascending(p.cards)", "AH 2H 3H", True),
    ("same_suit(p.cards)", "KS QS JS", True),
    ("same_suit(p.cards)", "KS QH", False),
    ("alternating_colors(p.cards)", "KS QH JC 10D", True),
    ("alternating_colors(p.cards)", "KS QC", False),
    ("same_color(p.cards)", "KS QC JS", True),
    ("descending(p.cards) and same_suit(p.cards) and p.cards.size == ranks", "KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S AS", True),
])
def test_sequence_tests_read_a_list_of_cards_bottom_first(text, cards, expected):
    g = position({"t1": cards})
    assert ev(f"all(p in tableau: p.index != 1 or ({text}))", C.STATE_SCOPE, game=g) is expected


def test_a_sequence_test_needs_a_list_of_cards():
    with pytest.raises(KallistiError) as exc:
        ev("descending(card)", C.BUILD_SCOPE)
    assert exc.value.findings[0].code == "expr-type"
