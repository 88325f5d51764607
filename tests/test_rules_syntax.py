"""The `.rules` syntax: it reads every ruleset the YAML form can hold into the same data, the writer's
text reads back as the data it came from, comments survive, and mistakes are reported in words at
file:line:column with a caret and a suggestion."""

from __future__ import annotations

import json
import random
from pathlib import Path

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kallisti.errors import KallistiError
from kallisti.grammar.rules_front import parse_rules
from kallisti.grammar.rules_words import macro_phrases
from kallisti.grammar.rules_writer import to_rules
from kallisti.interpreter.game import Game
from kallisti.model.loader import parse_file, shipped_games
from kallisti.located import LDict, LList, located, plain
from kallisti.model.ruleset import load_ruleset
from kallisti.rule_words import expand_macro
from kallisti.schema import schema

EXAMPLES = Path(__file__).resolve().parent / "rules_examples"
FILE_SCHEMA = jsonschema.Draft202012Validator(schema("file"))


def read(text: str, source: str = "t.rules"):
    return parse_rules(text, source)


def findings(text: str, source: str = "t.rules"):
    with pytest.raises(KallistiError) as info:
        parse_rules(text, source)
    return info.value.findings


def positions_everywhere(node, source: str, path="") -> None:
    """Every key and value of the data carries a position in `source` (line and column known)."""
    if isinstance(node, LDict):
        for key, value in node.items():
            for table in (node.key_pos, node.value_pos):
                pos = table.get(key)
                assert pos is not None and pos.source == source and pos.line >= 1 and pos.column >= 1, f"{path}.{key}"
            positions_everywhere(value, source, f"{path}.{key}")
    elif isinstance(node, LList):
        assert len(node.item_pos) == len(node), path
        for i, value in enumerate(node):
            pos = node.item_pos[i]
            assert pos is not None and pos.source == source and pos.line >= 1, f"{path}[{i}]"
            positions_everywhere(value, source, f"{path}[{i}]")


# ---- the shipped games --------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(shipped_games()))
def test_every_shipped_ruleset_round_trips(name):
    data, _ = parse_file(shipped_games()[name])
    text = to_rules(data)
    back = read(text, f"{name}.rules")
    assert plain(back) == plain(data)
    assert to_rules(back) == text  # writing is a fixed point
    positions_everywhere(back, f"{name}.rules")


def test_forty_thieves_reads_like_a_rule_book():
    data, _ = parse_file(shipped_games()["forty-thieves"])
    text = to_rules(data)
    for line in ("deck: 2 packs",
                 "foundation: 8 foundation piles, build up in suit, a space takes first rank, nothing leaves",
                 "tableau: 10 tableau piles, deal 4 face up, build down in suit, a space takes any card, move top card",
                 "stock: stock pile, deal the rest, nothing leaves, turn 1 card to waste, no redeal",
                 "auto aces-up on request: from tableau or waste to foundation when card.rank == first",
                 "win when foundation.size == deck.size"):
        assert line in text.splitlines()
    assert "{" not in text and "set " not in text  # no fallback syntax for a shipped game


@pytest.mark.parametrize("name", ["forty-thieves"])
def test_rules_examples_load_to_the_yaml_games(name):
    from_rules = load_ruleset(EXAMPLES / f"{name}.rules")
    from_yaml = load_ruleset(name)
    assert from_rules.plain() == from_yaml.plain()
    # the tableau's build rule is written in each example: its clauses point into the .rules file
    assert from_rules.groups["tableau"].build.clauses[0].pos.source == str(EXAMPLES / f"{name}.rules")


@pytest.mark.parametrize("name", ["forty-thieves"])
def test_rules_examples_play_like_the_yaml_games(name):
    a_rules, b_rules = load_ruleset(EXAMPLES / f"{name}.rules"), load_ruleset(name)
    for seed in (1, 2, 3):
        a, b = Game(a_rules, seed=seed), Game(b_rules, seed=seed)
        pick = random.Random(seed)
        for _ in range(100):
            moves = a.legal_moves()
            assert moves == b.legal_moves()
            assert a.status(moves).outcome == b.status(moves).outcome
            if not moves or a.status(moves).outcome != "playing":
                break
            m = pick.choice(moves)
            a.play(m)
            b.play(m)
            assert a.state.key() == b.state.key()


