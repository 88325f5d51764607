"""The ruleset JSON Schemas: one for what a file may contain, one for a resolved ruleset."""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path

HERE = Path(__file__).parent
ROLES = ["tableau", "foundation", "stock", "waste", "reserve", "cell", "line", "field", "hand", "discard"]
ID_PATTERN = "^[a-z0-9][a-z0-9-]*$"
NAME_PATTERN = "^[a-z][a-z0-9_]*$"
SHUFFLES = ["always", "optional", "never"]
MOMENTS = ["match-start", "turn-start", "before-deal", "before-move", "turn-end"]
FANS = ["down", "right", "none"]  # how a pile's cards are spread on the table (layout hints)
LAYOUT_PLACES = 100  # rows and columns of layout hints are 0 .. LAYOUT_PLACES - 1 (the page reads the same range)

# Limits on untrusted rulesets that the schema states (docs/security.md): each refusal is a `schema` finding.
MAX_FILE_CHANGES = 200  # patches under a file's `changes:` (each is applied to a copy of the whole ruleset)
MAX_CARD_VALUE = 1000  # largest value, positive or negative, a rank may count in `deck.values`
MAX_VALUE_CHOICES = 8  # alternatives one rank may count (`A: [1, 11]` is two); `totals()` tries every mix of them
MAX_DEAL_ROWS = 60  # rows of a group's `deal`; the .rules reader refuses `deal N face up` past it before making N rows
# Every list of a ruleset has a most items and every map with keys of the author's choosing a most keys (tests/hostile/
# test_security_bounds.py walks the schema to make sure, and docs/security.md lists them all, from `count_limits`):
GROUPS = 40  # pile groups, so also the groups a list may name (`from`, `to`, `gather`)
CARDS = 360  # the distinct cards of the largest deck (30 ranks of 12 suits): the cards a list may name
RULE_ITEMS = 100  # clauses (or phrases) of one rule
MOVE_PATTERNS = 100  # automatic moves, compulsory moves, loss conditions: each list


def _expr(what: str = "an expression of the rule language") -> dict:
    return {"type": ["string", "boolean"], "description": what}


RANK = {"type": ["string", "integer"], "description": "a rank name of the deck (`A`, `10`, `K`)"}
SUIT = {"type": "string", "description": "a suit name of the deck (`spades`)"}


def _card() -> dict:
    """One card of the deck, by rank and suit."""
    return {"type": "object", "properties": {"rank": dict(RANK), "suit": dict(SUIT)},
            "required": ["rank", "suit"], "additionalProperties": False}


def _clause() -> dict:
    return {
        "type": "object",
        "description": "a rule clause: an id and one expression, required or forbidden",
        "properties": {
            "id": {"type": "string", "pattern": ID_PATTERN, "description": "stable id, named by rule changes"},
            "require": _expr("an expression that must hold for the move to be allowed"),
            "forbid": _expr("an expression that refuses the move when it holds"),
            "says": {"type": "string", "description": "what the clause means, used in refusals"},
            "macro": {"type": "string", "description": "the macro phrase this clause came from"},
        },
        "required": ["id"],
        "oneOf": [{"required": ["require"]}, {"required": ["forbid"]}],
        "additionalProperties": False,
    }


def _rule(resolved: bool, what: str) -> dict:
    """A rule: a macro phrase, an expression or a clause, or a list of them (`what`: what it decides)."""
    if resolved:
        return {"type": "array", "items": {"$ref": "#/$defs/clause"}, "maxItems": RULE_ITEMS, "description": what}
    item = {"oneOf": [{"type": "string"}, {"$ref": "#/$defs/clause"}]}
    return {"oneOf": [{"type": "string"}, {"type": "boolean"}, {"$ref": "#/$defs/clause"}, {"type": "array", "items": item, "maxItems": RULE_ITEMS}],
            "description": what + " (a macro phrase such as `down in suit`, an expression, or a list of clauses)"}


def _pattern() -> dict:
    groups = {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}, "maxItems": GROUPS}]}
    return {
        "type": "object",
        "properties": {
            "id": {"type": "string", "pattern": ID_PATTERN, "description": "stable id of the pattern, named by rule changes"},
            "kind": {"enum": ["move", "deal", "redeal", "discard"],
                     "description": "the kind of move it matches: a move (default), a deal or a redeal from a stock, "
                                    "or a window discard"},
            "from": {**groups, "description": "the groups the cards come from: a group name, a list of them, or `any`"},
            "to": {**groups, "description": "the groups the cards go to: a group name, a list of them, or `any`"},
            "when": _expr("an expression on the move (`card`, `top`, as in a build rule): the pattern matches only when "
                          "it holds"),
            "trigger": {"enum": ["each-move", "on-request"],
                        "description": "when an automatic move is played: after every move (default), or on request "
                                       "(the `a` command)"},
            "says": {"type": "string", "description": "what the pattern is for, in words"},
        },
        "required": ["id"],
        "additionalProperties": False,
    }


