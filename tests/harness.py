"""Helpers the test files share: the whole text a CLI run printed, and an in-process client of the web API."""

from __future__ import annotations

import os
import warnings

import pytest


def output_of(result) -> str:
    """What a typer CliRunner run printed, standard output then standard error (where the runner kept it apart)."""
    text = result.output
    try:
        text += result.stderr
    except (ValueError, AttributeError):
        pass
    return text


def web_client():
    """A TestClient of a fresh web app (use it in a `with`); without the web extra the test is skipped on a
    developer's machine and fails under CI=true, where a missing test dependency fails."""
    if os.environ.get("CI") != "true":
        pytest.importorskip("starlette")
        pytest.importorskip("httpx")
    with warnings.catch_warnings():  # Starlette's TestClient prefers the `httpx2` fork; `httpx` works the same
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from kallisti.web.api import create_app

    return TestClient(create_app(), base_url="http://127.0.0.1")