def test_a_rules_example_keeps_its_comments():
    data = read((EXAMPLES / "forty-thieves.rules").read_text(), "ft.rules")
    assert data.comments["game"][0].startswith("Forty Thieves in kallisti's own ruleset syntax")
    assert data["piles"].comments["foundation"] == ["Piles, in dealing and display order."]
    assert data["auto"].comments[0] == ["The `a` command puts the aces up; nothing moves by itself."]


# ---- the syntax, phrase by phrase -----------------------------------------------------------------
PILE_PHRASES = [
    ("8 piles", {"count": 8}),
    ("1 pile", {"count": 1}),
    ("8 foundation piles", {"count": 8, "role": "foundation"}),
    ("stock pile", {"role": "stock"}),
    ("tag fd", {"tag": "fd"}),
    ("deal 4 face up", {"deal": ["up"] * 4}),
    ("deal 2 face down, 2 face up", {"deal": ["down", "down", "up", "up"]}),
    ("deal 1 face down, 1 face up, 1 face down", {"deal": ["down", "up", "down"]}),
    ("deal the rest", {"deal": "rest"}),
    ("deal nothing", {"deal": []}),
    ("before the deal takes card.rank == first", {"prefill": "card.rank == first"}),
    ("build down in suit", {"build": "down in suit"}),
    ("build up or down alternate color with wrap", {"build": "up or down alternate color with wrap"}),
    ("build down any suit but its own", {"build": "down any suit but its own"}),
    ("build on any card", {"build": "any"}),
    ("build any", {"build": "any"}),
    ("no building", {"build": "none"}),
    ('build "Down In Suit"', {"build": "Down In Suit"}),
    ("build forbid no-kings: card.rank == last  \"kings stay\"",
     {"build": {"id": "no-kings", "forbid": "card.rank == last", "says": "kings stay"}}),
    ("a space takes any card", {"empty": "any"}),
    ("a space takes first rank", {"empty": "first rank"}),
    ("a space takes nothing", {"empty": "none"}),
    ("move top card", {"take": "top card"}),
    ("move one card", {"take": "one card"}),
    ("move any cards", {"take": "any"}),
    ("move any run", {"take": "any run"}),
    ("nothing leaves", {"take": "none"}),
    ("move runs down alternate colour", {"sequence": "down alternate colour"}),
    ("move runs in any order", {"sequence": "any"}),
    ("move no runs", {"sequence": "none"}),
    ("face-down cards stay down", {"flip": False}),
    ("face-down cards turn up", {"flip": True}),
    ("turn 1 card to waste", {"turn": {"to": "waste", "count": 1}}),
    ("turn 3 cards to waste", {"turn": {"to": "waste", "count": 3}}),
    ("deal one to each tableau pile", {"turn": {"to": "tableau", "each": True}}),
    ("turn to waste", {"turn": {"to": "waste"}}),
    ("no redeal", {"redeals": 0}),
    ("1 redeal", {"redeals": 1}),
    ("2 redeals", {"redeals": 2}),
    ("unlimited redeals", {"redeals": "unlimited"}),
    ("deal row u d ., 1 face up", {"deal": ["u d .", "up"]}),
    ("divert to foundation when card.rank == first", {"divert": {"to": "foundation", "when": "card.rank == first"}}),
    ("refill 3 cards from stock", {"refill": {"from": "stock", "count": 3}}),
    ("top card face up", {"top_face_up": True}),
    ("top card as dealt", {"top_face_up": False}),
    ("reveal count(p in reserve: p.empty)", {"reveal": "count(p in reserve: p.empty)"}),
    ("dealing require no-space: all(p in tableau: not p.empty)",
     {"dealing": {"id": "no-space", "require": "all(p in tableau: not p.empty)"}}),
    ("deal at any time", {"dealing": "any"}),
    ("no dealing", {"dealing": "none"}),
    ("turn 1 card to each tableau pile", {"turn": {"to": "tableau", "count": 1, "each": True}}),
    ("redeal gathers tableau and stock shuffled then deals tableau when true",
     {"redeal": {"gather": ["tableau", "stock"], "shuffle": True, "deal": ["tableau"], "when": "true"}}),
    ("redeal unshuffled", {"redeal": {"shuffle": False}}),
    ("redeal gathers nothing then deals nothing", {"redeal": {"gather": [], "deal": []}}),
]


