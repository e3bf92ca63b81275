"""``mutiny doctor --stress``: full frames to every screen for a while, every error
counted by its kind, per seat.

A frame can fail loudly (the bus reports an error: counted by its errno) or quietly
(it arrives wrong). A panel whose memory can be read back has every frame compared
with what was sent, and a difference is counted too. An SSD1306 over I2C cannot be
read back, so for those the builder is told what to watch on the screens while the
run lasts. ``StressRun`` is a part of ``Doctor`` (``companion.doctor.checks``).
"""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from PIL import Image, ImageDraw

from companion.seats.config import SeatConfig

from .report import describe_error

READ_BACK_DIFFERS = "read back differs from the frame sent"
WATCH = ("watch the screens while it runs: each shows a checkerboard that inverts every "
         "frame. A screen that freezes, goes dark, or shows stray dots, lines or a "
         "shifted or torn pattern has errors the bus did not report: note its seat")


@dataclass
class StressRow:
    """One seat's line of ``mutiny doctor --stress``."""

    seat: int
    where: str
    frames: int = 0  #: full frames tried
    errors: int = 0  #: frames that failed, or were read back wrong
    last_error: str = ""
    kinds: Counter = field(default_factory=Counter)  #: error words -> frames
    read_back: bool = False  #: every frame read back and compared

    def count(self, kind: str) -> None:
        self.errors += 1
        self.kinds[kind] += 1
        self.last_error = kind

    def describe_kinds(self) -> str:
        return ", ".join(f"{kind} x{n}" for kind, n in self.kinds.most_common())


def panel_memory(device: Any) -> Callable[[], Image.Image] | None:
    """How to read back what a panel holds, if it can be (a modelled panel can; an
    SSD1306 over I2C cannot): the ``image()`` of the interface under the mux channel."""
    interface: Any = getattr(device, "interface", None)
    interface = getattr(interface, "interface", interface)  # behind a mux channel
    # Looked up on the class: luma's no-op interface answers any name on the instance.
    if not callable(getattr(type(interface), "image", None)):
        return None
    return interface.image


def pattern(device: Any, phase: int) -> Image.Image:
    """A checkerboard (every bit changes between the two phases)."""
    image = Image.new(device.mode, device.size)
    draw = ImageDraw.Draw(image)
    for y in range(0, device.height, 8):
        for x in range(0, device.width, 8):
            if (x // 8 + y // 8 + phase) % 2:
                draw.rectangle((x, y, x + 7, y + 7), fill="white")
    return image


class StressRun:
    """The stress run of ``Doctor``."""

    screens: dict[int, Any]
    say: Callable[[str], None]
    stress_rows: list[StressRow]

    def stress(self, seconds: float) -> bool:
        """Draw full frames to every screen that answers for ``seconds``, counting the
        errors per seat and kind; print a table. True when no frame failed."""
        self.say(f"Stress: full frames to every screen for {seconds:g} s")
        try:
            for bus in self.used_buses():  # type: ignore[attr-defined]
                if not self.bus_exists(bus):  # type: ignore[attr-defined]
                    self._bad_buses[bus] = f"bus {bus} is missing"  # type: ignore
            seats = [s for s in self.checked_seats()  # type: ignore[attr-defined]
                     if s.screen is not None]
            for seat in seats:
                self.check_screen(seat)  # type: ignore[attr-defined]  # opens the screens
            self._say_what_is_compared()
            self.stress_rows = self._stress_loop(seats, seconds)
        finally:
            self.close()  # type: ignore[attr-defined]
        self._print_stress(self.stress_rows)
        return all(row.frames and not row.errors for row in self.stress_rows)

    def _say_what_is_compared(self) -> None:
        """Before the run: which screens are read back, and what to watch on the rest."""
        compared = sorted(n for n, d in self.screens.items() if panel_memory(d))
        watched = sorted(n for n in self.screens if n not in compared)
        if compared:
            self.say(f"{_seats(compared)}: every frame is read back and compared.")
        if watched:
            self.say(f"{_seats(watched)}: an SSD1306 over I2C cannot be read back, "
                     f"so {WATCH}.")

    def _stress_loop(self, seats: list[SeatConfig], seconds: float) -> list[StressRow]:
        rows = {s.number: StressRow(s.number, s.screen.describe()) for s in seats
                if s.screen is not None}
        patterns = {n: (pattern(d, 0), pattern(d, 1)) for n, d in self.screens.items()}
        memories = {n: panel_memory(d) for n, d in self.screens.items()}
        sent = {n: tuple(d.preprocess(p).convert("1").tobytes() for p in patterns[n])
                for n, d in self.screens.items() if memories[n]}
        end = time.monotonic() + seconds
        frame = 0
        while time.monotonic() < end and self.screens:
            for number, device in self.screens.items():
                row = rows[number]
                row.frames += 1
                row.read_back = number in sent
                try:
                    device.invalidate()  # a full frame each time: 1,024 data bytes
                    device.display(patterns[number][frame % 2])
                except Exception as exc:  # counted, not fatal: that is the measurement
                    row.count(describe_error(exc))
                    continue
                memory = memories[number]
                if memory and memory().convert("1").tobytes() != sent[number][frame % 2]:
                    row.count(READ_BACK_DIFFERS)
            frame += 1
        for number, row in rows.items():
            if number not in self.screens:
                row.last_error = "not drawn: see the doctor's screen line"
        return list(rows.values())

    def _print_stress(self, rows: list[StressRow]) -> None:
        wide = max([len("screen")] + [len(row.where) for row in rows])
        self.say(f"{'seat':<5} {'screen':<{wide}} {'frames':>7} {'errors':>7} {'rate':>7}  "
                 "errors by kind")
        for row in rows:
            rate = f"{row.errors / row.frames:.2%}" if row.frames else "-"
            kinds = row.describe_kinds() or (row.last_error if not row.frames else "")
            self.say(f"{row.seat:<5} {row.where:<{wide}} {row.frames:>7} {row.errors:>7} "
                     f"{rate:>7}  {kinds}".rstrip())


def _seats(numbers: list[int]) -> str:
    """``Seat 2`` or ``Seats 1, 2``."""
    return ("Seat " if len(numbers) == 1 else "Seats ") + ", ".join(map(str, numbers))
