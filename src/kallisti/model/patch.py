"""Patches: the one edit format for `extends` overrides and live rule changes."""

from __future__ import annotations

from typing import Any

from kallisti.errors import Finding, KallistiError, Pos, did_you_mean
from kallisti.located import LDict, LList, child_pos, copy, located
from kallisti.rule_words import RULE_KEYS, path_part

# `replace` carries a `require:`/`forbid:` key of its own, so it is recognised before those verbs.
VERBS = ("set", "add", "delete", "replace", "remove", "revoke", "require", "forbid")
# Lists whose items are maps named by an `id` (docs/model.md §8): a path names an item by its id (`compulsory.play-first`,
# `lose.too-slow.when`), so `add` appends one, `set` replaces one and `delete` removes one, as keys of a map would.
ID_LISTS = ("auto", "compulsory", "lose")
# Other words a path may use for a pile group's keys, as a .rules pile line does (`7 columns`, `deal 5 face up`):
# `columns` and `piles` are its `count`; `rows` is its `deal`, one entry a row (see _rows_alias).
COUNT_ALIASES = ("columns", "piles")
# Maps whose missing keys mean "the default": layout hints, where a group without a hint (or a hint without a
# `fan`) keeps the automatic layout. A `set` or `add` under one makes the maps on its path, and a `set` of a
# missing key there sets it, so `set layout.waste.fan right` works on a game that has no hints yet; a misspelt
# key is still refused, by the schema (`fna`) or the checks (a hint naming no group).
SPARSE = ("layout",)
# A pile group's keys whose absence means their default, which no default fills in (so that rulesets written before
# the key read as they did): a `set` of one on a group that lacks it sets it, as a sparse key is set.
OPTIONAL_GROUP_KEYS = ("take_from",)


def sparse(path: str) -> bool:
    """Whether a dotted path lies in a sparse map (SPARSE), a layout hint or one of its keys, or names a pile group's
    optional key (OPTIONAL_GROUP_KEYS)."""
    parts = str(path).split(".")
    if len(parts) == 3 and parts[0] == "piles" and parts[2] in OPTIONAL_GROUP_KEYS:
        return True
    return parts[0] in SPARSE and len(parts) <= 3


def verb_of(patch: dict) -> str:
    for verb in VERBS:
        if verb in patch:
            return verb
    raise KallistiError(Finding("patch-verb", f"a patch needs one of: {', '.join(VERBS)}", getattr(patch, "pos", None) or Pos("<patch>")))


def split_path(path: str) -> list:
    return [path_part(p) for p in str(path).split(".") if p != ""]


def _walk(data: Any, parts: list, pos: Pos, full: str):
    """The container holding the last part of the path; every step must exist."""
    node = data
    for i, part in enumerate(parts[:-1]):
        node = _step(node, part, pos, full, parts[: i + 1])
    return node


def _step(node, part, pos, full, so_far):
    if isinstance(node, dict) and str(part) in node:
        return node[str(part)]  # map keys are text, even those that look like numbers (a rank `9`)
    if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
        return node[part]
    i = _id_index(node, part)
    if i is not None:
        return node[i]
    choices = list(node) if isinstance(node, dict) else _ids(node)
    where = ".".join(str(p) for p in so_far[:-1]) or "the ruleset"
    raise KallistiError(Finding("unknown-path", f"'{full}': {where} has no '{part}'", pos, suggestion=did_you_mean(part, choices)))


def _ids(node) -> list[str]:
    """The ids of a list's items that are maps with one (none for anything else)."""
    return [str(item["id"]) for item in node if isinstance(item, dict) and "id" in item] if isinstance(node, list) else []


def _id_index(node, part) -> int | None:
    """The index of the item of a list named by its id `part`, or None."""
    if not isinstance(node, list) or isinstance(part, int):
        return None
    return next((i for i, item in enumerate(node) if isinstance(item, dict) and item.get("id") == str(part)), None)


def _by_id(container, key) -> bool:
    """Whether the last part of a path names a list item by its id: a text key in a list of maps (the move
    patterns, loss conditions and clauses, each named by its id)."""
    return isinstance(container, list) and not isinstance(key, int) and all(isinstance(i, dict) for i in container)


