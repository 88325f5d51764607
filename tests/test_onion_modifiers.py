"""The twelve modifiers of the shipped Cripple Mr Onion (src/kallisti/rulesets/onion.yaml, #0 to #11), each shown
changing an outcome at the table: fixed hands played with the modifier in play and without it (switched off, not
declared, its card face down, or a round that does not follow a null eight), asserting the different winner or
best grouping, and each modifier's own mechanics (what brings it in, whose hands it changes, compelled and revealed
cards, replacements, compulsory declarations). The non-gambling game (`delete table.money`) is played throughout."""

from __future__ import annotations

import functools

import pytest

from kallisti.interpreter.amend import amend, compile_data
from kallisti.interpreter.hands import HandEvaluator, parse_hands
from kallisti.interpreter.table import Round, RoundResult
from kallisti.model.ruleset import load_ruleset

NULLS = frozenset({"nulls"})  # what a showdown with a null eight leaves for the next round: eights are wild


@functools.lru_cache(maxsize=None)
def onion(*off: str):
    """The shipped rules without money, with the named modifiers switched off. The special cards are declared in a
    round of their own before the showdown, the most senior first (the amendment of onion-declaration-round), so that
    every holder is asked whatever hir seat; the showdown's own order is tested at the end of this file."""
    data = amend(load_ruleset("onion").data, "delete table.money").data
    data = amend(data, "set table.declarations round").data
    for mid in off:
        data = amend(data, f"set modifiers.{mid}.enabled false").data
    return compile_data(data)


def fixed(rules, texts: list[str], dealer: int = 0, after: frozenset = frozenset(), up: tuple = (), pack: str = "",
          dealt: bool = False) -> Round:
    """A round whose players hold these hands after the second deal, the cards named in `up` face up and the rest
    face down, nothing declared yet; `pack` names the next cards of the pack (what a replaced card is offered from);
    `dealt`: the hands were dealt so, so their compulsory (`must`) declarations are made."""
    rnd = Round(rules, len(texts), dealer=dealer, after=after)
    while rnd.asks is not None:
        seat, what = rnd.asks
        rnd.exchange(seat, []) if what == "draw" else rnd.bet(seat, what, False)
    *hands, nxt = parse_hands(rules.deck, texts + [pack])
    rnd.hands = hands
    rnd.pack = list(rnd.pack[:rnd.next]) + nxt + [c for c in rnd.pack[rnd.next:] if c not in nxt]
    rnd.face_up = [{c for c in h if rules.deck.ascii_name(c) in up} for h in hands]
    rnd.in_play = [e for e in rnd.in_play if rnd.modifiers[e[0]].trigger in ("always", "after")]  # the round's start
    rnd.offer, rnd.revealing = [], []
    if dealt:
        for seat, hand in enumerate(hands):
            rnd._compulsory(seat, hand)
    rnd._before_showdown()
    return rnd


def name(rnd: Round, c: int) -> str:
    return rnd.rules.deck.ascii_name(c)


def card(rnd: Round, text: str) -> int:
    return next(c for h in rnd.hands for c in h if name(rnd, c) == text)


def finish(rnd: Round, yes=(), choose=(), reveal=()) -> RoundResult:
    """Answer every question to the showdown: declare the (seat, modifier) pairs in `yes` and decline the others,
    choose and reveal the cards named, in order; then the showdown."""
    choose, reveal = list(choose), list(reveal)
    while rnd.asks is not None:
        seat, what = rnd.asks
        if what == "declare":
            rnd.bet(seat, "declare", (seat, rnd.declaring) in yes)
        elif what == "choose":
            want = choose.pop(0)
            rnd.bet(seat, "choose", next(c for c in rnd.offer if name(rnd, c) == want))
        else:
            assert what == "reveal", what
            rnd.bet(seat, "reveal", card(rnd, reveal.pop(0)))
    return rnd.showdown(HandEvaluator(rnd.rules))


def play(rules, texts, yes=(), choose=(), reveal=(), **kw) -> tuple[Round, RoundResult]:
    rnd = fixed(rules, texts, **kw)
    return rnd, finish(rnd, yes, choose, reveal)


def group_cards(rnd: Round, result: RoundResult, seat: int) -> list[tuple[str, str]]:
    """A seat's shown groups as (grouping id, its cards' names)."""
    return [(g.id, " ".join(name(rnd, c) for c in g.cards)) for g in result.shown[seat].groups]


def stand_in_values(rnd: Round, result: RoundResult, seat: int) -> dict[str, tuple]:
    """The cards of a seat's shown hand that counted otherwise (devalued or shifted), with the values they counted."""
    deck = rnd.seat_evaluator(seat, HandEvaluator(rnd.rules)).deck
    return {name(rnd, c): deck.values[s] for c, s in result.shown[seat].stand_ins}


# -- #0 crippling ----------------------------------------------------------------------------------------------------
TEN_RUN = "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C"  # a ten-card running flush
NINE_RUN = "2Sw 3Sw 4Sw 5Sw 6Sw 7Sw 8Sw 9Sw 10Sw 2H"  # a nine-card running flush and the two of hearts
LESSER = "AS KH AH KD AD QH ASt QD 2H 3H"
GREAT = "AS KH AH KD AD QH ASt QD ACu JH"


def test_crippling_a_ten_card_running_flush_cripples_a_lesser_onion():
    rnd, res = play(onion(), [TEN_RUN, LESSER])
    assert "crippling" in rnd.declared and res.shown[1].top == "lesser-onion" and res.winner == 0
    rnd, res = play(onion("crippling"), [TEN_RUN, LESSER])
    assert "crippling" not in rnd.declared and res.winner == 1, "without #0 ii the running flush is worth nothing"


