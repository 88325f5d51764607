"""`kallisti validate`: the example rulesets under tests/rulesets/ and the command's output and exit codes.

Each file in tests/rulesets/bad/ (errors) and tests/rulesets/warn/ (warnings) holds one fault; its first line
says where the finding must be reported, as `# expect: LINE:COLUMN CODE`, and its second line a part of its
message, as `# message: TEXT`. Files whose names start with `_` are helpers that another case needs (e.g. the
other half of an `extends` cycle), not cases of their own. Faults whose example would be huge are generated
below instead (see tests/test_codes.py).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import NamedTuple

import pytest
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.cli.report import escape_data
from kallisti.cli.validate import RULESET_SUFFIXES, validate_files
from kallisti.model.loader import shipped_games

HERE = Path(__file__).parent / "rulesets"
WARN = HERE / "warn" / "stock-dealt-nothing.yaml"
EXPECT = re.compile(r"^# expect: (\d+):(\d+) ([a-z][a-z0-9-]*)$")
MESSAGE = re.compile(r"^# message: (.+)$")


class Expectation(NamedTuple):
    """Where a case's finding must be reported, its code and a part of its message."""

    line: int
    column: int
    code: str
    message: str

    def text_line(self, path: Path, severity: str) -> str:
        """The start of the finding's line in text output."""
        return f"{path.name}:{self.line}:{self.column}: {severity} {self.code}: "


def cases(folder: str) -> list[Path]:
    return sorted(p for p in (HERE / folder).iterdir() if p.suffix in RULESET_SUFFIXES and not p.name.startswith("_"))


def run(*args: str):
    return CliRunner().invoke(app, ["validate", *map(str, args)])


def expectation(path: Path) -> Expectation:
    first, second = path.read_bytes().decode("utf-8", errors="replace").splitlines()[:2]
    where, said = EXPECT.match(first), MESSAGE.match(second)
    assert where, f"{path.name}: the first line must be `# expect: LINE:COLUMN CODE`, not {first!r}"
    assert said, f"{path.name}: the second line must be `# message: TEXT`, not {second!r}"
    return Expectation(int(where[1]), int(where[2]), where[3], said[1])


def assert_reported(output: str, path: Path, severity: str) -> None:
    """The text output has the case's finding at its position, with its code and message."""
    expected = expectation(path)
    start = expected.text_line(path, severity)
    lines = [line[line.index(start):] for line in output.splitlines() if start in line]
    assert lines, f"expected {start!r} in:\n{output}"
    assert any(expected.message in line for line in lines), f"expected {expected.message!r} in:\n{output}"


def test_the_example_folders_are_populated():
    assert len(cases("good")) >= 3
    assert len(cases("bad")) >= 19
    assert cases("warn")


@pytest.mark.parametrize("path", cases("good"), ids=lambda p: p.name)
def test_good_file_is_valid(path):
    result = run(path)
    assert result.exit_code == 0, result.output
    assert " error " not in result.output
    assert result.output.rstrip().endswith("1 file checked: 1 valid, 0 invalid")


@pytest.mark.parametrize("path", cases("bad"), ids=lambda p: p.name)
def test_bad_file_reports_its_fault_where_it_is(path):
    result = run(path)
    assert result.exit_code == 1, result.output
    assert_reported(result.output, path, "error")
    assert result.output.rstrip().endswith("1 file checked: 0 valid, 1 invalid")


@pytest.mark.parametrize("path", cases("warn"), ids=lambda p: p.name)
def test_warn_file_reports_its_warning_where_it_is_and_fails_only_with_strict(path):
    plain = run(path)
    assert plain.exit_code == 0, plain.output
    assert_reported(plain.output, path, "warning")
    assert " error " not in plain.output
    strict = run("--strict", path)
    assert strict.exit_code == 1, strict.output
    assert_reported(strict.output, path, "warning")


