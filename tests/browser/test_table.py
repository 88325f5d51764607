"""The page of `kallisti serve` in headless Chromium: games opened from the list, cards moved by drag and drop,
click and double-click, a refused move explained, undo and redo, hints, a win, Discordian Solitaire's rule-change
editor; and the screenshots of docs/screenshots/, made afresh on every run from fixed deals."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .conftest import SCREENSHOTS

SOLUTIONS = Path(__file__).resolve().parents[1] / "solutions"


# -- helpers -------------------------------------------------------------------------------------------

def open_game(page, fragment: str) -> str:
    """Open `/#game/seed` and wait for its table; the page's session id. (From a page already open, only
    the hash changes, and the page deals the new game when it hears of it: wait for a new session.)"""
    before = page.evaluate("document.body ? (document.body.dataset.session || '') : ''")
    page.goto(f"/{fragment}")
    game = fragment.lstrip("#").split("/")[0]
    page.wait_for_function("([game, before]) => document.body.dataset.game === game && document.body.dataset.session !== before",
                           arg=[game, before])
    return page.evaluate("document.body.dataset.session")


def shown(page) -> int:
    return int(page.evaluate("document.body.dataset.shown"))


def wait_redrawn(page, since: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.shown) > {since}")


def state(api, sid: str) -> dict:
    r = api.get(f"/api/sessions/{sid}")
    assert r.status_code == 200, r.text
    return r.json()


def pile(st: dict, tag: str) -> dict:
    return next(p for p in st["piles"] if p["tag"] == tag)


def card_ids(st: dict, tag: str) -> list:
    return [c["id"] for c in pile(st, tag)["cards"]]


def card_at(page, tag: str, index: int):
    return page.locator(f'.pile[data-pile="{tag}"] .card[data-index="{index}"]')


def drag(page, source, target) -> None:
    """Press on the card `source` (near its top edge, which shows in a fanned pile), move the pointer in steps,
    and let go over the pile `target` so that the dragged card lies on it."""
    a = source.bounding_box()
    b = target.bounding_box()
    x, y = a["x"] + a["width"] / 2, a["y"] + 8
    page.mouse.move(x, y)
    page.mouse.down()
    tx, ty = b["x"] + b["width"] / 2, b["y"] + 8
    page.mouse.move((x + tx) / 2, (y + ty) / 2 - 30, steps=6)
    page.mouse.move(tx, ty, steps=6)
    page.mouse.up()


def message(page) -> tuple[str, str]:
    m = page.locator("#message")
    return m.get_attribute("data-kind") or "", m.inner_text()


def skip_bot_turn(page) -> None:
    """Skip to the end of the bot's turn the page is playing out move by move."""
    page.locator("#bot-turn").wait_for(state="visible")
    page.click("#skip-bot")


def rest_pointer(page) -> None:
    """The pointer off every button, so no hover shows in a screenshot."""
    page.mouse.move(2, 790)


def solution(name: str) -> list[str]:
    """The moves of a committed winning line, tests/solutions/NAME.moves."""
    lines = (SOLUTIONS / f"{name}.moves").read_text().splitlines()
    return [m for m in (line.split("#")[0].strip() for line in lines) if m]


def play_through_api(page, api, sid: str, moves: list[str]) -> None:
    """Make `moves` through the API, then reload the page, which shows the deal as the API left it."""
    for text in moves:
        r = api.post(f"/api/sessions/{sid}/move", json={"text": text})
        assert r.status_code == 200, r.text
    page.reload()
    page.wait_for_function("Number(document.body.dataset.shown || 0) >= 1")
    assert page.evaluate("document.body.dataset.session") == sid  # the same deal, as left


# -- the list of games -----------------------------------------------------------------------------

