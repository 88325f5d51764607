"""The catalogue of Player X's rule changes in Discordian Solitaire: it loads, every entry is adopted by the
base ruleset, and every entry visibly changes the moves, the deal, the score or the honour rules."""

from __future__ import annotations

import functools
import operator
from dataclasses import dataclass
from pathlib import Path

import pytest
from scenario import play_turn

from kallisti.catalogue import TONES, catalogue_markdown, load_catalogue, read_catalogue
from kallisti.errors import KallistiError
from kallisti.interpreter.amend import amend
from kallisti.interpreter.game import Game
from kallisti.interpreter.match import Match, Seat, Waiting
from kallisti.interpreter.notation import MoveRefused, describe, parse_move
from kallisti.located import plain
from kallisti.model.ruleset import load_ruleset

GAME = "discordian"
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "discordian-changes.md"
ENTRIES = {e.id: e for e in load_catalogue(GAME)}


@functools.cache
def base():
    return load_ruleset(GAME)


@functools.cache
def changed(entry_id: str):
    """The base ruleset with the entry's change adopted (the trial play is the adoption test's business)."""
    return amend(base().data, ENTRIES[entry_id].change, baseline=base(), trial=False).rules


# ---- what each entry is expected to change ----------------------------------------------------
@dataclass(frozen=True)
class Moves:
    """In an arranged position (after playing `then`), the legal moves before and after the change."""

    layout: dict
    base: tuple
    changed: tuple
    then: tuple = ()


@dataclass(frozen=True)
class Refused:
    """In an arranged position, `move` is legal before the change and refused after it, naming `clause`."""

    layout: dict
    move: str
    clause: str


@dataclass(frozen=True)
class Deal:
    """The field of deal `seed`, as (cards, face-down cards) per column, before and after the change."""

    seed: int
    base: tuple
    changed: tuple


@dataclass(frozen=True)
class Score:
    """The score of one arranged position before and after the change."""

    layout: dict
    base: int
    changed: int


@dataclass(frozen=True)
class Honour:
    """An honour rule present at its moment after the change, absent before it."""

    id: str
    at: str


@dataclass(frozen=True)
class Setting:
    """A setting of the compiled ruleset (an attribute path), before and after the change."""

    attr: str
    base: object
    changed: object


SEVEN_BY_FIVE = ((5, 0),) * 7
LEFT_OVER = {"c1": "JS 5H", "c2": "QD", "f": "2C", "s": "3C"}  # J, 5 and Q left on the field, one card undealt

