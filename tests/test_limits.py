"""Every limit on untrusted input refuses the worst input we can build for it, counted in work (bytes read,
clauses compiled, patches applied, moves made, positions searched), never in wall-clock time; and the table of
limits in docs/security.md is the one kallisti.limits makes, naming every `MAX_*` constant of the package."""

from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from kallisti.errors import KallistiError, Pos
from kallisti.limits import LIMITS, table

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "kallisti"
SECURITY_MD = ROOT / "docs" / "security.md"


def refusal(fn, *args, **kwargs):
    """The one finding of the KallistiError that `fn(*args)` raises."""
    with pytest.raises(KallistiError) as caught:
        fn(*args, **kwargs)
    return caught.value.findings[0]


def load(tmp_path: Path, name: str, text: str):
    from kallisti.model.ruleset import load_ruleset

    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return load_ruleset(path)


def load_refusal(tmp_path: Path, name: str, text: str):
    return refusal(load, tmp_path, name, text)


# -- the table ------------------------------------------------------------------------------------------------

def max_constants() -> set[tuple[str, str]]:
    """(module, name) of every module-level `MAX_*` constant of the package."""
    found = set()
    for path in SRC.rglob("*.py"):
        module = ".".join(path.relative_to(SRC.parent).with_suffix("").parts).removesuffix(".__init__")
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
            found |= {(module, t.id) for t in targets if isinstance(t, ast.Name) and t.id.startswith("MAX_")}
    return found


def test_every_max_constant_is_listed_in_kallisti_limits():
    listed = {(limit.module, limit.name) for limit in LIMITS}
    assert sorted(max_constants() - listed) == []
    assert len(listed) == len(LIMITS), "a limit is listed twice"


def test_every_listed_limit_exists_and_is_a_positive_number():
    for limit in LIMITS:
        assert isinstance(limit.value, int) and limit.value > 0, limit


def test_every_code_a_limit_names_is_registered():
    import re

    from kallisti.codes import CODES

    for limit in LIMITS:
        for word in re.findall(r"`([a-z][a-z0-9-]+)`", limit.reached):
            assert word in CODES, f"{limit.name}: `{word}` is not a registered code"


def test_docs_security_holds_the_table_of_limits():
    text = SECURITY_MD.read_text(encoding="utf-8")
    start, end = text.index("<!-- limits:start -->\n"), text.index("<!-- limits:end -->")
    assert text[start + len("<!-- limits:start -->\n"):end] == table(), \
        "docs/security.md is stale: paste kallisti.limits.table() between the limits markers"


# -- reading files ---------------------------------------------------------------------------------------------

def test_a_file_over_its_limit_is_refused_after_reading_one_byte_more(tmp_path, monkeypatch):
    from kallisti.model.located import MAX_FILE_BYTES
    from kallisti.textfiles import read_text

    path = tmp_path / "huge.yaml"
    path.write_bytes(b"#" * (5 * MAX_FILE_BYTES))
    asked = []
    real_read = os.fdopen

    def counting_fdopen(*args, **kwargs):
        fh = real_read(*args, **kwargs)
        original = fh.read

        def read(n=-1):
            asked.append(n)
            return original(n)

        fh.read = read
        return fh

    monkeypatch.setattr(os, "fdopen", counting_fdopen)
    finding = refusal(read_text, path, MAX_FILE_BYTES, "the ruleset file", "file")
    assert finding.code == "file-too-large"
    assert asked == [MAX_FILE_BYTES + 1]  # never the whole file


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_device_is_refused_before_a_byte_is_read(device):
    from kallisti.textfiles import read_text

    if not Path(device).exists():
        pytest.skip(f"no {device} here")
    assert refusal(read_text, Path(device), 100, "the deal file", "deal").code == "deal-unreadable"


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    from kallisti.textfiles import read_text

    fifo = tmp_path / "pipe.deal"
    os.mkfifo(fifo)
    finding = refusal(read_text, fifo, 100, "the deal file", "deal")
    assert finding.code == "deal-unreadable" and "not a regular file" in finding.message


