"""Cards that leave from below a pile's top (`take_from`) on the page: in a match of Discordian Solitaire where
Player X has imposed "the top card of a column as well as the bottom one", the card at the far end of a column is
marked as one that may be picked up, and it goes to the foundation by drag and drop, by click then click, and by the
keyboard alone; the foundation then shows it."""

from __future__ import annotations

from .test_table import card_at, drag, open_game, pile, shown, state, wait_redrawn

BOTH_ENDS = "set field.take_from [top, bottom]"


def ann_with_both_ends(page, api) -> tuple[str, dict]:
    """Deal 50 of ann and bob: through the API, ann plays a turn, bob imposes BOTH_ENDS on her, plays his, and ann
    passes; then the page, reloaded, shows her turn, whose only legal move is `c1@1 f`. The session and its state."""
    sid = open_game(page, "#discordian/50?players=ann,bob")

    def post(path: str, **body) -> None:
        r = api.post(f"/api/sessions/{sid}/{path}", json=body)
        assert r.status_code == 200 and r.json()["ok"], r.text

    def play_turn() -> None:
        while (st := state(api, sid))["match"]["waiting"]["what"] == "move":
            post("move", text=st["legal"][0]["text"])

    for seat in (0, 0, 1, 1):
        post("acknowledge", seat=seat)
    play_turn()
    post("rule", text=BOTH_ENDS, seat=1)
    play_turn()
    post("pass", seat=0)
    page.reload()
    page.wait_for_function("Number(document.body.dataset.shown || 0) >= 1")
    assert page.evaluate("document.body.dataset.session") == sid
    st = state(api, sid)
    assert [m["text"] for m in st["legal"]] == ["c1@1 f"]
    return sid, st


def played_home(page, api, sid: str, card_id: int) -> None:
    """The card `card_id` lies on the foundation, in the API's state and on the page, and has left c1's far end."""
    st = state(api, sid)
    assert pile(st, "f")["cards"][-1]["id"] == card_id
    assert pile(st, "c1")["size"] == 4 and card_id not in [c["id"] for c in pile(st, "c1")["cards"]]
    assert page.locator('.pile[data-pile="f"] .card').last.get_attribute("data-card-id") == str(card_id)
    assert page.locator(f'.pile[data-pile="c1"] .card[data-card-id="{card_id}"]').count() == 0


def undo(page) -> None:
    before = shown(page)
    page.click("#undo")
    wait_redrawn(page, before)


def test_the_far_end_card_of_a_column_goes_home_by_drag_click_and_keyboard(page, api):
    sid, st = ann_with_both_ends(page, api)
    far = pile(st, "c1")["cards"][0]
    assert far["text"] == "6♦"
    bottom = card_at(page, "c1", 0)
    assert "reach" in bottom.get_attribute("class")  # marked as a card that may be picked up
    assert "reach" not in card_at(page, "c2", 0).get_attribute("class")
    assert "card 1, 6 of diamonds, may leave too" in page.locator('.pile[data-pile="c1"]').get_attribute("aria-label")

    before = shown(page)
    drag(page, bottom, page.locator('.pile[data-pile="f"]'))
    wait_redrawn(page, before)
    played_home(page, api, sid, far["id"])

    undo(page)
    assert pile(state(api, sid), "c1")["cards"][0]["id"] == far["id"]
    card_at(page, "c1", 0).click(position={"x": 20, "y": 8})  # its strip that shows above the next card
    assert "selected" in card_at(page, "c1", 0).get_attribute("class")
    assert "selected" not in card_at(page, "c1", 4).get_attribute("class")  # the far-end card alone, not the column
    assert "target" in page.locator('.pile[data-pile="f"]').get_attribute("class")
    assert "c1@1" in page.inner_text("#message")
    before = shown(page)
    page.click('.pile[data-pile="f"]')
    wait_redrawn(page, before)
    played_home(page, api, sid, far["id"])

    undo(page)
    page.focus('.pile[data-pile="c1"]')
    for _ in range(5):  # Enter picks the top card, and each press again one card further down, to the far end
        page.keyboard.press("Enter")
    assert "target" in page.locator('.pile[data-pile="f"]').get_attribute("class")
    before = shown(page)
    page.focus('.pile[data-pile="f"]')
    page.keyboard.press("Enter")
    wait_redrawn(page, before)
    played_home(page, api, sid, far["id"])

    undo(page)
    page.click("#hint")
    page.wait_for_function("document.getElementById('message').dataset.kind === 'hint'")
    assert "c1@1 f" in page.inner_text("#message")
    assert "hint-from" in card_at(page, "c1", 0).get_attribute("class")  # the card the hint moves, not the top one
    assert "hint-from" not in card_at(page, "c1", 4).get_attribute("class")
