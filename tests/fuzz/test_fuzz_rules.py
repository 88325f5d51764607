"""Fuzz the `.rules` front end (grammar/rules.lark, rules_front.py) and all that loads a ruleset after it: small
games and variants written in the syntax's own phrases, mutated, and noise; each loads or is refused with
findings, and a ruleset that loads is dealt and played a little."""

from __future__ import annotations

from hypothesis import given

from fuzz.strategies import RULES_PIECES, fuzzed, rules_texts
from fuzz.targets import fuzz, rules_text


@fuzz(900)
@given(fuzzed(rules_texts, RULES_PIECES))
def test_any_rules_text_loads_or_is_refused_with_findings(text):
    rules_text(text)
