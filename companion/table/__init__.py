"""The table runtime, one module per job:

- :mod:`~companion.table.table`: :class:`Table`, the match lifecycle and the one lock
  through which buttons, phones and the host act;
- :mod:`~companion.table.lobby`: what the seats show between matches (seat 1 picks a
  game and the players), and the lobby's own actions;
- :mod:`~companion.table.payloads`: what each viewer is sent, and turn versions;
- :mod:`~companion.table.painter`: seat screens drawn in the background, a thread per
  I2C bus.
"""
from __future__ import annotations

from companion.table.lobby import game_specs
from companion.table.painter import ScreenPainter, SeatDevice
from companion.table.table import Listener, Table

__all__ = ["Listener", "ScreenPainter", "SeatDevice", "Table", "game_specs"]
