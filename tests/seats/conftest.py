"""Fixtures for the seat tests: a manual clock, mock pins and a simulated table."""
from __future__ import annotations

import os
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from PIL import Image, ImageChops

from companion.engine.display import Choice, Display
from companion.seats import ManualClock, open_seats, sim_table_config

GOLDEN = Path(__file__).parent / "golden"
REGOLDEN = os.environ.get("MUTINY_REGOLDEN") == "1"


@pytest.fixture
def clock():
    return ManualClock()


@pytest.fixture
def factory():
    """gpiozero's own mock pins (PWM-capable, so PWMLEDs work too)."""
    pins = MockFactory(pin_class=MockPWMPin)
    yield pins
    pins.reset()


@pytest.fixture
def table(clock):
    """A simulated two-seat table on a manual clock."""
    with open_seats(sim_table_config(2), "sim", clock=clock) as sim:
        yield sim


def vote_display(**overrides) -> Display:
    """A mutiny vote: three choices, the middle one secret."""
    fields = dict(
        title="Mutiny at Dawn",
        lines=("Round 3 - night", "Captain: seat 2", "Rum: 4 barrels"),
        choices=(Choice("Mutiny!", {"type": "vote", "side": "mutiny"}),
                 Choice("Defend the Captain", {"type": "vote", "side": "defend"}, secret=True),
                 Choice("Abstain", {"type": "vote", "side": "abstain"})),
        private=("Role: First Mate", "Crew dice: 3 5 6"),
        led="on",
    )
    fields.update(overrides)
    return Display(**fields)


def assert_golden(image: Image.Image, name: str) -> None:
    """Compare ``image`` pixel for pixel with tests/seats/golden/<name>.png.

    ``MUTINY_REGOLDEN=1`` rewrites the file instead (then look at it before committing).
    """
    path = GOLDEN / f"{name}.png"
    if REGOLDEN:
        GOLDEN.mkdir(exist_ok=True)
        image.convert("1").save(path)
        return
    assert path.exists(), f"{path} is missing: run with MUTINY_REGOLDEN=1 to create it"
    golden = Image.open(path).convert("1")
    assert golden.size == image.size, f"{name}: size {image.size} != golden {golden.size}"
    if golden.tobytes() != image.convert("1").tobytes():
        box = ImageChops.difference(golden, image.convert("1")).getbbox()
        pytest.fail(f"{name}: pixels in {box} differ from {path} "
                    "(MUTINY_REGOLDEN=1 regenerates it if the change is wanted)")
