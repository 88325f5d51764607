"""Modifiers at the table: what brings them into play (a declared or visible card, every round's start, what the round
before showed), their conditions, whose hands they change, compulsory declarations, compelled and revealed cards, the
declaration queue, the bots' choices, and the findings for a ruleset that names what does not exist."""

from __future__ import annotations

import functools
import random
from dataclasses import replace

import pytest

from kallisti.errors import KallistiError
from kallisti.interpreter.amend import amend, compile_data
from kallisti.interpreter.betting import BetError
from kallisti.interpreter.hands import HandEvaluator, parse_hands
from kallisti.interpreter.table import Round
from kallisti.model.ruleset import load_ruleset
from kallisti.solver.table import bet_choice, card_to_reveal, play_bot_turns, simulate_rounds

TRIPLE_BAGELS = "KD QH JS 10H KSw QSt JC 2D 3H 4S"    # a broken flush and three bagels; the jack of clubs
DOUBLE_ONION = "AC KC AS QS 9D 8D 7C 6S 5H 2C"        # a Double Onion, and the five of hearts
BAGELS_NO_KSW = "KD QH JS 10H KH QSt JSt 2D 3H 4S"    # three bagels again, the jack of staves, no king of swords
WITH_KSW = "AC KC AS QS 9D 8D 7C 6S 5H KSw"           # a Double Onion and the king of swords
THIRD = "5Sw 6St 8Cu 9Co 10D 7H 2Co 3Cu 4Sw 6H"
FOURTH = "2Sw 3St 4Co 5Cu 6Sw 7St 8Co 9Cu 10Sw AH"

RAISE_TRIPLE_BAGEL = '["set hands.groupings.triple-bagel.rank 300"]'
SINK_DOUBLE_ONION = '["set hands.groupings.double-onion.rank 5"]'


@functools.lru_cache(maxsize=None)
def shipped():
    return load_ruleset("onion")


@functools.lru_cache(maxsize=None)
def plain_data():
    """The non-gambling rules without the shipped modifiers, as data a test adds its own modifiers to."""
    return without_modifiers(amend(shipped().data, "delete table.money").data)


def without_modifiers(data):
    """The data without the shipped modifiers, whose declarations are asked in a round of their own before the showdown,
    the most senior first (`table.declarations: round`): the queue these tests look at."""
    data = amend(data, "set table.declarations round").data
    return amend(data, "set modifiers {}").data  # all at once: the shipped ones name each other


@functools.lru_cache(maxsize=None)
def variant(*modifiers: str, money: bool = False):
    """The plain rules (or the shipped rules, with money) with the modifiers `id: {...}` added, in order."""
    data = without_modifiers(shipped().data) if money else plain_data()
    for text in modifiers:
        mid, _, body = text.partition(": ")
        data = amend(data, f"add modifiers.{mid} {body}").data
    return compile_data(data)


def fixed(rules, texts: list[str], dealer: int = 0, after: frozenset = frozenset()) -> Round:
    """A round of `rules` whose players hold these hands after the second deal, every card face down and nothing
    declared, asked who may declare (a position set by hand for a test)."""
    rnd = Round(rules, len(texts), dealer=dealer, after=after)
    draw_and_pass(rnd)
    rnd.hands = parse_hands(rules.deck, texts)
    rnd.face_up = [set() for _ in texts]
    rnd.in_play = [e for e in rnd.in_play if rnd.modifiers[e[0]].trigger in ("always", "after")]  # the round's start
    rnd.offer, rnd.revealing = [], []
    rnd._before_showdown()
    return rnd


def card(rnd: Round, name: str) -> int:
    return next(c for h in rnd.hands for c in h if rnd.rules.deck.ascii_name(c) == name)


def modifier_events(rnd: Round) -> list[dict]:
    kinds = ("modifier", "declare", "compelled", "reveal", "unheld")
    return [{k: v for k, v in e.items() if k != "cards"} for e in rnd.events if e["type"] in kinds]


