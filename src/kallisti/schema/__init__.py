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


def _expr() -> dict:
    return {"type": ["string", "boolean"], "description": "an expression of the rule language"}


def _clause() -> dict:
    return {
        "type": "object",
        "properties": {
            "id": {"type": "string", "pattern": ID_PATTERN, "description": "stable id, named by rule changes"},
            "require": _expr(),
            "forbid": _expr(),
            "says": {"type": "string", "description": "what the clause means, used in refusals"},
            "macro": {"type": "string", "description": "the macro phrase this clause came from"},
        },
        "required": ["id"],
        "oneOf": [{"required": ["require"]}, {"required": ["forbid"]}],
        "additionalProperties": False,
    }


def _rule(resolved: bool) -> dict:
    if resolved:
        return {"type": "array", "items": {"$ref": "#/$defs/clause"}}
    item = {"oneOf": [{"type": "string"}, {"$ref": "#/$defs/clause"}]}
    return {"oneOf": [{"type": "string"}, {"type": "boolean"}, {"$ref": "#/$defs/clause"}, {"type": "array", "items": item}]}


def _pattern() -> dict:
    groups = {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
    return {
        "type": "object",
        "properties": {
            "id": {"type": "string", "pattern": ID_PATTERN},
            "kind": {"enum": ["move", "deal", "redeal", "discard"]},
            "from": groups,
            "to": groups,
            "when": _expr(),
            "trigger": {"enum": ["each-move", "on-request"]},
            "says": {"type": "string"},
        },
        "required": ["id"],
        "additionalProperties": False,
    }


def _honour() -> dict:
    return {
        "type": "object",
        "properties": {
            "at": {"enum": MOMENTS, "description": "the moment of play at which the rule is shown and acknowledged"},
            "says": {"type": "string", "minLength": 1, "maxLength": 500, "description": "the rule, as the player reads it"},
        },
        "required": ["at", "says"],
        "additionalProperties": False,
    }


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
        "both_over": {"enum": ["higher-loses", "first-loses", "draw"],
                      "description": "who loses when several totals reach `loses_at` by the end of the round"},
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
        m["required"] = list(props)
        m["properties"]["player_x"]["required"] = ["changes", "revoke"]
    else:
        m["required"] = ["seats", "loses_at"]
    return m


def _card_pattern() -> dict:
    """A card, or every card of a rank or of a suit."""
    return {"type": "object", "minProperties": 1, "additionalProperties": False,
            "properties": {"rank": {"type": ["string", "integer"]}, "suit": {"type": "string"}},
            "description": "a card (rank and suit), or every card of a rank, or of a suit"}


def _hands(resolved: bool) -> dict:
    grouping = {
        "type": "object",
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
            "when": _expr(),
            "of": {"type": "string", "description": "a multiple grouping: `count` disjoint groupings of this one"},
            "count": {"type": "integer", "minimum": 2, "maximum": 15, "description": "how many groupings of `of` it takes"},
            "enabled": {"type": "boolean", "description": "whether the grouping counts (an option a rule change may switch)"},
        },
        "oneOf": [{"required": ["cards", "when"]}, {"required": ["of", "count"]}],
        "additionalProperties": False,
    }
    cripple = {
        "type": "object",
        "properties": {
            "by": {"type": "string", "description": "the grouping a hand must hold to cripple"},
            "beats": {"type": "array", "items": {"type": "string"}, "minItems": 1,
                      "description": "groupings it cripples: a hand whose best grouping is one of these loses to the crippler"},
            "rank": {"type": "integer", "minimum": 0, "maximum": 100000,
                     "description": "between two cripplers, the higher rank outcripples the lower"},
            "enabled": {"type": "boolean", "description": "whether the cripple applies (an option a rule change may switch)"},
            "says": {"type": "string", "maxLength": 500},
            "wild_limit": {"type": "boolean",
                           "description": "the crippler may hold no more wild cards than the grouping it cripples"},
        },
        "required": ["by", "beats"],
        "additionalProperties": False,
    }
    cards = {"type": "array", "maxItems": 60, "items": _card_pattern()}
    ids = {"type": "array", "maxItems": 100, "items": {"type": "string"}}
    null = {"type": "object", "additionalProperties": False, "required": ["cards", "in"], "properties": {
        "cards": {**cards, "description": "the cards that may be null"},
        "in": {**ids, "description": "the groupings they may join as nothing, making them larger"}}}
    wild = {"type": "object", "additionalProperties": False, "required": ["cards"], "properties": {
        "cards": {**cards, "description": "the wild cards"},
        "never": {**cards, "description": "cards a wild card may not stand for"}}}
    devalue = {"type": "object", "additionalProperties": False, "required": ["cards", "to"], "properties": {
        "cards": {**cards, "description": "the cards devalued"},
        "to": {"type": "array", "minItems": 1, "maxItems": 10, "items": {"type": "integer", "minimum": -100, "maximum": 100},
               "description": "the values they may still count"},
        "count": {"type": "integer", "minimum": 1, "maximum": 30,
                  "description": "how many of the hand's such cards are devalued, the player choosing which (default: all)"},
        "spare": {**ids, "description": "a hand whose best grouping is one of these is not devalued"},
        "if_uses": {**cards, "description": "only a hand whose groupings use one of these cards is devalued; the player "
                                            "may leave them out instead"}}}
    shift = {"type": "object", "additionalProperties": False, "required": ["points", "low", "high"], "properties": {
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
    card = {"type": "object", "properties": {"rank": {"type": ["string", "integer"]}, "suit": {"type": "string"}},
            "required": ["rank", "suit"], "additionalProperties": False}
    ids = {"type": "array", "maxItems": 50, "items": {"type": "string", "pattern": ID_PATTERN}}
    changes = {"type": "array", "minItems": 1, "maxItems": 50, "items": {"type": "string", "maxLength": 2000}}
    modifier = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "maxLength": 80},
            "says": {"type": "string", "maxLength": 1000},
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
            "compel": {**card, "description": "on declaring, the player still in who holds this card lays it face up, "
                                              "then every other player still in lays one face-down card of hir choice "
                                              "face up"},
            "unheld": {**changes, "description": "rule changes applied (to the `to` target) when nobody still in holds "
                                                 "the `compel` card"},
        },
        "oneOf": [{"required": ["declare"]}, {"required": ["visible"]}, {"required": ["always"]}, {"required": ["after"]}],
        "anyOf": [{"required": ["changes"]}, {"required": ["replace"]}, {"required": ["compel"]}],
        "dependentRequired": {"replace": ["declare"], "must": ["declare"], "not_by": ["declare"], "compel": ["declare"],
                              "unheld": ["compel"]},
        "required": ["enabled"] if resolved else [],
        "additionalProperties": False,
    }
    return {"type": "object", "propertyNames": {"pattern": ID_PATTERN, "not": {"enum": ["all", "declarer", "others"]}},
            "maxProperties": 50, "additionalProperties": modifier,
            "description": "named rule overlays that come into play during a round (Cripple Mr Onion's modifiers)"}


