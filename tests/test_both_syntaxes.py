"""Both front ends under one conformance check: every shipped game, written in the other syntax, is
the same game (the same resolved rules, the same legal moves and positions in play), and any file
data survives both writers and both readers, comments included."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_rules_syntax import FILE_SCHEMA, rulesets

from kallisti.cli.convert import all_comments, for_rules
from kallisti.grammar.rules_front import parse_rules
from kallisti.grammar.rules_writer import to_rules
from kallisti.interpreter.game import Game
from kallisti.model.loader import parse_file, shipped_games
from kallisti.located import LDict, LList, load_yaml, located, plain
from kallisti.model.ruleset import load_ruleset
from kallisti.model.yaml_writer import to_yaml

SEEDS = range(1, 6)
MOVES = 200


def other_syntax(name: str, tmp_path):
    """The shipped game `name` written in the syntax it is not shipped in, as a file in tmp_path."""
    path = shipped_games()[name]
    data, _ = parse_file(path)
    if path.suffix == ".rules":
        out = tmp_path / f"{name}.yaml"
        out.write_text(to_yaml(data), encoding="utf-8")
    else:
        out = tmp_path / f"{name}.rules"
        out.write_text(to_rules(data), encoding="utf-8")
    return data, out


@pytest.mark.parametrize("name", sorted(shipped_games()))
def test_every_shipped_game_is_the_same_game_in_the_other_syntax(name, tmp_path):
    data, converted = other_syntax(name, tmp_path)
    again, _ = parse_file(converted)
    assert plain(again) == plain(data)
    assert again.get("extends") == data.get("extends")  # a variant still names its parent, never inlines it
    if "extends" in data:
        assert "piles" not in again or set(again["piles"]) == set(data["piles"])
    shipped, other = load_ruleset(name), load_ruleset(converted)
    assert other.plain() == shipped.plain()
    assert [s.name for s in other.sources][-1] == str(converted)
    if not shipped.pile_count:
        return  # a ruleset that only scores hands: the same resolved rules are the same game
    for seed in SEEDS:
        a, b = Game(shipped, seed=seed), Game(other, seed=seed)
        pick = random.Random(seed)
        assert a.state.key() == b.state.key()
        for _ in range(MOVES):
            moves = a.legal_moves()
            assert b.legal_moves() == moves
            assert a.status(moves).outcome == b.status(moves).outcome
            if not moves:
                break
            m = moves[pick.randrange(len(moves))]
            a.play(m)
            b.play(m)
            assert a.state.key() == b.state.key()


# ---- any file data, and its comments ---------------------------------------------------------------
def _slots(node):
    if isinstance(node, dict):
        for k, v in node.items():
            yield node, k
            yield from _slots(v)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield node, i
            yield from _slots(v)


NOTES = ["a note", "", "# hashes #", "ünïcode ♠", "  indented", "key: value", "'quoted'", '"double"']


def _with_comments(data, draw):
    """`data` as located nodes, a comment on some of its keys and items, each comment different."""
    node = located(data, None)
    for n, (container, key) in enumerate(list(_slots(node))):
        if draw.draw(st.integers(0, 2)) == 0:
            container.comments[key] = [f"{draw.draw(st.sampled_from(NOTES))} {n}".strip()]
    if draw.draw(st.booleans()):
        node.comments[""] = ["the end"]
    return node


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rulesets)
def test_any_file_data_survives_both_writers(data):
    FILE_SCHEMA.validate(data)
    text = to_yaml(data)
    back = load_yaml(text, "any.yaml")
    assert plain(back) == data, text
    assert to_yaml(back) == text  # writing is a fixed point
    rules_text = to_rules(back)
    assert rules_text == to_rules(data)
    assert plain(parse_rules(rules_text, "any.rules")) == data


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rulesets, st.data())
def test_comments_on_any_data_survive_both_ways(data, draw):
    node = _with_comments(data, draw)
    # YAML keeps every comment in its place, in order
    yaml_text = to_yaml(node)
    from_yaml = load_yaml(yaml_text, "c.yaml")
    assert plain(from_yaml) == data
    assert all_comments(from_yaml) == all_comments(node), yaml_text
    assert to_yaml(from_yaml) == yaml_text
    # .rules has fewer places for comments: each is moved up to a line the syntax has, none is lost
    rules_text = to_rules(for_rules(from_yaml))
    from_rules = parse_rules(rules_text, "c.rules")
    assert plain(from_rules) == data
    assert sorted(all_comments(from_rules)) == sorted(all_comments(node)), rules_text
    # and from there, .rules -> YAML -> .rules gives the same text
    assert to_rules(for_rules(load_yaml(to_yaml(from_rules), "d.yaml"))) == rules_text


def test_comments_deeper_than_rules_lines_move_to_the_nearest_line():
    text = """# the game