def test_crippling_a_ten_card_running_flush_outcripples_a_nine_card_one():
    # Both running flushes cripple the Great Onion; the nine-card one sits with the dealer, who wins a tie.
    rnd, res = play(onion(), [TEN_RUN, NINE_RUN, GREAT], dealer=1)
    assert res.shown[2].top == "great-onion" and res.winner == 0 and not res.tied
    rnd, res = play(onion("crippling"), [TEN_RUN, NINE_RUN, GREAT], dealer=1)
    assert res.tied == (1, 0) and res.winner == 1, "without #0 ii both only hold a nine-card cripple"


# -- #1 i null eights ------------------------------------------------------------------------------------------------
NULL_FIVE = "3C 5D 6H 7S 8C KS KD 10D 9H 2H"  # 3 5 6 7 and a null eight: a five-card onion
BROKEN_ROYAL_FLUSH = "6D 7D 8H QC JSw ASw KH QH 10S 10H"  # a broken royal and a flush


def test_null_eights_trump_up_an_onion():
    rnd, res = play(onion(), [NULL_FIVE, BROKEN_ROYAL_FLUSH])
    top = res.shown[0].groups[0]
    assert (top.id, top.nulls) == ("five-card-onion", 1) and "8C" in group_cards(rnd, res, 0)[0][1].split()
    assert res.winner == 0
    rnd, res = play(onion("null-eights"), [NULL_FIVE, BROKEN_ROYAL_FLUSH])
    assert res.shown[0].top == "broken-royal" and res.winner == 1, "the eight is only an eight: 6 7 8"


def test_between_onions_of_as_many_cards_the_one_with_fewer_null_eights_wins():
    nulled, plain = "2C 3D 4H 5S 7C 8D KC KS QD JH", "AH 2H 3S 5C 10C 6D 4D 9H 2D 10D"
    rnd, res = play(onion(), [nulled, plain], dealer=0)  # the null eight's holder is the more senior
    a, b = res.shown[0].groups[0], res.shown[1].groups[0]
    assert (a.id, a.nulls) == ("six-card-onion", 1) and (b.id, b.nulls) == ("six-card-onion", 0)
    assert res.winner == 1 and not res.tied


def test_a_null_eight_shown_brings_wild_eights_and_their_modifiers_into_the_next_round():
    rnd, res = play(onion(), [NULL_FIVE, BROKEN_ROYAL_FLUSH])
    assert res.follows == NULLS
    nxt = Round(onion(), 2, after=res.follows)
    assert {"wild-eights", "wild-crippling", "octavo"} <= set(nxt.declared) and "null-eights" not in nxt.declared
    rnd, res = play(onion("null-eights"), [NULL_FIVE, BROKEN_ROYAL_FLUSH])
    assert res.follows == frozenset() and "wild-eights" not in Round(onion(), 2, after=res.follows).declared


SPECIALS_A = "QS 2C 3C 4C 5C 6H 7H 9S 9C 10D"  # the queen of spades
SPECIALS_B = "JD KSw 2D 3D 4D 5D 6D 7D 9D 10H"  # the jack of diamonds and the king of swords, laid face up


def test_in_the_wild_round_the_lady_sender_and_death_give_way_to_their_wild_forms():
    plain = fixed(onion(), [SPECIALS_A, SPECIALS_B], up=("JD", "KSw"))
    assert {"sender", "death"} <= set(plain.declared) and plain.declaring == "lady"
    wild = fixed(onion(), [SPECIALS_A, SPECIALS_B], up=("JD", "KSw"), after=NULLS)
    assert "death-wild" in wild.declared and not {"null-eights", "sender", "death"} & set(wild.declared)
    assert wild.declaring == "lady-wild" and (0, "lady") not in wild.queue
    finish(wild)
    assert (0, "lady") not in wild.asked and "lady" not in wild.declared


# -- #1 ii wild eights -----------------------------------------------------------------------------------------------
EIGHTS_FOR_PONTOONS = "AC KC AH KH AD 8D AS 8H 2S 3S"  # a Double Onion; with two wild eights a Lesser Onion
TRIPLE = "ASt KSt ACo KCo ASw JH 2D 3D 4D 5D"


def test_wild_eights_in_the_round_after_a_null_eight_eights_stand_for_other_cards():
    rnd, res = play(onion(), [EIGHTS_FOR_PONTOONS, TRIPLE], after=NULLS)
    top = res.shown[0].groups[0]
    assert "wild-eights" in rnd.declared and (top.id, top.wild) == ("lesser-onion", 2) and res.winner == 0
    assert res.follows == frozenset(), "no null eight in a wild round: the next round's eights are eights again"
    assert "null-eights" in Round(onion(), 2, after=res.follows).declared
    rnd, res = play(onion(), [EIGHTS_FOR_PONTOONS, TRIPLE])
    assert "wild-eights" not in rnd.declared and res.shown[0].top == "double-onion" and res.winner == 1


def test_wild_eights_three_wild_eights_are_a_wild_royal():
    three = "8C 8S 8H 9C 9D 9H 9S 10C 10S 10H"  # no low cards for the eights to make onions with
    other = "7C 7D 7H 2C 3C 4C 5D 2D 10D KD"
    rnd, res = play(onion(), [three, other], after=NULLS, dealer=1)
    assert ("wild-royal", "8C 8S 8H") in group_cards(rnd, res, 0)
    rnd, res = play(onion(), [three, other], dealer=1)
    assert "wild-royal" not in [g.id for g in res.shown[0].groups]


# -- #2 wild crippling -----------------------------------------------------------------------------------------------
WILD_RUN = "AC 2C 3C 4C 5C 6C 7C 8D 8H 10C"  # a running flush with two wild eights in it


