"""Operators on a shipped ruleset's resolved data, written back as a standalone YAML file: the schema, the pile
groups and their rules, the deal, and the win."""

from __future__ import annotations

import copy

from kallisti.rule_words import macro_names

from .base import (BIG, RULE_KEYS, Shipped, add_clause, clause_expr, dealt, drop_last_row, freeze, fresh_name, get_in,
                   live_rules, misspell, misspelt_references, monotone, named_groups, operator, pick, piles, references, refuses_all, rename_group,
                   rest_group, rest_size, row_cards, set_in, standalone, where, win_needs_all, win_needs_empty)

GROUP_KEYS = ("role", "count", "tag", "deal", "prefill", "divert", "refill", "top_face_up", "reveal", "dealing", "build",
              "empty", "take", "take_from", "sequence", "discard", "discard_to", "flip", "turn", "redeals", "redeal")
TOP_KEYS = ("extends", "game", "description", "deck", "piles", "auto", "compulsory", "lose", "win", "score", "honour",
            "match", "hands", "table", "modifiers", "layout", "add", "changes")
RESERVED = ("card", "top", "pile", "source", "cards", "count", "deck", "first", "last", "ranks")
MAX_PILES, MAX_GROUP_PILES, MAX_CLAUSES, MAX_ROWS = 400, 200, 500, 60
MAX_RULE_CLAUSES = 100  # clauses one rule may have


# -- the schema ---------------------------------------------------------------------------------------------------

def rename_key(mapping: dict, old: str, new: str) -> dict:
    """The mapping with the key `old` called `new`, in the same place."""
    return {new if k == old else k: v for k, v in mapping.items()}


@operator("misspelt-key", "schema")
def misspelt_key(game, rng):
    """A key of the ruleset or of a pile group is misspelt (`bulid` for `build`): the schema knows no such key (and
    misses a required one)."""
    places = [((), key) for key in game.data] + [(("piles", n), key) for n, g in piles(game.data).items() for key in g]
    out = []
    for path, key in pick(rng, places):
        data = game.fresh()
        wrong = misspell(key, rng, GROUP_KEYS + TOP_KEYS)
        if path:
            set_in(data, path, rename_key(get_in(data, path), key, wrong))
        else:
            data = rename_key(data, key, wrong)
        out.append(standalone(data, f"{where(path + (key,))} spelt {wrong}"))
    return out


# -- pile groups --------------------------------------------------------------------------------------------------
@operator("unknown-take-mode", "schema")
def unknown_take_mode(game, rng):
    """A pile group's `take_from` names a place cards cannot leave from (`middle`): top, bottom, any and runs only."""
    out = []
    for name in pick(rng, list(piles(game.data))):
        data = game.fresh()
        data["piles"][name]["take_from"] = ["top", "middle"]
        out.append(standalone(data, f"piles.{name}.take_from names middle"))
    return out


@operator("reserved-group-name", "reserved-name")
def reserved_group_name(game, rng):
    """A pile group is renamed, everywhere it is named, to a word of the rule language (`card`, `first`, a suit or
    colour name...): in an expression that word means something else, so no group may have it."""
    deck = game.data["deck"]
    words = RESERVED + tuple(s["name"] for s in deck["suits"]) + tuple({s["color"] for s in deck["suits"]})
    out = []
    for name in pick(rng, piles(game.data)):
        new = rng.choice(sorted(set(words) - set(piles(game.data))))
        out.append(standalone(rename_group(game.fresh(), name, new), f"piles.{name} renamed {new}"))
    return out


@operator("shared-tag", "duplicate-tag")
def shared_tag(game, rng):
    """A pile group is given another group's tag, so two groups share one tag."""
    groups = piles(game.data)
    out = []
    for a, b in pick(rng, [(a, b) for a in groups for b in groups if a != b]):
        data = game.fresh()
        piles(data)[b]["tag"] = groups[a]["tag"]
        out.append(standalone(data, f"piles.{b}.tag set to {a}'s tag '{groups[a]['tag']}'"))
    return out


