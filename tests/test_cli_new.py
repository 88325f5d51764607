"""`kallisti new NAME --from GAME`: a variant file that extends GAME, valid as written, the parent's rules
under a new name, with the parent's keys, an override, a change and the modifiers as comments."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.cli.new import title_of
from kallisti.model.loader import shipped_games
from kallisti.model.ruleset import load_ruleset
from shipped import shipped  # the parents, loaded once per process (the Onion family takes a good part of a second)

GAMES = sorted(shipped_games())


def run(*args):
    return CliRunner().invoke(app, [str(a) for a in args])


def rules_but_name(rules) -> dict:
    data = rules.plain()
    del data["game"], data["description"]
    return data


def uncommented(text: str, heading: str) -> list[str]:
    """The commented lines after the comment line starting with `heading`, up to a `#` line, uncommented."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("# " + heading)) + 1
    out = []
    for line in lines[start:]:
        if line.strip() == "#" or not line.startswith("# "):
            break
        out.append(line[2:])
    assert out, f"no example after {heading!r}"
    return out


def group_comment(text: str, group: str) -> str:
    """The comment listing a pile group's keys, its continuation lines joined to it."""
    lines = text.splitlines()
    i = next((i for i, x in enumerate(lines) if x.startswith(f"#     {group}: {{")), None)
    assert i is not None, f"no comment line for pile group {group}:\n{text}"
    out = [lines[i]]
    for line in lines[i + 1:]:
        if not line.startswith("#         "):
            break
        out.append(line[len("#        "):])
    return "".join(out)


