"""Finding pods: the serial ports that look like a Pico running MicroPython."""
from __future__ import annotations

import glob
import os
from typing import Any, Callable, Iterable

#: USB ids of a Pico running MicroPython: Raspberry Pi's vendor id, MicroPython's CDC.
PICO_VID = 0x2E8A
MICROPYTHON_PID = 0x0005
BY_ID = "/dev/serial/by-id"


def find_pods(comports: Callable[[], Iterable[Any]] | None = None,
              by_id: str = BY_ID) -> list[str]:
    """Serial ports that look like a Pico running MicroPython, stable names first.

    A port counts when pyserial's ``list_ports`` gives it the Pico's USB id (2E8A:0005)
    or its ``/dev/serial/by-id`` name says MicroPython. Where a ``by-id`` link exists it
    is returned instead of ``/dev/ttyACMn`` (it names the board, and survives a re-plug
    onto another USB socket).
    """
    if comports is None:
        from serial.tools import list_ports
        comports = list_ports.comports
    devices = [port.device for port in comports()
               if port.vid == PICO_VID and port.pid == MICROPYTHON_PID]
    stable: dict[str, str] = {}
    for link in sorted(glob.glob(os.path.join(by_id, "*"))):
        real = os.path.realpath(link)
        if real in devices or "MicroPython" in os.path.basename(link):
            stable.setdefault(real, link)
    names = [stable.pop(os.path.realpath(device), device) for device in devices]
    return names + sorted(stable.values())