def _named_item(value, key: str, pos: Pos):
    """The item a `set`/`add` of `LIST.ID` puts in the list: the value, with the id of its path."""
    if not isinstance(value, dict):
        return copy(value)  # the schema says what an item must be
    if "id" in value and str(value["id"]) != key:
        raise KallistiError(Finding("patch-shape", f"the item's id '{value['id']}' is not the id its path names ('{key}')", pos,
                                    suggestion=f"leave the id out, or write it as {key}"))
    item = located({"id": key}, getattr(value, "pos", None) or pos)
    for k, v in value.items():
        if k != "id":
            item[k] = copy(v)
            if isinstance(value, LDict) and k in value.value_pos:
                item.value_pos[k] = value.value_pos[k]
                item.key_pos[k] = value.key_pos.get(k, value.value_pos[k])
    return item


def _alias(data, parts: list, value, pos: Pos, verb: str):
    """A path (and its value) with a pile group's key aliases resolved (COUNT_ALIASES, `rows`)."""
    if len(parts) != 3 or parts[0] != "piles" or not isinstance(data.get("piles"), dict):
        return parts, value
    group = data["piles"].get(str(parts[1]))
    if not isinstance(group, dict):
        return parts, value
    if parts[2] in COUNT_ALIASES:
        return parts[:2] + ["count"], value
    if parts[2] == "rows" and verb == "set":
        return parts[:2] + ["deal"], _rows_alias(group, value, pos, ".".join(map(str, parts)))
    return parts, value


def _rows_alias(group: dict, rows, pos: Pos, path: str):
    """The `deal` of `set GROUP.rows N`: the group's rows, its last row repeated (or its last rows dropped) to make N."""
    from kallisti.schema import MAX_DEAL_ROWS

    deal = group.get("deal")
    if isinstance(rows, bool) or not isinstance(rows, int) or not 1 <= rows <= MAX_DEAL_ROWS:
        raise KallistiError(Finding("patch-shape", f"'{path}' takes a number of rows, 1 to {MAX_DEAL_ROWS}", pos))
    if not isinstance(deal, list) or not deal:
        raise KallistiError(Finding("patch-shape", f"'{path}': the group deals no rows to repeat; set its deal instead",
                                    pos, suggestion=f"`set {path.rsplit('.', 1)[0]}.deal [up, up, …]`, one entry a row"))
    kept = [copy(r) for r in deal]
    return LList(kept[:rows] if rows <= len(kept) else kept + [copy(kept[-1]) for _ in range(rows - len(kept))], pos=pos)


def _keep_identity(container, key, value):
    """A whole pile group set anew keeps its identity, its tag and role (so its piles keep their names), unless the
    new value gives them."""
    old = container.get(key) if isinstance(container, dict) else None
    if not isinstance(old, dict) or not isinstance(value, dict):
        return value
    for k in ("tag", "role"):
        if k in old and k not in value:
            value[k] = copy(old[k])
    return value


def _rule_at(data, path: str, pos: Pos) -> LList:
    parts = split_path(path)
    if not parts or parts[-1] not in RULE_KEYS and not (len(parts) == 1 and parts[0] in ID_LISTS):
        raise KallistiError(Finding("not-a-rule", f"'{path}' is not a rule (rules are piles.GROUP.{'|'.join(RULE_KEYS)}, "
                                    "compulsory, auto, lose and honour)", pos))
    container = _walk(data, parts, pos, path)
    rule = _step(container, parts[-1], pos, path, parts)
    if not isinstance(rule, list):
        raise KallistiError(Finding("not-a-rule", f"'{path}' is not a list of clauses", pos))
    return rule


def _find_clause(rule: list, cid: str, path: str, pos: Pos) -> int:
    for i, clause in enumerate(rule):
        if isinstance(clause, dict) and clause.get("id") == cid:
            return i
    ids = [c.get("id") for c in rule if isinstance(c, dict)]
    raise KallistiError(Finding("unknown-clause", f"{path} has no clause '{cid}' (its clauses: {', '.join(ids) or 'none'})", pos,
                                suggestion=did_you_mean(cid, ids)))