@pytest.mark.parametrize("name", sorted(shipped_games()))
def test_shipped_ruleset_is_valid(name):
    result = run(shipped_games()[name])
    assert result.exit_code == 0, result.output


def test_shipped_game_may_be_named_instead_of_a_path():
    result = run("forty-thieves")
    assert result.exit_code == 0, result.output
    assert "forty-thieves.yaml: valid" in result.output


def test_extends_by_relative_path_works_from_any_working_directory(tmp_path, monkeypatch):
    for name in ("base-for-sibling.yaml", "extends-sibling.yaml"):
        shutil.copy(HERE / "good" / name, tmp_path / name)
    monkeypatch.chdir(HERE.parent.parent)  # not the files' folder: the path is relative to the extending file
    result = run(tmp_path / "extends-sibling.yaml")
    assert result.exit_code == 0, result.output


def test_finding_lines_have_position_severity_code_message_and_suggestion(tmp_path):
    bad = tmp_path / "typo.yaml"
    bad.write_text("extends: forty-thieves\ngame: Typo\npiles:\n  tableau:\n    build: down in suite\n", encoding="utf-8")
    result = run(bad)
    assert result.exit_code == 1
    lines = result.output.splitlines()
    first = next(line for line in lines if "unknown-macro" in line)
    assert re.fullmatch(rf".*typo\.yaml:5:12: error unknown-macro: .+ \(did you mean 'down in suit'\?\)", first), first
    # The excerpt follows: the source line, then a caret under column 12.
    i = lines.index(first)
    assert lines[i + 1].strip() == "build: down in suite"
    assert lines[i + 2].index("^") == lines[i + 1].index("down")


def test_several_files_summary_and_exit_code():
    good, bad = cases("good")[0], cases("bad")[0]
    result = run(good, bad, good)
    assert result.exit_code == 1
    assert result.output.rstrip().splitlines()[-1] == "3 files checked: 2 valid, 1 invalid"
    assert run(good, good).exit_code == 0


def test_json_format():
    good, bad = cases("good")[0], HERE / "bad" / "unknown-macro.yaml"
    result = run("--format", "json", good, bad)
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert set(data) == {"files", "summary"}
    assert [Path(f["file"]).name for f in data["files"]] == [good.name, bad.name]
    assert [f["valid"] for f in data["files"]] == [True, False]
    for entry in data["files"]:
        assert set(entry) == {"file", "valid", "findings"}
    assert data["files"][0]["findings"] == []
    (finding,) = data["files"][1]["findings"]
    assert set(finding) == {"code", "severity", "message", "file", "line", "column", "suggestion"}
    expected = expectation(bad)
    assert (finding["code"], finding["severity"], finding["line"], finding["column"]) == \
        (expected.code, "error", expected.line, expected.column)
    assert expected.message in finding["message"]
    assert data["summary"]["files"] == 2
    assert data["summary"]["valid"] == 1
    assert data["summary"]["invalid"] == 1


def test_a_warning_fails_a_file_in_json_only_with_strict():
    data = json.loads(run("--strict", "--format", "json", WARN).output)
    assert data["files"][0]["valid"] is False
    assert data["files"][0]["findings"][0]["severity"] == "warning"
    assert json.loads(run("--format", "json", WARN).output)["files"][0]["valid"] is True


def test_strict_does_not_fail_a_file_without_warnings():
    files = [HERE / "good" / "minimal-one-pack.yaml", HERE / "good" / "extends-sibling.yaml"]
    assert run("--strict", *files).exit_code == 0


def test_no_files_is_a_usage_error():
    assert run().exit_code == 2


def test_missing_file_is_a_usage_error(tmp_path):
    # A terminal wide enough for the whole path: the usage box wraps a long one (as a parallel run's tmp_path is).
    result = CliRunner().invoke(app, ["validate", str(tmp_path / "nowhere.yaml")], env={"COLUMNS": "400"})
    assert result.exit_code == 2
    assert "nowhere.yaml" in result.output


