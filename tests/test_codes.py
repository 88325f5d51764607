"""The registry of finding codes (kallisti.codes) against docs/checks.md and the example rulesets."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kallisti.codes import CODES, STAGES, ruleset_codes
from kallisti.errors import Finding

TESTS = Path(__file__).parent
CHECKS_MD = TESTS.parent / "docs" / "checks.md"
FOLDER_OF = {"error": "bad", "warning": "warn"}
HEADING = re.compile(r"^### `([^`]+)`$", re.MULTILINE)
EXPECT = re.compile(r"^# expect: \d+:\d+ ([a-z][a-z0-9-]*)$")

# Codes whose example would be huge, or cannot be kept as a file, by the test of tests/test_cli_validate.py that
# generates them in tmp_path.
GENERATED = {
    "file-unreadable": "test_an_unreadable_file_is_a_finding_at_the_file",  # a folder read as a file
    "file-too-large": "test_a_generated_case_reports_its_fault_where_it_is",
    "yaml-depth": "test_a_generated_case_reports_its_fault_where_it_is",
    "expr-too-long": "test_a_generated_case_reports_its_fault_where_it_is",
    "too-many-piles": "test_a_generated_case_reports_its_fault_where_it_is",
    "too-many-clauses": "test_a_generated_case_reports_its_fault_where_it_is",
    "too-many-items": "test_a_generated_case_reports_its_fault_where_it_is",
    "too-many-keys": "test_a_generated_case_reports_its_fault_where_it_is",
    "extends-depth": "test_an_extends_chain_too_long_is_reported_at_the_extends_that_goes_too_far",
}


def case_files() -> list[Path]:
    """Every case file of tests/rulesets/bad and tests/rulesets/warn (helpers, named `_…`, are not cases)."""
    return sorted(p for folder in FOLDER_OF.values() for p in (TESTS / "rulesets" / folder).iterdir()
                  if p.suffix in (".yaml", ".yml", ".rules") and not p.name.startswith("_"))


def expected_code(path: Path) -> str:
    first = path.read_bytes().decode("utf-8", errors="replace").splitlines()[0]
    match = EXPECT.match(first)
    assert match, f"{path.name}: the first line must be `# expect: LINE:COLUMN CODE`, not {first!r}"
    return match[1]


def test_every_code_has_a_severity_a_stage_and_a_one_sentence_summary():
    for name, code in CODES.items():
        assert code.name == name
        assert code.severity in FOLDER_OF, name
        assert code.stage in STAGES, name
        assert code.summary.endswith(".") and ". " not in code.summary, name


def test_docs_document_every_registered_code_and_no_other():
    documented = HEADING.findall(CHECKS_MD.read_text(encoding="utf-8"))
    assert len(documented) == len(set(documented)), "a code is documented twice"
    assert sorted(set(CODES) - set(documented)) == [], "registered but not documented in docs/checks.md"
    assert sorted(set(documented) - set(CODES)) == [], "documented in docs/checks.md but not registered"


def test_every_ruleset_code_has_an_example():
    examples = {expected_code(p) for p in case_files()} | set(GENERATED)
    wanted = {c for c in ruleset_codes() if CODES[c].stage != "play"}
    assert sorted(wanted - examples) == []


def test_generated_examples_name_a_test_that_exists():
    source = (TESTS / "test_cli_validate.py").read_text(encoding="utf-8")
    for code, test in GENERATED.items():
        assert f"def {test}(" in source, f"{code}: no test {test}"
        assert code in source, f"{code}: not generated in tests/test_cli_validate.py"


@pytest.mark.parametrize("path", case_files(), ids=lambda p: p.name)
def test_a_case_file_is_in_the_folder_of_its_codes_severity(path):
    code = expected_code(path)
    assert code in CODES, f"{path.name}: '{code}' is not registered"
    assert path.parent.name == FOLDER_OF[CODES[code].severity]


def test_an_unregistered_code_is_refused():
    with pytest.raises(ValueError, match="no-such-code"):
        Finding("no-such-code", "x")
