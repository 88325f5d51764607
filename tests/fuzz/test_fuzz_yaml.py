"""Fuzz the YAML loader (located.py, loader.py) and all that loads a ruleset after it: small games and
variants dumped from data with odd values put in, YAML that attacks the parser (tags, aliases, documents, deep
nesting), mutated, and noise; each loads or is refused with findings, and one that loads is played a little."""

from __future__ import annotations

from hypothesis import given

from fuzz.strategies import YAML_PIECES, fuzzed, yaml_texts
from fuzz.targets import fuzz, yaml_text


@fuzz(900)
@given(fuzzed(yaml_texts, YAML_PIECES))
def test_any_yaml_text_loads_or_is_refused_with_findings(text):
    yaml_text(text)
