"""Test settings shared by the whole suite: every property test draws the same examples on every run."""

from hypothesis import settings

# Derandomized and without an example database: a run depends neither on the machine nor on runs before it, so a
# failure in CI is a failure on any checkout (a longer campaign of the fuzzers: KALLISTI_FUZZ_SCALE, tests/fuzz).
settings.register_profile("kallisti", derandomize=True, database=None)
settings.load_profile("kallisti")
