"""A pod's buttons as ``Seat`` sees them."""
from __future__ import annotations

from companion.seats.pods import PodButton


def test_a_pod_button_ignores_events_that_make_no_sense():
    button = PodButton("select")
    seen: list[str] = []
    button.when_pressed = lambda: seen.append("press")
    button.when_held = lambda b: seen.append(f"hold {b.name}")  # gpiozero style, too
    button.when_released = lambda: seen.append(f"release held={button.was_held}")
    for kind in ("hold", "release", "press", "press", "hold", "hold", "release", "release"):
        button.feed(kind)
    assert seen == ["press", "hold select", "release held=True"]
    assert button.wait_for_release(timeout=0)
    button.close()
    button.feed("press")
    assert not button.is_pressed
