"""The pod's debounce under real MicroPython: spikes from 10 us to 5 ms are never a press,
and each real press, bouncing or clean, is exactly one press.

Every timeline runs on the firmware's ``Keys`` under MicroPython (WebAssembly) and under
CPython, and the timelines whose handlers run at each edge also on the Pi's wired
``SeatButtons`` (gpiozero's MockFactory, a manual clock): the pod and the Pi must give
the same events, because they follow one rule. Times are in microseconds here, so a
spike can be shorter than the pod's millisecond clock.
"""
from __future__ import annotations

from typing import Any

import pytest
from gpiozero.pins.mock import MockFactory

from companion.seats import ManualClock, SeatButtons

from . import checks

PRESS, HOLD, RELEASE = 0, 1, 2
KIND = {PRESS: "press", HOLD: "hold", RELEASE: "release"}
BOUNCE_MS, HOLD_MS = 30, 600
MS = 1000  # us
WIDTHS_US = [10, 30, 100, 300, 1000, 2000, 3500, 5000]
PHASES_US = [0, 995]  # at a millisecond's start, and across a millisecond boundary
#: How a spike's two edges reach the pod: each handler at its edge; both handlers only
#: after the spike (they read the level it ended at); or the first at its edge and the
#: second lost (the scheduler's queue was full).
WAYS = ("at-edge", "late", "lost")


def spike(at: int, width: int, button: int, away: str, back: str, way: str) -> list:
    """A spike on ``button`` from ``at`` us, ``width`` us long, its edges as ``way`` says."""
    if way == "at-edge":
        return [[at, button, away], [at + width, button, back]]
    if way == "late":
        return [[at, button, away + "-quiet"], [at + width, button, back + "-quiet"],
                [at + width + 200, button, "irq"], [at + width + 201, button, "irq"]]
    return [[at, button, away], [at + width, button, back + "-quiet"]]


def bouncing(at: int, button: int, level: str, quiet: bool = False) -> list:
    """Contacts chattering for 3 ms before settling at ``level``."""
    other = "high" if level == "low" else "low"
    steps = []
    for n, gap in enumerate((0, 170, 420, 700, 1300, 1800, 2400, 2900, 3000)):
        step = level if n % 2 == 0 else other
        steps.append([at + gap, button, step + ("-quiet" if quiet and n % 3 else "")])
    # the quiet chatter's handlers run in a burst at the end, reading the settled level
    if quiet:
        steps.append([at + 3200, button, "irq"])
    return steps


def timeline(steps: list, start=(1, 1, 1), until_ms: int = 1500, poll_ms: int = 1,
             expect: list | None = None, name: str = "") -> dict[str, Any]:
    return {"name": name, "start": list(start), "steps": steps, "until_ms": until_ms,
            "poll_ms": poll_ms, "expect": expect or []}


def spikes() -> list[dict[str, Any]]:
    """Every width, phase and way: on a released select (a dip to ground) and on a held
    one (a lift to the pull-up). Neither changes anything."""
    out = []
    for width in WIDTHS_US:
        for phase in PHASES_US:
            for way in WAYS:
                at = 100 * MS + phase
                out.append(timeline(spike(at, width, 1, "low", "high", way),
                                    name=f"dip {width}us +{phase} {way}"))
                out.append(timeline(spike(at, width, 1, "high", "low", way), start=(1, 0, 1),
                                    name=f"lift {width}us +{phase} {way}"))
    # a train of spikes, 5 ms down and 5 ms up for 200 ms: never 30 ms at one level
    train = []
    for n in range(20):
        train += spike(100 * MS + n * 10 * MS, 5 * MS, 0, "low", "high", "at-edge")
    out.append(timeline(train, name="a 5 ms spike train"))
    return out


