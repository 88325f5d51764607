"""Operators that write a variant of a shipped game (a file that `extends` it by name) and break the variant's
`extends`, overrides, additions or changes: the "extends" stage."""

from __future__ import annotations

import re

from .base import (RULE_KEYS, Mutant, Shipped, clause_expr, fresh_name, live_rules, misspell, operator, pick, piles,
                   standalone, variant, games)

OPTIONAL_KEYS = {"prefill": "card.rank == first", "reveal": "1"}  # pile keys a group may lack, with a value for them
MAX_EXTENDS = 8  # the longest `extends` chain


def title(game: Shipped) -> str:
    return str(game.data["game"])


def rules(game: Shipped) -> list[tuple[str, str, list]]:
    """(group, key, clauses) of every rule of the game."""
    return [(n, k, g[k]) for n, g in piles(game.data).items() for k in RULE_KEYS if isinstance(g.get(k), list)]


@operator("misspelt-parent", "unknown-game")
def misspelt_parent(game, rng):
    """A variant extends the game by a misspelt name, which is no shipped game and no file beside it."""
    wrong = misspell(game.name, rng, [g.name for g in games()])
    return [variant(game, f"extends '{wrong}'", extends=wrong)]


@operator("parent-by-path", "extends-path")
def parent_by_path(game, rng):
    """A variant extends the game by its file's absolute path, or by a path that leaves the variant's folder: `extends`
    takes a shipped game's name or a path inside the folder."""
    paths = (str(game.path), f"../{game.path.name}")
    return [variant(game, f"extends '{path}'", extends=path) for path in pick(rng, paths)]


@operator("extends-loop", "extends-cycle")
def extends_loop(game, rng):
    """A variant extends a base file that, instead of extending the game, extends the variant (or the variant extends
    itself): the chain leads back to a file already in it."""
    looped = Mutant("variant.yaml extends base.yaml, which extends variant.yaml",
                    (("variant.yaml", {"extends": "base.yaml", "game": f"{title(game)} variant"}),
                     ("base.yaml", {"extends": "variant.yaml", "game": f"{title(game)} base"})))
    itself = Mutant("variant.yaml extends itself", (("variant.yaml", {"extends": "variant.yaml", "game": title(game)}),))
    return pick(rng, (looped, itself))


@operator("long-extends-chain", "extends-depth")
def long_extends_chain(game, rng):
    """Nine to eleven variant files extend one another, the last the game, a chain longer than the 8 files `extends`
    may chain."""
    n = rng.randint(MAX_EXTENDS + 1, MAX_EXTENDS + 3)
    files = tuple((f"level{i}.yaml", {"extends": f"level{i + 1}.yaml" if i + 1 < n else game.name,
                                       "game": f"{title(game)} {i}"}) for i in range(n))
    return [Mutant(f"{n} variants chained onto {game.name}", files)]


@operator("add-in-standalone", "add-without-extends")
def add_in_standalone(game, rng):
    """A whole ruleset (extending nothing) gets an `add:` section, which only a file that extends another may have."""
    data = game.fresh()
    rule = fresh_name(data.get("honour", {}), "courtesy")
    data["add"] = {"honour": {rule: {"at": rng.choice(("before-deal", "turn-end")), "says": "Thank the dealer."}}}
    return [standalone(data, f"add: honour.{rule}")]


@operator("override-missing-key", "unknown-override")
def override_missing_key(game, rng):
    """A variant overrides a key its parent lacks (a pile option the group does not have, or a misspelt group), which
    belongs under `add:`."""
    groups = piles(game.data)
    places = [(n, k) for n, g in groups.items() for k in OPTIONAL_KEYS if k not in g] + [(n, None) for n in groups]
    out = []
    for name, key in pick(rng, places):
        if key is None:
            wrong = misspell(name, rng, groups)
            out.append(variant(game, f"overrides piles.{wrong}", piles={wrong: {"count": groups[name]["count"]}}))
        else:
            out.append(variant(game, f"overrides piles.{name}.{key}", piles={name: {key: OPTIONAL_KEYS[key]}}))
    return out


@operator("add-existing-key", "key-exists")
def add_existing_key(game, rng):
    """A variant adds (under `add:`) a key the parent has already, which it should override instead."""
    places = [(n, k) for n, g in piles(game.data).items() for k in ("count", "deal", "build", "take")]
    return [variant(game, f"adds piles.{name}.{key}", add={"piles": {name: {key: piles(game.data)[name][key]}}})
            for name, key in pick(rng, places)]