def _honour() -> dict:
    return {
        "type": "object",
        "description": "an honour rule, by its id: a rule kallisti cannot check, kept on the player's honour",
        "properties": {
            "at": {"enum": MOMENTS, "description": "the moment of play at which the rule is shown and acknowledged"},
            "says": {"type": "string", "minLength": 1, "maxLength": 500, "description": "the rule, as the player reads it"},
        },
        "required": ["at", "says"],
        "additionalProperties": False,
    }


def _layout() -> dict:
    """Layout hints: where the page puts each pile group, and how its piles' cards are spread (docs/language.md)."""
    place = {"type": "integer", "minimum": 0, "maximum": LAYOUT_PLACES - 1}
    hint = {
        "type": "object",
        "description": "where a pile group is placed on the table, by the group's name: its row, its column in the row, "
                       "and how its cards fan; a key left out keeps the automatic layout's choice",
        "properties": {
            "row": {**place, "description": "the row the group is placed on, 0 at the top; rows only order the groups, "
                                            "so a row no group is on takes no room"},
            "column": {**place, "description": "the group's place in its row, 0 on the left; columns only order the "
                                               "groups of a row"},
            "fan": {"enum": FANS, "description": "how each pile's cards are spread: `down` (overlapping downwards, all "
                                                 "in view: a tableau), `right` (overlapping rightwards: a line, a hand, a "
                                                 "waste spread to be read) or `none` (squared up: only the top card shows)"},
        },
        "minProperties": 1,
        "additionalProperties": False,
    }
    return {"type": "object", "propertyNames": {"pattern": NAME_PATTERN}, "maxProperties": GROUPS, "additionalProperties": hint,
            "description": "layout hints for playing on a screen, by pile group: each places a group (row, column) and says "
                           "how its cards fan; groups without a hint keep the automatic layout (by their roles). Hints "
                           "change nothing of the game"}


def _match(resolved: bool) -> dict:
    props = {
        "seats": {"type": "integer", "minimum": 2, "maximum": 8, "description": "how many players take turns"},
        "pack": {"enum": ["per-seat", "shared"], "description": "each player keeps hir own pack between turns, or one pack serves all"},
        "start_score": {"type": "integer", "minimum": -100000, "maximum": 100000, "description": "every player's total at the start"},
        "loses_at": {"type": "integer", "minimum": -100000, "maximum": 100000,
                     "description": "a player whose total reaches this loses"},
        "equal_turns": {"type": "boolean",
                        "description": "when a total reaches `loses_at`, the round is finished so that every player has had as many "
                                       "turns"},
        "last_turns": {"enum": ["none", "round", "others"],
                       "description": "who still plays once a total first reaches `loses_at`: `none` (the match ends), "
                                      "`round` (the round is finished, as `equal_turns`) or `others` (every other player "
                                      "takes one more turn, wherever the round stands); when given, it decides instead "
                                      "of `equal_turns`"},
        "both_over": {"enum": ["higher-loses", "first-loses", "draw"],
                      "description": "who loses when several totals reach `loses_at` by the end of the last turns"},
        "max_turns": {"type": "integer", "minimum": 1, "maximum": 10000,
                      "description": "turns after which an unfinished match ends: the highest total loses"},
        "player_x": {
            "type": "object",
            "properties": {
                "changes": {"type": "integer", "minimum": 0, "maximum": 5,
                            "description": "rule changes the next player may impose on the one who just played"},
                "revoke": {"type": "boolean", "description": "instead of a change, revoke one the other player imposed"},
            },
            "additionalProperties": False,
            "description": "Player X: after each turn the next player may change the rules for the player who just played",
        },
    }
    m = {"type": "object", "properties": props, "additionalProperties": False,
         "description": "several players taking turns, each turn one deal of the ruleset; its score is added to the player's total"}
    if resolved:
        m["required"] = [key for key in props if key != "last_turns"]  # without it, `equal_turns` says who plays last
        m["properties"]["player_x"]["required"] = ["changes", "revoke"]
    else:
        m["required"] = ["seats", "loses_at"]
    return m


def _card_pattern() -> dict:
    """A card, or every card of a rank or of a suit."""
    return {"type": "object", "minProperties": 1, "additionalProperties": False,
            "properties": {"rank": {**RANK, "description": "the rank: every card of this rank, or only the one of `suit`"},
                           "suit": {**SUIT, "description": "the suit: every card of this suit, or only the one of `rank`"}},
            "description": "a card (rank and suit), or every card of a rank, or of a suit"}


