"""`kallisti fmt FILE... [--check]`: each file rewritten in its syntax's canonical layout, comments kept,
idempotent; `--check` for CI; the shipped .rules files are formatted."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.cli.convert import all_comments
from kallisti.model.loader import RULESETS, parse_file
from kallisti.located import plain

SHIPPED_RULES = sorted(RULESETS.glob("*.rules"))


def run(*args):
    return CliRunner().invoke(app, ["fmt", *map(str, args)])


def write(tmp_path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


MESSY_RULES = """# Messy: a hand-written variant.
extends forty-thieves
game:    Messy
# the tableau, written loosely
tableau:  9 piles,deal 1 face down, 1 face down, 2 face up   # four rows
    build   down  alternate colour
changes:
      # a house rule
      remove foundation.build same-suit
# the end
"""

FORMATTED_RULES = """# Messy: a hand-written variant.
game: Messy
extends forty-thieves

# the tableau, written loosely
# four rows
tableau: 9 piles, deal 2 face down, 2 face up, build down alternate colour

changes:
    # a house rule
    remove foundation.build same-suit

# the end
"""

MESSY_YAML = """# Messy: a hand-written variant.
extends:   forty-thieves
game: 'Messy'
piles:
    # the tableau
    tableau:
        count: 9      # nine piles
        deal:
        - down
        - up
        take:
            # one card or all face-up cards
            - id: one-or-all
              require: "count == 1 or count == pile.face_up"
    stock: {redeals: 1}
# the end
"""

FORMATTED_YAML = """# Messy: a hand-written variant.
extends: forty-thieves
game: Messy
piles:
  # the tableau
  tableau:
    # nine piles
    count: 9
    deal: [down, up]
    take:
      # one card or all face-up cards
      - id: one-or-all
        require: count == 1 or count == pile.face_up
  stock:
    redeals: 1