def test_a_name_too_long_to_look_up_is_a_usage_error():
    """The system refuses to look up a name this long (ENAMETOOLONG): it names no file, like a missing one."""
    result = run("a" * 5000)
    assert result.exit_code == 2, result.exception


def test_validate_files_is_usable_without_the_command():
    good, bad, warn = cases("good")[0], HERE / "bad" / "unknown-macro.yaml", WARN
    results = validate_files([good, bad, warn])
    assert [r.valid for r in results] == [True, False, True]
    assert [f.code for f in results[1].findings] == ["unknown-macro"]
    assert [f.severity for f in results[2].findings] == ["warning"]
    assert [r.valid for r in validate_files([warn], strict=True)] == [False]


def test_the_variant_example_says_what_it_means():
    """Overrides, `add:` and each kind of change in good/variant-of-forty-thieves.yaml take effect."""
    from kallisti.model.ruleset import load_ruleset

    rules = load_ruleset(HERE / "good" / "variant-of-forty-thieves.yaml")
    tableau, stock, foundation, waste = (rules.groups[g] for g in ("tableau", "stock", "foundation", "waste"))
    assert len(tableau.piles) == 11
    assert (stock.redeals, stock.redeal.gather) == (1, ("waste",))
    assert [(c.id, c.kind) for c in tableau.build.clauses][-1] == ("no-queen-on-king", "forbid")
    assert [c.id for c in tableau.empty.clauses] == ["kings-only"]
    assert [c.id for c in waste.take.clauses] == ["one-card", "waste-not-empty"]
    same_suit = [c for c in foundation.build.clauses if c.id == "same-suit"]
    assert [c.text for c in same_suit] == ["card.suit == top.suit and card.color == top.color"]


def test_the_sibling_example_extends_its_neighbour():
    from kallisti.model.ruleset import load_ruleset

    rules = load_ruleset(HERE / "good" / "extends-sibling.yaml")
    assert rules.name == "Twin Rows, Wide"
    assert len(rules.groups["tableau"].piles) == 8
    assert [c.id for c in rules.groups["tableau"].build.clauses] == ["rank-down", "alternate-colour"]
    assert [Path(s.name).name for s in rules.sources] == ["base-for-sibling.yaml", "extends-sibling.yaml"]


# --format github: GitHub Actions workflow commands, one per finding, then the summary line.


def test_github_format_annotates_a_bad_file(monkeypatch):
    bad = HERE / "bad" / "unknown-macro.yaml"
    line, column, code, _ = expectation(bad)
    monkeypatch.chdir(HERE.parent.parent)  # paths in annotations are relative to the checkout
    result = run("--format", "github", "tests/rulesets/bad/unknown-macro.yaml")
    assert result.exit_code == 1, result.output
    assert result.output.splitlines() == [
        f"::error file=tests/rulesets/bad/unknown-macro.yaml,line={line},col={column},title={code}::"
        "'down in suite' is not a rule macro in piles.tableau.build (did you mean 'down in suit'?)",
        "1 file checked: 0 valid, 1 invalid",
    ]


def test_github_format_makes_an_absolute_path_below_the_working_directory_relative(monkeypatch):
    monkeypatch.chdir(HERE.parent.parent)
    result = run("--format", "github", (HERE / "bad" / "unknown-macro.yaml").resolve())
    assert result.output.startswith("::error file=tests/rulesets/bad/unknown-macro.yaml,line=7,col=12,"), result.output


@pytest.mark.parametrize("path", cases("bad"), ids=lambda p: p.name)
def test_github_format_places_every_bad_example(path):
    line, column, code, message = expectation(path)
    result = run("--format", "github", path)
    assert result.exit_code == 1, result.output
    wanted = re.compile(rf"::error file=[^,]*{re.escape(path.name)},line={line},col={column},title={code}::.*"
                        rf"{re.escape(escape_data(message))}.*")
    assert any(wanted.fullmatch(out) for out in result.output.splitlines()), result.output
    assert result.output.rstrip().splitlines()[-1] == "1 file checked: 0 valid, 1 invalid"


