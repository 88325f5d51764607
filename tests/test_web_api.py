"""The JSON API of `kallisti serve` (docs/web.md), in process: every shipped patience with a known win is won
move by move through POST .../move; refusals carry the engine's explanation; every error is JSON; Discordian's
rule changes are checked with line:column and a refused one changes nothing; and `kallisti serve` itself starts.

Without the web extra these tests are skipped on a developer's machine, and fail under CI=true.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import socket
import sys
import threading
import time
from pathlib import Path

import pytest

if os.environ.get("CI") != "true":
    pytest.importorskip("starlette")
    pytest.importorskip("httpx")
    pytest.importorskip("uvicorn")

import warnings  # noqa: E402

import httpx  # noqa: E402

with warnings.catch_warnings():  # Starlette's TestClient prefers the `httpx2` fork; `httpx` works the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from kallisti.cli.app import app as cli  # noqa: E402
from kallisti.web.api import MAX_BODY_BYTES, create_app  # noqa: E402

SOLUTIONS = Path(__file__).parent / "solutions"
NAME = re.compile(r"^(?P<game>[a-z-]+)-(?P<seed>\d+)\.moves$")
LOCAL = "http://127.0.0.1"
JSON = {"content-type": "application/json"}


def moves_of(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line and not line.startswith("#")]


def known_wins() -> dict[str, tuple[Path, int]]:
    """Per game with a stored win (tests/solutions, as tests/test_solutions.py finds them), its shortest one."""
    best: dict[str, tuple[int, Path, int]] = {}
    for path in sorted(SOLUTIONS.glob("*.moves")):
        game, seed = NAME.match(path.name).group("game", "seed")
        n = len(moves_of(path))
        if game not in best or n < best[game][0]:
            best[game] = (n, path, int(seed))
    return {game: (path, seed) for game, (_, path, seed) in best.items()}


WINS = known_wins()


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app(), base_url=LOCAL) as c:
        yield c


def new(client, game="forty-thieves", **body) -> dict:
    r = client.post("/api/sessions", json={"game": game, **body})
    assert r.status_code == 201, r.text
    return r.json()


def assert_error(r, status: int, code: str) -> dict:
    assert r.status_code == status, r.text[:300]
    body = r.json()
    assert set(body["error"]) == {"code", "message", "findings"} and body["error"]["code"] == code, body
    assert "Traceback" not in r.text
    return body


# -- the games -------------------------------------------------------------------------------------------------
def test_the_games_are_listed_with_their_kind_and_seats(client):
    r = client.get("/api/games")
    assert r.status_code == 200
    games = {g["name"]: g for g in r.json()["games"]}
    assert r.json()["default"] is None
    assert games["forty-thieves"] == {**games["forty-thieves"], "title": "Forty Thieves", "kind": "patience", "players": 1,
                                      "playable": True}
    assert games["discordian"] == {**games["discordian"], "kind": "match", "players": 2, "playable": True}
    assert games["onion"]["kind"] == "table" and not games["onion"]["playable"]


def test_the_game_given_to_serve_is_listed_and_opened_first(tmp_path):
    from kallisti.model.ruleset import load_ruleset

    path = tmp_path / "twelve.rules"
    path.write_text((Path(__file__).parents[1] / "examples" / "twelve-thieves.rules").read_text(encoding="utf-8"),
                    encoding="utf-8")
    with TestClient(create_app((str(path), load_ruleset(path))), base_url=LOCAL) as c:
        listing = c.get("/api/games").json()
        assert listing["default"] == str(path)
        assert listing["games"][-1] == {**listing["games"][-1], "name": str(path), "title": "Twelve Thieves"}
        state = new(c, str(path), seed=3)["state"]
        assert state["title"] == "Twelve Thieves" and len([p for p in state["piles"] if p["group"] == "tableau"]) == 12
        assert_error(c.post("/api/sessions", json={"game": str(tmp_path / "other.rules")}), 404, "unknown-game")


# -- every shipped patience, won through the API -----------------------------------------------------------------
@pytest.fixture(scope="module")
def replay():
    """`replay(coroutine_function)` runs `coroutine_function(client)` with an in-process ASGI client of the app, on
    one event loop: the same app TestClient drives, without its hand-over to a new thread per request (a few
    milliseconds each, over thousands of moves)."""
    loop = asyncio.new_event_loop()
    client = httpx.AsyncClient(transport=httpx.ASGITransport(app=create_app()), base_url=LOCAL)
    yield lambda play: loop.run_until_complete(play(client))
    loop.run_until_complete(client.aclose())
    loop.close()


def request_for(line: str) -> tuple[str, dict]:
    """A move of a stored win as the page would send it: `d` to .../deal, `SRC DST [N]` as fields, else as text."""
    if line == "d":
        return "deal", {}
    parts = line.split()
    if len(parts) in (2, 3) and not parts[1][0].isdigit():
        body = {"from": parts[0], "to": parts[1]}
        if len(parts) == 3:
            body["count"] = int(parts[2])
        return "move", body
    return "move", {"text": line}


@pytest.mark.parametrize("game", sorted(WINS))
def test_a_known_win_is_won_move_by_move_through_the_api(replay, game):
    path, seed = WINS[game]
    moves = moves_of(path)

    async def play(client):
        r = await client.post("/api/sessions", json={"game": game, "seed": seed})
        assert r.status_code == 201, r.text
        sid = r.json()["id"]
        for i, line in enumerate(moves, 1):
            endpoint, body = request_for(line)
            r = await client.post(f"/api/sessions/{sid}/{endpoint}", json=body)
            answer = r.json()
            assert r.status_code == 200 and answer["ok"] and answer["said"], f"{path.name}:{i}: {line}: {r.text[:300]}"
            state = answer["state"]
            assert state["status"] == ("won" if i == len(moves) else "playing"), f"{path.name}:{i}: {line}"
        assert state["moves_made"] == len(moves) and state["legal"] == []
        assert (await client.get(f"/api/sessions/{sid}")).json() == state
    replay(play)


def test_every_shipped_patience_with_a_known_win_is_won_through_the_api(client):
    patiences = {g["name"] for g in client.get("/api/games").json()["games"] if g["kind"] == "patience"}
    with_wins = {NAME.match(p.name).group("game") for p in SOLUTIONS.glob("*.moves")}
    assert with_wins <= patiences, "a stored win of a game that is not a shipped patience"
    assert set(WINS) == patiences  # every shipped patience, each replayed by the test above


# -- playing ------------------------------------------------------------------------------------------------------
def test_a_refused_move_answers_the_engines_explanation_and_changes_nothing(client):
    made = new(client, seed=5)
    sid, before = made["id"], made["state"]
    r = client.post(f"/api/sessions/{sid}/move", json={"from": "t1", "to": "t2"})
    body = assert_error(r, 200, "move-refused")
    expected = "7♥ cannot go on Q♠: the tableau builds down in suit (piles.tableau.build, clause rank-down)"
    assert body["ok"] is False and body["refused"] == expected and body["error"]["message"] == expected
    assert body["state"] == before
    assert client.get(f"/api/sessions/{sid}").json() == before
    r = client.post(f"/api/sessions/{sid}/explain", json={"from": "t1", "to": "t2"})
    assert r.json() == {"legal": False, "why": expected}


def test_the_same_refusal_as_kallisti_play_prints():
    played = CliRunner().invoke(cli, ["play", "forty-thieves", "--seed", "5"], input="t1 t2\n")
    assert "refused: 7♥ cannot go on Q♠: the tableau builds down in suit (piles.tableau.build, clause rank-down)" \
        in played.output


def test_undo_and_redo_round_trip(client):
    made = new(client, seed=5)
    sid, start = made["id"], made["state"]
    moved = client.post(f"/api/sessions/{sid}/move", json={"text": "t3 f1"}).json()
    assert moved["said"] == ["A♦ from t3 to f1"] and moved["state"]["can_undo"]
    undone = client.post(f"/api/sessions/{sid}/undo").json()
    assert undone["said"] == ["undone"] and undone["state"]["can_redo"]
    assert [p["cards"] for p in undone["state"]["piles"]] == [p["cards"] for p in start["piles"]]
    redone = client.post(f"/api/sessions/{sid}/redo", json={}).json()
    assert [p["cards"] for p in redone["state"]["piles"]] == [p["cards"] for p in moved["state"]["piles"]]
    assert redone["state"]["moves_made"] == 1
    client.post(f"/api/sessions/{sid}/undo")
    body = assert_error(client.post(f"/api/sessions/{sid}/undo"), 200, "not-now")
    assert body["refused"] == "nothing to undo"


def test_a_hint_is_a_legal_move(client):
    made = new(client, "decade", seed=2)
    sid = made["id"]
    for _ in range(5):
        hint = client.get(f"/api/sessions/{sid}/hint").json()
        state = client.get(f"/api/sessions/{sid}").json()
        assert hint["move"] in state["legal"] and hint["why"]
        assert client.post(f"/api/sessions/{sid}/move", json={"text": hint["move"]["text"]}).status_code == 200


def test_following_every_hint_never_comes_back_to_a_position(client, monkeypatch):
    """Forty Thieves deal 12, every hint followed from the deal to the end: no position twice (the hints used to
    shuttle a card between two piles). The solver's budget is cut to 50 positions a hint to keep the test cheap; it
    finds no win within it (and near the end proves there is none), so every hint is a guess, and the game ends when every move would go back."""
    from kallisti.solver import strategies

    monkeypatch.setattr(strategies, "HINT_STATES", 50)
    sid = new(client, "forty-thieves", seed=12)["id"]
    state = client.get(f"/api/sessions/{sid}").json()
    seen = {json.dumps(state["piles"])}
    for _ in range(200):  # the deal ends after 136 hints
        hint = client.get(f"/api/sessions/{sid}/hint").json()
        if hint["move"] is None:
            break
        assert hint["move"] in state["legal"]
        n = hint["positions"]
        assert hint["source"] == "guess" and hint["why"] in (f"best guess: no win found within {n} positions",
                                                             f"best guess: no win from here, all {n} positions searched")
        state = client.post(f"/api/sessions/{sid}/move", json={"text": hint["move"]["text"]}).json()["state"]
        key = json.dumps(state["piles"])
        assert key not in seen, f"hint {hint['move']['text']} after {state['moves_made'] - 1} moves went back"
        seen.add(key)
        if state["status"] != "playing":
            break
    else:
        pytest.fail("the deal did not end within 200 hints")
    assert state["moves_made"] == len(seen) - 1 == 136
    assert hint == {"move": None, "source": "circle", "positions": hint["positions"],
                    "why": "every move goes back to a position already visited"}


def test_auto_plays_the_rulesets_automatic_moves_or_says_there_are_none(client):
    sid = new(client, seed=5)["id"]
    auto = client.post(f"/api/sessions/{sid}/auto").json()
    assert auto["said"] == ["auto: t3 f1, t3 f2"] and auto["state"]["moves_made"] == 1
    body = assert_error(client.post(f"/api/sessions/{sid}/auto"), 200, "not-now")
    assert body["refused"] == "no automatic move to make"


# -- errors are JSON ------------------------------------------------------------------------------------------
def test_bad_requests_get_json_errors(client):
    sid = new(client)["id"]
    move = f"/api/sessions/{sid}/move"
    assert_error(client.post(move, content=b'{"text": "t3 f1"', headers=JSON), 400, "bad-json")
    assert_error(client.post(move, content=b'["t3 f1"]', headers=JSON), 400, "bad-json")
    assert_error(client.post(move, content=b"\xff\xfe", headers=JSON), 400, "bad-json")
    assert_error(client.post(move, content=b'{"text": "t3 f1"}', headers={"content-type": "text/plain"}), 415, "not-json")
    assert_error(client.post(move, json={"from": "t3"}), 400, "bad-request")
    assert_error(client.post(move, json={"from": "t3", "to": "f1", "count": "all"}), 400, "bad-request")
    assert_error(client.post("/api/sessions/no-such-session/move", json={"text": "t3 f1"}), 404, "unknown-session")
    assert_error(client.get("/api/sessions/no-such-session"), 404, "unknown-session")
    assert_error(client.post("/api/sessions", json={"game": "no-such-game"}), 404, "unknown-game")
    assert_error(client.post("/api/sessions", json={"game": "../../etc/passwd"}), 404, "unknown-game")
    assert_error(client.post("/api/sessions", json={"seed": 1}), 400, "bad-request")
    assert_error(client.post("/api/sessions", json={"game": "onion"}), 422, "not-playable")
    assert_error(client.post("/api/sessions", json={"game": "decade", "seed": -3}), 422, "not-playable")
    assert_error(client.post("/api/sessions", json={"game": "discordian", "players": ["a", "b", "c"]}), 422, "not-playable")
    assert_error(client.get(move), 405, "method-not-allowed")
    assert_error(client.delete(move), 405, "method-not-allowed")
    assert_error(client.put("/api/sessions", json={}), 405, "method-not-allowed")
    assert_error(client.get("/api/no/such/thing"), 404, "not-found")
    assert_error(client.post(f"/api/sessions/{sid}/pass"), 200, "not-a-match")


def test_an_oversized_body_is_refused_before_it_is_read_whole(client):
    sid = new(client)["id"]
    big = b'{"text": "' + b"x" * MAX_BODY_BYTES + b'"}'
    assert_error(client.post(f"/api/sessions/{sid}/move", content=big, headers=JSON), 413, "too-large")

    def chunks():  # no Content-Length: the body is counted as it comes
        for _ in range(MAX_BODY_BYTES // 1000 + 2):
            yield b" " * 1000
    assert_error(client.post(f"/api/sessions/{sid}/move", content=chunks(), headers=JSON), 413, "too-large")
    assert_error(client.post(f"/api/sessions/{sid}/move", content=b"{}", headers={**JSON, "content-length": "x"}),
                 413, "too-large")


def test_only_local_host_names_are_answered():
    with TestClient(create_app(), base_url="http://attacker.example") as c:
        assert_error(c.get("/api/games"), 400, "bad-host")
    with TestClient(create_app(), base_url="http://localhost:8000") as c:
        r = c.get("/api/sessions/x")
        assert_error(r, 404, "unknown-session")
        assert r.headers["x-content-type-options"] == "nosniff"


def test_a_bug_is_a_json_error_without_a_traceback(client, monkeypatch, caplog):
    from kallisti.web.session import Session

    sid = new(client)["id"]

    def broken(self):
        raise ZeroDivisionError("boom")
    monkeypatch.setattr(Session, "state", broken)
    body = assert_error(client.get(f"/api/sessions/{sid}"), 500, "server-error")
    assert "boom" not in body["error"]["message"]


def test_the_oldest_sessions_make_room_for_new_ones(tmp_path):
    with TestClient(create_app(cap=2, saves=tmp_path), base_url=LOCAL) as c:
        first, second = new(c)["id"], new(c)["id"]
        c.get(f"/api/sessions/{first}")  # used more recently than the second
        third = new(c)["id"]
        assert len(c.app.state.sessions) == 2 and [p.name for p in tmp_path.iterdir()] == [f"{second}.json"]
        assert c.get(f"/api/sessions/{first}").status_code == 200
        assert c.get(f"/api/sessions/{second}").status_code == 200  # saved to make room, and back
        assert c.delete(f"/api/sessions/{third}").json() == {"ok": True}
        assert_error(c.get(f"/api/sessions/{third}"), 404, "unknown-session")


def test_the_page_is_served_beside_the_api(client):
    r = client.get("/")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert client.get("/no-such-file.js").status_code == 404


# -- Discordian Solitaire -----------------------------------------------------------------------------------------
@pytest.fixture
def player_x(client):
    """A match against a random bot, played until the person is Player X after the bot's first turn."""
    made = new(client, "discordian", seed=3, players=["you", "bot:random"])
    sid = made["id"]
    assert made["state"]["match"]["waiting"]["what"] == "ack"
    client.post(f"/api/sessions/{sid}/acknowledge")
    acked = client.post(f"/api/sessions/{sid}/acknowledge", json={"seat": 0}).json()
    assert [a["what"] for a in acked["bot"]] == ["ack", "ack"]
    state = acked["state"]
    while state["match"]["waiting"]["what"] == "move":
        state = client.post(f"/api/sessions/{sid}/move", json={"text": state["legal"][0]["text"]}).json()["state"]
    assert state["match"]["waiting"] == {**state["match"]["waiting"], "seat": 0, "what": "player-x"}
    return sid, state


