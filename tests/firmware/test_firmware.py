"""The firmware's own code under real MicroPython, against the Pi side's answers.

One MicroPython run (WebAssembly, in Node) checks, with the same inputs as CPython:
the protocol vectors (tests/firmware/vectors.json, which tests/seats/test_podlink.py
holds the Pi side to), the reliable link on a faulty wire, the buttons' debounce and
hold timing, and a whole pod session: the firmware's Pod on its own SSD1306 driver,
replaying the bytes the real Pi side sent a CPython pod, including a pulled cable.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from companion.engine.display import Choice, Display
from companion.seats import ManualClock, podlink
from companion.seats.interfaces import CountingInterface
from companion.seats.pods import PodManager, PodSeat
from companion.seats.ssd1306 import pack_pages

from . import checks, linksim
from .fakepod import UID_HEX, FakePod, ListPort

VECTORS = json.loads((Path(__file__).with_name("vectors.json")).read_text())
LINKS = {"seeds": [1, 7, 42], "count": 24, "faulty": 80}
KEYS = {"hold_ms": 600, "bounce_ms": 30, "until": 5000, "edges": [
    [100, 1, 0], [103, 1, 1], [105, 1, 0], [400, 1, 1],  # select: bounces, then a tap
    [1000, 2, 0], [1010, 2, 1],  # next: down shorter than the debounce time
    [2000, 1, 0], [2900, 1, 1],  # select: held
    [3000, 0, 0], [3100, 2, 0], [3200, 0, 1], [3300, 2, 1],  # two buttons overlapping
    [3500, 0, 0], [4090, 2, 0], [4200, 2, 1], [4500, 0, 1],  # next's press before the hold
]}
TICK = 10  # ms per round of the recorded session
CUT = range(150, 550)  # rounds with the cable pulled
WAITING_ROUND = 500
JOIN_URL = "HTTP://10.42.0.1:8000/J/3F2A9C0D4E5B6A7988776655443322AA"


# -- the recorded session ---------------------------------------------------------------------
class MemoryTransport:
    """The Pi's end of a memory cable."""

    def __init__(self) -> None:
        self.inbox = bytearray()
        self.outbox = bytearray()

    def read_available(self) -> bytes:
        data, self.inbox = bytes(self.inbox), bytearray()
        return data

    def write(self, data: bytes) -> None:
        self.outbox += data

    def close(self) -> None:
        """Nothing to release."""


@dataclass
class Session:
    """What the CPython run saw: the replay's input and the answers to hold it to."""

    spec: dict[str, Any]
    outputs: list[list[Any]] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    frame: Image.Image | None = None
    pod_pages: list[bytes] = field(default_factory=list)
    highlight_after_replug: int = -1
    connects: int = 0
    pod_dropped: int = 0


def vote() -> Display:
    return Display(title="Mutiny at Dawn", lines=("Round 3 - night", "Captain: seat 2"),
                   choices=(Choice("Mutiny!", {"type": "vote", "side": "mutiny"}),
                            Choice("Defend", {"type": "vote", "side": "defend"}, secret=True),
                            Choice("Abstain", {"type": "vote", "side": "abstain"})),
                   private=("Role: First Mate",), led="blink")


def after_vote() -> Display:
    return Display(title="Votes: 1 of 4", lines=("Waiting for the crew",),
                   choices=(Choice("Wait", {"type": "wait"}), Choice("Peek", {"type": "peek"})),
                   private=("You voted: Defend",), led="on")


#: round -> (button, down) for the fake pod's pins; button ids are podlink's.
EDGES = {60: (2, True), 66: (2, False), 100: (1, True), 106: (1, False),
         200: (2, True), 206: (2, False),  # while the cable is out: queued on the pod
         700: (1, True), 780: (1, False)}  # held past 0.6 s: the private lines


def record_session(rounds: int = 950) -> Session:
    """The real Pi side (PodManager, PodSeat) and the firmware's Pod on CPython, joined
    by a memory cable that is pulled for ``CUT``; records what crossed it."""
    now = [0]
    manager = PodManager(ports=lambda: [], clock=lambda: now[0])
    seat_clock = ManualClock()
    seat = PodSeat(2, manager.bind(UID_HEX, 2), clock=seat_clock)
    session = Session(spec={"session": 0x5EED, "seat": 2, "rounds": rounds, "tick": TICK,
                            "table": [], "edges": [], "snapshots": [WAITING_ROUND]})
    seat.when_action = session.actions.append
    pod_port, wire = ListPort(), MemoryTransport()
    fake = FakePod(pod_port, session=0x5EED, seat=2)
    connection = manager.attach("memory", wire)
    script = {20: lambda: seat.show(vote()), 120: lambda: seat.show(after_vote()),
              850: lambda: seat.show_qr(JOIN_URL)}
    for round_ in range(rounds):
        now[0] = round_ * TICK
        if round_ in EDGES:
            button, down = EDGES[round_]
            fake.drive(podlink.BUTTONS[button], down, now[0])
            session.spec["edges"].append([round_, button, 0 if down else 1])
        if round_ in script:
            script[round_]()
        _round(session, fake, pod_port, connection, wire, round_, now[0])
        if round_ == 650:
            session.highlight_after_replug = seat.highlight
        seat_clock.advance(TICK / 1000)
    session.frame = seat.frame()
    session.pod_pages = fake.screen.pages()
    session.connects = seat.pod.connects
    session.pod_dropped = fake.pod.link.dropped()
    manager.close()
    seat.close()
    return session


