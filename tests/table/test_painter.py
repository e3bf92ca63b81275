"""The drawing order after a change, and seat screens drawn in the background, a thread
per I2C bus. (The order under load, over real HTTP: tests/web/test_live.py.)"""
from __future__ import annotations

import logging
import threading
from pathlib import Path

import pytest

from companion.engine import Display
from companion.seats import (
    CountingInterface,
    ManualClock,
    load_table_config,
    open_seats,
    sim_table_config,
)
from companion.table.painter import DrawingOrder, ScreenPainter
from tests.web.test_live import wait_for

TABLE_8 = Path(__file__).resolve().parents[2] / "hardware" / "table-8.toml"


class GatedPanel(CountingInterface):
    """A simulated panel whose first transfer after ``armed`` waits for ``gate``."""

    def __init__(self, gate: threading.Event, waited: list[bool]):
        super().__init__()
        self.armed = False
        self._gate, self._waited = gate, waited

    def data(self, data):
        if self.armed:
            self.armed = False
            self._waited.append(self._gate.wait(5))  # one thread for both: times out
        super().data(data)


def test_each_i2c_bus_is_drawn_on_a_thread_of_its_own():
    """Seat 1 (bus 1) cannot finish its frame until seat 5 (bus 0) has been drawn: only
    a second thread can draw seat 5 meanwhile."""
    seat_five_drawn, waited, panels = threading.Event(), [], []

    def panel(bus, address):
        panels.append(GatedPanel(seat_five_drawn, waited) if bus == 1 else CountingInterface())
        return panels[-1]

    config = load_table_config(TABLE_8, "sim")
    with open_seats(config, "sim", clock=ManualClock(), i2c=panel) as hw:
        assert [seat.i2c_bus for seat in hw] == [1] * 4 + [0] * 4
        seat_one_drawn, threads = threading.Event(), {}

        def drawn(index, event):
            def changed():
                threads[index] = threading.current_thread().name
                event.set()
            return changed

        hw[0].when_changed = drawn(0, seat_one_drawn)
        hw[4].when_changed = drawn(4, seat_five_drawn)
        panels[0].armed = True  # seat 1's: the first screen opened
        painter = ScreenPainter(list(hw))
        try:
            painter.paint(0, Display(title="Seat one"))
            painter.paint(4, Display(title="Seat five"))
            assert seat_one_drawn.wait(10) and seat_five_drawn.wait(10)
        finally:
            painter.close()
        assert waited == [True]
        assert threads == {0: "seat-screens-i2c-1", 4: "seat-screens-i2c-0"}
        assert hw[0].display.title == "Seat one" and hw[4].display.title == "Seat five"


class BrokenScreen:
    """A seat device on bus 1 whose screen fails every time."""

    i2c_bus = 1
    when_action = when_claimed = None

    def show(self, display):
        raise OSError(121, "Remote I/O error")

    show_qr = show

    def close(self):
        pass


class HeldScreen(BrokenScreen):
    """A seat device on bus 1 whose drawing waits until ``go`` is set."""

    def __init__(self, go: threading.Event):
        self.go, self.drawing = go, threading.Event()

    def show(self, display):
        self.drawing.set()
        assert self.go.wait(10)


def test_background_screens_coalesce_per_seat_and_survive_a_failing_screen(caplog):
    go = threading.Event()
    with open_seats(sim_table_config(4), "sim", clock=ManualClock()) as hw:
        held = HeldScreen(go)
        devices = [hw[0], BrokenScreen(), hw[2], held]  # all on bus 1: one thread
        frames = hw[0].device.stats.frames
        last_drawn = threading.Event()
        hw[2].when_changed = last_drawn.set
        painter = ScreenPainter(devices)
        with caplog.at_level(logging.ERROR, logger="companion.table.painter"):
            painter.paint(3, Display(title="Holds the bus"))
            assert held.drawing.wait(10)  # the bus's thread is busy with seat 4
            painter.paint(0, Display(title="Old"))
            painter.paint(0, Display(title="New"))  # before the next round: replaces "Old"
            painter.paint(1, Display(title="Lost"))
            painter.paint(2, Display(title="After the broken one"))
            go.set()
            assert last_drawn.wait(10)
        painter.close()
        painter.close()  # idempotent
        assert hw[0].display.title == "New"
        assert hw[0].device.stats.frames == frames + 1  # "Old" was never drawn
        assert hw[2].display.title == "After the broken one"
        assert "seat 2: drawing failed" in caplog.text


def test_a_screen_drawn_now_is_never_overdrawn_by_an_older_one_still_due():
    go = threading.Event()
    with open_seats(sim_table_config(2), "sim", clock=ManualClock()) as hw:
        held = HeldScreen(go)
        painter = ScreenPainter([hw[0], held])  # one bus: seat 2 holds its thread
        try:
            painter.paint(1, Display(title="Holds the bus"))
            assert held.drawing.wait(10)
            painter.paint(0, Display(title="Older"))
            painter.paint_now(0, Display(title="Newer"))  # on this thread, at once
            assert hw[0].display.title == "Newer"
            frames = hw[0].device.stats.frames
            go.set()
            painter.paint(1, Display(title="A later round"))  # drawn after "Older" would be
            assert wait_for(lambda: not painter._due[1], 10)
        finally:
            painter.close()
        assert hw[0].display.title == "Newer" and hw[0].device.stats.frames == frames


@pytest.mark.parametrize("background", [False, True])
def test_the_drawing_order_the_acting_seat_then_the_phones_then_the_other_screens(background):
    """What each step of a change reached, in the order it happened: the acting seat's
    frame (step 1), the phones (step 2), then every other screen that changed."""
    with open_seats(sim_table_config(4), "sim", clock=ManualClock()) as hw:
        happened = []
        for index in range(4):
            hw[index].when_changed = lambda index=index: happened.append(("frame", index))
        order = DrawingOrder(list(hw), lambda: happened.append(("phones",)),
                             background=background)
        try:
            before = {seat: Display(title=f"Before {seat}") for seat in range(4)}
            order.rest(before)
            assert wait_for(lambda: len(happened) == 5, 10)
            happened.clear()
            order.first(2, Display(title="Seat 3 acted"))
            after = {**before, 2: Display(title="Seat 3 acted"),
                     0: Display(title="Seat 1 sees it"), 3: Display(title="Seat 4 sees it")}
            order.rest(after, acting=2)
            assert wait_for(lambda: len(happened) == 4, 10)
            # Seat 3 was handed its screen already (not again); seat 2's did not change.
            assert happened == [("frame", 2), ("phones",), ("frame", 0), ("frame", 3)]
            happened.clear()
            order.rest({**after, 1: Display(title="A phone acted for seat 2"),
                        0: Display(title="Seat 1 again")}, acting=1)
            assert wait_for(lambda: len(happened) == 3, 10)
            # From a phone: the phones first, then the acting seat's screen first.
            assert happened == [("phones",), ("frame", 1), ("frame", 0)]
        finally:
            order.close()
