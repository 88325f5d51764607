"""The ranges of the numbers win, lose and score read (kallisti.model.bounds), and the findings they prove: a win that
can never hold (`win-unreachable`), a lose condition that can never hold (`lose-never-true`) and a comparison that is
decided whatever the position (`constant-comparison`).

The analysis claims proofs: a finding on a sound ruleset is as much a bug as a missed one, so the cases that must not
be flagged matter as much as those that must.
"""

from __future__ import annotations

import itertools
import textwrap

import pytest
from typer.testing import CliRunner

from kallisti.catalogue import load_catalogue
from kallisti.cli.app import app
from kallisti.cli.play import run_session
from kallisti.errors import KallistiError, Pos
from kallisti.grammar.expressions import parse_expression
from kallisti.interpreter.amend import amend
from kallisti.interpreter.game import Game
from kallisti.model import bounds, spans
from kallisti.model.bounds import ALWAYS, MAYBE, NEVER, Ranges, Span
from kallisti.model.loader import shipped_games
from kallisti.model.ruleset import load_ruleset

BOUNDS_CODES = {"win-unreachable", "lose-never-true", "constant-comparison"}


def value(game: str, text: str):
    """What the analysis says of the expression `text`, in the shipped game's position."""
    return Ranges(load_ruleset(game)).analyse(parse_expression(text, Pos("<test>"))).value


def span_of(game: str, text: str) -> tuple:
    v = value(game, text)
    assert isinstance(v, Span), v
    return v.lo, v.hi


def write(tmp_path, text: str, name: str = "v.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def findings(tmp_path, text: str, name: str = "v.yaml") -> list:
    try:
        return load_ruleset(write(tmp_path, text, name)).findings
    except KallistiError as exc:
        return exc.findings


# -- sizes and counts ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("game, text, lo, hi", [
    ("forty-thieves", "foundation.size", 0, 104),  # every card can reach the foundations
    ("forty-thieves", "waste.size", 0, 104),
    ("forty-thieves", "stock.size", 0, 64),  # dealt 64, and no rule lets a card reach it
    ("discordian", "field.size", 0, 35),  # seven columns of five, and nothing goes back
    ("la-nivernaise", "aces.size", 0, 52),  # only the 52 cards of its suits' ranks from the ace up can land there
    ("la-nivernaise", "sum(p in aces: p.size)", 0, 52),
    ("la-nivernaise", "any(p in aces: p.size > 13)", None, None),
    ("forty-thieves", "foundation.count", 8, 8),
    ("forty-thieves", "deck.size", 104, 104),
    ("forty-thieves", "deck.packs", 2, 2),
    ("forty-thieves", "ranks", 13, 13),
    ("forty-thieves", "count(p in tableau: p.empty)", 0, 10),
    ("forty-thieves", "count(p in tableau: p.size <= deck.size)", 10, 10),
    ("forty-thieves", "count(p in tableau: p.size > deck.size)", 0, 0),
    ("forty-thieves", "sum(p in tableau: p.size)", 0, 104),
    ("forty-thieves", "sum(p in tableau: count(c in p.cards: c.rank == K))", 0, 104),
    ("forty-thieves", "sum(p in tableau: sum(c in p.cards: c.value))", 0, 10 * 104 * 13),  # sound, if not tight
    ("forty-thieves", "sum(x in [1, 2, 3]: x)", 3, 9),
    ("forty-thieves", "count(c in [1, 2, 3]: c > 1)", 0, 3),
])
def test_the_range_of_a_size_or_count(game, text, lo, hi):
    if lo is None:
        assert value(game, text) == NEVER  # each pile of aces holds at most the 13 ranks of one suit
    else:
        assert span_of(game, text) == (lo, hi)


def test_a_pile_of_a_group_is_bounded_as_its_group_is():
    assert span_of("forty-thieves", "sum(p in tableau: 0) + max(0, 0)") == (0, 0)
    assert value("forty-thieves", "any(p in tableau: p.size > deck.size)") == NEVER
    assert value("forty-thieves", "all(p in tableau: p.size <= deck.size)") == ALWAYS
    assert value("discordian", "any(p in field: p.size > 35)") == NEVER
    assert value("discordian", "any(p in field: p.size == 35)") == MAYBE


