"""The solver's defaults that the commands' options show in `--help`, written here so that registering the commands
imports no solver: each equals the solver's own constant, which tests/test_startup.py checks."""

from __future__ import annotations

DEFAULT_CAP = 2000  # solver/simulate.py DEFAULT_CAP: most moves a simulated or play-tested deal
DEFAULT_STATES = 200_000  # solver/depth_first.py DEFAULT_STATES: most positions the solver searches a deal
DEFAULT_MEMORY = 2_000_000  # solver/depth_first.py MAX_TABLE: most positions the solver remembers (`solve --memory`)
CHEAP = 2_000  # solver/winnability.py CHEAP: mean positions a deal at or under which `report --at-least` goes on
