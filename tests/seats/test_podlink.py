"""The pod link protocol on the Pi side (companion.seats.podlink, the firmware's file).

tests/firmware/vectors.json holds the known answers; tests/firmware/test_firmware.py
holds MicroPython to the very same vectors.
"""
from __future__ import annotations

import binascii
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.seats import podlink
from tests.firmware import linksim

VECTORS = json.loads((Path(__file__).resolve().parents[1] / "firmware" / "vectors.json")
                     .read_text())
#: Properties that rest on the CRC catching corruption run on fixed examples: a random
#: 1-in-65,536 collision must not make CI flaky.
FIXED = settings(derandomize=True, max_examples=150, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow])


# -- known answers -----------------------------------------------------------------------------
@pytest.mark.parametrize("item", VECTORS["crc"], ids=lambda i: i["data"][:12] or "empty")
def test_crc_vectors(item):
    assert podlink.crc16(bytes.fromhex(item["data"])) == item["crc"]


def test_crc_check_value():
    assert podlink.crc16(b"123456789") == 0x29B1  # CRC-16/CCITT-FALSE's catalogue value


@pytest.mark.parametrize("item", VECTORS["cobs"], ids=lambda i: i["data"][:12])
def test_cobs_vectors(item):
    data, encoded = bytes.fromhex(item["data"]), bytes.fromhex(item["encoded"])
    assert podlink.cobs_encode(data) == encoded
    assert podlink.cobs_decode(encoded) == data


@pytest.mark.parametrize("item", VECTORS["frames"], ids=lambda i: i["name"])
def test_frame_vectors(item):
    wire = bytes.fromhex(item["wire"])
    if "error" in item:
        with pytest.raises(podlink.FrameError) as caught:
            kind, _, _, payload = podlink.decode(wire)
            podlink.describe(kind, payload)
        assert caught.value.reason == item["error"]
        return
    kind, seq, ack, payload = podlink.decode(wire)
    assert (seq, ack, podlink.describe(kind, payload)) == (item["seq"], item["ack"],
                                                           item["message"])
    fields = item["fields"]
    assert podlink.encode(fields[0], fields[1], fields[2], bytes.fromhex(fields[3])) \
        == wire + b"\x00"


@pytest.mark.parametrize("item", VECTORS["streams"], ids=lambda i: i["name"])
def test_stream_vectors(item):
    deframer = podlink.Deframer()
    frames = []
    for chunk in item["chunks"]:
        frames += deframer.feed(bytes.fromhex(chunk), 0)
    if item.get("expire"):
        deframer.expire(podlink.PARTIAL_MS - 1)
        assert deframer.truncated == 0  # not yet: the sender may still be writing
        deframer.expire(podlink.PARTIAL_MS)
        frames += deframer.feed(bytes.fromhex(item["then"]), podlink.PARTIAL_MS)
    assert (len(frames), deframer.oversize, deframer.truncated) == (
        item["frames"], item["oversize"], item["truncated"])


def test_vectors_file_is_current():
    from tests.firmware import vectors
    assert vectors.build() == VECTORS, "run: .venv/bin/python -m tests.firmware.vectors"


def test_mpremote_interrupts_are_never_frames_from_the_table():
    deframer = podlink.Deframer()
    deframer.feed(b"\r\x03")
    assert deframer.interrupted()
    for kind in podlink.TABLE_TYPES:
        frame = podlink.encode(kind, 0x0100, 0x0300, b"\x03")
        assert frame[:2] not in podlink.INTERRUPTS


# -- properties --------------------------------------------------------------------------------
@given(st.binary(max_size=600))
def test_cobs_round_trips_without_zero_bytes(data):
    encoded = podlink.cobs_encode(data)
    assert 0 not in encoded
    assert podlink.cobs_decode(encoded) == data
    assert len(encoded) <= len(data) + 1 + len(data) // 254


@given(st.binary(max_size=300))
def test_crc_agrees_with_binascii(data):
    assert podlink.crc16(data) == binascii.crc_hqx(data, 0xFFFF)


@given(st.integers(0, 255), st.integers(0, 0xFFFF), st.integers(0, 0xFFFF),
       st.binary(max_size=podlink.MAX_PAYLOAD))
def test_frames_round_trip(kind, seq, ack, payload):
    frame = podlink.encode(kind, seq, ack, payload)
    assert frame.endswith(b"\x00") and 0 not in frame[:-1]
    assert podlink.decode(frame[:-1]) == (kind, seq, ack, payload)


