"""Rulesets amended by rule changes: the changes applied to a copy of the data, each result compiled once."""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Sequence

from kallisti.errors import KallistiError, Pos
from kallisti.located import LDict, copy, plain
from kallisti.model.loader import normalise, schema_findings
from kallisti.model.patch import apply_patch

MAX_CACHED = 128  # compiled rulesets kept, keyed by their data
# ... and the bytes of their rule tables: a ruleset of the largest deck holds 8.3 MB for each pair rule, so 128 of
# them could hold gigabytes. Kept past this only the ruleset compiled last.
MAX_CACHED_BYTES = 64_000_000

_cache: "OrderedDict[str, object]" = OrderedDict()
# The web server checks changes of several sessions on worker threads at once: a cache is read and trimmed under this
# lock, so that one thread's eviction never removes the entry another has just found.
_lock = threading.RLock()


# The top-level keys of a ruleset that no deal reads: what a match does between turns (its limit, Player X), the honour
# rules players acknowledge, the layout hints of the table and the description. Two rulesets equal but for them deal and
# play every deal alike, move for move and score for score (`play_key`).
NOT_PLAYED = ("match", "honour", "layout", "description")


_json = json.JSONEncoder(sort_keys=True, ensure_ascii=False).encode  # json.dumps(..., sort_keys=True, ensure_ascii=False)


def data_key(data, texts: dict | None = None) -> str:
    """A hash of a ruleset's data: equal data, equal key (the SHA-256 of its JSON text, keys sorted). `texts`, the
    texts of the parts of another ruleset's data (`part_texts`), gives the text of each part `data` shares with it, so
    that only the parts a change made are written out."""
    return hashlib.sha256(_text(data, 0, texts or {}).encode()).hexdigest()


def _text(node, depth: int, texts: dict) -> str:
    """`json.dumps(plain(node), sort_keys=True, ensure_ascii=False)`, written map by map down to the parts (the values
    of the top-level keys and of the top-level maps), a part's text read from `texts` when it has the very part."""
    kept = texts.get(id(node))
    if kept is not None and kept[0] is node:
        return kept[1]
    if depth < 2 and isinstance(node, dict) and all(isinstance(k, str) for k in node):
        return "{" + ", ".join(f"{_json(k)}: {_text(node[k], depth + 1, texts)}" for k in sorted(node)) + "}"
    return _json(plain(node))


def part_texts(data, inherit: dict | None = None) -> dict:
    """The texts of the parts of `data` (see `_text`), by the id of the part, each kept with the part so that the id
    stays its own: for the data of a compiled ruleset, which never change once compiled. A part shared with the data
    `inherit` was made for is read from it."""
    inherit = inherit or {}
    tops = [v for v in data.values() if isinstance(v, (dict, list))] if isinstance(data, dict) else []
    out = {}
    for part in [v for top in tops if isinstance(top, dict) for v in top.values() if isinstance(v, (dict, list))]:
        kept = inherit.get(id(part))
        out[id(part)] = kept if kept is not None and kept[0] is part else (part, _json(plain(part)))
    # A top-level part a change made anew is written from its parts (`_text`): only what the change made is written out.
    for part in tops:
        kept = inherit.get(id(part))
        out[id(part)] = kept if kept is not None and kept[0] is part else (part, _text(part, 1, out))
    return out


def play_key(data, texts: dict | None = None) -> str:
    """A hash of what a ruleset's deals are played by (its data less NOT_PLAYED): equal keys, equal play on every
    deal, so a trial or a measure made under one ruleset holds for the other (`texts`: see `data_key`)."""
    return data_key({k: v for k, v in data.items() if k not in NOT_PLAYED}, texts)


# What the moves of a deal never read, beyond NOT_PLAYED: the game's name, whether a match shuffles before a deal (a
# deal is dealt from the order it is given) and the score, worked out once play has stopped. Two rulesets equal but
# for them make the same moves on every deal (`moves_key`); their scores may differ.
NOT_MOVED = ("game", "score")