def _round(session: Session, fake: FakePod, pod_port: ListPort, connection: Any,
           wire: MemoryTransport, round_: int, now: int) -> None:
    fake.step(now)
    sent = pod_port.take()
    if sent:
        session.outputs.append([round_, sent.hex()])
        if round_ not in CUT:
            wire.inbox += sent
    connection.pump(now)
    back = bytes(wire.outbox)
    wire.outbox.clear()
    if back and round_ not in CUT:
        session.spec["table"].append([round_, back.hex()])
        pod_port.inbox += back


# -- one run of each Python ------------------------------------------------------------------
@pytest.fixture(scope="module")
def session() -> Session:
    return record_session()


HARDWARE = {"usb_input": (b"\x01\x02\r\x03\r\x01").hex(),
            "config_file": '{"seat": 4, "led": null, "bogus": 1}'}


@pytest.fixture(scope="module")
def spec(session: Session) -> dict[str, Any]:
    return {"protocol": VECTORS, "links": LINKS, "keys": KEYS, "replay": session.spec,
            "hardware": HARDWARE}


@pytest.fixture(scope="module")
def on_micropython(micropython, spec) -> dict[str, Any]:
    return micropython(spec)


@pytest.fixture(scope="module")
def on_cpython(spec) -> dict[str, Any]:
    return checks.main({key: spec[key] for key in ("protocol", "links", "keys")})


def test_it_is_really_micropython(on_micropython, on_cpython):
    assert on_micropython["implementation"] == "micropython"
    assert on_cpython["implementation"] == "cpython"


# -- the protocol ------------------------------------------------------------------------------
def test_checksums_and_byte_stuffing_match_the_known_answers(on_micropython):
    result = on_micropython["protocol"]
    assert result["crc"] == [item["crc"] for item in VECTORS["crc"]]
    assert [encoded for encoded, _ in result["cobs"]] == [c["encoded"] for c in VECTORS["cobs"]]
    assert [decoded for _, decoded in result["cobs"]] == [c["data"] for c in VECTORS["cobs"]]


def test_the_same_frames_decode_identically_on_cpython_and_under_micropython(
        on_micropython, on_cpython):
    expected = [{k: v for k, v in item.items() if k in ("seq", "ack", "message", "error")}
                for item in VECTORS["frames"]]
    assert on_micropython["protocol"]["frames"] == expected
    assert on_cpython["protocol"]["frames"] == expected


def test_frames_are_encoded_byte_for_byte_alike(on_micropython, on_cpython):
    wires = [item["wire"] + "00" for item in VECTORS["frames"] if "fields" in item]
    assert on_micropython["protocol"]["encoded"] == wires
    assert on_cpython["protocol"]["encoded"] == wires


def test_the_deframer_counts_noise_alike(on_micropython, on_cpython):
    expected = [{k: s[k] for k in ("frames", "oversize", "truncated")}
                for s in VECTORS["streams"]]
    assert on_micropython["protocol"]["streams"] == expected
    assert on_cpython["protocol"]["streams"] == expected


def test_the_link_gets_through_the_same_faults_alike(on_micropython, on_cpython):
    assert on_micropython["links"] == on_cpython["links"]
    pod_sent = [[kind, payload.hex()] for kind, payload in linksim.messages(LINKS["count"], "pod")]
    table_sent = [[kind, payload.hex()]
                  for kind, payload in linksim.messages(LINKS["count"], "table")]
    for run in on_micropython["links"]:
        assert run["table"] == pod_sent and run["pod"] == table_sent  # each once, in order
        assert run["pod_stats"]["bad"] + run["table_stats"]["bad"] > 0  # faults happened