def test_github_format_escapes_messages_and_properties():
    from kallisti.cli.report import escape_data, escape_property, github_command
    from kallisti.errors import Finding, Pos

    assert escape_data("100% sure: a, b\r\nc") == "100%25 sure: a, b%0D%0Ac"
    assert escape_property("100% sure: a, b\r\nc") == "100%25 sure%3A a%2C b%0D%0Ac"
    finding = Finding("yaml-syntax", "50% off: first line\nsecond, line", Pos("dir,x/a:b.yaml", 3, 7),
                      suggestion="try 100%")
    assert github_command(finding) == (
        "::error file=dir%2Cx/a%3Ab.yaml,line=3,col=7,title=yaml-syntax::"
        "50%25 off: first line%0Asecond, line (try 100%25)")


def test_github_format_omits_line_and_col_for_a_finding_without_a_line():
    from kallisti.cli.report import github_command
    from kallisti.errors import Finding, Pos

    assert github_command(Finding("file-unreadable", "cannot read", Pos("a.yaml"))) == \
        "::error file=a.yaml,title=file-unreadable::cannot read"
    assert github_command(Finding("file-unreadable", "cannot read")) == "::error title=file-unreadable::cannot read"


def test_github_format_reports_a_warning_as_a_warning():
    line, column, code, _ = expectation(WARN)
    result = run("--format", "github", WARN)
    assert result.exit_code == 0, result.output
    first, last = result.output.rstrip().splitlines()
    assert re.fullmatch(rf"::warning file=[^,]*{re.escape(WARN.name)},line={line},col={column},title={code}::.+", first)
    assert last == "1 file checked: 1 valid, 0 invalid"
    assert run("--strict", "--format", "github", WARN).exit_code == 1


def test_github_format_of_valid_files_is_only_the_summary():
    good = cases("good")
    result = run("--format", "github", *good)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == [f"{len(good)} files checked: {len(good)} valid, 0 invalid"]


@pytest.mark.parametrize("fmt", ["text", "json", "github"])
def test_every_format_ends_with_the_summary_and_exits_by_validity(fmt):
    good, bad = cases("good")[0], HERE / "bad" / "unknown-macro.yaml"
    result = run("--format", fmt, good, bad, good)
    assert result.exit_code == 1, result.output
    if fmt == "json":
        summary = json.loads(result.output)["summary"]
        assert summary == {"files": 3, "valid": 2, "invalid": 1, "errors": 1, "warnings": 0}
    else:
        assert result.output.rstrip().splitlines()[-1] == "3 files checked: 2 valid, 1 invalid"
    assert run("--format", fmt, good, good).exit_code == 0
    assert run("--format", fmt).exit_code == 2


def test_unknown_format_is_a_usage_error():
    assert run("--format", "xml", cases("good")[0]).exit_code == 2


# Folders: every *.yaml, *.yml and *.rules file below, sorted.