@operator("too-many-piles", "too-many-piles")
def too_many_piles(game, rng):
    """Groups are given the most piles a group may have (200), one after another, until there are more than 400 piles
    in all, the most a ruleset may have."""
    data = game.fresh()
    raised = []
    for name in pick(rng, piles(data), len(piles(data))):
        if sum(g["count"] for g in piles(data).values()) > MAX_PILES:
            break
        piles(data)[name]["count"] = MAX_GROUP_PILES
        raised.append(name)
    if sum(g["count"] for g in piles(data).values()) <= MAX_PILES:
        return []
    return [standalone(data, f"{', '.join(raised)} given {MAX_GROUP_PILES} piles each")]


@operator("too-many-clauses", "too-many-clauses")
def too_many_clauses(game, rng):
    """Rules get 501 more clauses in all (each forbidding a pile larger than the deck plus N, which reads the position),
    past the 500 clauses the rules of a ruleset may have in all: the chosen rule first, then the other rules in turn,
    none past the 100 clauses one rule may have."""
    out = []
    for name, key in pick(rng, [(n, k) for n in piles(game.data) for k in ("build", "empty", "take")]):
        data = game.fresh()
        places = [(name, key)] + [(n, k) for n, g in piles(data).items() for k in RULE_KEYS
                                  if isinstance(g.get(k), list) and (n, k) != (name, key)]
        added = 0
        for group, rule_key in places:
            rule = piles(data)[group][rule_key]
            base = fresh_name((c["id"] for c in rule), "bound")
            more = min(MAX_RULE_CLAUSES - len(rule), MAX_CLAUSES + 1 - added)
            rule += [{"id": f"{base}-{i}", "forbid": f"pile.size > deck.size + {added + i}"} for i in range(max(more, 0))]
            added += max(more, 0)
        out.append(standalone(data, f"piles.{name}.{key} and the rules after it given {added} more clauses"))
    return out


MACRO_WORDS = frozenset(w for phrase in macro_names() for w in phrase.replace(",", " ").split())


@operator("misspelt-macro", "unknown-macro")
def misspelt_macro(game, rng):
    """A rule written as a macro phrase (`down in suit`) is written with a word of the phrase misspelt (`down in siut`),
    a word no macro phrase has, so the phrase is no macro."""
    places = sorted({(n, k, c["macro"]) for n, g in piles(game.data).items() for k in RULE_KEYS
                     for c in g.get(k) or [] if "macro" in c})
    out = []
    for name, key, phrase in pick(rng, places):
        data = game.fresh()
        phrase_words = phrase.split()
        i = rng.randrange(len(phrase_words))
        wrong = " ".join(phrase_words[:i] + [misspell(phrase_words[i], rng, MACRO_WORDS)] + phrase_words[i + 1:])
        group = piles(data)[name]
        group[key] = [wrong] + [c for c in group[key] if c.get("macro") != phrase]
        out.append(standalone(data, f"piles.{name}.{key}: '{phrase}' written '{wrong}'"))
    return out


@operator("discard-half-pair", "discard-pair")
def discard_half_pair(game, rng):
    """A group that discards loses its `discard_to`, or a group that does not discard is given one: `discard` and
    `discard_to` go together."""
    groups = piles(game.data)
    out = []
    for name in pick(rng, groups):
        data = game.fresh()
        group = piles(data)[name]
        if "discard" in group:
            del group["discard_to"]
            out.append(standalone(data, f"piles.{name} discards with no discard_to"))
        else:
            group["discard_to"] = rng.choice(sorted(set(groups) - {name}) or [name])
            out.append(standalone(data, f"piles.{name} given discard_to {group['discard_to']} but no discard rule"))
    return out


@operator("repeated-clause", "duplicate-clause")
def repeated_clause(game, rng):
    """A clause of a rule is written twice, so the rule has two clauses with one id."""
    places = [(n, k, i) for n, g in piles(game.data).items() for k in RULE_KEYS for i in range(len(g.get(k) or []))]
    out = []
    for name, key, i in pick(rng, places):
        data = game.fresh()
        rule = piles(data)[name][key]
        rule.insert(i + 1, copy.deepcopy(rule[i]))
        out.append(standalone(data, f"piles.{name}.{key}: clause '{rule[i]['id']}' written twice"))
    return out


