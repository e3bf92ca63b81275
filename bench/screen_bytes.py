"""screen bytes: what the page-diffing driver hands to the SSD1306 interface.

A scripted 8-player moon-yeti match (seeded random choices) is played through the table
runtime on the simulated hardware/table-8.toml (seats 1-4 on I2C bus 1, seats 5-8 on
bus 0, a TCA9548A on each); after every action each seat's interface counters are read.
Reported: bytes per seat update (only updates that sent something), the share of a full
frame, and the I2C bus time all eight seats need after a vote's reveal: every write the
panels got (its payload, address byte and control byte) and every channel select the
multiplexers got. That time is given twice: summed over both buses (what one bus would
carry), and for the busiest bus alone, which is when every screen is updated: the
table draws each bus on a thread of its own, so the two buses work at the same time.
"""
from __future__ import annotations

import random
from pathlib import Path

from companion.engine import Journal
from companion.seats import ManualClock, MuxBus, load_table_config, open_seats
from companion.table import Table

TABLE = Path(__file__).resolve().parents[1] / "hardware" / "table-8.toml"
FULL_FRAME = 6 + 1024           # luma's stock driver: 6 command + 1,024 data bytes
BUS_HZ = 400_000
BITS_PER_BYTE = 9               # 8 data bits and an ACK
WRITE_OVERHEAD = 2              # the address byte and the control byte of each write
MUX_SELECT = 2                  # the TCA9548A's address and channel byte, per select


def bus_ms(wire_bytes: int) -> float:
    return wire_bytes * BITS_PER_BYTE / BUS_HZ * 1000


def run(seed: int = 3, matches: int = 3, table_config: Path = TABLE) -> dict[str, object]:
    """Play ``matches`` matches on every seat of ``table_config`` (the 8-seat table)."""
    rng = random.Random(seed)
    updates: list[int] = []
    reveals: list[float] = []
    parallel: list[float] = []
    config = load_table_config(table_config, "sim")
    with open_seats(config, "sim", clock=ManualClock()) as hw:
        buses = _buses(hw)
        table = Table(Journal(":memory:"), list(hw))
        for seat in range(len(hw)):
            table.claim(seat)
        for n in range(matches):
            table.match = None
            table.start("moon-yeti", len(hw), seed=f"bytes-{n}")
            while not table.match.is_over:
                before = [_counts(panel) for panel in hw.panels]
                selects = {bus: _selects(mux) for bus, (_, mux) in buses.items()}
                seat = rng.choice([s for s in table.match.acting() if isinstance(s, int)])
                step = table.match.step()
                table.submit(seat, rng.choice(table.match.legal_actions(seat)))
                sent = [_delta(before[i], _counts(p)) for i, p in enumerate(hw.panels)]
                updates += [data + command for data, command, _ in sent if data]
                if step.startswith("vote") and table.match.step() != step:
                    # Per bus: every write its panels got, plus every channel select its
                    # multiplexer got (the driver selects once a frame, not per write).
                    per_bus = []
                    for bus, (seats, mux) in buses.items():
                        wire = sum(d + c + t * WRITE_OVERHEAD
                                   for d, c, t in (sent[i] for i in seats))
                        wire += (_selects(mux) - selects[bus]) * MUX_SELECT
                        per_bus.append(bus_ms(wire))
                    reveals.append(sum(per_bus))
                    parallel.append(max(per_bus))
        table.close()
    updates.sort()
    typical = updates[len(updates) // 2]
    return {"updates": updates, "typical_bytes": typical,
            "typical_share": typical / FULL_FRAME, "full_frame_bytes": FULL_FRAME,
            "full_frame_bus_ms": bus_ms(FULL_FRAME + WRITE_OVERHEAD * 2),
            "reveal_all_seats_bus_ms": reveals, "reveal_parallel_bus_ms": parallel}


def _buses(hw) -> dict[int, tuple[list[int], MuxBus | None]]:
    """Each I2C bus of the table: its seats' indexes and its multiplexers (if any)."""
    found: dict[int, tuple[list[int], MuxBus | None]] = {}
    for index, seat in enumerate(hw):
        seats, _ = found.setdefault(seat.i2c_bus,
                                    ([], getattr(seat.device.interface, "mux_bus", None)))
        seats.append(index)
    return found


def _selects(mux: MuxBus | None) -> int:
    return 0 if mux is None else mux.select_bytes


def _counts(panel) -> tuple[int, int, int]:
    return panel.data_bytes, panel.command_bytes, panel.transfers


def _delta(before, after) -> tuple[int, int, int]:
    return tuple(a - b for a, b in zip(after, before, strict=True))
