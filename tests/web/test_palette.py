"""The seat colours stay apart for players with colour blindness and show on every tile,
and every seat has its own marker (web/static/common.js).

A colour as a colour-blind eye sees it: sRGB to linear RGB, the Machado, Oliveira &
Fernandes (2009) matrix of the deficiency at severity 1.0, back within the gamut; then
CIELAB (D65) and the CIEDE2000 difference (Sharma, Wu & Dalal 2005, whose test pairs
check the formula below). The figures are printed: ``pytest -s`` shows them.
"""
from __future__ import annotations

import itertools
import json
import math
import re
from pathlib import Path

import pytest

COMMON = Path(__file__).resolve().parents[2] / "web" / "static" / "common.js"
#: Machado, Oliveira & Fernandes (2009), severity 1.0: how each eye sees linear RGB.
VISION = {
    "normal": ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216),
                   (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602),
                   (0.004733, 0.691367, 0.303900)),
}
#: The smallest CIEDE2000 difference allowed between two seats, as each eye sees them
#: (about 1 is just noticeable; 20 is two colours named differently at a glance). The
#: Okabe-Ito palette used before had seats 1, 3 and 6 at 11.6 for deuteranopia.
APART = 20.0
#: What a seat's colour is drawn on (its marker, a line, a tile's edge): the page, the
#: phone's panels, the table display's seat tiles (top and bottom of their gradient).
GROUNDS = {"page": "#14161B", "tile bottom": "#1D2027", "tile top": "#2B2F38"}
#: WCAG 2.1, 1.4.11: a mark needed to tell seats apart stands 3:1 from what is around it.
CONTRAST = 3.0


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


def luminance(hex_colour: str) -> float:
    r, g, b = linear(hex_colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


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


def ciede2000(lab1, lab2) -> float:
    """CIEDE2000 colour difference (kL = kC = kH = 1)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_mean = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_mean ** 7 / (c_mean ** 7 + 25 ** 7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360 if c1p else 0.0
    h2p = math.degrees(math.atan2(b2, a2p)) % 360 if c2p else 0.0
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    else:
        dh = h2p - h1p
        dh = dh - 360 if dh > 180 else dh + 360 if dh < -180 else dh
    dh_big = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_mean, cp_mean = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_mean = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_mean = (h1p + h2p) / 2
    else:
        h_mean = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_mean - 30)) + 0.24 * math.cos(math.radians(2 * h_mean))
         + 0.32 * math.cos(math.radians(3 * h_mean + 6))
         - 0.20 * math.cos(math.radians(4 * h_mean - 63)))
    d_theta = 30 * math.exp(-(((h_mean - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_mean ** 7 / (cp_mean ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (l_mean - 50) ** 2 / math.sqrt(20 + (l_mean - 50) ** 2)
    s_c = 1 + 0.045 * cp_mean
    s_h = 1 + 0.015 * cp_mean * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (dh_big / s_h) ** 2
                     + r_t * (dc / s_c) * (dh_big / s_h))


@pytest.mark.parametrize("lab1, lab2, expected", [
    # Sharma, Wu & Dalal (2005), table 1: pairs 1, 7, 13, 17, 25 and 34.
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 0.0, 0.0), (50.0, -1.0, 2.0), 2.3669),
    ((50.0, 2.4900, -0.0010), (50.0, -2.4900, 0.0011), 7.2195),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((22.7233, 20.0904, -46.6940), (23.0331, 14.9730, -42.5619), 2.0373),
])
def test_ciede2000_gives_the_published_differences(lab1, lab2, expected):
    assert ciede2000(lab1, lab2) == pytest.approx(expected, abs=1e-4)


def smallest_differences(colours: list[str]) -> dict[str, tuple[float, int, int]]:
    """For each eye, the smallest difference between two seats and which seats."""
    out = {}
    for vision, matrix in VISION.items():
        labs = [seen(matrix, colour) for colour in colours]
        out[vision] = min((ciede2000(labs[a], labs[b]), a + 1, b + 1)
                          for a, b in itertools.combinations(range(len(colours)), 2))
    return out


def test_every_two_seats_differ_by_20_for_every_common_colour_blindness():
    colours = constant("COLORS")
    assert len(colours) == 8
    found = smallest_differences(colours)
    print("\nsmallest CIEDE2000 between two seats:", ", ".join(
        f"{vision} {d:.1f} (seats {a} and {b})" for vision, (d, a, b) in found.items()))
    for vision, (difference, a, b) in found.items():
        assert difference >= APART, f"{vision}: seats {a} and {b} are {difference:.1f} apart"


def test_the_old_palette_fails_the_same_measure():
    # The measure can fail: Okabe-Ito's seats 1, 3 and 6 are yellows for a red-blind eye.
    okabe_ito = ["#E69F00", "#56B4E9", "#D55E00", "#009E73", "#CC79A7", "#F0E442",
                 "#0072B2", "#F7F7F7"]
    found = smallest_differences(okabe_ito)
    assert found["deuteranopia"][0] < APART and found["protanopia"][0] < APART


def test_every_seat_colour_stands_out_on_every_tile():
    for seat, colour in enumerate(constant("COLORS"), 1):
        for ground, behind in GROUNDS.items():
            ratio = contrast(colour, behind)
            assert ratio >= CONTRAST, f"seat {seat} ({colour}) on the {ground}: {ratio:.2f}:1"


def test_every_seat_has_its_own_marker():
    markers = constant("MARKERS")
    assert len(markers) == len(set(markers)) == len(constant("COLORS"))
