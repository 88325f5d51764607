"""Bounded work for every ruleset file (docs/security.md, "Sizes in the schema"), counted in work, never in time.

A file under the size limit could still cost minutes and gigabytes: a `deal` of 240,000 rows made the schema judge each
row, 100,000 unknown keys made one line of a megabyte, thousands of `lose` rules were valid. Here each such file is
refused after a bounded count of work (YAML events read, nodes built, .rules lines parsed, schema errors made), in
both syntaxes, with a bounded number of lines of output; every list of the schema has a most items and every map of
keys an author chooses a most keys; and the caches of rule tables are bounded in bytes.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kallisti import located
from kallisti.cli.app import app
from kallisti.errors import MAX_EXCERPT, KallistiError, Pos
from kallisti.grammar import rules_front
from kallisti.located import MAX_FINDINGS, MAX_LIST_ITEMS, MAX_MAP_KEYS, MAX_NODES, load_yaml
from kallisti.model import loader
from kallisti.model.ruleset import load_ruleset
from kallisti.schema import count_limits, schema, schema_table

ROOT = Path(__file__).resolve().parents[2]
SECURITY_MD = ROOT / "docs" / "security.md"
runner = CliRunner()

DEAL_ROWS = 240_000  # the reported file: 480 KB, one `deal` row per item
KEYS = 100_000  # the reported file: 989 KB of unknown keys
LOSE_RULES = 24_000  # the reported file: a valid ruleset that took 40 s to start playing


class Work:
    """Counts of the work a load does: YAML events read, YAML nodes built, .rules lines parsed, errors the schema
    validator made (those of each alternative it tried included), and the schemas it was run with."""

    def __init__(self, monkeypatch):
        self.events = self.nodes = self.lines = self.schema_errors = 0
        self.validated: list[str] = []
        real_parse, real_build, real_line = located.yaml.parse, located._build, rules_front.parse_line
        real_errors, real_validator = loader.validator_class().iter_errors, loader._validator

        def parse(*args, **kwargs):
            for event in real_parse(*args, **kwargs):
                self.events += 1
                yield event

        def build(*args, **kwargs):
            self.nodes += 1
            return real_build(*args, **kwargs)

        def parse_line(*args, **kwargs):
            self.lines += 1
            return real_line(*args, **kwargs)

        def iter_errors(validator, *args, **kwargs):
            for error in real_errors(validator, *args, **kwargs):
                self.schema_errors += 1
                yield error

        def validator(kind):
            self.validated.append(kind)
            return real_validator(kind)

        monkeypatch.setattr(loader, "_validator", validator)
        monkeypatch.setattr(located.yaml, "parse", parse)
        monkeypatch.setattr(located, "_build", build)
        monkeypatch.setattr(rules_front, "parse_line", parse_line)
        monkeypatch.setattr(loader.validator_class(), "iter_errors", iter_errors)  # one class, made once


def refused(path: Path) -> list:
    with pytest.raises(KallistiError) as caught:
        load_ruleset(path)
    return caught.value.findings


def where(finding) -> tuple:
    return finding.code, finding.pos.line, finding.pos.column


# -- the reported files ------------------------------------------------------------------------------------------

def deal_files(tmp_path: Path) -> dict[str, tuple[Path, tuple]]:
    """The 480 KB file of a 240,000-row deal, in each syntax, with where it must be refused: at its 1,001st row."""
    rows = ",".join(["u"] * DEAL_ROWS)
    yaml_text = f"extends: forty-thieves\ngame: Rows\npiles:\n  tableau:\n    deal: [{rows}]\n"
    rules_text = f"extends forty-thieves\ngame: Rows\nset piles.tableau.deal [{rows}]\n"
    out = {}
    for name, text, line, first in [("deal.yaml", yaml_text, 5, 12), ("deal.rules", rules_text, 3, 25)]:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        assert 480_000 <= path.stat().st_size < 490_000
        # YAML: the 1,001st item; .rules: the line's 1,001st word or item (`set`, the path, then 998 rows before it)
        column = first + 2 * (MAX_LIST_ITEMS if name.endswith(".yaml") else MAX_LIST_ITEMS - 2)
        out[name] = (path, ("too-many-items", line, column))
    return out


def test_a_deal_of_240000_rows_is_refused_at_its_first_row_too_many_before_the_schema_runs(tmp_path, monkeypatch):
    for name, (path, expected) in deal_files(tmp_path).items():
        work = Work(monkeypatch)
        findings = refused(path)
        assert [where(f) for f in findings] == [expected], name
        # Read as far as the first row too many, and no farther; nothing built, no line parsed, the schema never run.
        assert work.events <= MAX_LIST_ITEMS + 20, name
        assert (work.nodes, work.lines, work.validated) == (0, 0, []), name


def keys_files(tmp_path: Path) -> dict[str, tuple[Path, tuple]]:
    """The 989 KB file of 100,000 unknown keys, in each syntax, with where it must be refused."""
    yaml_text = "extends: forty-thieves\ngame: Keys\n" + "".join(f"k{i}: 1\n" for i in range(KEYS))
    rules_text = "extends forty-thieves\ngame: Keys\n" + "".join(f"set k{i} 1\n" for i in range(KEYS))
    out = {}
    for name, text in [("keys.yaml", yaml_text), ("keys.rules", rules_text)]:
        path = tmp_path / name
        path.write_bytes(text.encode("utf-8")[:990_000])
        out[name] = path
    # YAML: the top-level map's 1,001st key (after `extends` and `game`, line 1,001); .rules: the 20,001st word of
    # the file, 3 words a line after the 4 of the first two lines: the 2nd word of line 6,668 (column 5).
    return {"keys.yaml": (out["keys.yaml"], ("too-many-keys", MAX_MAP_KEYS + 1, 1)),
            "keys.rules": (out["keys.rules"], ("too-many-items", 2 + (MAX_NODES - 4) // 3 + 1, 5))}


def test_a_file_of_100000_unknown_keys_is_refused_at_a_bounded_key(tmp_path, monkeypatch):
    for name, (path, expected) in keys_files(tmp_path).items():
        work = Work(monkeypatch)
        findings = refused(path)
        assert [where(f) for f in findings] == [expected], name
        assert work.events <= 2 * MAX_MAP_KEYS + 20, name
        assert (work.nodes, work.lines, work.validated) == (0, 0, []), name


@pytest.mark.parametrize("name", ["deal.yaml", "deal.rules", "keys.yaml", "keys.rules"])
def test_validate_says_so_in_a_few_short_lines(tmp_path, name):
    path = (deal_files(tmp_path) | keys_files(tmp_path))[name][0]
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    lines = result.output.splitlines()
    assert len(lines) <= 5, result.output[:2000]
    assert max(map(len, lines)) <= MAX_EXCERPT + len(str(path)) + 100  # a line of 480 KB is shown cut around the caret


def test_thousands_of_lose_rules_are_refused_while_read_and_a_hundred_and_one_by_the_schema(tmp_path, monkeypatch):
    """`lose`, `auto` and `compulsory` have a most items, as every list does: a file of 24,000 loss rules (and under
    1 MB) stops being read at a bounded count, and one of 101 is refused at the 101st, before the schema runs."""
    texts = {
        "many.yaml": "extends: forty-thieves\ngame: Lose\nlose:\n" + "".join(f"- {{id: l{i}, when: 'false'}}\n"
                                                                           for i in range(LOSE_RULES)),
        "many.rules": "extends forty-thieves\ngame: Lose\n" + "".join(f"lose l{i} when false\n" for i in range(LOSE_RULES)),
        "101.yaml": "extends: forty-thieves\ngame: Lose\nlose:\n" + "".join(f"- {{id: l{i}, when: 'false'}}\n"
                                                                          for i in range(101)),
        "101.rules": "extends forty-thieves\ngame: Lose\n" + "".join(f"lose l{i} when false\n" for i in range(101)),
        "101-auto.yaml": "extends: forty-thieves\ngame: Auto\nauto:\n" + "".join(f"- {{id: a{i}, from: waste, to: foundation}}\n"
                                                                               for i in range(101)),
        "101-compulsory.yaml": "extends: forty-thieves\ngame: Compulsory\ncompulsory:\n" + "".join(
            f"- {{id: a{i}, from: waste, to: foundation}}\n" for i in range(101)),
    }
    for name, text in texts.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        assert path.stat().st_size < located.MAX_FILE_BYTES
        work = Work(monkeypatch)
        (finding,) = refused(path)
        if name.startswith("many"):
            assert finding.code == "too-many-items", str(finding)
            assert work.nodes == 0 and work.lines == 0 and work.validated == []
        else:
            key = name.split("-")[1].split(".")[0] if "-" in name else "lose"
            assert (finding.code, finding.message) == ("schema", f"{key}: 101 items; at most 100"), name
            assert finding.pos.line == 4 + 100 - (1 if name.endswith(".rules") else 0), str(finding)
            assert work.validated == [], name  # refused by its count, before the validator runs


def test_sizes_are_checked_again_after_changes_and_additions(tmp_path, monkeypatch):
    rules = "".join(f"      - {{id: l{i}, when: 'false'}}\n" for i in range(101))
    for name, text, message in [
        ("add.yaml", f"extends: forty-thieves\ngame: Add\nadd:\n  lose:\n{rules}", "add.lose: 101 items; at most 100"),
        ("set.yaml", f"extends: forty-thieves\ngame: Set\nchanges:\n  - set: lose\n    value:\n{rules}",
         "lose: 101 items; at most 100"),
    ]:
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        work = Work(monkeypatch)
        (finding,) = refused(path)
        assert (finding.code, finding.message) == ("schema", message), name
        assert finding.pos.line == text.count("\n"), str(finding)  # the 101st rule, the file's last line
        # `add:` is counted as a ruleset before the file's schema runs; a change's value once it is in place, before
        # the schema of the resolved ruleset runs (the validator runs for this file, its parent and the parent's
        # resolved ruleset, never for this one's)
        assert work.validated == ([] if name == "add.yaml" else ["file", "file", "resolved"]), name


def test_a_rule_change_of_a_list_too_long_is_refused_before_the_schema_runs(monkeypatch):
    from kallisti.interpreter import amend

    rules = load_ruleset("forty-thieves")
    rows = ", ".join(["up"] * 61)
    work = Work(monkeypatch)
    with pytest.raises(KallistiError) as caught:
        amend.amend(rules.data, f"set piles.tableau.deal [{rows}]", baseline=rules)
    (finding,) = caught.value.findings
    assert finding.code == "schema" and "piles.tableau.deal: 61 items; at most 60" in finding.message
    assert work.validated == [] and work.schema_errors == 0


# -- errors are capped per file ------------------------------------------------------------------------------------

def test_schema_errors_past_the_cap_are_one_line_saying_how_many(tmp_path):
    honour = "".join(f"  h{i:02}: {{at: never, says: x}}\n" for i in range(MAX_FINDINGS + 30))
    path = tmp_path / "honour.yaml"
    path.write_text(f"extends: forty-thieves\ngame: Honour\nhonour:\n{honour}", encoding="utf-8")
    findings = refused(path)
    assert len(findings) == MAX_FINDINGS + 1
    assert {f.code for f in findings[:-1]} == {"schema"}
    last = findings[-1]
    assert last.code == "more-errors" and last.message.startswith("and 30 more errors, the first of them here")
    assert last.pos.line == 4 + MAX_FINDINGS  # the first error not shown


def test_a_rules_file_of_bad_lines_stops_being_read_at_the_cap(tmp_path, monkeypatch):
    path = tmp_path / "bad.rules"
    lines = "".join(f"t{i}: deal five face up\n" for i in range(MAX_NODES // 5 - 1))  # 5 words a line
    path.write_text("extends forty-thieves\n" + lines, encoding="utf-8")
    work = Work(monkeypatch)
    findings = refused(path)
    assert len(findings) == MAX_FINDINGS + 1 and findings[-1].code == "more-errors"
    assert findings[-1].pos.line == 2 + MAX_FINDINGS  # the 21st bad line: reading stops there
    assert work.lines <= 10 * (MAX_FINDINGS + 1)  # a few parses a line (each phrase of a bad line), for 21 lines


# -- the limits of the schema --------------------------------------------------------------------------------------

def arrays_and_maps(node, path: str = ""):
    """Every schema of the tree below `node` with its path: (path, schema)."""
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            yield from arrays_and_maps(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from arrays_and_maps(value, f"{path}/{i}")


def kinds(node: dict) -> set:
    types = node.get("type", [])
    return {types} if isinstance(types, str) else set(types)


@pytest.mark.parametrize("kind", ["file", "resolved"])
def test_every_list_of_the_schema_has_a_most_items_and_every_map_of_free_keys_a_most_keys(kind):
    unbounded = []
    for path, node in arrays_and_maps(schema(kind)):
        if "array" in kinds(node) and "maxItems" not in node:
            unbounded.append(f"{path}: a list without maxItems")
        if "object" in kinds(node) and node.get("additionalProperties", True) is not False and "maxProperties" not in node:
            unbounded.append(f"{path}: a map of free keys without maxProperties")
    assert unbounded == []


def test_the_limits_the_reader_counts_are_above_every_limit_of_the_schema():
    """The counts made while a file is read refuse only what the schema would refuse too."""
    for kind in ("file", "resolved"):
        for path, what, most in count_limits(kind):
            assert most is not None, path
            assert most <= (MAX_LIST_ITEMS if what == "items" else MAX_MAP_KEYS), path
        for path, node in arrays_and_maps(schema(kind)):
            if isinstance(node.get("properties"), dict):  # a map of named keys may hold them all
                assert len(node["properties"]) <= MAX_MAP_KEYS, path


def test_docs_security_lists_every_limit_of_the_schema():
    text = SECURITY_MD.read_text(encoding="utf-8")
    start, end = text.index("<!-- schema-limits:start -->\n"), text.index("<!-- schema-limits:end -->")
    assert text[start + len("<!-- schema-limits:start -->\n"):end] == schema_table(), \
        "docs/security.md is stale: paste kallisti.schema.schema_table() between the schema-limits markers"
    listed = set(re.findall(r"^\| `([^`]+)` \| [\d,]+ (items|keys) \|$", schema_table(), re.MULTILINE))
    for kind in ("file", "resolved"):
        assert {(path, what) for path, what, _ in count_limits(kind)} <= listed


def values(node) -> int:
    if isinstance(node, dict):
        return 1 + sum(1 + values(v) for v in node.values())
    if isinstance(node, list):
        return 1 + sum(values(v) for v in node)
    return 1


def test_every_shipped_game_is_far_within_the_counts_of_reading():
    from kallisti.model.loader import parse_file, shipped_games

    for name, path in shipped_games().items():
        assert values(parse_file(path)[0]) < MAX_NODES // 10, name


# -- the counts made while a file is read ------------------------------------------------------------------------

@pytest.mark.parametrize("syntax", ["yaml", "rules"])
def test_a_list_of_the_most_items_is_read_and_one_more_is_refused_at_it(syntax):
    def text(n: int) -> str:
        items = ", ".join(["1"] * n)
        return f"x: [{items}]\n" if syntax == "yaml" else f"game: X\nset deck.ranks [{items}]\n"

    read = load_yaml if syntax == "yaml" else rules_front.parse_rules
    read(text(MAX_LIST_ITEMS - 2), "<test>")
    with pytest.raises(KallistiError) as caught:
        read(text(MAX_LIST_ITEMS + 1), "<test>")
    (finding,) = caught.value.findings
    assert finding.code == "too-many-items"
    # the 1,001st item (YAML), or the line's 1,001st word and item (.rules: `set` and the path come first)
    n = MAX_LIST_ITEMS if syntax == "yaml" else MAX_LIST_ITEMS - 2
    first = 5 if syntax == "yaml" else len("set deck.ranks [") + 1
    assert (finding.pos.line, finding.pos.column) == (1 if syntax == "yaml" else 2, first + 3 * n)


def test_a_map_of_the_most_keys_is_read_and_one_more_is_refused_at_it():
    def text(n: int) -> str:
        return "".join(f"k{i}: {i}\n" for i in range(n))

    assert len(load_yaml(text(MAX_MAP_KEYS), "<test>")) == MAX_MAP_KEYS
    with pytest.raises(KallistiError) as caught:
        load_yaml(text(MAX_MAP_KEYS + 1), "<test>")
    assert [where(f) for f in caught.value.findings] == [("too-many-keys", MAX_MAP_KEYS + 1, 1)]


def test_a_rules_map_past_the_most_keys_is_refused_at_the_key_too_many(tmp_path):
    groups = "".join(f"g{i}: 1 pile\n" for i in range(MAX_MAP_KEYS + 1))
    with pytest.raises(KallistiError) as caught:
        rules_front.parse_rules("game: X\n" + groups, "<test>")
    assert [where(f) for f in caught.value.findings] == [("too-many-keys", MAX_MAP_KEYS + 2, 1)]


@pytest.mark.parametrize("syntax", ["yaml", "rules"])
def test_a_file_of_more_values_than_the_most_is_refused_at_the_value_too_many(syntax, monkeypatch):
    # Lines of 500 values each (YAML: a key, its list and 498 items; .rules: `set`, a key and 498 items), under the
    # keys of a map: no list and no map is too large, only the whole. The root map is one more YAML value.
    lines = MAX_NODES // 500 + 5
    if syntax == "yaml":
        text = "".join(f"k{i}: [" + ", ".join(["1"] * 498) + "]\n" for i in range(lines))
    else:
        text = "".join(f"set k{i} [" + ", ".join(["1"] * 498) + "]\n" for i in range(lines))
    work = Work(monkeypatch)
    with pytest.raises(KallistiError) as caught:
        (load_yaml if syntax == "yaml" else rules_front.parse_rules)(text, "<test>")
    (finding,) = caught.value.findings
    assert finding.code == "too-many-items" and f"more than {MAX_NODES:,}" in finding.message
    assert finding.pos.line == MAX_NODES // 500 + (0 if syntax == "yaml" else 1)
    assert work.nodes == 0 and work.lines == 0


@pytest.mark.parametrize("text, tag", [
    ("game: !!python/object/apply:os.system ['echo owned']\n", "!!python/object/apply:os.system"),
    ("game: !!str Tagged\n", "!!str"),
    ("game: !mine {a: 1}\n", "!mine"),
    ("game: ! plain\n", "!"),
    ("%TAG !p! tag:yaml.org,2002:python/\n---\ngame: !p!object/apply:os.system [x]\n", "!!python/object/apply:os.system"),
])
def test_any_yaml_tag_is_refused_at_the_tag_before_anything_is_built(text, tag, monkeypatch):
    work = Work(monkeypatch)
    with pytest.raises(KallistiError) as caught:
        load_yaml(text, "<test>")
    (finding,) = caught.value.findings
    assert finding.code == "yaml-tag" and f"`{tag}`" in finding.message
    assert (finding.pos.line, finding.pos.column) == (text.count("\n"), 7)
    assert work.nodes == 0


# -- the caches of rule tables are bounded in bytes ------------------------------------------------------------

BIG_DECK = """game: Big
deck:
  packs: 8
  ranks: [A, "2", "3", "4", "5", "6", "7", "8", "9", "10", J, Q, K, r14, r15, r16, r17, r18, r19, r20, r21, r22,
          r23, r24, r25, r26, r27, r28, r29, r30]
  suits: [{name: s1, color: black}, {name: s2, color: red}, {name: s3, color: black}, {name: s4, color: red},
          {name: s5, color: black}, {name: s6, color: red}, {name: s7, color: black}, {name: s8, color: red},
          {name: s9, color: black}, {name: s10, color: red}, {name: s11, color: black}, {name: s12, color: red}]