game: G
piles:
  stock:
    # where turned cards go
    turn:
      # the waste
      to: waste
      count: 1
    # the role
    role: stock
    count: 1
auto:
  - id: up
    # only aces
    when: card.rank == first
"""
    data = load_yaml(text, "deep.yaml")
    assert data["piles"]["stock"]["turn"].comments == {"to": ["the waste"]}
    moved = for_rules(data)
    assert moved["piles"]["stock"].comments == {"turn": ["where turned cards go", "the waste"], "count": ["the role"]}
    assert moved["auto"].comments == {0: ["only aces"]}
    assert data["piles"]["stock"]["turn"].comments == {"to": ["the waste"]}  # the data itself is left as it was
    back = parse_rules(to_rules(moved), "deep.rules")
    assert back.comments["game"] == ["the game"]
    assert back["piles"]["stock"].comments["turn"] == ["where turned cards go", "the waste"]
    assert back["auto"].comments[0] == ["only aces"]


def test_yaml_comments_are_read_from_the_text():
    text = """# header
game: G   # the name
description: >  # folded
  text # not a comment: the description's own words
  more

deck:
  packs: 2  # two packs
piles:
  # the tableau
  tableau: {count: 3, deal: [up]}  # in flow style
  x:
    build:
      # first clause
      - id: a   # on the id's line
        # the requirement
        require: "a # b"
# the end
"""
    data = load_yaml(text, "c.yaml")
    assert data.comments == {"game": ["header", "the name"], "description": ["folded"], "": ["the end"]}
    assert data["description"] == "text # not a comment: the description's own words more\n"
    assert data["deck"].comments == {"packs": ["two packs"]}
    assert data["piles"].comments == {"tableau": ["the tableau", "in flow style"]}
    build = data["piles"]["x"]["build"]
    assert isinstance(build, LList) and build.comments == {0: ["first clause", "on the id's line"]}
    assert isinstance(build[0], LDict) and build[0].comments == {"require": ["the requirement"]}
    assert build[0]["require"] == "a # b"


def test_canonical_yaml_reads_like_a_hand_written_ruleset():
    data, _ = parse_file(shipped_games()["forty-thieves"])
    text = to_yaml(data)
    lines = text.splitlines()
    for line in ("description: >", "deck:", "  packs: 2", "    deal: [up, up, up, up]", "    turn: {to: waste, count: 1}",
                 "  - id: aces-up", "    from: [tableau, waste]", "win: foundation.size == deck.size"):
        assert line in lines
    assert max(len(line) for line in lines) <= 96
    assert load_yaml(text, "ft.yaml")["description"] == data["description"]
    odd = {"game": "true", "deck": {"ranks": ["A", "10", 10, "of", "x: y"]}, "description": "one\n\ntwo",
           "piles": {"t": {"count": 1, "deal": ["up"] * 40,
                           "build": [{"id": "c", "require": "all(p in t: p.empty)", "says": "it's \"quoted\"\tand tabbed"}]}}}
    text = to_yaml(odd)
    lines = text.splitlines()
    assert 'game: "true"' in lines  # a string YAML would read as a boolean is quoted
    assert '  ranks: [A, "10", 10, of, "x: y"]' in lines
    assert lines[lines.index("description: >-"):][:5] == ["description: >-", "  one", "", "", "  two"]  # folded, both newlines kept
    assert "      - up" in lines  # a list too long for its line is a block
    assert '        require: "all(p in t: p.empty)"' in lines
    assert '        says: "it\'s \\"quoted\\"\\tand tabbed"' in lines
    assert all(line == line.rstrip() for line in lines)
    assert plain(load_yaml(text, "odd.yaml")) == odd
