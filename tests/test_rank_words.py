"""Names in expressions and the words of rules: `true` and `false` wherever an expression is expected, every rank by
its word (`king`, `ten`), and explanations that name ranks as the rules in force order them (`{last}`, `says-rank`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from scenario import allowed, play_turn, refusal
from typer.testing import CliRunner

from kallisti.cli.app import app
from kallisti.cli.match_play import run_match_session
from kallisti.cli.play import run_session
from kallisti.errors import KallistiError, Pos
from kallisti.interpreter import compiler as C
from kallisti.interpreter.cards import Deck
from kallisti.interpreter.game import Game
from kallisti.interpreter.match import Match, Seat
from kallisti.interpreter.ranknames import render
from kallisti.model.loader import FRENCH_SUITS, STANDARD_RANKS
from kallisti.model.ruleset import load_ruleset

runner = CliRunner()
WHERE = Pos("rules.yaml", 3, 7)
KING_LAST = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]  # Discordian's order, the King put back on top


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def codes(exc: pytest.ExceptionInfo) -> list[str]:
    return [f.code for f in exc.value.findings]


# -- true and false --------------------------------------------------------------------------------------------------

def test_win_false_in_yaml_is_the_expression_false(tmp_path):
    path = write(tmp_path, "v.yaml", "extends: forty-thieves\ngame: Unwinnable\nwin: false\n")
    with pytest.raises(KallistiError) as exc:
        load_ruleset(path)
    assert codes(exc) == ["win-unreachable"]  # not "unknown name 'False'"
    assert "the win `false`" in str(exc.value) and "False" not in str(exc.value)
    assert exc.value.findings[0].pos == Pos(str(path), 3, 6)


def test_set_win_false_in_a_rules_file_is_the_expression_false(tmp_path):
    path = write(tmp_path, "v.rules", "game: Unwinnable\nextends forty-thieves\nset win false\n")
    with pytest.raises(KallistiError) as exc:
        load_ruleset(path)
    assert codes(exc) == ["win-unreachable"]


def test_rule_set_win_false_in_play_is_adopted_with_a_note():
    out: list[str] = []
    code = run_session(Game(load_ruleset("forty-thieves"), seed=1), ["rule set win false", "rule set win true"], out.append)
    text = "\n".join(out)
    assert code == 0  # `true` is won at once
    assert "rule changed, from the next move: set win false" in text
    assert "the game can no longer be won" in text
    assert "~ win: foundation.size == deck.size -> false" in text
    assert "~ win: false -> true" in text and "*** WON: Forty Thieves in 0 moves ***" in text
    assert "unknown name" not in text and "False" not in text


def test_rule_set_win_false_through_kallisti_play():
    result = runner.invoke(app, ["play", "forty-thieves", "--seed", "1"], input="rule set win false\nq\n")
    assert "rule changed, from the next move: set win false" in result.output, result.output
    assert "unknown name 'False'" not in result.output


BOOLEAN_KEYS = {
    "auto when": "auto:\n  - {id: up, from: waste, to: foundation, when: true}\n",
    "lose when": "lose:\n  - {id: never, when: false, says: never lost}\n",
    "build clause": "piles:\n  tableau:\n    build:\n      - {id: free, require: true}\n",
    "prefill": "add:\n  piles:\n    foundation:\n      prefill: true\n",
    "redeal when": "piles:\n  stock:\n    redeals: 1\nadd:\n  piles:\n    stock:\n      redeal: {gather: [waste], when: true}\n",
}


@pytest.mark.parametrize("body", BOOLEAN_KEYS.values(), ids=list(BOOLEAN_KEYS))
def test_booleans_of_expression_keys_are_expressions(tmp_path, body):
    rules = load_ruleset(write(tmp_path, "v.yaml", f"extends: forty-thieves\ngame: Booleans\n{body}"))
    book = runner.invoke(app, ["show", str(tmp_path / "v.yaml")]).output
    assert "True" not in book and "False" not in book, book
    assert rules.name == "Booleans"


def test_a_lose_written_false_reads_false_in_the_rule_book(tmp_path):
    write(tmp_path, "v.yaml", "extends: forty-thieves\ngame: B\nlose:\n  - {id: never, when: false, says: never}\n")
    book = runner.invoke(app, ["show", str(tmp_path / "v.yaml")]).output
    assert "lose never: false" in book


def test_a_number_key_written_true_says_what_type_is_needed(tmp_path):
    path = write(tmp_path, "v.yaml", "extends: forty-thieves\ngame: B\nscore: true\n")
    with pytest.raises(KallistiError) as exc:
        load_ruleset(path)
    assert codes(exc) == ["expr-type"] and "a number is needed" in str(exc.value)


# -- rank words ------------------------------------------------------------------------------------------------------

def compiler(ranks=STANDARD_RANKS, groups=None) -> C.Compiler:
    deck = Deck({"ranks": list(ranks), "suits": FRENCH_SUITS, "packs": 1})
    groups = groups or {}
    return C.Compiler(deck, groups, [name for name, r in groups.items() for _ in r])


def rank_of(comp: C.Compiler, text: str) -> int:
    """The rank an expression of type rank names, by its index in the deck's order."""
    compiled = comp.compile(text, WHERE, C.CARD_SCOPE, C.RANK)
    return compiled.fn(C.Ctx())


