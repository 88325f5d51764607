"""Fuzz rule changes (grammar/change.lark, changes.py, interpreter/amend.py): what Player X types is parsed,
applied, checked and compiled, or refused with findings; an adopted change's rules are played a little."""

from __future__ import annotations

from hypothesis import given

from fuzz.strategies import CHANGE_PIECES, changes, fuzzed
from fuzz.targets import change_text, fuzz


@fuzz(700)
@given(fuzzed(changes, CHANGE_PIECES))
def test_any_change_to_forty_thieves_is_adopted_or_refused_with_findings(text):
    change_text(text, "forty-thieves")


@fuzz(300)
@given(fuzzed(changes, CHANGE_PIECES))
def test_any_change_to_discordian_passes_its_trial_or_is_refused_with_findings(text):
    change_text(text, "discordian", trial=True)  # as in a match: the change is tried on seeded deals too