def test_the_list_of_games_opens_a_game(page, api):
    page.goto("/")
    tile = page.locator('button.game-tile[data-game="forty-thieves"]')
    tile.wait_for()
    assert page.locator('button.game-tile[data-game="onion"]').is_disabled()  # played in the terminal only
    tile.click()
    page.wait_for_function("Number(document.body.dataset.shown || 0) >= 1")
    assert re.fullmatch(r"#forty-thieves/\d+", page.evaluate("location.hash"))
    assert page.locator('.pile[data-role="tableau"]').count() == 10
    assert page.locator(".pile .card.face").count() == 40
    seed = page.evaluate("location.hash").split("/")[1]
    assert page.inner_text("#game-number") == f"game {seed}"
    assert page.inner_text("#share").endswith(f"#forty-thieves/{seed}")
    st = state(api, page.evaluate("document.body.dataset.session"))
    assert str(st["seed"]) == seed
    first = pile(st, "t1")["cards"][0]
    label = page.locator(f'.card[data-card-id="{first["id"]}"]').get_attribute("aria-label")
    assert label.endswith(f"of {first['suit']}")


def test_a_new_deal_by_its_number_is_the_same_deal_as_the_apis(page, api):
    open_game(page, "#forty-thieves/7")
    before = shown(page)
    page.fill("#seed", "11")
    page.click("#new-deal")
    wait_redrawn(page, before)
    assert page.evaluate("location.hash") == "#forty-thieves/11"
    mine = state(api, page.evaluate("document.body.dataset.session"))
    theirs = api.post("/api/sessions", json={"game": "forty-thieves", "seed": 11}).json()["state"]
    assert [card_ids(mine, f"t{i}") for i in range(1, 11)] == [card_ids(theirs, f"t{i}") for i in range(1, 11)]


# -- moving cards ----------------------------------------------------------------------------------

@pytest.mark.parametrize("game, seed", [("forty-thieves", 7), ("spider", 7), ("la-nivernaise", 7)])
def test_a_card_dragged_onto_a_pile_moves_there(page, api, game, seed):
    sid = open_game(page, f"#{game}/{seed}")
    before = state(api, sid)
    move = next(m for m in before["legal"] if m["kind"] == "move")
    src, dst, count = move["from"], move["to"], move["count"]
    index = pile(before, src)["size"] - count
    moving = card_ids(before, src)[index:]
    drawn = shown(page)
    drag(page, card_at(page, src, index), page.locator(f'.pile[data-pile="{dst}"]'))
    wait_redrawn(page, drawn)
    # the page: the cards lie on the target pile, and the status line narrates the move
    for cid in moving:
        assert page.locator(f'.pile[data-pile="{dst}"] .card[data-card-id="{cid}"]').count() == 1
        assert page.locator(f'.pile[data-pile="{src}"] .card[data-card-id="{cid}"]').count() == 0
    kind, text = message(page)
    assert kind == "done", text
    assert move["says"] in text
    # the API: the same move was made, and only it
    after = state(api, sid)
    assert after["moves_made"] == before["moves_made"] + 1
    assert card_ids(after, dst)[-count:] == moving
    assert card_ids(after, src) == card_ids(before, src)[:index] or pile(after, src)["size"] == index


def test_a_refused_move_shows_the_engines_explanation(page, api):
    sid = open_game(page, "#forty-thieves/7")
    before = state(api, sid)
    legal = {(m["from"], m["to"]) for m in before["legal"]}
    src, dst = next((f"t{a}", f"t{b}") for a in range(1, 11) for b in range(1, 11)
                    if a != b and (f"t{a}", f"t{b}") not in legal)
    why = api.post(f"/api/sessions/{sid}/explain", json={"from": src, "to": dst, "count": 1}).json()
    assert why["legal"] is False
    drawn = shown(page)
    index = pile(before, src)["size"] - 1
    drag(page, card_at(page, src, index), page.locator(f'.pile[data-pile="{dst}"]'))
    wait_redrawn(page, drawn)
    kind, text = message(page)
    assert kind == "refused"
    assert text == why["why"]
    assert "(" in text and "clause" in text  # the rule that refused it, by name
    assert page.locator("#message").get_attribute("aria-live") == "polite"
    after = state(api, sid)
    assert after["moves_made"] == 0 and card_ids(after, src) == card_ids(before, src)
    assert card_at(page, src, index).get_attribute("data-card-id") == str(card_ids(before, src)[-1])