def moves_key(data, texts: dict | None = None) -> str:
    """A hash of what the moves of a deal are made by (its data less NOT_PLAYED, NOT_MOVED and `deck.shuffle`): equal
    keys, the same moves on every deal, to the same position at the end, so a trial played under one ruleset is
    played under the other but for its score (`texts`: see `data_key`)."""
    kept = {k: v for k, v in data.items() if k not in NOT_PLAYED and k not in NOT_MOVED}
    if isinstance(kept.get("deck"), dict):
        kept["deck"] = {k: v for k, v in kept["deck"].items() if k != "shuffle"}
    return data_key(kept, texts)


def compile_data(data: LDict, ruleset: type, where: Pos | None = None, key: str | None = None, base=None):
    """The compiled rules of resolved data, after the resolved schema, built by `ruleset` (the Ruleset class: a
    ruleset checks its modifiers by compiling the rules they give, so it hands itself in rather than this module
    importing it); compiled once per distinct data (`key`, when given, is `data_key(data)`, worked out already). The
    data come from rule changes made during play, which may leave the game unwinnable. `base`, when given, is data
    that passed the resolved schema and that `data` was made from by `apply_all`: the schema judges only the parts of
    `data` that are not the base's own (`schema_findings(base=)`), with the same findings."""
    if key is None:
        key = data_key(data)
    with _lock:
        rules = _cache.get(key)
        if rules is not None:
            _cache.move_to_end(key)
            return rules
    findings = schema_findings(data, "resolved", where or data.pos or Pos("<ruleset>"), base)
    if findings:
        raise KallistiError(findings)
    rules = ruleset(data, during_play=True)
    _remember(key, rules)
    return rules


def _remember(key: str, rules) -> None:
    """Keep a compiled ruleset, forgetting the least recently used ones past MAX_CACHED of them or MAX_CACHED_BYTES
    bytes of rule tables."""
    with _lock:
        _cache[key] = rules
        kept = cached_bytes()
        while len(_cache) > 1 and (len(_cache) > MAX_CACHED or kept > MAX_CACHED_BYTES):
            kept -= _cache.popitem(last=False)[1].table_bytes()


def cached_bytes() -> int:
    """The bytes of the rule tables of the compiled rulesets kept (at most MAX_CACHED_BYTES, unless the one
    compiled last holds more alone)."""
    with _lock:
        return sum(rules.table_bytes() for rules in _cache.values())


def apply_all(base: LDict, patches: Sequence[dict]) -> LDict:
    """`base ⊕ patches`: each applied in order to a copy (the base is never modified). The copy shares with the base
    what no patch changed (`apply_patch(share=True)`): the rules of a game in play are never modified once made."""
    if not patches:
        return copy(base)
    data = base
    for patch in patches:
        data = _reshare(apply_patch(data, patch, normalise, share=True), data)
    return data


def applied(base: LDict, patch: dict) -> LDict:
    """`apply_all(base, [patch])` for reading only: the same data, but the maps a patch copied and left equal are not
    put back as the base's own, which only a ruleset's schema check and key gain by (a bot reading the value a change
    would give a setting asks this of every candidate)."""
    return apply_patch(base, patch, normalise, share=True)


def _reshare(data, base):
    """`data` with each map that a patch copied (to fill in defaults where normalising might) but left as it was put
    back as the base's own, so that what a change did not touch is the very data of the ruleset it was made from: its
    schema is not judged again (`schema_findings(base=)`), nor its text written again for its key. A map is left as it
    was when its keys, in order, hold the base's very values, with the same positions."""
    if isinstance(data, dict) and isinstance(base, dict) and data is not base:
        for key, value in data.items():
            old = base.get(key)
            if value is old or not isinstance(value, dict) or not isinstance(old, dict):
                continue
            _reshare(value, old)
            if _untouched(value, old):
                data[key] = old
    return data


def _untouched(copied: dict, base: dict) -> bool:
    """Whether a copy of the map `base` still holds, key for key and in order, the base's own values and positions."""
    return (len(copied) == len(base) and all(k1 == k2 and copied[k1] is base[k2] for k1, k2 in zip(copied, base))
            and all(getattr(copied, a, None) == getattr(base, a, None) for a in ("pos", "key_pos", "value_pos", "comments")))
