"""The injected parts the doctor's tests run it over.

The I2C side is a fake ``smbus2.SMBus`` written here (a TCA9548A at 0x70 and panels on
the channels it is given) that acknowledges, NACKs (errno 121), times out (errno 110),
refuses a claimed address (errno 16) or, with SDA held low, acknowledges everything;
pins are gpiozero's MockFactory; panels are the counting interface the simulated table
draws on.
"""
from __future__ import annotations

import errno
import threading
import time

from companion.doctor import Doctor
from companion.seats import CountingInterface, sim_table_config

MUX, PANEL = 0x70, 0x3C
#: One seat with its screen straight on bus 1 (no multiplexer).
DIRECT = """
[[seat]]
buttons = { previous = 17, select = 27, next = 22 }
screen = { bus = 1 }
"""


class FakeSMBus:
    """smbus2.SMBus's two writes the doctor uses, on a bus with a TCA9548A at 0x70
    (``mux=False``: it does not answer; ``kernel_mux``: a kernel driver claimed it),
    panels behind it at ``(channel, address)`` and panels straight on the bus at
    ``direct`` addresses. ``held_channel``: that channel holds SDA low once opened
    (and the mux no longer hears a command); ``held``: the bus itself does."""

    def __init__(self, panels=((0, PANEL), (1, PANEL), (2, PANEL)), mux=True,
                 timeout=False, direct=(), held=False, held_channel=None, kernel_mux=False):
        self.panels, self.mux, self.timeout = set(panels), mux, timeout
        self.direct, self.held, self.held_channel = set(direct), held, held_channel
        self.kernel_mux = kernel_mux
        self.mask = 0

    def _sda_low(self):
        return self.held or (self.held_channel is not None and
                             self.mask & (1 << self.held_channel))

    def _ack(self, address):
        if self.timeout:
            raise OSError(errno.ETIMEDOUT, "Connection timed out")
        if address == MUX and self.kernel_mux:
            raise OSError(errno.EBUSY, "Device or resource busy")
        if self._sda_low() or (address == MUX and self.mux) or address in self.direct:
            return
        if any(self.mask & (1 << c) and a == address for c, a in self.panels):
            return
        raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def write_byte(self, address, value):
        low = self._sda_low()
        self._ack(address)
        if address == MUX and not low:
            self.mask = value

    def write_byte_data(self, address, register, value):
        self._ack(address)

    def close(self):
        pass


class StoppingPanel(CountingInterface):
    """A panel that takes its setup and first frame, then NACKs."""

    def data(self, data):
        if self.data_bytes >= 1024:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        super().data(data)


class FlakyPanel(CountingInterface):
    """A panel on a marginal lead: every tenth data write NACKs."""

    writes = 0

    def data(self, data):
        self.writes += 1
        if self.writes % 10 == 0:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        super().data(data)


def finger(factory, config, skip=(), keep_down=(), wired=None):
    """Answers each "press" prompt as a person would, from another thread; ``wired``
    maps a ``(seat, role)`` to the GPIO its button really pulls low."""
    def prompt(seat, role, gpio):
        if (seat, role) in skip:
            return
        pin = (wired or {}).get((seat, role), gpio)

        def press():
            factory.pin(pin).drive_low()
            if (seat, role) not in keep_down:
                time.sleep(config.bounce_ms / 1000 * 3)
                factory.pin(pin).drive_high()
        threading.Thread(target=press, daemon=True).start()
    return prompt


def run(tmp_path, factory, backend="sim", seats=3, smbus=None, panels=None, config=None,
        **kwargs):
    """Run a doctor over injected parts; returns (passed, {check name: (status, detail)},
    printed lines)."""
    config = config or sim_table_config(seats)
    lines: list[str] = []
    bus = smbus or FakeSMBus()
    made = iter(panels or [])
    kwargs.setdefault("prompt", finger(factory, config))
    kwargs.setdefault("connections", lambda: None)
    kwargs.setdefault("bus_exists", lambda number: True)
    kwargs.setdefault("button_timeout", 5.0)  # generous: a loaded machine
    kwargs.setdefault("port", 0)
    kwargs.setdefault("chips", lambda: ["/dev/gpiochip0"])
    doctor = Doctor(config, backend, tmp_path / "data", "127.0.0.1", kwargs.pop("port"),
                    smbus=lambda number: bus, pin_factory=factory, say=lines.append,
                    i2c=lambda number, address: next(made, None) or CountingInterface(),
                    **kwargs)
    passed = doctor.run()
    return passed, {c.name: (c.status, c.detail) for c in doctor.checks}, lines


def failures(checks):
    return {name: detail for name, (status, detail) in checks.items() if status == "FAIL"}
