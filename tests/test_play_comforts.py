"""Comforts at play: `rules` and `legend` in a patience; at Cripple Mr Onion's table `help`, `hint` and `legend` at
every question, the suits explained, a modifier's effect said, the betting left; the Discordian transcript in the
order of play, each turn's final field shown before its score, and a seat named `you` spoken to as a person."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.cli.match_play import run_match_session
from kallisti.cli.play import run_session
from kallisti.cli.render import legend_lines, table_lines
from kallisti.cli.show import rules_text
from kallisti.cli.table_play import run_table_session, seats_from_players
from kallisti.interpreter.game import Game
from kallisti.interpreter.match import Match, Seat, Waiting
from kallisti.interpreter.notation import describe
from kallisti.model.ruleset import load_ruleset
from kallisti.persons import does, second_person, whose

runner = CliRunner()


# -- rules and legend in a patience --------------------------------------------------------------------------------
def test_rules_in_play_prints_the_rule_book_kallisti_show_prints():
    result = runner.invoke(app, ["play", "la-nivernaise", "-s", "3"], input="rules\nq\n")
    shown = runner.invoke(app, ["show", "la-nivernaise"])
    assert result.exit_code == 4 and shown.exit_code == 0
    assert shown.stdout.strip() in result.stdout
    assert "a move is" not in result.stdout  # `rules` is a command, not a move refused


def test_rules_are_the_rules_in_play_after_a_rule_change():
    game = Game(load_ruleset("forty-thieves"), seed=1)
    out: list[str] = []
    run_session(game, ['rule forbid foundation.build "no kings": card.rank == K', "rules"], out.append)
    assert rules_text(game.rules) in out and "no-kings" in rules_text(game.rules)


def test_legend_explains_la_nivernaises_tags_and_marks():
    result = runner.invoke(app, ["play", "la-nivernaise", "-s", "3"], input="legend\nq\n", env={"COLUMNS": "80"})
    assert result.exit_code == 4
    text = result.stdout
    assert "l1 ##  ##  ##  10♠" in text  # the table shows face-down cards...
    for says in ("a1..a4  aces (foundation)", "k1..k4  kings (foundation)", "l1..l6  line", "s       stock",
                 "##     a face-down card", "--     an empty pile",
                 "a face-down card the rules let you look at: it moves only once turned", "♣ clubs (C)"):
        assert says in text, says  # ... and the legend says what each mark means


def test_the_legend_shows_only_the_marks_a_game_can_show():
    forty = "\n".join(legend_lines(Game(load_ruleset("forty-thieves"), seed=1), 80))
    assert "t1..t10" in forty and "w" in forty and "look at" not in forty


# -- "you" as a person ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("third, second", [("acknowledges", "acknowledge"), ("passes", "pass"), ("is", "are"),
                                           ("matches", "match"), ("buys", "buy"), ("must", "must"), ("has", "have")])
def test_second_person(third, second):
    assert second_person(third) == second


def test_you_is_spoken_to_and_others_spoken_of():
    assert does("you", "acknowledges: bow.") == "you acknowledge: bow."
    assert does("ann", "acknowledges: bow.") == "ann acknowledges: bow."
    assert whose("you") == "your" and whose("ann") == "ann's"


# -- Cripple Mr Onion at the table ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def onion_transcript() -> list[str]:
    """Two rounds at a table of you and three bots, seed 4: at each question `help`, `legend` at the first, then
    `hint`, then the answer the hint gave; an empty line between rounds."""
    out: list[str] = []
    rounds = 0

    def lines():
        nonlocal rounds
        yield "legend"
        while True:
            if out[-1].startswith("enter for the next round"):
                rounds += 1
                if rounds == 2:
                    return
                yield "help"  # between rounds too
                yield ""
                continue
            yield "help"
            yield "hint"
            hints = [line for line in out[-3:] if line.startswith("hint: ")]
            assert hints, out[-5:]
            yield hints[-1][len("hint: "):]

    run_table_session(load_ruleset("onion"), seats_from_players("you,bot,bot:bold,bot"), 4, lines(), out.append)
    return out


def test_the_suit_codes_are_explained_at_the_start(onion_transcript):
    opening = " ".join(" ".join(onion_transcript[:6]).split())
    assert "Sw swords (pairs with ♣)" in opening and "Co coins (pairs with ♦)" in opening
    assert "type `help` at any question" in opening


def test_help_hint_and_legend_are_answered_at_every_question(onion_transcript):
    text = "\n".join(onion_transcript)
    assert "is not a card of this deck" not in text and "not an answer to that question" not in text
    asked = [i for i, line in enumerate(onion_transcript) if line.startswith("hint: ")]
    assert len(asked) >= 10
    assert text.count("answers:") >= len(asked)
    assert "swords (pairs with ♣)" in " ".join(onion_transcript[8:40])  # `legend` at the first question
    assert "an empty line deals the next round; `q` stops the game" in text


def test_a_hint_is_an_answer_taken(onion_transcript):
    draw = next(i for i, line in enumerate(onion_transcript) if line.startswith("hint: ") and
                onion_transcript[i - 1].startswith("exchange up to"))
    hinted = onion_transcript[draw][len("hint: "):]
    assert onion_transcript[draw + 1].startswith("exchange up to")  # the question again, then the answer taken
    assert "refused" not in onion_transcript[draw + 2] and hinted


def test_the_betting_says_what_is_left(onion_transcript):
    text = "\n".join(onion_transcript)
    assert ("(first betting round: part 1 of 3, 2 more to come; then the second five and the last round, 2 parts)"
            in text)
    assert "(last betting round: part 2 of 2, no more to come; then the showdown)" in text


def test_a_declared_modifier_says_what_it_does(onion_transcript):
    lady = "When eights are wild, the queen of spades declared makes one ace of every"
    asked = onion_transcript.index("declare Modifier #4 ii: the Lady when eights are wild (`declare`) or `pass`?")
    assert lady in onion_transcript[asked - 3], "the question says what declaring does"
    declared = onion_transcript.index("you declare Modifier #4 ii: the Lady when eights are wild, showing Q♠")
    assert onion_transcript[declared + 1].strip().startswith(lady), "and so does the declaration"
    in_play = onion_transcript.index("Modifier #1 i: null eights is in play")
    assert onion_transcript[in_play + 1].strip().startswith("In a round in which eights are not wild")


def test_you_are_spoken_to_at_the_table(onion_transcript):
    text = "\n".join(onion_transcript)
    assert "-- round 1: you deal;" in text and "you name 0" in text and "you lay your hand down" in text
    for wrong in ("you deals", "you names", "you matches", "you lays", "you wins", "you folds"):
        assert wrong not in text


# -- the Discordian transcript -------------------------------------------------------------------------------------
def discordian_against_a_bot(turns: int = 2) -> tuple[Match, list[str]]:
    """You against the greedy bot, match 2: you acknowledge, play the first legal move each time and pass as
    Player X, and stop when `turns` turns are over and you have passed once more."""
    match = Match(load_ruleset("discordian"), [Seat("you"), Seat("bot", "greedy")], 2)
    out: list[str] = []

    def lines():
        while True:
            w = match.waiting()
            if w.what == "ack":
                yield "ok"
            elif w.what == "player-x":
                yield "pass"
                if len(match.records) >= turns:
                    break
            elif w.what == "move":
                yield describe(match.game, match.game.legal_moves()[0])
            else:
                yield "shuffle"
        yield "q"

    run_match_session(match, lines(), out.append)
    return match, out


@pytest.fixture(scope="module")
def discordian():
    return discordian_against_a_bot()


def test_turns_are_reported_in_the_order_they_were_played(discordian):
    match, out = discordian
    first_over = next(i for i, line in enumerate(out) if "turn over" in line and "you score" in line)
    second_banner = out.index(next(line for line in out if line.startswith("-- turn 2: bot")))
    imposed = next(i for i, line in enumerate(out) if line.startswith("bot (Player X)"))
    assert first_over < imposed < second_banner, "turn 1 is scored before Player X acts, and before turn 2"
    turn_one = out[:first_over]
    assert not any(line.strip().startswith("plays:") for line in turn_one), "no move of the bot's under your turn"
    (plays,) = [line for line in out if line.strip().startswith("plays:")]
    bot_moves = [e for e in match.events if e["type"] == "move" and e["seat"] == 1]
    assert len(plays.split(":", 1)[1].split(",")) == len(bot_moves), "every move of turn 2 is in turn 2's report"


def test_each_turns_final_field_is_shown_before_it_is_scored(discordian):
    match, out = discordian
    for rec in match.records:
        heading = out.index(f"   turn {rec.turn} ends with this field:")
        field = ["   " + line for line in table_lines(rec.final)]
        assert out[heading + 1: heading + 1 + len(field)] == field
        assert out[heading + 1 + len(field)].startswith(f"   turn over ({rec.reason}):")
        assert f"scores {rec.score}" in out[heading + 1 + len(field)] or f"score {rec.score}" in out[heading + 1 + len(field)]
        assert rec.score == rec.final.score()


def test_you_are_spoken_to_in_the_match(discordian):
    _, out = discordian
    text = "\n".join(out)
    assert "you acknowledge: Don't mess up the other player's cards." in text
    assert "you are Player X:" in text and "\nyou pass\n" in text and "you score " in text
    for wrong in ("you acknowledges", "you imposes", "you's", "you passes", "you is ", "you scores"):
        assert wrong not in text
    match = Match(load_ruleset("discordian"), [Seat("you"), Seat("bot", "greedy")], 2)
    assert match._waiting_text(Waiting(0, "move")) == "it is your turn to play"
    assert match._waiting_text(Waiting(1, "move")) == "it is bot's turn to play"