def _hands(resolved: bool) -> dict:
    grouping = {
        "type": "object",
        "description": "a grouping, by its id: a set of cards (or of other groupings) a hand may be sorted into",
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 60, "description": "the grouping's name as players say it"},
            "says": {"type": "string", "maxLength": 500, "description": "what the grouping is, in words"},
            "rank": {"type": "integer", "minimum": 0, "maximum": 100000,
                     "description": "its standing: a higher rank beats a lower; without a rank the grouping is only a part "
                                    "of a multiple grouping or a cripple"},
            "cards": {"oneOf": [{"type": "integer", "minimum": 1, "maximum": 30},
                                {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 30},
                                 "minItems": 2, "maxItems": 2}],
                      "description": "how many cards it takes: a number, or [fewest, most]"},
            "when": _expr("an expression on the group's `cards` (and `count`): the cards form the grouping when it holds"),
            "of": {"type": "string", "description": "a multiple grouping: `count` disjoint groupings of this one"},
            "count": {"type": "integer", "minimum": 2, "maximum": 15, "description": "how many groupings of `of` it takes"},
            "enabled": {"type": "boolean", "description": "whether the grouping counts (an option a rule change may switch)"},
        },
        "oneOf": [{"required": ["cards", "when"]}, {"required": ["of", "count"]}],
        "additionalProperties": False,
    }
    cripple = {
        "type": "object",
        "description": "a cripple, by its id: a grouping that beats certain others at the showdown",
        "properties": {
            "by": {"type": "string", "description": "the grouping a hand must hold to cripple"},
            "beats": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 100,
                      "description": "groupings it cripples: a hand whose best grouping is one of these loses to the crippler"},
            "rank": {"type": "integer", "minimum": 0, "maximum": 100000,
                     "description": "between two cripplers, the higher rank outcripples the lower"},
            "enabled": {"type": "boolean", "description": "whether the cripple applies (an option a rule change may switch)"},
            "says": {"type": "string", "maxLength": 500, "description": "what the cripple is, in words"},
            "wild_limit": {"type": "boolean",
                           "description": "the crippler may hold no more wild cards than the grouping it cripples"},
        },
        "required": ["by", "beats"],
        "additionalProperties": False,
    }
    cards = {"type": "array", "maxItems": 60, "items": _card_pattern()}
    ids = {"type": "array", "maxItems": 100, "items": {"type": "string"}}
    null = {"type": "object", "additionalProperties": False, "required": ["cards", "in"],
            "description": "a null rule, by its name", "properties": {
        "cards": {**cards, "description": "the cards that may be null"},
        "in": {**ids, "description": "the groupings they may join as nothing, making them larger"}}}
    wild = {"type": "object", "additionalProperties": False, "required": ["cards"],
            "description": "a wild rule, by its name", "properties": {
        "cards": {**cards, "description": "the wild cards"},
        "never": {**cards, "description": "cards a wild card may not stand for"}}}
    devalue = {"type": "object", "additionalProperties": False, "required": ["cards", "to"],
               "description": "a devaluing rule, by its name", "properties": {
        "cards": {**cards, "description": "the cards devalued"},
        "to": {"type": "array", "minItems": 1, "maxItems": 10, "items": {"type": "integer", "minimum": -100, "maximum": 100},
               "description": "the values they may still count"},
        "count": {"type": "integer", "minimum": 1, "maximum": 30,
                  "description": "how many of the hand's such cards are devalued, the player choosing which (default: all)"},
        "spare": {**ids, "description": "a hand whose best grouping is one of these is not devalued"},
        "if_uses": {**cards, "description": "only a hand whose groupings use one of these cards is devalued; the player "
                                            "may leave them out instead"}}}
    shift = {"type": "object", "additionalProperties": False, "required": ["points", "low", "high"],
             "description": "a shifting rule, by its name", "properties": {
        "points": {"type": "integer", "minimum": 1, "maximum": 100, "description": "the points moved from one card to another"},
        "low": {"type": "integer", "minimum": -100, "maximum": 100, "description": "the lowest value a shifted card may have"},
        "high": {"type": "integer", "minimum": -100, "maximum": 100, "description": "the highest value a shifted card may have"}}}

    def named(item, what):
        return {"type": "object", "propertyNames": {"pattern": ID_PATTERN}, "maxProperties": 20, "additionalProperties": item,
                "description": what}

    props = {
        "size": {"type": "integer", "minimum": 1, "maximum": 30, "description": "how many cards a hand holds"},
        "budget": {"type": "integer", "minimum": 1, "maximum": 10000000,
                   "description": "the most steps the search for a hand's best partition may take"},
        "groupings": {"type": "object", "propertyNames": {"pattern": ID_PATTERN}, "maxProperties": 100,
                      "additionalProperties": grouping,
                      "description": "the card groupings a hand is sorted into; partitions compare by their highest grouping, "
                                     "then the next, and so on"},
        "cripples": {"type": "object", "propertyNames": {"pattern": ID_PATTERN}, "maxProperties": 20,
                     "additionalProperties": cripple,
                     "description": "groupings that beat certain others at the showdown whatever their rank"},
        "nulls": named(null, "cards that may join groupings as nothing (null eights); between groups of equal rank, "
                             "the one with fewer null cards wins"),
        "wild": named(wild, "wild cards: each stands for any card of the pack but those of `never`"),
        "wild_ties": {"enum": ["none", "fewer-wins", "more-wins"],
                      "description": "between groups of equal rank, whether the fewer or the more wild cards wins"},
        "devalue": named(devalue, "cards that count fewer values in a hand (an ace that may count only one; zeroed aces)"),
        "shift": named(shift, "the player may move points from one card's value to another's"),
    }
    h = {"type": "object", "properties": props, "additionalProperties": False,
         "description": "hands of cards scored by sorting them into groupings (Cripple Mr Onion)"}
    h["required"] = (["size", "budget", "groupings", "cripples", "nulls", "wild", "wild_ties", "devalue", "shift"] if resolved
                     else ["size", "groupings"])
    if resolved:
        grouping["required"] = ["name", "enabled"]
        cripple["required"] = ["by", "beats", "rank", "enabled", "wild_limit"]
    return h


