"""Test settings shared by the whole suite: every property test draws the same examples on every run, and nothing
is written into the user's own folders."""

import os

import pytest
from hypothesis import settings

from kallisti.model import clean_loads

# The loads of the tests' own process are all checked: a test may patch a check and expect its finding from a shipped
# text that an earlier test loaded clean. The commands the tests start as processes skip the checks of texts loaded
# clean before, as a user's do (tests/test_clean_loads.py turns it on where it tests it).
clean_loads.enabled = False

# Derandomized and without an example database: a run depends neither on the machine nor on runs before it, so a
# failure in CI is a failure on any checkout (a longer campaign of the fuzzers: KALLISTI_FUZZ_SCALE, tests/fuzz).
settings.register_profile("kallisti", derandomize=True, database=None)
settings.load_profile("kallisti")


@pytest.fixture(scope="session", autouse=True)
def _private_stats_and_cache(tmp_path_factory):
    """The games the tests play are not recorded (kallisti.stats: a test of statistics turns recording on, into a
    database of its own), and never in the user's; the parsers the tests build are kept in a cache folder of their
    own. Set in os.environ for the whole run, so that the commands the tests start as processes inherit it."""
    base = tmp_path_factory.mktemp("user")
    saved = {name: os.environ.get(name) for name in ("KALLISTI_STATS", "KALLISTI_NO_STATS", "XDG_CACHE_HOME")}
    os.environ["KALLISTI_STATS"] = str(base / "stats.sqlite3")
    os.environ["KALLISTI_NO_STATS"] = "1"
    os.environ["XDG_CACHE_HOME"] = str(base / "cache")
    yield
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