WORDS = {"A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight",
         "9": "nine", "10": "ten", "J": "jack", "Q": "queen", "K": "king"}


@pytest.mark.parametrize("rank,word", WORDS.items(), ids=list(WORDS.values()))
def test_every_rank_of_the_standard_deck_has_its_word(rank, word):
    comp = compiler()
    assert rank_of(comp, word) == STANDARD_RANKS.index(rank)
    assert comp.compile(f"card.rank == {word}", WHERE, C.CARD_SCOPE).text == f"card.rank == {word}"


def test_rank_words_compare_and_list_as_the_letters_do():
    comp = compiler()
    deck = comp.deck
    king, ten = deck.parse_card("KH"), deck.parse_card("10S")
    for text, card, expected in [("card.rank == king", king, True), ("card.rank == K", king, True),
                                 ("card.rank in [jack, queen, king]", king, True), ("card.rank in [jack, queen]", king, False),
                                 ("card.rank == ten", ten, True), ("card.rank == 10", ten, True), ("card.rank > nine", ten, True),
                                 ("king - card.rank == 3", ten, True), ("card.rank == ace + 9", ten, True)]:
        ctx = C.Ctx()
        ctx.card = card
        assert comp.compile(text, WHERE, C.CARD_SCOPE).fn(ctx) is expected, text


def test_the_rank_words_follow_the_decks_order():
    comp = compiler(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "K", "Q"])  # Discordian's
    assert rank_of(comp, "queen") == 12 and rank_of(comp, "king") == 11 and rank_of(comp, "last") == rank_of(comp, "queen")


