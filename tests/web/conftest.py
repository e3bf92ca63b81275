"""Fixtures for the web app: a simulated table, its app and a test client."""
from __future__ import annotations

import pytest

from companion.web import create_app
from tests.conftest import PIN, join, login

__all__ = ["PIN", "join", "login"]


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
    return login(app)


@pytest.fixture
def phones(app, table):
    return [join(app, table, seat) for seat in range(table.seat_count)]
