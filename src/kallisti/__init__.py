"""kallisti: a declarative rule language for card games, and the interpreter that plays it."""

__version__ = "0.1.0"
