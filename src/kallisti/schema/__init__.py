"""The ruleset JSON Schemas: one for what a file may contain, one for a resolved ruleset."""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path

# The schemas' limits and words, which the loader, the front ends and the checks read as `kallisti.schema.NAME`.
from kallisti.schema.parts import (  # noqa: F401
    CARDS, FANS, GROUPS, ID_PATTERN, LAYOUT_PLACES, MOMENTS, MOVE_PATTERNS, NAME_PATTERN, ROLES, RULE_ITEMS, SHUFFLES,
)
from kallisti.schema.parts import (card_schema, clause_schema, expr_schema, hands_schema, honour_schema, layout_schema,
                                   match_schema, modifiers_schema, pattern_schema, rule_schema, table_schema)

HERE = Path(__file__).parent

# Limits on untrusted rulesets that the schema states (docs/security.md): each refusal is a `schema` finding.
MAX_FILE_CHANGES = 200  # patches under a file's `changes:` (each is applied to a copy of the whole ruleset)
MAX_CARD_VALUE = 1000  # largest value, positive or negative, a rank may count in `deck.values`
MAX_VALUE_CHOICES = 8  # alternatives one rank may count (`A: [1, 11]` is two); `totals()` tries every mix of them
MAX_DEAL_ROWS = 60  # rows of a group's `deal`; the .rules reader refuses `deal N face up` past it before making N rows


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
        "prefill": expr_schema("an expression on `card`: before the deal, each pile takes the first card for which it holds"),
        "divert": {"type": "object", "properties": {
                       "when": expr_schema("an expression on `card`: a card for which it holds is diverted"),
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
        "dealing": rule_schema(resolved, "when a deal from this pile is allowed: judged in the whole position, `pile` this pile"),
        "build": rule_schema(resolved, "what a pile of this group builds: may `card` (the bottom card of what moves) go on `top`?"),
        "empty": rule_schema(resolved, "what a space takes: may `card` go into an empty pile of this group?"),
        "take": rule_schema(resolved, "what may leave a pile of this group: may these `cards` (`count` of them) leave it?"),
        "take_from": {"type": "array", "minItems": 1, "maxItems": 4, "uniqueItems": True,
                      "items": {"enum": ["top", "bottom", "any", "runs"]},
                      "description": "which cards of a pile may leave it, as `take` allows: `top` (a run ending at the top, "
                                     "the default), `bottom` (the bottom card, the first dealt), `any` (any one face-up "
                                     "card), `runs` (any run of adjacent face-up cards); the cards above close up"},
        "sequence": rule_schema(resolved, "runs that leave together: judged for each pair of a moving run, `card` lying on `top`"),
        "discard": rule_schema(resolved, "what the group discards: may this window of adjacent face-up cards (`cards`, left to "
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
                "when": expr_schema("an expression (`pile`: this pile): a redeal is allowed when it holds (default: "
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
    card = card_schema()
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
                "when": expr_schema("an expression: the game is lost when it holds"),
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
            "auto": {"type": "array", "items": pattern_schema(), "maxItems": MOVE_PATTERNS,
                     "description": "automatic moves: patterns played after each move or on the `a` command"},
            "compulsory": {"type": "array", "items": pattern_schema(), "maxItems": MOVE_PATTERNS,
                           "description": "compulsory moves: when one matches, only matching moves are legal"},
            "lose": {"type": "array", "items": lose, "maxItems": MOVE_PATTERNS,
                     "description": "loss conditions beyond \"no legal move is left\""},
            "win": expr_schema("an expression: the game is won when it holds"),
            "score": expr_schema("an expression: the score shown and reported (default 0)"),
            "honour": {"type": "object", "propertyNames": {"pattern": ID_PATTERN}, "maxProperties": 100,
                       "additionalProperties": honour_schema(),
                       "description": "honour rules: text rules shown at a moment of play and acknowledged by the player"},
            "match": match_schema(resolved),
            "hands": hands_schema(resolved),
            "table": table_schema(),
            "modifiers": modifiers_schema(resolved),
            "layout": layout_schema(),
        },
        "additionalProperties": False,
        "$defs": {"clause": clause_schema()},
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
                                                               "expr": expr_schema("the expression the clause requires"),
                                                               "says": _patch_says()}, "additionalProperties": False},
        {"required": ["forbid", "id", "expr"], "properties": {"forbid": _key("the rule to add a forbid clause to"),
                                                              "id": _patch_id("the new clause's id"),
                                                              "expr": expr_schema("the expression the clause forbids"),
                                                              "says": _patch_says()}, "additionalProperties": False},
        {"required": ["replace", "id"], "properties": {"replace": _key("the rule whose clause is replaced"),
                                                       "id": {"type": "string", "description": "the id of the clause replaced"},
                                                       "require": expr_schema("the replacing clause's required expression "
                                                                        "(the clause becomes a require clause)"),
                                                       "forbid": expr_schema("the replacing clause's forbidden expression "
                                                                       "(the clause becomes a forbid clause)"),
                                                       "expr": expr_schema("the replacing clause's expression, of the kind of "
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


def schema_table() -> str:
    """The Markdown table of the most items of every list and keys of every map of keys an author chooses, as the
    ruleset schemas say them (a ruleset file's, then what only a resolved ruleset has)."""
    rows = ["| Where | Most |", "| --- | ---: |"]
    seen = set()
    for kind in ("file", "resolved"):
        for path, what, most in count_limits(kind):
            if (path, what) not in seen:
                seen.add((path, what))
                most_text = f"{most:,}" if most is not None else "no limit"
                rows.append(f"| `{path}` | {most_text} {what} |")
    return "\n".join(rows) + "\n"


@functools.lru_cache(maxsize=1)
def validator_class():
    """The JSON Schema validator of ruleset data: Draft 2020-12 whose integers are ints. JSON Schema takes 10.0 for an
    integer (it judges the value, not its type), but range(), list indexes and card counts do not: a count written
    `10.0` is refused by the schema here, not by a TypeError in the compiler. jsonschema is imported here, when a
    schema is first checked: it is slow to import, and commands that check none (`--help`, `list`) never pay for it."""
    import jsonschema

    types = jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool))
    return jsonschema.validators.extend(jsonschema.Draft202012Validator, type_checker=types)
