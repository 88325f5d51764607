"""Shared helpers of the rule-by-rule game tests: set up a position, play or refuse moves, read piles."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from functools import lru_cache, partial
from pathlib import Path

import pytest

from kallisti.errors import Pos
from kallisti.interpreter.game import Game
from kallisti.interpreter.notation import MoveRefused, describe, parse_move
from kallisti.interpreter.state import shuffled_order
from kallisti.model.ruleset import load_ruleset

ROOT = Path(__file__).resolve().parents[1]
SUITS = "CDHS"
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
FILL = "5C 5D 5H 5S 6C 6D 6H 6S 7C 7D 7H 7S".split()  # twelve distinct cards to fill piles with


@lru_cache(maxsize=None)
def ruleset(name: str):
    """The named game's ruleset, loaded once."""
    return load_ruleset(name)


def changed_data(name: str, *texts: str):
    """The named game's ruleset data with each rule change adopted in turn, without trial deals (what the changes
    do is the calling test's business)."""
    from kallisti.interpreter.amend import amend

    data = ruleset(name).data
    for text in texts:
        data = amend(data, text, trial=False).data
    return data


def new_game(name: str, layout: dict[str, str] | None = None, down: dict[str, int] | None = None,
             seed: int = 1) -> Game:
    """A game of `name` from `seed`, set to `layout` (cards bottom first, `down` face down) when one is given."""
    g = Game(ruleset(name), seed=seed)
    if layout is not None:
        g.arrange(layout, down)
    return g


def for_game(name: str):
    """The `rules()` and `game(layout=None, down=None, seed=1)` helpers of one game's tests."""
    return partial(ruleset, name), partial(new_game, name)


def deal(name: str, seed: int) -> tuple[Game, list[int]]:
    """A game of `name` dealt from the pack shuffled by `seed`, and that dealing order."""
    order = shuffled_order(ruleset(name).deck.size, seed)
    return Game(ruleset(name), order=order), order


def dealing_order(name: str, front: list[str], back: list[str] = (), seed: int | None = None) -> list[int]:
    """A dealing order for `name`: the named `front` cards first, then the rest of the pack (shuffled by
    `seed`, or in id order without one), then the named `back` cards."""
    deck = ruleset(name).deck
    pool = shuffled_order(deck.size, seed) if seed is not None else list(range(deck.size))

    def take(card_name: str) -> int:
        kind = deck.parse_card(card_name, Pos("<test>"))
        card = next(c for c in pool if deck.kind[c] == kind)
        pool.remove(card)
        return card

    head = [take(n) for n in front]
    tail = [take(n) for n in back]
    return head + pool + tail


# -- reading a position ------------------------------------------------------------------------


def ids(g: Game, tag: str) -> list[int]:
    """A pile's card ids, bottom first."""
    return g.state.piles[g.rules.pile_of_tag[tag]]


def cards(g: Game, tag: str) -> list[str]:
    """A pile's cards as ascii names, bottom first."""
    return [g.deck.ascii_name(c) for c in ids(g, tag)]


def down(g: Game, tag: str) -> int:
    """How many cards of a pile lie face down."""
    return g.state.down[g.rules.pile_of_tag[tag]]


def legal(g: Game) -> set[str]:
    """The legal moves, as the player writes them."""
    return {describe(g, m) for m in g.legal_moves()}


# -- moves -------------------------------------------------------------------------------------


def play(g: Game, text: str) -> list[int]:
    """Play a move written as the player writes it; returns the moves made (the move, then automatic ones)."""
    return g.play(parse_move(g, text))


def refusal(g: Game, text: str) -> str:
    """The explanation with which a move is refused (the test fails if it is not)."""
    with pytest.raises(MoveRefused) as exc:
        parse_move(g, text)
    return str(exc.value)


def allowed(g: Game, text: str) -> bool:
    """Whether a move is legal."""
    try:
        parse_move(g, text)
    except MoveRefused:
        return False
    return True


# -- card lists and layouts ----------------------------------------------------------------------