def _modifiers(resolved: bool) -> dict:
    """Named rule overlays: rule changes that apply when a modifier is in play (brought in by a card, by the start of a
    round, or by what the round before showed), to all hands or to some players' only."""
    card = _card()
    ids = {"type": "array", "maxItems": 50, "items": {"type": "string", "pattern": ID_PATTERN}}
    changes = {"type": "array", "minItems": 1, "maxItems": 50, "items": {"type": "string", "maxLength": 2000}}
    modifier = {
        "type": "object",
        "description": "a modifier, by its id: rule changes that come into play during a round",
        "properties": {
            "name": {"type": "string", "maxLength": 80, "description": "the modifier's name as players say it"},
            "says": {"type": "string", "maxLength": 1000, "description": "what the modifier does, in words"},
            "enabled": {"type": "boolean", "description": "whether the modifier is in the game (an option)"},
            "declare": {**card, "description": "the card whose holder may declare the modifier just before the showdown; "
                                               "it then applies for the rest of the round"},
            "visible": {**card, "description": "the card that brings the modifier into play at the showdown when it lies "
                                               "face up (dealt face up, or declared)"},
            "always": {"const": True, "description": "in play from the start of every round"},
            "after": {"enum": ["nulls"], "description": "in play in a round that follows a round whose showdown showed "
                                                        "a hand using a null card"},
            "changes": {**changes, "description": "rule-change statements (as Player X writes them) that the modifier "
                                                  "applies"},
            "replace": {"type": "integer", "minimum": 1, "maximum": 10,
                        "description": "a declared card is laid face up beside its player and replaced by the player's "
                                       "choice of the next `replace` cards of the pack; the others are discarded"},
            "while": {**ids, "description": "the modifier comes into play (or is offered) only while all these are in play"},
            "unless": {**ids, "description": "the modifier never comes into play (nor is offered) while any of these is "
                                             "in play"},
            "not_by": {**ids, "description": "a player who declared any of these may not declare this modifier"},
            "to": {"type": "string", "pattern": ID_PATTERN,
                   "description": "whose hands the changes apply to: all (default), declarer, others, or the id of a "
                                  "modifier whose declarer they apply to"},
            "must": {"type": "boolean", "description": "the holder must declare the modifier as soon as the card is dealt "
                                                       "to hir: it is declared automatically and laid face up"},
            "opening": {"type": "boolean", "description": "the modifier may be declared only before the first hand is "
                                                          "laid down at the showdown (with `table.declarations: showdown`, "
                                                          "only by the first player to show)"},
            "compel": {**card, "description": "on declaring, the player still in who holds this card lays it face up, "
                                              "then every other player still in lays one face-down card of hir choice "
                                              "face up"},
            "unheld": {**changes, "description": "rule changes applied (to the `to` target) when nobody still in holds "
                                                 "the `compel` card"},
        },
        "oneOf": [{"required": ["declare"]}, {"required": ["visible"]}, {"required": ["always"]}, {"required": ["after"]}],
        "anyOf": [{"required": ["changes"]}, {"required": ["replace"]}, {"required": ["compel"]}],
        "dependentRequired": {"replace": ["declare"], "must": ["declare"], "not_by": ["declare"], "compel": ["declare"],
                              "unheld": ["compel"], "opening": ["declare"]},
        "required": ["enabled"] if resolved else [],
        "additionalProperties": False,
    }
    return {"type": "object", "propertyNames": {"pattern": ID_PATTERN, "not": {"enum": ["all", "declarer", "others"]}},
            "maxProperties": 50, "additionalProperties": modifier,
            "description": "named rule overlays that come into play during a round (Cripple Mr Onion's modifiers)"}