def test_a_rule_change_with_an_error_gets_line_and_column_and_changes_nothing(client, player_x):
    sid, before = player_x
    text = 'forbid foundation.build "black on black": card.color == black and top.color == blak'
    r = client.post(f"/api/sessions/{sid}/rule/check", json={"text": text})
    assert r.status_code == 200
    check = r.json()
    assert check["ok"] is False and check["diff"] == [] and check["target"] == 1
    finding = check["findings"][0]
    assert (finding["line"], finding["column"], finding["code"]) == (1, text.index("blak") + 1, "unknown-name")
    assert finding["suggestion"] == "did you mean 'black'?"
    body = assert_error(client.post(f"/api/sessions/{sid}/rule", json={"text": text}), 200, "change-refused")
    assert body["ok"] is False and body["findings"] == check["findings"] == body["error"]["findings"]
    assert body["state"] == before
    assert client.get(f"/api/sessions/{sid}").json() == before


def test_a_valid_rule_change_previews_its_diff_then_applies(client, player_x):
    sid, before = player_x
    text = 'forbid foundation.build "black on black": card.color == black and top.color == black'
    check = client.post(f"/api/sessions/{sid}/rule/check", json={"text": text}).json()
    assert check["ok"] and check["findings"] == []
    assert check["diff"] == ["+ piles.foundation.build black-on-black: forbid card.color == black and top.color == black"
                             '  (has the rule "black on black")']
    assert client.get(f"/api/sessions/{sid}").json() == before
    r = client.post(f"/api/sessions/{sid}/rule", json={"text": text})
    assert r.status_code == 200, r.text
    done = r.json()
    assert done["ok"] and done["diff"] == check["diff"] and done["change"]["on"] == 1
    bot = done["state"]["match"]["seats"][1]
    assert bot["diff"] == check["diff"] and bot["changes"][-1]["text"] == text
    assert done["state"]["match"]["turn"] == before["match"]["turn"] + 1  # the next turn begins: yours, then the bot's


