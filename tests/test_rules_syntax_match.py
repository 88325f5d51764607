"""The `.rules` syntax and the rule-change language for matches: `deck: shuffle …`, honour rules and
`match:` read into the data YAML gives, write back in one canonical form, and refuse mistakes at their
line and column; honour rules, `match.…` and `deck.…` paths work as rule changes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kallisti.errors import KallistiError
from kallisti.grammar.changes import parse_change, parse_changes
from kallisti.grammar.rules_front import parse_rules
from kallisti.grammar.rules_paths import resolve_path
from kallisti.grammar.rules_words import TOP_KEYS
from kallisti.grammar.rules_writer import change_text, to_rules
from kallisti.interpreter.amend import amend
from kallisti.model.loader import parse_file, shipped_games
from kallisti.located import LDict, located, plain
from kallisti.model.ruleset import load_ruleset
from kallisti.schema import MOMENTS, schema

MATCH_KEYS = list(schema("file")["properties"]["match"]["properties"])


def read(text: str, source: str = "t.rules") -> LDict:
    return parse_rules(text, source)


def findings(text: str, source: str = "t.rules"):
    with pytest.raises(KallistiError) as info:
        parse_rules(text, source)
    return info.value.findings


def round_trip(data: dict) -> str:
    """The canonical text of `data`, after checking that it reads back as the same data and is a fixed point."""
    text = to_rules(data)
    back = read(text)
    assert plain(back) == data, text
    assert to_rules(back) == text
    return text


# ---- statements -------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["always", "optional", "never"])
def test_the_deck_says_how_it_is_shuffled(mode):
    data = read(f"game: G\ndeck: ranks A 2 3, shuffle {mode}\n")
    assert plain(data["deck"]) == {"ranks": ["A", 2, 3], "shuffle": mode}
    assert str(data["deck"].value_pos["shuffle"]) == "t.rules:2:28"


MATCH_PHRASES = [
    ("2 seats", {"seats": 2}),
    ("1 seat", {"seats": 1}),
    ("pack per seat", {"pack": "per-seat"}),
    ("shared pack", {"pack": "shared"}),
    ("start score -23", {"start_score": -23}),
    ("start score 0", {"start_score": 0}),
    ("loses at 230", {"loses_at": 230}),
    ("loses at -5", {"loses_at": -5}),
    ("equal turns", {"equal_turns": True}),
    ("no equal turns", {"equal_turns": False}),
    ("last turns others", {"last_turns": "others"}),
    ("last turns round", {"last_turns": "round"}),
    ("last turns none", {"last_turns": "none"}),
    ("both over higher loses", {"both_over": "higher-loses"}),
    ("both over first loses", {"both_over": "first-loses"}),
    ("both over draw", {"both_over": "draw"}),
    ("at most 500 turns", {"max_turns": 500}),
    ("at most 1 turn", {"max_turns": 1}),
    ("player x 1 change", {"player_x": {"changes": 1}}),
    ("player x 0 changes", {"player_x": {"changes": 0}}),
    ("player x 1 change or revoke", {"player_x": {"changes": 1, "revoke": True}}),
    ("player x may revoke", {"player_x": {"revoke": True}}),
    ("player x may not revoke", {"player_x": {"revoke": False}}),
    ("player x 3 changes, player x may not revoke", {"player_x": {"changes": 3, "revoke": False}}),
]


@pytest.mark.parametrize("phrase,expected", MATCH_PHRASES)
def test_each_match_phrase_sets_its_key(phrase, expected):
    assert plain(read(f"game: G\nmatch: {phrase}\n")["match"]) == expected


def test_every_key_of_the_match_schema_has_a_phrase():
    said = set()
    for _, expected in MATCH_PHRASES:
        said |= set(expected)
    assert said == set(MATCH_KEYS)


def test_a_match_line_goes_on_over_continuation_lines():
    data = read("game: G\nmatch: 2 seats, loses at 230\n    start score -23\n    player x 1 change or revoke, both over draw\n")
    assert plain(data["match"]) == {"seats": 2, "loses_at": 230, "start_score": -23, "player_x": {"changes": 1, "revoke": True},
                                    "both_over": "draw"}
    assert str(data["match"].value_pos["start_score"]) == "t.rules:3:17"
    assert str(data["match"]["player_x"].value_pos["changes"]) == "t.rules:4:14"


@pytest.mark.parametrize("words,moment", [("at match start", "match-start"), ("at turn start", "turn-start"),
                                          ("before deal", "before-deal"), ("before move", "before-move"),
                                          ("at turn end", "turn-end"), ("before-deal", "before-deal"), ("turn-end", "turn-end")])
def test_an_honour_rule_names_its_moment_in_words(words, moment):
    data = read(f'game: G\nhonour no-spitting {words}: "Don\'t spit on the other player."\n')
    assert plain(data["honour"]) == {"no-spitting": {"at": moment, "says": "Don't spit on the other player."}}
    rule = data["honour"]["no-spitting"]
    assert str(data["honour"].key_pos["no-spitting"]) == "t.rules:2:8"
    assert str(rule.value_pos["at"]) == "t.rules:2:20"
    assert str(rule.value_pos["says"]) == f"t.rules:2:{20 + len(words) + 3}"


def test_honour_rules_keep_their_order_and_what_they_say_may_go_below():
    data = read('game: G\nhonour b at turn end: "second letter first"\nhonour a before move:\n    "said on the next line"\n')
    assert list(data["honour"]) == ["b", "a"]
    assert data["honour"]["a"]["says"] == "said on the next line"
    assert str(data["honour"]["a"].value_pos["says"]) == "t.rules:4:6"
    assert plain(read("game: G\nhonour: none\n")) == {"game": "G", "honour": {}}


# ---- the shipped game and canonical text -------------------------------------------------------------
def test_discordian_solitaire_reads_like_its_rules():
    data, _ = parse_file(shipped_games()["discordian"])
    text = round_trip(plain(data))
    assert "deck: ranks A 2 3 4 5 6 7 8 9 10 J K Q, shuffle always\n" in text
    assert "honour mind-the-cards at match start: \"Don't mess up the other player's cards.\"\n" in text
    assert "match: 2 seats, pack per seat, start score -23, loses at 230, last turns others\n" in text
    assert "    both over higher loses, at most 200 turns, player x 1 change or revoke\n" in text
    assert "player x 1 change or revoke\n" in text


@pytest.mark.parametrize("changes", range(6))
@pytest.mark.parametrize("revoke", [True, False, None])
def test_every_player_x_round_trips(changes, revoke):
    px = {"changes": changes} if revoke is None else {"changes": changes, "revoke": revoke}
    text = round_trip({"game": "G", "match": {"seats": 2, "loses_at": 100, "player_x": px}})
    assert ("or revoke" in text) == (revoke is True)
    assert ("may not revoke" in text) == (revoke is False)


def test_what_the_phrases_cannot_say_is_set():
    text = round_trip({"game": "G", "deck": {"shuffle": "sometimes"}, "match": {"seats": "two", "player_x": {}},
                       "honour": {"x": {"at": "lunch", "says": "eat"}}})
    assert "set deck.shuffle sometimes" in text and "set match.seats two" in text and "set match.player_x {}" in text
    assert "set honour {x: {at: lunch, says: eat}}" in text


def test_a_group_named_like_a_new_key_is_written_with_its_path():
    text = round_trip({"game": "G", "piles": {"match": {"count": 2}, "honour": {"count": 1}, "honours": {"count": 3}}})
    assert "set piles.match 2 piles" in text and "honours: 3 piles" in text


def test_a_long_honour_text_moves_to_the_next_line():
    says = "Say the names of all five seasons of the Erisian calendar aloud before the first card of every deal."
    text = round_trip({"game": "G", "honour": {"seasons": {"at": "before-deal", "says": says}}})
    assert f'honour seasons before deal:\n    "{says}"\n' in text


def test_comments_stay_with_honour_rules_and_match_phrases():
    text = ("game: G\n\n# politeness\nhonour a at match start: \"x\"  # first\nhonour b at turn end: \"y\"\n"
            "# the match\nmatch: 2 seats, loses at 3\n    # about Player X\n    player x 2 changes\n")
    data = read(text)
    assert data["honour"].comments == {"a": ["politeness", "first"]}
    assert data.comments["match"] == ["the match"]
    assert data["match"].comments == {"player_x": ["about Player X"]}
    out = to_rules(data)
    assert to_rules(read(out)) == out
    assert "# politeness\n# first\nhonour a at match start: \"x\"\n" in out
    assert "match: 2 seats, loses at 3\n    # about Player X\n    player x 2 changes\n" in out


moments = st.sampled_from(MOMENTS + ["lunch"])
honours = st.dictionaries(st.sampled_from(["a", "no-spitting", "none", "at", "x1"]),
                          st.fixed_dictionaries({"at": moments, "says": st.sampled_from(["x", "", 'with "quotes"', "# hash", "y" * 150])}),
                          max_size=3)
matches = st.fixed_dictionaries({}, optional={
    "seats": st.integers(2, 8), "pack": st.sampled_from(["per-seat", "shared"]), "start_score": st.integers(-100000, 100000),
    "loses_at": st.integers(-100000, 100000), "equal_turns": st.booleans(), "last_turns": st.sampled_from(["none", "round", "others"]),
    "both_over": st.sampled_from(["higher-loses", "first-loses", "draw"]), "max_turns": st.integers(1, 10000),
    "player_x": st.fixed_dictionaries({}, optional={"changes": st.integers(0, 5), "revoke": st.booleans()})})
files = st.fixed_dictionaries({"game": st.just("G")}, optional={
    "deck": st.fixed_dictionaries({"shuffle": st.sampled_from(["always", "optional", "never"])}, optional={"packs": st.integers(1, 3)}),
    "honour": honours, "match": matches,
    "add": st.fixed_dictionaries({}, optional={"honour": honours, "match": matches}),
})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(files)
def test_any_match_data_round_trips(data):
    text = round_trip(data)
    if data.get("match", {}).get("player_x"):
        assert "\nset match.player_x" not in text  # a non-empty player_x is always said in phrases


def all_notes(node) -> list[str]:
    out = []
    if isinstance(node, dict):
        for k, v in node.items():
            out += list(getattr(node, "comments", {}).get(k, [])) + all_notes(v)
    return out


@settings(max_examples=60, deadline=None)
@given(files, st.data())
def test_comments_on_match_data_survive(data, draw):
    node = located(data, None)
    keys = [k for k in node if draw.draw(st.booleans())]
    for k in keys:
        node.comments[k] = [f"note on {k}"]
    text = to_rules(node)
    back = read(text)
    assert sorted(all_notes(back)) == sorted(f"note on {k}" for k in keys), text
    assert to_rules(back) == text


# ---- mistakes ----------------------------------------------------------------------------------------
def test_a_wrong_moment_lists_the_moments():
    (f,) = findings('game: G\nhonour x before lunch: "..."\n')
    assert (str(f.pos), f.code) == ("t.rules:2:10", "unknown-moment")
    assert "'before lunch' is not a moment of play" in f.message
    assert f.suggestion.startswith("did you mean 'before deal'?")
    for words in ("at match start", "at turn start", "before deal", "before move", "at turn end"):
        assert words in f.suggestion


def test_an_honour_rule_must_say_something():
    (f,) = findings("game: G\nhonour x at match start:\n")
    assert (str(f.pos), f.code) == ("t.rules:2:25", "honour-says")
    (f,) = findings("game: G\nhonour x:\n")
    assert str(f.pos) == "t.rules:2:9" and "a moment of play" in f.message


def test_honour_and_match_keys_given_twice_are_refused():
    bad = findings('game: G\nhonour a before deal: "x"\nhonour a before move: "y"\nhonour: none\n'
                   "match: 2 seats, player x 1 change, player x 2 changes\nmatch: 3 seats\n")
    assert [(str(f.pos), f.code) for f in bad] == [("t.rules:3:8", "duplicate-key"), ("t.rules:4:1", "duplicate-key"),
                                                  ("t.rules:5:36", "duplicate-key"), ("t.rules:6:1", "duplicate-key")]


def test_every_bad_match_phrase_is_reported_at_its_column():
    first, second = findings("game: G\nmatch: 2 seats, loses at x, both over lower loses\n")
    assert (str(first.pos), first.code) == ("t.rules:2:26", "rules-syntax") and "a number" in first.message
    assert str(second.pos) == "t.rules:2:39" and "'higher'" in second.message
    (f,) = findings("game: G\nmatch: 2 seats, los at 3\n")
    assert str(f.pos) == "t.rules:2:17" and "a match phrase" in f.message and f.suggestion == "did you mean 'loses'?"
    (f,) = findings("game: G\ndeck: shuffle sometimes\n")
    assert str(f.pos) == "t.rules:2:15" and "'optional'" in f.message


# ---- rule changes ------------------------------------------------------------------------------------
def test_top_level_paths_stay_as_written():
    for key in TOP_KEYS:
        assert resolve_path(f"{key}.x") == f"{key}.x"
    assert resolve_path("honour.achy-breaky") == "honour.achy-breaky"
    assert resolve_path("tableau.build") == "piles.tableau.build"
    assert resolve_path("matches.count") == "piles.matches.count"


ACHY = 'honour achy-breaky before deal: "You must do the Achy Breaky Dance before every deal."'
CHANGES = [
    (ACHY, {"add": "honour.achy-breaky", "value": {"at": "before-deal", "says": "You must do the Achy Breaky Dance before every deal."}}),
    ("set honour.no-spitting.at before-move", {"set": "honour.no-spitting.at", "value": "before-move"}),
    ("delete honour.no-spitting", {"delete": "honour.no-spitting"}),
    ("set match.loses_at 200", {"set": "match.loses_at", "value": 200}),
    ("set deck.shuffle optional", {"set": "deck.shuffle", "value": "optional"}),
    ("set match.player_x.changes 2", {"set": "match.player_x.changes", "value": 2}),
]


@pytest.mark.parametrize("text,patch", CHANGES)
def test_each_change_is_its_patch_and_is_written_as_read(text, patch):
    assert plain(parse_change(text)) == patch
    assert change_text(patch) == text


def test_an_honour_change_carries_the_positions_of_its_text():
    patch = parse_change(ACHY)
    assert str(patch.value_pos["add"]) == "<change>:1:8"
    assert str(patch["value"].value_pos["at"]) == "<change>:1:20"
    assert str(patch["value"].value_pos["says"]) == f"<change>:1:{ACHY.index('You') + 1}"
    below = parse_changes('honour x at turn end:\n    "on the next line"\n')
    assert plain(below) == [{"add": "honour.x", "value": {"at": "turn-end", "says": "on the next line"}}]


@pytest.fixture(scope="module")
def discordian():
    return load_ruleset("discordian")


@pytest.mark.parametrize("text", [text for text, _ in CHANGES])
def test_each_change_is_adopted_by_discordian_solitaire(discordian, text):
    done = amend(discordian.data, text, baseline=discordian)
    rules = done.rules
    if text == ACHY:
        assert ("achy-breaky", "before-deal") in [(h.id, h.at) for h in rules.honour]
    elif text.startswith("set honour"):
        assert [h.at for h in rules.honour if h.id == "no-spitting"] == ["before-move"]
    elif text.startswith("delete"):
        assert "no-spitting" not in [h.id for h in rules.honour] and len(rules.honour) == len(discordian.honour) - 1
    elif "loses_at" in text:
        assert rules.match.loses_at == 200 and discordian.match.loses_at == 230
    elif "shuffle" in text:
        assert rules.shuffle == "optional" and discordian.shuffle == "always"
    else:
        assert rules.match.changes == 2


def test_a_wrong_moment_is_refused_as_a_change(discordian):
    with pytest.raises(KallistiError) as info:
        amend(discordian.data, 'honour x before lunch: "..."', baseline=discordian)
    (f,) = info.value.findings
    assert (str(f.pos), f.code) == ("<change>:1:10", "unknown-moment")
    assert all(words in f.suggestion for words in ("at match start", "before deal", "at turn end"))


def test_a_changes_block_writes_honour_rules_as_statements():
    long = "x" * 120
    data = {"game": "G", "changes": [
        {"add": "honour.a", "value": {"at": "before-move", "says": "wait"}},
        {"add": "honour.b", "value": {"at": "turn-start", "says": long}},
        {"add": "honour.c", "value": {"at": "before-move"}},  # not an honour statement: written as it is
        {"set": "match.seats", "value": 3}, {"delete": "piles.match"}]}
    text = round_trip(data)
    assert '    honour a before move: "wait"\n' in text
    assert f'    honour b at turn start:\n        "{long}"\n' in text
    assert "    add honour.c {at: before-move}\n" in text
    assert "    delete piles.match\n" in text
