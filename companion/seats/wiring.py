"""A wiring diagram drawn from a table config, as SVG: the picture always matches the
file the companion reads.

The Pi's 40-pin header is on the left, every GPIO that the config uses labelled with
its seat (in the seat's colour) and role; the I2C side (bus pins, TCA9548A
multiplexers, separate buses) in the middle; one card per seat on the right listing
what goes where.
"""
from __future__ import annotations

from html import escape
from pathlib import Path

from .config import I2C_PINS, SeatConfig, TableConfig

#: The 40-pin header: physical pin -> BCM GPIO number, or the power/ground it carries.
HEADER: dict[int, int | str] = {
    1: "3V3", 2: "5V", 3: 2, 4: "5V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15,
    11: 17, 12: 18, 13: 27, 14: "GND", 15: 22, 16: 23, 17: "3V3", 18: 24, 19: 10,
    20: "GND", 21: 9, 22: 25, 23: 11, 24: 8, 25: "GND", 26: 7, 27: "ID_SD", 28: "ID_SC",
    29: 5, 30: "GND", 31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16, 37: 26, 38: 20,
    39: "GND", 40: 21,
}
#: The HAT ID pins, GPIO0 and GPIO1: I2C bus 0 on a table without a HAT.
ID_PINS = {"ID_SD": 0, "ID_SC": 1}
PHYSICAL = {gpio: pin for pin, gpio in HEADER.items() if isinstance(gpio, int)}
PHYSICAL.update({0: 27, 1: 28})
#: Where a multiplexer on a header I2C bus connects: bus -> (3V3 pin, SDA pin, SCL pin).
BUS_PINS = {1: (1, 3, 5), 0: (17, 27, 28)}
COLOURS = ("#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
           "#e377c2")
ROW = 22          # header row pitch
TOP = 90          # header's first row
CARD_W, CARD_H = 250, 118


def pin_roles(config: TableConfig) -> dict[int, tuple[int, str]]:
    """BCM pin -> (seat number, what it does) for every pin the config uses."""
    roles: dict[int, tuple[int, str]] = {}
    for seat in config.seats:
        if seat.buttons:
            for role in ("previous", "select", "next"):
                roles[getattr(seat.buttons, role)] = (seat.number, role)
        if seat.led is not None:
            roles[seat.led] = (seat.number, "LED")
    return roles