@pytest.mark.parametrize("phrase,expected", PILE_PHRASES)
def test_each_pile_phrase_sets_its_key(phrase, expected):
    data = read(f"game: G\ntableau: {phrase}\n")
    assert plain(data) == {"game": "G", "piles": {"tableau": expected}}


def test_every_macro_reads_bare_and_means_itself():
    for phrase in macro_phrases():
        assert expand_macro(phrase) is not None, phrase
        data = read(f"game: G\ntableau: build {phrase}\n")
        assert data["piles"]["tableau"]["build"] == phrase


def test_a_pile_line_continues_on_indented_lines():
    text = "game: G\ntableau: 10 piles, deal 2 face down,\n    2 face up\n    build down in suit, move top card\n"
    assert plain(read(text))["piles"]["tableau"] == {"count": 10, "deal": ["down", "down", "up", "up"], "build": "down in suit",
                                                     "take": "top card"}


def test_rule_blocks_make_clause_lists():
    text = """game: G
foundation build:
    up in suit
    "Odd Macro"
    forbid black-on-black: card.color == black and top.color == black  "no black on black"
    require kings: card.rank == last
        "only kings"
tableau empty:
"""
    data = plain(read(text))
    assert data["piles"]["foundation"]["build"] == [
        "up in suit", "Odd Macro",
        {"id": "black-on-black", "forbid": "card.color == black and top.color == black", "says": "no black on black"},
        {"id": "kings", "require": "card.rank == last", "says": "only kings"}]
    assert data["piles"]["tableau"]["empty"] == []


def test_the_deck_and_its_phrases():
    text = """game: G
deck:
    2 packs, ranks A 2 3 "4" J K Q
    suit clubs black symbol ♣ letter C, suit hearts red
    value A 1 or 11, value 10 10, value K [-1]
    mark lady Q of spades and K of hearts, mark nobody none
    wild 2 of clubs
"""
    assert plain(read(text))["deck"] == {
        "packs": 2, "ranks": ["A", 2, 3, "4", "J", "K", "Q"],
        "suits": [{"name": "clubs", "color": "black", "symbol": "♣", "letter": "C"}, {"name": "hearts", "color": "red"}],
        "values": {"A": [1, 11], "10": 10, "K": [-1]},
        "marks": {"lady": [{"rank": "Q", "suit": "spades"}, {"rank": "K", "suit": "hearts"}], "nobody": []},
        "wild": [{"rank": 2, "suit": "clubs"}]}
    assert plain(read("game: G\ndeck: pack french: clubs spades, pack: coins, no values, no marks, no wild cards\n"))["deck"] == {
        "packs": [{"name": "french", "suits": ["clubs", "spades"]}, {"suits": ["coins"]}], "values": {}, "marks": {}, "wild": []}


def test_moves_ends_and_variants():
    text = """extends forty-thieves
game: "Quoted \\"Name\\""
description: One line, kept as written.
auto up after each move: move from tableau or waste to [foundation] when card.rank == first
compulsory deal-when-stuck: deal from stock  "deal when stuck"
lose: none
win when foundation.size == deck.size
score foundation.size * 2
add:
    reserve: 4 reserve piles, deal 1 face up, move top card
changes:
    remove tableau.build same-suit
    forbid foundation.build "black on black": card.color == black and top.color == black
set tableau.flip false
"""
    data = plain(read(text))
    assert data == {
        "extends": "forty-thieves", "game": 'Quoted "Name"', "description": "One line, kept as written.",
        "auto": [{"id": "up", "trigger": "each-move", "kind": "move", "from": ["tableau", "waste"], "to": ["foundation"],
                  "when": "card.rank == first"}],
        "compulsory": [{"id": "deal-when-stuck", "kind": "deal", "from": "stock", "says": "deal when stuck"}],
        "lose": [], "win": "foundation.size == deck.size", "score": "foundation.size * 2",
        "add": {"piles": {"reserve": {"count": 4, "role": "reserve", "deal": ["up"], "take": "top card"}}},
        "changes": [{"remove": "piles.tableau.build", "id": "same-suit"},
                    {"forbid": "piles.foundation.build", "id": "black-on-black", "expr": "card.color == black and top.color == black",
                     "says": 'has the rule "black on black"'}],
        "piles": {"tableau": {"flip": False}}}