@operator("overflowing-card-clause", "rule-error")
def overflowing_card_clause(game, rng):
    """A rule that allows something gets, as its first clause (so it is judged for every card), a clause reading only
    the moving card whose product passes 10^18 for every rank but the first (`(card.rank - first + 1) * 10^9 * 10^9 >
    0`): tabulating the rule fails for those cards."""
    out = []
    for name, key in pick(rng, live_rules(game.data)):
        data = add_clause(game.fresh(), name, key, "require", f"(card.rank - first + 1) * {BIG} * {BIG} > 0", first=True)
        out.append(standalone(data, f"piles.{name}.{key} given a clause overflowing past the first rank"))
    return out


@operator("misspelt-pile-reference", "unknown-pile")
def misspelt_pile_reference(game, rng):
    """A place that names a pile group (`turn.to`, a `redeal`, `divert`, `refill`, `discard_to`, a move pattern's `from`
    or `to`) names it misspelt, which is no group."""
    return misspelt_references(game, rng, references(game.data), list(piles(game.data)) + ["any"])


@operator("misspelt-layout-group", "unknown-pile")
def misspelt_layout_group(game, rng):
    """A layout hint is given for a pile group with its name misspelt (`wsate` for `waste`), which is no group."""
    out = []
    for name in pick(rng, piles(game.data)):
        data = game.fresh()
        layout = data.setdefault("layout", {})
        wrong = misspell(name, rng, list(piles(data)) + list(layout))
        layout[wrong] = {"fan": rng.choice(["down", "right", "none"])}
        out.append(standalone(data, f"a layout hint for '{wrong}' (meaning {name})"))
    return out


@operator("stacked-layout-hints", "layout-overlap")
def stacked_layout_hints(game, rng):
    """Two pile groups are given layout hints with the same row and column: the page cannot put both in one place."""
    groups = list(piles(game.data))
    out = []
    for a, b in pick(rng, [(a, b) for i, a in enumerate(groups) for b in groups[i + 1:]]):
        data = game.fresh()
        place = {"row": rng.randrange(3), "column": rng.randrange(4)}
        layout = data.setdefault("layout", {})
        for name in (a, b):
            layout[name] = {**layout.get(name, {}), **place}
        out.append(standalone(data, f"layout hints put {a} and {b} both at row {place['row']}, column {place['column']}"))
    return out


@operator("turn-to-itself", "turn-to-self")
def turn_to_itself(game, rng):
    """A group that deals cards (`turn`) is made to deal them onto itself."""
    out = []
    for name in pick(rng, [n for n, g in piles(game.data).items() if "turn" in g]):
        data = game.fresh()
        piles(data)[name]["turn"]["to"] = name
        out.append(standalone(data, f"piles.{name}.turn.to names {name}"))
    return out


@operator("repeated-move-pattern", "duplicate-id")
def repeated_move_pattern(game, rng):
    """An automatic or compulsory move is written twice (where there is none, one is added twice), so two moves share
    an id."""
    patterns = [(key, i) for key in ("auto", "compulsory") for i in range(len(game.data.get(key, [])))]
    if not patterns and piles(game.data):
        data = game.fresh()
        to = rng.choice(sorted(piles(data)))
        data["auto"] = [{"id": "tidy-up", "from": "any", "to": to, "trigger": "on-request"} for _ in range(2)]
        return [standalone(data, f"two automatic moves to {to} with the id 'tidy-up'")]
    out = []
    for key, i in pick(rng, patterns):
        data = game.fresh()
        data[key].insert(i + 1, copy.deepcopy(data[key][i]))
        out.append(standalone(data, f"{key}[{i}] ('{data[key][i]['id']}') written twice"))
    return out


# -- the deal -----------------------------------------------------------------------------------------------------

def row_groups(data: dict) -> list[str]:
    """The groups dealt rows that lay cards (not `deal: rest`)."""
    return [n for n, g in piles(data).items() if g["deal"] != "rest" and any(row_cards(r, g["count"]) for r in g["deal"])]


@operator("overdealt-group", "deal-too-large")
def overdealt_group(game, rng):
    """A group is dealt extra face-up rows (no more than the 60 rows a deal may have), enough for the rows alone to need
    more cards than the deck has."""
    left = game.deck_size - sum(dealt(g) for g in piles(game.data).values())

    def extra(g):
        return left // g["count"] + 1
    fits = [n for n, g in piles(game.data).items() if g["deal"] != "rest" and len(g["deal"]) + extra(g) <= MAX_ROWS]
    out = []
    for name in pick(rng, fits):
        data = game.fresh()
        group = piles(data)[name]
        group["deal"] = list(group["deal"]) + ["up"] * extra(group)
        out.append(standalone(data, f"piles.{name} dealt {extra(group)} more face-up rows"))
    return out