def test_yaml_nested_far_beyond_its_limit_stops_at_the_first_level_too_deep(tmp_path):
    from kallisti.model.located import MAX_DEPTH

    text = "game: Deep\nx: " + "[" * 400_000 + "]" * 400_000 + "\n"  # 800 KB: PyYAML alone would take hours
    finding = load_refusal(tmp_path, "deep.yaml", text)
    assert (finding.code, finding.pos.line) == ("yaml-depth", 2)
    assert finding.pos.column == 4 + MAX_DEPTH  # the first bracket too deep, not the last


def test_yaml_anchors_and_aliases_are_refused_before_any_is_expanded(tmp_path):
    laughs = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    laughs += [f"{n}: &{n} [{', '.join(['*' + p] * 9)}]" for p, n in zip("abcdefgh", "bcdefghi")]
    finding = load_refusal(tmp_path, "laughs.yaml", "game: Laughs\n" + "\n".join(laughs) + "\n")
    assert (finding.code, finding.pos.line, finding.pos.column) == ("yaml-alias", 2, 4)


@pytest.mark.parametrize("name, text, at", [
    ("long.yaml", "extends: forty-thieves\ngame: Long\ndeck: {packs: " + "9" * 100_000 + "}\n", (3, 15)),
    ("long.rules", "extends forty-thieves\ngame: Long\ndeck: " + "9" * 100_000 + " packs\n", (3, 7)),
    ("key.yaml", "extends: forty-thieves\ngame: Long\n" + "9" * 200 + ": x\n", (3, 1)),
])
def test_a_number_too_long_for_python_to_read_is_a_finding(tmp_path, name, text, at):
    finding = load_refusal(tmp_path, name, text)
    assert (finding.code, finding.pos.line, finding.pos.column) == ("number-too-long", *at)


def test_a_number_too_long_in_a_rule_change_is_a_finding():
    from kallisti.interpreter import amend

    assert refusal(amend.parse, "set piles.tableau.count " + "9" * 5000).code == "number-too-long"


# -- the ruleset -----------------------------------------------------------------------------------------------

def test_thousands_of_clauses_are_refused_before_one_is_compiled(tmp_path, monkeypatch):
    from kallisti.interpreter import compiler
    from kallisti.model.ruleset import MAX_CLAUSES

    compiled = []
    real = compiler.Compiler.compile
    monkeypatch.setattr(compiler.Compiler, "compile", lambda self, *a, **k: compiled.append(1) or real(self, *a, **k))
    clauses = "".join(f"      - {{id: c{i}, require: card.rank != top.rank}}\n" for i in range(20 * MAX_CLAUSES))
    text = f"game: Clauses\npiles:\n  tableau:\n    deal: rest\n    build:\n{clauses}win: tableau.empty\n"
    finding = load_refusal(tmp_path, "clauses.yaml", text)
    assert (finding.code, finding.pos.line) == ("too-many-clauses", 2)
    assert compiled == []


def test_a_file_of_too_many_changes_is_refused_before_one_is_applied(tmp_path, monkeypatch):
    from kallisti.model import loader
    from kallisti.schema import MAX_FILE_CHANGES

    applied = []
    real = loader.apply_patch
    monkeypatch.setattr(loader, "apply_patch", lambda *a, **k: applied.append(1) or real(*a, **k))
    changes = "".join(f"  - {{forbid: piles.tableau.build, id: c{i}, expr: card.rank == top.rank}}\n"
                      for i in range(40 * MAX_FILE_CHANGES))
    finding = load_refusal(tmp_path, "changes.yaml", f"extends: forty-thieves\ngame: Changes\nchanges:\n{changes}")
    assert finding.code == "schema" and f"at most {MAX_FILE_CHANGES}" in finding.message
    assert len(finding.message) < 200  # the limit in numbers, not the whole list
    assert applied == []


