"""Seat pods on the Pi side: find them on USB, bind them to seats, keep their links up.

A pod (firmware/, a Pico with the seat's buttons, OLED and LED) reports raw button
events and shows the pages it is sent; all the seat logic stays here, in the very same
``Seat`` a wired seat uses. One module per job:

- :mod:`.discovery`: ``find_pods()``, the ports that look like a Pico running
  MicroPython (its USB id, and ``/dev/serial/by-id``);
- :mod:`.devices`: ``PodSeat``, the ``Seat`` given a pod's ``PodButtons``,
  ``PodScreen`` and ``PodLed``;
- :mod:`.binding`: ``PodBinding``, what the table knows of one pod (its seat, what it
  should show, how far its button events got), and ``PodStatus``, one line of a report;
- :mod:`.connection`: ``PodConnection``, one open port (``SerialTransport``) and the
  link's table end, on a thread of its own;
- :mod:`.manager`: ``PodManager``, which scans for ports, opens them and hands each
  connection the binding of the seat whose config names the pod's id; ``pod_report()``.

A binding outlives connections, so a pod unplugged and plugged back in is redrawn in
full and none of its presses is lost or taken twice. The protocol is
:mod:`companion.seats.podlink` (docs/pods.md).
"""
from __future__ import annotations

from .binding import LED_MODES, PodBinding, PodStatus, monotonic_ms
from .connection import PodConnection, SerialTransport, Transport, page_update
from .devices import PodButton, PodButtons, PodLed, PodScreen, PodSeat
from .discovery import find_pods
from .manager import PodManager, pod_report

__all__ = [
    "LED_MODES", "PodBinding", "PodButton", "PodButtons", "PodConnection", "PodLed",
    "PodManager", "PodScreen", "PodSeat", "PodStatus", "SerialTransport", "Transport",
    "find_pods", "monotonic_ms", "page_update", "pod_report",
]
