"""Fixtures for the web app: a simulated table, its app and a test client."""
from __future__ import annotations

import pytest

from companion.engine import Journal
from companion.seats import ManualClock, open_seats, sim_table_config
from companion.table import Table
from companion.web import create_app
from companion.web.live import Hub


@pytest.fixture
def hardware():
    with open_seats(sim_table_config(4), "sim", clock=ManualClock()) as hw:
        yield hw


@pytest.fixture
def hub():
    hub = Hub()
    yield hub
    hub.close()


@pytest.fixture
def table(hardware, hub, tmp_path):
    table = Table(Journal(tmp_path / "journal.sqlite3"), list(hardware), hub=hub)
    for seat in hardware:
        seat.when_changed = hub.publish
    yield table
    table.journal.close()


@pytest.fixture
def app(table, hub, hardware):
    app = create_app(table, hub, sim=hardware)
    app.config.update(TESTING=True)
    return app


@pytest.fixture
def client(app):
    return app.test_client()
