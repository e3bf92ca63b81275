"""Seat screens drawn in the background, a thread per I2C bus."""
from __future__ import annotations

import logging
import threading
from pathlib import Path

from companion.engine import Display
from companion.seats import (CountingInterface, ManualClock, load_table_config, open_seats,
                             sim_table_config)
from companion.table import ScreenPainter

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
        seat_one_drawn, threads, settled = threading.Event(), {}, []

        def drawn(index, event):
            def changed():
                threads[index] = threading.current_thread().name
                event.set()
            return changed

        hw[0].when_changed = drawn(0, seat_one_drawn)
        hw[4].when_changed = drawn(4, seat_five_drawn)
        panels[0].armed = True  # seat 1's: the first screen opened
        painter = ScreenPainter(list(hw), settle=settled.append)
        try:
            painter.paint(0, Display(title="Seat one"))
            painter.paint(4, Display(title="Seat five"))
            assert seat_one_drawn.wait(10) and seat_five_drawn.wait(10)
        finally:
            painter.close()
        assert waited == [True]
        assert threads == {0: "seat-screens-i2c-1", 4: "seat-screens-i2c-0"}
        assert settled and set(settled) == {ScreenPainter.SETTLE_SECONDS}  # phones first
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


def test_background_screens_coalesce_per_seat_and_survive_a_failing_screen(caplog):
    go = threading.Event()
    with open_seats(sim_table_config(3), "sim", clock=ManualClock()) as hw:
        devices = [hw[0], BrokenScreen(), hw[2]]  # all three on bus 1: one thread
        frames = hw[0].device.stats.frames
        last_drawn = threading.Event()
        hw[2].when_changed = last_drawn.set
        painter = ScreenPainter(devices, settle=lambda timeout: go.wait(5))
        with caplog.at_level(logging.ERROR, logger="companion.table.painter"):
            painter.paint(0, Display(title="Old"))
            painter.paint(0, Display(title="New"))  # before the round: replaces "Old"
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