def _table() -> dict:
    """A round at a table of several players (Cripple Mr Onion): seats, the deals by role, the draw, the showdown."""
    face = {"enum": ["up", "down"]}
    dealer_face = {**face, "description": "whether the dealer's cards of the second deal lie face up or down"}
    others_face = {**face, "description": "whether the other players' cards of the second deal lie face up or down"}
    return {
        "type": "object",
        "description": "a round played at a table: the players' hands are dealt by role, improved by a draw, and compared "
                       "at a showdown with the `hands` rules (no money: the non-gambling game)",
        "properties": {
            "seats": {"type": "array", "items": {"type": "integer", "minimum": 2, "maximum": 12}, "minItems": 2, "maxItems": 2,
                      "description": "the fewest and the most players, [min, max]"},
            "deal": {"type": "array", "minItems": 1, "maxItems": 20,
                     "items": {"type": "object", "properties": {"dealer": {"type": "integer", "minimum": 0, "maximum": 30,
                                                                           "description": "cards the dealer takes in this pass"},
                                                                "others": {"type": "integer", "minimum": 0, "maximum": 30,
                                                                           "description": "cards each other player is dealt in "
                                                                                          "this pass"}},
                               "required": ["dealer", "others"], "additionalProperties": False},
                     "description": "the first deal, face down, in passes: in each, the dealer takes `dealer` cards, then "
                                    "the others from the Elder to the Younger `others` each"},
            "draw": {"type": "object", "properties": {
                "most": {"type": "integer", "minimum": 0, "maximum": 30, "description": "most cards a player may exchange"},
                "fold": {"type": "boolean", "description": "whether a player may fold by discarding the whole hand"}},
                "required": ["most"], "additionalProperties": False,
                "description": "from the Elder to the Younger, then the dealer: each discards up to `most` cards and is "
                               "dealt as many"},
            "second": {"type": "object", "properties": {
                "count": {"type": "integer", "minimum": 1, "maximum": 30, "description": "cards dealt to each player"},
                "dealer": dealer_face, "others": others_face},
                "required": ["count", "dealer", "others"], "additionalProperties": False,
                "description": "a second deal of `count` cards each, face up or down by role"},
            "declarations": {"enum": ["round", "showdown"],
                             "description": "when the special cards (the `declare` modifiers) are declared: `round` (the "
                                            "default), in a round of their own before any hand is laid down, the most "
                                            "senior asked first; `showdown`, at the showdown, each player asked when hir "
                                            "turn to lay down hir hand comes, from the Elder round to the dealer"},
            "reform": {"enum": ["always", "once", "never"],
                       "description": "whether a hand laid down may be arranged again when a modifier declared later "
                                      "changes its rules: `always` (the default: every hand is judged in its best "
                                      "arrangement), `once` (after the first such change only), `never`"},
            "money": {"type": "object", "properties": {
                "stake": {"type": "integer", "minimum": 1, "maximum": 1000000, "description": "what each player puts in the pot"},
                "chips": {"type": "integer", "minimum": 1, "maximum": 1000000000, "description": "each player's chips at the start"},
                "cannot_cover": {"enum": ["fold"], "description": "a player who cannot cover the stake: `fold` sits the round out"},
                "max_bet": {"type": "integer", "minimum": 0, "maximum": 1000000,
                            "description": "the most a player may raise the dealer in one part of the betting, and the "
                                           "most an extra bet (the dealer names any amount hir chips cover)"},
                "buy": {"type": "integer", "minimum": 0, "maximum": 30,
                        "description": "in the second deal, how many cards each player but the dealer may buy face down, "
                                       "a stake each; the rest are dealt as `second.others` says"},
                "extra_bets": {"type": "boolean",
                               "description": "after the second deal each player but the dealer makes an extra bet; the "
                                              "dealer matches them all, or passes the dealership left to a player who will "
                                              "(full circle: everyone folds and the pot is the next round's ante)"},
                "last_betting": {"type": "array", "items": {"enum": ["raise", "match"]}, "maxItems": 10,
                                 "description": "the parts of betting after the extra bets are matched, as `betting`"},
                "betting": {"type": "array", "items": {"enum": ["raise", "match"]}, "maxItems": 10,
                            "description": "the parts of the betting round after the draw: in each the dealer names an amount "
                                           "the others match or fold on; `raise` lets them raise the dealer, who must cover "
                                           "the raises or fold (and a dealer who folds puts the dealership up for auction)"}},
                "required": ["stake", "chips", "cannot_cover"], "additionalProperties": False,
                "description": "play for chips: every round each player stakes into the pot and the winner takes it; without "
                               "`money` rounds are played for the showdown alone (the non-gambling game)"},
        },
        "required": ["seats", "deal"],
        "additionalProperties": False,
    }


