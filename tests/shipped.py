"""The shipped rulesets, each loaded once per test process and shared by the test files that only read or play it."""

# A worker of the suite collects every test file, and some read every shipped game to choose their parameters: with
# one load per game and process, collecting costs a third less.

from __future__ import annotations

import functools

from kallisti.model.loader import resolve
from kallisti.model.ruleset import Ruleset, load_ruleset


@functools.lru_cache(maxsize=None)
def shipped(name: str) -> Ruleset:
    """The shipped game `name`, loaded, checked and compiled once; a Ruleset is never changed by playing it (its
    games share its tables), so the tests that only read or play it may share one."""
    return load_ruleset(name)


@functools.lru_cache(maxsize=None)
def shipped_data(name: str):
    """The resolved data of the shipped game `name` (read, extended and checked by the schema, not compiled): enough
    to choose a test's parameters at collection, which every worker of the suite does for every file."""
    return resolve(name)[0]


@functools.lru_cache(maxsize=None)
def changed(name: str, text: str) -> Ruleset:
    """The shipped game `name` with the rule change `text` applied to it (checked as a change in play is), once."""
    from kallisti.interpreter.amend import amend

    base = shipped(name)
    return amend(base.data, text, baseline=base).rules