def test_a_folder_means_every_ruleset_file_below_it(tmp_path):
    from kallisti.cli.validate import ruleset_files_below

    (tmp_path / "b" / "deeper").mkdir(parents=True)
    (tmp_path / ".hidden").mkdir()
    shutil.copy(HERE / "good" / "minimal-one-pack.yaml", tmp_path / "b" / "deeper" / "one.yml")
    shutil.copy(HERE / "good" / "minimal-one-pack.yaml", tmp_path / "a.yaml")
    shutil.copy(HERE / "bad" / "unknown-macro.yaml", tmp_path / "b" / "macro.yaml")
    shutil.copy(Path(__file__).parent.parent / "examples" / "twelve-thieves.rules", tmp_path / "b" / "twelve.rules")
    shutil.copy(HERE / "bad" / "unknown-macro.yaml", tmp_path / ".hidden" / "skipped.yaml")
    (tmp_path / "notes.txt").write_text("not a ruleset", encoding="utf-8")
    (tmp_path / ".pre-commit-config.yaml").write_text("repos: []\n", encoding="utf-8")
    expected = ["a.yaml", "b/deeper/one.yml", "b/macro.yaml", "b/twelve.rules"]
    assert [p.relative_to(tmp_path).as_posix() for p in ruleset_files_below(tmp_path)] == expected

    result = run("--format", "json", tmp_path)
    assert result.exit_code == 1, result.output
    data = json.loads(result.output)
    assert [Path(f["file"]).relative_to(tmp_path).as_posix() for f in data["files"]] == expected
    assert [f["valid"] for f in data["files"]] == [True, True, False, True]
    text = run(tmp_path)
    assert text.output.rstrip().splitlines()[-1] == "4 files checked: 3 valid, 1 invalid"


def test_a_folder_of_good_rulesets_is_valid():
    result = run(HERE / "good")
    assert result.exit_code == 0, result.output
    n = len(list((HERE / "good").glob("*.yaml")))
    assert result.output.rstrip().splitlines()[-1] == f"{n} files checked: {n} valid, 0 invalid"


def test_a_folder_without_rulesets_is_a_usage_error(tmp_path):
    (tmp_path / "notes.txt").write_text("nothing here", encoding="utf-8")
    result = run(tmp_path)
    assert result.exit_code == 2
    words = " ".join(result.output.replace("│", " ").split())  # the message may be wrapped in a box
    assert "holds no ruleset files" in words, result.output


# Faults whose example would be huge, or cannot be kept in the repository: each case is generated in tmp_path.

FORTY_THIEVES_VARIANT = "extends: forty-thieves\ngame: Generated\n"
BIG = "game: Big\n" + "#" * 1_000_001 + "\n"
# 84 clauses in each of 6 groups (no rule may have more than 100), and 2 clauses of each group's default rules: 516
BUILD_CLAUSES = "".join(f"      - {{id: c{i}, require: card.rank != top.rank}}\n" for i in range(84))
ITEMS = "add:\n  x: [" + "1, " * 1000 + "1]\n"  # 1,001 items: the 1,001st at column 7 + 3 * 1000
KEYS = "add:\n  x: {" + ", ".join(f"k{i}: 1" for i in range(1001)) + "}\n"
RULES_ITEMS = "extends forty-thieves\ngame: Generated\nset piles.tableau.deal [" + "up, " * 1000 + "up]\n"
GENERATED = {  # file name (its stem is the code): text, line, column, message
    "file-too-large.yaml": (BIG, 0, 0, "the ruleset file is larger than 1000000 bytes"),
    "file-too-large.rules": (BIG, 0, 0, "the ruleset file is larger than 1000000 bytes"),
    "yaml-depth.yaml": (FORTY_THIEVES_VARIANT + "add:\n  x: " + "[" * 41 + "]" * 41 + "\n", 4, 45, "nesting deeper than 40 levels"),
    "expr-too-long.yaml": (FORTY_THIEVES_VARIANT + "score: foundation.size" + " + 1" * 500 + "\n", 3, 8,
                           "expression longer than 2000 characters"),
    "too-many-piles.yaml": ("game: Many Piles\npiles:\n" + "".join(f"  g{i}: {{count: 200}}\n" for i in range(3))
                            + "win: g0.empty\n", 2, 1, "600 piles; at most 400"),
    "too-many-clauses.yaml": ("game: Many Clauses\npiles:\n"
                              + "".join(f"  g{g}:\n    build:\n" + BUILD_CLAUSES for g in range(6))
                              + "win: g0.empty\n", 2, 1, "516 clauses; at most 500"),
    "too-many-items.yaml": (FORTY_THIEVES_VARIANT + ITEMS, 4, 3007, "a list of more than 1,000 items"),
    # the line's 1,001st word or item: `set`, the path, then the 999th `up`, 4 characters apart from column 25
    "too-many-items.rules": (RULES_ITEMS, 3, 25 + 4 * 998, "a line of more than 1,000 words and list items"),
    "too-many-keys.yaml": (FORTY_THIEVES_VARIANT + KEYS, 4, 7 + KEYS.index("k1000") - KEYS.index("k0"),
                           "a map of more than 1,000 keys"),
}