def test_the_most_piles_the_schema_allows_is_refused_before_any_rule_is_compiled(tmp_path, monkeypatch):
    from kallisti.interpreter import compiler
    from kallisti.model.ruleset import MAX_PILES

    compiled = []
    real = compiler.Compiler.compile
    monkeypatch.setattr(compiler.Compiler, "compile", lambda self, *a, **k: compiled.append(1) or real(self, *a, **k))
    groups = "".join(f"  g{i}: {{count: 200}}\n" for i in range(40))
    finding = load_refusal(tmp_path, "piles.yaml", f"game: Piles\npiles:\n{groups}win: g0.empty\n")
    assert finding.code == "too-many-piles" and f"8000 piles; at most {MAX_PILES}" in finding.message
    assert compiled == []


def test_an_extends_chain_is_cut_at_its_limit(tmp_path):
    from kallisti.model.loader import MAX_EXTENDS_DEPTH

    for i in range(3 * MAX_EXTENDS_DEPTH):
        parent = "forty-thieves" if i == 0 else f"./v{i - 1}.yaml"
        (tmp_path / f"v{i}.yaml").write_text(f"extends: {parent}\ngame: V{i}\n", encoding="utf-8")
    finding = refusal(load, tmp_path, f"v{3 * MAX_EXTENDS_DEPTH - 1}.yaml",
                      (tmp_path / f"v{3 * MAX_EXTENDS_DEPTH - 1}.yaml").read_text())
    assert finding.code == "extends-depth"


@pytest.mark.parametrize("values, where", [
    ("{A: 1001}", "1001 is greater than the maximum of 1000"),
    ("{A: -1001}", "-1001 is less than the minimum of -1000"),
    ("{A: [1, 2, 3, 4, 5, 6, 7, 8, 9]}", "9 items; at most 8"),
])
def test_card_values_and_their_alternatives_are_bounded(tmp_path, values, where):
    finding = load_refusal(tmp_path, "values.yaml", f"extends: forty-thieves\ngame: Values\ndeck: {{values: {values}}}\n")
    assert finding.code == "schema" and where in finding.message


# -- expressions -----------------------------------------------------------------------------------------------

def parse(text):
    from kallisti.grammar.expressions import parse_expression

    return parse_expression(text, Pos("<test>", 1, 1))


def test_an_expression_one_character_too_long_is_refused():
    from kallisti.grammar.expressions import MAX_EXPRESSION_CHARS

    parse("a" * MAX_EXPRESSION_CHARS)  # one long name: within the limit, however long
    assert refusal(parse, "a" * (MAX_EXPRESSION_CHARS + 1)).code == "expr-too-long"


@pytest.mark.parametrize("text", ["-" * 1999 + "1", "not " * 499 + "true", "[" * 900 + "]" * 900,
                                  "a" + ".b" * 999, "abs(" * 399 + "1" + ")" * 399])
def test_an_expression_nested_as_deep_as_its_length_allows_is_refused_without_recursion_error(text):
    assert refusal(parse, text).code == "expr-too-deep"


def test_three_quantifiers_nested_over_cards_are_refused_two_are_not():
    from kallisti.grammar.expressions import MAX_QUANTIFIER_STEPS, quantifier_steps

    two = "count(a in cards: count(b in cards: a == b) > 1)"
    three = "count(a in cards: count(b in cards: count(c in cards: a == c) > 0) > 1)"
    assert quantifier_steps(parse(two)) <= MAX_QUANTIFIER_STEPS
    finding = refusal(parse, three)
    assert finding.code == "expr-too-costly" and finding.suggestion
    # A third quantifier over a short written list costs only its length.
    listed = "any(f in [clubs, spades]: count(a in cards: count(b in cards: a == b) > 1))"
    assert quantifier_steps(parse(listed)) <= MAX_QUANTIFIER_STEPS