def suit(s: str, high: str = "K") -> str:
    """The cards of suit `s` from the ace up to `high`."""
    return " ".join(r + s for r in RANKS[: RANKS.index(high) + 1])


def run(s: str, high: str, low: str) -> str:
    """The cards of suit `s` from `high` (bottom) down to `low` (top), e.g. run("S", "K", "A")."""
    i, j = RANKS.index(high), RANKS.index(low)
    return " ".join(RANKS[k] + s for k in range(i, j - 1, -1))


def line_of(*packets: str) -> dict[str, str]:
    """Line packets l1.. holding these cards."""
    return {f"l{i + 1}": p for i, p in enumerate(packets)}


def whole_suits(count: int = 8, tag: str = "f", falling: bool = False) -> dict[str, str]:
    """Foundations f1.. (or another tag) each holding a whole suit, clubs, diamonds, hearts, spades in
    turn: ace to king, or king to ace when `falling`."""
    return {f"{tag}{i + 1}": run(SUITS[i % 4], "K", "A") if falling else suit(SUITS[i % 4]) for i in range(count)}


def all_but_a_king(source: str, foundation: str = "f8") -> dict[str, str]:
    """Eight foundations of whole suits (see `whole_suits`), but `foundation` lacks its king of spades,
    which lies on `source`."""
    return {**whole_suits(), foundation: suit("S", "Q"), source: "KS"}


# -- checks that several games share ----------------------------------------------------------------


def foundations_take_aces_and_build_up_in_suit(game) -> None:
    """Eight foundations take only an ace when empty, then build up in suit to the king; the refusals say so."""
    g = game({"t1": "AH", "t2": "2H", "t3": "2S", "t4": "KD", "f2": suit("D", "Q")})
    assert refusal(g, "t2 f1") == ("2♥ cannot go to the empty f1: the foundation takes only the first rank "
                                   "(piles.foundation.empty, clause first-rank)")
    play(g, "t1 f1")
    assert refusal(g, "t3 f1") == "2♠ cannot go on A♥: the foundation builds up in suit (piles.foundation.build, clause same-suit)"
    play(g, "t2 f1")
    play(g, "t4 f2")
    assert cards(g, "f1") == ["AH", "2H"] and cards(g, "f2")[-1] == "KD"
    assert len(g.rules.groups["foundation"].piles) == 8


def last_move_wins(game, layout: dict[str, str], move: str, score: int | None = None, undo: bool = False) -> Game:
    """`game(layout)` is still playing and is won by `move` (with that `score`, when given); with `undo`,
    undoing the move makes it playing again. Returns the game."""
    g = game(layout)
    assert g.status().outcome == "playing"
    play(g, move)
    assert g.status().outcome == "won"
    if score is not None:
        assert g.score() == score
    if undo:
        g.undo()
        assert g.status().outcome == "playing"
    return g


def won_line(title: str) -> re.Pattern:
    """The whole line by which `kallisti play` announces a win of `title`, in any number of moves."""
    return re.compile(rf"^\*\*\* WON: {re.escape(title)} in \d+ moves \*\*\*$", re.M)


def win_script_wins(name: str, *expected: str | re.Pattern, absent: str | None = "refused") -> str:
    """Play the committed examples/NAME-win.moves on examples/NAME-win.deal through a real `kallisti play`
    process: it exits 0, its output holds each `expected` text (or matches each pattern) and not `absent`.
    Returns the output."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8", NO_COLOR="1")
    with (ROOT / "examples" / f"{name}-win.moves").open("rb") as stdin:
        proc = subprocess.run([sys.executable, "-m", "kallisti", "play", name, "--deal", f"examples/{name}-win.deal"],
                              stdin=stdin, capture_output=True, cwd=ROOT, env=env, timeout=600)
    out = proc.stdout.decode("utf-8")
    assert proc.returncode == 0, proc.stderr.decode("utf-8") + out[-2000:]
    for want in expected:
        if isinstance(want, re.Pattern):
            assert want.search(out), want.pattern
        else:
            assert want in out
    if absent is not None:
        assert absent not in out
    return out


def play_turn(match) -> None:
    """The player on turn plays it out by the hint (acknowledging anything due, shuffling when asked)."""
    from kallisti.solver.strategies import hint

    turn = match.turn
    while match.turn == turn and match.waiting().what in ("ack", "move", "shuffle"):
        w = match.waiting()
        if w.what == "ack":
            match.acknowledge(w.seat)
        elif w.what == "shuffle":
            match.choose_shuffle(w.seat, True)
        else:
            match.move(w.seat, hint(match.game))


def revoked_by_ann(match, change_id: str):
    """ann plays her turn out; after bob's next turn she, as Player X for him, revokes the change he imposed on her."""
    play_turn(match)  # ann
    match.pass_turn(1)
    play_turn(match)  # bob
    match.revoke(0, change_id)
    return match