def test_buttons_debounce_and_hold_alike(on_micropython, on_cpython):
    press, hold, release = 0, 1, 2
    # Each change is told once its level has lasted 30 ms, and counts from its last edge
    # (the first press from 105); a hold is due 600 ms after its press's edge.
    assert on_micropython["keys"] == on_cpython["keys"] == [
        [135, 1, press], [430, 1, release],  # the bounces at 103 and 105: one press
        # next, down 10 ms at 1000: shorter than the debounce time, so no press
        [2030, 1, press], [2600, 1, hold], [2930, 1, release],
        [3030, 0, press], [3130, 2, press], [3230, 0, release], [3330, 2, release],
        # next pressed at 4090 is told at 4120, with previous's hold due at 4100 after it
        [3530, 0, press], [4120, 2, press], [4120, 0, hold], [4230, 2, release], [4530, 0, release]]


# -- the whole pod -------------------------------------------------------------------------------
def test_the_recorded_session_went_as_played(session):
    """The Pi side's view: one vote confirmed, the press made while unplugged taken once."""
    assert session.actions == [{"type": "vote", "side": "defend"}]
    assert session.highlight_after_replug == 1
    assert session.connects == 2
    assert session.pod_pages == pack_pages(session.frame, 8)


def test_the_pod_sends_the_same_bytes_under_micropython(session, on_micropython):
    replay = on_micropython["replay"]
    assert replay["outputs"] == session.outputs
    assert replay["dropped"] == session.pod_dropped


def test_the_panel_shows_the_seat_frame_pixel_for_pixel(session, on_micropython):
    replay = on_micropython["replay"]
    assert bytes.fromhex(replay["buffer"]) == b"".join(pack_pages(session.frame, 8))
    panel = panel_from(replay["i2c"])
    assert panel.image().tobytes() == session.frame.tobytes()
    assert replay["errors"] == 0


def test_the_driver_sends_a_working_init_sequence(on_micropython):
    panel = panel_from(on_micropython["replay"]["i2c"])
    assert panel.is_on and panel.contrast == 0xCF
    first = bytes.fromhex(on_micropython["replay"]["i2c"][0][1])
    assert first[:2] == b"\x00\xae" and first[-1] == 0xAF  # off, set up, on
    assert b"\x8d\x14" in first and b"\x20\x00" in first  # charge pump, horizontal


def test_a_pulled_cable_shows_waiting_for_the_table(on_micropython):
    waiting = bytes.fromhex(on_micropython["replay"]["snapshots"][str(WAITING_ROUND)])
    lit = [any(waiting[p * 128:(p + 1) * 128]) for p in range(8)]
    # "Mutiny Table", "", "Seat 2", "waiting for", "the table...", "", the id, "fw 1.0.0"
    assert lit == [True, False, True, True, True, False, True, True]


def test_the_led_blinks_for_the_vote_and_ends_off(on_micropython):
    history = on_micropython["replay"]["led"]
    assert history[0] == 0 and history[-1] == 0
    assert history.count(1) >= 3  # blinking at 0.5 s through the vote


def panel_from(writes: list[list[Any]]) -> CountingInterface:
    """Feed the driver's I2C transfers to the project's SSD1306 model."""
    panel = CountingInterface()
    for address, data in writes:
        raw = bytes.fromhex(data)
        assert address == 0x3C
        if raw[0] == 0x00:
            panel.command(*raw[1:])
        else:
            assert raw[0] == 0x40
            panel.data(raw[1:])
    return panel


# -- the board glue and the driver on their own ----------------------------------------------
def test_the_usb_port_leaves_mpremotes_ctrl_a_for_the_repl(on_micropython):
    hardware = on_micropython["hardware"]
    assert hardware["usb_read"] == "01020d03"  # up to and with the Ctrl-C
    assert hardware["usb_left"] == "0d01"  # the REPL still gets "enter raw REPL"
    assert hardware["clock_ok"]


def test_the_pod_config_file_is_read_over_the_defaults(on_micropython):
    hardware = on_micropython["hardware"]
    assert hardware["config"] == {"seat": 4, "led": None, "error": None, "bogus": False}
    assert hardware["broken_error"] and hardware["missing"]
    assert not hardware["safe_mode"]
    assert hardware["run_returned"]  # main loop built from the file, ended by Ctrl-C


def test_the_board_says_hello_with_its_unique_id(on_micropython):
    hello = on_micropython["hardware"]["hello"]
    assert (hello["type"], hello["uid"], hello["session"], hello["seat"]) == (
        "HELLO", UID_HEX, 7, 0)


def test_a_panel_that_stops_answering_is_retried_and_redrawn_whole(on_micropython):
    oled = on_micropython["hardware"]["oled"]
    # init + window + page 0; one failed transfer; nothing before the retry time;
    # init again + 8 pages (window + data each); a contrast command.
    assert oled["stages"] == [3, 3, 3, 3 + 1 + 16, 3 + 1 + 16 + 1]
    assert oled["errors"] == 1 and not oled["busy"]
    assert oled["last"] == "008100"
    panel = panel_from(oled["i2c"])
    assert bytes(panel.ram) == bytes.fromhex(oled["buffer"])
    assert panel.contrast == 0
