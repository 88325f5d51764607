"""The page on a phone's screen (390×844), played by keyboard alone, audited by axe-core, with cards that move and an
auto-complete: the layout fits the width with every row of the layout on one line and a finger's strip of every
fanned card, arrow keys and Enter make a move from page load, no serious accessibility violation, a move animated
(and not under reduced motion), and a won-by-force game finished by one press of Auto."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import SCREENSHOTS, WAIT_MS, missing, watched_page
from .test_table import card_at, message, open_game, pile, play_through_api, rest_pointer, shown, skip_bot_turn, \
    solution, state, wait_redrawn

PHONE = {"width": 390, "height": 844}
TOUCH = 32  # px: the least strip of a fanned card a finger can hit (table.js TOUCH)
CARD_MIN = 34  # px: the narrowest card (table.js CARD_MIN)


@pytest.fixture
def phone(browser, server):
    """A page on a phone's screen, touch first; a JavaScript error on it fails the test."""
    yield from watched_page(browser, server, viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)


@pytest.fixture
def moving(browser, server):
    """A page whose system does not ask for reduced motion: its cards move."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=server,
                                  reduced_motion="no-preference", bypass_csp=True)
    pg = context.new_page()
    pg.set_default_timeout(WAIT_MS)
    yield pg
    context.close()


# -- a phone -----------------------------------------------------------------------------------------------

LAYOUT = """() => {
  const box = (e) => e.getBoundingClientRect();
  const piles = [...document.querySelectorAll('.pile')].map((p) => {
    const cards = [...p.querySelectorAll('.card')].map((c) => ({top: box(c).top, up: c.classList.contains('face'),
                                                               width: box(c).width}));
    return {tag: p.dataset.pile, role: p.dataset.role, fan: p.dataset.fan, group: p.closest('.group').dataset.group,
            row: [...document.querySelectorAll('.row')].indexOf(p.closest('.row')), top: box(p).top,
            left: box(p).left, right: box(p).right, cards};
  });
  const buttons = [...document.querySelectorAll('button')].filter((b) => b.offsetParent !== null)
    .map((b) => ({id: b.id || b.textContent.trim(), height: box(b).height, width: box(b).width}));
  return {scrollWidth: document.documentElement.scrollWidth, width: window.innerWidth, piles, buttons};
}"""


@pytest.mark.parametrize("fragment, shot", [("#forty-thieves/5", "forty-thieves-phone.png"),
                                            ("#spider/7", "spider-phone.png"),
                                            ("#discordian/3?players=bot,you", None)])
def test_a_phone_fits_the_game_in_its_width(phone, fragment, shot):
    open_game(phone, fragment)
    laid = phone.evaluate(LAYOUT)
    assert laid["scrollWidth"] <= laid["width"] == PHONE["width"]  # no horizontal scroll
    piles = laid["piles"]
    assert all(p["right"] <= PHONE["width"] and p["left"] >= 0 for p in piles)
    # every row of the layout on one line: its piles side by side, none wrapped below another
    for row in {p["row"] for p in piles}:
        tops = {round(p["top"]) for p in piles if p["row"] == row}
        assert len(tops) == 1, (row, sorted(tops))
    assert len([p for p in piles if p["role"] in ("tableau", "field")]) in (10, 7)
    # at the deal, every card of a fan shows a strip a finger can hit; the cards are no narrower than CARD_MIN
    for p in piles:
        for a, b in zip(p["cards"], p["cards"][1:]) if p["fan"] == "down" else ():
            assert b["top"] - a["top"] >= TOUCH - 0.5, (p["tag"], a, b)
        assert all(c["width"] >= CARD_MIN for c in p["cards"])
    # the toolbar: its forms behind the menu, every button a touch target
    assert phone.locator("#move-form").is_hidden() and phone.locator("#menu-toggle").is_visible()
    assert all(b["height"] >= TOUCH and b["width"] >= TOUCH for b in laid["buttons"]), laid["buttons"]
    phone.click("#menu-toggle")
    assert phone.locator("#move-form").is_visible() and phone.evaluate("document.documentElement.scrollWidth") <= 390
    phone.click("#menu-toggle")
    if shot:
        rest_pointer(phone)
        phone.screenshot(path=str(SCREENSHOTS / shot))


def test_on_a_phone_player_xs_editor_opens_in_view(phone, api):
    sid = open_game(phone, "#discordian/3?players=bot,you")
    for i in range(2):  # the two rules of politeness; then the bot plays its turn and the person is Player X
        drawn = shown(phone)
        phone.click("button.acknowledge")
        if i == 1:
            skip_bot_turn(phone)
        wait_redrawn(phone, drawn)
    assert state(api, sid)["match"]["waiting"]["what"] == "player-x"
    editor = phone.locator(".player-x textarea")
    box = editor.bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= PHONE["height"]  # seen without scrolling
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # a typo: the finding's suggestion said once, its code apart
    editor.fill('forbid foundation.build "b": card.color == blak')
    phone.wait_for_selector('.player-x .rule-status[data-state="invalid"]')
    finding = phone.locator(".player-x .finding").first
    assert finding.locator(".suggestion").inner_text() == "(did you mean 'black'?)"
    assert finding.locator(".code").inner_text() == "[unknown-name]"
    status = phone.locator(".player-x .rule-status").bounding_box()
    assert status["y"] < PHONE["height"]  # the verdict shows while typing, above an on-screen keyboard's half
    rest_pointer(phone)
    phone.screenshot(path=str(SCREENSHOTS / "discordian-phone.png"))


# -- the keyboard and screen readers -------------------------------------------------------------------------

def focused(page) -> dict:
    return page.evaluate("({pile: document.activeElement.dataset.pile || null,"
                         " role: document.activeElement.getAttribute('role'),"
                         " name: document.activeElement.getAttribute('aria-label')})")


def test_a_move_by_keyboard_alone_from_page_load(page, api):
    sid = open_game(page, "#forty-thieves/8")  # deal 8: t7 t5 moves a card between tableau piles
    at = focused(page)  # the table has the keyboard as soon as the game is open
    st = state(api, sid)
    top = pile(st, "t1")["cards"][-1]
    assert at["pile"] == "t1" and at["role"] == "button"
    assert at["name"].startswith("tableau 1, 4 cards, top ") and at["name"].endswith(f"of {top['suit']} (t1)")
    page.keyboard.press("ArrowUp")  # the row above (the stock, the waste and the foundations), and back
    assert focused(page)["pile"] in {"s", "w"} | {f"f{i}" for i in range(1, 9)}
    page.keyboard.press("ArrowDown")
    assert focused(page)["pile"] == "t1"
    move = next(m for m in st["legal"] if m["kind"] == "move" and m["count"] == 1 and m["to"].startswith("t"))
    a, b = int(move["from"][1:]), int(move["to"][1:])
    for _ in range(a - 1):
        page.keyboard.press("ArrowRight")
    assert focused(page)["pile"] == move["from"]
    page.keyboard.press("Enter")  # picked up
    assert page.locator(".card.selected").count() == 1
    for _ in range(abs(b - a)):
        page.keyboard.press("ArrowRight" if b > a else "ArrowLeft")
    drawn = shown(page)
    page.keyboard.press(" ")  # put down
    wait_redrawn(page, drawn)
    after = state(api, sid)
    assert after["moves_made"] == 1 and pile(after, move["to"])["cards"][-1]["id"] == pile(st, move["from"])["cards"][-1]["id"]
    assert focused(page)["pile"] == move["to"]  # the keyboard stays where it put the card down


def axe_script() -> Path:
    try:
        import axe_playwright_python
    except ImportError:
        missing("axe-playwright-python is not installed (pip install '.[test]'): it ships axe-core's axe.min.js")
    return Path(axe_playwright_python.__file__).with_name("axe.min.js")


def serious_violations(page) -> list[str]:
    page.add_script_tag(path=str(axe_script()))
    found = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
                          ".filter((v) => v.impact === 'serious' || v.impact === 'critical')"
                          ".map((v) => `${v.id} (${v.impact}): ${v.help}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`)")
    return found


def test_axe_core_finds_no_serious_violation_on_the_list_and_three_games(page):
    page.goto("/")
    page.locator("button.game-tile").first.wait_for()
    assert serious_violations(page) == []
    for fragment in ("#forty-thieves/7", "#decade/5", "#discordian/3?players=bot,you"):
        open_game(page, fragment)
        page.locator(".about .goal").wait_for()  # the game's goal beside the table, audited with the rest
        assert page.inner_text(".about .goal").startswith("The game is won when")
        assert serious_violations(page) == [], fragment


# -- cards that move ---------------------------------------------------------------------------------------

# Every animation the page starts is recorded and held at its start, so that a test can step it frame by frame.
HOLD_ANIMATIONS = """() => {
  window.heldAnimations = [];
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    const a = animate.apply(this, args);
    a.pause();
    window.heldAnimations.push({element: this, animation: a});
    return a;
  };
}"""

# The card's place at two moments of its animation, each read in a frame of its own, then at its end.
STEP_ANIMATION = """async (cardId) => {
  const held = window.heldAnimations.find((h) => h.element.dataset.cardId === cardId);
  if (!held) return null;
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const places = [];
  const duration = held.animation.effect.getTiming().duration;
  for (const t of [0, duration / 2]) {
    held.animation.currentTime = t;
    await frame();
    const r = held.element.getBoundingClientRect();
    places.push([r.left, r.top]);
  }
  held.animation.finish();
  await frame();
  const r = held.element.getBoundingClientRect();
  places.push([r.left, r.top]);
  return places;
}"""


def click_move(page, api, sid):
    """Make the state's first move of one card by clicking it, then its target; the card's id and the piles."""
    st = state(api, sid)
    move = next(m for m in st["legal"] if m["kind"] == "move" and m["count"] == 1)
    card = pile(st, move["from"])["cards"][-1]["id"]
    card_at(page, move["from"], pile(st, move["from"])["size"] - 1).click()
    drawn = shown(page)
    page.locator(f'.pile[data-pile="{move["to"]}"]').click(position={"x": 10, "y": 10})
    wait_redrawn(page, drawn)
    return str(card), move


def test_a_move_is_animated_frame_by_frame_and_not_under_reduced_motion(moving, page, api):
    sid = open_game(moving, "#forty-thieves/7")
    moving.evaluate(HOLD_ANIMATIONS)
    card, move = click_move(moving, api, sid)
    start = moving.locator(f'.pile[data-pile="{move["from"]}"]').bounding_box()
    places = moving.evaluate(STEP_ANIMATION, card)
    assert places is not None, "the moved card was not animated"
    first, middle, last = places
    assert first != middle != last  # it travels: a new place at each frame
    assert abs(first[0] - start["x"]) < 2  # from the pile it left...
    end = moving.locator(f'.card[data-card-id="{card}"]').bounding_box()
    assert abs(last[0] - end["x"]) < 1 and abs(last[1] - end["y"]) < 1  # ...to where it lies
    # under prefers-reduced-motion (the `page` fixture's), the same move jumps: no animation at all
    sid = open_game(page, "#forty-thieves/7")
    page.evaluate(HOLD_ANIMATIONS)
    click_move(page, api, sid)
    assert page.evaluate("window.heldAnimations.length") == 0


# -- auto-complete -----------------------------------------------------------------------------------------

def won_by_force_after(name: str, seed: int, moves: list[str]) -> int:
    """How many of `moves` lead to the first position the terminal's autoplay finds won by force."""
    from kallisti.interpreter.game import Game
    from kallisti.interpreter.notation import parse_move
    from kallisti.model.loader import shipped_games
    from kallisti.model.ruleset import load_ruleset
    from kallisti.solver.autoplay import Autoplay

    game, autoplay = Game(load_ruleset(shipped_games()[name]), seed=seed), Autoplay()
    for i, text in enumerate(moves):
        if autoplay.won_by_force(game):
            return i
        game.play(parse_move(game, text))
    raise AssertionError("the line never reaches a position won by force")