def test_wild_crippling_a_running_flush_with_more_wild_cards_than_the_onion_does_not_cripple_it():
    plain_great = "AS KS AH KH AD KD ASt KSt ACo KCo"
    rnd, res = play(onion(), [WILD_RUN, plain_great], after=NULLS)
    assert "wild-crippling" in rnd.declared and res.shown[1].groups[0].wild == 0 and res.winner == 1
    rnd, res = play(onion("wild-crippling"), [WILD_RUN, plain_great], after=NULLS)
    assert res.winner == 0, "without #2 any running flush cripples the Great Onion"


def test_wild_crippling_a_running_flush_with_no_more_wild_cards_than_the_onion_cripples_it():
    wild_great = "AS KS AH KH AD KD ASt KSt 8C 8S"  # a Great Onion with two wild eights
    rnd, res = play(onion(), [WILD_RUN, wild_great], after=NULLS)
    assert res.shown[1].top == "great-onion" and res.shown[1].groups[0].wild == 2 and res.winner == 0


# -- #3 the Octavo ---------------------------------------------------------------------------------------------------
OCTAVO = "8C 8S 8H 8D 8Sw 8St 8Cu 8Co 2H 3D"


def test_octavo_eight_eights_beat_a_lesser_onion():
    lesser_and_bagel = "AS KS AH KH AD KD ACo KCo QH JH"
    rnd, res = play(onion(), [OCTAVO, lesser_and_bagel], after=NULLS)
    assert res.shown[0].top == "octavo" and res.shown[1].top == "lesser-onion" and res.winner == 0
    rnd, res = play(onion("octavo"), [OCTAVO, lesser_and_bagel], after=NULLS)
    assert res.shown[0].top == "lesser-onion" and res.winner == 1, "eight wild eights are just a Lesser Onion"


def test_octavo_is_not_crippled_by_a_ten_card_running_flush():
    # Every ten-card run holds an eight; with all eight eights in the Octavo, the Archchancellor's wild jack of staves
    # (nobody holds the king of swords) stands in for one.
    run = "AC 2C 3C 4C 5C 6C 7C JSt 9C 10C"
    rnd, res = play(onion(), [OCTAVO, run], after=NULLS, yes={(1, "archchancellor")})
    assert rnd.unheld == {"archchancellor"} and res.shown[0].top == "octavo" and res.winner == 0
    rnd, res = play(onion("octavo"), [OCTAVO, run], after=NULLS, yes={(1, "archchancellor")})
    assert res.shown[0].top == "lesser-onion" and res.winner == 1, "a Lesser Onion is crippled"


def test_octavo_is_gone_once_fate_has_stopped_the_eights_being_wild():
    fate_and_lesser = "KCu AS KS AH KH AD KD ACo QH 2C"
    rnd, res = play(onion(), [OCTAVO, fate_and_lesser], after=NULLS, yes={(1, "fate-wild")})
    assert "fate-wild" in rnd.declared and res.shown[0].groups[0].wild == 0, "the eights are no longer wild"
    assert res.shown[0].top != "octavo" and res.winner == 1


# -- #4 the Lady -----------------------------------------------------------------------------------------------------
LADY_HAND = "QS AC KC AH KH KD 2D 3D 7D 9S"  # the queen of spades makes a pontoon; an ace for her makes three
TRIPLE_THIN = "AS KS ASt QH ACu JH 2C 2H 3C 4H"


def test_lady_the_queen_of_spades_is_traded_for_the_better_of_the_next_two_cards():
    rnd, res = play(onion(), [LADY_HAND, TRIPLE_THIN], pack="ACo 5S", yes={(0, "lady")}, choose=["ACo"])
    assert [name(rnd, c) for c in rnd.beside] == ["QS"] and "5S" in [name(rnd, c) for c in rnd.discards]
    assert "ACo" in [name(rnd, c) for c in rnd.hands[0]] and "QS" not in [name(rnd, c) for c in rnd.hands[0]]
    assert res.shown[0].top == "triple-onion" and res.winner == 0
    rnd, res = play(onion(), [LADY_HAND, TRIPLE_THIN], pack="ACo 5S")
    assert rnd.asked == {(0, "lady")} and res.shown[0].top == "double-onion" and res.winner == 1


# -- #4 ii the Lady when eights are wild -----------------------------------------------------------------------------
LADY_WILD = ["QS AC KC AH KH 2S 3S 4S 5S 6D", "AD KD ASt KSt 2C 3C 4C 5C 6C 7D", "ACo KCo ACu QH 2H 3H 4H 5H 6H 7H"]


def test_lady_wild_devalues_an_ace_of_every_other_player_but_not_the_declarers():
    rnd, res = play(onion(), LADY_WILD, after=NULLS, dealer=1, yes={(0, "lady-wild")})
    assert rnd.targets("lady-wild") == {1, 2}
    assert res.shown[0].top == "double-onion" and stand_in_values(rnd, res, 0) == {}
    for seat in (1, 2):
        assert res.shown[seat].top != "double-onion"
        (devalued,) = stand_in_values(rnd, res, seat).items()
        assert devalued[0].startswith("A") and devalued[1] == (1,)
    assert res.winner == 0
    rnd, res = play(onion(), LADY_WILD, after=NULLS, dealer=1)
    assert [res.shown[s].top for s in range(3)] == ["double-onion"] * 3 and res.winner == 1