def test_click_then_click_moves_and_undo_redo_by_button_and_keys(page, api):
    sid = open_game(page, "#spider/7")
    before = state(api, sid)
    move = next(m for m in before["legal"] if m["kind"] == "move")
    index = pile(before, move["from"])["size"] - move["count"]
    card_at(page, move["from"], index).click()
    assert page.locator(".card.selected").count() == move["count"]
    assert page.locator(f'.pile.target[data-pile="{move["to"]}"]').count() == 1  # the legal destinations light up
    drawn = shown(page)
    page.locator(f'.pile[data-pile="{move["to"]}"]').click(position={"x": 10, "y": 10})
    wait_redrawn(page, drawn)
    moved = state(api, sid)
    assert moved["moves_made"] == 1

    def step(action, moves):
        drawn = shown(page)
        action()
        wait_redrawn(page, drawn)
        st = state(api, sid)
        assert st["moves_made"] == moves
        return st

    assert page.locator("#undo").is_enabled() and page.locator("#redo").is_disabled()
    undone = step(lambda: page.click("#undo"), 0)
    assert card_ids(undone, move["from"]) == card_ids(before, move["from"])
    assert page.locator("#redo").is_enabled()
    step(lambda: page.keyboard.press("r"), 1)
    step(lambda: page.keyboard.press("Control+z"), 0)
    step(lambda: page.click("#redo"), 1)
    step(lambda: page.keyboard.press("u"), 0)
    assert page.locator("#undo").is_disabled()


def test_a_double_click_sends_a_card_to_a_foundation_and_the_stock_deals(page, api):
    sid = open_game(page, "#forty-thieves/7")
    before = state(api, sid)
    to_f = next(m for m in before["legal"] if m["kind"] == "move" and m["to"].startswith("f"))
    index = pile(before, to_f["from"])["size"] - 1
    ace = card_ids(before, to_f["from"])[-1]
    drawn = shown(page)
    card_at(page, to_f["from"], index).dblclick()
    wait_redrawn(page, drawn)
    after = state(api, sid)
    assert any(card_ids(after, f"f{i}") == [ace] for i in range(1, 9))
    assert page.locator(f'.pile[data-role="foundation"] .card[data-card-id="{ace}"]').count() == 1
    drawn = shown(page)
    page.click('.pile[data-pile="s"]')
    wait_redrawn(page, drawn)
    dealt = state(api, sid)
    assert pile(dealt, "w")["size"] == 1 and pile(dealt, "s")["size"] == pile(after, "s")["size"] - 1
    assert page.locator('.pile[data-pile="w"] .card.face').count() == 1


def test_a_double_click_after_undo_and_a_hint_goes_to_the_lowest_foundation_that_takes_the_card(page, api):
    """Deal 97 of Forty Thieves: A♠ on t7, A♣ on t10. Undo re-files the foundations in the engine's move indexes
    and a hint searches the deal; the double-click still goes where `t10 f` goes, f1, as the hint says."""
    sid = open_game(page, "#forty-thieves/97")
    for text in ("t7 f2", "t10 f1"):
        assert api.post(f"/api/sessions/{sid}/move", json={"text": text}).status_code == 200
    for _ in range(2):
        assert api.post(f"/api/sessions/{sid}/undo").status_code == 200
    play_through_api(page, api, sid, [])  # the page reloaded, showing the deal as the API left it
    page.click("#hint")
    page.wait_for_selector(".hint-from")
    assert message(page)[1].startswith("hint: t7 f1")
    st = state(api, sid)
    index = pile(st, "t10")["size"] - 1
    ace = card_ids(st, "t10")[-1]
    drawn = shown(page)
    card_at(page, "t10", index).dblclick()
    wait_redrawn(page, drawn)
    assert card_ids(state(api, sid), "f1") == [ace]
    assert message(page)[1] == "A♣ from t10 to f1"


