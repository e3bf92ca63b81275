"""The doctor's tests share gpiozero's MockFactory, reset after each test."""
from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin


@pytest.fixture
def factory():
    pins = MockFactory(pin_class=MockPWMPin)
    yield pins
    pins.reset()
