"""Seat I/O: three buttons, a 128x64 SSD1306 and an optional LED per seat.

The runtime needs only this much::

    from companion.seats import load_table_config, sim_table_config, open_seats

    config = load_table_config("hardware/table-6.toml", backend="pi")  # or sim_table_config(6)
    with open_seats(config, backend="pi") as table:           # "sim": a SimTable
        seat = table[0]                                        # seat 1
        seat.when_action = lambda action: ...                  # select confirmed a choice
        seat.show(display)                                     # a companion.engine Display
        seat.show_qr("HTTP://10.42.0.1:8000/J/0123...")        # an unclaimed seat

See docs/seats.md; seat pods (``pod = "<id>"`` in the config): docs/pods.md.
"""
from companion.clocks import Clock, ManualClock, MonotonicClock

from .backends import RecordingBus, SimTable, TableHardware, default_backend, open_seats
from .buttons import SeatButton, SeatButtons
from .config import (
                     ButtonPins,
                     ScreenConfig,
                     SeatConfig,
                     TableConfig,
                     check_buses,
                     i2c_bus_exists,
                     i2c_root_bus,
                     load_table_config,
                     parse_table_config,
                     sim_table_config,
)
from .health import PartFault, SeatWatch
from .interfaces import CountingInterface, MuxBus, MuxChannel
from .pods import PodManager, PodSeat, PodStatus, find_pods, pod_report
from .screen import ScreenState, qr_matrix, render
from .seat import Seat
from .simfaults import SimFault
from .ssd1306 import DriverStats, PageDiffSSD1306

__all__ = [
    "ButtonPins", "Clock", "CountingInterface", "DriverStats", "ManualClock",
    "MonotonicClock", "MuxBus", "MuxChannel", "PageDiffSSD1306", "PartFault", "PodManager",
    "PodSeat", "PodStatus", "RecordingBus", "ScreenConfig", "ScreenState", "Seat",
    "SeatButton", "SeatButtons", "SeatConfig", "SeatWatch", "SimFault", "SimTable", "TableConfig", "TableHardware", "check_buses",
    "default_backend", "find_pods", "i2c_bus_exists", "i2c_root_bus", "load_table_config",
    "open_seats", "parse_table_config", "pod_report", "qr_matrix", "render",
    "sim_table_config",
]
