"""`kallisti show`: rules text generated from the compiled ruleset, JSON output, and refusals."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.cli.show import rules_text
from kallisti.model.loader import shipped_games
from kallisti.model.ruleset import load_ruleset

runner = CliRunner()


def show(*args: str) -> str:
    result = runner.invoke(app, ["show", *args])
    assert result.exit_code == 0, result.output
    return result.stdout


def section(text: str, group: str) -> str:
    """The block of `show` text about one pile group (from its heading to the next blank line)."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"{group}: "))
    end = next((i for i in range(start, len(lines)) if not lines[i].strip()), len(lines))
    return "\n".join(lines[start:end])


def test_forty_thieves_lists_every_group_and_its_rules():
    text = show("forty-thieves")
    assert text.splitlines()[0] == "Forty Thieves"
    assert "2 packs of 52 cards: 104 cards" in text
    assert "ranks, low to high: A 2 3 4 5 6 7 8 9 10 J Q K" in text
    assert section(text, "foundation").startswith("foundation: 8 piles, tagged f1..f8")
    tableau = section(text, "tableau")
    assert tableau.startswith("tableau: 10 piles, tagged t1..t10")
    assert "deal: 4 rows, all face up (40 cards" in tableau
    assert "builds: down in suit (clauses rank-down, same-suit)" in tableau
    assert "may leave: top card (clause one-card)" in tableau
    assert "a space takes: any card" in tableau
    stock = section(text, "stock")
    assert stock.startswith("stock: 1 pile, tagged s")
    assert "the rest of the pack, face down" in stock
    assert "`d` turns 1 card at a time onto the waste (w)" in stock
    assert "redeals: none" in stock
    assert section(text, "waste").startswith("waste: 1 pile, tagged w")
    assert "builds: up in suit (clauses rank-up, same-suit)" in section(text, "foundation")
    assert "a space takes: first rank (clause first-rank)" in section(text, "foundation")
    assert "aces-up (on request" in text and "when card.rank == first" in text
    assert "win: foundation.size == deck.size" in text
    assert "score: foundation.size" in text


@pytest.mark.parametrize("game", sorted(shipped_games()))
def test_every_clause_is_listed_with_its_id_in_its_group(game):
    rules = load_ruleset(game)
    text = rules_text(rules)
    for name, group in rules.groups.items():
        block = section(text, name)
        for key in ("build", "empty", "take", "sequence"):
            for clause in getattr(group, key).clauses:
                assert clause.id in block, f"{game}: {name}.{key} clause {clause.id} missing"
    for item in list(rules.auto) + list(rules.compulsory) + list(rules.lose):
        assert item.id in text


def test_maria_shows_its_differences():
    text = show("maria")
    tableau = section(text, "tableau")
    assert tableau.startswith("tableau: 9 piles, tagged t1..t9")
    assert "builds: down alternate colour (clauses rank-down, alternate-colour)" in tableau
    assert "36 cards" in tableau
    assert "down in suit" not in tableau


def test_emperor_shows_that_foundation_cards_may_leave():
    assert "may leave: none (clause nothing)" in section(show("forty-thieves"), "foundation")
    emperor = show("emperor")
    assert "may leave: top card (clause one-card)" in section(emperor, "foundation")
    tableau = section(emperor, "tableau")
    assert "deal: 4 rows: 3 face down, then 1 face up" in tableau
    assert "the top one is turned up when it is uncovered" in tableau
    assert "require one-or-all-face-up: count == 1 or count == pile.face_up" in tableau
    assert "runs that leave together: any face-up cards" in tableau


def test_number_ten_and_lucas_deals():
    assert "deal: 4 rows: 2 face down, then 2 face up" in section(show("number-ten"), "tableau")
    foundation = section(show("lucas"), "foundation")
    assert "before the deal: each pile gets the first card (in dealing order) for which card.rank == first" in foundation


def test_text_follows_rule_changes(tmp_path):
    """Rules text comes from the ruleset, so a change shows: a new clause by id, a broken-up macro clause by clause."""
    path = tmp_path / "odd.yaml"
    path.write_text(
        "extends: forty-thieves\n"
        "game: Odd Thieves\n"
        "piles:\n"
        "  waste:\n"
        "    redeals: 0\n"
        "changes:\n"
        "  - forbid: piles.tableau.empty\n"
        "    id: no-kings\n"
        "    expr: card.rank == last\n"
        "  - remove: piles.tableau.build\n"
        "    id: same-suit\n"
        "  - set: piles.stock.redeals\n"
        "    value: 2\n",
        encoding="utf-8",
    )
    text = show(str(path))
    assert text.splitlines()[0] == "Odd Thieves"
    tableau = section(text, "tableau")
    assert "a space takes: forbid no-kings: card.rank == last" in tableau
    assert "down in suit" not in tableau.replace('from "down in suit"', "")
    assert "builds: require rank-down: card.rank == top.rank - 1" in tableau
    assert "same-suit" not in tableau
    assert "redeals: 2 (when the stock is empty, `d` gathers the waste, pile by pile, turned over onto the stock)" in section(text, "stock")