def wiring_svg(config: TableConfig) -> str:
    """The whole diagram as an SVG document."""
    width = 470 + 2 * (CARD_W + 20)
    cards_rows = -(-len(config.seats) // 2)
    buses = {(s.screen.bus, s.screen.mux) for s in config.seats if s.screen}
    lines = 4 * len(buses) + sum(1 for bus, mux in buses if bus == 0 and mux is not None) + 3
    height = max(TOP + 20 * ROW + 60 + 18 * lines, 110 + cards_rows * (CARD_H + 16) + 40)
    parts = [_head(width, height, config)]
    parts += _header(config)
    parts += _i2c(config)
    for index, seat in enumerate(config.seats):
        parts += _card(seat, 470 + (index % 2) * (CARD_W + 20), 80 + (index // 2) * (CARD_H + 16))
    parts.append("</svg>\n")
    return "\n".join(parts)


def _head(width: int, height: int, config: TableConfig) -> str:
    title = escape(config.name or "Mutiny Table")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, sans-serif" '
            f'font-size="12">\n<rect width="100%" height="100%" fill="#fbf8f1"/>\n'
            f'<text x="20" y="32" font-size="20" font-weight="bold">{title}: wiring</text>\n'
            f'<text x="20" y="54" fill="#555">Drawn from {escape(Path(config.source).name)} by '
            f'`mutiny wiring`. Buttons: GPIO to button to GND (internal pull-ups). '
            f'LED: GPIO to 330 ohm to LED to GND.</text>')


def _header(config: TableConfig) -> list[str]:
    roles = pin_roles(config)
    buses = {s.screen.bus for s in config.seats if s.screen}
    # Any bus but 0 is taken to hang off bus 1's pins (the kernel's i2c-mux buses do).
    i2c_used = {1} if buses - {0} else set()
    i2c_used |= buses & {0}
    out = [f'<rect x="204" y="{TOP - 16}" width="64" height="{20 * ROW + 10}" rx="6" '
           f'fill="#1d5e34"/>',
           f'<text x="236" y="{TOP - 24}" text-anchor="middle" font-weight="bold">'
           f'Pi header</text>']
    for pin, what in HEADER.items():
        row, left = (pin - 1) // 2, pin % 2 == 1
        x, y = (222 if left else 250), TOP + row * ROW
        colour, label = _pin_label(what, roles, i2c_used)
        out.append(f'<circle cx="{x}" cy="{y}" r="7" fill="{colour}" stroke="#000" '
                   f'stroke-width="0.6"/><text x="{x}" y="{y + 3}" font-size="7" '
                   f'text-anchor="middle" fill="#fff">{pin}</text>')
        anchor, tx = ("end", 198) if left else ("start", 274)
        out.append(f'<text x="{tx}" y="{y + 4}" text-anchor="{anchor}" fill="{colour}">'
                   f'{escape(label)}</text>')
    return out


def _pin_label(what: int | str, roles: dict[int, tuple[int, str]],
               i2c_used: set[int]) -> tuple[str, str]:
    if what in ID_PINS and (0 in i2c_used or ID_PINS[str(what)] in roles):
        what = ID_PINS[str(what)]  # no HAT: the ID pins are GPIOs like the others
    if isinstance(what, str):
        return ("#b00" if what in ("5V", "3V3") else "#333"), what
    if what in roles:
        seat, role = roles[what]
        return COLOURS[(seat - 1) % len(COLOURS)], f"GPIO{what} seat {seat} {role}"
    for bus in i2c_used:
        if what in I2C_PINS[bus]:
            return "#0057b8", f"GPIO{what} I2C{bus} {I2C_PINS[bus][what]}"
    return "#aaa", f"GPIO{what}"


def _i2c(config: TableConfig) -> list[str]:
    """The multiplexers (and separate buses) between the header and the seats."""
    # In seat order: the first seats' multiplexer comes first.
    muxes = list(dict.fromkeys((s.screen.bus, s.screen.mux) for s in config.seats
                               if s.screen and s.screen.mux is not None))
    direct = sorted({s.screen.bus for s in config.seats if s.screen and s.screen.mux is None})
    out, y = [], TOP + 20 * ROW + 30
    out.append(f'<text x="20" y="{y}" font-weight="bold">I2C (400 kHz)</text>')
    for bus, mux in muxes:
        channels = sorted(s.screen.channel for s in config.seats
                          if s.screen and (s.screen.bus, s.screen.mux) == (bus, mux)
                          and s.screen.channel is not None)  # a mux's screens have one
        if bus in BUS_PINS:
            power, sda, scl = BUS_PINS[bus]
            pins: tuple[str, ...] = (f"  VIN to 3V3 (pin {power}), GND to GND,",
                                     f"  SDA to pin {sda}, SCL to pin {scl};")
            if bus == 0:  # unlike bus 1's pins, GPIO0/1 have no pull-ups on the Pi
                pins += ("  3.9 kohm from SDA and from SCL to 3V3;",)
        else:
            pins = ("  VIN to 3V3 (pin 1), GND to GND,",
                    f"  SDA, SCL to bus {bus}'s pins (its overlay);")
        for line in (f"TCA9548A at 0x{mux:02X} on bus {bus}:", *pins,
                     f"  screens on channels {', '.join(map(str, channels))}"):
            y += 18
            out.append(f'<text x="20" y="{y}">{escape(line)}</text>')
    for bus in direct:
        y += 18
        out.append(f'<text x="20" y="{y}">Bus i2c-{bus}: a bus of its own (an i2c-mux '
                   f'or i2c-gpio overlay: see the config)</text>')
    # More grounds than the header's 8 GND pins for a big table: one block for all.
    for line in ("Grounds: every seat's screen and buttons, and", "each mux, to a ground "
                 "distribution block fed", "from two GND pins (e.g. 9 and 25)."):
        y += 18
        out.append(f'<text x="20" y="{y}">{escape(line)}</text>')
    return out


def _card(seat: SeatConfig, x: int, y: int) -> list[str]:
    colour = COLOURS[(seat.number - 1) % len(COLOURS)]
    name = escape(seat.name or f"Seat {seat.number}")
    out = [f'<rect x="{x}" y="{y}" width="{CARD_W}" height="{CARD_H}" rx="8" fill="#fff" '
           f'stroke="{colour}" stroke-width="2"/>',
           f'<rect x="{x}" y="{y}" width="{CARD_W}" height="24" rx="8" fill="{colour}"/>',
           f'<text x="{x + 10}" y="{y + 17}" fill="#fff" font-weight="bold">{name}</text>']
    lines = _card_lines(seat)
    for i, line in enumerate(lines):
        out.append(f'<text x="{x + 10}" y="{y + 42 + i * 17}">{escape(line)}</text>')
    return out


def _card_lines(seat: SeatConfig) -> list[str]:
    if seat.pod:
        return [f"Seat pod (Pico) {seat.pod}", "on USB: buttons, screen and LED",
                "are wired inside the pod"]
    lines = []
    if seat.buttons:
        for role, mark in (("previous", "<"), ("select", "o"), ("next", ">")):
            gpio = getattr(seat.buttons, role)
            lines.append(f"{mark} {role:8} GPIO{gpio} (pin {PHYSICAL.get(gpio, '?')})")
    if seat.led is not None:
        lines.append(f"LED GPIO{seat.led} (pin {PHYSICAL.get(seat.led, '?')})"
                     + (" PWM" if seat.led_pwm else ""))
    if seat.screen:
        where = f"i2c-{seat.screen.bus}"
        if seat.screen.mux is not None:
            where += f", mux 0x{seat.screen.mux:02X} ch {seat.screen.channel}"
        lines.append(f"OLED 0x{seat.screen.address:02X}: {where}")
    return lines
