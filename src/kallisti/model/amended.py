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


def data_key(data) -> str:
    """A hash of a ruleset's data: equal data, equal key."""
    return hashlib.sha256(json.dumps(plain(data), sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def play_key(data) -> str:
    """A hash of what a ruleset's deals are played by (its data less NOT_PLAYED): equal keys, equal play on every
    deal, so a trial or a measure made under one ruleset holds for the other."""
    return data_key({k: v for k, v in data.items() if k not in NOT_PLAYED})


def compile_data(data: LDict, ruleset: type, where: Pos | None = None, key: str | None = None):
    """The compiled rules of resolved data, after the resolved schema, built by `ruleset` (the Ruleset class: a
    ruleset checks its modifiers by compiling the rules they give, so it hands itself in rather than this module
    importing it); compiled once per distinct data (`key`, when given, is `data_key(data)`, worked out already). The
    data come from rule changes made during play, which may leave the game unwinnable."""
    if key is None:
        key = data_key(data)
    with _lock:
        rules = _cache.get(key)
        if rules is not None:
            _cache.move_to_end(key)
            return rules
    findings = schema_findings(data, "resolved", where or data.pos or Pos("<ruleset>"))
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
        data = apply_patch(data, patch, normalise, share=True)
    return data