def test_a_description_block_folds_like_yaml():
    text = "game: G\ndescription:\n    First line\n    goes on.\n\n    Second paragraph.\nwin when true\n"
    assert read(text)["description"] == "First line goes on.\nSecond paragraph.\n"
    # the same text through YAML's folded style
    import yaml
    assert yaml.safe_load("d: >\n  First line\n  goes on.\n\n  Second paragraph.\n")["d"] == read(text)["description"]


def test_expression_positions_point_at_their_first_character():
    text = "game: G\nfoundation: 8 piles, before the deal takes (card.rank == first)\nwin when  foundation.size == deck.size\n" \
           "lose stuck when (stock.empty)  \"stuck\"\n"
    data = read(text, "p.rules")
    lines = text.splitlines()
    checks = [(data, "win"), (data["piles"]["foundation"], "prefill"), (data["lose"][0], "when")]
    for node, key in checks:
        pos = node.value_pos[key]
        assert lines[pos.line - 1][pos.column - 1:].startswith(node[key]), key
    assert data["piles"]["foundation"]["prefill"] == "(card.rank == first)"
    assert data["lose"][0]["when"] == "(stock.empty)"


# ---- comments and formatting ---------------------------------------------------------------------
COMMENTED = """# header comment
game: Forty Thieves   # the name
deck: 2 packs

# foundations first
foundation: 8 piles
    # building
    build up in suit, nothing leaves
# the tableau
tableau: 10 piles
tableau build:
    # in suit, as the book says
    down in suit
changes:
    # a house rule
    remove tableau.build same-suit
win when foundation.size == deck.size
# the end
"""


def test_comments_are_kept_where_they_were():
    data = read(COMMENTED)
    assert data.comments["game"] == ["header comment", "the name"]
    assert data["piles"].comments == {"foundation": ["foundations first"], "tableau": ["the tableau"]}
    assert data["piles"]["foundation"].comments == {"build": ["building"]}
    assert data["piles"]["tableau"]["build"].comments == {0: ["in suit, as the book says"]}
    assert data["changes"].comments == {0: ["a house rule"]}
    assert data.comments[""] == ["the end"]
    text = to_rules(data)
    again = read(text)
    assert plain(again) == plain(data)
    for a, b in ((again, data), (again["piles"], data["piles"]), (again["piles"]["foundation"], data["piles"]["foundation"]),
                 (again["piles"]["tableau"]["build"], data["piles"]["tableau"]["build"]), (again["changes"], data["changes"])):
        assert a.comments == b.comments
    assert "# building" in text and "    # in suit, as the book says" in text


MESSY = """game:    Messy   Game
deck: 2 packs ,  ranks A 2 3 4 5 6 7 8 9 10 J Q K
foundation:  8 piles,build any ,  a space takes any,move none
tableau: 4 piles, deal 1 face down, 1 face down, 2 face up, build   up  in  suit
tableau take:
    require x: count ==   1
win when  true
score   0
"""


def test_the_writer_is_idempotent_on_hand_written_text():
    data = read(MESSY)
    first = to_rules(data)
    assert plain(read(first)) == plain(data)
    assert to_rules(read(first)) == first
    assert "game: Messy   Game" in first
    assert "tableau: 4 piles, deal 2 face down, 2 face up, build up in suit" in first
    assert "foundation: 8 piles, build on any card, a space takes any card, nothing leaves" in first


# ---- hypothesis: any valid file data ---------------------------------------------------------------
EXPRS = ["card.rank == first", "(card.rank == first)", "card.suit == top.suit and not (card.rank == last)", 'card.suit == "hearts"',
         "count == 1 or count == pile.face_up", "all(p in tableau: p.size == 0)", "foundation.size == deck.size", "-1 + 2 * 3 // 4 % 5",
         "true", "false", "[hearts, diamonds]", "card.rank in [A, K]", "((a)) + (b)", "source in waste", "min(1, 2)"]