def test_auto_completes_a_game_won_by_force_and_refusals_leave_the_console_clean(page, api):
    console: list[str] = []
    page.on("console", lambda msg: console.append(msg.text) if msg.type == "error" else None)
    moves = solution("forty-thieves-5")
    k = won_by_force_after("forty-thieves", 5, moves)
    sid = open_game(page, "#forty-thieves/5")
    play_through_api(page, api, sid, moves[:k])
    # refused moves, typed and clicked: said in the status line, and no error in the console
    for text in ("t1 t1", "w f1 9"):
        drawn = shown(page)
        page.fill("#move-text", text)
        page.keyboard.press("Enter")
        wait_redrawn(page, drawn)
        assert message(page)[0] == "refused"
    drawn = shown(page)
    page.click("#auto")
    wait_redrawn(page, drawn)
    st = state(api, sid)
    assert st["status"] == "won" and st["moves_made"] == k + 1  # one step: undo takes the whole ending back
    page.locator("#banner").wait_for(state="visible")
    assert message(page)[1].startswith("Won!")
    assert console == []


# -- the bot's turn ----------------------------------------------------------------------------------------

def test_the_bots_turn_is_played_out_move_by_move_and_may_be_skipped(page, api):
    sid = open_game(page, "#discordian/3?players=bot,you")
    drawn = shown(page)
    page.click("button.acknowledge")
    wait_redrawn(page, drawn)
    drawn = shown(page)
    page.click("button.acknowledge")  # then the bot deals and plays its turn, shown move by move
    page.locator("#bot-turn").wait_for(state="visible")
    assert message(page)[1].startswith("bot plays ")
    assert shown(page) == drawn  # the answer's final state is not drawn yet
    page.click("#skip-bot")
    wait_redrawn(page, drawn)
    assert page.locator("#bot-turn").is_hidden()
    st = state(api, sid)
    assert st["match"]["waiting"]["what"] == "player-x"
    log = page.locator(".log li").all_inner_texts()
    played = next(i for i, line in enumerate(log) if line.startswith("bot plays "))
    over = next(i for i, line in enumerate(log) if line.startswith("turn over"))
    assert played < over and ": bot scores " in log[over]  # its moves, then its score
    assert page.locator("#score").inner_text().startswith("score") is False  # no score while Player X decides