def test_lady_wild_devalues_a_wild_eight_that_would_stand_for_an_ace_of_eleven():
    # "may affect cards, in any grouping, which, by being wild or by other means, would otherwise be played with value
    # eleven": two wild eights standing for aces make a Double Onion, which the Lady breaks.
    eights = "8S KD 8H QC 2C 3D 5S 9H 7C 4D"
    lady = "QS 2H 3H 4H 5H 6H 7S 9S 10C 10D"
    rnd, res = play(onion(), [lady, eights], after=NULLS, yes={(0, "lady-wild")})
    assert "lady-wild" in rnd.declared and res.shown[1].top != "double-onion"
    assert [did for _, did in res.shown[1].wild_devalued] == ["lady"] and stand_in_values(rnd, res, 1) == {}
    rnd, res = play(onion(), [lady, eights], after=NULLS)
    assert (0, "lady-wild") in rnd.asked and res.shown[1].top == "double-onion" and res.shown[1].groups[0].wild == 2


def test_lady_wild_spares_the_aces_of_a_great_onion():
    rnd, res = play(onion(), ["QS 2C 3C 4C 5C 6H 7H 9S 9C 10D", GREAT], after=NULLS, yes={(0, "lady-wild")})
    assert "lady-wild" in rnd.declared and res.shown[1].top == "great-onion" and stand_in_values(rnd, res, 1) == {}


# -- #5 i Fate -------------------------------------------------------------------------------------------------------
LADY_TRIPLE = "QS AC KC AH KH AD KD 2D 3D 9S"
FATE_DOUBLE = "KCu AS KS ASw JSw 2C 3C 4C 5H 6H"


def test_fate_zeroes_the_aces_of_the_player_who_declared_the_lady():
    rnd, res = play(onion(), [LADY_TRIPLE, FATE_DOUBLE], pack="5D 6D 7H 9H", yes={(0, "lady"), (1, "fate")},
                    choose=["5D", "7H"])
    assert rnd.in_play[-2:] == [("lady", 0), ("fate", 1)] and rnd.targets("fate") == {0}
    assert "KCu" not in [name(rnd, c) for c in rnd.hands[1]] and "KCu" in [name(rnd, c) for c in rnd.beside]
    assert stand_in_values(rnd, res, 0) == {"AC": (0,), "AH": (0,), "AD": (0,)}
    assert not any(gid.endswith("onion") and "A" in cards for gid, cards in group_cards(rnd, res, 0))
    assert res.shown[1].top == "double-onion" and stand_in_values(rnd, res, 1) == {}, "Fate's own aces count"
    assert res.winner == 1
    rnd, res = play(onion(), [LADY_TRIPLE, FATE_DOUBLE], pack="5D 6D 7H 9H", yes={(0, "lady")}, choose=["5D"])
    assert (1, "fate") in rnd.asked and res.shown[0].top == "triple-onion" and res.winner == 0


def test_fate_is_not_offered_before_the_lady_is_declared():
    rnd = fixed(onion(), [LADY_TRIPLE, FATE_DOUBLE], pack="5D 6D 7H 9H")
    rnd.bet(0, "declare", False)
    assert rnd.asks is None and "fate" not in rnd.declared


# -- #5 ii Fate when eights are wild, and the Lady against Fate ------------------------------------------------------
FATE_WILD = "KCu AC KC AH KH 2S 3S 4S 9D 10D"  # the king of cups and a Double Onion
WILD_TRIPLE = "8C 8S 8H QH JH KD 2D 3D 4D 5D"  # a Triple Onion while the eights are wild


def wild_royal_for(rnd: Round, seat: int) -> bool:
    """Whether three eights make a wild royal under the rules in play for the seat."""
    eights = parse_hands(rnd.rules.deck, ["8Cu 8Co 8D"])[0]
    return "wild-royal" in [g.id for g in rnd.seat_evaluator(seat, HandEvaluator(rnd.rules)).evaluate(eights).groups]


def test_fate_wild_stops_eights_being_wild_for_everyone():
    rnd, res = play(onion(), [FATE_WILD, WILD_TRIPLE], after=NULLS, yes={(0, "fate-wild")})
    assert res.shown[1].top != "triple-onion" and all(g.wild == 0 for g in res.shown[1].groups) and res.winner == 0
    assert not wild_royal_for(rnd, 0) and not wild_royal_for(rnd, 1)
    rnd, res = play(onion(), [FATE_WILD, WILD_TRIPLE], after=NULLS)
    assert (0, "fate-wild") in rnd.asked and res.shown[1].top == "triple-onion" and res.winner == 1
    assert wild_royal_for(rnd, 0) and wild_royal_for(rnd, 1)


def test_lady_against_fate_makes_the_eights_of_its_declarer_wild_again():
    lady_eights = "QS 8C 8S 8H QH JH KD 2D 3D 4D"
    rnd, res = play(onion(), [FATE_WILD, lady_eights], after=NULLS, yes={(0, "fate-wild"), (1, "lady-against-fate")})
    assert rnd.in_play[-2:] == [("fate-wild", 0), ("lady-against-fate", 1)] and rnd.targets("lady-against-fate") == {1}
    assert res.shown[1].top == "triple-onion" and res.shown[1].groups[0].wild == 3 and res.winner == 1
    assert wild_royal_for(rnd, 1) and not wild_royal_for(rnd, 0)
    rnd, res = play(onion(), [FATE_WILD, lady_eights], after=NULLS, yes={(0, "fate-wild")})
    assert (1, "lady-against-fate") in rnd.asked and res.shown[1].top != "triple-onion" and res.winner == 0


def test_lady_against_fate_is_never_for_the_player_who_declared_fate_wild():
    both = "KCu QS 8C 8S 8H QH JH KD 2D 3D"
    rnd, res = play(onion(), [both, "AC KC AH KH 2S 3S 4S 9D 10D 5C"], after=NULLS,
                    yes={(0, "fate-wild"), (0, "lady-against-fate")})
    assert "fate-wild" in rnd.declared and "lady-against-fate" not in rnd.declared
    assert (0, "lady-against-fate") not in rnd.asked
    assert all(g.wild == 0 for g in res.shown[0].groups) and res.winner == 1
    rnd, res = play(onion(), [both, "AC KC AH KH 2S 3S 4S 9D 10D 5C"], after=NULLS)
    assert res.shown[0].top == "triple-onion" and res.winner == 0, "not declaring Fate keeps hir eights wild"


