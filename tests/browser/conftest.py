"""Browser tests: Playwright (from PyPI) driving Debian's Chromium against a real server.

The server runs in-process (``companion.serve.Server`` on the simulated table, port 0) in
a thread; every test gets a fresh one with its own journal. Playwright never downloads a
browser: it drives ``/usr/bin/chromium`` (``./dev test`` installs it when it is missing;
``MUTINY_CHROMIUM`` points elsewhere).
"""
from __future__ import annotations

import logging
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from companion.serve import ServeOptions, Server
from tests.browser.helpers import CHROMIUM, CHROMIUM_ARGS, Live


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    """Every test in this folder is a browser test (``./dev test --fast`` leaves them out):
    marked before ``-m`` deselects. The hook sees the whole session's items."""
    here = Path(__file__).parent
    for item in items:
        if item.path.is_relative_to(here):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: run the suite with ./dev test, which "
                    "installs Debian's chromium package (or set MUTINY_CHROMIUM)",
                    pytrace=False)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def serve(tmp_path):
    """``serve(seats=4)`` starts a server on the simulated table; stopped after the test.
    ``data`` names its data folder, to start a server again on another's (a restart)."""
    started: list[Live] = []
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request

    def start(seats: int = 4, game: str | None = None, data: str | None = None) -> Live:
        server = Server(ServeOptions(backend="sim", seats=seats, game=game,
                                     data_dir=str(tmp_path / (data or f"data{len(started)}")),
                                     port=0, host="127.0.0.1"))
        # Every page of a browser test comes from 127.0.0.1, where a real table has one
        # phone per address: the per-client bound would count them all as one phone.
        server.http.connections_per_client = 200
        server.start_table()
        live = Live(server)
        started.append(live)
        return live

    yield start
    for live in started:
        live.close()
