"""``mutiny doctor --stress`` (companion/doctor/stress.py): every error counted by its
kind, frames read back where the panel allows, what to watch where it does not."""
from __future__ import annotations

import errno

from luma.core.interface.serial import noop

from companion.doctor import Doctor
from companion.seats import CountingInterface, sim_table_config

from .parts import FakeSMBus, FlakyPanel


class GarblingPanel(CountingInterface):
    """A panel on a noisy lead: every tenth data write lands with a bit flipped, and
    nothing is reported."""

    writes = 0

    def data(self, data):
        self.writes += 1
        data = bytes(data)
        if self.writes % 10 == 0:
            data = bytes([data[0] ^ 0x80]) + data[1:]
        super().data(data)


class BusyPanel(CountingInterface):
    """A panel that passes the doctor's screen check (its first writes), then gets an
    I/O error (errno 5) on every fifth data write and a timeout on every seventh: kinds
    other than a missing acknowledge."""

    writes = 0

    def data(self, data):
        self.writes += 1
        if self.writes <= 10:
            pass
        elif self.writes % 5 == 0:
            raise OSError(errno.EIO, "Input/output error")
        if self.writes % 7 == 0:
            raise OSError(errno.ETIMEDOUT, "Connection timed out")
        super().data(data)


def stress(tmp_path, factory, panels, seconds=0.3):
    lines: list[str] = []
    made = iter(panels)
    doctor = Doctor(sim_table_config(len(panels)), "sim", tmp_path, "127.0.0.1", 0,
                    smbus=lambda n: FakeSMBus(), i2c=lambda n, a: next(made),
                    pin_factory=factory, bus_exists=lambda n: True, say=lines.append)
    passed = doctor.stress(seconds)
    return passed, {row.seat: row for row in doctor.stress_rows}, lines


def test_stress_counts_errors_per_seat(tmp_path, factory):
    passed, rows, lines = stress(tmp_path, factory,
                                 [CountingInterface(), FlakyPanel(), CountingInterface()])
    assert passed is False
    assert rows[1].errors == 0 and rows[3].errors == 0 and rows[2].errors > 0
    assert all(row.frames > 0 for row in rows.values())
    assert lines[2].split() == ["seat", "screen", "frames", "errors", "rate", "errors", "by",
                                "kind"]
    assert lines[4].startswith("2 ")
    assert lines[4].endswith(f"no acknowledge (errno 121) x{rows[2].errors}")


def test_stress_counts_every_kind_of_error(tmp_path, factory):
    passed, rows, lines = stress(tmp_path, factory, [BusyPanel()])
    kinds = rows[1].kinds
    assert set(kinds) == {"I/O error (errno 5)", "the bus timed out (errno 110)"}
    assert sum(kinds.values()) == rows[1].errors
    assert "I/O error (errno 5) x" in lines[-1] and "the bus timed out (errno 110) x" in \
        lines[-1]


def test_stress_reads_back_each_frame_and_counts_a_wrong_one(tmp_path, factory):
    # No bus error at all: only the read back finds the flipped bits.
    passed, rows, lines = stress(tmp_path, factory, [CountingInterface(), GarblingPanel()])
    assert passed is False
    assert rows[1].errors == 0 and rows[1].read_back
    assert rows[2].errors > 0
    assert dict(rows[2].kinds) == {"read back differs from the frame sent": rows[2].errors}
    assert lines[1] == "Seats 1, 2: every frame is read back and compared."


def test_stress_on_panels_that_cannot_be_read_back_says_what_to_watch(tmp_path, factory):
    # luma's own no-op interface, as an SSD1306 over I2C: it can be written, not read.
    passed, rows, lines = stress(tmp_path, factory, [noop(), CountingInterface()])
    assert passed is True
    assert not rows[1].read_back and rows[2].read_back
    assert lines[1] == "Seat 2: every frame is read back and compared."
    assert lines[2].startswith("Seat 1: an SSD1306 over I2C cannot be read back, so "
                               "watch the screens while it runs")