def apply_patch(data: LDict, patch: dict, normalise, *, share: bool = False) -> LDict:
    """A new ruleset with `patch` applied; `data` is never modified, so a refused patch changes nothing.

    With `share`, the new ruleset is a copy only where it can differ from `data` (the maps and lists on the patch's path,
    and those `normalise` fills in), and shares the rest with it: for data that are never modified once made, as the
    rules of a game in play are (`model.amended.apply_all`)."""
    verb = verb_of(patch)
    pos = child_pos(patch, verb) or getattr(patch, "pos", None) or Pos("<patch>")
    id_pos = child_pos(patch, "id") or pos
    out = _skeleton(data) if share else copy(data)
    if verb in ("set", "add", "delete"):
        path = patch[verb]
        parts = split_path(path)
        if not parts:
            raise KallistiError(Finding("unknown-path", "a patch needs a path", pos))
        if share:
            _own_path(out, parts[:-1])
        made = verb != "delete" and sparse(path)
        if made:
            _make_maps(out, parts, pos)
        parts, value = _alias(out, parts, patch.get("value"), child_pos(patch, "value") or pos, verb)
        container = _walk(out, parts, pos, path)
        key = str(parts[-1]) if isinstance(container, dict) else parts[-1]
        if _by_id(container, key):
            return _by_id_patch(out, container, key, verb, value, path, pos, normalise)
        exists = (isinstance(container, dict) and key in container) or (
            isinstance(container, list) and isinstance(key, int) and 0 <= key < len(container))
        vpos = child_pos(patch, "value") or pos
        if verb == "set":
            if not exists and not made:
                choices = list(container) if isinstance(container, dict) else []
                raise KallistiError(Finding("unknown-path", f"cannot set '{path}': there is no such key", pos,
                                            suggestion=did_you_mean(key, choices) or f"to add a new key, use `add: {path}`"))
            new = copy(value)
            if len(parts) == 2 and parts[0] == "piles":
                new = _keep_identity(container, key, new)
            container[key] = new
        elif verb == "add":
            if exists:
                raise KallistiError(Finding("key-exists", f"cannot add '{path}': it exists already", pos, suggestion=f"use `set: {path}`"))
            if isinstance(container, list):
                where = ".".join(map(str, parts[:-1]))
                raise KallistiError(Finding("unknown-path", f"cannot add '{path}': {where} is a list, whose items are named by "
                                            "their ids, not their places", pos, suggestion=f"name the new item: `add: {where}.ID`"))
            if not isinstance(container, dict):
                raise KallistiError(Finding("unknown-path", f"cannot add '{path}': its parent is not a map", pos))
            container[key] = copy(value)
        else:
            if not exists:
                raise KallistiError(Finding("unknown-path", f"cannot delete '{path}': there is no such key", pos))
            del container[key]
            if isinstance(container, LDict):
                container.value_pos.pop(key, None)
                container.key_pos.pop(key, None)
            elif isinstance(container, LList) and len(container.item_pos) > key:
                del container.item_pos[key]
            return normalise(out)
        if isinstance(container, LDict):
            container.value_pos[key] = vpos
            container.key_pos[key] = pos
        elif isinstance(container, LList):
            container.item_pos[key] = vpos
        return normalise(out)
    if verb in ("require", "forbid"):
        path = patch[verb]
        out = normalise(out)  # rules must be clause lists before a clause can join one
        if share:
            _own_path(out, split_path(path))
        rule = _rule_at(out, path, pos)
        cid = patch["id"]
        if any(isinstance(c, dict) and c.get("id") == cid for c in rule):
            raise KallistiError(Finding("duplicate-clause", f"{path} already has a clause '{cid}'", id_pos,
                                        suggestion=f"use `replace: {path}` with id {cid}, or choose another id"))
        clause = located({"id": cid, verb: patch["expr"]}, pos)
        if "says" in patch:
            clause["says"] = patch["says"]
        clause.value_pos[verb] = child_pos(patch, "expr") or pos
        rule.append(clause)
        rule.item_pos.append(pos) if isinstance(rule, LList) else None
        return normalise(out)
    if verb in ("replace", "remove"):
        path = patch[verb]
        out = normalise(out)
        if share:
            _own_path(out, split_path(path))
        if verb == "remove" and str(path) == "honour" and isinstance(out.get("honour"), dict):
            return _remove_honour(out, str(patch["id"]), id_pos, normalise)  # honour rules are a map, by id
        rule = _rule_at(out, path, pos)
        i = _find_clause(rule, patch["id"], path, id_pos)
        if verb == "remove":
            del rule[i]
            if isinstance(rule, LList):
                del rule.item_pos[i]
            return normalise(out)
        kinds = [k for k in ("require", "forbid", "expr") if k in patch]
        if len(kinds) != 1:
            raise KallistiError(Finding("patch-shape", "replace needs exactly one of `require`, `forbid` or `expr` (the "
                                        "new expression, of the replaced clause's kind)", pos))
        old = rule[i]
        # `expr` keeps the kind of the clause replaced: a forbid clause stays a forbid clause
        kind = kinds[0] if kinds[0] != "expr" else ("forbid" if "forbid" in old else "require")
        clause = located({"id": patch["id"], kind: patch[kinds[0]]}, pos)
        clause.value_pos[kind] = child_pos(patch, kinds[0]) or pos
        if "says" in patch:
            clause["says"] = patch["says"]
        elif old.get("says") and "macro" not in old and kind in old:
            # what the clause says stays, unless the change gives new words or turns a require into a forbid (or back),
            # when the old words would say the opposite; a macro's words were the macro's, not the clause's
            clause["says"] = old["says"]
            if isinstance(old, LDict) and "says" in old.value_pos:
                clause.value_pos["says"] = old.value_pos["says"]
        rule[i] = clause
        if isinstance(rule, LList):
            rule.item_pos[i] = pos
        return normalise(out)
    raise KallistiError(Finding("patch-verb", "`revoke` takes back a change in a game's change log; it cannot edit a file", pos))