# -- arithmetic ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, lo, hi", [
    ("foundation.size + 1", 1, 105),
    ("deck.size - foundation.size", 0, 104),
    ("foundation.size - tableau.size", -104, 104),
    ("foundation.size + tableau.size", 0, 104),  # cards of two groups: no more than the deck together
    ("foundation.size + tableau.size + waste.size", 0, 104),
    ("foundation.size + foundation.size", 0, 208),  # the same cards twice
    ("2 * foundation.size", 0, 208),
    ("-foundation.size", -104, 0),
    ("foundation.size // 13", 0, 8),
    ("foundation.size // 0", 0, 0),  # division by zero gives 0
    ("foundation.size % 13", 0, 12),
    ("foundation.size % 200", 0, 104),
    ("abs(foundation.size - tableau.size)", 0, 104),
    ("min(foundation.size, 3)", 0, 3),
    ("max(foundation.size, 3)", 3, 104),
    ("stock.size * 1000000000 * 1000000000 * 9", 0, 10**18),  # a larger product fails instead of giving a value
])
def test_arithmetic_follows_the_ranges(text, lo, hi):
    assert span_of("forty-thieves", text) == (lo, hi)


SMALL = [(-3, -1), (-2, 2), (0, 0), (0, 3), (1, 4), (-5, 0), (2, 7)]