# -- #6 Great A'Tuin -------------------------------------------------------------------------------------------------
ATUIN = "QCo AC AH 2S 9S 3D 4D 5D 6D 7C"  # a nine lowered to one, a two raised to a picture
ATUIN_OTHER = "AD KD ASt QSt ACu 2C 9H 5H 6H 10H"  # would gain a pontoon the same way


def test_a_tuin_moves_eight_points_between_two_of_the_declarers_cards():
    rnd, res = play(onion(), [ATUIN, ATUIN_OTHER], dealer=1, yes={(0, "a-tuin")})
    assert stand_in_values(rnd, res, 0) == {"2S": (10,), "9S": (1,)}
    assert ("double-onion", "AC AH 2S QCo") in group_cards(rnd, res, 0) and res.winner == 0
    rnd, res = play(onion(), [ATUIN, ATUIN_OTHER], dealer=1)
    assert (0, "a-tuin") in rnd.asked and res.shown[0].top == "six-card-onion" and res.winner == 1


def test_a_tuin_shifts_for_the_declarer_only():
    rnd, res = play(onion(), [ATUIN, ATUIN_OTHER], dealer=1, yes={(0, "a-tuin")})
    assert rnd.targets("a-tuin") == {0} and res.shown[1].top == "double-onion" and stand_in_values(rnd, res, 1) == {}
    declarers = rnd.seat_evaluator(0, HandEvaluator(rnd.rules)).evaluate(rnd.hands[1])
    assert declarers.top == "triple-onion", "under the declarer's rules the other hand would shift to a Triple Onion"


# -- #7 the Elephants ------------------------------------------------------------------------------------------------
ELEPHANTS = "QCo 9C 9D 10H 10S 2H 3H 4S 5S 7S"


def test_elephants_four_nines_and_tens_make_a_double_onion_for_the_declarer_only():
    six_and_elephants = "AS 2C 3C 4D 5D 6H 9H 9S 10C 10D"  # a six-card onion, and four nines and tens of its own
    rnd, res = play(onion(), [ELEPHANTS, six_and_elephants], yes={(0, "elephants")})
    assert ("elephants", "9C 9D 10S 10H") in group_cards(rnd, res, 0) and res.shown[0].ranks[0] == 129
    assert rnd.targets("elephants") == {0} and res.shown[1].top == "six-card-onion" and res.winner == 0
    declarers = rnd.seat_evaluator(0, HandEvaluator(rnd.rules)).evaluate(rnd.hands[1])
    assert declarers.top == "elephants" and declarers.keys > res.shown[0].keys
    rnd, res = play(onion(), [ELEPHANTS, six_and_elephants])
    assert (0, "elephants") in rnd.asked and res.shown[0].top == "five-card-onion" and res.winner == 1


def test_elephants_any_other_double_onion_beats_the_elephants():
    double = "AD KD ASt QSt 2Sw 3Sw 5Cu 6Cu 7Cu JH"  # a Double Onion and only a four-card onion after it
    rnd, res = play(onion(), [ELEPHANTS, double], yes={(0, "elephants")})
    assert res.shown[0].top == "elephants" and res.shown[1].top == "double-onion"
    assert res.shown[0].ranks[1] > res.shown[1].ranks[1], "the Elephants have the better second grouping"
    assert res.winner == 1


# -- #8 i the Sender of Eight ----------------------------------------------------------------------------------------
SENDER_EIGHT = "AC KC AH KH 8D 2S 3S 4D 5H 7D"  # a Double Onion, and a six-card onion with a null eight
SENDER_JD = "JD AS KS ASt QSt 2C 3C 4C 5C 7H"  # the jack of diamonds; a Double Onion and a five-card onion


def test_sender_a_visible_jack_of_diamonds_zeroes_the_aces_of_a_player_who_uses_an_eight():
    rnd, res = play(onion(), [SENDER_EIGHT, SENDER_JD], dealer=1, up=("JD",))
    assert "sender" in rnd.declared
    assert res.shown[0].top == "double-onion" and "8D" in [name(rnd, c) for c in res.shown[0].unused], \
        "the player keeps hir aces by leaving the eight out"
    assert res.tied == (1, 0) and res.winner == 1
    rnd, res = play(onion(), [SENDER_EIGHT, SENDER_JD], dealer=1)
    assert "sender" not in rnd.declared and res.shown[0].groups[1].id == "six-card-onion" and res.winner == 0
    # A hand better off with its eights than its ace: the ace counts nothing.
    rnd = fixed(onion(), [SENDER_EIGHT, SENDER_JD], dealer=1, up=("JD",))
    ev = rnd.seat_evaluator(0, HandEvaluator(rnd.rules))
    shown = ev.evaluate(parse_hands(rnd.rules.deck, ["AC 2S 3S 4D 5H 7D 8D 8H 9C 10S"])[0])
    assert shown.top == "seven-card-onion" and [ev.deck.values[s] for _, s in shown.stand_ins] == [(0,)]