@operator("short-deal", "deal-leftover")
def short_deal(game, rng):
    """No group takes `deal: rest` any more, and (when the rows used the whole deck) a dealt row is dropped: the deal
    leaves cards over."""
    out = []
    rest = rest_group(game.data)
    choices = row_groups(game.data) if not rest or not rest_size(game, game.data) else [None]
    for name in pick(rng, choices):
        data = game.fresh()
        if rest:
            piles(data)[rest]["deal"] = []
        if name is not None:
            drop_last_row(piles(data)[name])
        out.append(standalone(data, "no deal: rest" + (f", and piles.{name} dealt a row less" if name else "")))
    return out


@operator("ragged-row", "deal-row-length")
def ragged_row(game, rng):
    """A row of a group's deal is written pile by pile with one letter more than the group has piles (a `.`, no card,
    so the cards dealt do not change)."""
    places = [(n, i) for n in row_groups(game.data) for i in range(len(piles(game.data)[n]["deal"]))]
    out = []
    for name, i in pick(rng, places):
        data = game.fresh()
        group = piles(data)[name]
        row = group["deal"][i]
        letters = " ".join(row[0] * group["count"]) if row in ("up", "down") else row
        group["deal"][i] = letters + " ."
        out.append(standalone(data, f"piles.{name}.deal row {i + 1} written '{group['deal'][i]}'"))
    return out


@operator("face-down-on-up", "deal-order")
def face_down_on_up(game, rng):
    """A group dealt two or more whole rows is dealt a face-up row first and face-down rows after it (as many cards as
    before), putting face-down cards on face-up ones."""
    def whole_rows(g):
        return g["deal"] != "rest" and len(g["deal"]) >= 2 and set(g["deal"]) <= {"up", "down"}
    out = []
    for name in pick(rng, [n for n, g in piles(game.data).items() if whole_rows(g)]):
        data = game.fresh()
        group = piles(data)[name]
        group["deal"] = ["up"] + ["down"] * (len(group["deal"]) - 1)
        out.append(standalone(data, f"piles.{name} dealt {group['deal']}"))
    return out


@operator("second-rest", "two-rests")
def second_rest(game, rng):
    """A second group is given `deal: rest`, so two groups claim the rest of the pack."""
    rest = rest_group(game.data)
    others = [n for n in piles(game.data) if n != rest]
    out = []
    for name in pick(rng, others if rest else others[1:]):
        data = game.fresh()
        for group in (name, rest or others[0]):
            piles(data)[group]["deal"] = "rest"
        out.append(standalone(data, f"piles.{name} also takes deal: rest"))
    return out


def fed_by_others(data: dict, name: str) -> bool:
    """Whether cards reach the group other than by moves its build and empty rules judge: a group turns or redeals
    cards onto it, or it has a refill."""
    return "refill" in piles(data)[name] or any(
        g.get("turn", {}).get("to") == name or name in g.get("redeal", {}).get("deal", []) for g in piles(data).values())


def fed_by_moves_only(data: dict, name: str) -> bool:
    """Whether the group is dealt nothing and cards reach it only by moves its build and empty rules judge."""
    return piles(data)[name]["deal"] == [] and not fed_by_others(data, name)


@operator("undealt-stock", "empty-stock")
def undealt_stock(game, rng):
    """A stock that takes the rest of the pack, and gets no card back (no redeal, nothing is built on it), is dealt
    nothing; the rest goes to the group it turns cards onto: its `turn` can never deal a card."""
    def stock(name, g):
        return (g["deal"] == "rest" and "turn" in g and g["redeals"] == 0 and "redeal" not in g
                and refuses_all(g["build"]) and refuses_all(g["empty"]) and not fed_by_others(game.data, name))
    out = []
    for name in pick(rng, [n for n, g in piles(game.data).items() if stock(n, g)]):
        data = game.fresh()
        group = piles(data)[name]
        group["deal"] = []
        piles(data)[group["turn"]["to"]]["deal"] = "rest"
        out.append(standalone(data, f"piles.{name} dealt nothing, {group['turn']['to']} the rest"))
    return out


