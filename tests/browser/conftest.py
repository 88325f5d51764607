"""The browser tests' fixtures: the real server of `kallisti serve` on a free local port, headless Chromium driven
by Playwright, and the API beside the page to check what the page did.

Chromium is Debian's system package (/usr/bin/chromium, `apt-get install chromium`); Playwright never downloads
a browser here. Without Chromium, Playwright or the web extra the tests are skipped, except under CI=true, where
a missing test dependency fails.
"""

from __future__ import annotations

import os
import threading
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("KALLISTI_CHROMIUM", "/usr/bin/chromium")  # another path to a Chromium may be given
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1280, "height": 800}
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
WAIT_MS = 10_000  # the longest a step waits for the page


def missing(what: str):
    """Skip for want of `what`; under CI=true fail instead, for CI must run every test."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} (CI=true: a missing test dependency fails)")
    pytest.skip(what)


@pytest.fixture(scope="package")
def server():
    """The app of `kallisti serve` under uvicorn, in a thread, on 127.0.0.1 and a free port: its base URL."""
    try:
        import uvicorn  # noqa: F401
        from kallisti.web.api import create_app
        from kallisti.web.server import bind, make_server
    except ImportError as exc:
        missing(f"the web extra is not installed ({exc}; pip install '.[web]')")
    sock = bind(0)  # as `kallisti serve --port 0` binds
    srv = make_server(create_app(), sock)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, name="kallisti-test-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not srv.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("the server did not start")
        time.sleep(0.02)
    host, port = sock.getsockname()[:2]
    # The list of games loads every shipped ruleset, which takes seconds: done once here, not in a test's first step.
    with urllib.request.urlopen(f"http://{host}:{port}/api/games", timeout=120) as answer:
        assert answer.status == 200
    yield f"http://{host}:{port}"
    srv.should_exit = True
    thread.join(timeout=10)
    sock.close()


@pytest.fixture(scope="package")
def api(server):
    """An HTTP client of the JSON API, beside the page."""
    try:
        import httpx
    except ImportError:
        missing("httpx is not installed (pip install '.[test]')")
    with httpx.Client(base_url=server, timeout=30) as client:
        yield client


# Package scope, not session: Playwright's sync API keeps an event loop running on the main thread while it is
# open, and the tests after this package (the API's replays) run event loops of their own.
@pytest.fixture(scope="package")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("Playwright is not installed (pip install '.[test]')")
    if not os.path.exists(CHROMIUM):
        missing(f"no Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, server):
    """A fresh page of the server; a JavaScript error on it fails the test."""
    # Playwright's wait_for_function runs its predicate through eval, which the page's Content-Security-Policy
    # forbids; the page under its policy is tested in tests/test_web_hardening.py.
    yield from watched_page(browser, server, viewport=VIEWPORT)


def watched_page(browser, server, **context_options):
    """A page of the server in a new browser context (motion reduced, the CSP bypassed, with `context_options`), yielded
    to a fixture; a JavaScript error on it fails the test when the fixture ends."""
    context = browser.new_context(base_url=server, reduced_motion="reduce", bypass_csp=True, **context_options)
    pg = context.new_page()
    pg.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pg
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


@pytest.fixture(scope="package")
def screenshots():
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
