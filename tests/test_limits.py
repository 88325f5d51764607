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


# -- every limit has a test ------------------------------------------------------------------------------------

# The test that drives each limit of kallisti.limits.LIMITS with the worst input it can build, by (module, constant):
# a test of this file, or one elsewhere that already does (a parametrized test by its function's name).
LIMIT_TESTS: dict[tuple[str, str], str] = {
    # Reading files
    ("kallisti.textfiles", "MAX_FILE_BYTES"):
        "tests/test_limits.py::test_a_file_over_its_limit_is_refused_after_reading_one_byte_more",
    ("kallisti.cli.play", "MAX_DEAL_BYTES"): "tests/test_limits.py::test_a_deal_file_one_byte_over_its_limit_is_refused",
    ("kallisti.cli.command_lines", "MAX_COMMAND_CHARS"):
        "tests/test_security.py::test_a_piped_line_over_the_command_limit_is_refused_and_play_goes_on",
    ("kallisti.interpreter.save", "MAX_SAVE_BYTES"): "tests/test_limits.py::test_a_save_one_byte_over_its_limit_is_refused",
    ("kallisti.interpreter.save_log", "MAX_SAVE_EVENTS"): "tests/hostile/test_security_saves.py::"
        "test_a_save_holding_more_events_than_its_limit_is_refused_before_any_is_replayed",
    ("kallisti.interpreter.save_log", "MAX_SAVE_CHANGES"): "tests/hostile/test_security_saves.py::"
        "test_a_match_save_holding_more_rule_changes_than_its_limit_is_refused",
    ("kallisti.catalogue", "MAX_CATALOGUE_BYTES"):
        "tests/test_limits.py::test_a_catalogue_one_byte_over_its_limit_is_refused",
    ("kallisti.located", "MAX_DEPTH"):
        "tests/test_limits.py::test_yaml_nested_far_beyond_its_limit_stops_at_the_first_level_too_deep",
    ("kallisti.located", "MAX_LIST_ITEMS"):
        "tests/hostile/test_security_bounds.py::test_a_list_of_the_most_items_is_read_and_one_more_is_refused_at_it",
    ("kallisti.located", "MAX_MAP_KEYS"):
        "tests/hostile/test_security_bounds.py::test_a_map_of_the_most_keys_is_read_and_one_more_is_refused_at_it",
    ("kallisti.located", "MAX_NODES"):
        "tests/hostile/test_security_bounds.py::test_a_file_of_more_values_than_the_most_is_refused_at_the_value_too_many",
    ("kallisti.located", "MAX_FINDINGS"):
        "tests/hostile/test_security_bounds.py::test_schema_errors_past_the_cap_are_one_line_saying_how_many",
    ("kallisti.model.rule_tables", "MAX_TABLE_BYTES"):
        "tests/hostile/test_security_bounds.py::test_the_shared_rule_tables_stay_within_their_bytes_with_the_largest_deck",
    ("kallisti.model.amended", "MAX_CACHED_BYTES"):
        "tests/hostile/test_security_bounds.py::test_the_shared_rule_tables_stay_within_their_bytes_with_the_largest_deck",
    ("kallisti.errors", "MAX_EXCERPT"): "tests/hostile/test_security_bounds.py::test_validate_says_so_in_a_few_short_lines",
    ("kallisti.located", "MAX_NUMBER_DIGITS"):
        "tests/test_limits.py::test_a_number_one_digit_longer_than_its_limit_is_refused_wherever_it_is_written",
    # The ruleset
    ("kallisti.model.loader", "MAX_EXTENDS_DEPTH"): "tests/test_limits.py::test_an_extends_chain_is_cut_at_its_limit",
    ("kallisti.schema", "MAX_FILE_CHANGES"):
        "tests/test_limits.py::test_a_file_of_too_many_changes_is_refused_before_one_is_applied",
    ("kallisti.model.ruleset", "MAX_PILES"):
        "tests/test_limits.py::test_the_most_piles_the_schema_allows_is_refused_before_any_rule_is_compiled",
    ("kallisti.model.loader", "MAX_CLAUSES"):
        "tests/test_limits.py::test_thousands_of_clauses_are_refused_before_one_is_compiled",
    ("kallisti.schema", "MAX_CARD_VALUE"): "tests/test_limits.py::test_card_values_and_their_alternatives_are_bounded",
    ("kallisti.schema", "MAX_DEAL_ROWS"): "tests/test_limits.py::test_a_deal_of_more_rows_than_its_limit_is_refused_before_they_are_made",
    ("kallisti.schema", "MAX_VALUE_CHOICES"): "tests/test_limits.py::test_card_values_and_their_alternatives_are_bounded",
    # Expressions
    ("kallisti.grammar.expressions", "MAX_EXPRESSION_CHARS"):
        "tests/test_limits.py::test_an_expression_one_character_too_long_is_refused",
    ("kallisti.grammar.expressions", "MAX_EXPRESSION_DEPTH"): "tests/test_expressions.py::test_expression_too_deep_is_refused",
    ("kallisti.grammar.expressions", "MAX_INT_LITERAL"): "tests/test_expressions.py::test_number_literal_too_large_is_refused",
    ("kallisti.grammar.expressions", "MAX_QUANTIFIED_ITEMS"):
        "tests/test_limits.py::test_a_quantifier_counts_as_going_through_the_most_cards_a_deck_may_have",
    ("kallisti.grammar.expressions", "MAX_QUANTIFIER_STEPS"):
        "tests/test_limits.py::test_three_quantifiers_nested_over_cards_are_refused_two_are_not",
    ("kallisti.interpreter.compiler", "MAX_EVALUATION_STEPS"):
        "tests/hostile/test_security_cost.py::test_four_nested_counts_are_refused_where_the_outer_count_is",
    ("kallisti.interpreter.compiler", "MAX_LOAD_STEPS"):
        "tests/hostile/test_security_cost.py::test_a_clause_read_for_every_pair_of_cards_is_bounded_by_its_table",
    ("kallisti.interpreter.history", "MAX_HISTORY_MOVES"):
        "tests/test_move_history.py::test_moves_holds_the_last_thousand_moves_and_last_move_stays_exact",
    ("kallisti.interpreter.compiler", "MAX_POSITION_STEPS"):
        "tests/hostile/test_security_cost.py::test_a_clause_that_reads_the_position_is_bounded_by_the_moves_it_judges",
    ("kallisti.interpreter.compiler", "MAX_INT_RESULT"):
        "tests/test_limits.py::test_the_worst_sum_of_products_an_expression_can_write_stays_small_and_a_product_beyond_is_refused",
    ("kallisti.grammar.expressions", "MAX_TOTALS"): "tests/test_limits.py::test_totals_of_a_pile_is_bounded",
    # Play
    ("kallisti.interpreter.game", "MAX_AUTO_MOVES"): "tests/test_limits.py::test_automatic_moves_that_loop_forever_stop_at_their_cap",
    ("kallisti.interpreter.match", "TURN_MOVE_CAP"): "tests/test_limits.py::test_a_turn_of_a_match_that_never_ends_stops_at_its_cap",
    ("kallisti.interpreter.match", "MAX_ACTIVE_CHANGES"):
        "tests/test_limits.py::test_a_player_with_the_most_changes_in_force_is_refused_another",
    ("kallisti.interpreter.amend", "TRIAL_CAP"):
        "tests/test_limits.py::test_a_rule_change_whose_trial_deals_never_end_is_refused_at_the_trial_cap",
    ("kallisti.solver.autoplay", "MAX_FOLLOWING"): "tests/test_limits.py::test_autoplay_after_one_move_stops_at_its_cap",
    ("kallisti.solver.playerx", "MAX_CHECKS"):
        "tests/test_limits.py::test_a_player_x_bot_checks_at_most_its_limit_of_changes_for_one_decision",
    ("kallisti.solver.playerx", "MAX_VALUES_AFTER"):
        "tests/test_limits.py::test_the_player_x_bots_memory_of_setting_values_is_bounded",
    ("kallisti.solver.bots", "MAX_BOT_ACTIONS"): "tests/test_limits.py::test_bots_that_would_act_forever_stop_at_their_limit",
    ("kallisti.solver.simulate", "DEFAULT_CAP"):
        "tests/test_limits.py::test_a_simulated_or_checked_game_that_never_ends_is_capped_at_the_default_cap",
    ("kallisti.interpreter.hands", "MAX_STAND_INS"):
        "tests/test_hands_cards.py::test_eight_wild_eights_are_judged_within_a_bounded_number_of_tries",
    # Search
    ("kallisti.solver.depth_first", "DEFAULT_STATES"): "tests/test_limits.py::test_the_solver_stops_at_its_budget_of_positions",
    ("kallisti.solver.depth_first", "MAX_TABLE"): "tests/test_limits.py::test_the_solver_stops_when_its_table_of_positions_is_full",
    ("kallisti.solver.strategies", "HINT_STATES"):
        "tests/test_limits.py::test_a_hint_searches_at_most_its_budget_then_the_greedy_measure_answers",
    ("kallisti.solver.search", "DEFAULT_BUDGET"):
        "tests/test_limits.py::test_the_search_bot_weighs_at_most_its_budget_of_positions_for_one_decision",
    ("kallisti.interpreter.expr_cost", "MAX_CASES"):
        "tests/test_limits.py::test_a_clause_with_more_cases_than_the_limit_is_not_judged",
    # Caches
    ("kallisti.grammar.expressions", "MAX_PARSED"): "tests/test_limits.py::test_the_cache_of_parsed_expressions_is_bounded",
    ("kallisti.model.rule_tables", "MAX_TABLES"): "tests/test_limits.py::test_the_cache_of_rule_tables_is_bounded",
    ("kallisti.interpreter.shared_compiled", "MAX_SHARED_EXPRESSIONS"):
        "tests/test_limits.py::test_the_compiled_expressions_shared_between_rulesets_are_bounded",
    ("kallisti.model.amended", "MAX_CACHED"): "tests/test_limits.py::test_the_cache_of_compiled_rule_changes_is_bounded",
    ("kallisti.interpreter.table", "MAX_EVALUATORS"): "tests/test_limits.py::test_the_cache_of_hand_evaluators_is_bounded",
    ("kallisti.interpreter.hands", "MAX_MEMO"): "tests/test_limits.py::test_the_condition_answers_of_a_grouping_are_bounded",
    ("kallisti.interpreter.hands", "MAX_JUDGES"): "tests/test_limits.py::test_the_shared_groupings_are_bounded",
    ("kallisti.interpreter.hands", "MAX_RECENT"): "tests/test_limits.py::test_the_hands_an_evaluator_remembers_are_bounded",
    ("kallisti.solver.search", "MAX_RUNS_KEPT"): "tests/test_bots_decisions_caches.py::"
        "test_the_search_bot_forgets_the_runs_it_found_past_its_bound_and_plays_the_same",
    ("kallisti.interpreter.kept_verdicts", "MAX_RUNS_MEMO"): "tests/test_listing_shortcuts.py::"
        "test_the_runs_kept_by_a_piles_cards_are_bounded_and_forgetting_them_changes_no_move",
    ("kallisti.interpreter.rng", "MAX_REPLAYED_STREAMS"): "tests/test_rng.py::"
        "test_replayed_streams_answer_as_a_fresh_rng_within_their_bounds",
    ("kallisti.interpreter.rng", "MAX_REPLAYED_DRAWS"): "tests/test_rng.py::"
        "test_replayed_streams_answer_as_a_fresh_rng_within_their_bounds",
    ("kallisti.solver.search", "MAX_SHUFFLED_TOTALS"): "tests/test_bots_decisions_caches.py::"
        "test_shuffled_deals_scores_are_forgotten_past_their_bound_and_measured_again_alike",
    ("kallisti.solver.playerx", "MAX_MEASURES"): "tests/test_bots_decisions_caches.py::"
        "test_measures_are_forgotten_past_their_bound_and_measured_again_alike",
    ("kallisti.model.clean_loads", "MAX_KEPT"): "tests/test_clean_loads.py::test_the_record_keeps_the_newest_hashes",
    ("kallisti.cli.games", "MAX_HEADINGS"): "tests/test_startup.py::test_the_headings_record_keeps_the_newest",
    ("kallisti.model.clause_checks", "MAX_MEMO"): "tests/test_limits.py::test_the_cache_of_clause_check_outcomes_is_bounded",
    # Display
    ("kallisti.model.diff", "MAX_SHOWN"): "tests/test_limits.py::test_a_long_value_in_a_diff_line_is_cut",
    ("kallisti.cli.new", "MAX_TEXT"): "tests/test_limits.py::test_a_long_string_listed_by_new_is_cut",
    ("kallisti.cli.play", "MAX_SEED"):
        "tests/test_limits.py::test_a_fresh_deal_number_is_at_most_max_seed_and_new_takes_no_more_digits",
    ("kallisti.solver.beam", "MAX_PILE_CACHE"): "tests/test_limits.py::test_the_beam_search_s_cache_of_pile_values_is_bounded",
    ("kallisti.web.api", "MAX_SESSIONS"): "tests/test_web_api.py::test_the_oldest_sessions_make_room_for_new_ones",
    ("kallisti.web.api", "MAX_BODY_BYTES"): "tests/test_web_api.py::test_an_oversized_body_is_refused_before_it_is_read_whole",
    ("kallisti.web.api", "MAX_SAVED_SESSIONS"):
        "tests/test_web_hardening.py::test_when_no_game_can_be_saved_a_new_one_is_refused_and_none_is_lost",
    ("kallisti.web.guard", "MAX_HEADER_BYTES"):
        "tests/test_web_hardening.py::test_headers_over_the_limit_are_refused_whole_or_while_they_arrive",
}


