"""The seat colours stay apart for players with colour blindness, and every seat has its
own marker (web/static/common.js)."""
from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path

COMMON = Path(__file__).resolve().parents[2] / "web" / "static" / "common.js"
#: Machado, Oliveira & Fernandes (2009), severity 1: how each eye sees linear RGB.
VISION = {
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
#: The smallest CIELAB difference allowed between two seats, as each eye sees them
#: (about 2 is just noticeable; the old palette's seats 2 and 5 were 2.0 apart).
APART = 12.0


def constant(name: str) -> list[str]:
    text = COMMON.read_text()
    found = re.search(rf"const {name} = (\[.*?\]);", text, re.S)
    return json.loads(found.group(1))


def linear(hex_colour: str) -> list[float]:
    out = []
    for i in (1, 3, 5):
        c = int(hex_colour[i:i + 2], 16) / 255
        out.append(c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4)
    return out


def lab(rgb: list[float]) -> tuple[float, float, float]:
    r, g, b = (min(1.0, max(0.0, v)) for v in rgb)
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883
    f = [t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116 for t in (x, y, z)]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def seen(matrix, hex_colour: str) -> tuple[float, float, float]:
    rgb = linear(hex_colour)
    return lab([sum(row[j] * rgb[j] for j in range(3)) for row in matrix])


def test_every_two_seats_differ_for_every_common_colour_blindness():
    colours = constant("COLORS")
    assert len(colours) == 8
    for vision, matrix in VISION.items():
        for a, b in itertools.combinations(range(len(colours)), 2):
            apart = math.dist(seen(matrix, colours[a]), seen(matrix, colours[b]))
            assert apart >= APART, f"{vision}: seats {a + 1} and {b + 1} are {apart:.1f} apart"


def test_every_seat_has_its_own_marker():
    markers = constant("MARKERS")
    assert len(markers) == len(set(markers)) == len(constant("COLORS"))