def _group(resolved: bool) -> dict:
    props = {
        "role": {"enum": ROLES, "description": "what the group is for"},
        "count": {"type": "integer", "minimum": 1, "maximum": 200, "description": "how many piles"},
        "tag": {"type": "string", "pattern": "^[a-z]{1,3}$", "description": "short tag used to name piles in play"},
        "deal": {"oneOf": [{"type": "array", "maxItems": MAX_DEAL_ROWS, "items": {"oneOf": [
                     {"enum": ["up", "down"]},
                     {"type": "string", "pattern": "^[ud.]( [ud.])*$",
                      "description": "one letter per pile: u face up, d face down, . no card"}]}},
                     {"const": "rest"}],
                 "description": "rows dealt at the start, first (bottom) row first; `rest` takes every card left"},
        "prefill": _expr("an expression on `card`: before the deal, each pile takes the first card for which it holds"),
        "divert": {"type": "object", "properties": {
                       "when": _expr("an expression on `card`: a card for which it holds is diverted"),
                       "to": {"type": "string", "description": "the group whose piles take the diverted cards"}},
                   "required": ["when", "to"],
                   "additionalProperties": False,
                   "description": "while cards are dealt here, one for which `when` holds goes to a pile of `to` that takes it instead, "
                                  "and the next card is dealt in its place"},
        "refill": {"type": "object", "properties": {
                       "from": {"type": "string", "description": "the group whose pile the cards come from"},
                       "count": {"type": "integer", "minimum": 1, "maximum": 104,
                                 "description": "how many cards an emptied pile gets"}},
                   "required": ["from", "count"], "additionalProperties": False,
                   "description": "when a pile here is emptied, deal it `count` cards from the `from` group's pile at once"},
        "top_face_up": {"type": "boolean", "description": "the top card of each pile lies face up (a hand turned one card at a time)"},
        "reveal": {"type": "string", "description": "an expression (`pile`: the pile): how many face-down cards under a "
                                                   "pile's top the player may look at"},
        "dealing": _rule(resolved, "when a deal from this pile is allowed: judged in the whole position, `pile` this pile"),
        "build": _rule(resolved, "what a pile of this group builds: may `card` (the bottom card of what moves) go on `top`?"),
        "empty": _rule(resolved, "what a space takes: may `card` go into an empty pile of this group?"),
        "take": _rule(resolved, "what may leave a pile of this group: may these `cards` (`count` of them) leave it?"),
        "sequence": _rule(resolved, "runs that leave together: judged for each pair of a moving run, `card` lying on `top`"),
        "discard": _rule(resolved, "what the group discards: may this window of adjacent face-up cards (`cards`, left to "
                                   "right) be discarded?"),
        "discard_to": {"type": "string", "description": "the group whose first pile takes the cards this group discards"},
        "flip": {"type": "boolean", "description": "turn up a face-down top card when it is uncovered"},
        "turn": {
            "type": "object",
            "properties": {
                "to": {"type": "string", "description": "the group the dealt cards go to (its first pile, unless `each`)"},
                "count": {"type": "integer", "minimum": 1, "maximum": 104,
                          "description": "how many cards a deal turns (to each pile, with `each`); default 1"},
                "each": {"type": "boolean", "description": "one card to each pile of the group"},
            },
            "required": ["to"],
            "additionalProperties": False,
            "description": "a deal from this pile: where its cards go",
        },
        "redeals": {"oneOf": [{"type": "integer", "minimum": 0, "maximum": 1000}, {"const": "unlimited"}],
                    "description": "how many times this pile may be redealt: a number (default 0) or `unlimited`"},
        "redeal": {
            "type": "object",
            "properties": {
                "gather": {"type": "array", "items": {"type": "string"}, "maxItems": GROUPS,
                           "description": "groups whose cards come back, pile by pile, first pile first, turned over onto this pile"},
                "shuffle": {"type": "boolean", "description": "shuffle the gathered cards (from the deal's own random stream)"},
                "deal": {"type": "array", "items": {"type": "string"}, "maxItems": GROUPS,
                         "description": "groups dealt again as at the start"},
                "when": _expr("an expression (`pile`: this pile): a redeal is allowed when it holds (default: "
                              "`pile.empty`)"),
            },
            "additionalProperties": False,
            "description": "what a redeal does, and when it may be made (default: when this pile is empty)",
        },
    }
    g = {"type": "object", "properties": props, "additionalProperties": False,
         "description": "a pile group, by its name: one or more piles that share their deal and rules"}
    if resolved:
        g["required"] = ["role", "count", "tag", "deal", "build", "empty", "take", "sequence", "dealing", "flip", "top_face_up",
                         "redeals"]
    return g


