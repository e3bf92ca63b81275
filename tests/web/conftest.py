"""Fixtures for the web app: a simulated table, its app and a test client."""
from __future__ import annotations

import pytest

from companion.access import HostPin
from companion.engine import Journal
from companion.seats import ManualClock, open_seats, sim_table_config
from companion.table import Table
from companion.web import create_app
from companion.web.live import Hub


PIN = "424242"


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
    table = Table(Journal(tmp_path / "journal.sqlite3"), list(hardware), hub=hub,
                  pin=HostPin(PIN), base_url="http://localhost")
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


@pytest.fixture
def host(app):
    """A client logged in as the host."""
    client = app.test_client()
    assert client.post("/api/host/login", json={"pin": PIN}).status_code == 200
    return client


def join(app, table, seat):
    """A client holding ``seat``'s cookie, joined through the seat's QR link."""
    client = app.test_client()
    path = "/" + table.join_url(seat).split("/", 3)[3]
    assert client.get(path).status_code == 303
    return client


@pytest.fixture
def phones(app, table):
    return [join(app, table, seat) for seat in range(table.seat_count)]