def on_turn(match, seat: int) -> None:
    """Go through what is due before the seat's first move (honour rules, the shuffle)."""
    from kallisti.interpreter.match import Waiting

    while match.waiting().what in ("ack", "shuffle"):
        w = match.waiting()
        match.acknowledge(w.seat) if w.what == "ack" else match.choose_shuffle(w.seat, True)
    assert match.waiting() == Waiting(seat, "move")


def imposed_on_ann(*texts):
    """A match of Discordian Solitaire between ann and bob (seed 7) in which bob imposed each change on ann after one
    of her turns, waiting for ann's first move of the turn after the last."""
    from kallisti.interpreter.match import Match, Seat

    match = Match(ruleset("discordian"), [Seat("ann"), Seat("bob")], 7)
    for text in texts:
        play_turn(match)  # ann
        match.impose(1, text)
        play_turn(match)  # bob
        match.pass_turn(0)
    on_turn(match, 0)
    return match


def reloaded(match):
    """The match saved and loaded again (through JSON text, as a save file holds it)."""
    import json

    from kallisti.interpreter.save import match_from_data, match_to_data

    return match_from_data(json.loads(json.dumps(match_to_data(match))))


def winnable(game: Game, depth: int) -> bool:
    """Whether some line of play of at most `depth` moves wins, found by trying every one, without keys: the plain
    truth a solver must agree with on a small game."""
    if game.rules.win(game.ctx):
        return True
    if depth == 0:
        return False
    for m in game.legal_moves():
        game.play(m)
        won = winnable(game, depth - 1)
        game.undo()
        if won:
            return True
    return False


def counted_line_searches(monkeypatch) -> list:
    """Every line search the search bot starts from now on (one a decision, `solver.search._LineSearch`), in order:
    what a test reads to count the positions its decisions searched."""
    from kallisti.solver import search

    made = []

    class Counted(search._LineSearch):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            made.append(self)

    monkeypatch.setattr(search, "_LineSearch", Counted)
    return made


def random_player_meets(rules, deal: int, moves: int, seed: int) -> list:
    """What a seeded random player meets on deal `deal` of `rules` (kallisti's deal `seed`, its strategy stream):
    the legal moves at each step, up to `moves` steps, then the score. Two rulesets that play alike meet the same."""
    from kallisti.interpreter.rng import STREAM_STRATEGY, Rng

    game, rng, seen = Game(rules, seed=seed, deal_number=deal), Rng(seed, deal, STREAM_STRATEGY), []
    for _ in range(moves):
        legal = list(game.legal_moves())
        seen.append(legal)
        if not legal:
            break
        game.play(legal[rng.below(len(legal))])
    return seen + [game.score()]


def positions_in_play(game_name: str, deals: int, steps: int, pick):
    """Yield a game of the named shipped ruleset at each position still in play, deals 1..`deals` (kallisti's deal
    numbers as seeds), up to `steps` positions a deal; after each, the move `pick(moves, deal)` is made."""
    from shipped import shipped

    for deal in range(1, deals + 1):
        game = Game(shipped(game_name), seed=deal)
        for _ in range(steps):
            moves = game.legal_moves()
            if game.status(moves).outcome != "playing":
                break
            yield game
            game.apply(pick(moves, deal))