# -- always and after: modifiers in play from the start of a round ------------------------------------------------
ALWAYS = f"hot: {{always: true, unless: [wild], changes: {RAISE_TRIPLE_BAGEL}}}"
AFTER_NULLS = 'wild: {after: nulls, changes: ["set hands.groupings.great-bagel.rank 15"]}'


def test_an_always_modifier_is_in_play_from_the_deal():
    rnd = Round(variant(AFTER_NULLS, ALWAYS), 2)
    assert rnd.in_play == [("hot", None)] and rnd.declared == ["hot"]
    first_deal = next(i for i, e in enumerate(rnd.events) if e["type"] == "deal")
    assert rnd.events.index({"type": "modifier", "modifier": "hot"}) < first_deal


def test_an_always_modifier_stays_out_while_its_unless_modifier_is_in_play():
    rnd = Round(variant(AFTER_NULLS, ALWAYS), 2, after=frozenset({"nulls"}))
    assert rnd.declared == ["wild"], "`after` modifiers come first, and `hot` is never with `wild`"


class NullsShown(HandEvaluator):
    """An evaluator that marks every group as having used a null card (as a hand trumped up by a null would)."""

    def evaluate(self, cards, budget=None):
        e = super().evaluate(cards, budget)
        return replace(e, groups=tuple(replace(g, nulls=1) for g in e.groups))


def test_an_after_nulls_modifier_is_in_play_only_in_the_round_after_a_null_card_was_shown():
    rules = variant(AFTER_NULLS)
    first = fixed(rules, [TRIPLE_BAGELS, DOUBLE_ONION])
    shown = first.showdown(NullsShown(rules))
    assert shown.follows == frozenset({"nulls"})
    second = Round(rules, 2, after=shown.follows)
    assert second.declared == ["wild"] and {"type": "modifier", "modifier": "wild"} in second.events
    draw_and_pass(second)
    plain = second.showdown(HandEvaluator(rules))
    assert plain.follows == frozenset(), "no null card in this showdown"
    assert Round(rules, 2, after=plain.follows).declared == []


def test_a_round_without_a_showdown_follows_nothing():
    rnd = fixed(variant(AFTER_NULLS), [TRIPLE_BAGELS, DOUBLE_ONION])
    rnd.fold(1)
    assert rnd.showdown(NullsShown(rnd.rules)).follows == frozenset()


def draw_and_pass(rnd: Round) -> None:
    """Every player keeps hir cards and declares nothing."""
    while rnd.asks is not None:
        seat, what = rnd.asks
        rnd.exchange(seat, []) if what == "draw" else rnd.bet(seat, what, False)


# -- while, not_by and the declaration queue -----------------------------------------------------------------------
LADY = f"lady: {{declare: {{rank: 5, suit: hearts}}, to: declarer, changes: {RAISE_TRIPLE_BAGEL}}}"
FATE = f"fate: {{declare: {{rank: J, suit: clubs}}, while: [lady], to: lady, changes: {SINK_DOUBLE_ONION}}}"


def test_a_modifier_is_offered_only_while_the_one_it_waits_for_is_in_play():
    rnd = fixed(variant(LADY, FATE), [TRIPLE_BAGELS, DOUBLE_ONION])
    assert rnd.queue == [(1, "lady")], "the Fate's card is held, but the Lady is not in play"
    rnd.bet(1, "declare", False)
    assert rnd.phase == "showdown" and rnd.declared == []


def test_the_queue_offers_a_modifier_once_the_one_it_depends_on_is_declared():
    rnd = fixed(variant(LADY, FATE), [TRIPLE_BAGELS, DOUBLE_ONION])
    rnd.bet(1, "declare", True)
    assert rnd.asks == (0, "declare") and rnd.declaring == "fate"
    rnd.bet(0, "declare", True)
    assert rnd.in_play == [("lady", 1), ("fate", 0)] and rnd.phase == "showdown"


