"""Fuzz `kallisti play` (cli/play.py, cli/match_play.py) through the CLI, as a piped script would drive it, on a
shipped patience, on a match and on a stranger's ruleset file: every session ends with a documented exit code and
never prints a traceback."""

from __future__ import annotations

from hypothesis import given

from fuzz.strategies import match_scripts, play_scripts, small_games
from fuzz.targets import fuzz, match_session, play_file, play_session


@fuzz(250)
@given(play_scripts)
def test_any_play_session_ends_with_an_exit_code_and_no_traceback(script):
    play_session(script)


@fuzz(100)
@given(match_scripts)
def test_any_match_session_ends_with_an_exit_code_and_no_traceback(script):
    match_session(script)


@fuzz(100)
@given(small_games())
def test_any_ruleset_file_given_to_play_ends_with_an_exit_code_and_no_traceback(text):
    play_file(text)
