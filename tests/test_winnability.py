"""`kallisti report`: the winnability table of the shipped patiences, its chart, and its journals."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.solver.winnability import patiences

SVG = "{http://www.w3.org/2000/svg}"


def report(folder, *args):
    return CliRunner().invoke(app, ["report", "--jobs", "1", *args, str(folder)])


def table_rows(text: str) -> dict[str, list[str]]:
    rows = [line.strip("|").split("|") for line in text.splitlines() if line.startswith("| ") and "---" not in line]
    return {cells[0].strip(): [c.strip() for c in cells[1:]] for cells in rows[1:]}


def test_every_shipped_patience_played_alone_is_in_the_table():
    names = patiences()
    assert {"forty-thieves", "spider", "decade", "lucas"} <= set(names)
    assert "discordian" not in names and "onion" not in names  # a match, and a table game


def test_the_table_counts_verdicts_and_marks_rows_out_of_reach(tmp_path):
    result = report(tmp_path, "--deals", "3", "--states", "500", "--game", "decade", "--game", "lucas")
    assert result.exit_code == 0, result.output
    text = (tmp_path / "winnability.md").read_text(encoding="utf-8")
    assert "within **500 positions**" in text
    assert "Regenerate: `kallisti report --deals 3 --states 500 --game decade --game lucas " in text
    rows = table_rows(text)
    # Decade's deals 1 and 3 have no win (proved), deal 2 is won; Lucas runs out of budget on two of three.
    assert rows["Decade"][:5] == ["3", "1", "2", "0", "33.3%"]
    assert rows["Lucas"][:5] == ["3", "1", "0", "2", "out of reach at this budget"]
    assert rows["Lucas"][5] == "6.1%–100.0%"  # conservative: the unknown deals count as won for the high end


def test_the_chart_has_a_bar_for_each_rate_and_a_whisker_for_each_interval(tmp_path):
    assert report(tmp_path, "--deals", "3", "--states", "500", "--game", "decade", "--game", "lucas").exit_code == 0
    svg = ET.parse(tmp_path / "winnability.svg").getroot()
    labels = [t.text for t in svg.iter(f"{SVG}text")]
    assert "Decade" in labels and "Lucas" in labels and "out of reach" in labels
    assert len(list(svg.iter(f"{SVG}rect"))) == 1  # Lucas, out of reach, gets no bar


def test_a_report_goes_on_from_its_journals(tmp_path):
    first = report(tmp_path, "--deals", "2", "--states", "300", "--game", "decade")
    assert first.exit_code == 0
    journal = (tmp_path / "journals" / "decade.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(journal) == 3  # the header and a line a deal
    again = report(tmp_path, "--deals", "2", "--states", "300", "--game", "decade")
    assert again.output == first.output


def test_only_games_cheap_over_their_first_deals_go_on_to_all_the_deals(tmp_path):
    result = report(tmp_path, "--deals", "6", "--at-least", "2", "--cheap", "200", "--states", "500",
                    "--game", "decade", "--game", "lucas")
    assert result.exit_code == 0, result.output
    text = (tmp_path / "winnability.md").read_text(encoding="utf-8")
    assert "deals 1–6 of each game whose first 2 deals cost at most 200 positions a deal on average, and deals 1–2" in text
    assert "Regenerate: `kallisti report --deals 6 --at-least 2 --cheap 200 --states 500 --game decade --game lucas " in text
    rows = table_rows(text)
    assert rows["Decade"][0] == "6"  # Decade's deals are settled in a few positions each
    assert rows["Lucas"][0] == "2"  # Lucas's first deals use up their budget: it stays at two
    assert (tmp_path / "journals" / "decade.more.jsonl").exists()
    assert not (tmp_path / "journals" / "lucas.more.jsonl").exists()
    again = report(tmp_path, "--deals", "6", "--at-least", "2", "--cheap", "200", "--states", "500",
                   "--game", "decade", "--game", "lucas")
    assert again.output == result.output  # resumed from both journals
