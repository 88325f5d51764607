"""One foundation for `SRC f`, whatever the game's history: the lowest-numbered pile of the group that takes the card,
in the terminal, through the JSON API and in the automatic moves alike; and a hint changes nothing in the game, not
even the order of its legal moves.

Deal 97 of Forty Thieves has two aces on top of the tableau, A♠ on t7 and A♣ on t10, and eight empty foundations.
"""

from __future__ import annotations

import os

import pytest
from typer.testing import CliRunner

from kallisti.cli.app import app as cli
from kallisti.interpreter.game import Game
from kallisti.interpreter.notation import describe, parse_move
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.strategies import hint

SEED = 97


def foundations(game) -> dict[str, str]:
    """The foundation piles that hold cards, tag -> cards."""
    rules = game.rules
    return {rules.tag_of[p]: " ".join(game.deck.name(c) for c in game.state.piles[p])
            for p in rules.groups["foundation"].piles if game.state.piles[p]}


def play(game, text: str) -> str:
    m = parse_move(game, text)
    game.play(m)
    return describe(game, m)


@pytest.fixture
def game():
    return Game(load_ruleset("forty-thieves"), seed=SEED)


# -- the engine -------------------------------------------------------------------------------------------------
def test_the_deal_has_two_aces_on_top_and_every_foundation_empty(game):
    assert play(game, "t7 f") == "t7 f1" and foundations(game) == {"f1": "A♠"}
    assert play(game, "t10 f") == "t10 f2" and foundations(game) == {"f1": "A♠", "f2": "A♣"}


def test_after_undo_the_group_tag_still_means_the_lowest_foundation_that_takes_the_card(game):
    play(game, "t7 f2")
    play(game, "t10 f1")
    game.undo()
    game.undo()  # undo re-files f1 and f2 at the end of the move indexes
    assert play(game, "t10 f") == "t10 f1"
    game.undo()
    play(game, "t7 f3")
    assert play(game, "t10 f") == "t10 f1"  # not f4 with f1 and f2 empty
    assert foundations(game) == {"f1": "A♣", "f3": "A♠"}


def test_a_hint_leaves_the_position_the_history_and_the_order_of_the_legal_moves(game):
    play(game, "t7 f2")
    game.undo()
    before, key, history = game.legal_moves(), game.state.key(), list(game.history)
    assert describe(game, hint(game)) == "t7 f1"
    assert game.legal_moves() == before and game.state.key() == key and game.history == history
    assert play(game, "t7 f") == "t7 f1"


def test_the_automatic_moves_take_the_same_foundations_as_the_group_tag(game):
    play(game, "t7 f8")
    game.undo()
    hint(game)
    assert [describe(game, m) for m in game.play_auto()] == ["t7 f1", "t10 f2"]


def test_a_fork_plays_on_without_touching_the_game(game):
    play(game, "t7 f")
    twin = game.fork()
    assert twin.state.key() == game.state.key() and twin.legal_moves() == game.legal_moves() and not twin.history
    play(twin, "t10 f")
    assert foundations(game) == {"f1": "A♠"} and foundations(twin) == {"f1": "A♠", "f2": "A♣"}
    assert len(game.history) == 1 and twin.undo() and foundations(twin) == {"f1": "A♠"}


# -- the terminal -------------------------------------------------------------------------------------------------
def test_kallisti_play_sends_the_ace_to_the_first_foundation_after_a_hint_and_an_undo():
    out = CliRunner().invoke(cli, ["play", "forty-thieves", "--seed", str(SEED)],
                             input="t7 f5\nu\nhint\nt7 f\nt10 f2\nu\nt10 f\nq\n").output
    assert "hint: t7 f1" in out
    assert "A♠ from t7 to f1" in out and "A♣ from t10 to f2" in out
    assert "A♠ from t7 to f5" in out and "to f3" not in out


# -- the JSON API -------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def client():
    if os.environ.get("CI") != "true":
        pytest.importorskip("starlette")
        pytest.importorskip("httpx")
    import warnings

    with warnings.catch_warnings():  # Starlette's TestClient prefers the `httpx2` fork; `httpx` works the same
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from kallisti.web.api import create_app

    with TestClient(create_app(), base_url="http://127.0.0.1") as c:
        yield c


def move(client, sid: str, body: dict) -> dict:
    r = client.post(f"/api/sessions/{sid}/move", json=body)
    assert r.status_code == 200, r.text
    return r.json()


def test_through_the_api_a_hint_changes_neither_the_legal_moves_nor_the_table(client):
    made = client.post("/api/sessions", json={"game": "forty-thieves", "seed": SEED}).json()
    sid, start = made["id"], made["state"]
    for _ in range(2):
        h = client.get(f"/api/sessions/{sid}/hint").json()
        assert h["move"]["text"] == "t7 f1"
        assert client.get(f"/api/sessions/{sid}").json() == start  # the legal moves in the same order, the same piles
    assert move(client, sid, {"from": "t7", "to": "f"})["said"] == ["A♠ from t7 to f1"]


def test_through_the_api_the_group_tag_and_the_double_click_take_the_lowest_foundation(client):
    sid = client.post("/api/sessions", json={"game": "forty-thieves", "seed": SEED}).json()["id"]
    move(client, sid, {"text": "t7 f2"})
    move(client, sid, {"text": "t10 f1"})
    client.post(f"/api/sessions/{sid}/undo")
    client.post(f"/api/sessions/{sid}/undo")
    client.get(f"/api/sessions/{sid}/hint")
    state = client.get(f"/api/sessions/{sid}").json()
    # The page's double-click: of the card's legal moves to a foundation, the one to the lowest-numbered pile.
    number = {p["tag"]: i for i, p in enumerate(state["piles"])}
    to_foundation = [m for m in state["legal"] if m["from"] == "t10" and m["to"] and m["to"].startswith("f")]
    assert min(to_foundation, key=lambda m: number[m["to"]])["text"] == "t10 f1"
    assert move(client, sid, {"from": "t10", "to": "f"})["said"] == ["A♣ from t10 to f1"]
    assert move(client, sid, {"text": "t7 f"})["said"] == ["A♠ from t7 to f2"]