def _ruleset(resolved: bool) -> dict:
    suit = {
        "type": "object",
        "properties": {"name": {"type": "string", "pattern": NAME_PATTERN, "description": "the suit's name (`spades`)"},
                       "symbol": {"type": "string", "description": "the symbol cards are shown with (`♠`)"},
                       "letter": {"type": "string", "maxLength": 2,
                                  "description": "the letter a card is written with (`S` in `QS`)"},
                       "color": {"type": "string", "pattern": NAME_PATTERN, "description": "the suit's colour (`black`, `red`)"},
                       "family": {"type": "string", "pattern": NAME_PATTERN,
                                  "description": "the suit whose family this suit belongs to (default: its own); "
                                                 "`card.family` and `same_family(cards)` read it"}},
        "required": ["name", "color"],
        "additionalProperties": False,
    }
    card = _card()
    deck = {
        "type": "object",
        "description": "the cards: packs, ranks, suits and values (default: one French pack)",
        "properties": {
            "packs": {"oneOf": [{"type": "integer", "minimum": 1, "maximum": 8},
                                {"type": "array", "maxItems": 8, "items": {"type": "object", "properties": {
                                    "name": {"type": "string", "description": "the pack's name"},
                                    "suits": {"type": "array", "items": {"type": "string"},
                                              "maxItems": 12, "uniqueItems": True,
                                              "description": "the suits of this pack, by name, each once"}},
                                    "required": ["suits"], "additionalProperties": False}}],
                      "description": "how many identical packs (default 1), or a list of packs, each with its suits"},
            "ranks": {"type": "array", "items": {"type": ["string", "integer"]}, "minItems": 1, "maxItems": 30,
                      "description": "the rank names, lowest first (default A 2 … 10 J Q K)"},
            "suits": {"type": "array", "items": suit, "minItems": 1, "maxItems": 12,
                      "description": "the suits (default clubs, diamonds, hearts, spades)"},
            "values": {"type": "object", "maxProperties": 30,
                       "additionalProperties": {
                           "oneOf": [{"type": "integer", "minimum": -MAX_CARD_VALUE, "maximum": MAX_CARD_VALUE},
                                     {"type": "array", "minItems": 1, "maxItems": MAX_VALUE_CHOICES,
                                      "items": {"type": "integer", "minimum": -MAX_CARD_VALUE, "maximum": MAX_CARD_VALUE}}],
                           "description": "the rank's value, or a list of the values it may count"},
                       "description": "the value of each rank, by rank name; a list gives alternatives (`A: [1, 11]`); "
                                      "default: the rank's position (A=1 … K=13)"},
            "marks": {"type": "object", "maxProperties": 20, "additionalProperties": {"type": "array", "items": card, "maxItems": CARDS,
                                                                 "description": "the cards that bear this mark"},
                      "description": "named special cards, by mark name: `lady: [{rank: Q, suit: spades}]`"},
            "wild": {"type": "array", "items": card, "maxItems": CARDS,
                     "description": "cards that stand for others (reserved for later rulesets)"},
            "shuffle": {"enum": SHUFFLES,
                        "description": "before each deal of a match: always shuffle, let the player choose, or never (deal the "
                                       "pack as it was gathered)"},
        },
        "additionalProperties": False,
    }
    lose = {"type": "object", "properties": {
                "id": {"type": "string", "pattern": ID_PATTERN, "description": "stable id of the loss condition"},
                "when": _expr("an expression: the game is lost when it holds"),
                "says": {"type": "string", "description": "why the game is lost, as the player reads it"}},
            "required": ["id", "when"], "additionalProperties": False}
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "kallisti ruleset" + ("" if resolved else " file"),
        "type": "object",
        "properties": {
            "game": {"type": "string", "minLength": 1, "description": "the game's name"},
            "description": {"type": "string", "description": "the rules in summary, and where the rule text was resolved"},
            "deck": deck,
            "piles": {"type": "object", "propertyNames": {"pattern": NAME_PATTERN}, "minProperties": 1,
                      "maxProperties": GROUPS, "additionalProperties": _group(resolved),
                      "description": "pile groups by name, in dealing and display order"},
            "auto": {"type": "array", "items": _pattern(), "maxItems": MOVE_PATTERNS,
                     "description": "automatic moves: patterns played after each move or on the `a` command"},
            "compulsory": {"type": "array", "items": _pattern(), "maxItems": MOVE_PATTERNS,
                           "description": "compulsory moves: when one matches, only matching moves are legal"},
            "lose": {"type": "array", "items": lose, "maxItems": MOVE_PATTERNS,
                     "description": "loss conditions beyond \"no legal move is left\""},
            "win": _expr("an expression: the game is won when it holds"),
            "score": _expr("an expression: the score shown and reported (default 0)"),
            "honour": {"type": "object", "propertyNames": {"pattern": ID_PATTERN}, "maxProperties": 100,
                       "additionalProperties": _honour(),
                       "description": "honour rules: text rules shown at a moment of play and acknowledged by the player"},
            "match": _match(resolved),
            "hands": _hands(resolved),
            "table": _table(),
            "modifiers": _modifiers(resolved),
            "layout": _layout(),
        },
        "additionalProperties": False,
        "$defs": {"clause": _clause()},
    }
    if resolved:
        schema["required"] = ["game", "description", "deck", "auto", "compulsory", "lose", "score", "honour"]
        # A game is played on piles (and needs a win), or scores hands (Cripple Mr Onion's), or both.
        schema["anyOf"] = [{"required": ["piles", "win"]}, {"required": ["hands"]}]
        deck["required"] = ["packs", "ranks", "suits", "values", "marks", "wild", "shuffle"]
    else:
        schema["properties"]["extends"] = {"type": "string", "description": "a shipped game's name, or a path relative to this file"}
        schema["properties"]["add"] = {"type": "object", "maxProperties": 40,
                                       "description": "keys the parent does not have, added explicitly"}
        schema["properties"]["changes"] = {"type": "array", "items": {"$ref": "#/$defs/patch"}, "maxItems": MAX_FILE_CHANGES,
                                           "description": "explicit patches, applied in order after the overrides"}
        schema["$defs"]["patch"] = PATCH_SCHEMA
        schema["required"] = ["game"]
    return schema


def _key(what: str) -> dict:
    return {"type": "string", "description": what + ", as a dotted path (`piles.tableau.build`)"}


def _value(what: str) -> dict:
    return {"description": what}


def _patch_id(what: str) -> dict:
    return {"type": "string", "pattern": ID_PATTERN, "description": what + ", named by refusals and later changes"}


def _patch_says() -> dict:
    return {"type": "string", "description": "what the clause means, used in refusals"}