@pytest.mark.parametrize("syntax", ["yaml", "rules"])
@pytest.mark.parametrize("game", GAMES)
def test_new_variant_of_every_game_validates_and_has_the_parents_rules(game, syntax, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("new", "my-variant", "--from", game, "--syntax", syntax)
    assert result.exit_code == 0, result.output
    out = tmp_path / f"my-variant.{syntax}"
    text = out.read_text(encoding="utf-8")
    assert (f"extends: {game}" if syntax == "yaml" else f"extends {game}") in text.splitlines()
    assert "game: My Variant" in text.splitlines()
    assert re.search(r"^description: .+", text, re.M)

    validated = run("validate", out)
    assert validated.exit_code == 0, validated.output
    assert " error " not in validated.output
    assert run("fmt", "--check", out).exit_code == 0  # written in the canonical layout

    child, parent = load_ruleset(out), shipped(game)
    assert child.name == "My Variant"
    assert rules_but_name(child) == rules_but_name(parent)

    # the comments list the parent's pile groups, each with its keys
    for group, keys in parent.plain().get("piles", {}).items():
        listed = group_comment(text, group)
        for key in keys:
            assert re.search(rf"[{{ ]{re.escape(key)}: ", listed), f"{group}.{key} not listed in {listed!r}"
        assert f"count: {keys['count']}" in listed


@pytest.mark.parametrize("syntax", ["yaml", "rules"])
@pytest.mark.parametrize("game", GAMES)
def test_the_commented_examples_are_valid_when_uncommented(game, syntax, tmp_path):
    out = tmp_path / f"v.{syntax}"
    assert run("new", "v", "--from", game, "-o", out).exit_code == 0
    text = out.read_text(encoding="utf-8")
    for heading in ("Override a key", "Add a clause", "Turn a modifier off"):
        if "# " + heading not in text:
            continue
        edited = tmp_path / f"edited.{syntax}"
        edited.write_text(text + "\n".join(uncommented(text, heading)) + "\n", encoding="utf-8")
        result = run("validate", edited)
        assert result.exit_code == 0, f"{heading}:\n{edited.read_text()}\n{result.output}"
    assert ("# Add a clause" in text) == bool(shipped(game).plain().get("piles"))


def test_forty_thieves_yaml_says_what_to_change(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("new", "my-thieves", "--from", "forty-thieves")
    assert result.exit_code == 0, result.output
    assert "wrote my-thieves.yaml" in result.stderr
    text = (tmp_path / "my-thieves.yaml").read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[1:4] == ["extends: forty-thieves", "game: My Thieves",
                          "description: A variant of Forty Thieves; say here how it differs."]
    assert any(x.startswith("#     tableau: {role: tableau, count: 10, deal: [up, up, up, up], build: down in suit,")
               for x in lines), text
    for group in ("foundation", "tableau", "stock", "waste"):
        assert any(x.startswith(f"#     {group}: {{") for x in lines)
    assert "#   win: foundation.size == deck.size" in lines
    assert "#   auto: [aces-up]" in lines
    assert uncommented(text, "Override a key") == ["piles:", "  tableau: {count: 10}"]
    assert uncommented(text, "Add a clause") == ["changes:", "  - forbid: piles.tableau.build", "    id: no-kings",
                                                  "    expr: card.rank == last"]


def test_rules_syntax_examples_use_phrases_and_rule_changes(tmp_path):
    out = tmp_path / "twelve.rules"
    assert run("new", "twelve-thieves", "--from", "forty-thieves", "-o", out).exit_code == 0
    text = out.read_text(encoding="utf-8")
    assert "extends forty-thieves" in text.splitlines()
    assert "game: Twelve Thieves" in text.splitlines()
    assert uncommented(text, "Override a key") == ["tableau: 10 piles"]
    assert uncommented(text, "Add a clause") == ["changes:", '    forbid tableau.build "No kings": card.rank == last']


def test_onion_lists_its_modifiers_with_their_names(tmp_path):
    out = tmp_path / "no-fool.rules"
    assert run("new", "no-fool", "--from", "onion", "-o", out).exit_code == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    assert "#     set modifiers.fool.enabled false  # Modifier #11: the Fool" in lines
    modifiers = shipped("onion").plain()["modifiers"]
    for mid, modifier in modifiers.items():
        assert any(x.startswith(f"#     set modifiers.{mid}.enabled ") and x.endswith(f"# {modifier['name']}") for x in lines)
    yaml_out = tmp_path / "no-fool.yaml"
    assert run("new", "no-fool", "--from", "onion", "-o", yaml_out).exit_code == 0
    assert "#   - {set: modifiers.fool.enabled, value: false}  # Modifier #11: the Fool" in \
        yaml_out.read_text(encoding="utf-8").splitlines()


def test_refuses_to_overwrite_an_existing_file(tmp_path):
    out = tmp_path / "mine.yaml"
    out.write_text("game: Mine\n", encoding="utf-8")
    result = run("new", "mine", "--from", "spider", "-o", out)
    assert result.exit_code == 1
    assert "exists" in result.stderr and "--force" in result.stderr
    assert out.read_text(encoding="utf-8") == "game: Mine\n"


def test_force_overwrites(tmp_path):
    out = tmp_path / "mine.yaml"
    out.write_text("game: Mine\n", encoding="utf-8")
    result = run("new", "mine", "--from", "spider", "-o", out, "--force")
    assert result.exit_code == 0, result.output
    assert "extends: spider" in out.read_text(encoding="utf-8").splitlines()
    assert [p.name for p in tmp_path.iterdir()] == ["mine.yaml"]  # no temporary file left behind


def test_unknown_game_suggests_the_closest(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("new", "mine", "--from", "fourty-thieves")
    assert result.exit_code == 1
    assert "unknown-game" in result.stderr
    assert "did you mean 'forty-thieves'?" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_syntax_from_the_extension_and_the_default_file_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run("new", "a", "--from", "maria").exit_code == 0
    assert run("new", "b", "--from", "maria", "--syntax", "rules").exit_code == 0
    assert run("new", "c", "--from", "maria", "-o", "c-file.rules").exit_code == 0
    assert run("new", "d.rules", "--from", "maria").exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.yaml", "b.rules", "c-file.rules", "d.rules"]
    assert "extends maria" in (tmp_path / "c-file.rules").read_text(encoding="utf-8").splitlines()
    assert "game: D" in (tmp_path / "d.rules").read_text(encoding="utf-8").splitlines()
    result = run("new", "e", "--from", "maria", "-o", "e.yaml", "--syntax", "rules")
    assert result.exit_code == 2
    assert not (tmp_path / "e.yaml").exists()


def test_a_parent_file_is_extended_by_its_path_from_the_new_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "games").mkdir()
    assert run("new", "games/base", "--from", "lucas").exit_code == 0
    result = run("new", "child", "--from", "games/base.yaml")
    assert result.exit_code == 0, result.output
    text = (tmp_path / "child.yaml").read_text(encoding="utf-8")
    assert "extends: games/base.yaml" in text.splitlines()
    assert "# Child: a variant of Base." in text
    assert run("validate", "child.yaml").exit_code == 0
    assert rules_but_name(load_ruleset(tmp_path / "child.yaml")) == rules_but_name(shipped("lucas"))


def test_a_parent_outside_the_new_files_folder_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    assert run("new", "a/base", "--from", "lucas").exit_code == 0
    result = run("new", "b/child", "--from", "a/base.yaml")
    assert result.exit_code == 1
    assert "extends" in result.stderr
    assert not (tmp_path / "b" / "child.yaml").exists()


def test_title_of_a_name():
    assert title_of("my-thieves") == "My Thieves"
    assert title_of("twelve_thieves") == "Twelve Thieves"
    assert title_of("onion") == "Onion"