# The maps of a ruleset `normalise` may write into (a default filled in, a rule's macro expanded): each is copied by a
# patch that shares its data, so that normalising never writes into data shared with the ruleset patched. `hands` is
# copied whole (its defaults lie at every depth).
_NORMALISED_MAPS = ("deck", "match", "modifiers", "piles")


def _skeleton(data) -> LDict:
    """A copy of `data` that shares with it everything but the maps `normalise` may write into (see _NORMALISED_MAPS)."""
    out = _shallow(data)
    for key in _NORMALISED_MAPS:
        if isinstance(out.get(key), dict):
            out[key] = node = _shallow(out[key])
            if key in ("modifiers", "piles"):  # each modifier and each pile group is filled in too
                for name, child in node.items():
                    if isinstance(child, dict):
                        node[name] = _shallow(child)
    match = out.get("match")
    if isinstance(match, dict) and isinstance(match.get("player_x"), dict):
        match["player_x"] = _shallow(match["player_x"])
    if "hands" in out:
        out["hands"] = copy(out["hands"])
    return out


def _shallow(node):
    """A copy of one map or list, with its positions and comments, whose values are those of `node` (not copied)."""
    if isinstance(node, dict):
        out = LDict(node, pos=getattr(node, "pos", None))
        if isinstance(node, LDict):
            out.key_pos = dict(node.key_pos)
            out.value_pos = dict(node.value_pos)
            out.comments = {k: list(v) for k, v in node.comments.items()}
        return out
    out = LList(node, pos=getattr(node, "pos", None))
    if isinstance(node, LList):
        out.item_pos = list(node.item_pos)
        out.comments = {k: list(v) for k, v in node.comments.items()}
    return out


def _own_path(out, parts: list) -> None:
    """Copy the maps and lists along `parts` from `out`'s root (a copy already), as far as the path exists, each put in
    place of the one it copies: a patch writes only into containers on its path, which are then its own. A step is
    found as `_step` finds it (a key, a place in a list, an item's id); where the path stops, `_walk` says why."""
    node = out
    for part in parts:
        if isinstance(node, dict) and str(part) in node:
            key = str(part)
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            key = part
        else:
            key = _id_index(node, part)
            if key is None:
                return
        child = node[key]
        if not isinstance(child, (dict, list)):
            return
        node[key] = child = _shallow(child)
        node = child