def test_decades_line_discards_a_range_picked_by_clicks(page, api):
    """Decade: click the first and the last card of a run of the line, then the discard pile."""
    moves = solution("decade-5")
    first = next(i for i, m in enumerate(moves) if m.startswith("l "))
    sid = open_game(page, "#decade/5")
    play_through_api(page, api, sid, moves[:first])
    a, b = (int(n) for n in moves[first].split()[1].split("-"))
    for i in (a, b):  # each card at its left edge: the next card of the line lies over the rest of it
        card_at(page, "l", i - 1).click(position={"x": 6, "y": 20})
    assert page.locator('.pile[data-pile="l"] .card.selected').count() == b - a + 1
    before = state(api, sid)
    drawn = shown(page)
    page.click('.pile[data-role="discard"]')
    wait_redrawn(page, drawn)
    after = state(api, sid)
    assert after["moves_made"] == before["moves_made"] + 1
    assert pile(after, "l")["size"] == pile(before, "l")["size"] - (b - a + 1)
    assert message(page)[0] == "done"


def test_keyboard_play_enter_on_a_pile_then_on_another(page, api):
    sid = open_game(page, "#forty-thieves/7")
    move = next(m for m in state(api, sid)["legal"] if m["kind"] == "move" and m["count"] == 1)
    page.focus(f'.pile[data-pile="{move["from"]}"]')
    page.keyboard.press("Enter")
    assert page.locator(".card.selected").count() == 1
    page.keyboard.press("Escape")
    assert page.locator(".card.selected").count() == 0
    page.keyboard.press("Enter")
    drawn = shown(page)
    page.focus(f'.pile[data-pile="{move["to"]}"]')
    page.keyboard.press("Enter")
    wait_redrawn(page, drawn)
    assert state(api, sid)["moves_made"] == 1


def test_a_hint_lights_up_its_move_and_the_move_box_plays_it(page, api):
    sid = open_game(page, "#spider/7")
    page.click("#hint")
    page.wait_for_selector(".hint-from")
    kind, text = message(page)
    assert kind == "hint"
    answer = api.get(f"/api/sessions/{sid}/hint").json()  # the hint shown is the API's, with where it comes from
    h = answer["move"]
    assert text.startswith(f"hint: {h['text']}") and text.endswith(f"({answer['why']})")
    if h["to"]:
        assert page.locator(f'.pile.hint-to[data-pile="{h["to"]}"]').count() == 1
    # the hint's text typed in the Move box, as in `kallisti play`
    drawn = shown(page)
    page.fill("#move-text", h["text"])
    page.keyboard.press("Enter")
    wait_redrawn(page, drawn)
    assert state(api, sid)["moves_made"] == 1
    assert page.locator(".hint-from").count() == 0
    assert page.input_value("#move-text") == ""


def test_a_win_is_celebrated(page, api, monkeypatch):
    """Deal 7 of La Nivernaise, won by the committed solution: all of it through the API but the last move,
    which is dragged in the page."""
    monkeypatch.delenv("KALLISTI_NO_STATS", raising=False)  # recorded (tests/conftest.py turns recording off)
    moves = solution("la-nivernaise-7")
    sid = open_game(page, "#la-nivernaise/7")
    play_through_api(page, api, sid, moves[:-1])
    assert page.locator("#banner").is_hidden()
    src, dst = moves[-1].split()
    st = state(api, sid)
    drawn = shown(page)
    drag(page, card_at(page, src, pile(st, src)["size"] - 1), page.locator(f'.pile[data-pile="{dst}"]'))
    wait_redrawn(page, drawn)
    page.locator("#banner").wait_for(state="visible")
    assert page.inner_text("#banner-text").startswith("Won!")
    assert state(api, sid)["status"] == "won"
    assert page.locator("#status").inner_text() == "won"
    # the player's record at the game, from the database `kallisti stats` reads, this win counted
    page.wait_for_function("document.getElementById('stats').textContent.includes('played')")
    [record] = api.get("/api/stats", params={"game": "la-nivernaise"}).json()["games"][:1]
    assert record["won"] >= 1
    assert page.inner_text("#stats") == (f"· played {record['played']}, won {record['won']} "
                                         f"({round(100 * record['win_rate'])}%), streak {record['current_streak']}, "
                                         f"best {record['best_streak']}")


# -- Discordian Solitaire ----------------------------------------------------------------------------