def test_a_deck_of_other_ranks_has_words_for_its_own_ranks_only():
    comp = compiler(["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "Page", "Knight", "Queen", "King"])
    assert rank_of(comp, "one") == 0 and rank_of(comp, "ten") == 9
    assert rank_of(comp, "Page") == 10 and rank_of(comp, "Knight") == 11  # a custom rank name is its own name
    assert rank_of(comp, "queen") == rank_of(comp, "Queen") == 12  # a spelt-out rank takes the lower-case word too
    assert rank_of(comp, "king") == 13
    for word in ("ace", "jack"):
        with pytest.raises(KallistiError) as exc:
            comp.compile(f"card.rank == {word}", WHERE, C.CARD_SCOPE)
        [finding] = exc.value.findings
        assert finding.code == "unknown-rank"
        assert finding.message == f"'{word}' names no rank of this deck; the ranks are 1 2 3 4 5 6 7 8 9 10 Page Knight Queen King"
        assert finding.pos == Pos("rules.yaml", 3, 7 + len("card.rank == "))


@pytest.mark.parametrize("typo,word", [("kng", "king"), ("quen", "queen"), ("King", "king"), ("jakc", "jack"),
                                       ("sevn", "seven")])
def test_a_name_close_to_a_rank_word_is_suggested(typo, word):
    with pytest.raises(KallistiError) as exc:
        compiler().compile(f"card.rank == {typo}", WHERE, C.CARD_SCOPE)
    [finding] = exc.value.findings
    assert (finding.code, finding.message, finding.suggestion) == ("unknown-name", f"unknown name '{typo}'",
                                                                   f"did you mean '{word}'?")


def test_a_group_suit_or_mark_named_like_a_rank_word_comes_first():
    comp = compiler(groups={"eight": range(0, 2)})
    assert comp.compile("eight.count == 2", WHERE, C.STATE_SCOPE).fn(C.Ctx())  # the group
    ctx = C.Ctx()
    ctx.card = comp.deck.parse_card("8C")
    assert comp.compile("card.rank == 8", WHERE, C.CARD_SCOPE).fn(ctx)  # the rank, by its name


def test_a_pile_group_may_be_named_like_a_rank_word(tmp_path):
    path = write(tmp_path, "v.yaml", "extends: forty-thieves\ngame: Eights\npiles:\n  tableau:\n    count: 9\nadd:\n  piles:\n"
                 "    eight: {role: reserve, count: 1, deal: [up], build: none, empty: none, take: top card}\n"
                 "changes:\n  - {forbid: piles.foundation.build, id: not-while-eight,\n"
                 "     expr: eight.size > 0 and card.rank == king}\n")
    rules = load_ruleset(path)
    assert "eight" in rules.groups and not [f for f in rules.findings if f.code == "reserved-name"]


def test_rank_words_in_a_ruleset_and_in_a_rule_change(tmp_path):
    path = write(tmp_path, "v.yaml", "extends: forty-thieves\ngame: Kings Wait\nchanges:\n"
                 "  - {require: piles.tableau.empty, id: kings-only, expr: card.rank == king, says: only a king}\n")
    game = Game(load_ruleset(path), seed=1).arrange({"t1": "5C QH", "t2": "5D KS", "s": "2C"})
    assert "the tableau only a king" in refusal(game, "t1 t3")
    assert allowed(game, "t2 t3")
    game = Game(load_ruleset("forty-thieves"), seed=1).arrange({"f1": "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS", "t1": "KS"})
    out: list[str] = []
    run_session(game, ['rule forbid foundation.build "no kings": card.rank == king', "t1 f1"], out.append)
    assert "rule changed, from the next move" in "\n".join(out)
    assert [line for line in out if line.startswith("refused:")] == [
        "refused: K♠ cannot go on Q♠: the foundation has the rule \"no kings\" (piles.foundation.build, clause no-kings)"]


# -- explanations follow the rules in force --------------------------------------------------------------------------

def test_first_and_last_in_a_says_are_the_decks_ranks_in_words():
    assert render("takes nothing once the foundation is a {last}", KING_LAST) == "takes nothing once the foundation is a King"
    assert render("only a {first} or a {last}", ["A", "2", "K"]) == "only an Ace or a King"
    assert render("An {last} ends it", ["K", "A"]) == "An Ace ends it"
    assert render("a {last}", ["A", "J", "Queen"]) == "a Queen"
    assert render("{first} to {last}, {other}", ["2", "8"]) == "Two to Eight, {other}"


def discordian_match_after_the_king_goes_back_on_top() -> tuple[Match, str]:
    """A match of Discordian Solitaire in which bob, as Player X, changes ann's rank order to `... J Q K`; ann's next
    turn has begun. Returns the match and the session's output of the change."""
    match = Match(load_ruleset("discordian"), [Seat("ann"), Seat("bob")], 2)
    play_turn(match)
    out: list[str] = []
    run_match_session(match, [f"rule set deck.ranks [{', '.join(KING_LAST)}]"], out.append)
    play_turn(match)  # bob's turn
    match.pass_turn(match.waiting().seat)  # ann, as Player X, changes nothing
    while match.waiting().what != "move":
        play_turn(match)
    assert match.seats[match.current].name == "ann" and match.game.rules.deck.ranks == tuple(KING_LAST)
    return match, "\n".join(out)


def test_a_refusal_in_a_match_names_the_last_rank_of_the_rules_in_force():
    match, said = discordian_match_after_the_king_goes_back_on_top()
    assert "bob imposes c1 on ann" in said
    match.game.arrange({"c1": "QS", "c2": "2S", "f": "KH", "s": "2C"})
    out: list[str] = []
    run_match_session(match, ["c1 f"], out.append)
    [refused] = [line for line in out if line.startswith("refused:")]
    assert refused == ("refused: Q♠ cannot go on K♥: the foundation takes nothing once the foundation is a King, the last "
                       "rank (nothing wraps round to the Ace) (piles.foundation.build, clause nothing-on-the-last)")
    assert "Queen" not in refused
    # bob plays by the base rules: his Queen is still the last rank
    base = Game(match.rules_for(1), seed=1).arrange({"c1": "KS", "f": "QH", "s": "2C"})
    assert "takes nothing once the foundation is a Queen, the last rank" in refusal(base, "c1 f")


def test_a_variant_that_reorders_the_ranks_is_refused_in_its_own_words(tmp_path):
    path = write(tmp_path, "kings.yaml", "extends: discordian\ngame: Discordian, Kings on top\n"
                 f"deck:\n  ranks: [{', '.join(KING_LAST)}]\n")
    game = Game(load_ruleset(path), seed=1).arrange({"c1": "QS", "f": "KH", "s": "2C"})
    text = refusal(game, "c1 f")
    assert "takes nothing once the foundation is a King" in text and "Queen" not in text
    book = runner.invoke(app, ["show", str(path)]).output
    assert "takes nothing once the foundation is a King, the last rank (nothing wraps round to the Ace)" in book


def test_a_says_that_names_a_rank_the_rule_no_longer_means_is_a_warning(tmp_path):
    path = write(tmp_path, "kings.yaml", "extends: discordian\ngame: Discordian, Kings on top\n"
                 f"deck:\n  ranks: [{', '.join(KING_LAST)}]\nchanges:\n"
                 "  - {replace: piles.foundation.build, id: nothing-on-the-last, forbid: top.rank == last,\n"
                 "     says: takes nothing once the foundation is a Queen}\n")
    rules = load_ruleset(path)
    [finding] = [f for f in rules.findings if f.code == "says-rank"]
    assert finding.severity == "warning"
    assert finding.message == ("piles.foundation.build clause nothing-on-the-last says 'Queen', but its expression names "
                               "the rank K of this deck, not Q")
    assert finding.suggestion == "write {last} for the rank it means, whatever the deck's order"
    assert finding.pos.source == str(path) and finding.pos.line == 6  # the clause the change writes


@pytest.mark.parametrize("says", ["lets only a king go, or its run", "only Kings fill a space", "a {last} or nothing"])
def test_a_says_naming_the_rank_its_expression_means_is_not_a_warning(tmp_path, says):
    path = write(tmp_path, "v.yaml", "extends: forty-thieves\ngame: V\nchanges:\n"
                 f"  - {{require: piles.tableau.empty, id: kings, expr: card.rank == last or card.rank == K, says: '{says}'}}\n")
    assert not [f for f in load_ruleset(path).findings if f.code == "says-rank"]


def test_a_says_whose_expression_names_no_rank_is_not_read(tmp_path):
    path = write(tmp_path, "v.yaml", "extends: forty-thieves\ngame: V\nchanges:\n"
                 "  - {require: piles.foundation.empty, id: from-waste, expr: source in waste,\n"
                 "     says: takes an ace from the waste only}\n")
    assert not [f for f in load_ruleset(path).findings if f.code == "says-rank"]


def test_an_unknown_name_in_braces_is_an_error_with_a_suggestion(tmp_path):
    path = write(tmp_path, "v.yaml", "extends: forty-thieves\ngame: V\nchanges:\n"
                 "  - {require: piles.tableau.empty, id: kings, expr: card.rank == last, says: 'only a {lst}'}\n")
    with pytest.raises(KallistiError) as exc:
        load_ruleset(path)
    [finding] = exc.value.findings
    assert finding.code == "unknown-name" and finding.suggestion == "did you mean '{last}'?"
    assert finding.pos.line == 4
