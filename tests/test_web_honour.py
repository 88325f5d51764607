"""Honour rules `before deal` at the browser's table (kallisti.web.session): a deal from the stock waits for them as
`kallisti play` makes it wait (HonourRules.ask), a save taken between their acknowledgement and the deal comes back
still waiting for the rest of them only, and in a match a deal that waits is not told as made until it is."""

from __future__ import annotations

import pytest

from kallisti.model.ruleset import load_ruleset
from kallisti.web.session import Refused, Session

DANCE = 'honour dance before deal: "Dance first."'
BOW = 'honour bow before deal: "Bow first."'


def patience(*changes: str) -> Session:
    s = Session("s1", "forty-thieves", load_ruleset("forty-thieves"), 5)
    for text in changes:
        s.rule(text)
    return s


def sizes(s: Session) -> list[int]:
    return [p["size"] for p in s.state()["piles"]]


def test_a_deal_from_the_stock_waits_for_the_before_deal_rules_and_other_moves_do_not():
    s = patience(DANCE)
    assert s.state()["honour"] is None  # nothing is due until a deal is asked for
    s.move("t3 f1")  # a move that is not a deal asks nothing
    before = sizes(s)
    with pytest.raises(Refused, match=r"first acknowledge: Dance first\. \(type `ok`\)") as refused:
        s.deal()
    assert refused.value.code == "not-now" and sizes(s) == before
    assert s.state()["honour"] == {"id": "dance", "at": "before-deal", "says": "Dance first."}
    assert s.acknowledge()["said"] == ["acknowledged: Dance first."]
    assert s.state()["honour"] is None
    assert s.deal()["said"][0].startswith("deal from s: ")
    assert sizes(s) != before and s.state()["honour"] is None
    with pytest.raises(Refused, match="first acknowledge: Dance first."):  # the next deal asks again
        s.deal()


def test_a_save_between_the_acknowledgement_and_the_deal_comes_back_waiting_for_the_rest_only():
    s = patience(DANCE, BOW)
    with pytest.raises(Refused, match="Dance first."):
        s.deal()
    s.acknowledge()
    assert s.state()["honour"]["id"] == "bow"
    back = Session.from_saved("s1", s.saved())
    assert back.state()["honour"] == {"id": "bow", "at": "before-deal", "says": "Bow first."}
    assert back.honour.deal_asked and back.honour.deal_acks == {"dance"}
    back.acknowledge()
    back.deal()
    assert back.state()["honour"] is None
    s.acknowledge()
    s.deal()
    assert sizes(back) == sizes(s) and back.game.events == s.game.events


def match_at_a_deal(seed: int = 3) -> Session:
    """ann and bob; bob, as Player X, imposes DANCE on ann; bob plays his turn, ann passes, and ann plays her turn
    (acknowledging DANCE before its first deal) until her next move is a deal from the stock."""
    s = Session("m1", "discordian", load_ruleset("discordian"), seed, players=["ann", "bob"])
    for seat in (0, 0, 1, 1):
        s.acknowledge(seat=seat)
    while s.state()["match"]["waiting"]["what"] == "move":
        s.move(s.state()["legal"][0]["text"])
    s.rule(DANCE, seat=1)
    while s.state()["match"]["waiting"]["what"] == "move":
        s.move(s.state()["legal"][0]["text"])
    s.pass_turn(seat=0)
    w = s.state()["match"]["waiting"]
    assert (w["seat"], w["what"], w["honour"]["id"]) == (0, "ack", "dance")  # before the turn's first deal
    s.acknowledge(seat=0)
    while [m["text"] for m in s.state()["legal"]] != ["d"]:
        s.move(s.state()["legal"][0]["text"])
    return s


def test_in_a_match_a_deal_that_waits_for_its_honour_rule_is_told_when_it_is_made():
    s = match_at_a_deal()
    before = sizes(s)
    said = s.move("d")["said"]
    assert said == ["deal from s: first acknowledge the honour rules due before the deal"]
    st = s.state()
    assert sizes(s) == before and st["match"]["waiting"]["what"] == "ack"
    assert st["match"]["waiting"]["honour"] == {"id": "dance", "at": "before-deal", "says": "Dance first."}
    said = s.acknowledge(seat=0)["said"]
    assert said[0] == "ann acknowledges: Dance first."
    f = next(p for p in s.state()["piles"] if p["tag"] == "f")
    assert said[1] == f"deal from s: {f['cards'][-1]['text']} to f" and sizes(s) != before
