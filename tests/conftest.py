"""Options and fixtures shared by the whole suite: an in-process simulated table with its
live hub, as the web and reliability tests drive it (each folder picks its seat count
and its app)."""
from __future__ import annotations

import threading

import pytest
from hypothesis import settings

from companion.access import HostPin
from companion.engine import Journal
from companion.seats import ManualClock, open_seats, sim_table_config
from companion.table import Table
from companion.web.live import Hub

# Property tests draw the same examples on every run, so CI never fails on an example
# that a run happened to find that day; `--hypothesis-profile=explore` draws new ones.
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False, max_examples=500)
settings.load_profile("repeatable")

#: The host PIN of the in-process tables.
PIN = "424242"


#: What `--fast` leaves out (markers declared in pyproject.toml).
FAST_LEAVES_OUT = "not browser and not slow"


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true", default=False,
                     help="run the heavy tests at their full count (CI runs fewer)")
    parser.addoption("--fast", action="store_true", default=False,
                     help="a developer's quick tier: no browser tests, no test marked slow, "
                          "the contract playouts at a small count")


def pytest_configure(config):
    config.full_run = config.getoption("--full")
    config.fast_run = config.getoption("--fast")
    if config.fast_run:
        if config.full_run:
            raise pytest.UsageError("--fast and --full ask for opposite counts: pick one")
        # The same deselection as `-m "not browser and not slow"`, kept with a -m of one's own.
        own = config.option.markexpr
        config.option.markexpr = f"({own}) and {FAST_LEAVES_OUT}" if own else FAST_LEAVES_OUT


@pytest.fixture
def seat_count() -> int:
    """Seats of the in-process table (a folder's conftest may ask for more)."""
    return 4


@pytest.fixture
def hardware(seat_count):
    with open_seats(sim_table_config(seat_count), "sim", clock=ManualClock()) as hw:
        yield hw


@pytest.fixture(autouse=True)
def no_table_left_running():
    """Every table a test opens is closed by its end: a step timer left running would
    run out in a later test, on a closed journal, and log there (CI once failed so)."""
    yield
    left = [t for t in threading.enumerate() if t.name == "step-timers"]
    for thread in left:
        thread.join(2)  # a table closed just now: its clock's thread is ending
    left = [t for t in left if t.is_alive()]
    assert not left, "a test left a table open with its step timers running: close it"


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
    # All of it, its step-timer clock too: a timer a test started (random options turn
    # them on) would otherwise run out in a later test, on a closed journal.
    table.close()


def join(app, table, seat):
    """A test client holding ``seat``'s cookie, joined through the seat's QR link."""
    client = app.test_client()
    path = "/" + table.join_url(seat).split("/", 3)[3]
    assert client.get(path).status_code == 303
    return client


def take_seat(app, table, seat):
    """A test client holding ``seat``'s cookie: joined through the seat's QR link,
    taking the seat over from the phone that holds it, if any (a seat has one phone at
    a time: docs/security.md)."""
    client = app.test_client()
    path = "/" + table.join_url(seat).split("/", 3)[3]
    if client.get(path).status_code != 303:
        # (a browser posting the question page's form names this site as its origin)
        assert client.post(path, headers={"Origin": "http://localhost"}).status_code == 303
    return client


def login(app):
    """A test client logged in as the host."""
    client = app.test_client()
    assert client.post("/api/host/login", json={"pin": PIN}).status_code == 200
    return client
