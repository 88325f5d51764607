"""`kallisti validate`: the example rulesets under tests/rulesets/ and the command's output and exit codes.

Each file in tests/rulesets/bad/ holds one fault; its first line says where the finding must be
reported, as `# expect: LINE:COLUMN CODE`. Files whose names start with `_` are helpers that
another case needs (e.g. the other half of an `extends` cycle), not cases of their own.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.cli.validate import validate_files
from kallisti.model.loader import shipped_games

HERE = Path(__file__).parent / "rulesets"
EXPECT = re.compile(r"^# expect: (\d+):(\d+) ([a-z][a-z0-9-]*)$")


def cases(folder: str) -> list[Path]:
    return sorted(p for p in (HERE / folder).glob("*.yaml") if not p.name.startswith("_"))


def run(*args: str):
    return CliRunner().invoke(app, ["validate", *map(str, args)])


def expectation(path: Path) -> tuple[int, int, str]:
    first = path.read_text(encoding="utf-8").splitlines()[0]
    match = EXPECT.match(first)
    assert match, f"{path.name}: the first line must be `# expect: LINE:COLUMN CODE`, not {first!r}"
    return int(match[1]), int(match[2]), match[3]


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
    line, column, code = expectation(path)
    result = run(path)
    assert result.exit_code == 1, result.output
    wanted = f"{path.name}:{line}:{column}: error {code}:"
    assert wanted in result.output, f"expected {wanted!r} in:\n{result.output}"
    assert result.output.rstrip().endswith("1 file checked: 0 valid, 1 invalid")


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
    line, column, code = expectation(bad)
    assert (finding["code"], finding["severity"], finding["line"], finding["column"]) == (code, "error", line, column)
    assert data["summary"]["files"] == 2
    assert data["summary"]["valid"] == 1
    assert data["summary"]["invalid"] == 1


def test_warning_is_printed_and_fails_only_with_strict():
    (warn,) = cases("warn")
    plain = run(warn)
    assert plain.exit_code == 0, plain.output
    assert re.search(rf"{re.escape(warn.name)}:\d+:\d+: warning empty-stock: ", plain.output), plain.output
    strict = run("--strict", warn)
    assert strict.exit_code == 1, strict.output
    assert "warning empty-stock" in strict.output
    data = json.loads(run("--strict", "--format", "json", warn).output)
    assert data["files"][0]["valid"] is False
    assert data["files"][0]["findings"][0]["severity"] == "warning"


def test_strict_does_not_fail_a_file_without_warnings():
    files = [HERE / "good" / "minimal-one-pack.yaml", HERE / "good" / "extends-sibling.yaml"]
    assert run("--strict", *files).exit_code == 0


def test_no_files_is_a_usage_error():
    assert run().exit_code == 2


def test_missing_file_is_a_usage_error(tmp_path):
    result = run(tmp_path / "nowhere.yaml")
    assert result.exit_code == 2
    assert "nowhere.yaml" in result.output


def test_validate_files_is_usable_without_the_command():
    good, bad = cases("good")[0], HERE / "bad" / "unknown-macro.yaml"
    (warn,) = cases("warn")
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
    line, column, code = expectation(bad)
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
    assert result.output.startswith("::error file=tests/rulesets/bad/unknown-macro.yaml,line=6,col=12,"), result.output


@pytest.mark.parametrize("path", cases("bad"), ids=lambda p: p.name)
def test_github_format_places_every_bad_example(path):
    line, column, code = expectation(path)
    result = run("--format", "github", path)
    assert result.exit_code == 1, result.output
    wanted = re.compile(rf"::error file=[^,]*{re.escape(path.name)},line={line},col={column},title={code}::.+")
    assert any(wanted.fullmatch(out) for out in result.output.splitlines()), result.output
    assert result.output.rstrip().splitlines()[-1] == "1 file checked: 0 valid, 1 invalid"


def test_github_format_escapes_messages_and_properties():
    from kallisti.cli.report import escape_data, escape_property, github_command
    from kallisti.errors import Finding, Pos

    assert escape_data("100% sure: a, b\r\nc") == "100%25 sure: a, b%0D%0Ac"
    assert escape_property("100% sure: a, b\r\nc") == "100%25 sure%3A a%2C b%0D%0Ac"
    finding = Finding("odd-code", "50% off: first line\nsecond, line", Pos("dir,x/a:b.yaml", 3, 7),
                      suggestion="try 100%")
    assert github_command(finding) == (
        "::error file=dir%2Cx/a%3Ab.yaml,line=3,col=7,title=odd-code::"
        "50%25 off: first line%0Asecond, line (try 100%25)")


def test_github_format_omits_line_and_col_for_a_finding_without_a_line():
    from kallisti.cli.report import github_command
    from kallisti.errors import Finding, Pos

    assert github_command(Finding("io", "cannot read", Pos("a.yaml"))) == "::error file=a.yaml,title=io::cannot read"
    assert github_command(Finding("io", "cannot read")) == "::error title=io::cannot read"


def test_github_format_reports_a_warning_as_a_warning():
    (warn,) = cases("warn")
    result = run("--format", "github", warn)
    assert result.exit_code == 0, result.output
    first, last = result.output.rstrip().splitlines()
    assert re.fullmatch(rf"::warning file=[^,]*{re.escape(warn.name)},line=\d+,col=\d+,title=empty-stock::.+", first)
    assert last == "1 file checked: 1 valid, 0 invalid"
    assert run("--strict", "--format", "github", warn).exit_code == 1


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