@given(st.binary(max_size=400))
def test_any_bytes_decode_or_raise_frame_error(data):
    try:
        kind, _, _, payload = podlink.decode(data)
        podlink.describe(kind, payload)
    except podlink.FrameError as exc:
        assert exc.reason in ("cobs", "short", "long", "crc", "payload")


@given(st.binary(min_size=1, max_size=podlink.MAX_PAYLOAD), st.data())
def test_a_flipped_bit_is_always_caught(payload, data):
    body = bytearray(podlink.cobs_decode(podlink.encode(podlink.PAGE, 1, 2, payload)[:-1]))
    bit = data.draw(st.integers(0, len(body) * 8 - 1))
    body[bit // 8] ^= 1 << (bit % 8)
    with pytest.raises(podlink.FrameError, match="crc"):
        podlink.decode(podlink.cobs_encode(bytes(body)))


@given(st.binary(max_size=300), st.lists(st.integers(1, 40), max_size=6))
def test_the_deframer_finds_the_same_frames_however_bytes_are_split(noise, cuts):
    frames = [podlink.encode(podlink.BUTTON, n, n, bytes((n % 3, n % 3))) for n in range(4)]
    stream = noise.replace(b"\x00", b"") + b"\x00" + b"".join(frames)
    deframer, found, start = podlink.Deframer(), [], 0
    for cut in cuts + [len(stream)]:
        found += deframer.feed(stream[start:start + cut])
        start += cut
    found += deframer.feed(stream[start:])
    decoded = [podlink.decode(raw) for raw in found[-4:]]
    assert decoded == [podlink.decode(frame[:-1]) for frame in frames]


@FIXED
@given(st.lists(st.integers(0, linksim.FATES - 1), max_size=120),
       st.integers(1, 30), st.integers(1, 30))
def test_every_message_arrives_once_and_in_order_whatever_the_wire_does(fates, to_table,
                                                                        to_pod):
    """Frames dropped, corrupted, truncated, duplicated and reordered; then a clean wire."""
    pod_sent = linksim.messages(to_table, "pod")
    table_sent = linksim.messages(to_pod, "table")
    result = linksim.exchange(pod_sent, table_sent, linksim.list_fates(fates))
    assert result["table"] == [[kind, payload.hex()] for kind, payload in pod_sent]
    assert result["pod"] == [[kind, payload.hex()] for kind, payload in table_sent]


# -- the link's rules, one at a time ----------------------------------------------------------
def pair() -> tuple[podlink.Link, podlink.Link]:
    return podlink.Link("pod"), podlink.Link("table")


def carry(frames: list[bytes], link: podlink.Link, now: int = 0) -> list:
    return [link.receive(frame[:-1], now) for frame in frames]


def test_a_duplicate_is_acknowledged_but_not_delivered_twice():
    pod, table = pair()
    pod.send(podlink.BUTTON, b"\x01\x00")
    frames = pod.output(0)
    assert carry(frames + frames, table) == [(podlink.BUTTON, b"\x01\x00"), None]
    assert table.stats["duplicate"] == 1 and table.ack_due


def test_a_frame_out_of_order_waits_for_its_retransmission():
    pod, table = pair()
    for n in range(3):
        pod.send(podlink.BUTTON, bytes((n, 0)))
    first, second, third = pod.output(0)
    assert carry([first, third], table) == [(podlink.BUTTON, b"\x00\x00"), None]
    assert table.stats["out_of_order"] == 1
    carry(table.output(10), pod, 10)  # the ack of the first
    assert pod.output(100) == []  # not yet: the timer restarted at the ack
    resent = pod.output(10 + podlink.RETRANSMIT_MS)
    assert carry(resent, table) == [(podlink.BUTTON, b"\x01\x00"), (podlink.BUTTON, b"\x02\x00")]
    assert pod.stats["retransmitted"] == 2


def test_at_most_a_window_is_in_flight():
    pod, table = pair()
    for n in range(podlink.WINDOW + 3):
        pod.send(podlink.BUTTON, bytes((n % 3, 0)))
    assert len(pod.output(0)) == podlink.WINDOW
    assert pod.output(1) == []
    carry(pod.output(0), table)
    carry(table.output(0), pod)


def test_acks_release_the_window():
    pod, table = pair()
    for n in range(podlink.WINDOW + 3):
        pod.send(podlink.BUTTON, bytes((n % 3, 0)))
    delivered = carry(pod.output(0), table)
    assert len([d for d in delivered if d]) == podlink.WINDOW
    carry(table.output(5), pod, 5)
    assert len(pod.output(6)) == 3 and len(pod.queue) == 3


def test_an_ack_of_something_never_sent_is_ignored():
    pod, _ = pair()
    pod.send(podlink.BUTTON, b"\x00\x00")
    pod.acked(500, 0)
    assert len(pod.queue) == 1


def test_sequence_numbers_wrap_around():
    pod, table = pair()
    pod.tx_next = table.rx_expected = 0xFFFE
    for n in range(4):
        pod.send(podlink.BUTTON, bytes((n % 3, 0)))
    assert len([d for d in carry(pod.output(0), table) if d]) == 4
    assert table.rx_expected == 2
    carry(table.output(0), pod)
    assert pod.queue == []


def test_a_reliable_message_of_a_newer_protocol_is_skipped_not_stalled_on():
    pod, table = pair()
    newer = podlink.encode(0xDF, 0, 0xFFFF, b"future")  # from the table, reliable, unknown
    following = podlink.encode(podlink.LED, 1, 0xFFFF, b"\x01")
    assert carry([newer, following], pod) == [None, (podlink.LED, b"\x01")]
    assert pod.stats["unknown"] == 1 and pod.rx_expected == 2


def test_our_own_frames_echoed_back_are_dropped():
    pod, _ = pair()
    pod.send(podlink.BUTTON, b"\x00\x00")
    echo = pod.output(0)
    assert carry(echo, pod, 50) == [None]
    assert pod.stats["unknown"] == 1 and pod.rx_expected == 0 and pod.last_rx is None


def test_reliable_frames_before_the_handshake_are_dropped_as_early():
    pod, table = pair()
    table.send(podlink.PAGE, podlink.pack_page(0, bytes(128)))
    assert pod.receive(table.output(0)[0][:-1], 0, linked=False) is None
    assert pod.stats["early"] == 1 and pod.rx_expected == 0


def test_a_full_queue_loses_the_message_and_counts_it():
    pod = podlink.Link("pod", queue=2)
    assert pod.send(podlink.BUTTON, b"\x00\x00") and pod.send(podlink.BUTTON, b"\x00\x02")
    assert not pod.send(podlink.BUTTON, b"\x01\x00")
    assert pod.stats["lost"] == 1


def test_quiet_links_ping_and_received_data_is_acked():
    pod, table = pair()
    assert podlink.decode(table.output(0)[0][:-1])[0] == podlink.TABLE_PING
    assert table.output(podlink.KEEPALIVE_MS - 1) == []
    pod.make_ping = lambda: podlink.pack_counters({"bad": 3})
    ping = pod.output(0)
    assert carry(ping, table) == [(podlink.PING, podlink.pack_counters({"bad": 3}))]
    table.send(podlink.LED, b"\x02")
    carry(table.output(5), pod, 5)
    kind, _, ack, _ = podlink.decode(pod.output(6)[0][:-1])
    assert (kind, ack) == (podlink.ACK, 0)


def test_silence_is_measured_from_the_last_valid_frame():
    pod, table = pair()
    assert table.silent_for(0) > podlink.TIMEOUT_MS
    carry(pod.output(100), table, 100)
    assert table.silent_for(100 + podlink.TIMEOUT_MS) == podlink.TIMEOUT_MS
    table.receive(b"\x05garbage", 200)
    assert table.stats["bad"] == 1 and table.silent_for(300) == 200


def test_payloads_are_checked():
    with pytest.raises(podlink.FrameError):
        podlink.unpack_welcome(b"\x01")
    with pytest.raises(podlink.FrameError):
        podlink.unpack_setup(b"\x01")
    with pytest.raises(ValueError):
        podlink.encode(podlink.PAGE, 0, 0, bytes(podlink.MAX_PAYLOAD + 1))
    assert podlink.unpack_counters(b"\x00\x01") == {"bad": 1}  # an older pod's fewer counters


def test_hello_carries_the_pod_and_its_firmware():
    payload = podlink.pack_hello(0xCAFEF00D, 17, 4, bytes.fromhex("e6614103e7000001"), "1.0.0")
    assert podlink.unpack_hello(payload) == {
        "protocol": podlink.PROTOCOL, "session": 0xCAFEF00D, "first": 17, "seat": 4,
        "uid": bytes.fromhex("e6614103e7000001"), "firmware": "1.0.0"}