def test_json_format_is_the_resolved_ruleset():
    data = json.loads(show("maria", "--format", "json"))
    assert data == load_ruleset("maria").plain()
    assert data["piles"]["tableau"]["count"] == 9


def test_unknown_game_prints_findings_and_exits_1():
    result = runner.invoke(app, ["show", "forty-theives"])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "error unknown-game" in result.stderr and "forty-thieves" in result.stderr


def test_bad_ruleset_file_prints_every_finding_with_its_position(tmp_path):
    path = tmp_path / "broken.yaml"
    path.write_text(
        "extends: forty-thieves\n"
        "game: Broken\n"
        "piles:\n"
        "  tableau:\n"
        "    empty: [{id: odd, require: card.suit == purple}]\n"
        "  waste:\n"
        "    take: [{id: high, require: card.rank == 99}]\n",
        encoding="utf-8",
    )
    result = runner.invoke(app, ["show", str(path)])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert f"{path}:5:" in result.stderr and "purple" in result.stderr
    assert f"{path}:7:" in result.stderr and "99" in result.stderr


def test_unknown_macro_is_refused_with_a_suggestion(tmp_path):
    path = tmp_path / "typo.yaml"
    path.write_text("extends: forty-thieves\ngame: Typo\npiles:\n  tableau:\n    build: down in sute\n", encoding="utf-8")
    result = runner.invoke(app, ["show", str(path)])
    assert result.exit_code == 1
    assert f"{path}:5:" in result.stderr and "down in suit" in result.stderr


def test_bad_format_is_a_usage_error():
    result = runner.invoke(app, ["show", "forty-thieves", "--format", "yaml"])
    assert result.exit_code == 2


def test_less_common_settings_are_described(tmp_path):
    """Packs by suit, values, a stock dealing to each pile, unlimited redeals, cards that stay face down,
    compulsory moves and a declared loss all reach the text."""
    path = tmp_path / "misc.yaml"
    path.write_text(
        "game: Misc\n"
        "deck:\n"
        "  packs: [{name: red, suits: [hearts, diamonds]}, {name: black, suits: [clubs, spades]}]\n"
        "  values: {J: 10, A: [1, 11]}\n"
        "piles:\n"
        "  foundation:\n"
        "    {role: foundation, count: 4, take: none, build: [{id: one-card, require: count == 1}, up in suit],\n"
        "     empty: [{id: one-card, require: count == 1}, first rank]}\n"
        "  tableau:\n"
        "    count: 4\n"
        "    deal: [down, up]\n"
        "    build: down alternate colour\n"
        "    empty: any\n"
        "    take: any\n"
        "    flip: false\n"
        "  stock: {role: stock, deal: rest, take: none, turn: {to: tableau, each: true}, redeals: unlimited, redeal: {gather: [foundation], shuffle: true, deal: [tableau]}}\n"
        "compulsory:\n"
        "  - {id: aces-first, from: tableau, to: foundation, when: card.rank == first}\n"
        "lose:\n"
        "  - {id: too-tall, when: tableau.size > 40, says: the tableau is too tall}\n"
        "win: foundation.size == deck.size\n"
        "score: foundation.size * 2\n",
        encoding="utf-8",
    )
    text = show(str(path))
    assert "2 packs: red (hearts diamonds); black (clubs spades): 52 cards" in text
    assert "values: J = 10, A = 1 or 11" in text
    tableau = section(text, "tableau")
    assert "deal: 2 rows: 1 face down, then 1 face up (8 cards" in tableau
    assert "stay face down when uncovered" in tableau
    assert "runs that leave together: any face-up cards" in tableau
    stock = section(text, "stock")
    assert "`d` deals 1 card to each pile of the tableau (t1..t4)" in stock
    assert "redeals: unlimited" in stock and "gathers the foundation, pile by pile, turned over onto the stock" in stock
    assert "shuffled, then deals the tableau again as at the start" in stock
    assert "only such moves are legal" in text
    assert "aces-first: a move from tableau to foundation, when card.rank == first" in text
    assert "lose too-tall: tableau.size > 40" in text and "the tableau is too tall" in text
    assert "score: foundation.size * 2" in text
    assert "the ruleset makes no move by itself" in text


def test_list_names_every_shipped_game_whatever_its_syntax():
    from kallisti.model.loader import shipped_games

    result = CliRunner().invoke(app, ["list"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert len(lines) == len(shipped_games())
    assert any(line.startswith("emperor ") and "(extends forty-thieves)" in line for line in lines)  # a .rules file
    assert any(line.startswith("spider ") and line.rstrip().endswith("Spider") for line in lines)


def test_a_match_shows_its_honour_rules_its_match_and_a_changed_players_rules():
    from kallisti.interpreter import amend

    rules = load_ruleset("discordian")
    text = rules_text(rules)
    assert "no-spitting (match start): Don't spit on the other player." in text
    assert "a total that reaches 230 loses" in text and "the pack is shuffled before each deal" in text
    changed = amend.amend(rules.data, "set deck.shuffle optional", baseline=rules).rules
    assert "the player chooses whether to shuffle" in rules_text(changed)
    assert "Match" not in rules_text(load_ruleset("forty-thieves")).split("\n")
