"""What every part of the doctor shares: a numbered line (``Check``), its three
statuses, and the words for an I2C error and a pin, as the builder reads them."""
from __future__ import annotations

import errno
from dataclasses import dataclass

from companion.seats.wiring import PHYSICAL

OK, FAIL, SKIP = "ok", "FAIL", "skip"
GROUP_FIX = "add the user to the i2c group (sudo adduser mutiny i2c), then reboot"

#: What an errno from an I2C transfer means at the table. Controllers differ: the
#: Pi's reports a missing acknowledge as 121, others as 6; 16 is i2c-dev refusing an
#: address a kernel driver has claimed (``i2cdetect`` shows ``UU`` there).
ERRNO_WORDS = {
    errno.EREMOTEIO: "no acknowledge (errno 121)",
    errno.ENXIO: "no acknowledge (errno 6)",
    errno.ETIMEDOUT: "the bus timed out (errno 110)",
    errno.EBUSY: "claimed by a kernel driver (errno 16, EBUSY; i2cdetect shows UU)",
    errno.EIO: "I/O error (errno 5)",
    errno.EAGAIN: "arbitration lost (errno 11)",
    errno.EACCES: "permission denied (errno 13)",
}


@dataclass
class Check:
    """One numbered line of the doctor's report."""

    name: str
    status: str
    detail: str


def describe_error(exc: BaseException) -> str:
    """What an I2C error means at the table."""
    code = getattr(exc, "errno", None)
    if code in ERRNO_WORDS:
        return ERRNO_WORDS[code]
    return str(exc) or type(exc).__name__


def bus_timeout_fix(bus: int) -> str:
    return (f"SDA or SCL of bus {bus} is held low: look for a short between SDA, SCL and "
            "GND, a panel or mux without power, a missing pull-up; unplug the seats one at "
            "a time until the bus answers")


def pin_name(gpio: int) -> str:
    """``GPIO6 (pin 31)``: the number the config uses and the header pin it is on."""
    return f"GPIO{gpio} (pin {PHYSICAL.get(gpio, '?')})"
