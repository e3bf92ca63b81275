"""docs/seats.md stays true: its example runs and its byte table is re-measured."""
from __future__ import annotations

import re
from pathlib import Path

import luma.oled.device
import pytest

from companion.seats import (
    CountingInterface,
    DriverStats,
    ManualClock,
    MuxBus,
    PageDiffSSD1306,
    RecordingBus,
    ScreenState,
    open_seats,
    render,
    sim_table_config,
)

from .conftest import vote_display

DOC = Path(__file__).resolve().parents[2] / "docs" / "seats.md"
# luma's stock driver (measured for comparison) reads pixels with a call Pillow 13 deprecates.
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")

JOIN_URL = "HTTP://10.42.0.1:8000/J/3F2A9C0D4E5B6A7988776655443322AA"


def test_the_seats_example_runs(capsys):
    code = re.search(r"```python\n(.*?)```", DOC.read_text(), re.S).group(1)
    exec(compile(code, str(DOC), "exec"), {})
    out = capsys.readouterr().out.splitlines()
    assert out == ["rest 0", "browse 1", "[{'type': 'vote', 'side': 'defend'}]", "private"]


def measure() -> list[tuple[str, DriverStats, int]]:
    """One scripted session on a simulated seat: what each step sent, and how many
    channel selects it cost behind a TCA9548A."""
    rows = []
    recorder = RecordingBus()
    mux = MuxBus(recorder)
    panel = CountingInterface()
    stock = luma.oled.device.ssd1306(mux.channel(panel, 0x70, 0))
    image = render(ScreenState("rest", vote_display()))
    stock.display(image)
    panel.reset_counts()
    selects = recorder.count
    stock.display(image)
    rows.append(("luma's ssd1306, any frame, even an unchanged one",
                 DriverStats(panel.command_bytes, panel.data_bytes, panel.transfers),
                 recorder.count - selects))
    selects = recorder.count
    first = PageDiffSSD1306(mux.channel(CountingInterface(), 0x70, 1))
    rows.append(("first frame after init (the clear)", first.stats, recorder.count - selects))
    table = open_seats(sim_table_config(1), "sim", clock=ManualClock())
    seat, device = table[0], table[0].device
    steps = [
        ("show a vote on a blank screen", lambda: seat.show(vote_display())),
        ("the same display again", lambda: seat.show(vote_display())),
        ("one public line changes", lambda: seat.show(vote_display(
            lines=("Round 3 - night", "Captain: seat 4", "Rum: 4 barrels")))),
        ("next pressed (starts browsing)", lambda: table.click(0, "next")),
        ("next pressed again", lambda: table.click(0, "next")),
        ("browsing times out", lambda: table.advance(5)),
        ("select pressed (browsing)", lambda: table.press(0, "select")),
        ("select held 0.6 s: private lines", lambda: table.advance(0.6)),
        ("select released (browsing)", lambda: table.release(0, "select")),
        ("browsing times out again", lambda: table.advance(5)),
        ("the vote ends: its choices go", lambda: seat.show(vote_display(choices=()))),
        ("idle 5 minutes: the screen dims", lambda: table.advance(300)),
        ("join QR code", lambda: seat.show_qr(JOIN_URL)),
    ]
    bus = device.interface.mux_bus
    with table:
        for name, step in steps:
            before, selects = device.stats.copy(), bus.select_bytes
            step()
            rows.append((name, device.stats - before, bus.select_bytes - selects))
    return rows


def table_rows() -> list[str]:
    out = []
    for name, s, selects in measure():
        mux = s.wire_bytes + 2 * selects  # a select: the mux's address and one byte
        out.append(f"| {name} | {s.command_bytes} | {s.data_bytes} | {s.transfers} | "
                   f"{s.wire_bytes} | {s.bus_seconds() * 1000:.1f} ms | "
                   f"{s.bus_seconds(100_000) * 1000:.1f} ms | {mux} |")
    return out


def test_the_byte_table_is_measured():
    text = DOC.read_text()
    documented = [line for line in text.splitlines() if line.startswith("| ")
                  and line.count("|") == 9 and " ms |" in line]
    assert documented == table_rows(), "\n".join(["re-measured:"] + table_rows())


@pytest.mark.parametrize("name, expected", [
    ("the same display again", 0),
    ("one public line changes", 11),  # one digit: 5 columns of one page
])
def test_headline_figures(name, expected):
    stats = {row[0]: row[1] for row in measure()}[name]
    assert stats.command_bytes + stats.data_bytes == expected