# -- clauses: never true, always true, contradicting ---------------------------------------------------------------

NEVER = {"card": ("card.rank > last", "card.rank < first"), "count": ("count < 1",)}
ALWAYS = {"card": ("card.rank <= last", "card.rank >= first"), "count": ("count >= 1",)}


def constant_clauses(game: Shipped, rng, table: dict, what: str) -> list:
    """Mutants that add to a rule a clause, require or forbid, whose expression is constant over every card (and every
    count, in a `take` rule), taken from `table`."""
    out = []
    for name, key in pick(rng, live_rules(game.data)):
        exprs = table["card"] + (table["count"] if key == "take" else ())
        kind, expr = rng.choice(("require", "forbid")), rng.choice(exprs)
        data = add_clause(game.fresh(), name, key, kind, expr)
        out.append(standalone(data, f"piles.{name}.{key} given `{kind}: {expr}`, {what}"))
    return out


@operator("never-true-clause", "clause-never-true")
def never_true_clause(game, rng):
    """A rule that allows something gets a clause whose expression no card makes true (`card.rank > last`, in a take
    rule `count < 1`): as `require` it refuses every move, as `forbid` it forbids nothing."""
    return constant_clauses(game, rng, NEVER, "never true")


@operator("always-true-clause", "clause-always-true")
def always_true_clause(game, rng):
    """A rule that allows something gets a clause whose expression every card makes true (`card.rank <= last`, in a
    take rule `count >= 1`): as `require` it refuses nothing, as `forbid` it refuses every move."""
    return constant_clauses(game, rng, ALWAYS, "always true")


OPPOSITE = {"card.rank == top.rank - 1": "card.rank == top.rank + 1",
            "card.rank == top.rank + 1": "card.rank == top.rank - 1",
            "card.suit == top.suit": "card.suit != top.suit", "card.suit != top.suit": "card.suit == top.suit",
            "card.color != top.color": "card.color == top.color", "card.color == top.color": "card.color != top.color",
            "card.rank == first": "card.rank == last", "card.rank == last": "card.rank == first"}


@operator("contradicting-clause", "rule-contradiction")
def contradicting_clause(game, rng):
    """A rule gets a clause that contradicts one of its macro clauses for every card (`card.rank == top.rank + 1` where
    the rule requires `card.rank == top.rank - 1`; otherwise `not (...)` of it): each clause can hold, both never."""
    places = [(n, k, c) for n, k in live_rules(game.data) for c in piles(game.data)[n][k]
              if "macro" in c and clause_expr(c)[0] == "require"]
    out = []
    for name, key, clause in pick(rng, places):
        text = clause_expr(clause)[1]
        expr = OPPOSITE.get(" ".join(text.split()), f"not ({text})")
        data = add_clause(game.fresh(), name, key, "require", expr, "contrary")
        out.append(standalone(data, f"piles.{name}.{key}: `{expr}` added against '{clause['id']}'"))
    return out


# -- groups no card reaches or leaves ----------------------------------------------------------------------------

@operator("unreachable-group", "pile-unreachable")
def unreachable_group(game, rng):
    """A pile group is added that is dealt nothing, builds nothing, takes nothing into a space and is no group's
    `turn`, `redeal`, `divert` or `discard_to`: no card can ever reach it."""
    if not piles(game.data):
        return []
    data = game.fresh()
    name = fresh_name(piles(data), "spare")
    piles(data)[name] = {"role": "reserve", "count": rng.randint(1, 4), "build": "none", "empty": "none"}
    return [standalone(data, f"piles.{name} added: {piles(data)[name]['count']} piles no card can reach")]


@operator("inert-group", "pile-inert")
def inert_group(game, rng):
    """A pile group is added whose piles are dealt a card each, face up, that builds nothing, takes nothing into a
    space and gives nothing up: its cards never move. They come out of the rest of the pack, or out of a dealt row
    when nothing is left over, so the deal still uses the deck exactly."""
    if not piles(game.data):
        return []
    data = game.fresh()
    left = rest_size(game, data) if rest_group(data) else 0
    if left:
        count, whence = rng.randint(1, min(4, left)), "the rest"
    else:
        donor = rng.choice(row_groups(data))
        count = drop_last_row(piles(data)[donor])
        whence = f"a row of {donor}"
    name = fresh_name(piles(data), "spare")
    piles(data)[name] = {"role": "reserve", "count": count, "deal": ["up"], "build": "none", "empty": "none",
                         "take": "none"}
    return [standalone(data, f"piles.{name} added: {count} frozen cards taken from {whence}")]


