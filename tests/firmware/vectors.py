"""Writes vectors.json: the protocol test vectors both Pythons are checked against.

    .venv/bin/python -m tests.firmware.vectors      # after a wanted change of the wire format

Known answers come from outside podlink where they can: CRC check values from the
CRC catalogue and ``binascii.crc_hqx``, COBS examples from the COBS paper's table,
frame bodies packed by hand with ``struct``. The rest (what each broken frame must be
refused for) is what podlink says today; a change shows up as a diff of this file.
"""
from __future__ import annotations

import binascii
import json
import struct
from pathlib import Path

from companion.seats import podlink

PATH = Path(__file__).with_name("vectors.json")
UID = bytes.fromhex("e6614103e7000001")


def _crc(data: bytes) -> int:
    return binascii.crc_hqx(data, 0xFFFF)  # CRC-CCITT, polynomial 0x1021


def _wire(kind: int, seq: int, ack: int, payload: bytes, crc: int | None = None) -> bytes:
    """A frame's bytes (no delimiter), built without podlink.encode."""
    body = struct.pack(">BHH", kind, seq, ack) + payload
    body += struct.pack(">H", _crc(body) if crc is None else crc)
    return podlink.cobs_encode(body)


def crc_vectors() -> list[dict]:
    samples = [b"", b"123456789", b"A", bytes(range(256)), b"\x00" * 8]
    out = [{"data": s.hex(), "crc": _crc(s)} for s in samples]
    assert out[1]["crc"] == 0x29B1 and out[2]["crc"] == 0xB915  # the catalogue's values
    return out


def cobs_vectors() -> list[dict]:
    run = bytes(range(1, 255))  # 01..FE
    pairs = [
        (b"\x00", b"\x01\x01"),
        (b"\x00\x00", b"\x01\x01\x01"),
        (b"\x00\x11\x00", b"\x01\x02\x11\x01"),
        (b"\x11\x22\x00\x33", b"\x03\x11\x22\x02\x33"),
        (b"\x11\x22\x33\x44", b"\x05\x11\x22\x33\x44"),
        (b"\x11\x00\x00\x00", b"\x02\x11\x01\x01\x01"),
        (run, b"\xff" + run),
        (b"\x00" + run, b"\x01\xff" + run),
        (run + b"\xff", b"\xff" + run + b"\x02\xff"),
        (run[1:] + b"\xff\x00", b"\xff" + run[1:] + b"\xff\x01\x01"),
        (run[2:] + b"\xff\x00\x01", b"\xfe" + run[2:] + b"\xff\x02\x01"),
    ]
    return [{"data": d.hex(), "encoded": e.hex()} for d, e in pairs]


def _valid_frames() -> list[tuple[str, int, int, int, bytes]]:
    hello = struct.pack(">BIHBB", 1, 0x12345678, 5, 3, len(UID)) + UID + b"1.0.0"
    page = bytes((i * 37) & 0xFF for i in range(128))  # zeros in it, on purpose
    return [
        ("hello", podlink.HELLO, 0, 0xFFFF, hello),
        ("ping", podlink.PING, 0, 6, struct.pack(">6H", 1, 0, 2, 3, 0, 4)),
        ("ack", podlink.ACK, 0, 7, b""),
        ("button", podlink.BUTTON, 9, 2, b"\x01\x00"),
        ("welcome", podlink.WELCOME, 0, 4, struct.pack(">BIH", 1, 0x12345678, 40)),
        ("table ping", podlink.TABLE_PING, 0, 0, b""),
        ("table ack", podlink.TABLE_ACK, 0, 65535, b""),
        ("ask", podlink.ASK, 0, 65535, b""),
        ("bye", podlink.BYE, 0, 12, b""),
        ("setup", podlink.SETUP, 40, 8, struct.pack(">HB", 600, 30)),
        ("whole page", podlink.PAGE, 41, 8, b"\x07\x00" + page),
        ("page span", podlink.PAGE, 65535, 8, b"\x02\x28" + bytes(range(10))),
        ("led", podlink.LED, 0, 8, b"\x02"),
        ("contrast", podlink.CONTRAST, 1, 8, b"\x00"),
        ("newer message", 0x7F, 3, 3, b"\xaa\xbb"),
    ]