def test_the_worst_sum_of_products_an_expression_can_write_stays_small_and_a_product_beyond_is_refused():
    """No power, no repetition: literals are at most 10^9 and every product is checked, so the largest number an
    expression of MAX_EXPRESSION_CHARS can compute has a few dozen digits; one product more is refused."""
    from kallisti.grammar.expressions import MAX_EXPRESSION_CHARS, MAX_INT_LITERAL
    from kallisti.interpreter import compiler as C
    from kallisti.model.ruleset import load_ruleset

    rules = load_ruleset("forty-thieves")
    product = f"{MAX_INT_LITERAL} * {MAX_INT_LITERAL}"
    text = " + ".join([product] * (MAX_EXPRESSION_CHARS // (len(product) + 3)))
    value = rules.compiler.compile(text, Pos("<test>", 1, 1), C.STATE_SCOPE, C.INT).fn(C.Ctx())
    assert 0 < value < MAX_EXPRESSION_CHARS * C.MAX_INT_RESULT
    over = rules.compiler.compile(f"({text}) * 2", Pos("<test>", 1, 1), C.STATE_SCOPE, C.INT)
    with pytest.raises(C.RuleRuntimeError):
        over.fn(C.Ctx())


def test_a_rule_whose_product_overflows_for_some_card_is_refused_at_load(tmp_path):
    text = ("extends: forty-thieves\ngame: Overflow\npiles:\n  tableau:\n    build: [{id: huge, require: "
            "\"card.value * 999999999 * 999999999 * 999999999 > 0\"}]\n")
    finding = load_refusal(tmp_path, "overflow.yaml", text)
    assert (finding.code, finding.pos.line) == ("rule-error", 5)


def test_totals_of_a_pile_is_bounded():
    from kallisti.interpreter import compiler as C

    assert hasattr(C, "MAX_TOTALS")
    deck = type("Deck", (), {"values": [tuple(range(0, 1000, 1 + i)) for i in range(60)]})()
    totals, _ = C._totals(deck)
    with pytest.raises(C.RuleRuntimeError):
        totals(list(range(60)))


# -- play ------------------------------------------------------------------------------------------------------

def test_automatic_moves_that_loop_forever_stop_at_their_cap(tmp_path):
    from kallisti.interpreter.game import MAX_AUTO_MOVES, Game

    rules = load(tmp_path, "loop.yaml", "game: Loop\npiles:\n  tableau: {count: 2, deal: [up], build: any, empty: any}\n"
                 "  stock: {deal: rest}\nauto:\n  - {id: there, from: tableau, to: tableau, when: \"true\"}\n"
                 "win: stock.empty and tableau.empty\n")
    game = Game(rules, seed=1)
    assert len(game.play_auto()) == MAX_AUTO_MOVES


def test_a_game_that_never_ends_is_capped_in_moves(tmp_path):
    from kallisti.solver.simulate import play_deal

    rules = load(tmp_path, "endless.yaml", "game: Endless\npiles:\n  tableau: {count: 2, deal: [up], build: any, empty: any}\n"
                 "  stock: {deal: rest}\nwin: stock.empty and tableau.empty\n")
    outcome = play_deal(rules, seed=1, strategy="random", cap=300)
    assert (outcome.outcome, outcome.moves) == ("capped", 300)


def test_a_player_with_the_most_changes_in_force_is_refused_another(monkeypatch):
    from kallisti.interpreter import match as M
    from kallisti.model.ruleset import load_ruleset

    match = M.Match(load_ruleset("discordian"), [M.Seat("ann"), M.Seat("bob")], seed=1)
    # Changes in force are counted, not tried: stand-ins are enough to fill the log.
    target = match.current
    standing = [M.Change(f"c{i + 1}", 1 - target, target, 0, "set score 0", {}) for i in range(M.MAX_ACTIVE_CHANGES)]
    monkeypatch.setattr(match, "changes", standing)
    monkeypatch.setattr(match, "_expect", lambda seat, what: None)
    monkeypatch.setattr(match, "x_actions", 0)
    finding = refusal(match.check_change, 1 - target, "set field.count 5")
    assert finding.code == "change-too-many" and finding.suggestion == "revoke one of them first"


def test_the_solver_stops_at_its_budget_of_positions():
    from kallisti.model.ruleset import load_ruleset
    from kallisti.solver.solve import SearchOptions, solve

    solution = solve(load_ruleset("forty-thieves"), seed=5, options=SearchOptions(states=50))
    assert solution.verdict == "unknown" and solution.stopped_by == "states"
    assert solution.states <= 50 + 1