ODD_EXPRS = [" padded", "a ==", "x\ny", "a # b", '"just a string"', "trailing "]
TEXTS = ["plain words", 'with "quotes"', "hash # here", " leading space", "trailing ", "two\nlines", "tab\there", "ünïcode ♠ ♥",
         "back\\slash", "#start", '"quoted"', "", "x  y", "Paragraph one.\nParagraph two.\n", "folded text\n", "a\n\nb\n", "\n"]
NAMES = ["tableau", "waste", "stock", "foundation", "each", "none", "of", "and", "or", "to", "when", "pile", "symbol", "letter", "deal",
         "rest", "any", "true", "null", "game", "set", "auto", "cells", "x1", "Weird Name", "10", "♠"]
GROUPS = ["tableau", "foundation", "stock", "waste", "reserve", "cells", "each", "none", "game", "auto", "set", "deal", "to", "x_1",
          "win", "piles", "layout"]
IDS = ["same-suit", "rank-down", "x", "1st", "none", "on", "when", "a-b-c", "require"]
MACROS = list(macro_phrases())[::7] + ["any", "none", "top card", "Down In Suit", "down in suit, wrapping", "any card", "dwon"]


def exprs(odd=True):
    return st.sampled_from(EXPRS + ODD_EXPRS) if odd else st.sampled_from(EXPRS)


@st.composite
def clauses(draw):
    kind = draw(st.sampled_from(["require", "forbid"]))
    out = {"id": draw(st.sampled_from(IDS)), kind: draw(st.one_of(exprs(), st.booleans()))}
    if draw(st.booleans()):
        out["says"] = draw(st.sampled_from(TEXTS))
    if draw(st.integers(0, 5)) == 0:
        out["macro"] = draw(st.sampled_from(MACROS))
    return out


rules_values = st.one_of(st.sampled_from(MACROS), st.booleans(), clauses(),
                         st.lists(st.one_of(st.sampled_from(MACROS), clauses()), max_size=3))
groups = st.fixed_dictionaries({}, optional={
    "role": st.sampled_from(["tableau", "foundation", "stock", "waste", "reserve", "cell", "line", "field", "hand", "discard"]),
    "count": st.integers(1, 200),
    "tag": st.from_regex(r"[a-z]{1,3}", fullmatch=True),
    "deal": st.one_of(st.just("rest"), st.lists(st.sampled_from(["up", "down", "u", "d . u", ". . d"]), max_size=7)),
    "prefill": st.sampled_from(EXPRS + ODD_EXPRS),
    "divert": st.fixed_dictionaries({"to": st.sampled_from(NAMES), "when": st.one_of(exprs(), st.booleans())}),
    "refill": st.fixed_dictionaries({"from": st.sampled_from(NAMES), "count": st.integers(1, 104)}),
    "top_face_up": st.booleans(),
    "reveal": st.sampled_from(EXPRS + ODD_EXPRS),
    "build": rules_values, "empty": rules_values, "take": rules_values, "sequence": rules_values, "dealing": rules_values,
    "flip": st.booleans(),
    "turn": st.fixed_dictionaries({"to": st.sampled_from(NAMES)}, optional={"count": st.integers(1, 104), "each": st.booleans()}),
    "redeals": st.one_of(st.integers(0, 1000), st.just("unlimited")),
    "redeal": st.fixed_dictionaries({}, optional={"gather": st.lists(st.sampled_from(NAMES), max_size=3), "shuffle": st.booleans(),
                                                  "deal": st.lists(st.sampled_from(NAMES), max_size=3),
                                                  "when": st.one_of(exprs(), st.booleans())}),
})
ranks = st.one_of(st.sampled_from(["A", "J", "Q", "K", "10", "of", "none", "and", "A B"]), st.integers(0, 20))
cards = st.fixed_dictionaries({"rank": ranks, "suit": st.sampled_from(NAMES)})
suits = st.fixed_dictionaries({"name": st.sampled_from(["clubs", "none", "of", "symbol", "x_2"]),
                               "color": st.sampled_from(["black", "red", "letter", "none"])},
                              optional={"symbol": st.sampled_from(["♣", "C", "#", "a b", "", "symbol"]),
                                        "letter": st.sampled_from(["C", "D", "#", "", "♠", "of"])})