def _table() -> dict:
    """A round at a table of several players (Cripple Mr Onion): seats, the deals by role, the draw, the showdown."""
    face = {"enum": ["up", "down"]}
    return {
        "type": "object",
        "description": "a round played at a table: the players' hands are dealt by role, improved by a draw, and compared "
                       "at a showdown with the `hands` rules (no money: the non-gambling game)",
        "properties": {
            "seats": {"type": "array", "items": {"type": "integer", "minimum": 2, "maximum": 12}, "minItems": 2, "maxItems": 2,
                      "description": "the fewest and the most players, [min, max]"},
            "deal": {"type": "array", "minItems": 1, "maxItems": 20,
                     "items": {"type": "object", "properties": {"dealer": {"type": "integer", "minimum": 0, "maximum": 30},
                                                                "others": {"type": "integer", "minimum": 0, "maximum": 30}},
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
                "count": {"type": "integer", "minimum": 1, "maximum": 30},
                "dealer": face, "others": face},
                "required": ["count", "dealer", "others"], "additionalProperties": False,
                "description": "a second deal of `count` cards each, face up or down by role"},
            "money": {"type": "object", "properties": {
                "stake": {"type": "integer", "minimum": 1, "maximum": 1000000, "description": "what each player puts in the pot"},
                "chips": {"type": "integer", "minimum": 1, "maximum": 1000000000, "description": "each player's chips at the start"},
                "cannot_cover": {"enum": ["fold"], "description": "a player who cannot cover the stake: `fold` sits the round out"},
                "max_bet": {"type": "integer", "minimum": 0, "maximum": 1000000,
                            "description": "the most the dealer may name, and the most a player may raise, in one part"},
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
        "deal": {"oneOf": [{"type": "array", "maxItems": 60, "items": {"oneOf": [
                     {"enum": ["up", "down"]},
                     {"type": "string", "pattern": "^[ud.]( [ud.])*$",
                      "description": "one letter per pile: u face up, d face down, . no card"}]}},
                     {"const": "rest"}],
                 "description": "rows dealt at the start, first (bottom) row first; `rest` takes every card left"},
        "prefill": {"type": "string", "description": "before the deal, move the first card matching this to each pile"},
        "divert": {"type": "object", "properties": {"when": _expr(), "to": {"type": "string"}}, "required": ["when", "to"],
                   "additionalProperties": False,
                   "description": "while cards are dealt here, one for which `when` holds goes to a pile of `to` that takes it instead, "
                                  "and the next card is dealt in its place"},
        "refill": {"type": "object", "properties": {"from": {"type": "string"}, "count": {"type": "integer", "minimum": 1, "maximum": 104}},
                   "required": ["from", "count"], "additionalProperties": False,
                   "description": "when a pile here is emptied, deal it `count` cards from the `from` group's pile at once"},
        "top_face_up": {"type": "boolean", "description": "the top card of each pile lies face up (a hand turned one card at a time)"},
        "reveal": {"type": "string", "description": "how many face-down cards under a pile's top the player may look at"},
        "dealing": _rule(resolved),
        "build": _rule(resolved),
        "empty": _rule(resolved),
        "take": _rule(resolved),
        "sequence": _rule(resolved),
        "discard": _rule(resolved),
        "discard_to": {"type": "string", "description": "the group whose first pile takes the cards this group discards"},
        "flip": {"type": "boolean", "description": "turn up a face-down top card when it is uncovered"},
        "turn": {
            "type": "object",
            "properties": {
                "to": {"type": "string"},
                "count": {"type": "integer", "minimum": 1, "maximum": 104},
                "each": {"type": "boolean", "description": "one card to each pile of the group"},
            },
            "required": ["to"],
            "additionalProperties": False,
            "description": "a deal from this pile: where its cards go",
        },
        "redeals": {"oneOf": [{"type": "integer", "minimum": 0, "maximum": 1000}, {"const": "unlimited"}]},
        "redeal": {
            "type": "object",
            "properties": {
                "gather": {"type": "array", "items": {"type": "string"},
                           "description": "groups whose cards come back, pile by pile, first pile first, turned over onto this pile"},
                "shuffle": {"type": "boolean", "description": "shuffle the gathered cards (from the deal's own random stream)"},
                "deal": {"type": "array", "items": {"type": "string"}, "description": "groups dealt again as at the start"},
                "when": _expr(),
            },
            "additionalProperties": False,
            "description": "what a redeal does, and when it may be made (default: when this pile is empty)",
        },
    }
    g = {"type": "object", "properties": props, "additionalProperties": False}
    if resolved:
        g["required"] = ["role", "count", "tag", "deal", "build", "empty", "take", "sequence", "dealing", "flip", "top_face_up",
                         "redeals"]
    return g


def _ruleset(resolved: bool) -> dict:
    suit = {
        "type": "object",
        "properties": {"name": {"type": "string", "pattern": NAME_PATTERN}, "symbol": {"type": "string"},
                       "letter": {"type": "string", "maxLength": 2}, "color": {"type": "string", "pattern": NAME_PATTERN},
                       "family": {"type": "string", "pattern": NAME_PATTERN,
                                  "description": "the suit whose family this suit belongs to (default: its own); "
                                                 "`card.family` and `same_family(cards)` read it"}},
        "required": ["name", "color"],
        "additionalProperties": False,
    }
    card = {"type": "object", "properties": {"rank": {"type": ["string", "integer"]}, "suit": {"type": "string"}},
            "required": ["rank", "suit"], "additionalProperties": False}
    deck = {
        "type": "object",
        "properties": {
            "packs": {"oneOf": [{"type": "integer", "minimum": 1, "maximum": 8},
                                {"type": "array", "maxItems": 8, "items": {"type": "object", "properties": {
                                    "name": {"type": "string"}, "suits": {"type": "array", "items": {"type": "string"}}},
                                    "required": ["suits"], "additionalProperties": False}}]},
            "ranks": {"type": "array", "items": {"type": ["string", "integer"]}, "minItems": 1, "maxItems": 30},
            "suits": {"type": "array", "items": suit, "minItems": 1, "maxItems": 12},
            "values": {"type": "object", "additionalProperties": {
                "oneOf": [{"type": "integer"}, {"type": "array", "items": {"type": "integer"}, "minItems": 1}]}},
            "marks": {"type": "object", "additionalProperties": {"type": "array", "items": card}},
            "wild": {"type": "array", "items": card, "description": "cards that stand for others (reserved for later rulesets)"},
            "shuffle": {"enum": SHUFFLES,
                        "description": "before each deal of a match: always shuffle, let the player choose, or never (deal the "
                                       "pack as it was gathered)"},
        },
        "additionalProperties": False,
    }
    lose = {"type": "object", "properties": {"id": {"type": "string", "pattern": ID_PATTERN}, "when": _expr(),
                                             "says": {"type": "string"}},
            "required": ["id", "when"], "additionalProperties": False}
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "kallisti ruleset" + ("" if resolved else " file"),
        "type": "object",
        "properties": {
            "game": {"type": "string", "minLength": 1},
            "description": {"type": "string"},
            "deck": deck,
            "piles": {"type": "object", "propertyNames": {"pattern": NAME_PATTERN}, "minProperties": 1,
                      "maxProperties": 40, "additionalProperties": _group(resolved)},
            "auto": {"type": "array", "items": _pattern()},
            "compulsory": {"type": "array", "items": _pattern()},
            "lose": {"type": "array", "items": lose},
            "win": _expr(),
            "score": _expr(),
            "honour": {"type": "object", "propertyNames": {"pattern": ID_PATTERN}, "maxProperties": 100,
                       "additionalProperties": _honour(),
                       "description": "honour rules: text rules shown at a moment of play and acknowledged by the player"},
            "match": _match(resolved),
            "hands": _hands(resolved),
            "table": _table(),
            "modifiers": _modifiers(resolved),
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
        schema["properties"]["add"] = {"type": "object", "description": "keys the parent does not have, added explicitly"}
        schema["properties"]["changes"] = {"type": "array", "items": {"$ref": "#/$defs/patch"},
                                           "description": "explicit patches, applied in order after the overrides"}
        schema["$defs"]["patch"] = PATCH_SCHEMA
        schema["required"] = ["game"]
    return schema


PATCH_SCHEMA = {
    "type": "object",
    "description": "one edit of a ruleset: exactly one verb key",
    "oneOf": [
        {"required": ["set", "value"], "properties": {"set": {"type": "string"}, "value": {}}, "additionalProperties": False},
        {"required": ["add", "value"], "properties": {"add": {"type": "string"}, "value": {}}, "additionalProperties": False},
        {"required": ["delete"], "properties": {"delete": {"type": "string"}}, "additionalProperties": False},
        {"required": ["require", "id", "expr"], "properties": {"require": {"type": "string"}, "id": {"type": "string", "pattern": ID_PATTERN},
                                                               "expr": _expr(), "says": {"type": "string"}}, "additionalProperties": False},
        {"required": ["forbid", "id", "expr"], "properties": {"forbid": {"type": "string"}, "id": {"type": "string", "pattern": ID_PATTERN},
                                                              "expr": _expr(), "says": {"type": "string"}}, "additionalProperties": False},
        {"required": ["replace", "id"], "properties": {"replace": {"type": "string"}, "id": {"type": "string"}, "require": _expr(),
                                                       "forbid": _expr(), "says": {"type": "string"}}, "additionalProperties": False},
        {"required": ["remove", "id"], "properties": {"remove": {"type": "string"}, "id": {"type": "string"}}, "additionalProperties": False},
        {"required": ["revoke"], "properties": {"revoke": {"type": "string"}}, "additionalProperties": False},
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