# the end
"""


@pytest.mark.parametrize("name,messy,formatted", [("messy.rules", MESSY_RULES, FORMATTED_RULES),
                                                  ("messy.yaml", MESSY_YAML, FORMATTED_YAML)])
def test_fmt_rewrites_a_file_in_its_canonical_layout_keeping_comments(name, messy, formatted, tmp_path):
    path = write(tmp_path, name, messy)
    before, _ = parse_file(path)
    result = run(path)
    assert result.exit_code == 0, result.output
    assert f"reformatted {path}" in result.stdout
    assert path.read_text(encoding="utf-8") == formatted
    after, _ = parse_file(path)
    assert plain(after) == plain(before)
    assert sorted(all_comments(after)) == sorted(all_comments(before))
    assert len(all_comments(after)) == messy.count("#")
    # formatting again changes nothing, and --check agrees
    again = run(path)
    assert again.exit_code == 0 and "reformatted" not in again.stdout.replace("0 files reformatted", "")
    assert path.read_text(encoding="utf-8") == formatted
    assert run("--check", path).exit_code == 0


def test_check_lists_the_files_that_would_change_and_writes_nothing(tmp_path):
    messy = write(tmp_path, "messy.rules", MESSY_RULES)
    tidy = write(tmp_path, "tidy.yaml", FORMATTED_YAML)
    result = run("--check", messy, tidy)
    assert result.exit_code == 1
    assert f"would reformat {messy}" in result.stdout
    assert str(tidy) not in result.stdout
    assert "1 file would be reformatted, 1 already formatted" in result.stdout
    assert messy.read_text(encoding="utf-8") == MESSY_RULES
    assert sorted(p.name for p in tmp_path.iterdir()) == ["messy.rules", "tidy.yaml"]


def test_check_passes_when_every_file_is_formatted(tmp_path):
    files = [write(tmp_path, "a.rules", FORMATTED_RULES), write(tmp_path, "b.yaml", FORMATTED_YAML)]
    result = run("--check", *files)
    assert result.exit_code == 0
    assert "0 files would be reformatted, 2 already formatted" in result.stdout


def test_an_unreadable_file_is_reported_and_the_others_formatted(tmp_path):
    bad = write(tmp_path, "bad.rules", "game: G\ntableau: 3 piles, dela 4 face up\n")
    bad_yaml = write(tmp_path, "bad.yaml", "game: G\npiles: [\n")
    messy = write(tmp_path, "messy.rules", MESSY_RULES)
    result = run(bad, bad_yaml, messy)
    assert result.exit_code == 1
    assert f"{bad}:2:19: error rules-syntax" in result.stderr
    assert "    tableau: 3 piles, dela 4 face up\n                      ^" in result.stderr
    assert f"{bad_yaml}:3:1: error yaml-syntax" in result.stderr
    assert bad.read_text(encoding="utf-8") == "game: G\ntableau: 3 piles, dela 4 face up\n"
    assert messy.read_text(encoding="utf-8") == FORMATTED_RULES
    assert "2 not readable" in result.stdout
    assert run("--check", bad).exit_code == 1


def test_fmt_formats_the_text_not_the_game(tmp_path):
    # an unknown pile is the model's business (`kallisti validate`): the text itself is formatted
    path = write(tmp_path, "wip.rules", "extends forty-thieves\ngame:  WIP\nstock: turn 1 card to wsate\n")
    assert run(path).exit_code == 0
    assert path.read_text(encoding="utf-8") == "game: WIP\nextends forty-thieves\n\nstock: turn 1 card to wsate\n"


def test_usage_errors_exit_2(tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")  # the usage box wraps a long path (as a parallel run's tmp_path is)
    assert run().exit_code == 2
    missing = run(tmp_path / "missing.rules")
    assert missing.exit_code == 2 and "no file named" in missing.output
    folder = run(tmp_path)
    assert folder.exit_code == 2 and "is a folder" in folder.output
    assert run("--check", "--nope", tmp_path).exit_code == 2


def test_fmt_writes_atomically(tmp_path, monkeypatch):
    path = write(tmp_path, "messy.rules", MESSY_RULES)
    import kallisti.durable as durable  # where write_atomic lives

    def fail(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(durable.os, "replace", fail)
    assert run(path).exit_code != 0
    assert path.read_text(encoding="utf-8") == MESSY_RULES
    assert [p.name for p in tmp_path.iterdir()] == ["messy.rules"]


# ---- the shipped files --------------------------------------------------------------------------------
def test_the_shipped_rules_files_are_formatted():
    assert SHIPPED_RULES
    result = run("--check", *SHIPPED_RULES)
    assert result.exit_code == 0, result.output
    assert f"0 files would be reformatted, {len(SHIPPED_RULES)} already formatted" in result.stdout


@pytest.mark.parametrize("path", SHIPPED_RULES, ids=lambda p: p.stem)
def test_rules_to_yaml_to_rules_is_identical_for_a_formatted_file(path, tmp_path):
    convert = CliRunner()
    yaml_path, back = tmp_path / f"{path.stem}.yaml", tmp_path / f"{path.stem}.rules"
    assert convert.invoke(app, ["convert", str(path), "--to", "yaml", "-o", str(yaml_path)]).exit_code == 0
    assert convert.invoke(app, ["convert", str(yaml_path), "--to", "rules", "-o", str(back)]).exit_code == 0
    assert back.read_text(encoding="utf-8") == path.read_text(encoding="utf-8")


def test_a_formatted_file_with_comments_keeps_them_through_yaml(tmp_path):
    path = write(tmp_path, "messy.rules", MESSY_RULES)
    assert run(path).exit_code == 0
    text = path.read_text(encoding="utf-8")
    assert [line.strip() for line in text.splitlines() if line.lstrip().startswith("#")] == [
        "# Messy: a hand-written variant.", "# the tableau, written loosely", "# four rows", "# a house rule", "# the end"]
    convert = CliRunner()
    assert convert.invoke(app, ["convert", str(path), "--to", "yaml", "-o", str(tmp_path / "m.yaml")]).exit_code == 0
    assert convert.invoke(app, ["convert", str(tmp_path / "m.yaml"), "--to", "rules", "-o", str(tmp_path / "m.rules")]).exit_code == 0
    assert (tmp_path / "m.rules").read_text(encoding="utf-8") == text


def test_every_shipped_ruleset_in_either_syntax_is_formatted():
    from kallisti.model.loader import shipped_games

    paths = [str(p) for p in shipped_games().values()]
    result = run("--check", *paths)
    assert result.exit_code == 0, result.output