EXPECTED = {
    # gentle
    "no-need-to-shuffle": Setting("shuffle", "always", "optional"),
    "five-by-five": Deal(1, SEVEN_BY_FIVE, ((5, 0),) * 5),
    "six-by-four": Deal(1, SEVEN_BY_FIVE, ((4, 0),) * 6),
    "achy-breaky": Honour("achy-breaky", "before-deal"),
    "bow-to-player-x": Honour("bow-to-player-x", "turn-start"),
    "name-each-card": Honour("name-each-card", "before-move"),
    "deal-when-you-like": Moves({"c1": "5H", "f": "4C", "s": "9D"}, ("c1 f",), ("c1 f", "d")),
    "ace-meets-queen": Moves({"c1": "QH", "f": "AC", "s": "9D"}, ("d",), ("c1 f",)),
    "both-ends": Moves({"c1": "5H 9S", "f": "4C", "s": "9D"}, ("d",), ("c1@1 f",)),
    "one-or-two-steps": Moves({"c1": "7H", "f": "5C", "s": "9D"}, ("d",), ("c1 f",)),
    "same-rank-too": Moves({"c1": "5H", "f": "5C", "s": "9D"}, ("d",), ("c1 f",)),
    "cleared-columns-pay": Score(LEFT_OVER, 3, 3 - 5 * 5),
    # mischievous
    "black-on-black": Refused({"c1": "5S", "f": "4C", "s": "9D"}, "c1 f", "black-on-black"),
    "red-on-red": Refused({"c1": "5H", "f": "4D", "s": "9D"}, "c1 f", "red-on-red"),
    # Read off the moves made: the 5♥ just played refuses the 6♥ but not the 6♠; a card dealt starts afresh.
    "no-two-of-a-suit": Moves({"c1": "5H", "c2": "6H", "c3": "6S", "f": "4C", "s": "9D"}, ("c2 f", "c3 f"),
                              ("c3 f",), then=("c1 f",)),
    "a-five-ends-the-foundation": Moves({"c1": "5H", "c2": "6S", "c3": "4D", "f": "4C", "s": "9D"}, ("c2 f", "c3 f"),
                                        ("d",), then=("c1 f",)),
    "nothing-on-a-king": Refused({"c1": "JH", "f": "KC", "s": "9D"}, "c1 f", "nothing-on-a-king"),
    "no-aces": Refused({"c1": "AH", "f": "2C", "s": "9D"}, "c1 f", "no-aces"),
    "no-queens": Refused({"c1": "QH", "f": "KC", "s": "9D"}, "c1 f", "no-queens"),
    "king-outranks-queen": Moves({"c1": "QH", "c2": "KS", "f": "JC", "s": "2D"}, ("c2 f",), ("c1 f",)),
    # The stock's top card is its last: one card at a time turns up 8♦ for the 9♥; two bury it under 5♣.
    "two-at-a-time": Moves({"c1": "9H", "f": "KS", "s": "5C 8D"}, ("c1 f",), (), then=("d",)),
    "hidden-head-row": Deal(1, SEVEN_BY_FIVE, ((5, 1),) * 7),
    "no-shuffling": Setting("shuffle", "always", "never"),
    "longest-columns-first": Refused({"c1": "5H", "c2": "9S 6C", "f": "4D", "s": "9D"}, "c1 f", "longest-columns-first"),
    "hop-on-one-foot": Honour("hop-on-one-foot", "before-move"),
    "undealt-cards-count": Score(LEFT_OVER, 3, 3 + 1),
    "face-cards-double": Score(LEFT_OVER, 3, 3 + 2),
    # nasty
    "alternate-colours": Refused({"c1": "5S", "f": "4C", "s": "9D"}, "c1 f", "alternate-colours"),
    "same-colour": Refused({"c1": "5H", "f": "4C", "s": "9D"}, "c1 f", "same-colour"),
    "only-up": Moves({"c1": "3H", "c2": "5S", "f": "4C", "s": "9D"}, ("c1 f", "c2 f"), ("c2 f",)),
    "only-down": Moves({"c1": "3H", "c2": "5S", "f": "4C", "s": "9D"}, ("c1 f", "c2 f"), ("c1 f",)),
    "red-climbs-black-falls": Moves({"c1": "3H", "c2": "5H", "c3": "3S", "c4": "5S", "f": "4D", "s": "9D"},
                                    ("c1 f", "c2 f", "c3 f", "c4 f"), ("c2 f", "c3 f")),
    "no-hearts": Refused({"c1": "5H", "f": "4C", "s": "9D"}, "c1 f", "no-hearts"),
    "hands-off-the-fourth-column": Refused({"c4": "5H", "f": "4C", "s": "9D"}, "c4 f", "hands-off-the-fourth-column"),
    "queen-ends-the-turn": Refused({"c1": "5H", "f": "QC", "s": "9D"}, "d", "no-deal-on-a-queen"),
    "three-at-a-time": Moves({"c1": "9H", "f": "KS", "s": "5C 2D 8D"}, ("c1 f",), (), then=("d",)),
    "seven-by-six": Deal(1, SEVEN_BY_FIVE, ((6, 0),) * 7),
    "eight-columns": Deal(1, SEVEN_BY_FIVE, ((5, 0),) * 8),
    "double-score": Score(LEFT_OVER, 3, 3 * 2),
    "face-value": Score(LEFT_OVER, 3, 11 + 5 + 13),  # J, 5, Q: their places among A 2 … 10 J K Q
    "lose-at-200": Setting("match.loses_at", 230, 200),
}

SEED_EXAMPLES = {
    "You cannot build black on black.": 'forbid foundation.build "black on black": card.color == black and top.color == black',
    "You do not have to shuffle before dealing.": "set deck.shuffle optional",
    "You must deal a 5 by 5 field instead of a 7 by 5.": "set field.count 5",
    "You must do the Achy Breaky Dance before every deal.":
        'honour achy-breaky before deal: "You must do the Achy Breaky Dance before every deal."',
}