# -- #8 ii the Sender of Eight when eights are wild ------------------------------------------------------------------
def test_sender_wild_is_declared_at_the_deal_and_its_card_lies_face_up_for_everyone():
    rules = onion()
    seed = next(s for s in range(1, 500) if "sender-wild" in Round(rules, 4, seed=s, after=NULLS).declared)
    rnd = Round(rules, 4, seed=seed, after=NULLS)
    holder = rnd.declarer("sender-wild")
    (event,) = [e for e in rnd.events if e["type"] == "declare"]
    (jd,) = event["cards"]
    assert name(rnd, jd) == "JD" and event["seat"] == holder and jd in rnd.view(holder)["face_up"]
    assert all(jd in rnd.view(s)["others"][holder]["face_up"] for s in range(4) if s != holder)
    plain = Round(rules, 4, seed=seed)  # the same deal in a round where eights are not wild
    assert jd in plain.hands[holder] and jd not in plain.face_up[holder] and "sender-wild" not in plain.declared


def test_sender_wild_zeroes_every_ace_and_no_wild_eight_stands_for_an_ace():
    jd_seven = "JD 2C 2D 3C 3D 3H 4H 4S 9C 9D"  # a seven-card onion with no ace in it
    eights_aces = "8C 8S QH KH AD 5C 5D 6C 7C 7D"  # wild eights as aces make pontoons
    rnd, res = play(onion(), [jd_seven, eights_aces], after=NULLS, dealt=True)
    assert ("sender-wild", 0) in rnd.in_play and card(rnd, "JD") in rnd.face_up[0]
    rules_in_play = rnd.seat_evaluator(1, HandEvaluator(rnd.rules)).deck
    assert {rules_in_play.values[c] for c in range(rules_in_play.size) if rules_in_play.ranks[rules_in_play.rank[c]] == "A"} == {(0,)}
    assert not {"two-card-onion", "double-onion", "triple-onion"} & {g.id for g in res.shown[1].groups}, \
        "no pontoon: the ace counts nothing and the eights may not stand for aces"
    assert res.winner == 0
    rnd, res = play(onion(), [jd_seven, eights_aces], after=NULLS)
    assert "sender-wild" not in rnd.declared and res.shown[1].top == "double-onion" and res.winner == 1


def test_sender_wild_keeps_eights_made_wild_again_by_the_lady_against_fate_from_standing_for_aces():
    fate_seven = "KCu JD 2C 2D 3C 3D 3H 4H 4S 9C"
    lady_eights = "QS 8C 8S QH KH 5C 5D 6C 7C 7D"
    rnd, res = play(onion(), [fate_seven, lady_eights], after=NULLS, dealt=True,
                    yes={(0, "fate-wild"), (1, "lady-against-fate")})
    assert rnd.declared[-3:] == ["sender-wild", "fate-wild", "lady-against-fate"]
    assert res.shown[1].top != "double-onion", "a pontoon of a wild eight needs it to stand for an ace"
    assert res.winner == 0


# -- #9 Death --------------------------------------------------------------------------------------------------------
TWO_PICTURES = "AC KC AS KS 9D 7D 7C 6S 5H 2D"  # a Double Onion with only two pictures in the hand
WITH_DEATH = "AH KH AD QD KSw 9S 7S 6D 5S 2S"  # a Double Onion, and the king of swords for a third picture


def test_death_a_visible_king_of_swords_takes_a_double_onion_from_a_hand_of_two_pictures():
    rnd, res = play(onion(), [TWO_PICTURES, WITH_DEATH], up=("KSw",))
    assert "death" in rnd.declared and res.shown[0].top != "double-onion" and res.shown[1].top == "double-onion"
    assert res.winner == 1
    rnd, res = play(onion(), [TWO_PICTURES, WITH_DEATH])
    assert "death" not in rnd.declared and res.shown[0].top == "double-onion" and res.winner == 0


# -- #9 ii Death when eights are wild --------------------------------------------------------------------------------
THREE_PICTURES = "AC KC AS KS ACo JCo 9H 9S 10H 10S"  # a Triple Onion with only three pictures
DEATH_FIVE = "AH KH AD QD KSw 2C 3C 4C 5D 7D"  # a Double Onion, a five-card onion and the king of swords


def test_death_wild_also_breaks_a_triple_onion():
    rnd, res = play(onion(), [THREE_PICTURES, DEATH_FIVE], after=NULLS, up=("KSw",))
    assert "death-wild" in rnd.declared and res.shown[0].top == "double-onion" and res.winner == 1
    rnd, res = play(onion(), [THREE_PICTURES, DEATH_FIVE], after=NULLS)
    assert "death-wild" not in rnd.declared and res.shown[0].top == "triple-onion" and res.winner == 0
    rnd, res = play(onion(), [THREE_PICTURES, DEATH_FIVE], up=("KSw",))
    assert "death" in rnd.declared and res.shown[0].top == "triple-onion" and res.winner == 0, \
        "Death when eights are not wild leaves the Triple Onion alone"


# -- #10 the Archchancellor ------------------------------------------------------------------------------------------
ARCH = "JSt 2H 3H 4H 2Sw 3Sw 4Sw 6H 6C 10C"
ARCH_OTHERS = [WITH_DEATH, TWO_PICTURES, "3Co 4Co 5Co 6Co 9Co 10Co 2St 3St 4St 5St"]


def test_archchancellor_the_king_of_swords_is_laid_face_up_and_every_other_player_reveals_a_card():
    rnd = fixed(onion(), [ARCH] + ARCH_OTHERS)
    assert rnd.asks == (0, "declare") and rnd.declaring == "archchancellor"
    rnd.bet(0, "declare", True)
    ksw = card(rnd, "KSw")
    assert ksw in rnd.face_up[1] and {"type": "compelled", "seat": 1, "cards": [ksw]} in rnd.events
    assert "death" in rnd.declared and rnd.unheld == set()
    assert rnd.asks == (2, "reveal")
    rnd.bet(2, "reveal", card(rnd, "2D"))
    assert rnd.asks == (3, "reveal")
    rnd.bet(3, "reveal", card(rnd, "3Co"))
    assert card(rnd, "2D") in rnd.face_up[2] and card(rnd, "3Co") in rnd.face_up[3] and rnd.asks is None
    res = rnd.showdown(HandEvaluator(rnd.rules))
    assert res.shown[2].top != "double-onion" and res.winner == 1, "Death has taken the two-picture Double Onion"
    rnd, res = play(onion(), [ARCH] + ARCH_OTHERS)
    assert "death" not in rnd.declared and res.shown[2].top == "double-onion" and res.winner == 2