def test_no_seat_is_asked_about_the_same_modifier_twice():
    rnd = fixed(variant(LADY, FATE), [TRIPLE_BAGELS, DOUBLE_ONION])
    rnd.bet(1, "declare", True)
    rnd.bet(0, "declare", False)
    assert rnd.asked == {(1, "lady"), (0, "fate")} and rnd.asks is None


def test_one_card_may_serve_several_modifiers_each_asked_separately():
    two = (f"a: {{declare: {{rank: J, suit: clubs}}, changes: {RAISE_TRIPLE_BAGEL}}}",
           f"b: {{declare: {{rank: J, suit: clubs}}, changes: {SINK_DOUBLE_ONION}}}")
    rnd = fixed(variant(*two), [TRIPLE_BAGELS, DOUBLE_ONION])
    assert rnd.queue == [(0, "a"), (0, "b")]
    rnd.bet(0, "declare", True)
    assert rnd.asks == (0, "declare") and rnd.declaring == "b"


def test_not_by_keeps_a_player_who_declared_one_modifier_from_declaring_another():
    first = f"first: {{declare: {{rank: J, suit: clubs}}, changes: {RAISE_TRIPLE_BAGEL}}}"
    second = f"second: {{declare: {{rank: 2, suit: diamonds}}, not_by: [first], changes: {SINK_DOUBLE_ONION}}}"
    rnd = fixed(variant(first, second), [TRIPLE_BAGELS, DOUBLE_ONION])
    assert rnd.queue == [(0, "first"), (0, "second")]
    rnd.bet(0, "declare", True)
    assert rnd.asks is None and rnd.declared == ["first"]
    rnd = fixed(variant(first, second), [TRIPLE_BAGELS, DOUBLE_ONION])
    rnd.bet(0, "declare", False)
    assert rnd.asks == (0, "declare") and rnd.declaring == "second"


# -- to: whose hands a modifier changes --------------------------------------------------------------------------
def test_to_declarer_changes_only_the_declarers_hand_and_hence_the_winner():
    boast = f"boast: {{declare: {{rank: J, suit: clubs}}, to: declarer, changes: {RAISE_TRIPLE_BAGEL}}}"
    rnd = fixed(variant(boast), [TRIPLE_BAGELS, DOUBLE_ONION])
    rnd.bet(0, "declare", False)
    assert rnd.showdown(HandEvaluator(rnd.rules)).winner == 1, "without it the Double Onion wins"
    rnd = fixed(variant(boast), [TRIPLE_BAGELS, DOUBLE_ONION])
    rnd.bet(0, "declare", True)
    assert rnd.entries_for(0) == (("boast", "changes"),) and rnd.entries_for(1) == () and rnd.common_entries() == ()
    result = rnd.showdown(HandEvaluator(rnd.rules))
    assert result.shown[0].top == "triple-bagel" and result.shown[0].ranks[0] == 300
    assert result.shown[1].top == "double-onion" and result.shown[1].ranks[0] == 130
    assert result.winner == 0


def test_to_others_changes_every_hand_but_the_declarers():
    spite = f"spite: {{declare: {{rank: J, suit: clubs}}, to: others, changes: {SINK_DOUBLE_ONION}}}"
    rnd = fixed(variant(spite), [TRIPLE_BAGELS, DOUBLE_ONION, THIRD])
    rnd.bet(0, "declare", True)
    assert rnd.targets("spite") == {1, 2}
    result = rnd.showdown(HandEvaluator(rnd.rules))
    base = HandEvaluator(rnd.rules)
    assert result.shown[0].ranks == base.evaluate(rnd.hands[0]).ranks
    assert result.shown[1].top != "double-onion"


