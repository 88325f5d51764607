"""The parts of the ruleset schemas: their limits and words, and the schemas of cards, rules, patterns, match, hands, modifiers and tables."""

from __future__ import annotations

ROLES = ["tableau", "foundation", "stock", "waste", "reserve", "cell", "line", "field", "hand", "discard"]
ID_PATTERN = "^[a-z0-9][a-z0-9-]*$"
NAME_PATTERN = "^[a-z][a-z0-9_]*$"
SHUFFLES = ["always", "optional", "never"]
MOMENTS = ["match-start", "turn-start", "before-deal", "before-move", "turn-end"]
FANS = ["down", "right", "none"]  # how a pile's cards are spread on the table (layout hints)
LAYOUT_PLACES = 100  # rows and columns of layout hints are 0 .. LAYOUT_PLACES - 1 (the page reads the same range)

# Every list of a ruleset has a most items and every map with keys of the author's choosing a most keys (tests/hostile/
# test_security_bounds.py walks the schema to make sure, and docs/security.md lists them all, from `count_limits`):
GROUPS = 40  # pile groups, so also the groups a list may name (`from`, `to`, `gather`)
CARDS = 360  # the distinct cards of the largest deck (30 ranks of 12 suits): the cards a list may name
RULE_ITEMS = 100  # clauses (or phrases) of one rule
MOVE_PATTERNS = 100  # automatic moves, compulsory moves, loss conditions: each list


def expr_schema(what: str = "an expression of the rule language") -> dict:
    return {"type": ["string", "boolean"], "description": what}


RANK = {"type": ["string", "integer"], "description": "a rank name of the deck (`A`, `10`, `K`)"}
SUIT = {"type": "string", "description": "a suit name of the deck (`spades`)"}


def card_schema() -> dict:
    """One card of the deck, by rank and suit."""
    return {"type": "object", "properties": {"rank": dict(RANK), "suit": dict(SUIT)},
            "required": ["rank", "suit"], "additionalProperties": False}


def clause_schema() -> dict:
    return {
        "type": "object",
        "description": "a rule clause: an id and one expression, required or forbidden",
        "properties": {
            "id": {"type": "string", "pattern": ID_PATTERN, "description": "stable id, named by rule changes"},
            "require": expr_schema("an expression that must hold for the move to be allowed"),
            "forbid": expr_schema("an expression that refuses the move when it holds"),
            "says": {"type": "string", "description": "what the clause means, used in refusals"},
            "macro": {"type": "string", "description": "the macro phrase this clause came from"},
        },
        "required": ["id"],
        "oneOf": [{"required": ["require"]}, {"required": ["forbid"]}],
        "additionalProperties": False,
    }


def rule_schema(resolved: bool, what: str) -> dict:
    """A rule: a macro phrase, an expression or a clause, or a list of them (`what`: what it decides)."""
    if resolved:
        return {"type": "array", "items": {"$ref": "#/$defs/clause"}, "maxItems": RULE_ITEMS, "description": what}
    item = {"oneOf": [{"type": "string"}, {"$ref": "#/$defs/clause"}]}
    return {"oneOf": [{"type": "string"}, {"type": "boolean"}, {"$ref": "#/$defs/clause"}, {"type": "array", "items": item, "maxItems": RULE_ITEMS}],
            "description": what + " (a macro phrase such as `down in suit`, an expression, or a list of clauses)"}


def pattern_schema() -> dict:
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
            "when": expr_schema("an expression on the move (`card`, `top`, as in a build rule): the pattern matches only when "
                          "it holds"),
            "trigger": {"enum": ["each-move", "on-request"],
                        "description": "when an automatic move is played: after every move (default), or on request "
                                       "(the `a` command)"},
            "says": {"type": "string", "description": "what the pattern is for, in words"},
        },
        "required": ["id"],
        "additionalProperties": False,
    }


def honour_schema() -> dict:
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


def layout_schema() -> dict:
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


def match_schema(resolved: bool) -> dict:
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


def hands_schema(resolved: bool) -> dict:
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
            "when": expr_schema("an expression on the group's `cards` (and `count`): the cards form the grouping when it holds"),
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


def modifiers_schema(resolved: bool) -> dict:
    """Named rule overlays: rule changes that apply when a modifier is in play (brought in by a card, by the start of a
    round, or by what the round before showed), to all hands or to some players' only."""
    card = card_schema()
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


def table_schema() -> dict:
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