# ---- the catalogue itself -----------------------------------------------------------------------
def test_the_catalogue_loads_with_enough_distinct_entries():
    entries = load_catalogue(GAME)
    assert len(entries) >= 25
    assert len({e.id for e in entries}) == len(entries)
    assert {e.tone for e in entries} == set(TONES)


def test_entries_go_from_gentle_to_nasty():
    ranks = [TONES.index(e.tone) for e in load_catalogue(GAME)]
    assert ranks == sorted(ranks)


def test_the_seed_examples_are_in_the_catalogue():
    by_title = {e.title: e for e in load_catalogue(GAME)}
    for title, change in SEED_EXAMPLES.items():
        assert by_title[title].change == change
    dance = by_title["You must do the Achy Breaky Dance before every deal."]
    assert EXPECTED[dance.id] == Honour("achy-breaky", "before-deal")


def test_every_entry_has_an_expectation_and_every_expectation_an_entry():
    assert sorted(set(ENTRIES) - set(EXPECTED)) == []
    assert sorted(set(EXPECTED) - set(ENTRIES)) == []


@pytest.mark.parametrize("entry_id", list(ENTRIES))
def test_every_entry_is_adopted_by_the_base_ruleset(entry_id):
    amendment = amend(base().data, ENTRIES[entry_id].change, source=entry_id, baseline=base())
    assert plain(amendment.data) != plain(base().data)


# ---- each entry's visible effect ------------------------------------------------------------------
def arranged(rules, layout):
    return Game(rules, seed=1).arrange(dict(layout))


def moves_text(game):
    return sorted(describe(game, m) for m in game.legal_moves())


def field(game):
    st = game.state
    return tuple((len(st.piles[p]), st.down[p]) for p in game.rules.groups["field"].piles)


def check_moves(entry_id, e: Moves):
    seen = []
    for rules in (base(), changed(entry_id)):
        game = arranged(rules, e.layout)
        for text in e.then:
            game.play(parse_move(game, text))
        seen.append(moves_text(game))
    assert seen == [sorted(e.base), sorted(e.changed)]


def check_refused(entry_id, e: Refused):
    before = arranged(base(), e.layout)
    assert describe(before, parse_move(before, e.move)).split() == e.move.split()
    after = arranged(changed(entry_id), e.layout)
    with pytest.raises(MoveRefused) as info:
        parse_move(after, e.move)
    assert f"clause {e.clause})" in str(info.value)


def check_deal(entry_id, e: Deal):
    games = [Game(rules, seed=e.seed) for rules in (base(), changed(entry_id))]
    assert [field(g) for g in games] == [e.base, e.changed]
    for g in games:  # the cards the field does not take are undealt: the pack is all there
        assert sum(len(p) for p in g.state.piles) == g.deck.size


def check_score(entry_id, e: Score):
    assert [arranged(rules, e.layout).score() for rules in (base(), changed(entry_id))] == [e.base, e.changed]


def check_honour(entry_id, e: Honour):
    def moments(rules):
        return {h.id: h.at for h in rules.honour}

    assert e.id not in moments(base())
    assert moments(changed(entry_id))[e.id] == e.at
    assert {h.says for h in changed(entry_id).honour if h.id == e.id} != {""}


def check_setting(entry_id, e: Setting):
    get = operator.attrgetter(e.attr)
    assert (get(base()), get(changed(entry_id))) == (e.base, e.changed)


CHECKS = {Moves: check_moves, Refused: check_refused, Deal: check_deal, Score: check_score, Honour: check_honour,
          Setting: check_setting}


@pytest.mark.parametrize("entry_id", sorted(EXPECTED))
def test_each_entry_visibly_changes_the_game(entry_id):
    expectation = EXPECTED[entry_id]
    CHECKS[type(expectation)](entry_id, expectation)


def test_a_refusal_names_the_rule_and_what_the_clause_says():
    game = arranged(changed("no-aces"), {"c1": "AH", "f": "2C", "s": "9D"})
    with pytest.raises(MoveRefused) as info:
        parse_move(game, "c1 f")
    assert str(info.value) == "A♥ cannot go on 2♣: the foundation takes no Ace (piles.foundation.build, clause no-aces)"


