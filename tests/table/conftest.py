"""The table runtime's own table: four simulated seats (the suite's ``hardware``), no
hub and no host PIN unless a test gives one; and choosing with the seat's buttons."""
from __future__ import annotations

import pytest

from companion.engine import Journal
from companion.table import Table


@pytest.fixture
def table(hardware, tmp_path):
    table = Table(Journal(tmp_path / "journal.sqlite3"), list(hardware))
    yield table
    table.close()


def claim_all(hardware):
    for seat in range(hardware.seat_count):
        hardware.click(seat, "select")


def choose(hardware, seat, wanted):
    """Pick, with the seat's buttons alone, the first choice whose action matches: through
    its menu groups (``Seat.presses_to_choose``)."""
    device = hardware[seat]
    choices = device.display.choices
    target = next(i for i, c in enumerate(choices) if wanted(c.action))
    for button in device.presses_to_choose(target):
        hardware.click(seat, button)
    return choices[target].action
