"""Fixtures of the reliability suite, and the figures it reports.

Every test records what it exercised (kills survived, requests tried, leak checks...)
with the ``figures`` fixture; at the end of the run the figures are printed under
"reliability figures" and written to ``.pytest_cache/d/reliability/figures.json``
(git-ignored), which is where docs/reliability.md takes its numbers from.
"""
from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from companion.access import HostPin
from companion.engine import Journal
from companion.seats import ManualClock, open_seats, sim_table_config
from companion.table import Table
from companion.web import create_app
from companion.web.live import Hub

PIN = "424242"
SEATS = 8

_FIGURES: dict[str, dict[str, Any]] = {}
_FIGURES_LOCK = threading.Lock()


@pytest.fixture
def figures():
    """``figures("crash", kills=6, ...)``: record what a test exercised."""
    def record(section: str, **values: Any) -> None:
        with _FIGURES_LOCK:
            _FIGURES.setdefault(section, {}).update(values)
    return record


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not _FIGURES:
        return
    report = {"full": bool(getattr(config, "full_run", False)), **_FIGURES}
    text = json.dumps(report, indent=1, sort_keys=True)
    terminalreporter.write_sep("-", "reliability figures")
    terminalreporter.write_line(text)
    cache = getattr(config, "cache", None)
    if cache is not None:
        path = cache.mkdir("reliability") / "figures.json"
        path.write_text(text + "\n")
        terminalreporter.write_line(f"(written to {path})")


# -- an in-process table and its app, as phones and the host see it ------------------------
@pytest.fixture
def hardware():
    with open_seats(sim_table_config(SEATS), "sim", clock=ManualClock()) as hw:
        yield hw


@pytest.fixture
def hub():
    hub = Hub()
    yield hub
    hub.close()


@pytest.fixture
def table(hardware, hub, tmp_path):
    table = Table(Journal(tmp_path / "journal.sqlite3"), list(hardware), hub=hub,
                  pin=HostPin(PIN), base_url="http://localhost")
    for seat in hardware:
        seat.when_changed = hub.publish
    yield table
    table.journal.close()


@pytest.fixture
def app(table, hub, hardware):
    """The app as it runs for real: an unexpected exception is a 500, not a raise."""
    app = create_app(table, hub, sim=hardware)
    app.config.update(TESTING=False, PROPAGATE_EXCEPTIONS=False)
    return app


def join(app, table, seat):
    """A test client holding ``seat``'s cookie, joined through the seat's QR link."""
    client = app.test_client()
    reply = client.get("/J/" + table.access.token(seat))
    assert reply.status_code == 303
    return client


def login(app):
    client = app.test_client()
    assert client.post("/api/host/login", json={"pin": PIN}).status_code == 200
    return client
