"""Faults put into the simulated table while it is served, and lifted again:
``mutiny serve --backend sim --sim-fault KIND[:SEAT[:ROLE]]``, the controls on ``/sim``
and ``SimTable.put_fault()`` / ``lift_fault()`` in tests.

The kinds are named as ``mutiny doctor --sim-fault`` names them (its
``companion.doctor.sim.SimFaults``), so a fault reads the same in both tools; these are
the ones a table at play can meet and get over. Each acts on the very parts the seats
use: a screen's modelled panel loses its power (``CountingInterface.lose_power()``),
the TCA9548A stops answering on its bus, a button's mock pin is shorted to ground.
"""
from __future__ import annotations

import errno
from dataclasses import dataclass
from typing import Any

from gpiozero.pins.mock import MockPWMPin

from .buttons import ROLES

#: Kind -> what it does to the simulated table.
KINDS = {
    "screen-missing": "the seat's screen does not answer (its cable pulled: no power); "
                      "lifted, it is powered again and has forgotten its init",
    "mux-missing": "the seat's TCA9548A does not answer: no screen behind it can be "
                   "reached",
    "button-stuck": "the button is shorted to ground (held down, from the start if put "
                    "in at the start)",
}


@dataclass(frozen=True)
class SimFault:
    """One fault: its kind, the seat's number (from 1) and, for a button, its role."""

    kind: str
    seat: int
    role: str = "select"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "role": self.role,
                "what": KINDS[self.kind]}

    @classmethod
    def parse(cls, spec: str) -> "SimFault":
        """``KIND[:SEAT[:ROLE]]`` (seat 1 and select when left out), as
        ``mutiny doctor --sim-fault`` takes it. Raises ``ValueError`` saying the form."""
        kind, _, rest = spec.partition(":")
        seat, _, role = rest.partition(":")
        if kind not in KINDS or (seat and not seat.isdigit()) or (role and role not in ROLES):
            raise ValueError(f"unknown fault {spec!r}: use KIND[:SEAT[:ROLE]], KIND one of "
                             f"{', '.join(KINDS)}, ROLE one of {', '.join(ROLES)}")
        return cls(kind, int(seat or 1), role or "select")


class ShortedButtonPin(MockPWMPin):
    """A button's mock pin shorted to ground while ``shorted``: the pull-up cannot lift
    it (a button stuck from before its seat opened)."""

    shorted = True

    def drive_high(self) -> None:
        if not self.shorted:
            super().drive_high()


class SimMuxBus:
    """The simulated I2C bus the multiplexers sit on (``smbus`` for ``MuxBus``): a
    TCA9548A whose address is in ``dead`` does not acknowledge."""

    def __init__(self) -> None:
        self.dead: set[int] = set()
        self.count = 0
        self.closed = False

    def write_byte(self, i2c_addr: int, value: int) -> None:
        if i2c_addr in self.dead:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        self.count += 1

    def close(self) -> None:
        self.closed = True
