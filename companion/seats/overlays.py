"""The /boot/firmware/config.txt lines a table config needs, so its I2C buses exist.

Only the Pi's own hardware buses are used by the shipped configs: bus 1 (the header's
I2C pins, GPIO2/3) and bus 0 (the HAT ID pins, GPIO0/1). TCA9548A multiplexers are
selected by the companion over the plain bus, so no ``i2c-mux`` overlay (and no
kernel-numbered channel bus) is ever needed.

This file uses the standard library only: ``hardware/install.sh`` runs it with the
system's ``python3`` before the companion's virtual environment exists::

    python3 companion/seats/overlays.py /etc/mutiny/table.toml

prints one line per setting, in the order they go into config.txt (``mutiny overlays
CONFIG`` prints the same).
"""
from __future__ import annotations

import sys
import tomllib
from typing import Any, Iterable

#: Where the lines go: Raspberry Pi OS Bookworm and later (older: /boot/config.txt).
BOOT_CONFIG = "/boot/firmware/config.txt"

#: I2C bus -> the config.txt lines that make ``/dev/i2c-<bus>`` exist at 400 kHz.
#: The first line of each is the one that creates the bus.
BUS_LINES: dict[int, tuple[str, ...]] = {
    1: ("dtparam=i2c_arm=on", "dtparam=i2c_arm_baudrate=400000"),
    0: ("dtparam=i2c_vc=on", "dtparam=i2c_vc_baudrate=400000"),
}


def enabling_line(bus: int) -> str | None:
    """The config.txt line that creates ``/dev/i2c-<bus>``; None for a bus the Pi's
    firmware does not make by a ``dtparam`` (an overlay the builder chose)."""
    lines = BUS_LINES.get(bus)
    return lines[0] if lines else None


def lines_for_buses(buses: Iterable[int]) -> list[str]:
    """The config.txt lines for screens on ``buses``: bus 1 always (the installer turns
    the header's I2C on for every table), bus 0 when a screen uses it."""
    wanted = set(buses) | {1}
    return [line for bus in (1, 0) if bus in wanted for line in BUS_LINES[bus]]


def buses_enabled(lines: Iterable[str]) -> set[int]:
    """The I2C buses a Pi has after booting with ``lines`` in config.txt."""
    present = {line.strip() for line in lines}
    return {bus for bus, bus_lines in BUS_LINES.items() if bus_lines[0] in present}


def screen_buses(data: dict[str, Any]) -> set[int]:
    """The buses of every screen in parsed (not yet checked) table config data."""
    seats = data.get("seat", [])
    if not isinstance(seats, list):
        return set()
    screens = [seat.get("screen") for seat in seats if isinstance(seat, dict)]
    return {s["bus"] for s in screens
            if isinstance(s, dict) and isinstance(s.get("bus"), int)
            and not isinstance(s.get("bus"), bool)}


def config_lines(path: str) -> tuple[list[str], list[str]]:
    """``(lines, warnings)`` for the table config at ``path``. An unreadable config
    still gets bus 1 (the companion refuses it at start with the reason)."""
    try:
        with open(path, "rb") as file:
            data = tomllib.load(file)
    except (OSError, ValueError) as exc:
        return lines_for_buses(()), [f"cannot read {path} ({exc}): only bus 1 set up"]
    buses = screen_buses(data)
    warnings = [f"{path}: screens on I2C bus {bus}, which no config.txt line here makes; "
                f"add its dtoverlay to {BOOT_CONFIG} yourself, or move them to bus 1 "
                "behind a TCA9548A" for bus in sorted(buses - set(BUS_LINES))]
    return lines_for_buses(buses), warnings


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: overlays.py TABLE_CONFIG", file=sys.stderr)
        return 2
    lines, warnings = config_lines(argv[0])
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