decks = st.fixed_dictionaries({}, optional={
    "packs": st.one_of(st.integers(1, 8), st.lists(st.fixed_dictionaries(
        {"suits": st.lists(st.sampled_from(NAMES), max_size=3, unique=True)}, optional={"name": st.sampled_from(NAMES)}), max_size=3)),
    "ranks": st.lists(ranks, min_size=1, max_size=6),
    "suits": st.lists(suits, min_size=1, max_size=3),
    "values": st.dictionaries(st.sampled_from(["A", "10", "K", "none", "0"]),
                              st.one_of(st.integers(-5, 20), st.lists(st.integers(-3, 20), min_size=1, max_size=3)), max_size=3),
    "marks": st.dictionaries(st.sampled_from(["lady", "none", "A B"]), st.lists(cards, max_size=2), max_size=2),
    "wild": st.lists(cards, max_size=2),
})
group_names = st.one_of(st.sampled_from(NAMES), st.lists(st.sampled_from(NAMES), max_size=3))
patterns = st.fixed_dictionaries({"id": st.sampled_from(IDS)}, optional={
    "kind": st.sampled_from(["move", "deal", "redeal"]), "from": group_names, "to": group_names,
    "when": st.one_of(exprs(), st.booleans()), "trigger": st.sampled_from(["each-move", "on-request"]),
    "says": st.sampled_from(TEXTS)})
losses = st.fixed_dictionaries({"id": st.sampled_from(IDS), "when": st.one_of(exprs(), st.booleans())},
                               optional={"says": st.sampled_from(TEXTS)})
values = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-10, 10**6), st.sampled_from([1.5, -0.25]),
                                st.sampled_from(TEXTS + NAMES + MACROS)),
                      lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(NAMES + IDS), inner, max_size=3)),
                      max_leaves=6)
PATHS = ["piles.tableau.count", "piles.tableau.build", "win", "score", "piles.foundation.prefill", "deck.packs", "piles.reserve",
         "piles.tableau.columns", "piles.win.count", "tableau.count", "lose.0.when", "piles.tableau.build.0.require", "weird path",
         "piles.tableau", "auto", "layout.waste.fan", "layout", "piles.layout"]


@st.composite
def patches(draw):
    verb = draw(st.sampled_from(["set", "add", "delete", "require", "forbid", "replace", "remove", "revoke"]))
    path = draw(st.sampled_from(PATHS))
    if verb in ("set", "add"):
        value = draw(st.one_of(values, groups, exprs(), rules_values))
        return {verb: path, "value": value}
    if verb == "delete":
        return {"delete": path}
    if verb == "revoke":
        return {"revoke": draw(st.sampled_from(["c3", "change 7", "x.y:z", ""]))}
    if verb == "remove":
        return {"remove": path, "id": draw(st.sampled_from(IDS + ["Weird Id"]))}
    if verb == "replace":
        out = {"replace": path, "id": draw(st.sampled_from(IDS + ["Weird Id"]))}
        for kind in draw(st.sampled_from([["require"], ["forbid"], ["require", "forbid"], []])):
            out[kind] = draw(st.one_of(exprs(), st.booleans()))
    else:
        out = {verb: path, "id": draw(st.sampled_from(IDS)), "expr": draw(st.one_of(exprs(), st.booleans()))}
    if draw(st.booleans()):
        out["says"] = draw(st.sampled_from(TEXTS))
    return out


layout_hints = st.fixed_dictionaries({}, optional={"row": st.integers(0, 99), "column": st.integers(0, 99),
                                                   "fan": st.sampled_from(["down", "right", "none"])}).filter(bool)
rulesets = st.fixed_dictionaries({"game": st.sampled_from([t for t in TEXTS if t])}, optional={
    "extends": st.sampled_from(["forty-thieves", "base.yaml", "../up.rules", "with space.yaml", "/abs"]),
    "description": st.sampled_from(TEXTS),
    "deck": decks,
    "piles": st.dictionaries(st.sampled_from(GROUPS), groups, min_size=1, max_size=4),
    "auto": st.lists(patterns, max_size=2), "compulsory": st.lists(patterns, max_size=2), "lose": st.lists(losses, max_size=2),
    "win": st.one_of(exprs(), st.booleans()), "score": st.one_of(exprs(), st.booleans()),
    "add": st.one_of(st.fixed_dictionaries({"piles": st.dictionaries(st.sampled_from(GROUPS), groups, max_size=2)}),
                     st.dictionaries(st.sampled_from(["deck", "foo", "piles"]), values, max_size=2)),
    "changes": st.lists(patches(), max_size=4),
    "layout": st.dictionaries(st.sampled_from(GROUPS), layout_hints, max_size=3),
})


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rulesets)
def test_any_valid_file_data_round_trips(data):
    FILE_SCHEMA.validate(data)  # the strategy builds only what a ruleset file may hold
    text = to_rules(data)
    back = read(text)
    assert plain(back) == data, text
    assert to_rules(back) == text