PATCH_SCHEMA = {
    "type": "object",
    "maxProperties": 5,  # the most keys of any verb's form (`replace`, `id`, `require`, `forbid`, `says`)
    "description": "one edit of a ruleset: exactly one verb key",
    "oneOf": [
        {"required": ["set", "value"], "properties": {"set": _key("the key to set (an item of `compulsory`, `auto` or "
                                                                  "`lose` by its id: `compulsory.play-first`; a whole "
                                                                  "pile group keeps its tag and role unless the value "
                                                                  "gives them; `GROUP.columns` is its count, "
                                                                  "`GROUP.rows` its deal's rows)"),
                                                       "value": _value("its new value")},
         "additionalProperties": False},
        {"required": ["add", "value"], "properties": {"add": _key("the new key to add (a new item of `compulsory`, `auto` "
                                                                  "or `lose` by its id: `lose.too-slow`)"),
                                                       "value": _value("its value")},
         "additionalProperties": False},
        {"required": ["delete"], "properties": {"delete": _key("the key to delete (an item of `compulsory`, `auto` or `lose` "
                                                                                 "by its id)")}, "additionalProperties": False},
        {"required": ["require", "id", "expr"], "properties": {"require": _key("the rule to add a require clause to"),
                                                               "id": _patch_id("the new clause's id"),
                                                               "expr": _expr("the expression the clause requires"),
                                                               "says": _patch_says()}, "additionalProperties": False},
        {"required": ["forbid", "id", "expr"], "properties": {"forbid": _key("the rule to add a forbid clause to"),
                                                              "id": _patch_id("the new clause's id"),
                                                              "expr": _expr("the expression the clause forbids"),
                                                              "says": _patch_says()}, "additionalProperties": False},
        {"required": ["replace", "id"], "properties": {"replace": _key("the rule whose clause is replaced"),
                                                       "id": {"type": "string", "description": "the id of the clause replaced"},
                                                       "require": _expr("the replacing clause's required expression "
                                                                        "(the clause becomes a require clause)"),
                                                       "forbid": _expr("the replacing clause's forbidden expression "
                                                                       "(the clause becomes a forbid clause)"),
                                                       "expr": _expr("the replacing clause's expression, of the kind of "
                                                                     "the clause it replaces (a forbid clause stays one)"),
                                                       "says": {"type": "string", "description": (
                                                           "what the clause means, used in refusals; without it, the "
                                                           "clause replaced keeps its words (unless its kind changes)")}},
         "additionalProperties": False},
        {"required": ["remove", "id"], "properties": {"remove": _key("the rule a clause is removed from"),
                                                      "id": {"type": "string", "description": "the id of the clause removed"}},
         "additionalProperties": False},
        {"required": ["revoke"], "properties": {"revoke": {
            "type": "string", "description": "the id of a change imposed in play, taken back (in play only, not in a file)"}},
         "additionalProperties": False},
    ],
}


@functools.lru_cache(maxsize=None)
def schema(kind: str) -> dict:
    """`file` (what a ruleset file may contain) or `resolved` (a complete ruleset after `extends`)."""
    return _ruleset(kind == "resolved")


def export() -> dict[str, str]:
    """The schema files as JSON text, keyed by file name (committed beside this module for editors)."""
    return {
        "ruleset-file.schema.json": json.dumps(schema("file"), indent=2, ensure_ascii=False) + "\n",
        "ruleset.schema.json": json.dumps(schema("resolved"), indent=2, ensure_ascii=False) + "\n",
        "patch.schema.json": json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema", **copy.deepcopy(PATCH_SCHEMA),
                                         "$defs": {}}, indent=2, ensure_ascii=False) + "\n",
    }


def count_limits(kind: str) -> list[tuple[str, str, int | None]]:
    """Every list and every map with keys of the author's choosing in the schema `kind`, as (path, "items" or "keys",
    its maximum, or None when it has none): `piles.*.deal` is the `deal` of any pile group, `auto[].from` the `from`
    of any automatic move. A map whose keys are all named by the schema (`additionalProperties: false`) is bounded by
    them and is not listed."""
    root = schema(kind)
    rows: dict[tuple[str, str], int | None] = {}

    def walk(node, path: str, seen: tuple) -> None:
        if not isinstance(node, dict):
            return
        ref = node.get("$ref")
        if ref is not None:
            name = ref.rsplit("/", 1)[-1]
            if name not in seen:
                walk(root["$defs"][name], path, seen + (name,))
            return
        types = node.get("type", [])
        types = [types] if isinstance(types, str) else types
        if "array" in types:
            rows.setdefault((path, "items"), node.get("maxItems"))
        if "object" in types and node.get("additionalProperties", True) is not False:
            rows.setdefault((path or "the ruleset", "keys"), node.get("maxProperties"))
        for key, sub in node.get("properties", {}).items():
            walk(sub, f"{path}.{key}" if path else key, seen)
        if isinstance(node.get("additionalProperties"), dict):
            walk(node["additionalProperties"], f"{path}.*" if path else "*", seen)
        walk(node.get("items"), f"{path}[]", seen)
        for combinator in ("oneOf", "anyOf", "allOf"):
            for alternative in node.get(combinator, []):
                walk(alternative, path, seen)

    walk(root, "", ())
    return [(path, what, most) for (path, what), most in rows.items()]
