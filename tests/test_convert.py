"""`kallisti convert FILE --to yaml|rules [-o OUT]`: a ruleset in the other syntax, losslessly, with
its comments and its `extends`; invalid files refused with their findings; OUT written atomically."""

from __future__ import annotations

import os
import re

import pytest
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.cli.convert import all_comments, write_checked
from kallisti.errors import KallistiError
from kallisti.grammar.rules_front import parse_rules
from kallisti.model.loader import parse_file, shipped_games
from kallisti.located import LDict, load_yaml, plain
from kallisti.model.ruleset import load_ruleset


def run(*args):
    return CliRunner().invoke(app, ["convert", *map(str, args)])


def write(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


COMMENTED_YAML = """# Shortcut: Forty Thieves with nine piles.
extends: forty-thieves
game: Shortcut   # the title players see
piles:
  # nine piles, not ten
  tableau:
    count: 9
    # dealt face up
    deal: [up, up, up]
    take:
      # one card at a time
      - id: one
        require: count == 1
        # what a refusal says
        says: moves one card at a time
changes:
  # no building in suit
  - remove: piles.tableau.build
    id: same-suit
# the end
"""


COMMENTED_RULES = """# Shortcut: Forty Thieves with nine piles.
game: Shortcut
extends forty-thieves

# nine piles, not ten
tableau: 9 piles
    # dealt face up
    deal 3 face up
tableau take:
    # one card at a time
    require one: count == 1  "moves one card at a time"

changes:
    # no building in suit
    remove tableau.build same-suit

# the end
"""


def comment_texts(text: str) -> list[str]:
    """Every comment of a text with no `#` inside its values: whole lines and line ends."""
    return sorted(m.group(1) for m in re.finditer(r"(?:^|\s)# ?(.*)$", text, re.M))


# ---- both ways, losslessly -----------------------------------------------------------------------------
def test_yaml_to_rules_keeps_the_data_and_every_comment(tmp_path):
    src = write(tmp_path, "short.yaml", COMMENTED_YAML)
    result = run(src, "--to", "rules")
    assert result.exit_code == 0, result.output
    data, _ = parse_file(src)
    back = parse_rules(result.stdout, "short.rules")
    assert plain(back) == plain(data)
    assert sorted(all_comments(back)) == sorted(all_comments(data)) == comment_texts(COMMENTED_YAML)
    assert back.comments["game"] == ["Shortcut: Forty Thieves with nine piles.", "the title players see"]
    assert back["piles"].comments["tableau"] == ["nine piles, not ten"]
    assert back.comments[""] == ["the end"]
    assert "extends forty-thieves" in result.stdout.splitlines()


def test_rules_to_yaml_keeps_the_data_and_every_comment(tmp_path):
    src = write(tmp_path, "short.rules", COMMENTED_RULES)
    result = run(src, "--to", "yaml")
    assert result.exit_code == 0, result.output
    data, _ = parse_file(src)
    back = load_yaml(result.stdout, "short.yaml")
    assert plain(back) == plain(data)
    assert all_comments(back) == all_comments(data)
    assert sorted(all_comments(back)) == comment_texts(COMMENTED_RULES)
    lines = result.stdout.splitlines()
    assert lines[:3] == ["# Shortcut: Forty Thieves with nine piles.", "game: Shortcut", "extends: forty-thieves"]
    assert "    # dealt face up" in lines and "    deal: [up, up, up]" in lines
    assert lines[-1] == "# the end"


def test_yaml_to_rules_to_yaml_gives_the_same_data(tmp_path):
    src = write(tmp_path, "short.yaml", COMMENTED_YAML)
    assert run(src, "--to", "rules", "-o", tmp_path / "short.rules").exit_code == 0
    assert run(tmp_path / "short.rules", "--to", "yaml", "-o", tmp_path / "again.yaml").exit_code == 0
    first, _ = parse_file(src)
    again, _ = parse_file(tmp_path / "again.yaml")
    assert plain(again) == plain(first)
    assert sorted(all_comments(again)) == sorted(all_comments(first))
    assert load_ruleset(tmp_path / "again.yaml").plain() == load_ruleset(src).plain()


def test_rules_to_yaml_to_rules_gives_the_same_text(tmp_path):
    src = write(tmp_path, "short.rules", COMMENTED_RULES)
    assert run(src, "--to", "yaml", "-o", tmp_path / "short.yaml").exit_code == 0
    assert run(tmp_path / "short.yaml", "--to", "rules", "-o", tmp_path / "again.rules").exit_code == 0
    assert (tmp_path / "again.rules").read_text(encoding="utf-8") == COMMENTED_RULES  # written as `kallisti fmt` writes it


@pytest.mark.parametrize("name", ["forty-thieves", "spider", "intelligence", "maria", "emperor"])
def test_a_shipped_game_converts_by_name(name, tmp_path):
    to = "yaml" if shipped_games()[name].suffix == ".rules" else "rules"
    out = tmp_path / f"{name}.{to if to == 'rules' else 'yaml'}"
    result = run(name, "--to", to, "-o", out)
    assert result.exit_code == 0, result.output
    assert f"wrote {out}" in result.stderr
    assert load_ruleset(out).plain() == load_ruleset(name).plain()


def test_extends_stays_a_reference(tmp_path):
    result = run("lucas", "--to", "rules")
    assert result.exit_code == 0
    assert "extends forty-thieves" in result.stdout.splitlines()
    assert "stock" not in result.stdout and "auto" not in result.stdout  # the parent's piles are not copied in
    write(tmp_path, "base.yaml", (shipped_games()["forty-thieves"]).read_text(encoding="utf-8"))
    variant = write(tmp_path, "variant.yaml", "extends: base.yaml\ngame: Variant\npiles:\n  tableau: {count: 9}\n")
    out = tmp_path / "variant.rules"
    result = run(variant, "--to", "rules", "-o", out)
    assert result.exit_code == 0 and "warning" not in result.stderr
    assert out.read_text(encoding="utf-8").splitlines()[:2] == ["game: Variant", "extends base.yaml"]
    assert load_ruleset(out).plain() == load_ruleset(variant).plain()


def test_a_relative_extends_written_elsewhere_is_warned_about(tmp_path):
    write(tmp_path, "base.yaml", (shipped_games()["forty-thieves"]).read_text(encoding="utf-8"))
    variant = write(tmp_path, "variant.yaml", "extends: base.yaml\ngame: Variant\n")
    (tmp_path / "elsewhere").mkdir()
    out = tmp_path / "elsewhere" / "variant.rules"
    result = run(variant, "--to", "rules", "-o", out)
    assert result.exit_code == 0
    assert "warning" in result.stderr and "extends: base.yaml" in result.stderr
    assert "extends base.yaml" in out.read_text(encoding="utf-8")  # still a reference, as written


def test_the_same_syntax_gives_the_canonical_form(tmp_path):
    src = write(tmp_path, "messy.yaml", "extends:   forty-thieves\ngame:   G\npiles:\n    tableau:\n        deal:\n        - up\n")
    result = run(src, "--to", "yaml")
    assert result.exit_code == 0, result.output
    assert result.stdout == "extends: forty-thieves\ngame: G\npiles:\n  tableau:\n    deal: [up]\n"


# ---- OUT ---------------------------------------------------------------------------------------------
def test_out_is_written_and_nothing_goes_to_stdout(tmp_path):
    src = write(tmp_path, "short.yaml", COMMENTED_YAML)
    out = tmp_path / "short.rules"
    result = run(src, "--to", "rules", "-o", out)
    assert result.exit_code == 0
    assert result.stdout == ""
    assert out.read_text(encoding="utf-8") == run(src, "--to", "rules").stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["short.rules", "short.yaml"]  # no temporary file left


def test_out_is_written_atomically(tmp_path, monkeypatch):
    src = write(tmp_path, "short.yaml", COMMENTED_YAML)
    out = write(tmp_path, "short.rules", "game: Old\n")
    import kallisti.durable as durable  # where write_atomic lives

    real_replace = os.replace

    def fail(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(durable.os, "replace", fail)  # the crash comes after the new text is written, before it replaces OUT
    result = run(src, "--to", "rules", "-o", out)
    assert result.exit_code != 0
    assert out.read_text(encoding="utf-8") == "game: Old\n"  # the old file, whole
    assert sorted(p.name for p in tmp_path.iterdir()) == ["short.rules", "short.yaml"]
    monkeypatch.setattr(durable.os, "replace", real_replace)
    assert run(src, "--to", "rules", "-o", out).exit_code == 0
    assert out.read_text(encoding="utf-8").startswith("# Shortcut")


# ---- refusals ----------------------------------------------------------------------------------------------
def test_an_invalid_file_is_refused_with_its_findings(tmp_path):
    src = write(tmp_path, "bad.yaml", "extends: forty-thieves\ngame: Bad\npiles:\n  tableau:\n    build: dwon in suit\n")
    out = tmp_path / "bad.rules"
    result = run(src, "--to", "rules", "-o", out)
    assert result.exit_code == 1
    assert f"{src}:5:12: error unknown-macro" in result.stderr
    assert "did you mean 'down in suit'?" in result.stderr
    assert "        build: dwon in suit\n               ^" in result.stderr  # the line, a caret under the column
    assert f"{src}: not converted (1 error)" in result.stderr
    assert result.stdout == "" and not out.exists()


def test_a_rules_syntax_error_is_refused_with_its_position(tmp_path):
    src = write(tmp_path, "bad.rules", "game: G\ntableau: 3 piles, dela 4 face up\n")
    result = run(src, "--to", "yaml")
    assert result.exit_code == 1
    assert f"{src}:2:19: error rules-syntax" in result.stderr and "did you mean 'deal'?" in result.stderr
    assert result.stdout == ""


def test_a_game_the_model_refuses_is_not_converted(tmp_path):
    src = write(tmp_path, "bad.rules", "extends forty-thieves\ngame: G\nstock: turn 1 card to wsate\n")
    result = run(src, "--to", "yaml")
    assert result.exit_code == 1
    assert f"{src}:3:" in result.stderr and "unknown-pile" in result.stderr


@pytest.mark.parametrize("args,message", [
    ([], "Missing option '--to'"),
    (["--to", "json"], "'json' is not one of"),
    (["--to", "rules", "-o", "{tmp}/out.yaml"], "must end in .rules"),
    (["--to", "yaml", "-o", "{tmp}/out.rules"], "must not end in .rules"),
    (["--to", "yaml", "-o", "{tmp}/no/such/folder/out.yaml"], "no folder"),
])
def test_usage_errors_exit_2(args, message, tmp_path):
    src = write(tmp_path, "ok.yaml", "extends: forty-thieves\ngame: Ok\n")
    result = run(src, *[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert result.exit_code == 2
    assert message in result.output.replace("\n", " ").replace("│", "") or message in result.output


@pytest.mark.parametrize("name", ["no-such-game", "."])
def test_a_missing_file_or_a_folder_is_a_usage_error(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run(name, "--to", "yaml")
    assert result.exit_code == 2
    assert "folder" in result.output or "no file" in result.output


def test_text_that_would_not_read_back_is_refused():
    data = LDict({"game": "G"})
    data.comments["game"] = ["a note  "]  # no reader keeps trailing blanks: the written comment comes back changed
    with pytest.raises(KallistiError) as info:
        write_checked(data, "rules", "x.rules")
    assert info.value.findings[0].code == "convert-loss"
    assert write_checked(LDict({"game": "G"}), "yaml", "x.yaml") == "game: G\n"