def test_a_match_refuses_what_it_is_not_waiting_for(client, player_x):
    sid, before = player_x
    body = assert_error(client.post(f"/api/sessions/{sid}/move", json={"text": "c1 f"}), 200, "not-now")
    assert body["refused"].startswith("not now: you are Player X")
    assert_error(client.post(f"/api/sessions/{sid}/rule", json={"text": "set field.count 5", "seat": 1}), 200, "not-now")
    assert client.get(f"/api/sessions/{sid}").json() == before
    passed = client.post(f"/api/sessions/{sid}/pass").json()
    assert passed["said"][0] == "you pass"


# -- kallisti serve --------------------------------------------------------------------------------------------------
def test_serve_without_the_web_extra_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "uvicorn", None)
    result = CliRunner().invoke(cli, ["serve"])
    assert result.exit_code == 2
    assert "pip install 'kallisti[web]'" in result.output


def test_serve_refuses_a_bad_ruleset_file(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("game: Bad\npiles: {tableau: {count: -1}}\n", encoding="utf-8")
    result = CliRunner().invoke(cli, ["serve", str(bad)])
    assert result.exit_code == 1 and f"{bad}:" in result.output


def test_serve_prints_the_address_and_refuses_a_port_in_use(monkeypatch):
    import kallisti.web.server as server

    class Quiet:
        def run(self, sockets):
            self.sockets = sockets
    monkeypatch.setattr(server, "make_server", lambda app, sock: Quiet())
    result = CliRunner().invoke(cli, ["serve", "forty-thieves", "--port", "0"])
    assert result.exit_code == 0, result.output
    assert re.search(r"serving on http://127\.0\.0\.1:\d+/\?game=forty-thieves", result.output)
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen(1)
    try:
        result = CliRunner().invoke(cli, ["serve", "--port", str(taken.getsockname()[1])])
    finally:
        taken.close()
    assert result.exit_code == 1 and "--port 0" in result.output


def test_the_server_answers_on_the_loopback_address():
    from kallisti.web.server import address, bind, make_server

    sock = bind(0)
    server = make_server(create_app(), sock)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        for _ in range(200):
            if server.started:
                break
            time.sleep(0.02)
        url = address(sock)
        assert url.startswith("http://127.0.0.1:")
        r = httpx.post(url + "api/sessions", json={"game": "decade", "seed": 2}, timeout=10)
        assert r.status_code == 201 and r.json()["state"]["title"] == "Decade"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


# -- what a game is -----------------------------------------------------------------------------------------------
def test_a_games_goal_rules_in_short_and_rule_book(client):
    about = client.get("/api/games/decade").json()
    assert about["goal"] == "The game is won when all 52 cards of the pack are on the discard (x)."
    assert about["rules"] and about["rule_book"] == "/api/games/decade/rules.html"
    book = client.get(about["rule_book"])
    assert book.status_code == 200 and book.headers["content-type"].startswith("text/html")
    assert "<h1>Decade</h1>" in book.text and "How to win" in book.text
    policy = book.headers["content-security-policy"]  # its own style sheet alone is allowed inline, no script
    assert "style-src 'sha256-" in policy and "script-src 'self'" in policy and "unsafe" not in policy
    assert_error(client.get("/api/games/no-such-game"), 404, "unknown-game")


def test_a_refused_move_is_an_ordinary_answer(client):
    """HTTP 200 with `ok: false`: a browser logs no failed request for a move the rules refuse."""
    sid = new(client, seed=5)["id"]
    r = client.post(f"/api/sessions/{sid}/move", json={"text": "t1 t1"})
    assert r.status_code == 200 and r.json()["ok"] is False and r.json()["error"]["code"] == "move-refused"