def presses() -> list[dict[str, Any]]:
    """Real presses, clean and bouncing, with spikes around them: one press each."""
    tap = [[100 * MS, 1, "low"], [250 * MS, 1, "high"]]
    bounced = bouncing(100 * MS, 1, "low") + bouncing(250 * MS, 1, "high")
    quiet = bouncing(100 * MS, 1, "low", True) + bouncing(250 * MS, 1, "high", True)
    held = bouncing(100 * MS, 1, "low") + bouncing(1100 * MS, 1, "high")
    for n, width in enumerate(WIDTHS_US):  # lifts while held, dips after the release
        held += spike(150 * MS + n * 100 * MS, width, 1, "high", "low", WAYS[n % 3])
        held += spike(1200 * MS + n * 30 * MS, width, 1, "low", "high", WAYS[n % 3])
    held += spike(702 * MS + 500, 2 * MS, 1, "high", "low", "at-edge")  # across the hold
    crossed = (bouncing(100 * MS, 0, "low") + bouncing(300 * MS, 0, "high")
               + spike(150 * MS, 5 * MS, 2, "low", "high", "at-edge")
               + spike(320 * MS, 1 * MS, 2, "low", "high", "lost"))
    one = [[1, PRESS], [1, RELEASE]]
    return [
        timeline(tap, expect=one, name="a clean tap"),
        timeline(bounced, expect=one, name="a bouncing tap"),
        timeline(quiet, expect=one, name="a bouncing tap, handlers late and lost"),
        timeline(bounced, poll_ms=7, expect=one, name="a bouncing tap, a slow loop"),
        timeline(bounced, poll_ms=50, expect=one, name="a bouncing tap, a stalled loop"),
        timeline(held, expect=[[1, PRESS], [1, HOLD], [1, RELEASE]],
                 name="a bouncing hold with spikes through it and after it"),
        timeline(crossed, expect=[[0, PRESS], [0, RELEASE]],
                 name="spikes on next while previous is pressed"),
    ]


TIMELINES = spikes() + presses()
HELD = next(t for t in TIMELINES if t["name"].startswith("a bouncing hold"))
SPEC = {"glitches": {"hold_ms": HOLD_MS, "bounce_ms": BOUNCE_MS, "timelines": TIMELINES}}


@pytest.fixture(scope="module")
def on_micropython(micropython) -> list:
    result = micropython(SPEC)
    assert result["implementation"] == "micropython"
    return result["glitches"]


@pytest.fixture(scope="module")
def on_cpython() -> list:
    return checks.main(SPEC)["glitches"]


def kinds(events: list) -> list:
    return [[button, kind] for _, button, kind in events]


@pytest.mark.parametrize("index", range(len(TIMELINES)),
                         ids=[t["name"] for t in TIMELINES])
def test_each_timeline_gives_its_events_under_micropython(index, on_micropython,
                                                          on_cpython):
    expected = TIMELINES[index]["expect"]
    assert kinds(on_micropython[index]) == expected
    assert on_micropython[index] == on_cpython[index]


def test_a_bouncing_press_is_told_when_it_settled(on_cpython):
    """A press counts from the chatter's last edge (103 ms) and is told 30 ms on; its
    hold is due 600 ms after that edge, but a lift at 702.5 ms keeps it in doubt until
    the lift ends (704.5 ms): it was a spike, so the hold comes then."""
    events = on_cpython[TIMELINES.index(HELD)]
    assert events == [[133, 1, PRESS], [705, 1, HOLD], [1133, 1, RELEASE]]


# -- the same timelines on the Pi's wired buttons -----------------------------------------
PI_PINS = (5, 6, 13)


def on_the_pi(line: dict[str, Any]) -> list:
    """The timeline's (button, kind) events from the Pi's ``SeatButtons``.

    gpiozero's pull-up lifts every pin when the buttons open, so a button down at the
    start is pressed in the first 50 ms and those events are left out; its hold is put
    beyond the timeline (a pod's button down at power-up has no hold either)."""
    factory, clock = MockFactory(), ManualClock()
    hold = HOLD_MS / 1000 if all(line["start"]) else line["until_ms"] / 1000 + 1
    try:
        events: list[list[int]] = []
        buttons = SeatButtons(*PI_PINS, pin_factory=factory, clock=clock,
                              bounce_ms=BOUNCE_MS, hold_time=hold)
        for number, level in zip(PI_PINS, line["start"], strict=True):
            if level == 0:
                factory.pin(number).drive_low()
        clock.advance(0.05)
        for index, button in enumerate(buttons):
            for kind, attr in ((PRESS, "when_pressed"), (HOLD, "when_held"),
                               (RELEASE, "when_released")):
                setattr(button, attr, lambda i=index, k=kind: events.append([i, k]))
        events.clear()
        at = 50 * MS
        for when, index, step in sorted(line["steps"]):
            clock.advance((when - at) / 1e6)
            at = when
            pin = factory.pin(PI_PINS[index])
            if step == "low":
                pin.drive_low()
            else:
                pin.drive_high()
        clock.advance(line["until_ms"] / 1000 - at / 1e6)
        buttons.close()
        return events
    finally:
        factory.reset()


AT_EDGE = [t for t in TIMELINES
           if all(step in ("low", "high") for _, _, step in t["steps"])]


@pytest.mark.parametrize("line", AT_EDGE, ids=[t["name"] for t in AT_EDGE])
def test_the_pi_gives_the_same_events(line, on_cpython):
    index = TIMELINES.index(line)
    assert on_the_pi(line) == kinds(on_cpython[index]) == line["expect"]