@operator("change-missing-path", "unknown-path")
def change_missing_path(game, rng):
    """A variant's change sets or deletes a path that does not exist (a misspelt key of a pile group)."""
    places = [(n, k) for n, g in piles(game.data).items() for k in ("count", "tag", "flip", "redeals")]
    out = []
    for name, key in pick(rng, places):
        wrong = f"piles.{name}.{misspell(key, rng, piles(game.data)[name])}"
        change = rng.choice(({"set": wrong, "value": piles(game.data)[name][key]}, {"delete": wrong}))
        out.append(variant(game, f"changes: {next(iter(change))} {wrong}", changes=[change]))
    return out


@operator("remove-missing-clause", "unknown-clause")
def remove_missing_clause(game, rng):
    """A variant's change removes or replaces a clause by a misspelt id, which the rule does not have."""
    out = []
    for name, key, rule in pick(rng, [r for r in rules(game) if r[2]]):
        clause = rng.choice(rule)
        wrong = misspell(clause["id"], rng, [c["id"] for c in rule])
        change = rng.choice(({"remove": f"piles.{name}.{key}", "id": wrong},
                             {"replace": f"piles.{name}.{key}", "id": wrong, "require": "true"}))
        out.append(variant(game, f"changes: {next(iter(change))} piles.{name}.{key} clause '{wrong}'", changes=[change]))
    return out


@operator("clause-on-non-rule", "not-a-rule")
def clause_on_non_rule(game, rng):
    """A variant's change adds a clause to a path that is not a rule (a group's `count`, `deal` or `tag`, or `win`)."""
    paths = [f"piles.{n}.{k}" for n in piles(game.data) for k in ("count", "deal", "tag")] + ["win"]
    return [variant(game, f"changes: require on {path}", changes=[{"require": path, "id": "extra", "expr": "true"}])
            for path in pick(rng, paths)]


@operator("replace-both-kinds", "patch-shape")
def replace_both_kinds(game, rng):
    """A variant's change replaces a clause giving both `require` and `forbid`, or neither: a replaced clause is one of
    the two."""
    out = []
    for name, key, rule in pick(rng, [r for r in rules(game) if r[2]]):
        clause = rng.choice(rule)
        change = {"replace": f"piles.{name}.{key}", "id": clause["id"]}
        both = rng.random() < 0.5
        change.update({"require": "true", "forbid": "false"} if both else {"says": "reworded"})
        out.append(variant(game, f"replace piles.{name}.{key} clause '{clause['id']}' with "
                                 f"{'both kinds' if both else 'neither kind'}", changes=[change]))
    return out


@operator("revoke-in-file", "patch-verb")
def revoke_in_file(game, rng):
    """A variant's changes hold a `revoke`, which takes back a change in a match's change log and cannot edit a file."""
    change = f"c{rng.randint(1, 9)}"
    return [variant(game, f"changes: revoke {change}", changes=[{"revoke": change}])]


# Clauses the checks judge for every card: they read the moving card and the card it goes on, nothing of the position.
POSITION = re.compile(r"\b(count|cards|pile|source|deck)\b")


@operator("clause-left-behind", "rule-contradiction")
def clause_left_behind(game, rng):
    """A variant's change replaces one clause of a rule and leaves another behind that the new clause contradicts: the
    new clause lets through exactly what the one left behind refuses (`require: top.rank == last` replacing the
    up-or-down clause beside `forbid: top.rank == last`), so together they refuse every move. So would a variant
    making the Ace and the Queen neighbours by replacing Discordian Solitaire's up-or-down clause with `top.rank == last
    and card.rank == first`, where nothing-on-the-last stays."""
    places = []
    for name, key in live_rules(game.data):
        rule = piles(game.data)[name][key]
        if len(rule) < 2 or any(POSITION.search(clause_expr(c)[1]) for c in rule):
            continue
        places += [(name, key, replaced, behind) for replaced in rule for behind in rule if behind is not replaced]
    out = []
    for name, key, replaced, behind in pick(rng, places):
        kind, text = clause_expr(behind)
        expr = text if kind == "forbid" else f"not ({text})"  # holds exactly where the clause left behind refuses
        change = {"replace": f"piles.{name}.{key}", "id": replaced["id"], "require": expr}
        out.append(variant(game, f"replace piles.{name}.{key} clause '{replaced['id']}' by `{expr}`, leaving "
                                 f"'{behind['id']}' behind", changes=[change]))
    return out