@settings(max_examples=100, deadline=None)
@given(rulesets, st.data())
def test_comments_on_any_data_survive(data, draw):
    node = located(data, None)
    # comments on the lists and on `piles` go to their first line's item or group, so they are left out here
    keys = [k for k in node if k not in ("piles", "auto", "compulsory", "lose") and draw.draw(st.booleans())]
    for k in keys:
        node.comments[k] = [draw.draw(st.sampled_from(["a note", "", "# hashes #", "ünïcode"]))]
    if isinstance(node.get("piles"), LDict):
        for g in node["piles"]:
            node["piles"].comments[g] = [f"group {g}"]
    text = to_rules(node)
    back = read(text)
    assert plain(back) == data
    for k in keys:
        assert back.comments[k] == node.comments[k], (k, text)
    if isinstance(node.get("piles"), LDict):
        assert back["piles"].comments == {g: [f"group {g}"] for g in node["piles"]
                                          if g in back["piles"].comments} and back["piles"].comments
    assert to_rules(back) == text


# ---- diagnostics -------------------------------------------------------------------------------------
def test_a_misspelled_keyword_is_named_with_a_suggestion():
    text = "game: G\ntableau: 10 piles, dela 4 face up, buidl down in suit\n"
    first, second = findings(text, "f.rules")
    assert (str(first.pos), first.code, first.suggestion) == ("f.rules:2:20", "rules-syntax", "did you mean 'deal'?")
    assert "expected a pile phrase" in first.message and "unexpected 'dela'" in first.message
    assert first.excerpt == "    tableau: 10 piles, dela 4 face up, buidl down in suit\n                       ^"
    assert (str(second.pos), second.suggestion) == ("f.rules:2:36", "did you mean 'build'?")


def test_a_misspelled_statement_keyword_is_named():
    (f,) = findings("game: G\ndekc: 2 packs\n", "f.rules")
    assert str(f.pos) == "f.rules:2:9"
    assert "did you mean 'deck'" in f.suggestion


def test_an_unknown_macro_suggests_the_macro():
    (f,) = findings("game: G\ntableau: 10 piles, build dwon in suit\n", "f.rules")
    assert (f.code, str(f.pos), f.suggestion) == ("unknown-macro", "f.rules:2:26", "did you mean 'down in suit'?")
    assert f.message == "'dwon in suit' is not a rule macro"
    (g,) = findings("game: G\ntableau build:\n    up in siut\n", "f.rules")
    assert g.pos.line == 3 and g.suggestion == "did you mean 'suit'?"


def test_an_unclosed_bracket_or_quote_points_where_it_opened():
    text = "game: G\nauto up: from [tableau, waste to foundation\n"
    (f,) = findings(text, "f.rules")
    assert (f.code, str(f.pos)) == ("unclosed", "f.rules:2:15")
    assert "'[' is not closed" in f.message
    assert f.excerpt.splitlines()[1] == " " * 4 + " " * 14 + "^"
    (g,) = findings('game: G\nlose stuck when stock.empty  "no move\n', "f.rules")
    assert (g.code, str(g.pos), g.message) == ("unclosed", "f.rules:2:30", "this quote is not closed before the end of the line")
    (h,) = findings("game: G\nwin when (foundation.size == 104\n", "f.rules")
    assert (h.code, str(h.pos)) == ("unclosed", "f.rules:2:10")


def test_every_bad_line_is_reported_at_once():
    text = "game: G\nwin when a ==\nscore 1 2\ntableau: 3 pile, move top card\nlose: nothing\n"
    found = findings(text, "f.rules")
    assert [f.pos.line for f in found] == [2, 3, 5]
    assert found[0].message == "the line ends too early: expected an expression"
    assert str(found[0].pos) == "f.rules:2:14"