# ---- each entry, imposed in a match, lets through what it is meant to allow ---------------------------
# A move each change is meant to allow (or, for one that refuses some moves, one it is meant to leave alone), in a
# position set on the target's next turn: after a change, no clause of the rules may be left refusing it.
ORDINARY = (({"c1": "5H", "f": "4C", "s": "9D"}, "c1 f"),)
ALLOWS = {
    # gentle
    "no-need-to-shuffle": ORDINARY, "five-by-five": ORDINARY, "six-by-four": ORDINARY, "achy-breaky": ORDINARY,
    "bow-to-player-x": ORDINARY, "name-each-card": ORDINARY, "cleared-columns-pay": ORDINARY,
    "deal-when-you-like": (({"c1": "5H", "f": "4C", "s": "9S 9D"}, "d"),),
    "ace-meets-queen": (({"c1": "AH", "f": "QC", "s": "9D"}, "c1 f"), ({"c1": "QH", "f": "AC", "s": "9D"}, "c1 f")),
    "both-ends": (({"c1": "5H 9S", "f": "4C", "s": "9D"}, "c1@1 f"), ({"c1": "9S 5H", "f": "4C", "s": "9D"}, "c1 f")),
    "one-or-two-steps": (({"c1": "7H", "f": "5C", "s": "9D"}, "c1 f"),),
    "same-rank-too": (({"c1": "5H", "f": "5C", "s": "9D"}, "c1 f"),),
    # mischievous
    "black-on-black": ORDINARY, "no-two-of-a-suit": ORDINARY, "two-at-a-time": ORDINARY, "hidden-head-row": ORDINARY,
    "no-shuffling": ORDINARY, "hop-on-one-foot": ORDINARY, "undealt-cards-count": ORDINARY, "face-cards-double": ORDINARY,
    "red-on-red": (({"c1": "5S", "f": "4D", "s": "9D"}, "c1 f"),),
    "a-five-ends-the-foundation": (({"c1": "6H", "f": "5H", "s": "9D"}, "c1 f"),),  # a 5 dealt, not played
    "nothing-on-a-king": (({"c1": "KH", "f": "JC", "s": "9D"}, "c1 f"),),
    "no-aces": (({"c1": "2H", "f": "3C", "s": "9D"}, "c1 f"),),
    "no-queens": (({"c1": "JH", "f": "KC", "s": "9D"}, "c1 f"),),
    "king-outranks-queen": (({"c1": "QH", "f": "JC", "s": "9D"}, "c1 f"), ({"c1": "KH", "f": "QC", "s": "9D"}, "c1 f")),
    "longest-columns-first": (({"c1": "9S 5H", "c2": "6C", "f": "4D", "s": "9D"}, "c1 f"),),
    # nasty
    "alternate-colours": ORDINARY, "three-at-a-time": ORDINARY, "seven-by-six": ORDINARY, "eight-columns": ORDINARY,
    "double-score": ORDINARY, "face-value": ORDINARY, "lose-at-200": ORDINARY,
    "same-colour": (({"c1": "5S", "f": "4C", "s": "9D"}, "c1 f"),),
    "only-up": ORDINARY,
    "only-down": (({"c1": "3H", "f": "4C", "s": "9D"}, "c1 f"),),
    "red-climbs-black-falls": (({"c1": "5H", "f": "4D", "s": "9D"}, "c1 f"), ({"c1": "3S", "f": "4D", "s": "9D"}, "c1 f")),
    "no-hearts": (({"c1": "5D", "f": "4C", "s": "9D"}, "c1 f"),),
    "hands-off-the-fourth-column": (({"c1": "5H", "c4": "9S", "f": "4C", "s": "9D"}, "c1 f"),),
    "queen-ends-the-turn": (({"c1": "5H", "f": "JC", "s": "9S 9D"}, "d"),),
}
FILLER = {"c2": "7D"}  # a card left on the field, so that the turn goes on after the move


def test_every_entry_has_a_move_it_allows():
    assert sorted(set(ENTRIES) ^ set(ALLOWS)) == []


def imposed_in_a_match(entry_id: str) -> Match:
    """A match between two people in which bob imposed the entry on ann after her first turn: ann's second turn,
    waiting for her first move."""
    match = Match(base(), [Seat("ann"), Seat("bob")], 7)
    play_turn(match)  # ann
    change = match.impose(1, ENTRIES[entry_id].change)
    assert match.active_changes(0) == [change]
    play_turn(match)  # bob
    match.pass_turn(0)
    while match.waiting().what in ("ack", "shuffle"):
        w = match.waiting()
        match.acknowledge(w.seat) if w.what == "ack" else match.choose_shuffle(w.seat, True)
    assert match.waiting() == Waiting(0, "move") and match.game.rules is match.rules_for(0)
    return match


