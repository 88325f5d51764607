"""Editor support: the ruleset-file schema describes every key, shipped YAML rulesets name it, and `kallisti schema` prints it.

YAML language servers show a key's `description` as hover help and beside completions, and find the
schema of a file from its first-line `# yaml-language-server: $schema=...` comment.
"""

import json
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

import kallisti.schema as schema_module
from kallisti.cli.app import app
from kallisti.model.loader import RULESETS, parse_file
from kallisti.located import plain
from kallisti.schema import export, schema

SCHEMA_DIR = Path(schema_module.__file__).parent
MODELINE = "# yaml-language-server: $schema=../schema/ruleset-file.schema.json"
GENERIC = "an expression of the rule language"
SHIPPED_YAML = sorted(RULESETS.glob("*.yaml"))


def _resolve(root: dict, ref: str) -> dict:
    node = root
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return node


def _described(root: dict, sub) -> bool:
    """Whether a key's schema (or the schema its `$ref` names) says what the key means, beyond "an expression"."""
    if not isinstance(sub, dict):
        return False
    text = sub.get("description")
    if text is None and "$ref" in sub:
        text = _resolve(root, sub["$ref"]).get("description")
    return bool(text) and text != GENERIC


def undescribed(node, root: dict, where: str = "") -> list[str]:
    """Every key (and every named entry of a map) under `node` whose schema has no description."""
    out: list[str] = []
    if not isinstance(node, dict):
        return out
    for key, sub in node.get("properties", {}).items():
        path = f"{where}.{key}" if where else key
        if not _described(root, sub):
            out.append(path)
        out += undescribed(sub, root, path)
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        path = f"{where}.<name>"
        if extra.get("type") == "object" and not _described(root, extra):
            out.append(path)
        out += undescribed(extra, root, path)
    items = node.get("items")
    if isinstance(items, dict):
        out += undescribed(items, root, f"{where}[]")
    for keyword in ("oneOf", "anyOf", "allOf"):
        for branch in node.get(keyword, []):
            out += undescribed(branch, root, where)
    for name, sub in node.get("$defs", {}).items():
        out += undescribed(sub, root, f"$defs.{name}")
    return sorted(set(out))


def test_the_walk_finds_a_key_without_a_description():
    toy = {"type": "object", "properties": {"a": {"type": "string", "description": "an a"},
                                            "b": {"type": "array", "items": {"properties": {"c": {"type": "string"}}}},
                                            "d": {"$ref": "#/$defs/e"}, "f": {"type": "string", "description": GENERIC}},
           "additionalProperties": False, "$defs": {"e": {"oneOf": [{"properties": {"g": {}}}]}}}
    assert undescribed(toy, toy) == ["$defs.e.g", "b", "b[].c", "d", "f"]


@pytest.mark.parametrize("kind", ["file", "resolved"])
def test_every_key_a_ruleset_may_hold_has_a_description(kind):
    s = schema(kind)
    missing = undescribed(s, s)
    assert not missing, "keys without a description: " + ", ".join(missing)


def test_the_committed_file_schema_describes_every_key_too():
    committed = json.loads((SCHEMA_DIR / "ruleset-file.schema.json").read_text(encoding="utf-8"))
    assert not undescribed(committed, committed)


@pytest.mark.parametrize("path", SHIPPED_YAML, ids=lambda p: p.name)
def test_a_shipped_yaml_ruleset_names_its_schema_on_its_first_line(path):
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first == MODELINE
    target = (path.parent / first.split("$schema=", 1)[1]).resolve()
    assert target == (SCHEMA_DIR / "ruleset-file.schema.json").resolve()
    assert target.read_text(encoding="utf-8") == export()["ruleset-file.schema.json"]


@pytest.mark.parametrize("path", SHIPPED_YAML, ids=lambda p: p.name)
def test_a_shipped_yaml_ruleset_is_valid_against_the_exported_schema_as_an_editor_sees_it(path):
    data, _ = parse_file(path)
    exported = json.loads(export()["ruleset-file.schema.json"])
    jsonschema.Draft202012Validator.check_schema(exported)
    errors = [f"{'.'.join(map(str, e.absolute_path))}: {e.message}"
              for e in jsonschema.Draft202012Validator(exported).iter_errors(plain(data))]
    assert not errors, errors


def test_there_are_shipped_yaml_rulesets():
    assert len(SHIPPED_YAML) >= 20


# -- kallisti schema ---------------------------------------------------------------------------
runner = CliRunner()


def test_schema_prints_the_file_schema():
    result = runner.invoke(app, ["schema"])
    assert result.exit_code == 0, result.output
    assert result.stdout == export()["ruleset-file.schema.json"]
    assert json.loads(result.stdout) == schema("file")


def test_schema_resolved_prints_the_resolved_schema():
    result = runner.invoke(app, ["schema", "--resolved"])
    assert result.exit_code == 0, result.output
    assert result.stdout == export()["ruleset.schema.json"]


def test_schema_output_writes_the_file(tmp_path):
    out = tmp_path / "ruleset.schema.json"
    out.write_text("old", encoding="utf-8")
    result = runner.invoke(app, ["schema", "--output", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == export()["ruleset-file.schema.json"]
    assert result.stdout == ""
    assert [p.name for p in tmp_path.iterdir()] == ["ruleset.schema.json"]  # no temporary file left behind
    result = runner.invoke(app, ["schema", "--resolved", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == export()["ruleset.schema.json"]


def test_schema_output_into_a_missing_folder_is_a_usage_error(tmp_path):
    result = runner.invoke(app, ["schema", "--output", str(tmp_path / "nowhere" / "s.json")])
    assert result.exit_code == 2
    assert not (tmp_path / "nowhere").exists()
