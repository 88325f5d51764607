"""Patches: the one edit format for `extends` overrides and live rule changes."""

from __future__ import annotations

from typing import Any

from kallisti.errors import Finding, KallistiError, Pos, did_you_mean
from kallisti.model.located import LDict, LList, child_pos, copy, located

# `replace` carries a `require:`/`forbid:` key of its own, so it is recognised before those verbs.
VERBS = ("set", "add", "delete", "replace", "remove", "revoke", "require", "forbid")
RULE_KEYS = ("build", "empty", "take", "sequence", "dealing", "discard")
# Maps whose missing keys mean "the default": layout hints, where a group without a hint (or a hint without a
# `fan`) keeps the automatic layout. A `set` or `add` under one makes the maps on its path, and a `set` of a
# missing key there sets it, so `set layout.waste.fan right` works on a game that has no hints yet; a misspelt
# key is still refused, by the schema (`fna`) or the checks (a hint naming no group).
SPARSE = ("layout",)


def sparse(path: str) -> bool:
    """Whether a dotted path lies in a sparse map (SPARSE): a layout hint or one of its keys."""
    parts = str(path).split(".")
    return parts[0] in SPARSE and len(parts) <= 3


def verb_of(patch: dict) -> str:
    for verb in VERBS:
        if verb in patch:
            return verb
    raise KallistiError(Finding("patch-verb", f"a patch needs one of: {', '.join(VERBS)}", getattr(patch, "pos", None) or Pos("<patch>")))


def split_path(path: str) -> list:
    return [path_part(p) for p in str(path).split(".") if p != ""]


def path_part(part: str):
    """A part of a dotted path: a list index when it is a short run of ASCII digits, else a key. (`str.isdigit`
    also takes `²`, which `int` refuses, and a run of thousands of digits is no index but a ValueError.)"""
    return int(part) if part.isascii() and part.isdigit() and len(part) <= 9 else part


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
    choices = list(node) if isinstance(node, dict) else []
    where = ".".join(str(p) for p in so_far[:-1]) or "the ruleset"
    raise KallistiError(Finding("unknown-path", f"'{full}': {where} has no '{part}'", pos, suggestion=did_you_mean(part, choices)))


def _rule_at(data, path: str, pos: Pos) -> LList:
    parts = split_path(path)
    if not parts or parts[-1] not in RULE_KEYS and not (len(parts) == 1 and parts[0] in ("auto", "compulsory", "lose")):
        raise KallistiError(Finding("not-a-rule", f"'{path}' is not a rule (rules are piles.GROUP.{'|'.join(RULE_KEYS)})", pos))
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


def apply_patch(data: LDict, patch: dict, normalise) -> LDict:
    """A new ruleset with `patch` applied; `data` is never modified, so a refused patch changes nothing."""
    verb = verb_of(patch)
    pos = child_pos(patch, verb) or getattr(patch, "pos", None) or Pos("<patch>")
    id_pos = child_pos(patch, "id") or pos
    out = copy(data)
    if verb in ("set", "add", "delete"):
        path = patch[verb]
        parts = split_path(path)
        if not parts:
            raise KallistiError(Finding("unknown-path", "a patch needs a path", pos))
        made = verb != "delete" and sparse(path)
        if made:
            _make_maps(out, parts, pos)
        container = _walk(out, parts, pos, path)
        key = str(parts[-1]) if isinstance(container, dict) else parts[-1]
        exists = (isinstance(container, dict) and key in container) or (
            isinstance(container, list) and isinstance(key, int) and 0 <= key < len(container))
        vpos = child_pos(patch, "value") or pos
        if verb == "set":
            if not exists and not made:
                choices = list(container) if isinstance(container, dict) else []
                raise KallistiError(Finding("unknown-path", f"cannot set '{path}': there is no such key", pos,
                                            suggestion=did_you_mean(key, choices) or f"to add a new key, use `add: {path}`"))
            container[key] = copy(patch["value"])
        elif verb == "add":
            if exists:
                raise KallistiError(Finding("key-exists", f"cannot add '{path}': it exists already", pos, suggestion=f"use `set: {path}`"))
            if not isinstance(container, dict):
                raise KallistiError(Finding("unknown-path", f"cannot add '{path}': its parent is not a map", pos))
            container[key] = copy(patch["value"])
        else:
            if not exists:
                raise KallistiError(Finding("unknown-path", f"cannot delete '{path}': there is no such key", pos))
            del container[key]
            if isinstance(container, LDict):
                container.value_pos.pop(key, None)
                container.key_pos.pop(key, None)
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
        rule = _rule_at(out, path, pos)
        i = _find_clause(rule, patch["id"], path, id_pos)
        if verb == "remove":
            del rule[i]
            if isinstance(rule, LList):
                del rule.item_pos[i]
            return normalise(out)
        kinds = [k for k in ("require", "forbid") if k in patch]
        if len(kinds) != 1:
            raise KallistiError(Finding("patch-shape", "replace needs exactly one of `require` or `forbid`", pos))
        clause = located({"id": patch["id"], kinds[0]: patch[kinds[0]]}, pos)
        clause.value_pos[kinds[0]] = child_pos(patch, kinds[0]) or pos
        if "says" in patch:
            clause["says"] = patch["says"]
        rule[i] = clause
        if isinstance(rule, LList):
            rule.item_pos[i] = pos
        return normalise(out)
    raise KallistiError(Finding("patch-verb", "`revoke` takes back a change in a game's change log; it cannot edit a file", pos))


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