def test_to_a_modifier_changes_the_hand_of_whoever_declared_that_modifier():
    rnd = fixed(variant(LADY, FATE), [TRIPLE_BAGELS, DOUBLE_ONION])
    rnd.bet(1, "declare", True)
    rnd.bet(0, "declare", True)
    assert rnd.targets("fate") == {1} and rnd.entries_for(1) == (("lady", "changes"), ("fate", "changes"))
    result = rnd.showdown(HandEvaluator(rnd.rules))
    assert result.shown[1].top != "double-onion", "the Lady's declarer holds the Double Onion Fate sinks"
    assert result.shown[0].ranks == HandEvaluator(rnd.rules).evaluate(rnd.hands[0]).ranks, "the Fate's declarer is spared"


def test_a_modifier_aimed_at_one_not_in_play_changes_nobody():
    free_fate = f"fate: {{declare: {{rank: J, suit: clubs}}, to: lady, changes: {SINK_DOUBLE_ONION}}}"
    rnd = fixed(variant(LADY, free_fate), [TRIPLE_BAGELS, DOUBLE_ONION])
    rnd.bet(0, "declare", True)  # the Fate, first: seat 0 is the most senior
    rnd.bet(1, "declare", False)
    assert rnd.declared == ["fate"] and rnd.targets("fate") == set()
    assert rnd.showdown(HandEvaluator(rnd.rules)).winner == 1