# -- the win ------------------------------------------------------------------------------------------------------

def capacity(game: Shipped, data: dict, names: list[str]) -> int:
    """The most cards the groups `names` hold at once when each pile holds at most one card of each rank."""
    return sum(piles(data)[n]["count"] * len(game.ranks) for n in names)


def one_at_a_time(rule: list) -> bool:
    """Whether a rule lets through only moves of one card (`count == 1`), or nothing."""
    return refuses_all(rule) or any(clause_expr(c) == ("require", "count == 1") for c in rule)


def judged_one_by_one(data: dict, name: str) -> bool:
    """Whether every card that lands on the group is judged by its build or empty rule: they take one card at a time,
    or no group gives up more than one (a run that lands brings cards only its bottom card was judged for)."""
    group = piles(data)[name]
    return (one_at_a_time(group["build"]) and one_at_a_time(group["empty"])
            or all(one_at_a_time(g["take"]) for g in piles(data).values()))


def ranked_foundations(game: Shipped) -> list[str]:
    """The groups the win needs to hold the whole deck, when every one of them builds strictly up or down in rank and
    gets cards only by moves of one card judged by its rules (so a pile holds at most one card of each rank); none
    otherwise."""
    needs = win_needs_all(game.data)
    ok = all(monotone(piles(game.data)[n]) and fed_by_moves_only(game.data, n) and judged_one_by_one(game.data, n)
             for n in needs)
    return needs if ok else []


@operator("shrunk-foundations", "foundation-capacity")
def shrunk_foundations(game, rng):
    """The win needs the whole deck on groups that build strictly up or down in rank and get cards only by moves of
    one card their rules judge, so each pile holds at most one card of each rank; one of them loses piles until
    together they hold fewer cards than the deck."""
    needs = ranked_foundations(game)
    out = []
    for name in pick(rng, needs):
        others = capacity(game, game.data, [n for n in needs if n != name])
        most = min((game.deck_size - 1 - others) // len(game.ranks), piles(game.data)[name]["count"] - 1)
        if most < 1:
            continue
        data = game.fresh()
        piles(data)[name]["count"] = rng.randint(1, most)
        out.append(standalone(data, f"piles.{name} cut to {piles(data)[name]['count']} piles"))
    return out


@operator("dead-end-foundation", "win-unreachable")
def dead_end_foundation(game, rng):
    """The win needs the whole deck on one group that builds strictly up (down) in rank, is not prefilled and gets cards
    only by moves of one card its rules judge; it is made to take into a space only the last (first) rank, on which
    nothing can be built: no card of another rank can ever reach it."""
    needs = ranked_foundations(game)
    if len(needs) != 1 or "prefill" in piles(game.data)[needs[0]]:
        return []
    data = game.fresh()
    end = "last rank" if monotone(piles(data)[needs[0]]) == "up" else "first rank"
    piles(data)[needs[0]]["empty"] = end
    return [standalone(data, f"piles.{needs[0]} takes only the {end} into a space")]


@operator("frozen-pile", "win-unreachable")
def frozen_pile(game, rng):
    """A group dealt cards is frozen (nothing leaves it: `take: none`, no turn, redeal, discard or refill, and no other
    group's redeal or refill draws from it) when the win needs it empty, or needs the whole deck on other groups: its
    dealt cards can never go where the win needs them."""
    all_on, empty = win_needs_all(game.data), win_needs_empty(game.data)
    if not all_on and not empty:
        return []

    def has_cards(n, g):
        return dealt(g) > 0 or (g["deal"] == "rest" and rest_size(game, game.data) > 0)
    frozen = [n for n, g in piles(game.data).items() if has_cards(n, g) and n not in named_groups(game.data)
              and (n in empty or (all_on and n not in all_on))]
    out = []
    for name in pick(rng, frozen):
        data = game.fresh()
        freeze(piles(data)[name])
        out.append(standalone(data, f"piles.{name} frozen: nothing leaves it"))
    return out

