"""Every mutation operator, from the modules that define them: at least one for each code `validate` or `check`
reports for a ruleset file."""

from __future__ import annotations

# The modules register their operators as they are imported.
from . import data_ops, expr_ops, file_ops, hands_ops, play_ops, range_ops, run_ops, says_ops, variant_ops  # noqa: F401
from .base import REGISTRY, Mutant, Operator, Shipped, games

OPERATORS: tuple[Operator, ...] = tuple(REGISTRY)

__all__ = ["OPERATORS", "Mutant", "Operator", "Shipped", "games"]