def test_a_single_equals_sign_suggests_two():
    (f,) = findings("game: G\nwin when foundation.size = 104\n")
    assert f.suggestion == "write == to compare" and f.pos.column == 26


def test_a_key_given_twice_is_refused():
    (f,) = findings("game: G\ntableau: 3 piles, build down in suit\ntableau build:\n    up in suit\n", "f.rules")
    assert (f.code, str(f.pos)) == ("duplicate-key", "f.rules:3:9")
    assert "first at line 2" in f.message


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_an_unknown_pile_is_a_model_finding_at_its_word(tmp_path):
    body = (EXAMPLES / "forty-thieves.rules").read_text().replace("turn 1 card to waste", "turn 1 card to wsate")
    path = write(tmp_path, "ft.rules", body)
    with pytest.raises(KallistiError) as info:
        load_ruleset(path)
    (f,) = [f for f in info.value.findings if f.code == "unknown-pile"]
    line_no = next(i for i, line in enumerate(body.splitlines(), 1) if "wsate" in line)
    assert (f.pos.source, f.pos.line, f.pos.column) == (str(path), line_no, body.splitlines()[line_no - 1].index("wsate") + 1)
    assert f.suggestion == "did you mean 'waste'?"


def test_an_unknown_group_in_a_variant_points_at_its_line(tmp_path):
    path = write(tmp_path, "v.rules", "extends forty-thieves\ngame: V\ntablaeu: 9 piles\n")
    with pytest.raises(KallistiError) as info:
        load_ruleset(path)
    (f,) = info.value.findings
    assert (f.code, f.pos.line, f.pos.column) == ("unknown-override", 3, 1)
    assert "did you mean 'tableau'" in f.suggestion


def test_a_type_error_in_an_expression_lands_on_its_column(tmp_path):
    body = (EXAMPLES / "forty-thieves.rules").read_text().replace(
        "win when foundation.size == deck.size", "win when foundation.size == deck.size and waste.size == hearts")
    path = write(tmp_path, "ft.rules", body)
    with pytest.raises(KallistiError) as info:
        load_ruleset(path)
    (f,) = info.value.findings
    line_no = next(i for i, line in enumerate(body.splitlines(), 1) if line.startswith("win when"))
    line = body.splitlines()[line_no - 1]
    assert f.code == "expr-type" and (f.pos.line, f.pos.column) == (line_no, line.index("waste.size") + 1)


def test_a_tab_in_the_indentation_is_refused():
    (f,) = findings("game: G\ntableau: 3 piles,\n\tmove top card\n", "f.rules")
    assert (f.code, str(f.pos)) == ("indent-tab", "f.rules:3:1")


def test_a_rules_file_is_dispatched_by_its_extension(tmp_path):
    path = write(tmp_path, "solo.rules", (EXAMPLES / "forty-thieves.rules").read_text())
    data, _ = parse_file(path)
    assert data["piles"]["tableau"]["count"] == 10
    assert json.loads(json.dumps(plain(data)))["deck"] == {"packs": 2}


PIECES = ["game:", " G", "\n", "    ", "deck:", " 2 packs", ",", "tableau:", " build", " down in suit", " deal", " 4 face up", '"', "[",
          "]", "(", ")", "{", "}", "#", " x", "set", " tableau.count", " 3", "auto a:", " from", " when", " card.rank ==", "\t",
          "description:", "changes:", "add:", "forbid", " foundation.build", ' "t":', "lose x when", " true", "row u d", ":", "-", "\\",
          "é", "tableau build:", " redeal gathers", " and", " then deals", " nothing", " ♠", "value A", " or", "mark", " of", " none"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
def test_any_text_is_read_or_refused_with_findings(text):
    try:
        data = read(text, "z.rules")
    except KallistiError as exc:
        for f in exc.findings:
            assert f.pos.source == "z.rules" and 1 <= f.pos.line <= text.count("\n") + 1
            assert f.excerpt is not None and f.excerpt.rstrip().endswith("^")
        return
    assert isinstance(data, LDict)
    assert plain(read(to_rules(data))) == plain(data)
