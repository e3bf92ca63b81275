"""press-to-screen: a MockFactory pin edge to the new frame handed to the OLED interface.

Eight simulated seats run real matches of moon-yeti through the real table runtime, the
real journal (on disk) and the real page-diffing driver. Time is kept by a manual clock
for the debounce and hold logic (so a press can follow a release at once), while each
latency is measured with the wall clock from the pin edge until the seat's panel
interface receives its first byte of the new frame, and until every seat that changed
has been redrawn.
"""
from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.stats import frozen_start
from companion.engine import Journal
from companion.seats import ManualClock, open_seats, sim_table_config
from companion.table import Table

SEATS = 8
DEBOUNCE = 0.031


class FrameTimer:
    """Notes when each seat's panel interface receives data, and when the table starts
    redrawing after a change (so a frame can be told from the seat's own browsing)."""

    def __init__(self, panels: list[Any], table: Table):
        self.sent: list[tuple[float, int]] = []
        self.refreshed: float | None = None
        for index, panel in enumerate(panels):
            panel.data = self._timed(index, panel.data)
        refresh = table.refresh

        def timed_refresh():
            if self.refreshed is None:
                self.refreshed = time.perf_counter()
            refresh()
        table.refresh = timed_refresh

    def _timed(self, index: int, send):
        def data(payload):
            self.sent.append((time.perf_counter(), index))
            return send(payload)
        return data

    def mark(self) -> float:
        self.sent.clear()
        self.refreshed = None
        return time.perf_counter()

    def first(self, seat: int, after: float = 0.0) -> float | None:
        return next((t for t, s in self.sent if s == seat and t >= after), None)

    def last(self) -> float:
        return max(t for t, _ in self.sent)


def run(presses: int = 1000, seed: int = 1) -> dict[str, list[float]]:
    """Latencies in ms: ``browse`` (previous/next: the seat's own screen), ``act`` (a
    select that makes an engine action: the acting seat's screen) and ``act_all`` (until
    every seat the action changed has its new frame)."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp, \
            open_seats(sim_table_config(SEATS), "sim", clock=ManualClock()) as hw:
        table = Table(Journal(Path(tmp) / "journal.sqlite3"), list(hw))
        timer = FrameTimer(hw.panels, table)
        for seat in range(SEATS):
            _click(hw, seat, "select")  # claim
        out: dict[str, list[float]] = {"browse": [], "act": [], "act_all": []}
        with frozen_start():
            while len(out["act"]) < presses:
                if table.match is None or table.match.is_over:
                    table.match = None
                    table.start("moon-yeti", SEATS, seed=f"bench-{rng.random()}")
                _one_action(hw, table, timer, rng, out)
        table.close()
    return out


def _click(hw, seat: int, button: str) -> None:
    hw.pin(seat, button).drive_low()
    hw.advance(DEBOUNCE)
    hw.pin(seat, button).drive_high()
    hw.advance(DEBOUNCE)


def _timed_edge(hw, timer: FrameTimer, seat: int, button: str, low: bool) -> float:
    pin = hw.pin(seat, button)
    start = timer.mark()
    pin.drive_low() if low else pin.drive_high()
    return start


def _one_action(hw, table: Table, timer: FrameTimer, rng: random.Random,
                out: dict[str, list[float]]) -> None:
    seat = rng.choice([s for s in table.match.acting() if isinstance(s, int)])
    device = hw[seat]
    # Browse to a random choice: each next press redraws the seat's own screen.
    for _ in range(rng.randrange(1, 1 + max(1, len(device.display.choices)))):
        start = _timed_edge(hw, timer, seat, "next", low=True)
        hw.advance(DEBOUNCE)  # the edge counts once stable: the manual clock gets there
        if timer.first(seat) is not None:
            out["browse"].append((timer.first(seat) - start) * 1000)
        hw.pin(seat, "next").drive_high()
        hw.advance(DEBOUNCE)
    version = table.match.version
    # A select may open a menu group or reveal a masked line (docs/seats.md) before one
    # confirms: press until one acts, and time that one.
    for _attempt in range(4):
        hw.pin(seat, "select").drive_low()
        hw.advance(DEBOUNCE)
        start = _timed_edge(hw, timer, seat, "select", low=False)  # select acts on release
        hw.advance(DEBOUNCE)
        if table.match.version != version:
            break
    if table.match.version == version or timer.refreshed is None:
        return  # no press acted (refused), or nothing was redrawn
    shown = timer.first(seat, after=timer.refreshed)
    if shown is not None:
        out["act"].append((shown - start) * 1000)
        out["act_all"].append((timer.last() - start) * 1000)
