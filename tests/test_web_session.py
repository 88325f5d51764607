"""The engine side of the browser's API (kallisti.web.session, kallisti.model.layout): a Session answers with the
state as plain data, reads moves as `kallisti play` reads them (so a refusal is the terminal's explanation word for
word), and leaves the game exactly as it was after every refused action. No web package is needed here."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from kallisti.interpreter.game import Game
from kallisti.interpreter.notation import MoveRefused, describe, parse_move
from kallisti.model.loader import shipped_games
from kallisti.model.ruleset import load_ruleset
from kallisti.model.layout import group_layouts
from kallisti.web.session import BadRequest, Refused, Session

SOLUTIONS = Path(__file__).parent / "solutions"
STATE_KEYS = {"id", "game", "title", "kind", "seed", "status", "reason", "score", "moves_made", "can_undo", "can_redo",
              "piles", "groups", "legal", "honour", "match"}
CARD_KEYS = {"id", "rank", "suit", "symbol", "colour", "face_up", "text"}


def moves_of(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]


def same(state: dict) -> dict:
    """A state with its legal moves in text order (the engine's order of them may change after an undo)."""
    return {**state, "legal": sorted(state["legal"], key=lambda m: m["text"])}


def session(game: str = "forty-thieves", seed: int = 5, **kw) -> Session:
    return Session("s1", game, load_ruleset(game), seed, **kw)


def test_the_state_of_a_patience_is_plain_json_data_of_every_pile_and_group():
    s = session()
    st = s.state()
    assert set(st) == STATE_KEYS
    assert json.loads(json.dumps(st)) == st
    assert (st["game"], st["title"], st["kind"], st["seed"], st["status"]) == ("forty-thieves", "Forty Thieves", "patience", 5, "playing")
    rules = s.game.rules
    assert [p["tag"] for p in st["piles"]] == [rules.tag_of[p] for p in range(rules.pile_count)]
    assert {g["name"] for g in st["groups"]} == set(rules.groups)
    for pile in st["piles"]:
        assert pile["size"] == len(pile["cards"])
        for card in pile["cards"]:
            assert set(card) == CARD_KEYS
    stock = next(p for p in st["piles"] if p["tag"] == "s")
    assert stock["size"] == 64 and all(c == {**c, "id": None, "rank": None, "face_up": False, "text": "##"} for c in stock["cards"])
    t1 = next(p for p in st["piles"] if p["tag"] == "t1")
    assert all(c["face_up"] and c["id"] is not None for c in t1["cards"])
    assert [m["text"] for m in st["legal"]] == [describe(s.game, m) for m in s.game.legal_moves()]
    assert st["honour"] is None and st["match"] is None and not st["can_undo"]


def test_a_face_down_card_shows_nothing_of_itself():
    s = session("spider", 1)
    hidden = [c for p in s.state()["piles"] for c in p["cards"] if not c["face_up"]]
    assert hidden and all(set(c.values()) <= {None, False, "##"} for c in hidden)


def test_a_refused_move_carries_the_explanation_kallisti_play_prints_and_changes_nothing():
    s = session()
    before = s.state()
    twin = Game(load_ruleset("forty-thieves"), seed=5)
    with pytest.raises(MoveRefused) as engine:
        parse_move(twin, "t1 t2")
    with pytest.raises(Refused) as refused:
        s.move("t1 t2")
    assert refused.value.code == "move-refused"
    assert refused.value.message == str(engine.value)
    assert "piles.tableau.build" in refused.value.message
    assert s.state() == before
    with pytest.raises(Refused, match="names no pile"):
        s.move(src="t1", dst="z9")


def test_moves_by_fields_are_the_text_the_terminal_reads():
    s = session()
    said = s.move(src="t3", dst="f")["said"]
    assert said == ["A♦ from t3 to f1"]
    for bad in ({"src": "t3 f1", "dst": "f2"}, {"src": "t3", "dst": "f1", "count": 0}, {"src": "t3", "dst": "f1", "count": "2"},
                {"src": 3, "dst": "f1"}, {"text": ""}):
        with pytest.raises(BadRequest):
            s.move(**bad)


def test_undo_and_redo_come_back_to_the_same_state():
    s = session()
    start = s.state()
    s.move("t3 f1")
    after = s.state()
    assert after["can_undo"] and after["moves_made"] == 1
    s.undo()
    assert same(s.state()) == same({**start, "can_redo": True})
    s.redo()
    assert same(s.state()) == same(after)
    s.undo()
    with pytest.raises(Refused, match="nothing to undo"):
        s.undo()


def test_a_hint_is_a_legal_move_and_says_where_it_comes_from():
    s = session("decade", 2)
    h = s.hint()
    assert h["move"]["text"] in [m["text"] for m in s.state()["legal"]]
    assert {k: h[k] for k in ("source", "positions", "why")} == \
        {"source": "line", "positions": 65, "why": "follows a winning line found in 65 positions"}
    s.move(h["move"]["text"])


def test_explain_says_why_without_moving():
    s = session()
    before = s.state()
    assert s.explain("t1", "t2") == {"legal": False, "why": "7♥ cannot go on Q♠: the tableau builds down in suit "
                                     "(piles.tableau.build, clause rank-down)"}
    ok = s.explain("t3", "f")
    assert ok["legal"] and ok["move"]["text"] == "t3 f1"
    assert s.state() == before


def test_the_legal_moves_text_is_describes_for_games_that_move_runs():
    """`legal` writes the text as `describe` does (`t3 t5 1` when a run could make the same trip) without asking the
    engine for the legal moves once per move; checked at every position of a won Blockade deal."""
    s = session("blockade", 3)
    ones = 0
    for line in moves_of(SOLUTIONS / "blockade-3.moves"):
        s.move(line)
        legal = s.game.legal_moves()
        texts = [m["text"] for m in s.moves_list(legal)]
        assert texts == [describe(s.game, m) for m in legal]
        ones += sum(t.endswith(" 1") for t in texts)
    assert ones and s.state()["status"] == "won"


def test_discards_carry_their_window():
    s = session("decade", 2)
    for line in moves_of(SOLUTIONS / "decade-2.moves")[:4]:
        s.move(line)
    discard = next(m for m in s.state()["legal"] if m["kind"] == "discard")
    assert discard["text"] == f"{discard['from']} {discard['start']}-{discard['start'] + discard['count'] - 1}" \
        or discard["count"] == 1


def test_rule_changes_in_a_patience_are_checked_and_undone_like_moves():
    s = session()
    before = s.state()
    text = 'forbid foundation.build "no kings": card.rank = K'
    bad = s.check_rule(text)
    assert not bad["ok"] and (bad["findings"][0]["line"], bad["findings"][0]["column"]) == (1, text.index("= K") + 1)
    layout = s.check_rule("set tableau.count 12")
    assert not layout["ok"] and layout["findings"][0]["code"] == "change-layout" and layout["diff"]
    with pytest.raises(Refused) as refused:
        s.rule("set tableau.count 12")
    assert refused.value.code == "change-refused" and refused.value.findings[0]["code"] == "change-layout"
    good = s.check_rule('forbid foundation.build "no kings": card.rank == K')
    assert good["ok"] and good["diff"] == ["+ piles.foundation.build no-kings: forbid card.rank == K  (has the rule \"no kings\")"]
    assert s.state() == before
    done = s.rule('forbid foundation.build "no kings": card.rank == K')
    assert done["diff"] == good["diff"]
    s.undo()
    assert s.game.rules.data == load_ruleset("forty-thieves").data


def test_honour_rules_of_a_patience_wait_for_their_acknowledgement():
    s = session()
    s.rule('honour dance before move: "Dance first."')
    assert s.state()["honour"] == {"id": "dance", "at": "before-move", "says": "Dance first."}
    with pytest.raises(Refused, match="first acknowledge: Dance first."):
        s.move("t3 f1")
    assert s.acknowledge()["said"] == ["acknowledged: Dance first."]
    s.move("t3 f1")
    assert s.state()["honour"]["id"] == "dance"


def test_a_table_game_without_piles_is_not_played_in_the_browser():
    with pytest.raises(BadRequest) as caught:
        Session("s", "onion", load_ruleset("onion"))
    assert caught.value.code == "not-playable" and "kallisti play onion" in caught.value.message
    for bad in (-1, 10**10, "7", True):
        with pytest.raises(BadRequest):
            session(seed=bad)


# -- layout ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(shipped_games()))
def test_every_group_of_a_shipped_game_has_a_place_of_its_own(name):
    rules = load_ruleset(name)
    places = group_layouts(rules)
    assert set(places) == set(rules.groups)
    assert len({(p["row"], p["column"]) for p in places.values()}) == len(places)
    for g in rules.groups.values():
        place = places[g.name]
        assert place["fan"] in ("down", "right", "none")
        assert place["row"] == (0 if g.role in ("stock", "waste", "cell", "foundation", "discard") else place["row"])
        if g.role == "tableau":
            assert place["fan"] == "down" and place["row"] == (1 if len({p["row"] for p in places.values()}) > 1 else 0)


def test_layout_hints_override_the_computed_places_group_by_group():
    rules = load_ruleset("forty-thieves")

    class Hinted:
        groups = rules.groups
        data = {**rules.data, "layout": {"waste": {"row": 2, "column": 5, "fan": "right"}, "stock": {"fan": "sideways"},
                                         "nowhere": {"row": 1}}}
    places = group_layouts(Hinted)
    assert places["waste"] == {"row": 2, "column": 5, "fan": "right"}
    assert places["stock"] == group_layouts(rules)["stock"]
    assert "nowhere" not in places


# -- Discordian Solitaire ----------------------------------------------------------------------------------
def match_session(players=("you", "bot:random"), seed=3) -> Session:
    return Session("m1", "discordian", load_ruleset("discordian"), seed, players=list(players))


def play_turn(s: Session) -> None:
    """The person whose turn it is plays the first legal move until the turn ends."""
    while s.state()["match"]["waiting"]["what"] == "move":
        s.move(s.state()["legal"][0]["text"])


def test_a_match_waits_for_the_person_whose_move_it_is():
    s = match_session(("ann", "bob"))
    m = s.state()["match"]
    assert [seat["name"] for seat in m["seats"]] == ["ann", "bob"] and m["waiting"]["what"] == "ack"
    assert m["waiting"]["honour"]["id"] == "mind-the-cards" and s.state()["piles"] == []
    with pytest.raises(Refused, match="not now: ann must first acknowledge"):
        s.acknowledge(seat=1)
    for seat in (0, 0, 1, 1):
        s.acknowledge(seat=seat)
    st = s.state()
    assert st["match"]["waiting"]["what"] == "move" and st["legal"] and len(st["piles"]) == 9
    with pytest.raises(Refused, match="not now"):
        s.move(st["legal"][0]["text"], seat=1)
    with pytest.raises(Refused) as refused:
        s.pass_turn()
    assert refused.value.code == "not-now"


def test_a_bot_acts_by_itself_and_its_actions_are_reported():
    s = match_session()
    s.acknowledge()
    done = s.acknowledge()
    assert [(a["seat"], a["what"]) for a in done["bot"]] == [(1, "ack"), (1, "ack")]
    play_turn(s)
    m = s.state()["match"]
    assert m["waiting"] == {**m["waiting"], "seat": 0, "what": "player-x"} and len(m["turns"]) == 2
    assert m["seats"][0]["total"] == m["turns"][0]["total"]


def test_player_x_checks_a_change_with_line_and_column_and_nothing_changes():
    s = match_session()
    s.acknowledge()
    s.acknowledge()
    play_turn(s)
    before = copy.deepcopy(s.state())
    events = list(s.match.events)
    bad = s.check_rule('forbid foundation.build "black on black": card.color == black and top.color = black')
    assert not bad["ok"] and bad["target"] == 1
    assert [(f["line"], f["column"], f["code"]) for f in bad["findings"]] == [(1, 77, "change-syntax")]
    with pytest.raises(Refused) as refused:
        s.rule("set field.count 0")
    assert refused.value.code == "change-refused" and refused.value.findings[0]["line"] == 1
    assert s.state() == before and s.match.events == events
    good = s.check_rule("set field.count 5")
    assert good == {"ok": True, "findings": [], "diff": ["~ piles.field.count: 7 -> 5"], "target": 1}
    assert s.state() == before
    done = s.rule("set field.count 5")
    assert done["said"][0] == "you impose c2 on bot, from hir next turn: set field.count 5"
    assert done["change"]["id"] == "c2" and done["diff"] == good["diff"]
    bot = s.state()["match"]["seats"][1]
    assert bot["diff"] == ["~ piles.field.count: 7 -> 5"] and bot["changes"][0]["text"] == "set field.count 5"


def test_player_x_may_revoke_or_pass():
    s = match_session()
    s.acknowledge()
    s.acknowledge()
    play_turn(s)
    m = s.state()["match"]
    assert m["revokable"] == ["c1"] and m["may_change"]  # the bot imposed c1 on you after your turn
    with pytest.raises(Refused, match="no change 'c9'"):
        s.revoke("c9")
    said = s.revoke("c1")["said"]
    assert said[0].startswith("you revoke c1")
    assert s.state()["match"]["seats"][0]["changes"][0]["active"] is False


def test_a_bot_in_the_first_seat_acts_when_the_match_is_made_and_after_the_person():
    s = match_session(("bot:random", "you"), seed=1)
    assert [(a["seat"], a["what"]) for a in s.opening["bot"]] == [(0, "ack"), (0, "ack")]
    assert s.state()["match"]["waiting"] == {**s.state()["match"]["waiting"], "seat": 1, "what": "ack"}
    s.acknowledge()
    done = s.acknowledge()  # then the bot deals and plays its turn, and the person is Player X
    last = done["bot"][-1]  # the turn's end is told with the move that ended it, and the table after each move shown
    assert last["what"] == "move" and last["said"][-1].startswith("turn over (") and ": bot scores " in last["said"][-1]
    assert all(a["piles"] for a in done["bot"] if a["what"] == "move")
    assert [p["cards"] for p in last["piles"]] == [p["cards"] for p in s.state()["piles"]]
    m = s.state()["match"]
    assert m["waiting"]["what"] == "player-x" and m["waiting"]["seat"] == 1 and m["current"] == 0
    assert s.state()["piles"] and s.state()["legal"] == []  # the bot's finished turn is shown while Player X decides


# -- dealing, auto-complete, what a game is -----------------------------------------------------------------------
def test_a_deal_names_the_cards_it_dealt_or_the_piles_it_dealt_to():
    s = session("forty-thieves", 5)
    said = s.deal()["said"]
    top = s.state()["piles"][[p["tag"] for p in s.state()["piles"]].index("w")]["cards"][-1]
    assert said == [f"deal from s: {top['text']} to w"]
    assert session("spider", 7).deal()["said"] == ["deal from s: 10 cards to t1..t10"]


def test_auto_finishes_a_game_won_by_force_in_one_step_as_the_terminals_a_does():
    from kallisti.solver.autoplay import Autoplay

    s = session("forty-thieves", 5)
    for text in moves_of(SOLUTIONS / "forty-thieves-5.moves"):
        if Autoplay().won_by_force(s.game):
            break
        s.move(text)
    made = s.state()["moves_made"]
    done = s.auto()
    assert done["said"][0].startswith("auto: ") and s.state()["status"] == "won"
    assert s.state()["moves_made"] == made + 1  # one step: one undo takes the whole ending back
    s.undo()
    assert s.state()["moves_made"] == made and s.state()["status"] == "playing"


def test_a_turn_is_told_with_the_person_conjugated():
    s = match_session(("you", "bot:random"), seed=1)
    s.acknowledge()
    s.acknowledge()
    while s.state()["match"]["waiting"]["what"] == "move" and s.state()["match"]["current"] == 0:
        said = s.move(s.state()["legal"][0]["text"])["said"]
    told = [line for line in said if line.startswith("turn over")]
    assert told and ": you score " in told[0]


def test_a_games_goal_and_rules_in_short_come_from_its_rule_book():
    from kallisti.web.summary import game_summary

    decade = game_summary(load_ruleset("decade"))
    assert decade["goal"] == "The game is won when all 52 cards of the pack are on the discard (x)."
    assert not any("foundation" in line for line in decade["rules"])  # Decade has none
    thieves = game_summary(load_ruleset("forty-thieves"))
    assert "tableau: builds down in suit; a space takes any card; may leave top card" in thieves["rules"]
    assert thieves["description"].endswith("the standard published rules agree.")  # whole, not cut