@pytest.mark.parametrize("entry_id", list(ENTRIES))
def test_every_entry_imposed_in_a_match_lets_through_a_move_it_is_meant_to_allow(entry_id):
    match = imposed_in_a_match(entry_id)
    for layout, move in ALLOWS[entry_id]:
        game = match.game.arrange({**FILLER, **layout} if "c2" not in layout else layout)
        top = game.state.piles[game.rules.pile_of_tag["f"]][-1]
        m = parse_move(game, move)  # refused: MoveRefused names the clause left in the way
        match.move(0, m)
        while match.waiting().what == "ack":
            match.acknowledge(0)
        assert match.waiting() == Waiting(0, "move")
        assert game.state.piles[game.rules.pile_of_tag["f"]][-1] != top  # a card went on the foundation


# ---- the example page ---------------------------------------------------------------------------
def test_the_example_page_is_generated_from_the_catalogue():
    assert EXAMPLE.read_text(encoding="utf-8") == catalogue_markdown(GAME), (
        "examples/discordian-changes.md is out of date: regenerate it with "
        "kallisti.catalogue.catalogue_markdown('discordian')")


def test_the_example_page_has_one_row_per_entry():
    rows = [line for line in catalogue_markdown(GAME).splitlines() if line.startswith("| ") and "`" in line]
    assert len(rows) == len(ENTRIES)
    for row, entry in zip(rows, ENTRIES.values()):
        assert row.startswith(f"| {entry.title} | `{entry.change}` | {entry.tone} |")


# ---- a malformed catalogue is refused clearly ---------------------------------------------------
GOOD_ENTRY = "  - id: x\n    title: T.\n    change: set field.count 5\n    tone: gentle\n    note: N.\n"


def refusal(text, game="discordian"):
    with pytest.raises(KallistiError) as info:
        read_catalogue(text, "cat.yaml", game)
    return info.value.findings


def test_a_wrong_tone_is_named_with_its_position_and_the_choices():
    (f,) = refusal("game: discordian\nchanges:\n" + GOOD_ENTRY.replace("tone: gentle", "tone: gentel"))
    assert f.code == "catalogue-schema" and "changes.0.tone" in f.message
    assert (f.pos.source, f.pos.line) == ("cat.yaml", 6)
    assert f.suggestion == "did you mean 'gentle'?"


def test_a_missing_key_and_an_unknown_key_are_both_reported():
    text = "game: discordian\nchanges:\n" + GOOD_ENTRY.replace("    note: N.\n", "    nots: N.\n")
    findings = refusal(text)
    messages = sorted(f.message for f in findings)
    assert messages == ["changes.0: 'note' is required", "changes.0: unknown key 'nots'"]
    assert any(f.suggestion == "did you mean 'note'?" for f in findings)


def test_an_id_that_is_not_kebab_case_is_refused():
    (f,) = refusal("game: discordian\nchanges:\n" + GOOD_ENTRY.replace("id: x", "id: Black_On_Black"))
    assert "changes.0.id" in f.message and f.pos.line == 3


def test_a_duplicate_id_points_at_the_second_one():
    (f,) = refusal("game: discordian\nchanges:\n" + GOOD_ENTRY + GOOD_ENTRY)
    assert f.code == "catalogue-duplicate-id" and f.pos.line == 8
    assert "changes.0" in f.message


def test_a_catalogue_for_another_game_is_refused():
    (f,) = refusal("game: spider\nchanges:\n" + GOOD_ENTRY)
    assert f.code == "catalogue-game" and f.pos.line == 1


def test_an_unknown_game_suggests_a_catalogue():
    with pytest.raises(KallistiError) as info:
        load_catalogue("discordain")
    (f,) = info.value.findings
    assert f.code == "unknown-catalogue" and f.suggestion == "did you mean 'discordian'?"


def test_a_well_formed_catalogue_reads_into_entries():
    (entry,) = read_catalogue("game: discordian\nchanges:\n" + GOOD_ENTRY, "cat.yaml", "discordian")
    assert (entry.id, entry.title, entry.change, entry.tone, entry.note) == ("x", "T.", "set field.count 5", "gentle", "N.")