piles:
  foundation: {role: foundation, count: 96, build: up in suit, empty: first rank, take: none}
  tableau: {role: tableau, count: 10, deal: [up, up, up, up], build: down in suit, empty: any}
  stock: {role: stock, deal: rest, take: none, turn: {to: waste}}
  waste: {role: waste}
win: foundation.size == deck.size
"""


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    path = tmp_path_factory.mktemp("big") / "big.yaml"
    path.write_text(BIG_DECK, encoding="utf-8")
    return load_ruleset(path)


def test_the_shared_rule_tables_stay_within_their_bytes_with_the_largest_deck(big, monkeypatch):
    from kallisti.interpreter import amend
    from kallisti.model import amended, rule_tables

    pair_table = (big.deck.size + 1) ** 2
    assert big.deck.size == 2880 and len(big.groups["tableau"].build.pair_table) == pair_table  # 8.3 MB
    monkeypatch.setattr(rule_tables, "_tables", dict(rule_tables._tables))
    monkeypatch.setattr(rule_tables, "MAX_TABLE_BYTES", 3 * pair_table + 100_000)  # 3 tables, and small ones
    monkeypatch.setattr(amended, "_cache", type(amended._cache)())
    monkeypatch.setattr(amended, "MAX_CACHED_BYTES", 5 * pair_table)  # 2 rulesets of 2 tables each
    made = []
    real = rule_tables.Rule._tabulate_pairs
    monkeypatch.setattr(rule_tables.Rule, "_tabulate_pairs", lambda self, *a: made.append(1) or real(self, *a))
    for n in range(5):  # each change's tableau rule is another table of 8.3 MB
        amend.compile_data(amend.apply_all(big.data, [amend.parse(
            f'forbid tableau.build "not-{n}": card.value == {n + 1} and top.value == {n + 2}')]))
        assert rule_tables.table_cache_bytes() <= rule_tables.MAX_TABLE_BYTES
        assert amended.cached_bytes() <= amended.MAX_CACHED_BYTES
    assert len(made) == 5  # every table was made, and the cache kept only the latest
    assert rule_tables.table_cache_bytes() > 2 * pair_table and len(amended._cache) == 2  # each ruleset: 2 tables of its own


def test_a_table_larger_than_the_whole_cache_is_not_kept(big, monkeypatch):
    from kallisti.model import rule_tables

    monkeypatch.setattr(rule_tables, "_tables", {})
    monkeypatch.setattr(rule_tables, "MAX_TABLE_BYTES", (big.deck.size + 1) ** 2 - 1)
    rule_tables._keep_table(("key",), bytes((big.deck.size + 1) ** 2))
    assert rule_tables._tables == {} and rule_tables.table_cache_bytes() == 0


def test_pair_tables_are_made_by_kinds_and_agree_card_by_card(big):
    """A table of the largest deck is judged once per pair of kinds (361 × 361, not 2,881 × 2,881), and still
    answers for every pair of cards what the rule says for it."""
    from kallisti.interpreter import compiler as C

    rule = big.groups["tableau"].build
    ctx = C.Ctx()
    stride = big.deck.size + 1
    for card in range(0, stride, 97):
        for top in range(0, stride, 89):
            ctx.card, ctx.top = card, top
            assert rule.pair_table[card * stride + top] == int(all(c.holds(ctx) for c in rule.clauses))


# -- list literals ------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, value", [
    ("sum(x in [1, 1, 2]: x)", 4),
    ("[1, 1, 2].size", 3),
    ("count(x in [1, 1, 2]: x == 1)", 2),
    ("2 in [1, 1, 2]", True),
    ("3 in [1, 1, 2]", False),
])
def test_a_written_list_keeps_its_repeats(text, value):
    from kallisti.interpreter import compiler as C

    compiled = load_ruleset("forty-thieves").compiler.compile(text, Pos("<test>", 1, 1), C.STATE_SCOPE, want=None)
    assert compiled.fn(C.Ctx()) == value