def test_discordian_honour_rules_and_a_rule_change_through_the_editor(page, api, screenshots):
    # The bot plays first, so after the honour rules the person is Player X at once.
    sid = open_game(page, "#discordian/3?players=bot,you")
    assert page.locator(".seat").count() == 2
    for i in range(2):  # the two rules of politeness, at the start of the match; then the bot's turn, played out
        honour = page.locator(".honour")
        honour.wait_for()
        says = honour.locator(".says").inner_text()
        drawn = shown(page)
        page.click("button.acknowledge")
        if i == 1:
            skip_bot_turn(page)
        wait_redrawn(page, drawn)
        assert any(says in line for line in page.locator(".log li").all_inner_texts())
    st = state(api, sid)
    assert st["match"]["waiting"]["what"] == "player-x" and st["match"]["waiting"]["name"] == "you"
    editor = page.locator(".player-x textarea")
    # a change with a mistake: the live check names its line and column before anything is applied
    editor.fill('forbid foundation.build "black on black": card.color == ')
    status = page.locator(".player-x .rule-status")
    page.wait_for_selector('.player-x .rule-status[data-state="invalid"]')
    where = status.locator(".finding .where").first.inner_text()
    assert re.fullmatch(r"1:\d+", where)
    assert status.locator("pre.caret").count() == 1
    assert page.locator(".player-x button.apply").is_disabled()
    # a valid change: the diff it would make is previewed, then Apply imposes it on the bot
    editor.fill("set field.count 5")
    page.wait_for_selector('.player-x .rule-status[data-state="valid"]')
    assert "piles.field.count: 7 -> 5" in status.locator("pre.diff").inner_text()
    drawn = shown(page)
    page.click(".player-x button.apply")
    wait_redrawn(page, drawn)
    st = state(api, sid)
    bot = st["match"]["seats"][0]
    assert [c["text"] for c in bot["changes"]] == ["set field.count 5"]
    assert page.locator('.seat[data-seat="0"] .change .text').inner_text() == "set field.count 5"
    # the person's turn: a move on the table, by drag and drop
    st = state(api, sid)
    if st["match"]["waiting"]["what"] == "shuffle":
        drawn = shown(page)
        page.click(".choice button.primary")
        wait_redrawn(page, drawn)
        st = state(api, sid)
    assert st["match"]["waiting"]["what"] == "move"
    move = next(m for m in st["legal"] if m["kind"] == "move")
    drawn = shown(page)
    drag(page, card_at(page, move["from"], pile(st, move["from"])["size"] - 1), page.locator(f'.pile[data-pile="{move["to"]}"]'))
    wait_redrawn(page, drawn)
    assert state(api, sid)["moves_made"] == st["moves_made"] + 1
    rest_pointer(page)
    page.screenshot(path=str(screenshots / "discordian.png"))


# -- screenshots -------------------------------------------------------------------------------------

def reveals(st: dict) -> str:
    """A move that turns a face-down card up if there is one, else a deal, else the first legal move."""
    for m in st["legal"]:
        if m["kind"] == "move":
            cards = pile(st, m["from"])["cards"]
            under = len(cards) - m["count"] - 1
            if under >= 0 and not cards[under]["face_up"] and not m["to"].startswith("x"):
                return m["text"]
    deal = [m for m in st["legal"] if m["kind"] == "deal"]
    return (deal or st["legal"])[0]["text"]


def test_screenshots_of_forty_thieves_and_spider(page, api, screenshots):
    sid = open_game(page, "#forty-thieves/5")
    play_through_api(page, api, sid, solution("forty-thieves-5")[:40])
    rest_pointer(page)
    page.screenshot(path=str(screenshots / "forty-thieves.png"))

    sid = open_game(page, "#spider/7")
    for _ in range(10):
        r = api.post(f"/api/sessions/{sid}/move", json={"text": reveals(state(api, sid))})
        assert r.status_code == 200, r.text
    play_through_api(page, api, sid, [])
    rest_pointer(page)
    page.screenshot(path=str(screenshots / "spider.png"))
    for name in ("forty-thieves", "spider"):
        assert (SCREENSHOTS / f"{name}.png").stat().st_size > 10_000
