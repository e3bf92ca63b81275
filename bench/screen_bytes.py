"""screen bytes: what the page-diffing driver hands to the SSD1306 interface.

A scripted 8-player moon-yeti match (seeded random choices) is played through the table
runtime; after every action each seat's interface counters are read. Reported: bytes
per seat update (only updates that sent something), the share of a full frame, and the
I2C bus time all eight seats need after a vote's reveal: every write the panels got (its
payload, address byte and control byte) and every channel select the multiplexer got.
"""
from __future__ import annotations

import random

from companion.engine import Journal
from companion.seats import ManualClock, MuxBus, open_seats, sim_table_config
from companion.table import Table

SEATS = 8
FULL_FRAME = 6 + 1024           # luma's stock driver: 6 command + 1,024 data bytes
BUS_HZ = 400_000
BITS_PER_BYTE = 9               # 8 data bits and an ACK
WRITE_OVERHEAD = 2              # the address byte and the control byte of each write
MUX_SELECT = 2                  # the TCA9548A's address and channel byte, per select


def bus_ms(wire_bytes: int) -> float:
    return wire_bytes * BITS_PER_BYTE / BUS_HZ * 1000


def run(seed: int = 3, matches: int = 3) -> dict[str, object]:
    rng = random.Random(seed)
    updates: list[int] = []
    reveals: list[float] = []
    with open_seats(sim_table_config(SEATS), "sim", clock=ManualClock()) as hw:
        muxes = _mux_buses(hw)
        table = Table(Journal(":memory:"), list(hw))
        for seat in range(SEATS):
            table.claim(seat)
        for n in range(matches):
            table.match = None
            table.start("moon-yeti", SEATS, seed=f"bytes-{n}")
            while not table.match.is_over:
                before = [_counts(panel) for panel in hw.panels]
                selects = sum(mux.select_bytes for mux in muxes)
                seat = rng.choice([s for s in table.match.acting() if isinstance(s, int)])
                step = table.match.step()
                table.submit(seat, rng.choice(table.match.legal_actions(seat)))
                sent = [_delta(before[i], _counts(p)) for i, p in enumerate(hw.panels)]
                updates += [data + command for data, command, _ in sent if data]
                if step.startswith("vote") and table.match.step() != step:
                    # Every write the panels got, plus every channel select the
                    # multiplexer got (the driver selects once a frame, not per write).
                    selects = sum(mux.select_bytes for mux in muxes) - selects
                    wire = sum(d + c + t * WRITE_OVERHEAD for d, c, t in sent)
                    reveals.append(bus_ms(wire + selects * MUX_SELECT))
        table.close()
    updates.sort()
    typical = updates[len(updates) // 2]
    return {"updates": updates, "typical_bytes": typical,
            "typical_share": typical / FULL_FRAME, "full_frame_bytes": FULL_FRAME,
            "full_frame_bus_ms": bus_ms(FULL_FRAME + WRITE_OVERHEAD * 2),
            "reveal_all_seats_bus_ms": reveals}


def _mux_buses(hw) -> list[MuxBus]:
    """The multiplexed buses the seats' screens sit on (one on the simulated table)."""
    found = {id(bus): bus for bus in (getattr(seat.device.interface, "mux_bus", None)
                                      for seat in hw) if bus is not None}
    return list(found.values())


def _counts(panel) -> tuple[int, int, int]:
    return panel.data_bytes, panel.command_bytes, panel.transfers


def _delta(before, after) -> tuple[int, int, int]:
    return tuple(a - b for a, b in zip(after, before))
