"""The keys of compiled rulesets (data, play and moves keys, `model/amended.py`), each worked out once per ruleset.

A compiled ruleset's data never change, so its keys are kept with it (weakly: only while it lives) and read by
every later change made from it, by Player X's measures and by the trial deals' caches (interpreter/amend.py)."""

from __future__ import annotations

import threading
import weakref

from kallisti.model import amended
from kallisti.model.amended import data_key, play_key

# Rule changes of several sessions are checked on worker threads at once (the web server).
_lock = threading.Lock()
# The keys of compiled rulesets (whose data never change once compiled), each worked out once: a ruleset -> its
# (data key, play key), the play key worked out when it is first asked for. Kept only while the ruleset lives.
_keys: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


# The texts of the parts of compiled rulesets' data (`model.amended.part_texts`), which the keys of the rulesets
# changes make from them read: kept only while the ruleset lives.
_texts: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_moves_keys: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()  # a ruleset -> its moves key, worked out once


def texts_of(rules, made_from=None) -> dict:
    """The texts of the parts of a compiled ruleset's data, worked out once; those of parts it shares with the ruleset
    it was `made_from` (by a change) are read from that ruleset's."""
    with _lock:
        texts = _texts.get(rules)
        inherit = _texts.get(made_from) if made_from is not None else None
    if texts is None:
        texts = amended.part_texts(rules.data, inherit)
        with _lock:
            _texts[rules] = texts
    return texts


def rules_key(rules) -> str:
    """The data key of a compiled ruleset, hashed once per ruleset."""
    with _lock:
        keys = _keys.get(rules)
    if keys is None:
        keys = remember_key(rules, data_key(rules.data, texts_of(rules)))
    return keys[0]


def rules_play_key(rules) -> str:
    """The play key of a compiled ruleset (`model.amended.play_key`), hashed once per ruleset."""
    with _lock:
        keys = _keys.get(rules)
    if keys is None or keys[1] is None:
        texts = texts_of(rules)
        keys = remember_key(rules, keys[0] if keys else data_key(rules.data, texts), play_key(rules.data, texts))
    return keys[1]


def rules_moves_key(rules) -> str:
    """The moves key of a compiled ruleset (`model.amended.moves_key`), hashed once per ruleset."""
    with _lock:
        key = _moves_keys.get(rules)
    if key is None:
        key = amended.moves_key(rules.data, texts_of(rules))
        with _lock:
            _moves_keys[rules] = key
    return key


def remember_key(rules, key: str, played: str | None = None) -> tuple:
    """Keep a compiled ruleset's data key (and its play key, when known); returns what is kept."""
    with _lock:
        kept = _keys.get(rules)
        if kept is None or (played is not None and kept[1] is None):
            kept = _keys[rules] = (key, played if played is not None else (kept[1] if kept else None))
        return kept


def forget() -> None:
    """Forget every key kept (`amend.forget_checked`)."""
    with _lock:
        _keys.clear()
        _texts.clear()
        _moves_keys.clear()
