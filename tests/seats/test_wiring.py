"""The wiring diagrams in hardware/ are drawn from the table configs beside them."""
from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from companion.cli import main
from companion.seats import load_table_config, sim_table_config
from companion.seats.wiring import PHYSICAL, pin_roles, wiring_svg

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"


@pytest.mark.parametrize("seats", [4, 6, 8])
def test_the_shipped_diagram_matches_its_config(seats):
    config = load_table_config(HARDWARE / f"table-{seats}.toml", backend="sim")
    shipped = (HARDWARE / f"wiring-{seats}.svg").read_text()
    assert shipped == wiring_svg(config), (
        f"regenerate: mutiny wiring hardware/table-{seats}.toml -o hardware/wiring-{seats}.svg")


def test_every_used_pin_is_labelled_with_its_seat_and_role():
    config = sim_table_config(6)
    svg = wiring_svg(config)
    ElementTree.fromstring(svg)  # well-formed
    for gpio, (seat, role) in pin_roles(config).items():
        assert f"GPIO{gpio} seat {seat} {role}" in svg
        assert f"(pin {PHYSICAL[gpio]})" in svg
    assert "TCA9548A at 0x70 on bus 1:" in svg


def test_the_eight_seat_diagram_shows_both_buses():
    svg = wiring_svg(load_table_config(HARDWARE / "table-8.toml", backend="sim"))
    for label in ("GPIO2 I2C1 SDA", "GPIO3 I2C1 SCL", "GPIO0 I2C0 SDA", "GPIO1 I2C0 SCL",
                  "TCA9548A at 0x70 on bus 1:", "SDA to pin 3, SCL to pin 5;",
                  "TCA9548A at 0x70 on bus 0:", "SDA to pin 27, SCL to pin 28;",
                  "3.9 kohm from SDA and from SCL to 3V3;",
                  "OLED 0x3C: i2c-0, mux 0x70 ch 3"):
        assert label in svg
    assert "ID_SD" not in svg and "ID_SC" not in svg  # those pins are bus 0 here
    assert "ID_SD" in wiring_svg(sim_table_config(6))  # and left alone without it


def test_the_four_seat_diagram_shows_its_tca9548a():
    svg = wiring_svg(load_table_config(HARDWARE / "table-4.toml", backend="sim"))
    for label in ("TCA9548A at 0x70 on bus 1:", "SDA to pin 3, SCL to pin 5;",
                  "screens on channels 0, 1, 2, 3", "OLED 0x3C: i2c-1, mux 0x70 ch 2",
                  "GPIO2 I2C1 SDA", "GPIO3 I2C1 SCL", "to a ground distribution block"):
        assert label in svg
    assert "a bus of its own" not in svg  # no kernel-numbered channel buses


def test_names_are_escaped():
    config = sim_table_config(2)
    config = type(config)(seats=config.seats, name="<script>x</script>", source="t")
    assert "<script>" not in wiring_svg(config)


def test_the_command_writes_the_file(tmp_path):
    out = tmp_path / "w.svg"
    assert main(["wiring", str(HARDWARE / "table-6.toml"), "-o", str(out)]) == 0
    assert out.read_text().startswith("<svg")