@pytest.mark.parametrize("op", ["arith_add", "arith_sub", "arith_mul", "arith_div", "arith_mod"])
def test_interval_arithmetic_covers_every_value_it_stands_for(op):
    rules = load_ruleset("forty-thieves")
    ranges = Ranges(rules)
    compute = {"arith_add": lambda x, y: x + y, "arith_sub": lambda x, y: x - y, "arith_mul": lambda x, y: x * y,
               "arith_div": lambda x, y: x // y if y else 0, "arith_mod": lambda x, y: x % y if y else 0}[op]
    for (alo, ahi), (blo, bhi) in itertools.product(SMALL, SMALL):
        result = getattr(ranges, "_sum") if op == "arith_add" else {
            "arith_sub": spans.sub, "arith_mul": spans.times, "arith_div": spans.divide,
            "arith_mod": spans.modulo}[op]
        got = result(Span(alo, ahi), Span(blo, bhi))
        for x, y in itertools.product(range(alo, ahi + 1), range(blo, bhi + 1)):
            assert got.lo <= compute(x, y) <= got.hi, (op, (alo, ahi), (blo, bhi), x, y, got)
    for lo, hi in SMALL:
        got = spans.absolute(Span(lo, hi))
        assert all(got.lo <= abs(x) <= got.hi for x in range(lo, hi + 1))
        assert (got.lo, got.hi) == (min(abs(x) for x in range(lo, hi + 1)), max(abs(x) for x in range(lo, hi + 1)))


def test_division_and_modulo_by_an_unbounded_divisor_stay_sound():
    inf = spans.INF
    assert spans.divide(Span(-5, 5), Span(1, inf)) == Span(-5, 5)
    assert spans.divide(Span(0, inf), Span(-inf, inf)).lo == -inf
    assert spans.modulo(Span(0, 10), Span(1, inf)) == Span(0, 10)


# -- comparisons and three-valued logic ---------------------------------------------------------------------------

@pytest.mark.parametrize("text, verdict", [
    ("foundation.size == deck.size", MAYBE),
    ("foundation.size == deck.size + 1", NEVER),
    ("foundation.size > deck.size", NEVER),
    ("foundation.size >= 0", ALWAYS),
    ("foundation.size <= deck.size", ALWAYS),
    ("foundation.size < 0", NEVER),
    ("foundation.size != deck.size + 1", ALWAYS),
    ("waste.size == 200", NEVER),
    ("stock.size == 65", NEVER),
    ("stock.size == 64", MAYBE),
    ("deck.size == 104", ALWAYS),
    ("foundation.size in [200, 300]", NEVER),
    ("foundation.size not in [200, 300]", ALWAYS),
    ("foundation.size in [0, 300]", MAYBE),
    ("foundation.count in [8]", ALWAYS),
    ("any(p in foundation: p.top.rank > K)", NEVER),
    ("any(p in foundation: p.top.rank == 10)", MAYBE),  # a number compared with a rank names that rank
    ("any(p in foundation: p.top.rank in [10, J])", MAYBE),
    ("any(p in foundation: p.top.value > 13)", NEVER),
    ("tableau.size == 0 and stock.size == 0", MAYBE),
    # nested and/or/not
    ("foundation.size > deck.size or waste.size >= 0", ALWAYS),
    ("foundation.size > deck.size and waste.size == 0", NEVER),
    ("waste.size == 0 and foundation.size >= 0", MAYBE),
    ("not (foundation.size > deck.size)", ALWAYS),
    ("not (waste.size == 0 or foundation.size > deck.size)", MAYBE),
    ("not (waste.size >= 0) or foundation.size > deck.size", NEVER),
    ("not (not (waste.size == 0) and stock.size < 0)", ALWAYS),
    ("(waste.size == 0 or stock.size == 0) and not (tableau.size >= 0)", NEVER),
    ("all(p in tableau: p.empty) or any(p in tableau: p.size > deck.size)", MAYBE),
    ("any(c in [1, 2]: c > 2)", NEVER),
    ("all(c in [1, 2]: c > 0)", ALWAYS),
    ("true and foundation.size >= 0", ALWAYS),
    ("hearts == spades", NEVER),
])
def test_comparisons_and_their_logic_always_never_or_maybe_hold(text, verdict):
    assert value("forty-thieves", text) == verdict


# -- findings: wins ------------------------------------------------------------------------------------------------

IMPOSSIBLE_WINS = ["foundation.size == deck.size + 1", "waste.size == 200", "foundation.size > deck.size"]


@pytest.mark.parametrize("win", IMPOSSIBLE_WINS)
def test_an_impossible_win_is_refused_by_validate_at_the_win(tmp_path, win):
    path = write(tmp_path, f"""
        extends: forty-thieves
        game: Never Won
        win: {win}
        """)
    for args in (["validate", str(path)], ["validate", "--strict", str(path)], ["check", str(path), "--deals", "1"]):
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 1, result.output
        assert f"v.yaml:3:6: error win-unreachable: the win `{win}` can never hold: " in result.output


def test_an_impossible_win_says_what_each_side_can_be(tmp_path):
    found = findings(tmp_path, """
        extends: forty-thieves
        game: Never Won
        win: foundation.size == deck.size + 1
        """)
    assert [(f.code, f.severity, f.message) for f in found] == [(
        "win-unreachable", "error", "the win `foundation.size == deck.size + 1` can never hold: foundation.size is at "
        "most 104 (the deck has 104 cards) and deck.size + 1 is 105")]
    found = findings(tmp_path, """
        extends: forty-thieves
        game: Never Won
        win: "foundation.size == deck.size and stock.size > 64"
        """)
    assert [f.message for f in found] == [
        "the win `foundation.size == deck.size and stock.size > 64` can never hold: stock.size is at most 64 (64 cards "
        "are dealt to stock and no rule lets a card reach it), so `stock.size > 64` never holds"]


@pytest.mark.parametrize("win", [
    "sum(p in foundation: p.size) > deck.size",
    "any(p in tableau: p.size > deck.size)",
    "foundation.size + tableau.size > deck.size",
    "not (foundation.size <= deck.size)",
    "2 * foundation.size > 2 * deck.size",
    "foundation.size - deck.size >= 1",
    "count(p in tableau: p.empty) > 10",
    "foundation.size == deck.size and (waste.size > deck.size or stock.size < 0)",
])
def test_impossible_wins_of_other_forms_are_refused(tmp_path, win):
    found = findings(tmp_path, f"""
        extends: forty-thieves
        game: Never Won
        win: "{win}"
        """)
    assert [(f.code, f.pos.line, f.pos.column) for f in found] == [("win-unreachable", 3, 7)]  # after the quote


def test_an_impossible_win_in_a_rules_file_is_refused_at_the_win(tmp_path):
    found = findings(tmp_path, """
        game: Never Won
        extends forty-thieves
        set win foundation.size > deck.size
        """, "v.rules")
    assert [(f.code, f.pos.line) for f in found] == [("win-unreachable", 3)]


def test_a_win_already_proved_unreachable_is_not_reported_twice(tmp_path):
    found = findings(tmp_path, """
        extends: forty-thieves
        game: Never Won
        win: deck.size == 0
        """)
    assert [f.code for f in found] == ["win-unreachable"]


@pytest.mark.parametrize("game, win", [
    ("forty-thieves", "foundation.size == deck.size"),
    ("forty-thieves", "tableau.size == 0 and stock.size == 0"),
    ("forty-thieves", "foundation.size == deck.size or waste.size == 1"),
    ("forty-thieves", "count(p in tableau: p.empty) == 10"),
    ("forty-thieves", "stock.size == 64"),
    ("house-on-the-hill", "deck.size == foundation.size + kings.size + 1"),  # one card may stay on the tableau
    ("la-nivernaise", "aces.size == 52"),
    ("discordian", "field.size == 0"),
    ("decade", "discard.size == deck.size"),
    ("decade", "discard.size == deck.size and line.size + stock.size == 0"),
])
def test_wins_that_can_hold_are_not_flagged(tmp_path, game, win):
    found = findings(tmp_path, f"""
        extends: {game}
        game: Won Somehow
        win: "{win}"
        """)
    assert [f for f in found if f.code in BOUNDS_CODES] == []


def test_the_shipped_rulesets_have_nothing_to_report():
    for name, path in shipped_games().items():
        rules = load_ruleset(path)
        assert bounds.bounds_findings(rules, lambda *p: Pos(str(path))) == [], name


def test_discordian_and_decade_rules_are_read_as_they_are():
    # Discordian: the field is dealt 35 cards and only loses them; Decade: everything ends on the discard.
    discordian = Ranges(load_ruleset("discordian"))
    assert discordian.groups["field"].most == 35
    decade = Ranges(load_ruleset("decade"))
    for text, verdict in (("field.size == 0", MAYBE),):
        assert discordian.analyse(parse_expression(text, Pos("<t>"))).value == verdict
    assert decade.analyse(parse_expression("discard.size == deck.size", Pos("<t>"))).value == MAYBE
    score = decade.analyse(parse_expression("line.size + stock.size", Pos("<t>"))).value
    assert (score.lo, score.hi) == (0, 52)


@pytest.mark.parametrize("entry", load_catalogue("discordian"), ids=lambda e: e.id)
def test_no_discordian_rule_change_is_flagged(entry):
    base = load_ruleset("discordian")
    changed = amend(base.data, entry.change, source=entry.id, trial=False).rules
    assert [f for f in changed.findings if f.code in BOUNDS_CODES] == []


# -- findings: rule changes in play ------------------------------------------------------------------------------

def test_an_impossible_win_made_in_play_is_a_warning():
    forty = load_ruleset("forty-thieves")
    changed = amend(forty.data, "set win foundation.size > deck.size", trial=False).rules
    assert [(f.code, f.severity) for f in changed.findings] == [("win-unreachable", "warning")]
    out: list[str] = []
    run_session(Game(forty, seed=1), ["rule set win foundation.size > deck.size", "q"], out.append)
    text = "\n".join(out)
    assert "rule changed, from the next move: set win foundation.size > deck.size" in text
    assert "the game can no longer be won: the win `foundation.size > deck.size` can never hold" in text


# -- findings: lose and score ---------------------------------------------------------------------------------------

def test_a_lose_condition_that_never_holds_is_a_warning_at_its_when(tmp_path):
    found = findings(tmp_path, """
        extends: discordian
        game: Crowded
        lose:
          - id: crowded
            when: field.size > 35
            says: more cards than were dealt
        """)
    assert [(f.code, f.severity, f.pos.line, f.pos.column, f.message) for f in found] == [(
        "lose-never-true", "warning", 5, 11, "the lose condition 'crowded' `field.size > 35` can never hold: field.size "
        "is at most 35 (35 cards are dealt to field and no rule lets a card reach it)")]


@pytest.mark.parametrize("when", ["field.size > 34", "field.size >= 35", "foundation.size > 1",
                                  "waste.size > 0 and not any(p in field: p.movable)"])
def test_lose_conditions_that_can_hold_are_not_flagged(tmp_path, when):
    found = findings(tmp_path, f"""
        extends: discordian
        game: Crowded
        lose:
          - id: crowded
            when: "{when.replace('waste', 'stock')}"
            says: lost
        """)
    assert [f for f in found if f.code in BOUNDS_CODES] == []


def test_the_octave_lose_condition_is_not_flagged():
    assert load_ruleset("octave").findings == []


@pytest.mark.parametrize("key, text, comparison, holds", [
    ("score", "foundation.size - count(p in tableau: p.size > 200)", "p.size > 200", "never"),
    ("score", "count(p in tableau: p.size >= 0)", "p.size >= 0", "always"),
    ("win", "foundation.size == deck.size and waste.size >= 0", "waste.size >= 0", "always"),
    ("win", "foundation.size == deck.size or waste.size > deck.size", "waste.size > deck.size", "never"),
])
def test_a_constant_comparison_in_a_score_or_a_win_is_a_warning_at_the_comparison(tmp_path, key, text, comparison,
                                                                                     holds):
    found = findings(tmp_path, f"""
        extends: forty-thieves
        game: Counting
        {key}: "{text}"
        """)
    column = len(f'{key}: "') + 1 + text.index(comparison)  # the line's column of the comparison's first character
    assert [(f.code, f.severity, f.pos.line, f.pos.column) for f in found] == [("constant-comparison", "warning", 3, column)]
    assert found[0].message.startswith(f"`{comparison}` in the {key} {holds} holds: ")


def test_a_win_or_lose_written_as_a_constant_on_purpose_is_not_a_constant_comparison(tmp_path):
    found = findings(tmp_path, """
        extends: forty-thieves
        game: Never Lost
        lose:
          - {id: never, when: "false", says: never}
        """)
    assert found == []
