"""Expressions compiled once for every ruleset of the same cards and pile groups (`Compiler(shared=True)`)."""

from __future__ import annotations

import threading

from kallisti.interpreter.expr_types import (BUILD_SCOPE, CARD_SCOPE, DISCARD_SCOPE, EMPTY_SCOPE, HAND_SCOPE,
                                            MOVE_SCOPE, PILE_STATE_SCOPE, SEQUENCE_SCOPE, STATE_SCOPE, TAKE_SCOPE)

# Expressions kept, a few kilobytes each: forgotten all at once past this.
MAX_SHARED_EXPRESSIONS = 4096
# The scopes whose expressions are shared, by name: what compiles in a scope (its cost above all: `evaluations`) depends
# on which scope it is, not only on the names it holds (MOVE_SCOPE holds BUILD_SCOPE's), and these live as long as
# the process, so their ids name them. An expression of any other scope is compiled afresh.
_SCOPES = {id(scope): name for name, scope in (
    ("state", STATE_SCOPE), ("pile-state", PILE_STATE_SCOPE), ("card", CARD_SCOPE), ("build", BUILD_SCOPE),
    ("empty", EMPTY_SCOPE), ("take", TAKE_SCOPE), ("sequence", SEQUENCE_SCOPE), ("discard", DISCARD_SCOPE),
    ("move", MOVE_SCOPE), ("hand", HAND_SCOPE))}
_kept: dict[tuple, tuple] = {}  # (context, text, scope's name, type wanted) -> (Compiled, whether it reads the moves made)
_lock = threading.Lock()  # the web server compiles on several threads: one clears while none adds


def scope_name(scope: dict) -> str | None:
    """The name `scope` is shared under, or None when its expressions are not shared."""
    return _SCOPES.get(id(scope))


def kept(key: tuple) -> tuple | None:
    """(Compiled, whether it reads the moves made) compiled before under `key`, or None."""
    return _kept.get(key)


def keep(key: tuple, compiled: tuple) -> None:
    """Keep what compiled under `key`, forgetting every one kept once MAX_SHARED_EXPRESSIONS are."""
    with _lock:
        if len(_kept) >= MAX_SHARED_EXPRESSIONS:
            _kept.clear()
        _kept[key] = compiled


def forget_compiled() -> None:
    """Forget every expression kept (so that the next ruleset compiles afresh, as benchmarks of changes never seen
    want)."""
    with _lock:
        _kept.clear()
