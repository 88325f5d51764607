"""Fuzz the expression language (grammar/expr.lark, expressions.py, the compiler): any expression text is parsed
alone, then set as a win condition, a build clause and a score of Forty Thieves, compiled and played a little."""

from __future__ import annotations

from hypothesis import given

from fuzz.strategies import BINARY, expressions, fuzzed
from fuzz.targets import expression_text, fuzz


@fuzz(300)
@given(fuzzed(expressions, BINARY))
def test_any_expression_is_taken_or_refused_with_findings(text):
    expression_text(text)