def _by_id_patch(out, container: list, key: str, verb: str, value, path: str, pos: Pos, normalise):
    """`set`, `add` or `delete` of the item of a list named by its id (`compulsory.play-first`)."""
    i = _id_index(container, key)
    ids = _ids(container)
    if verb == "add":
        if i is not None:
            raise KallistiError(Finding("key-exists", f"cannot add '{path}': there is an item '{key}' already", pos,
                                        suggestion=f"use `set: {path}` to replace it"))
        container.append(_named_item(value, key, pos))
        if isinstance(container, LList):
            container.item_pos.append(pos)
        return normalise(out)
    if i is None:
        where = path.rsplit(".", 1)[0]
        raise KallistiError(Finding("unknown-path", f"cannot {verb} '{path}': {where} has no item '{key}' (its items: "
                                    f"{', '.join(ids) or 'none'})", pos,
                                    suggestion=did_you_mean(key, ids) or (f"to add one, use `add: {path}`" if verb == "set" else None)))
    if verb == "delete":
        del container[i]
        if isinstance(container, LList) and len(container.item_pos) > i:
            del container.item_pos[i]
        return normalise(out)
    container[i] = _named_item(value, key, pos)
    if isinstance(container, LList) and len(container.item_pos) > i:
        container.item_pos[i] = pos
    return normalise(out)


def _remove_honour(out, hid: str, pos: Pos, normalise):
    """`remove honour ID`: the honour rule of that id goes."""
    honour = out["honour"]
    if hid not in honour:
        ids = [str(k) for k in honour]
        raise KallistiError(Finding("unknown-clause", f"honour has no rule '{hid}' (its rules: {', '.join(ids) or 'none'})", pos,
                                    suggestion=did_you_mean(hid, ids)))
    del honour[hid]
    if isinstance(honour, LDict):
        honour.value_pos.pop(hid, None)
        honour.key_pos.pop(hid, None)
    return normalise(out)


def _make_maps(data, parts: list, pos: Pos) -> None:
    """Make the maps on a sparse path that are missing (`layout`, `layout.waste`), each positioned at the patch."""
    node = data
    for part in parts[:-1]:
        if not isinstance(node, dict):
            return
        key = str(part)
        if key not in node:
            node[key] = located({}, pos)
            if isinstance(node, LDict):
                node.key_pos[key] = node.value_pos[key] = pos
        node = node[key]


def overrides_to_patches(overrides: LDict, parent: dict, prefix: str = "") -> list[LDict]:
    """Turn an `extends` file's overriding keys into `set` patches; keys the parent lacks are refused."""
    patches = []
    for key, value in overrides.items():
        path = f"{prefix}{key}"
        pos = overrides.key_pos.get(key) or overrides.pos or Pos("<file>")
        if (not isinstance(parent, dict) or key not in parent) and sparse(path):
            # a layout hint the parent does not have: set it whole (the sparse `set` makes what it needs)
            patch = LDict({"set": path, "value": value}, pos=pos)
            patch.value_pos["value"] = overrides.value_pos.get(key, pos)
            patches.append(patch)
            continue
        if not isinstance(parent, dict) or key not in parent:
            choices = list(parent) if isinstance(parent, dict) else []
            close = did_you_mean(key, choices)
            advice = "to add it, put it under `add:`"
            raise KallistiError(Finding("unknown-override", f"'{path}' is not in the parent ruleset", pos,
                                        suggestion=f"{close[:-1]}, or {advice}?" if close else advice))
        # A rule (a group's `build`, `take`...) is replaced whole; a group may itself be called `discard`.
        is_rule = key in RULE_KEYS and path.startswith("piles.") and path.count(".") == 2
        leaf = is_rule or not isinstance(value, dict) or not isinstance(parent[key], dict) or path.count(".") >= 3
        if leaf or key in ("values", "marks"):
            patch = LDict({"set": path, "value": value}, pos=pos)
            patch.value_pos["value"] = overrides.value_pos.get(key, pos)
            patches.append(patch)
        else:
            patches.extend(overrides_to_patches(value, parent[key], path + "."))
    return patches


def additions_to_patches(additions: LDict, parent: dict, prefix: str = "") -> list[LDict]:
    """Turn an `add:` block into `add` patches at the first key the parent lacks."""
    patches = []
    for key, value in additions.items():
        path = f"{prefix}{key}"
        pos = additions.key_pos.get(key) or additions.pos or Pos("<file>")
        if isinstance(parent, dict) and key in parent:
            if isinstance(value, dict) and isinstance(parent[key], dict):
                patches.extend(additions_to_patches(value, parent[key], path + "."))
                continue
            raise KallistiError(Finding("key-exists", f"'{path}' exists in the parent; override it instead of adding it", pos))
        patch = LDict({"add": path, "value": value}, pos=pos)
        patch.value_pos["value"] = additions.value_pos.get(key, pos)
        patches.append(patch)
    return patches
