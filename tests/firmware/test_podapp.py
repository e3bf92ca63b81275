"""The pod's own rules (firmware/podapp.py, podconfig.py), on CPython, one at a time.

test_firmware.py runs the same code under MicroPython; here each rule gets a small,
exact test, with the table played by hand-made frames.
"""
from __future__ import annotations

import json

import pytest

from companion.seats import podlink

from .fakepod import UID, FakePod, ListPort

SESSION = 0x5EED


@pytest.fixture
def pod():
    return FakePod(ListPort(), session=SESSION, seat=5)


def sent(pod: FakePod) -> list[dict]:
    """What the pod wrote since last asked, as messages."""
    out = []
    for raw in podlink.Deframer().feed(pod.pod.port.take()):
        kind, seq, _, payload = podlink.decode(raw)
        out.append(dict(podlink.describe(kind, payload), seq=seq))
    return out


def welcome(pod: FakePod, now: int = 0, session: int = SESSION, ack: int = 0xFFFF) -> None:
    pod.pod.port.inbox += podlink.encode(podlink.WELCOME, 0, ack,
                                         podlink.pack_welcome(session, 100))
    pod.step(now)


def test_a_new_pod_waits_and_says_hello_twice_a_second(pod):
    assert pod.screen.lines == ("Mutiny Table", "", "Seat 5", "waiting for", "the table...",
                                "", UID.hex(), "fw " + podlink.FIRMWARE_VERSION)
    pod.step(0)
    pod.step(podlink.HELLO_MS - 1)
    pod.step(podlink.HELLO_MS)
    hellos = sent(pod)
    assert [m["type"] for m in hellos] == ["HELLO", "HELLO"]
    assert (hellos[0]["session"], hellos[0]["first"], hellos[0]["seat"]) == (SESSION, 0, 5)


def test_a_welcome_for_another_session_is_ignored(pod):
    welcome(pod, session=SESSION + 1)
    assert not pod.linked and pod.pod.link.stats["malformed"] == 1
    welcome(pod, 10)
    assert pod.linked and pod.pod.link.rx_expected == 100


def test_presses_wait_for_the_welcome_then_go_out_in_order(pod):
    pod.drive("next", True, 0)
    pod.step(0)
    pod.drive("next", False, 100)
    pod.step(100)
    assert [m["type"] for m in sent(pod)] == ["HELLO"]
    welcome(pod, 200)
    pod.step(210)
    events = [(m["button"], m["kind"], m["seq"]) for m in sent(pod) if m["type"] == "BUTTON"]
    assert events == [("next", "press", 0), ("next", "release", 1)]


def test_a_welcome_ack_drops_what_the_table_already_has(pod):
    pod.drive("select", True, 0)
    pod.drive("select", False, 50)
    pod.step(50)
    welcome(pod, 60, ack=0)  # the table took seq 0 (the press) on an earlier link
    pod.step(80)  # the release, stable for 30 ms since 50
    events = [(m["kind"], m["seq"]) for m in sent(pod) if m["type"] == "BUTTON"]
    assert events == [("release", 1)]


def test_a_full_queue_drops_whole_presses_never_half_of_one(pod):
    limit = pod.pod.link.limit
    for n in range(limit):  # taps: press and release, two slots each
        pod.drive("next", True, n * 100)
        pod.drive("next", False, n * 100 + 50)
        pod.step(n * 100 + 60)
    pod.step(limit * 100)  # the last release, stable since 30 ms after it
    kinds = [payload[1] for _, _, payload in pod.pod.link.queue]
    # A press needs room for itself, its hold and its release: 31 taps fit in 64 slots
    # (62 events), the other 33 are dropped whole, press and release alike.
    assert kinds == [0, 2] * 31
    assert pod.pod.link.stats["lost"] == 2 * (limit - 31)


def test_ask_brings_a_hello_at_once_without_the_waiting_screen(pod):
    welcome(pod)
    pod.pod.port.inbox += podlink.encode(podlink.PAGE, 100, 0xFFFF,
                                         podlink.pack_page(0, b"\xff" * 128))
    pod.step(10)
    pod.pod.port.take()
    pod.pod.port.inbox += podlink.encode(podlink.ASK, 0, 0)
    pod.step(20)
    assert [m["type"] for m in sent(pod)] == ["HELLO"]
    assert pod.screen.lines is None and not pod.linked  # the table's page stays


def test_bye_and_silence_both_mean_waiting_for_the_table(pod):
    welcome(pod)
    pod.pod.port.inbox += podlink.encode(podlink.BYE, 0, 0)
    pod.step(10)
    assert not pod.linked and pod.screen.lines[3] == "waiting for"
    welcome(pod, 20)
    pod.screen.lines = None
    pod.step(20 + podlink.TIMEOUT_MS - 1)
    assert pod.linked
    pod.step(20 + podlink.TIMEOUT_MS)
    assert not pod.linked and pod.screen.lines is not None


def test_mpremotes_ctrl_c_hands_the_port_back(pod):
    assert pod.step(0)
    pod.pod.port.inbox += b"\r\x03"
    assert not pod.step(10)


def test_a_broken_page_is_counted_and_the_rest_goes_on(pod):
    welcome(pod)
    pod.pod.port.inbox += podlink.encode(podlink.PAGE, 100, 0xFFFF, b"\x00\x7f\x01\x02")
    pod.pod.port.inbox += podlink.encode(podlink.LED, 101, 0xFFFF, b"\x01")
    pod.step(10)
    pod.step(20)
    assert pod.pod.link.stats["malformed"] == 1 and pod.led_pin.level == 1


def test_the_led_blinks_half_a_second_on_half_off(pod):
    welcome(pod)
    pod.pod.port.inbox += podlink.encode(podlink.LED, 100, 0xFFFF, b"\x02")
    levels = []
    for now in (1000, 1499, 1500, 1999, 2000):
        pod.step(now)
        levels.append(pod.led_pin.level)
    assert levels == [1, 1, 0, 0, 1]


def test_pod_config_over_the_defaults(tmp_path):
    import podconfig
    path = tmp_path / "pod_config.json"
    path.write_text(json.dumps({"seat": 2, "select": 20, "unknown": 1}))
    config = podconfig.load(str(path))
    assert (config["seat"], config["select"], config["next"]) == (2, 20, 12)
    assert config["error"] is None
    path.write_text("[1, 2]")
    assert "not an object" in podconfig.load(str(path))["error"]
    path.write_text("{")
    assert podconfig.load(str(path))["error"].startswith("bad ")
    assert podconfig.load(str(tmp_path / "none.json"))["seat"] == 0