def test_every_limit_has_a_test_and_every_registered_test_is_a_limit():
    listed = {(limit.module, limit.name) for limit in LIMITS}
    assert sorted(listed - LIMIT_TESTS.keys()) == [], "a limit of kallisti.limits has no test in LIMIT_TESTS"
    assert sorted(LIMIT_TESTS.keys() - listed) == [], "LIMIT_TESTS names a limit kallisti.limits no longer lists"


def test_every_registered_test_exists():
    tests: dict[str, set[str]] = {}  # file -> the names of its top-level test functions
    missing = []
    for key, node in sorted(LIMIT_TESTS.items()):
        path, _, name = node.partition("::")
        assert path.startswith("tests/") and Path(path).name.startswith("test_") and name.startswith("test_") \
            and "[" not in name, node
        if path not in tests:
            tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
            tests[path] = {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")}
        if name not in tests[path]:
            missing.append(f"{key}: {node}")
    assert missing == []


# -- reading files ---------------------------------------------------------------------------------------------

def test_a_file_over_its_limit_is_refused_after_reading_one_byte_more(tmp_path, monkeypatch):
    from kallisti.textfiles import MAX_FILE_BYTES
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
    from kallisti.located import MAX_DEPTH

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


def padded(text: str, size: int, pad: str) -> str:
    """`text` with `pad` characters added at its end to make it `size` bytes of UTF-8."""
    short = size - len(text.encode("utf-8"))
    assert short >= 0
    return text + pad * short


def test_a_deal_file_one_byte_over_its_limit_is_refused(tmp_path):
    from typer.testing import CliRunner

    from kallisti.cli.app import app
    from kallisti.cli.play import MAX_DEAL_BYTES, read_deal_file
    from kallisti.model.ruleset import load_ruleset

    deck = load_ruleset("forty-thieves").deck
    deal = (ROOT / "examples" / "forty-thieves-win.deal").read_text(encoding="utf-8").rstrip("\n") + "\n#"
    at_limit, over = tmp_path / "at-limit.deal", tmp_path / "over.deal"
    at_limit.write_text(padded(deal, MAX_DEAL_BYTES, "#"), encoding="utf-8")
    over.write_text(padded(deal, MAX_DEAL_BYTES + 1, "#"), encoding="utf-8")
    assert len(read_deal_file(deck, at_limit)) == deck.size  # a comment to the last byte allowed: the deal is read
    finding = refusal(read_deal_file, deck, over)
    assert (finding.code, finding.message) == ("deal-too-large", f"the deal file is larger than {MAX_DEAL_BYTES} bytes")
    result = CliRunner().invoke(app, ["play", "forty-thieves", "--deal", str(over)], input="q\n")
    assert result.exit_code == 1 and "error deal-too-large: the deal file is larger than" in result.output


def test_a_save_one_byte_over_its_limit_is_refused(tmp_path):
    from kallisti.interpreter.game import Game
    from kallisti.interpreter.save import MAX_SAVE_BYTES, load_game, save_game
    from kallisti.model.ruleset import load_ruleset

    game = Game(load_ruleset("forty-thieves"), seed=3)
    path = tmp_path / "game.save"
    save_game(game, path)
    text = path.read_text(encoding="utf-8")
    path.write_text(padded(text, MAX_SAVE_BYTES, " "), encoding="utf-8")  # JSON allows the spaces: still the save
    assert load_game(path).state.key() == game.state.key()
    path.write_text(padded(text, MAX_SAVE_BYTES + 1, " "), encoding="utf-8")
    finding = refusal(load_game, path)
    assert (finding.code, finding.message) == ("save-too-large", f"the save is larger than {MAX_SAVE_BYTES} bytes")


def test_a_catalogue_one_byte_over_its_limit_is_refused(tmp_path, monkeypatch):
    from kallisti import catalogue

    shipped = (catalogue.CATALOGUES / "discordian.yaml").read_text(encoding="utf-8")
    text = shipped.replace("game: discordian\n", "game: padded\n", 1) + "\n#"
    monkeypatch.setattr(catalogue, "CATALOGUES", tmp_path)
    try:
        (tmp_path / "padded.yaml").write_text(padded(text, catalogue.MAX_CATALOGUE_BYTES, "#"), encoding="utf-8")
        assert len(catalogue.load_catalogue("padded")) == len(catalogue.read_catalogue(shipped, "<shipped>", "discordian"))
        catalogue.load_catalogue.cache_clear()
        (tmp_path / "padded.yaml").write_text(padded(text, catalogue.MAX_CATALOGUE_BYTES + 1, "#"), encoding="utf-8")
        finding = refusal(catalogue.load_catalogue, "padded")
    finally:
        catalogue.load_catalogue.cache_clear()  # keep no catalogue of this folder for other tests
    assert (finding.code, finding.message) == \
        ("catalogue-too-large", f"the catalogue is larger than {catalogue.MAX_CATALOGUE_BYTES} bytes")


def test_rules_values_and_blocks_nested_far_beyond_the_limit_are_too_deep(tmp_path):
    from kallisti.located import MAX_DEPTH

    deep = 50 * MAX_DEPTH
    text = "extends forty-thieves\ngame: Deep\nset deck.marks.x " + "[" * deep + "]" * deep + "\n"
    finding = load_refusal(tmp_path, "deep.rules", text)
    assert (finding.code, finding.pos.line) == ("too-deep", 3)
    assert finding.message == f"values nested deeper than {MAX_DEPTH} levels"
    blocks = "".join(" " * i + "add:\n" for i in range(25 * MAX_DEPTH))  # 500 KB: deeper would be too large
    finding = load_refusal(tmp_path, "blocks.rules", "extends forty-thieves\ngame: Deep\n" + blocks)
    assert (finding.code, finding.pos.line, finding.pos.column) == ("too-deep", 3 + MAX_DEPTH, 1 + MAX_DEPTH)
    assert finding.message == f"lines indented under each other more than {MAX_DEPTH} levels deep"


def test_a_number_one_digit_longer_than_its_limit_is_refused_wherever_it_is_written():
    from kallisti.grammar.rules_front import parse_rules
    from kallisti.interpreter import amend
    from kallisti.located import MAX_NUMBER_DIGITS, load_yaml

    longest, over = "9" * MAX_NUMBER_DIGITS, "9" * (MAX_NUMBER_DIGITS + 1)
    message = f"a number written with more than {MAX_NUMBER_DIGITS} digits"
    assert load_yaml(f"x: {longest}\n", "<test>")["x"] == int(longest)
    assert parse_rules(f"game: Long\ndeck: {longest} packs\n")["deck"]["packs"] == int(longest)
    amend.parse(f"set piles.tableau.count {longest}")
    for fn, text in [(lambda text: load_yaml(text, "<test>"), f"x: {over}\n"),
                     (parse_rules, f"game: Long\ndeck: {over} packs\n"),
                     (amend.parse, f"set piles.tableau.count {over}")]:
        finding = refusal(fn, text)
        assert (finding.code, finding.message) == ("number-too-long", message), text[:20]


# -- the ruleset -----------------------------------------------------------------------------------------------

def test_thousands_of_clauses_are_refused_before_one_is_compiled(tmp_path, monkeypatch):
    from kallisti.interpreter import compiler
    from kallisti.model.loader import MAX_CLAUSES

    compiled = []
    real = compiler.Compiler.compile
    monkeypatch.setattr(compiler.Compiler, "compile", lambda self, *a, **k: compiled.append(1) or real(self, *a, **k))
    clauses = "".join(f"      - {{id: c{i}, require: card.rank != top.rank}}\n" for i in range(100))  # a rule's most
    # 4 * MAX_CLAUSES in all: far more would pass the values a file may hold (MAX_NODES), refused while it is read
    groups = "".join(f"  g{g}:\n    build:\n{clauses}" for g in range(4 * MAX_CLAUSES // 100))
    text = f"game: Clauses\npiles:\n{groups}win: g0.empty\n"
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
                      for i in range(5 * MAX_FILE_CHANGES))  # more than 1,000 are refused while the file is read
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


def test_a_deal_of_more_rows_than_its_limit_is_refused_before_they_are_made(tmp_path):
    from kallisti.schema import MAX_DEAL_ROWS

    def rows(name: str, text: str):
        return load_refusal(tmp_path, name, "extends forty-thieves\ngame: Rows\ntableau: " + text + "\n")

    # At the limit the schema lets the deal through: the deck is what then runs short.
    assert rows("at-limit.rules", f"deal {MAX_DEAL_ROWS} face up").code == "deal-too-large"
    for text, column in [(f"deal {MAX_DEAL_ROWS + 1} face up", 15),
                         (f"deal {MAX_DEAL_ROWS // 2} face down, {MAX_DEAL_ROWS // 2 + 1} face up", 29)]:
        finding = rows("over.rules", text)
        assert (finding.code, finding.pos.line, finding.pos.column) == ("schema", 3, column)
        assert finding.message == f"a deal of {MAX_DEAL_ROWS + 1} rows; at most {MAX_DEAL_ROWS}"
    huge = "9" * 100  # as many rows as the longest number says: refused before a row is made
    finding = rows("huge.rules", f"deal {huge} face up")
    assert (finding.code, finding.message) == ("schema", f"a deal of {huge} rows; at most {MAX_DEAL_ROWS}")
    up = ", ".join(["up"] * (MAX_DEAL_ROWS + 1))
    finding = load_refusal(tmp_path, "over.yaml", f"extends: forty-thieves\ngame: Rows\npiles:\n  tableau: {{deal: [{up}]}}\n")
    assert (finding.code, finding.pos.line) == ("schema", 4)
    assert f"piles.tableau.deal: {MAX_DEAL_ROWS + 1} items; at most {MAX_DEAL_ROWS}" in finding.message


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


def test_a_quantifier_counts_as_going_through_the_most_cards_a_deck_may_have(tmp_path):
    from kallisti.grammar.expressions import MAX_QUANTIFIED_ITEMS as ITEMS, MAX_QUANTIFIER_STEPS, quantifier_steps
    from kallisti.interpreter.cards import Deck
    from kallisti.model.ruleset import MAX_PILES

    # The largest deck the schema allows (8 packs of 30 ranks in 12 suits) holds ITEMS cards; all the piles together are fewer.
    spec = {"packs": 8, "ranks": [f"r{i}" for i in range(30)],
            "suits": [{"name": f"s{i}", "color": "c"} for i in range(12)]}
    assert Deck(spec).size == ITEMS and MAX_PILES <= ITEMS
    finding = load_refusal(tmp_path, "packs.yaml", "extends: forty-thieves\ngame: Packs\ndeck: {packs: 9}\n")
    assert finding.code == "schema" and "9 is greater than the maximum of 8" in finding.message
    # Each quantifier over cards or piles counts as going through that many, whatever it goes through.
    for text in ["any(c in cards: true)", "any(p in tableau: true)", "any(c in pile.cards: true)"]:
        assert quantifier_steps(parse(text)) == ITEMS
    two = "any(a in cards: any(b in tableau: a == b))"
    assert quantifier_steps(parse(two)) == ITEMS * (1 + ITEMS) <= MAX_QUANTIFIER_STEPS
    three = "any(a in cards: any(b in tableau: any(c in cards: a == c)))"
    finding = refusal(parse, three)
    assert (finding.code, finding.message) == (
        "expr-too-costly", f"its quantifiers may take {ITEMS * (1 + ITEMS * (1 + ITEMS)):,} steps at worst; "
                           f"at most {MAX_QUANTIFIER_STEPS:,}")


def test_no_deck_holds_more_cards_than_a_quantifier_counts_as_going_through(tmp_path):
    """A list of packs names each suit once, and at most 12 of them: no deck passes the 2,880 cards that
    MAX_QUANTIFIED_ITEMS counts a quantifier as going through, however its packs are written."""
    packs = ", ".join(["{suits: [" + ", ".join(["clubs"] * 28) + "]}"] * 8)  # 8 packs, each clubs 28 times over
    text = (f"game: Clubs\ndeck: {{packs: [{packs}]}}\nhands:\n  size: 2\n  groupings:\n"
            "    pair: {rank: 1, cards: 2, when: \"all(c in cards: c.rank == cards.top.rank)\"}\n")
    finding = load_refusal(tmp_path, "clubs.yaml", text)
    assert finding.code == "schema" and finding.message.startswith("deck.packs"), str(finding)


# -- play ------------------------------------------------------------------------------------------------------

def test_automatic_moves_that_loop_forever_stop_at_their_cap(tmp_path):
    from kallisti.interpreter.game import MAX_AUTO_MOVES, Game

    rules = load(tmp_path, "loop.yaml", "game: Loop\npiles:\n  tableau: {count: 2, deal: [up], build: any, empty: any}\n"
                 "  stock: {deal: rest}\nauto:\n  - {id: there, from: tableau, to: tableau, when: \"true\"}\n"
                 "win: stock.empty and tableau.empty\n")
    game = Game(rules, seed=1)
    assert len(game.play_auto()) == MAX_AUTO_MOVES


def test_autoplay_after_one_move_stops_at_its_cap(monkeypatch):
    from kallisti.interpreter.game import Game
    from kallisti.interpreter.notation import describe, parse_move
    from kallisti.model.ruleset import load_ruleset
    from kallisti.solver import autoplay

    def followed(cap: int) -> list[str]:
        monkeypatch.setattr(autoplay, "MAX_FOLLOWING", cap)
        game = Game(load_ruleset("forty-thieves"), seed=337)  # A♠ on t4; then A♠, 2♠, 2♠ are safe to send home
        game.play(parse_move(game, "t4 f"))
        made = autoplay.Autoplay().follow(game)
        return [describe(game, m) for m in made]

    assert followed(10) == ["t6 f2", "t6 f1", "t10 f2"]
    assert followed(2) == ["t6 f2", "t6 f1"]


def test_a_player_x_bot_checks_at_most_its_limit_of_changes_for_one_decision(monkeypatch):
    from scenario import play_turn

    from kallisti.interpreter.match import Match, Seat
    from kallisti.model.ruleset import load_ruleset
    from kallisti.solver import playerx

    match = Match(load_ruleset("discordian"), [Seat("ann"), Seat("bot", "greedy")], 3)
    play_turn(match)  # ann has played: the bot is Player X
    texts = playerx.candidates(match, 1, playerx.memory_of(match))
    assert len(texts) > playerx.MAX_CHECKS
    monkeypatch.setattr(playerx, "SHORTLIST", 10**6)  # a shortlist that never fills: only the limit stops it
    budget = playerx.Budget(steps=10**9)
    checked = []
    real = match.check_change
    match.check_change = lambda seat, text: checked.append(text) or real(seat, text)
    playerx.weigh(match, 1, texts, True, budget)
    assert len(checked) == playerx.MAX_CHECKS and budget.checks == 0  # more candidates than it may check


def test_the_player_x_bots_memory_of_setting_values_is_bounded(monkeypatch):
    from kallisti.interpreter import amend
    from kallisti.model.ruleset import load_ruleset
    from kallisti.solver import playerx

    monkeypatch.setattr(playerx, "MAX_VALUES_AFTER", 3)
    monkeypatch.setattr(playerx, "_values_after", {})
    data = load_ruleset("discordian").data
    key = amend.data_key(data)
    for count in (1, 2, 3, 4):
        text = f"set field.count {count + 4}"
        playerx._value_after(data, key, text, playerx.parsed(text))
        assert len(playerx._values_after) == (count if count <= 3 else 1)  # full: forgotten at once, then this one


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
    from kallisti.solver.solve import DEFAULT_STATES, SearchOptions, solve

    assert SearchOptions().states == DEFAULT_STATES  # `solve` and `--states` search this many unless told otherwise
    solution = solve(load_ruleset("forty-thieves"), seed=5, options=SearchOptions(states=50))
    assert solution.verdict == "unknown" and solution.stopped_by == "states"
    assert solution.states <= 50 + 1


ENDLESS = ("game: Endless\npiles:\n  tableau: {count: 2, deal: [up], build: any, empty: any}\n  stock: {deal: rest}\n"
           "win: stock.empty and tableau.empty\n")  # a card goes from one pile to the other and back, forever


def restless_match(tmp_path, seats):
    """A match of Discordian whose field takes any card, anywhere: a turn never ends by itself."""
    from kallisti.interpreter import match as M

    rules = load(tmp_path, "restless.yaml", "extends: discordian\ngame: Restless\npiles:\n  field: {build: any, empty: any}\n")
    return M.Match(rules, seats, seed=1)


def test_a_turn_of_a_match_that_never_ends_stops_at_its_cap(tmp_path):
    from kallisti.interpreter import match as M

    match = restless_match(tmp_path, [M.Seat("ann"), M.Seat("bob")])
    moves = 0
    while True:
        waiting = match.waiting()
        if waiting.what == "ack":
            match.acknowledge(waiting.seat)
        elif (waiting.seat, waiting.what) == (0, "move"):
            assert moves < M.TURN_MOVE_CAP, "the turn goes on past its cap"
            match.move(0, match.game.legal_moves()[-1])
            moves += 1
        else:
            break
    assert moves == M.TURN_MOVE_CAP
    assert (waiting.seat, waiting.what) == (1, "player-x")  # the turn is over: Player X may change ann's rules
    record = match.records[-1]
    assert (record.seat, record.reason) == (0, f"the turn reached {M.TURN_MOVE_CAP} moves")


def test_a_rule_change_whose_trial_deals_never_end_is_refused_at_the_trial_cap(tmp_path, monkeypatch):
    from collections import OrderedDict

    from kallisti.interpreter import amend
    from kallisti.interpreter.game import Game

    monkeypatch.setattr(amend, "_trials", OrderedDict())  # played here, not remembered from another test
    played = []  # (the cap, the moves made) of every trial deal
    real = Game.playout

    def playout(self, choose, cap=1000):
        played.append((cap, real(self, choose, cap)))
        return played[-1][1]

    monkeypatch.setattr(Game, "playout", playout)
    rules = load(tmp_path, "still.yaml", ENDLESS.replace("build: any", "build: none"))  # nothing moves: it ends at once
    finding = refusal(amend.amend, rules.data, "set piles.tableau.build any", baseline=rules)
    assert finding.code == "change-endless"
    assert finding.message == (f"with this change, no trial deal ends within {amend.TRIAL_CAP} moves "
                               "(with the rules before it, every one did)")
    trials = [made for cap, made in played if cap == amend.TRIAL_CAP]
    assert trials.count(amend.TRIAL_CAP) == amend.TRIAL_DEALS  # each trial deal under the change: the cap, not one more
    assert all(cap == amend.TRIAL_CAP for cap, _ in played)


def test_bots_that_would_act_forever_stop_at_their_limit(tmp_path, monkeypatch):
    from kallisti.interpreter import match as M
    from kallisti.solver import bots

    monkeypatch.setattr(bots, "MAX_BOT_ACTIONS", 40)  # the real one is a million: the count, not the size, is tested
    match = restless_match(tmp_path, [M.Seat("ann", "random"), M.Seat("bob", "random")])
    actions = []
    bots.Bots(match).act(lambda seat, what, detail: actions.append(what))
    assert len(actions) == 40 and actions.count("move") > 30
    waiting = match.waiting()
    assert waiting.what == "move" and match.seats[waiting.seat].is_bot  # a bot could act again: the run was cut


def test_a_simulated_or_checked_game_that_never_ends_is_capped_at_the_default_cap(tmp_path):
    from kallisti.solver.check import play_checked
    from kallisti.solver.simulate import DEFAULT_CAP, play_deal

    rules = load(tmp_path, "endless.yaml", ENDLESS)
    outcome = play_deal(rules, seed=1, strategy="random")
    assert (outcome.outcome, outcome.moves) == ("capped", DEFAULT_CAP)
    checked = play_checked(rules, seed=1, strategy="random")
    assert (checked.outcome, checked.moves, checked.problem) == ("capped", DEFAULT_CAP, None)


# -- search ---------------------------------------------------------------------------------------------------

def test_the_solver_stops_when_its_table_of_positions_is_full():
    from kallisti.model.ruleset import load_ruleset
    from kallisti.solver.solve import MAX_TABLE, SearchOptions, solve

    assert SearchOptions().memory == MAX_TABLE  # `solve` and `--memory` remember this many unless told otherwise
    solution = solve(load_ruleset("forty-thieves"), seed=5, options=SearchOptions(memory=40))
    assert (solution.verdict, solution.stopped_by) == ("unknown", "memory")
    assert 40 <= solution.states <= 40 + 1


def test_a_hint_searches_at_most_its_budget_then_the_greedy_measure_answers(monkeypatch):
    from kallisti.interpreter.game import Game
    from kallisti.model.ruleset import load_ruleset
    from kallisti.solver import solve as S
    from kallisti.solver.measure import move_score
    from kallisti.solver.strategies import HINT_STATES, hint

    searches = []
    real = S.solve

    def solve(*args, **kwargs):
        searches.append((kwargs["options"].states, real(*args, **kwargs)))
        return searches[-1][1]

    monkeypatch.setattr(S, "solve", solve)
    game = Game(load_ruleset("forty-thieves"), seed=1)  # no win within the hint's budget
    moves = game.legal_moves()
    greedy = max(moves, key=lambda m: (move_score(game, m), -m))
    assert hint(game) == greedy
    [(budget, found)] = searches
    assert budget == HINT_STATES
    assert (found.verdict, found.stopped_by) == ("unknown", "states") and found.states <= HINT_STATES + 1
    assert game.hint_plan is None and game.legal_moves() == moves  # no plan kept, the game left as it was


def test_the_search_bot_weighs_at_most_its_budget_of_positions_for_one_decision(tmp_path, monkeypatch):
    from kallisti.interpreter.game import Game
    from kallisti.solver import search

    from scenario import counted_line_searches

    made = counted_line_searches(monkeypatch)
    rules = load(tmp_path, "wide.yaml", ENDLESS.replace("count: 2, deal: [up]", "count: 6, deal: [up, up, up]"))
    game = Game(rules, seed=1)  # any card goes anywhere, and back: the lines never end
    moves = game.legal_moves()
    bot = search.SearchStrategy(seed=1)
    assert bot.budget == search.DEFAULT_BUDGET
    assert bot.choose(game, moves) in moves
    [weighed] = made
    # Each first move gets its share of what is left, and at least one position: at most one more each.
    assert search.DEFAULT_BUDGET - len(moves) <= weighed.nodes <= search.DEFAULT_BUDGET + len(moves)


def test_a_clause_with_more_cases_than_the_limit_is_not_judged(tmp_path, monkeypatch):
    from kallisti.model import clause_checks

    # Both clauses are false whatever the cards: with the card and the card it goes on, 52 x 52 = 2,704 cases (the
    # kinds of two packs); with the count too, 2,704 x 104, over the limit, so the second is not judged.
    text = ("extends: forty-thieves\ngame: Cases\nchanges:\n"
            "  - {forbid: piles.tableau.build, id: pairs, expr: card.rank == top.rank and card.suit != card.suit}\n"
            "  - {forbid: piles.tableau.build, id: triples, expr: card.rank == top.rank and count > 104}\n")

    def judged(limit):
        monkeypatch.setattr(clause_checks, "_outcomes", {})
        monkeypatch.setattr(clause_checks, "MAX_CASES", limit)
        return [f.message.split("'")[1] for f in load(tmp_path, "cases.yaml", text).findings if f.code == "clause-never-true"]

    assert 52 * 52 * 104 > clause_checks.MAX_CASES >= 52 * 52
    assert judged(clause_checks.MAX_CASES) == ["pairs"]
    assert judged(52 * 52) == ["pairs"]
    assert judged(52 * 52 - 1) == []  # one case over the limit: not judged, and no warning


# -- memory kept between calls ---------------------------------------------------------------------------------

PAIRS = """game: Pairs
hands:
  size: 6
  groupings:
    pair: {rank: 1, cards: 2, when: "all(c in cards: c.rank == cards.top.rank)"}
    trio: {rank: 2, cards: 3, when: "all(c in cards: c.rank == cards.top.rank)"}
    high: {rank: 3, cards: [3, 6], when: "sum(c in cards: c.value) > 20"}
"""


def hands_of(rules, n: int, size: int = 6) -> list[tuple[int, ...]]:
    import random

    rng = random.Random(7)
    return [tuple(rng.sample(range(rules.deck.size), size)) for _ in range(n)]


def test_the_cache_of_parsed_expressions_is_bounded(monkeypatch):
    from kallisti.grammar import expressions

    monkeypatch.setattr(expressions, "_parsed", {})
    monkeypatch.setattr(expressions, "MAX_PARSED", 10)
    texts = [f"card.value == {i}" for i in range(30)]
    nodes = [parse(text) for text in texts]
    assert len(expressions._parsed) == 10
    assert parse(texts[-1]) == nodes[-1]  # one not kept is parsed again, the same


def test_the_cache_of_rule_tables_is_bounded(tmp_path, monkeypatch):
    from kallisti.model import rule_tables

    made = []
    real = rule_tables.Rule._tabulate_pairs
    monkeypatch.setattr(rule_tables.Rule, "_tabulate_pairs", lambda self, *a: made.append(1) or real(self, *a))
    monkeypatch.setattr(rule_tables, "_tables", {})
    monkeypatch.setattr(rule_tables, "MAX_TABLES", 3)
    for n in range(6):  # each variant's tableau rule is another table
        load(tmp_path, f"v{n}.yaml", "extends: forty-thieves\ngame: Tables\nchanges:\n"
             f"  - {{forbid: piles.tableau.build, id: not-{n}, expr: card.value == {n + 1} and top.value == {n + 2}}}\n")
        assert len(rule_tables._tables) <= 3
    assert len(made) > 3 and len(rule_tables._tables) == 3


def test_the_compiled_expressions_shared_between_rulesets_are_bounded(monkeypatch):
    from kallisti.interpreter import compiler, shared_compiled
    from kallisti.model.ruleset import load_ruleset

    monkeypatch.setattr(shared_compiled, "_kept", {})
    monkeypatch.setattr(shared_compiled, "MAX_SHARED_EXPRESSIONS", 3)
    rules = load_ruleset("forty-thieves")
    shared = compiler.Compiler(rules.deck, rules.compiler.groups, rules.compiler.group_of, shared=True)
    ctx = compiler.Ctx()
    for n in range(1, 8):
        made = shared.compile(f"card.value == {n}", compiler.Pos("<test>"), compiler.BUILD_SCOPE)
        assert len(shared_compiled._kept) <= 3
        ctx.card = next(c for c in range(rules.deck.size) if rules.deck.value[c] == n)
        assert made.fn(ctx) and shared.compile(f"card.value == {n}", compiler.Pos("<test>"), compiler.BUILD_SCOPE) is made
    assert len(shared_compiled._kept) <= 3


def test_the_cache_of_compiled_rule_changes_is_bounded(monkeypatch):
    from collections import OrderedDict

    from kallisti.interpreter import amend
    from kallisti.model import amended
    from kallisti.model.ruleset import load_ruleset

    monkeypatch.setattr(amended, "_cache", OrderedDict())
    monkeypatch.setattr(amended, "MAX_CACHED", 3)
    base = load_ruleset("forty-thieves").data
    datas = [amend.apply_all(base, [amend.parse(f"set piles.tableau.count {n}")]) for n in range(5, 11)]
    compiled = []
    for data in datas:
        compiled.append(amend.compile_data(data))
        assert len(amended._cache) <= 3
    assert list(amended._cache) == [amend.data_key(d) for d in datas[-3:]]  # the oldest are forgotten
    assert amend.compile_data(datas[-1]) is compiled[-1]
    again = amend.compile_data(datas[0])
    assert again is not compiled[0] and len(again.groups["tableau"].piles) == 5  # compiled again, the same rules


def test_the_cache_of_hand_evaluators_is_bounded(monkeypatch):
    from kallisti.interpreter import table

    built = []
    monkeypatch.setattr(table, "overlaid_entries", lambda rules, entries: entries)
    monkeypatch.setattr(table, "HandEvaluator", lambda rules: built.append(rules) or object())

    class Base:  # an evaluator of the plain rules: only its identity and its rules matter to the cache
        rules = None

    base = Base()
    for i in range(3 * table.MAX_EVALUATORS):
        entries = (("modifier", f"set x {i}"),)
        assert table.evaluator_for(base, entries) is table.evaluator_for(base, entries)  # kept while it can be
        assert len(table._EVALUATORS[base]) <= table.MAX_EVALUATORS
    assert len(built) == 3 * table.MAX_EVALUATORS  # each built once, whatever was forgotten


def test_the_condition_answers_of_a_grouping_are_bounded(tmp_path, monkeypatch):
    from kallisti.interpreter import hands

    rules = load(tmp_path, "pairs.yaml", PAIRS)
    dealt = hands_of(rules, 20)

    def judged(limit):
        monkeypatch.setattr(hands, "_JUDGED", {})
        monkeypatch.setattr(hands, "MAX_MEMO", limit)
        evaluator = hands.HandEvaluator(rules)
        sizes = []
        results = []
        for cards in dealt:
            results.append(evaluator.evaluate(cards).groups)
            sizes.append(max(len(answers) for answers in hands._JUDGED.values()))
        return results, max(sizes)

    unbounded, most = judged(hands.MAX_MEMO)
    assert most > 50  # these hands ask more than the small limit below
    bounded, most = judged(50)
    assert most <= 50 and bounded == unbounded  # forgotten answers are found again, the same


def test_the_shared_groupings_are_bounded(tmp_path, monkeypatch):
    from kallisti.interpreter import hands

    groupings = "".join(f"    sum-{n}: {{rank: {n}, cards: 2, when: \"sum(c in cards: c.value) == {n}\"}}\n" for n in range(2, 27))
    rules = load(tmp_path, "sums.yaml", "game: Sums\nhands:\n  size: 6\n  groupings:\n" + groupings)
    dealt = hands_of(rules, 5)
    monkeypatch.setattr(hands, "_JUDGED", {})
    expected = [hands.HandEvaluator(rules).evaluate(cards).groups for cards in dealt]
    assert len(hands._JUDGED) == 25
    monkeypatch.setattr(hands, "_JUDGED", {})
    monkeypatch.setattr(hands, "MAX_JUDGES", 10)
    evaluator = hands.HandEvaluator(rules)
    assert len(hands._JUDGED) <= 10
    assert [evaluator.evaluate(cards).groups for cards in dealt] == expected


def test_the_hands_an_evaluator_remembers_are_bounded(tmp_path, monkeypatch):
    from kallisti.interpreter import hands

    monkeypatch.setattr(hands, "MAX_RECENT", 4)
    rules = load(tmp_path, "pairs.yaml", PAIRS)
    evaluator = hands.HandEvaluator(rules)
    for cards in hands_of(rules, 12):
        first = evaluator.evaluate(cards)
        assert evaluator.evaluate(cards) is first  # the same hand again: remembered
        assert len(evaluator._recent) <= 4


def test_the_cache_of_clause_check_outcomes_is_bounded(tmp_path, monkeypatch):
    from kallisti.model import clause_checks

    text = "extends: forty-thieves\ngame: Checked\n"

    def checked(limit):
        monkeypatch.setattr(clause_checks, "_outcomes", {})
        monkeypatch.setattr(clause_checks, "MAX_MEMO", limit)
        findings = [str(f) for f in load(tmp_path, "checked.yaml", text).findings]
        return findings, len(clause_checks._outcomes)

    findings, kept = checked(clause_checks.MAX_MEMO)
    assert kept > 3  # forty-thieves judges more clauses than the small limit below
    assert checked(3) == (findings, 3)


def test_the_beam_search_s_cache_of_pile_values_is_bounded(monkeypatch):
    from kallisti.model.ruleset import load_ruleset
    from kallisti.solver import beam
    from kallisti.solver.solve import SearchOptions

    rules = load_ruleset("forty-thieves")
    search = dict(seed=5, width=20, options=SearchOptions(states=400))
    unbounded = beam.beam_solve(rules, **search)
    held = []  # after each estimate: the pile values kept, and the piles one estimate may add
    real = beam._Estimate.__call__

    def estimate(self):
        value = real(self)
        held.append((len(self.cache), len(self.piles)))
        return value

    monkeypatch.setattr(beam._Estimate, "__call__", estimate)
    monkeypatch.setattr(beam, "MAX_PILE_CACHE", 30)
    bounded = beam.beam_solve(rules, **search)
    assert max(n for n, _ in held) > 30  # filled past the limit, then started afresh
    assert all(n <= 30 + piles for n, piles in held)
    assert (bounded.verdict, bounded.line, bounded.states) == (unbounded.verdict, unbounded.line, unbounded.states)


# -- display ---------------------------------------------------------------------------------------------------

def test_a_long_value_in_a_diff_line_is_cut():
    from kallisti.model.diff import MAX_SHOWN, ruleset_diff

    long = "x" * 100_000
    [line] = ruleset_diff({"game": "Short"}, {"game": long})
    assert line == "~ game: Short -> " + "x" * (MAX_SHOWN - 1) + "…"
    [line] = ruleset_diff({"game": "Short"}, {"game": "Short", "notes": [long, long]})
    assert line == "+ notes: [" + "x" * (MAX_SHOWN - 2) + "…"


def test_a_long_string_listed_by_new_is_cut(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from kallisti.cli.app import app
    from kallisti.cli.new import MAX_TEXT
    from kallisti.grammar.expressions import MAX_EXPRESSION_CHARS

    win = "foundation.size in [" + ", ".join(str(n) for n in range(104, 480)) + "]"  # as long as an expression may be
    assert MAX_EXPRESSION_CHARS - 200 < len(win) <= MAX_EXPRESSION_CHARS
    (tmp_path / "long.yaml").write_text(f'extends: forty-thieves\ngame: Long\nwin: "{win}"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["new", "my-variant", "--from", "long.yaml"])
    assert result.exit_code == 0, result.output
    [line] = [x for x in (tmp_path / "my-variant.yaml").read_text(encoding="utf-8").splitlines() if x.startswith("#   win:")]
    assert line == "#   win: " + win[:MAX_TEXT - 1].rstrip() + "…"


def test_a_fresh_deal_number_is_at_most_max_seed_and_new_takes_no_more_digits(monkeypatch):
    import secrets

    from typer.testing import CliRunner

    from kallisti.cli.app import app
    from kallisti.cli.play import MAX_SEED

    asked = []
    monkeypatch.setattr(secrets, "randbelow", lambda n: asked.append(n) or n - 1)  # the largest number it can pick
    digits = len(str(MAX_SEED))
    result = CliRunner().invoke(app, ["play", "forty-thieves"], input=f"new {'9' * (digits + 1)}\nnew {'9' * digits}\nq\n")
    assert result.exit_code == 4, result.output
    assert asked == [MAX_SEED]
    lines = result.output.splitlines()
    assert lines[0] == f"Forty Thieves, deal {MAX_SEED}"
    assert lines.count("new takes a deal number, e.g. `new 7`") == 1  # the number one digit too long
    assert f"Forty Thieves, deal {'9' * digits}" in lines  # as many digits as MAX_SEED has are taken


def test_rules_and_yaml_allow_the_same_nesting_and_rules_refuses_deeper_before_parsing(tmp_path, monkeypatch):
    from kallisti.grammar import rules_front, rules_lines
    from kallisti.located import MAX_DEPTH, load_yaml

    def nested(n: int) -> str:
        return "[" * n + "]" * n

    load_yaml(f"x: {nested(MAX_DEPTH)}\n", "<test>")
    rules_front.parse_rules(f"extends forty-thieves\ngame: Deep\nset deck.marks.x {nested(MAX_DEPTH)}\n")
    assert refusal(load_yaml, f"x: {nested(MAX_DEPTH + 1)}\n", "<test>").code == "yaml-depth"
    # One bracket more is refused at that bracket, by a scan of the line before the parser builds any tree.
    real_parse = rules_lines.Lark.parse

    def parse(self, text, *args, **kwargs):
        assert "[" * (MAX_DEPTH + 1) not in text, "the line too deep was parsed"
        return real_parse(self, text, *args, **kwargs)

    monkeypatch.setattr(rules_lines.Lark, "parse", parse)
    finding = refusal(rules_front.parse_rules, f"extends forty-thieves\ngame: Deep\nset deck.marks.x {nested(MAX_DEPTH + 1)}\n")
    assert (finding.code, finding.pos.line, finding.pos.column) == ("too-deep", 3, 18 + MAX_DEPTH)