def _broken_frames() -> list[tuple[str, bytes]]:
    good = _wire(podlink.BUTTON, 9, 2, b"\x01\x00")
    flipped = bytearray(_wire(podlink.PAGE, 3, 3, b"\x01\x00" + bytes(range(1, 129))))
    flipped[60] ^= 0x01  # one bit of a page byte: only the CRC can tell
    return [
        ("bad crc", _wire(podlink.BUTTON, 9, 2, b"\x01\x00", crc=0x1234)),
        ("one bit flipped", bytes(flipped)),
        ("block past the end", b"\x09\x41\x00"),
        ("too short", podlink.cobs_encode(b"\x41\x00\x01\x00")),
        ("too long", _wire(podlink.PAGE, 1, 1, bytes(podlink.MAX_PAYLOAD + 1))),
        ("truncated", good[:5]),
        ("button out of range", _wire(podlink.BUTTON, 1, 1, b"\x03\x00")),
        ("button too long", _wire(podlink.BUTTON, 1, 1, b"\x01\x00\x00")),
        ("page past column 127", _wire(podlink.PAGE, 1, 1, b"\x00\x7f\x01\x02")),
        ("page 8", _wire(podlink.PAGE, 1, 1, b"\x08\x00\x01")),
        ("hello cut short", _wire(podlink.HELLO, 0, 0, b"\x01\x00\x00")),
        ("led mode 3", _wire(podlink.LED, 1, 1, b"\x03")),
    ]


def _outcome(wire: bytes) -> dict:
    try:
        kind, seq, ack, payload = podlink.decode(wire)
        return {"seq": seq, "ack": ack, "message": podlink.describe(kind, payload)}
    except podlink.FrameError as exc:
        return {"error": exc.reason}


def frame_vectors() -> list[dict]:
    out = []
    for name, kind, seq, ack, payload in _valid_frames():
        wire = _wire(kind, seq, ack, payload)
        out.append({"name": name, "wire": wire.hex(), "fields": [kind, seq, ack, payload.hex()],
                    **_outcome(wire)})
    for name, wire in _broken_frames():
        out.append({"name": name, "wire": wire.hex(), **_outcome(wire)})
    return out


def stream_vectors() -> list[dict]:
    """Byte streams for the deframer: noise, frames, an oversize run, a cut-off frame."""
    one = podlink.encode(podlink.ACK, 0, 1)
    two = podlink.encode(podlink.BUTTON, 2, 1, b"\x02\x02")
    return [
        {"name": "two frames in one read", "chunks": [(one + two).hex()],
         "frames": 2, "oversize": 0, "truncated": 0},
        {"name": "split anywhere", "chunks": [one[:3].hex(), (one[3:] + two[:1]).hex(),
                                              two[1:].hex()],
         "frames": 2, "oversize": 0, "truncated": 0},
        {"name": "noise and empty frames", "chunks": ["0000", "68656c6c6f0d0a00", one.hex()],
         "frames": 2, "oversize": 0, "truncated": 0},
        {"name": "a run with no delimiter", "chunks": ["41" * 600 + "00", one.hex()],
         "frames": 1, "oversize": 1, "truncated": 0},
        {"name": "cut off, then silence", "chunks": [two[:4].hex()], "expire": True,
         "then": one.hex(), "frames": 1, "oversize": 0, "truncated": 1},
    ]


def build() -> dict:
    return {"crc": crc_vectors(), "cobs": cobs_vectors(), "frames": frame_vectors(),
            "streams": stream_vectors()}


if __name__ == "__main__":
    PATH.write_text(json.dumps(build(), indent=1, sort_keys=True) + "\n")
    print(f"wrote {PATH}")
