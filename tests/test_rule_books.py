"""Rule books: `kallisti show --format md|html`, and `--all --output DIR` with its index."""

from __future__ import annotations

import re
from functools import lru_cache
from html.parser import HTMLParser

import pytest
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.rulebook.build import build_book, display_name
from kallisti.rulebook.render import render_html, render_md
from kallisti.model.loader import shipped_games
from kallisti.model.ruleset import load_ruleset

runner = CliRunner()
GAMES = sorted(shipped_games())
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


@lru_cache(maxsize=None)
def rules_of(game: str):
    return load_ruleset(game)


@lru_cache(maxsize=None)
def book(game: str, fmt: str) -> str:
    return {"md": render_md, "html": render_html}[fmt](build_book(rules_of(game)))


class Balance(HTMLParser):
    """Checks that tags nest and close; gathers the text of each section and the links."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.sections: dict[str, list[str]] = {}
        self.section: str | None = None
        self.paras: dict[str, list[str]] = {}
        self.in_p = False
        self.hrefs: list[str] = []
        self.text: list[str] = []
        self.title = ""

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "section":
            self.section = attrs.get("id")
            self.sections[self.section] = []
            self.paras[self.section] = []
        if tag == "p" and self.section:
            self.in_p = True
            self.paras[self.section].append("")
        if tag == "a":
            self.hrefs.append(attrs["href"])
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        if tag not in VOID:
            self.errors.append(f"self-closed <{tag}/>")

    def handle_endtag(self, tag):
        if tag in VOID:
            self.errors.append(f"end tag for void <{tag}>")
        elif not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
        else:
            self.stack.pop()
        if tag == "section":
            self.section = None
        if tag == "p":
            self.in_p = False

    def handle_data(self, data):
        self.text.append(data)
        if self.stack and self.stack[-1] == "title":
            self.title += data
        if self.section:
            self.sections[self.section].append(data)
            if self.in_p:
                self.paras[self.section][-1] += data


def parse_html(text: str) -> Balance:
    assert text.startswith("<!DOCTYPE html>")
    parser = Balance()
    parser.feed(text)
    parser.close()
    assert not parser.errors, parser.errors
    assert not parser.stack, f"unclosed: {parser.stack}"
    return parser


def md_section(text: str, title: str) -> str:
    """The text of a `## title` section of a Markdown book, up to the next `##` heading."""
    m = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert m, f"no section {title}"
    return m.group(1)


def win_groups(rules) -> list[str]:
    return [g for g in re.findall(r"([a-z][\w-]*)\.size", str(rules.data["win"])) if g in rules.groups]


@pytest.mark.parametrize("game", GAMES)
def test_every_book_names_its_pile_groups_and_says_how_to_win(game):
    rules = rules_of(game)
    md, page = book(game, "md"), parse_html(book(game, "html"))
    html_text = " ".join(page.text).lower()
    for name in rules.groups:
        called = display_name(name)
        assert f"the {called}:" in md and f"### {called.capitalize()}" in md, f"{game}: {called} missing in md"
        assert f"the {called}:" in html_text, f"{game}: {called} missing in html"
    assert page.title == rules.name and md.startswith(f"# {rules.name}\n")
    words_md = md_section(md, "How to win").strip().split("\n\n")[0]
    words_html = page.paras["how-to-win"][0]
    for words in (words_md, words_html):
        assert words.strip()
        if rules.data.get("win") is None:
            assert "showdown" in words  # a game of hands: the best hand wins
            continue
        assert "The game is won when" in words and "==" not in words, words
        groups = win_groups(rules)
        assert groups, f"{game}: the win names no pile group"
        for g in groups:
            assert f"the {display_name(g)}" in words.replace("\\", ""), f"{game}: '{g}' not in {words!r}"
        if str(rules.data["win"]).replace(" ", "") in ("foundation.size==deck.size", "deck.size==foundation.size"):
            assert f"all {rules.deck.size} cards of the pack are on the foundation" in words


def test_sections_of_a_book_follow_the_rule_book_order():
    md = book("forty-thieves", "md")
    heads = re.findall(r"^## (.+)$", md, re.M)
    assert heads == ["Deck", "Layout", "The deal", "Foundations", "Play", "How to win"]
    assert "- the tableau: 10 piles (t1..t10), dealt 4 rows, all face up (40 cards" in md
    assert "- builds: up in suit (clauses rank-up, same-suit)" in md_section(md, "Foundations")
    assert "`d` turns 1 card at a time onto the waste (w)" in md_section(md, "Play")
    assert "### Automatic moves" in md and "### Compulsory moves" in md
    onion = book("onion", "md")
    for title in ("Hands", "At the table", "Modifiers", "How to win"):
        assert f"\n## {title}\n" in onion
    assert "- **160** Great Onion (great-onion): five pontoons, all ten cards\n  - 5 disjoint pontoon groupings" in onion
    discordian = book("discordian", "md")
    assert "## Honour rules" in discordian and "## Match" in discordian
    assert "The game is won when the field (c1..c7) is empty" in discordian


def test_html_escapes_ruleset_text(tmp_path):
    path = tmp_path / "tags.yaml"
    path.write_text(
        "extends: forty-thieves\n"
        "game: Tags & Thieves\n"
        "description: Mind the <b>& in this, and `d` too.\n"
        "piles:\n"
        "  tableau:\n"
        "    empty: [{id: small, require: card.rank < 5, says: only cards below 5 <here>}]\n",
        encoding="utf-8",
    )
    result = runner.invoke(app, ["show", str(path), "--format", "html"])
    assert result.exit_code == 0, result.output
    page = result.stdout
    parse_html(page)
    assert "<b>" not in page and "<here>" not in page
    assert "Mind the &lt;b&gt;&amp; in this, and <code>d</code> too." in page
    assert "card.rank &lt; 5" in page and "<title>Tags &amp; Thieves</title>" in page
    md = runner.invoke(app, ["show", str(path), "--format", "md"]).stdout
    assert md.startswith("# Tags & Thieves\n") and "Mind the \\<b\\>& in this, and `d` too." in md


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_all_writes_a_book_per_game_and_an_index(tmp_path, monkeypatch, fmt):
    from kallisti.interpreter import save

    written = []
    real = save.write_atomic
    monkeypatch.setattr(save, "write_atomic", lambda path, text: (written.append(path.name), real(path, text)))
    out = tmp_path / "book"
    result = runner.invoke(app, ["show", "--all", "--format", fmt, "--output", str(out)])
    assert result.exit_code == 0, result.output
    files = sorted(p.name for p in out.iterdir())
    expected = sorted([f"{g}.{fmt}" for g in GAMES] + [f"index.{fmt}"])
    assert files == expected  # no stray temporary files
    assert sorted(written) == expected  # every file written atomically
    index = (out / f"index.{fmt}").read_text(encoding="utf-8")
    if fmt == "md":
        links = re.findall(r"\]\(([^)]+)\)", index)
        assert "- [Forty Thieves](forty-thieves.md): Two packs." in index
    else:
        links = parse_html(index).hrefs
        assert '<a href="spider.html">Spider</a>: Two packs.' in index
    assert sorted(links) == sorted(f"{g}.{fmt}" for g in GAMES)
    for g in GAMES:
        assert rules_of(g).name.replace("&", "&amp;") in index
    assert (out / f"maria.{fmt}").read_text(encoding="utf-8") == book("maria", fmt)


def test_all_needs_an_output_folder_and_no_game(tmp_path):
    assert runner.invoke(app, ["show", "--all", "--format", "md"]).exit_code == 2
    assert runner.invoke(app, ["show", "maria", "--all", "--output", str(tmp_path)]).exit_code == 2
    assert runner.invoke(app, ["show"]).exit_code == 2
    assert list(tmp_path.iterdir()) == []


def test_output_with_one_game_writes_that_file(tmp_path):
    out = tmp_path / "spider.html"
    result = runner.invoke(app, ["show", "spider", "--format", "html", "--output", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    assert [p.name for p in tmp_path.iterdir()] == ["spider.html"]
    assert out.read_text(encoding="utf-8") == book("spider", "html")
    assert runner.invoke(app, ["show", "spider", "--output", str(tmp_path)]).exit_code == 2  # a folder