def test_archchancellor_the_declarers_eights_count_nothing_and_take_no_part_in_onions():
    eights = "JSt 7C 6D 8C 8D 5C 2S 3S 4S 9H"  # a seven-card onion trumped up by two null eights
    six = "KSw AC 2C 3C 4C 5D 6S 9S 10S 10D"
    rnd, res = play(onion(), [eights, six], yes={(0, "archchancellor")})
    assert stand_in_values(rnd, res, 0) == {"8C": (0,), "8D": (0,)}
    assert not any(gid.endswith("onion") and "8" in cards for gid, cards in group_cards(rnd, res, 0))
    assert res.winner == 1
    rnd, res = play(onion(), [eights, six])
    assert res.shown[0].top == "seven-card-onion" and res.shown[0].groups[0].nulls == 2 and res.winner == 0


def test_archchancellor_the_declarers_eight_makes_no_broken_royal():
    # A broken royal is a special three-card onion: 6 7 8 counting 21. An eight that may not count eight makes none.
    arch = "JSt 8H 3C 5S 6D 7H 9S 2D 10C KD"
    rnd, res = play(onion(), [arch, ARCH_OTHERS[2]], yes={(0, "archchancellor")})
    assert stand_in_values(rnd, res, 0) == {"8H": (0,)}
    assert "broken-royal" not in [g.id for g in res.shown[0].groups]
    assert not any(gid.endswith(("onion", "royal")) and "8H" in cards.split() for gid, cards in group_cards(rnd, res, 0))
    declarers = rnd.seat_evaluator(0, HandEvaluator(rnd.rules))
    assert "broken-royal" not in declarers.evaluate(parse_hands(rnd.rules.deck, ["6C 7C 8C"])[0]).holds
    assert "broken-royal" in HandEvaluator(rnd.rules).evaluate(parse_hands(rnd.rules.deck, ["6C 7C 8C"])[0]).holds


UNHELD_ARCH = "JSt KC AH KH 2S 3S 4S 5S 7S 9C"  # the jack of staves wild as an ace makes a second pontoon
SEVEN = "2C 2D 3C 3D 4H 4D 3H 9D 10H 6C"  # a seven-card onion


def test_archchancellor_with_no_king_of_swords_held_the_jack_of_staves_is_wild_for_the_declarer():
    rnd, res = play(onion(), [UNHELD_ARCH, SEVEN], yes={(0, "archchancellor")})
    assert rnd.unheld == {"archchancellor"} and {"type": "unheld", "modifier": "archchancellor"} in rnd.events
    assert ("archchancellor", "unheld") in rnd.entries_for(0) and ("archchancellor", "unheld") not in rnd.entries_for(1)
    top = res.shown[0].groups[0]
    assert (top.id, top.wild) == ("double-onion", 1) and "JSt" in group_cards(rnd, res, 0)[0][1] and res.winner == 0
    rnd, res = play(onion(), [UNHELD_ARCH, SEVEN])
    assert res.shown[0].top == "five-card-onion" and res.winner == 1


def test_archchancellor_a_king_of_swords_in_a_folded_hand_is_not_held():
    rnd = fixed(onion(), [UNHELD_ARCH, SEVEN, "KSw 2Co 3Co 4Co 5Co 6Co 7Co 9Co 10Co 5Cu"])
    rnd.fold(2)
    res = finish(rnd, yes={(0, "archchancellor")})
    assert rnd.unheld == {"archchancellor"} and "death" not in rnd.declared and res.winner == 0


# -- #11 the Fool ----------------------------------------------------------------------------------------------------
FOOL = "JC KD QH JS 10H KSt QSt 2D 3H 4S"  # the jack of clubs and a triple bagel
FOOL_DOUBLE = "AC KC AS KS 9D 7D 7C 6S 5H 2C"  # a Double Onion


def test_fool_bagels_and_onions_change_places():
    rnd, res = play(onion(), [FOOL, FOOL_DOUBLE], yes={(0, "fool")})
    assert res.shown[0].top == "triple-bagel" and res.shown[0].ranks[0] == 140
    assert res.shown[1].top == "double-bagel" and res.shown[1].ranks[0] == 130, "the Double Onion ranks below"
    assert res.winner == 0
    rnd, res = play(onion(), [FOOL, FOOL_DOUBLE])
    assert (0, "fool") in rnd.asked and res.shown[1].top == "double-onion" and res.winner == 1


def test_fool_the_great_bagel_may_be_crippled_like_the_great_onion():
    great_bagel = "JC QC JS QH 10H KSt JSw 10D KH 10S"
    double = "AD KD ASt QD 2D 3D 4St 5St 6Cu 7Cu"
    rnd, res = play(onion(), [great_bagel, NINE_RUN, double], yes={(0, "fool")})
    assert res.shown[0].top == "great-bagel" and res.shown[0].ranks[0] == 155 and res.winner == 1
    rnd, res = play(onion(), [great_bagel, NINE_RUN, double])
    assert res.shown[2].top == "double-onion" and res.winner == 2