# -- must: declared as soon as the card is dealt ------------------------------------------------------------------
def first_dealt() -> tuple[int, str, str]:
    """The dealer's first card in round 0 of seed 5 at three seats, and its rank and suit (every kind is one card)."""
    deck = variant().deck
    dealt = Round(variant(), 3, dealer=1, seed=5).hands[1][0]
    kind = deck.kind[dealt]
    return dealt, deck.ranks[kind % len(deck.ranks)], deck.suits[kind // len(deck.ranks)].name


def test_a_must_modifier_is_declared_at_the_deal_and_shown_to_everyone():
    dealt, rank, suit = first_dealt()
    rules = variant(f"sender: {{declare: {{rank: {rank}, suit: {suit}}}, must: true, to: declarer, "
                    f"changes: {RAISE_TRIPLE_BAGEL}}}")
    rnd = Round(rules, 3, dealer=1, seed=5)
    assert rnd.in_play == [("sender", 1)]
    declared = next(e for e in rnd.events if e["type"] == "declare")
    assert declared == {"type": "declare", "seat": 1, "modifier": "sender", "cards": [dealt]}
    assert rnd.events.index(declared) < [i for i, e in enumerate(rnd.events) if e["type"] == "deal"][1]
    assert dealt in rnd.view(0)["others"][1]["face_up"] and dealt in rnd.view(2)["others"][1]["face_up"]
    draw_and_pass(rnd)
    assert ("sender" not in [mid for _, mid in rnd.asked]), "a compulsory declaration is never asked"


def test_a_must_modifier_waits_for_its_conditions_at_the_deal():
    dealt, rank, suit = first_dealt()
    rules = variant(AFTER_NULLS, f"sender: {{declare: {{rank: {rank}, suit: {suit}}}, must: true, while: [wild], "
                                 f"changes: {RAISE_TRIPLE_BAGEL}}}")
    assert Round(rules, 3, dealer=1, seed=5).declared == []
    assert Round(rules, 3, dealer=1, seed=5, after=frozenset({"nulls"})).declared == ["wild", "sender"]


# -- compel and reveal -------------------------------------------------------------------------------------------
ARCH_ALL = (f"arch: {{declare: {{rank: J, suit: staves}}, compel: {{rank: K, suit: swords}}, changes: {SINK_DOUBLE_ONION}, "
            f"unheld: {RAISE_TRIPLE_BAGEL}}}")
ARCH = (f"arch: {{declare: {{rank: J, suit: staves}}, compel: {{rank: K, suit: swords}}, to: declarer, "
        f"unheld: {RAISE_TRIPLE_BAGEL}}}")
OMEN = 'omen: {visible: {rank: K, suit: swords}, changes: ["set hands.groupings.great-bagel.rank 16"]}'


def compel_round() -> Round:
    return fixed(variant(ARCH, OMEN), [BAGELS_NO_KSW, WITH_KSW, THIRD, FOURTH])


def test_a_compelled_card_is_laid_face_up_and_every_other_player_reveals_one():
    rnd = compel_round()
    assert rnd.asks == (0, "declare") and rnd.declaring == "arch"
    rnd.bet(0, "declare", True)
    ksw = card(rnd, "KSw")
    assert ksw in rnd.face_up[1]
    assert {"type": "compelled", "seat": 1, "cards": [ksw]} in rnd.events
    assert "omen" in rnd.declared, "the king of swords face up brings its visible modifier into play"
    assert rnd.asks == (2, "reveal")
    with pytest.raises(BetError, match="face down"):
        rnd.bet(2, "reveal", rnd.hands[3][0])
    rnd.bet(2, "reveal", rnd.hands[2][4])
    assert rnd.hands[2][4] in rnd.face_up[2] and rnd.asks == (3, "reveal")
    with pytest.raises(BetError, match="face down"):
        rnd.bet(3, "reveal", rnd.hands[2][4])
    rnd.bet(3, "reveal", rnd.hands[3][0])
    assert [e["type"] for e in rnd.events[-2:]] == ["reveal", "reveal"]
    assert rnd.phase == "showdown" and rnd.unheld == set()
    assert ("arch", "unheld") not in rnd.entries_for(0), "the compelled card was held: the unheld changes do not apply"


def test_a_bot_reveals_a_card_its_best_partition_leaves_unused():
    rnd = compel_round()
    rnd.bet(0, "declare", True)
    ev = HandEvaluator(rnd.rules)
    unused = ev.evaluate(rnd.hands[2]).unused
    assert unused, "the test hand leaves some card out"
    (shown,) = bet_choice(rnd, 2, ev, "cautious", "reveal")
    assert shown == card_to_reveal(rnd, 2, ev) and shown in unused


def test_a_player_with_no_face_down_card_is_not_asked_to_reveal():
    rnd = compel_round()
    rnd.face_up[2] = set(rnd.hands[2])
    rnd.bet(0, "declare", True)
    assert rnd.asks == (3, "reveal")


def test_the_unheld_changes_apply_when_nobody_holds_the_compelled_card():
    rnd = fixed(variant(ARCH, OMEN), [BAGELS_NO_KSW, DOUBLE_ONION, THIRD, FOURTH])
    rnd.bet(0, "declare", True)
    assert {"type": "unheld", "modifier": "arch"} in rnd.events and rnd.unheld == {"arch"}
    assert rnd.phase == "showdown", "nothing is compelled, so nobody reveals"
    assert rnd.entries_for(0) == (("arch", "unheld"),) and rnd.entries_for(1) == ()
    result = rnd.showdown(HandEvaluator(rnd.rules))
    assert result.shown[0].ranks[0] == 300 and result.winner == 0


def test_a_person_at_the_terminal_names_the_card_to_reveal():
    from kallisti.cli.table_play import _person_bets

    rnd = compel_round()
    rnd.bet(0, "declare", True)
    out: list[str] = []
    names = ["ann", "bob", "cat", "dan"]
    assert _person_bets(rnd, 2, "reveal", names, iter(["KSw", "5Sw"]), out.append)
    text = "\n".join(out)
    assert "lay one of your face-down cards face up" in text and "refused: KSw is not face down in your hand" in text
    assert "cat lays 5Sw face up" in text and card(rnd, "5Sw") in rnd.face_up[2] and rnd.asks == (3, "reveal")


# -- the bots' declarations --------------------------------------------------------------------------------------
def test_a_bot_declares_what_raises_its_hand_or_changes_only_the_others():
    def choice(modifier: str, seat: int) -> tuple:
        rnd = fixed(variant(modifier), [TRIPLE_BAGELS, DOUBLE_ONION])
        return bet_choice(rnd, seat, HandEvaluator(rnd.rules), "bold", "declare")

    assert choice(f"boast: {{declare: {{rank: J, suit: clubs}}, to: declarer, changes: {RAISE_TRIPLE_BAGEL}}}", 0) == (True,)
    assert choice(f"spite: {{declare: {{rank: J, suit: clubs}}, to: others, changes: {SINK_DOUBLE_ONION}}}", 0) == (True,)
    assert choice(f"sink: {{declare: {{rank: 5, suit: hearts}}, to: declarer, changes: {SINK_DOUBLE_ONION}}}", 1) == (False,)
    idle = f"idle: {{declare: {{rank: 5, suit: hearts}}, to: declarer, changes: {RAISE_TRIPLE_BAGEL}}}"
    assert choice(idle, 1) == (False,), "no better, and it changes nobody else: not worth showing a card"


# -- conservation in bots' rounds with every new key -------------------------------------------------------------
def test_bot_rounds_with_the_new_keys_conserve_cards_and_chips_and_count_modifiers():
    keys = (AFTER_NULLS, ALWAYS, LADY, FATE,
            f"sender: {{declare: {{rank: 7, suit: hearts}}, must: true, to: declarer, changes: {RAISE_TRIPLE_BAGEL}}}",
            ARCH_ALL, OMEN)
    rules = variant(*keys, money=True)
    record = simulate_rounds(rules, 40, 3, ["cautious", "bold", "cautious", "bold"]).as_dict()  # checks every round
    assert record["played"] == 40 and "nulls_played" in record
    assert record["modifiers_in_play"].get("hot", 0) + record["modifiers_in_play"].get("wild", 0) == 40
    assert record["modifiers_in_play"].get("sender", 0) > 0 and record["modifiers_in_play"].get("arch", 0) > 0


def test_random_play_with_compels_keeps_every_card():
    rules = variant(ARCH, OMEN, LADY, FATE)
    rng = random.Random(4)
    ev = HandEvaluator(rules)
    reveals = 0
    for number in range(30):
        rnd = Round(rules, 4, dealer=number % 4, seed=11, number=number)
        while rnd.asks is not None:
            seat, what = rnd.asks
            if what == "draw":
                rnd.exchange(seat, rng.sample(rnd.hands[seat], rng.randint(0, 3)))
            elif what == "reveal":
                reveals += 1
                rnd.bet(seat, "reveal", rng.choice(rnd._face_down(seat)))
            elif what == "declare":
                rnd.bet(seat, "declare", True)
            else:
                play_bot_turns(rnd, ev, ["bold"] * 4)
            assert rnd.card_count() == rules.deck.size
        rnd.showdown(ev)
        assert rnd.card_count() == rules.deck.size
    assert reveals > 0


# -- findings ------------------------------------------------------------------------------------------------------
OWN = ("    queenly:\n      declare: {rank: Q, suit: cups}\n      changes: [set hands.groupings.bagel.rank 21]\n"
       "    seer:\n      visible: {rank: K, suit: coins}\n      changes: [set hands.groupings.bagel.rank 22]\n")


def load_variant(tmp_path, body: str):
    """A ruleset extending onion with two modifiers of its own (`queenly`, declared, and `seer`, visible), then `body`,
    whose first line is line 11 of the file."""
    path = tmp_path / "variant.yaml"
    path.write_text("extends: onion\ngame: A Variant\nadd:\n  modifiers:\n" + OWN + body, encoding="utf-8")
    return load_ruleset(str(path))


def only_finding(tmp_path, body: str):
    with pytest.raises(KallistiError) as exc:
        load_variant(tmp_path, body)
    (f,) = exc.value.findings
    return f


@pytest.mark.parametrize("key", ["while", "unless", "not_by"])
def test_an_unknown_modifier_in_a_condition_is_reported_at_its_name(tmp_path, key):
    f = only_finding(tmp_path, "    x:\n      declare: {rank: K, suit: cups}\n"
                               f"      changes: [set hands.groupings.bagel.rank 23]\n      {key}: [seer, queenlyy]\n")
    assert f.code == "modifier-unknown" and "'queenlyy'" in f.message and f.suggestion == "did you mean 'queenly'?"
    assert (f.pos.line, f.pos.column) == (14, len(f"      {key}: [seer, ") + 1)


def test_an_unknown_modifier_as_a_target_is_reported_at_it(tmp_path):
    f = only_finding(tmp_path, "    x:\n      declare: {rank: K, suit: cups}\n      changes: [set hands.groupings.bagel.rank 23]\n"
                               "      to: queenli\n")
    assert f.code == "modifier-unknown" and (f.pos.line, f.pos.column) == (14, 11) and f.suggestion == "did you mean 'queenly'?"


@pytest.mark.parametrize("trigger", ["always: true", "after: nulls", "visible: {rank: K, suit: cups}"])
@pytest.mark.parametrize("to", ["declarer", "others"])
def test_a_target_by_declarer_without_a_declarer_is_reported(tmp_path, trigger, to):
    f = only_finding(tmp_path, f"    x:\n      {trigger}\n      changes: [set hands.groupings.bagel.rank 23]\n      to: {to}\n")
    assert f.code == "modifier-no-declarer" and (f.pos.line, f.pos.column) == (14, 11)


def test_a_target_that_is_never_declared_is_reported(tmp_path):
    f = only_finding(tmp_path, "    x:\n      declare: {rank: K, suit: cups}\n      changes: [set hands.groupings.bagel.rank 23]\n"
                               "      to: seer\n")
    assert f.code == "modifier-no-declarer" and (f.pos.line, f.pos.column) == (14, 11)


def test_a_must_modifier_may_aim_at_its_declarer_and_a_modifier_at_a_declared_one(tmp_path):
    body = ("    x:\n      declare: {rank: K, suit: cups}\n      must: true\n      changes: [set hands.groupings.bagel.rank 23]\n"
            "      to: declarer\n    y:\n      always: true\n      to: queenly\n      changes: [set hands.groupings.bagel.rank 24]\n")
    rules = load_variant(tmp_path, body)
    assert [(m.id, m.to, m.trigger, m.must) for m in rules.modifiers[-2:]] == [("x", "declarer", "declare", True),
                                                                                ("y", "queenly", "always", False)]


def test_unheld_changes_are_checked_like_changes(tmp_path):
    f = only_finding(tmp_path, "    x:\n      declare: {rank: J, suit: staves}\n      compel: {rank: K, suit: swords}\n"
                               "      unheld: [set hands.groupings.bagle.rank 23]\n")
    assert f.code == "unknown-path" and (f.pos.line, f.pos.column) == (14, 16) and "bagel" in f.suggestion


def test_a_compulsory_declaration_may_not_ask_questions(tmp_path):
    f = only_finding(tmp_path, "    x:\n      declare: {rank: J, suit: staves}\n      must: true\n"
                               "      compel: {rank: K, suit: swords}\n      changes: [set hands.groupings.bagel.rank 23]\n")
    assert f.code == "modifier-must-asks" and (f.pos.line, f.pos.column) == (14, 15)


@pytest.mark.parametrize("keys", ["always: true\n      must: true", "visible: {rank: K, suit: cups}\n      compel: {rank: K, suit: swords}",
                                  "always: true\n      declare: {rank: K, suit: cups}", "always: false", "after: aces",
                                  "declare: {rank: K, suit: cups}\n      to: Declarer",
                                  "always: true\n      opening: true"])
def test_the_schema_refuses_keys_without_the_trigger_they_need_and_bad_values(tmp_path, keys):
    body = f"    x:\n      {keys}\n      changes: [set hands.groupings.bagel.rank 23]\n"
    with pytest.raises(KallistiError) as exc:
        load_variant(tmp_path, body)
    assert [f.code for f in exc.value.findings] == ["schema"]


def test_a_modifier_may_not_be_named_like_a_target_keyword(tmp_path):
    with pytest.raises(KallistiError) as exc:
        load_variant(tmp_path, "    others:\n      always: true\n      changes: [set hands.groupings.bagel.rank 23]\n")
    assert [f.code for f in exc.value.findings] == ["schema"]


# -- when the declarations are made: in a round of their own, or as the hands are laid down ----------------------------
OPENING_FOOL = f"fool: {{declare: {{rank: J, suit: clubs}}, opening: true, changes: {RAISE_TRIPLE_BAGEL}}}"
LATE_OMEN = f"omen: {{declare: {{rank: K, suit: swords}}, changes: {SINK_DOUBLE_ONION}}}"


def showdown_rules(*modifiers: str, reform: str = "always"):
    data = variant(*modifiers).data
    for change in ["set table.declarations showdown"] + [f"set table.reform {reform}"] * (reform != "always"):
        data = amend(data, change).data
    return compile_data(data)


FOOL_HAND = "JC KD QH JS 10H QSt 2D 3H 4S 5C"  # the jack of clubs, and bagels
OMEN_HAND = "KSw AC KC AS QS 9D 7C 6S 5H 2C"  # the king of swords, and a Double Onion


def test_declarations_at_the_showdown_are_asked_as_each_hand_is_laid_down_from_the_elder():
    rules = showdown_rules(OPENING_FOOL, LATE_OMEN)
    rnd = fixed(rules, [OMEN_HAND, FOOL_HAND, THIRD], dealer=0)
    assert rnd.asks == (1, "declare") and rnd.declaring == "fool" and rnd.laid == {}, "the Elder shows first"
    rnd.bet(1, "declare", False)
    assert list(rnd.laid) == [1, 2] and rnd.asks == (0, "declare") and rnd.declaring == "omen"
    rnd.bet(0, "declare", False)
    assert list(rnd.laid) == [1, 2, 0] and rnd.asks is None
    assert [e["seat"] for e in rnd.events if e["type"] == "lay-down"][-3:] == [1, 2, 0]
    rnd = fixed(rules, [FOOL_HAND, OMEN_HAND, THIRD], dealer=0)  # the dealer holds the Fool: a hand is down by hir turn
    rnd.bet(1, "declare", False)
    assert rnd.asks is None and (0, "fool") not in rnd.asked and list(rnd.laid) == [1, 2, 0]


def test_an_opening_modifier_is_offered_to_every_holder_in_a_round_before_the_showdown():
    rnd = fixed(variant(OPENING_FOOL), [OMEN_HAND, FOOL_HAND], dealer=0)
    assert rnd.asks == (1, "declare") and rnd.declaring == "fool" and rnd.laid == {}
    rnd = fixed(variant(OPENING_FOOL), [FOOL_HAND, OMEN_HAND], dealer=0)
    assert rnd.asks == (0, "declare") and rnd.declaring == "fool", "in a round of their own, the dealer is asked too"


@pytest.mark.parametrize("reform", ["always", "once", "never"])
def test_reform_says_whether_a_hand_laid_down_is_arranged_again_after_a_later_change(reform):
    # The Elder lays down a Double Onion; the dealer then declares a modifier that sinks Double Onions for everyone.
    rnd = fixed(showdown_rules(LATE_OMEN, reform=reform), [THIRD.replace("6H", "KSw"), OMEN_HAND.replace("KSw", "JH")],
                dealer=0)
    assert rnd.asks == (0, "declare") and list(rnd.laid) == [1]
    rnd.bet(0, "declare", True)
    shown = rnd.showdown(HandEvaluator(rnd.rules)).shown[1]
    best = rnd.seat_evaluator(1, HandEvaluator(rnd.rules)).evaluate(rnd.hands[1])
    assert best.top != "double-onion"
    if reform == "never":  # kept as laid: the Double Onion, now worth little
        assert ("double-onion", 5) in [(g.id, g.rank) for g in shown.groups] and shown.keys < best.keys
    else:  # arranged again under the new rules (`once`: the first change)
        assert shown.keys == best.keys