def only_finding(path: Path):
    (result,) = validate_files([path])
    assert not result.valid
    (finding,) = result.findings
    return finding


@pytest.mark.parametrize("name", sorted(GENERATED))
def test_a_generated_case_reports_its_fault_where_it_is(name, tmp_path):
    text, line, column, message = GENERATED[name]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    finding = only_finding(path)
    assert (finding.code, finding.severity, finding.pos.line, finding.pos.column) == (path.stem, "error", line, column)
    assert message in finding.message


def test_an_unreadable_file_is_a_finding_at_the_file(tmp_path):
    folder = tmp_path / "folder.yaml"  # read as a file, a folder fails as a file without permission would
    folder.mkdir()
    finding = only_finding(folder)
    assert (finding.code, finding.pos.source, finding.pos.line) == ("file-unreadable", str(folder), 0)
    assert finding.message.startswith("cannot read the ruleset file: ")


def test_an_extends_chain_too_long_is_reported_at_the_extends_that_goes_too_far(tmp_path):
    for i in range(8):  # v7 extends v6 ... v0, which extends forty-thieves: nine files
        parent = "forty-thieves" if i == 0 else f"./v{i - 1}.yaml"
        (tmp_path / f"v{i}.yaml").write_text(f"extends: {parent}\ngame: Variant {i}\n", encoding="utf-8")
    assert validate_files([tmp_path / "v6.yaml"])[0].valid
    finding = only_finding(tmp_path / "v7.yaml")
    assert (finding.code, Path(finding.pos.source).name, finding.pos.line, finding.pos.column) == ("extends-depth", "v0.yaml", 1, 10)
    assert finding.message == "`extends` chain longer than 8"


CUT = """\
game: Cut Texts
description: Hands of three cards.
hands:
  size: 3
  groupings:
    pair:
      rank: 1  # a comment after a number
      cards: 2
      when: "cards.bottom.rank == cards.top.rank"  # a comment after a quoted text
      says: two cards of a rank
    three:
      rank: 2
      cards: 3
      when: cards.bottom.rank == cards.top.rank and
        cards.size == 3 #3
      says: three cards of a rank  # with a comment
"""


def test_a_comment_that_cuts_a_plain_text_short_is_a_warning_where_the_text_is_prose(tmp_path):
    path = tmp_path / "cut.yaml"
    path.write_text(CUT, encoding="utf-8")
    (result,) = validate_files([path])
    cut = [(f.pos.line, f.pos.column) for f in result.findings if f.code == "text-cut-by-comment"]
    assert cut == [(15, 25), (16, 36)], "a text of two lines, and a `says`; not a comment after a one-line value"
    assert result.valid and not validate_files([path], strict=True)[0].valid


def test_the_octavo_says_of_onion_as_first_written_is_cut_by_its_hash(tmp_path):
    from kallisti.model.loader import RULESETS

    text = (RULESETS / "onion.yaml").read_text(encoding="utf-8")
    quoted = 'says: "eight eights, only in a round where eights are wild (modifier #3)"'
    assert quoted in text
    path = tmp_path / "onion.yaml"
    path.write_text(text.replace(quoted, quoted.replace('"', "")), encoding="utf-8")
    (finding,) = [f for f in validate_files([path])[0].findings if f.code == "text-cut-by-comment"]
    assert "'…a round where eights are wild (modifier', and '#3)' is dropped" in finding.message