def test_fool_keeps_double_onions_down_when_death_comes_into_play_after_it():
    bagels = "JC KD QH JS 10H 2D 3H 4S 5C 6S"  # the jack of clubs, a double bagel and a four-card onion
    arch = "JSt 2Sw 3Sw 4Sw 5Sw 6Sw 7Sw 9Sw 10Sw 2St"
    rnd, res = play(onion(), [bagels, arch, DEATH_FIVE], yes={(0, "fool"), (1, "archchancellor")}, reveal=["6S"])
    assert rnd.declared[-3:] == ["fool", "archchancellor", "death"]
    assert res.shown[2].top != "double-onion" or res.shown[2].ranks[0] == 11
    assert res.winner == 0


# -- the showdown as the seed states it, and the amendments proposed at its end ----------------------------------------
@functools.lru_cache(maxsize=None)
def game(name: str = "onion", *changes: str):
    """A shipped ruleset of Cripple Mr Onion (the game, or a variant of it) without money: the special cards are
    declared as the hands are laid down, from the Elder round to the dealer, unless the variant says otherwise."""
    data = amend(load_ruleset(name).data, "delete table.money").data
    for text in changes:
        data = amend(data, text).data
    return compile_data(data)


def test_at_the_showdown_the_hands_are_laid_down_from_the_elder_round_to_the_dealer():
    rnd, res = play(game(), ["2D 3D 4H 5S 6C 8H 9H 10S KH QD", "2H 3S 4C 5D 6H 7S 9C 10D KSt QSw", FOOL_DOUBLE], dealer=1)
    laid = [e["seat"] for e in rnd.events if e["type"] == "lay-down"][-3:]  # `fixed` set the hands after a first showdown
    assert laid == [2, 0, 1] and rnd.showdown_order == [2, 0, 1] and res.winner == 2


def test_the_fool_may_be_declared_only_before_the_first_hand_is_laid_down():
    # "If, immediately before Showdown, the jack of clubs is declared": the Elder shows first, so the dealer's Fool
    # comes too late; the Elder's may still be declared.
    rnd, res = play(game(), [FOOL, FOOL_DOUBLE], dealer=0, yes={(0, "fool")})
    assert (0, "fool") not in rnd.asked and "fool" not in rnd.declared and res.winner == 1
    rnd, res = play(game(), [FOOL, FOOL_DOUBLE], dealer=1, yes={(0, "fool")})
    assert "fool" in rnd.declared and res.winner == 0, "held by the Elder, the first to show"


def test_amendment_declaration_round_every_holder_is_asked_before_any_hand_is_laid_down():
    rnd, res = play(game("onion-declaration-round"), [FOOL, FOOL_DOUBLE], dealer=0, yes={(0, "fool")})
    assert rnd.rules.table.declarations == "round" and "fool" in rnd.declared and res.winner == 0
    assert not [e for e in rnd.events if e["type"] == "lay-down"], "the hands are laid down together at the showdown"
    assert rnd.laid == {1: rnd.entries_for(1), 0: rnd.entries_for(0)}, "after every declaration"


# The Elder lays down a Double Onion and a five-card onion trumped up by a null eight; then the Archchancellor, declared
# by the next player, makes the dealer show the king of swords (Death comes in) and the Elder reveal the jack of
# diamonds (the Sender of Eight comes in): the Elder's hand is changed twice after it was laid down.
REFORM_HANDS = ["KSw 2C 3C 5S 6S 7D 9S 10S 4D 5C", "AC KD AH QH JD 3S 5D 6C 7H 8D", "JSt AS KS ASw QSw 2H 9C 10D 3D 4H"]


def test_a_beaten_hand_may_always_be_rearranged_so_it_is_judged_in_its_best_arrangement():
    rnd, res = play(game(), REFORM_HANDS, dealer=0, yes={(2, "archchancellor")}, reveal=["JD"])
    assert rnd.declared[-3:] == ["archchancellor", "death", "sender"] and rnd.reformed == {}
    assert [g.id for g in res.shown[1].groups] == ["double-onion", "four-card-onion"], "the eight left out, aces kept"
    assert res.winner == 1


def test_amendment_reform_once_a_hand_laid_down_is_arranged_again_only_after_the_first_change():
    rnd, res = play(game("onion-reform-once"), REFORM_HANDS, dealer=0, yes={(2, "archchancellor")}, reveal=["JD"])
    assert rnd.rules.table.reform == "once" and set(rnd.reformed) == {1}
    assert [mid for mid, _ in rnd.reformed[1]] == ["crippling", "null-eights", "death"], "arranged again under Death"
    # Laid as a Double Onion and a five-card onion with a null eight; the Sender then zeroes the aces of a hand that
    # uses an eight, or breaks the onion the eight is in: only the Double Onion is left.
    assert [g.id for g in res.shown[1].groups] == ["double-onion"] and res.winner == 2
    rnd, res = play(game("onion", "set table.reform never"), REFORM_HANDS, dealer=0, yes={(2, "archchancellor")},
                    reveal=["JD"])
    assert rnd.arranged_under(1) == rnd.laid[1] and [g.id for g in res.shown[1].groups] == ["double-onion"]


def test_amendment_wild_ties_between_equal_groups_the_one_with_fewer_wild_cards_loses():
    plain_double = "AC KC AS KS 2D 3D 4D 5D 9H 7C"  # a Double Onion and a five-card onion, no wild card
    wild_double = "8C KH 8S QH 2H 3H 4S 5S 9D 7D"  # the same with two wild eights as the aces
    rnd, res = play(game(), [plain_double, wild_double], dealer=0, after=NULLS)
    assert res.shown[0].keys == res.shown[1].keys and res.tied == (0, 1) and res.winner == 0, "the dealer wins the tie"
    rnd, res = play(game("onion-wild-ties"), [plain_double, wild_double], dealer=0, after=NULLS)
    assert rnd.rules.hands.wild_ties == "more-wins" and not res.tied and res.winner == 1
