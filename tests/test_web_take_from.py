"""Cards that leave from below a pile's top (`take_from`) at the browser's table (kallisti.web.session): each such
legal move says the place its cards start (`start`, from 1 at the pile's bottom) and is made by its text
(`c1@1 f`), in a match of Discordian Solitaire where Player X imposed "the top card of a column as well as the
bottom one" and in a patience; the groups of the state say which cards may leave their piles."""

from __future__ import annotations

import json

from scenario import changed_data

from kallisti.interpreter.amend import compile_data
from kallisti.interpreter.notation import describe
from kallisti.model.ruleset import load_ruleset
from kallisti.web.session import Session

BOTH_ENDS = "set field.take_from [top, bottom]"


def play_turn(s: Session) -> None:
    """The person whose turn it is plays the first legal move until the turn ends."""
    while s.state()["match"]["waiting"]["what"] == "move":
        s.move(s.state()["legal"][0]["text"])


def both_ends_for_ann(seed: int = 50) -> Session:
    """A match of ann and bob: ann plays a turn, bob as Player X imposes BOTH_ENDS on her, plays his turn, and ann
    passes; her turn begins."""
    s = Session("m1", "discordian", load_ruleset("discordian"), seed, players=["ann", "bob"])
    for seat in (0, 0, 1, 1):
        s.acknowledge(seat=seat)
    play_turn(s)
    s.rule(BOTH_ENDS, seat=1)
    play_turn(s)
    s.pass_turn(seat=0)
    assert s.state()["match"]["waiting"]["what"] == "move" and s.match.current == 0
    return s


def cards(st: dict, tag: str) -> list[str]:
    return [c["text"] for c in next(p for p in st["piles"] if p["tag"] == tag)["cards"]]


def test_a_move_from_the_far_end_of_a_column_says_its_place_and_is_made_by_its_text():
    s = both_ends_for_ann()
    st = s.state()
    assert json.loads(json.dumps(st)) == st
    field = next(g for g in st["groups"] if g["name"] == "field")
    assert field["take_from"] == ["top", "bottom"]
    assert next(g for g in st["groups"] if g["name"] == "foundation")["take_from"] == ["top"]
    c1 = cards(st, "c1")
    assert c1 == ["6♦", "3♠", "3♥", "6♣", "2♥"]
    # Deal 50: the only card ann can play is the first one dealt to c1, at its far end.
    assert st["legal"] == [{"kind": "move", "from": "c1", "to": "f", "count": 1, "text": "c1@1 f",
                            "says": "6♦ from c1 to f", "start": 1}]
    assert s.hint()["move"] == st["legal"][0]
    assert s.explain("c1", "f")["legal"] is False  # the top card, 2♥, does not go on the foundation
    said = s.move("c1@1 f")["said"]
    assert said[0] == "6♦ from c1 to f"
    after = s.state()
    assert cards(after, "c1") == c1[1:] and cards(after, "f")[-1] == "6♦"
    assert next(p for p in after["piles"] if p["tag"] == "f")["cards"][-1]["id"] == \
        next(p for p in st["piles"] if p["tag"] == "c1")["cards"][0]["id"]
    s.undo()
    assert cards(s.state(), "c1") == c1


def test_the_change_is_ann_s_alone_bob_s_columns_give_their_top_cards_only():
    s = both_ends_for_ann()
    play_turn(s)  # ann's turn, to its end
    s.pass_turn(seat=1)
    st = s.state()
    assert s.match.current == 1 and st["match"]["waiting"]["what"] == "move"
    assert next(g for g in st["groups"] if g["name"] == "field")["take_from"] == ["top"]
    assert not any("start" in m or "@" in m["text"] for m in st["legal"])


def test_in_a_patience_that_moves_runs_a_single_card_from_the_bottom_is_written_with_its_place():
    rules = compile_data(changed_data("spider", "set tableau.take_from [top, bottom]"))
    s = Session("s1", "spider-both-ends", rules, 1)
    s.game.arrange({"t1": "9S 5H 4H", "t2": "10H", "t3": "6C", "s": "KD"})
    legal = s.state()["legal"]
    texts = {m["text"]: m for m in legal}
    assert [m["text"] for m in legal] == [describe(s.game, m) for m in s.game.legal_moves()]
    assert texts["t1@1 t2"] == {"kind": "move", "from": "t1", "to": "t2", "count": 1, "text": "t1@1 t2",
                                "says": "9♠ from t1 to t2", "start": 1}
    assert "start" not in texts["t1 t3 2"]  # a run that ends at the top is an ordinary move
    s.move("t1@1 t2")
    assert cards(s.state(), "t1") == ["5♥", "4♥"] and cards(s.state(), "t2") == ["10♥", "9♠"]
