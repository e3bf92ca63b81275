"""The seat pod link: frames, checksums, messages and the reliable link state.

One file, two homes: the pod runs it under MicroPython (copied there as podlink.py) and
the Pi imports it as ``companion.seats.podlink`` (a symbolic link to this file), so both
ends frame, check and sequence bytes with the very same code. It is written in the
subset the two share: no dataclasses, no f-strings, no ``from __future__``, only
``bytes``, ``bytearray`` and ``struct``; annotations are plain and never evaluated by
MicroPython. Times are integer milliseconds that never wrap, handed in by the caller
(a counter built on ``time.ticks_ms()`` on the pod, a monotonic clock on the Pi), so
tests drive the link without sleeping.

On the wire (docs/pods.md has the full tables)::

    frame = COBS(body) 0x00
    body  = type:u8 seq:u16 ack:u16 payload crc:u16     (big-endian)

``crc`` is CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF) of everything before
it. Bit 7 of ``type`` says who sent it (1: the table), bit 6 that it is *reliable*:
numbered by ``seq``, delivered once and in order, acknowledged by the peer's ``ack``
(the last reliable ``seq`` it took in order) and sent again until it is.
"""
import struct

PROTOCOL = 1  #: bumped when frames change incompatibly; HELLO and WELCOME carry it
FIRMWARE_VERSION = "1.0.0"  #: the firmware in firmware/, sent by the pod in HELLO

# -- message types --------------------------------------------------------------------
FROM_TABLE = 0x80
RELIABLE = 0x40

HELLO = 0x01  #: pod: who I am (repeated until welcomed)
PING = 0x02  #: pod: keepalive, with the pod's counters
ACK = 0x03  #: pod: a bare acknowledgement
BUTTON = 0x41  #: pod, reliable: a button was pressed, held or released

WELCOME = 0x81  #: table: linked; where both sequences stand
TABLE_PING = 0x82  #: table: keepalive
TABLE_ACK = 0x83  #: table: a bare acknowledgement
ASK = 0x84  #: table: say HELLO now (the table has just opened the port)
BYE = 0x85  #: table: closing; show "waiting for the table"
SETUP = 0xC1  #: table, reliable: hold and debounce times
PAGE = 0xC2  #: table, reliable: the changed columns of one SSD1306 page
LED = 0xC3  #: table, reliable: LED off, on or blinking
CONTRAST = 0xC4  #: table, reliable: panel contrast (0 when the seat dims)

POD_TYPES = (HELLO, PING, ACK, BUTTON)
TABLE_TYPES = (WELCOME, TABLE_PING, TABLE_ACK, ASK, BYE, SETUP, PAGE, LED, CONTRAST)
NAMES = {HELLO: "HELLO", PING: "PING", ACK: "ACK", BUTTON: "BUTTON", WELCOME: "WELCOME",
         TABLE_PING: "TABLE_PING", TABLE_ACK: "TABLE_ACK", ASK: "ASK", BYE: "BYE",
         SETUP: "SETUP", PAGE: "PAGE", LED: "LED", CONTRAST: "CONTRAST"}

BUTTONS = ("previous", "select", "next")  #: button ids 0, 1, 2
KINDS = ("press", "hold", "release")  #: event kinds 0, 1, 2
LED_MODES = ("off", "on", "blink")  #: LED modes 0, 1, 2

PAGE_BYTES = 128
PAGES = 8
HEADER = 5  # type, seq, ack
MAX_PAYLOAD = 192
MAX_BODY = HEADER + MAX_PAYLOAD + 2
#: Longest encoded frame the deframer keeps; anything longer is noise.
MAX_ENCODED = MAX_BODY + MAX_BODY // 254 + 2

# -- timings (milliseconds) -------------------------------------------------------------
WINDOW = 8  #: reliable frames in flight before waiting for an ack
QUEUE = 64  #: reliable messages a side holds (in flight and waiting)
RETRANSMIT_MS = 250  #: resend everything unacknowledged after this long
KEEPALIVE_MS = 1000  #: send a PING when nothing else went out for this long
TIMEOUT_MS = 3000  #: the peer is gone when nothing valid came for this long
HELLO_MS = 500  #: an unlinked pod repeats HELLO this often
PARTIAL_MS = 200  #: half a frame followed by this much silence is dropped

#: Bytes that start an mpremote session (Ctrl-C): no frame from the table starts so,
#: so the pod can hand the port back to the REPL when it sees them.
INTERRUPTS = (b"\r\x03", b"\x03\x03")


class FrameError(ValueError):
    """A frame that cannot be used; ``reason`` is one of cobs, short, long, crc, payload."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


# -- checksum and byte stuffing -----------------------------------------------------------
def _crc_table() -> list:
    table = []
    for byte in range(256):
        crc = byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else crc << 1
        table.append(crc & 0xFFFF)
    return table


_CRC_TABLE = _crc_table()


def crc16(data, crc: int = 0xFFFF) -> int:
    """CRC-16/CCITT-FALSE of ``data`` (``crc16(b"123456789") == 0x29B1``)."""
    table = _CRC_TABLE
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ table[(crc >> 8) ^ byte]
    return crc


def cobs_encode(data) -> bytes:
    """Consistent Overhead Byte Stuffing: ``data`` without a single zero byte."""
    out = bytearray()
    start, end = 0, len(data)
    while True:
        stop = start
        while stop < end and stop - start < 254 and data[stop] != 0:
            stop += 1
        out.append(stop - start + 1)
        out += data[start:stop]
        if stop - start == 254:  # a full block carries no zero after it
            start = stop
            if start >= end:
                break
            continue
        if stop >= end:
            break
        start = stop + 1  # skip the zero the block's code stands for
    return bytes(out)


def cobs_decode(data) -> bytes:
    """Undo ``cobs_encode``; a zero byte or a block running past the end is a FrameError."""
    out = bytearray()
    index, end = 0, len(data)
    while index < end:
        code = data[index]
        if code == 0 or index + code > end:
            raise FrameError("cobs")
        out += data[index + 1:index + code]
        index += code
        if code < 0xFF and index < end:
            out.append(0)
    return bytes(out)


# -- frames -----------------------------------------------------------------------------
def encode(kind: int, seq: int, ack: int, payload=b"") -> bytes:
    """One frame on the wire: COBS of the body and its CRC, then the 0x00 delimiter."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError("payload too long")
    body = struct.pack(">BHH", kind, seq & 0xFFFF, ack & 0xFFFF) + bytes(payload)
    body += struct.pack(">H", crc16(body))
    return cobs_encode(body) + b"\x00"


def decode(raw) -> tuple:
    """``(type, seq, ack, payload)`` of one frame (without its delimiter), or FrameError."""
    body = cobs_decode(raw)
    if len(body) < HEADER + 2:
        raise FrameError("short")
    if len(body) > MAX_BODY:
        raise FrameError("long")
    if crc16(body[:-2]) != struct.unpack(">H", body[-2:])[0]:
        raise FrameError("crc")
    kind, seq, ack = struct.unpack(">BHH", body[:HEADER])
    return kind, seq, ack, body[HEADER:-2]


def seq_diff(a: int, b: int) -> int:
    """``a - b`` on the 16-bit sequence circle, in -32768..32767."""
    return ((a - b + 0x8000) & 0xFFFF) - 0x8000


class Deframer:
    """Cuts a byte stream into frames at 0x00 delimiters.

    Noise between frames, frames longer than ``MAX_ENCODED`` and half a frame followed
    by ``PARTIAL_MS`` of silence are dropped and counted, never raised.
    """

    def __init__(self, limit: int = MAX_ENCODED):
        self.limit = limit
        self.buffer = bytearray()
        self.last_byte = 0
        self.oversize = 0
        self.truncated = 0

    def feed(self, data, now: int = 0) -> list:
        """Add bytes; return the complete frames (still COBS-encoded, no delimiter)."""
        frames = []
        if data:
            self.last_byte = now
        for byte in data:
            if byte == 0:
                if len(self.buffer) > self.limit:
                    self.oversize += 1
                elif self.buffer:
                    frames.append(bytes(self.buffer))
                self.buffer = bytearray()
            elif len(self.buffer) <= self.limit:  # past the limit: wait for the end
                self.buffer.append(byte)
        return frames

    def expire(self, now: int) -> None:
        """Drop a partial frame whose sender fell silent (a cable pulled mid-frame)."""
        if self.buffer and now - self.last_byte >= PARTIAL_MS:
            self.truncated += 1
            self.buffer = bytearray()

    def interrupted(self) -> bool:
        """Whether the bytes waiting start like mpremote's Ctrl-C (see ``INTERRUPTS``)."""
        head = bytes(self.buffer[:2])
        return head in INTERRUPTS


# -- message payloads -------------------------------------------------------------------
def pack_hello(session: int, first: int, seat: int, uid, firmware: str) -> bytes:
    """HELLO: protocol, boot session, oldest unacknowledged seq, installed seat, id, version."""
    uid = bytes(uid)
    return (struct.pack(">BIHBB", PROTOCOL, session, first, seat, len(uid)) + uid
            + firmware.encode())


def unpack_hello(payload) -> dict:
    if len(payload) < 9 or len(payload) < 9 + payload[8]:
        raise FrameError("payload")
    protocol, session, first, seat, size = struct.unpack(">BIHBB", payload[:9])
    uid = bytes(payload[9:9 + size])
    try:
        firmware = bytes(payload[9 + size:]).decode()
    except UnicodeError:
        raise FrameError("payload") from None
    return {"protocol": protocol, "session": session, "first": first, "seat": seat,
            "uid": uid, "firmware": firmware}


def pack_welcome(session: int, next_seq: int) -> bytes:
    """WELCOME: protocol, the pod's session echoed, the seq the table sends next."""
    return struct.pack(">BIH", PROTOCOL, session, next_seq)


def unpack_welcome(payload) -> dict:
    if len(payload) != 7:
        raise FrameError("payload")
    protocol, session, next_seq = struct.unpack(">BIH", payload)
    return {"protocol": protocol, "session": session, "next": next_seq}


def pack_button(button: int, kind: int) -> bytes:
    return bytes((button, kind))


def unpack_button(payload) -> tuple:
    if len(payload) != 2 or payload[0] >= len(BUTTONS) or payload[1] >= len(KINDS):
        raise FrameError("payload")
    return payload[0], payload[1]


def pack_setup(hold_ms: int, bounce_ms: int) -> bytes:
    return struct.pack(">HB", min(hold_ms, 0xFFFF), min(bounce_ms, 0xFF))


def unpack_setup(payload) -> tuple:
    if len(payload) != 3:
        raise FrameError("payload")
    return struct.unpack(">HB", payload)


def pack_page(page: int, data, column: int = 0) -> bytes:
    """PAGE: page 0-7, the first column, then that column's byte and those after it."""
    return bytes((page, column)) + bytes(data)


def unpack_page(payload) -> tuple:
    """``(page, column, data)``; the data must stay inside the page's 128 columns."""
    if (len(payload) < 3 or payload[0] >= PAGES
            or payload[1] + len(payload) - 2 > PAGE_BYTES):
        raise FrameError("payload")
    return payload[0], payload[1], bytes(payload[2:])


def unpack_byte(payload, limit: int = 256) -> int:
    """LED mode (limit 3) or contrast level: one byte."""
    if len(payload) != 1 or payload[0] >= limit:
        raise FrameError("payload")
    return payload[0]


#: The pod's counters in its PING, in order (each 16 bits, wrapping).
POD_COUNTERS = ("bad", "unknown", "dropped", "retransmitted", "lost", "screen_errors")


def pack_counters(values: dict) -> bytes:
    return b"".join(struct.pack(">H", values.get(name, 0) & 0xFFFF) for name in POD_COUNTERS)


def unpack_counters(payload) -> dict:
    """The counters a PING carries; a newer pod may send more, an older fewer."""
    out = {}
    for index, name in enumerate(POD_COUNTERS):
        if 2 * index + 2 <= len(payload):
            out[name] = struct.unpack(">H", payload[2 * index:2 * index + 2])[0]
    return out


def describe(kind: int, payload) -> dict:
    """A frame's message as plain data (the cross-implementation test vectors use it)."""
    name = NAMES.get(kind, "UNKNOWN")
    out = {"type": name}  # type: dict
    if kind == HELLO:
        out.update(unpack_hello(payload))
        out["uid"] = to_hex(out["uid"])
    elif kind == WELCOME:
        out.update(unpack_welcome(payload))
    elif kind == BUTTON:
        button, event = unpack_button(payload)
        out.update({"button": BUTTONS[button], "kind": KINDS[event]})
    elif kind == SETUP:
        out["hold_ms"], out["bounce_ms"] = unpack_setup(payload)
    elif kind == PAGE:
        out["page"], out["column"], data = unpack_page(payload)
        out["data"] = to_hex(data)
    elif kind == LED:
        out["mode"] = LED_MODES[unpack_byte(payload, len(LED_MODES))]
    elif kind == CONTRAST:
        out["level"] = unpack_byte(payload)
    elif kind == PING:
        out["counters"] = unpack_counters(payload)
    elif name == "UNKNOWN":
        out["payload"] = to_hex(payload)
    return out


def to_hex(data) -> str:
    """Lower-case hex digits of ``data``: how a pod id is written in the table config."""
    return "".join("%02x" % byte for byte in data)


# -- the reliable link ------------------------------------------------------------------
#: What each counter of ``Link.stats`` counts.
STATS = ("sent", "received", "retransmitted", "bad", "unknown", "malformed", "duplicate",
         "out_of_order", "early", "lost")
#: Counters of frames that arrived and were thrown away.
DROPPED = ("bad", "unknown", "malformed", "duplicate", "out_of_order", "early")


class Link:
    """One end of the link: numbering, acknowledging and resending reliable messages.

    ``side`` is ``"pod"`` or ``"table"``. ``send()`` queues a reliable message;
    ``receive()`` takes one frame off the wire and returns ``(type, payload)`` when it
    carries something for the application (a reliable message the first time it comes,
    in order; an unreliable one every time), else None. ``output(now)`` returns the
    frames to write now: queued messages (at most ``WINDOW`` unacknowledged), everything
    unacknowledged again after ``RETRANSMIT_MS`` (go-back-N), a bare ACK when something
    arrived and nothing else is going out, a PING after ``KEEPALIVE_MS`` of quiet.
    """

    def __init__(self, side: str, window: int = WINDOW, queue: int = QUEUE):
        self.table = side == "table"
        self.window = window
        self.limit = queue
        self.queue = []  # type: list  # [seq, type, payload], oldest first
        self.in_flight = 0  # how many of queue's head went out since the last rewind
        self.sent_at = 0  # when queue[0] last went out
        self.tx_next = 0
        self.rx_expected = 0
        self.ack_due = False
        self.last_tx = None  # type: int | None
        self.last_rx = None  # type: int | None
        #: Called for a PING's payload (the pod sends its counters); None: empty.
        self.make_ping = None
        self.stats = {}
        for name in STATS:
            self.stats[name] = 0
        self._mine = TABLE_TYPES if self.table else POD_TYPES
        self._theirs = POD_TYPES if self.table else TABLE_TYPES

    # sending
    def send(self, kind: int, payload=b"") -> bool:
        """Queue a reliable message; False (and counted as lost) when the queue is full."""
        if len(self.queue) >= self.limit:
            self.stats["lost"] += 1
            return False
        self.queue.append([self.tx_next, kind, bytes(payload)])
        self.tx_next = (self.tx_next + 1) & 0xFFFF
        return True

    def control(self, kind: int, payload=b"", now: int = 0) -> bytes:
        """An unreliable frame (HELLO, WELCOME, ASK, BYE...) carrying the current ack."""
        self.last_tx = now
        self.ack_due = False
        self.stats["sent"] += 1
        return encode(kind, 0, self.rx_expected - 1, payload)

    def output(self, now: int) -> list:
        """The frames to write now (see the class docstring)."""
        frames = []
        if self.in_flight and now - self.sent_at >= RETRANSMIT_MS:
            self.stats["retransmitted"] += self.in_flight
            self.in_flight = 0
        while self.in_flight < min(self.window, len(self.queue)):
            seq, kind, payload = self.queue[self.in_flight]
            if self.in_flight == 0:
                self.sent_at = now
            self.in_flight += 1
            frames.append(encode(kind, seq, self.rx_expected - 1, payload))
        if not frames and self.ack_due:
            frames.append(encode(TABLE_ACK if self.table else ACK, 0, self.rx_expected - 1))
        if not frames and (self.last_tx is None or now - self.last_tx >= KEEPALIVE_MS):
            payload = self.make_ping() if self.make_ping else b""
            frames.append(encode(TABLE_PING if self.table else PING, 0, self.rx_expected - 1,
                                 payload))
        if frames:
            self.last_tx = now
            self.ack_due = False
            self.stats["sent"] += len(frames)
        return frames

    def rewind(self) -> None:
        """Send everything unacknowledged again, from the oldest (after a handshake)."""
        self.in_flight = 0

    def reset_tx(self) -> None:
        """Forget every queued message (the table re-sends its state after a HELLO)."""
        self.queue = []
        self.in_flight = 0

    def first_unacked(self) -> int:
        """The seq of the oldest message not yet acknowledged (or the next one)."""
        return self.queue[0][0] if self.queue else self.tx_next

    # receiving
    def receive(self, raw, now: int, linked: bool = True):
        """Handle one frame (COBS-encoded, no delimiter); see the class docstring.

        While not ``linked`` (before the handshake) reliable frames are dropped as
        ``early``: their numbering belongs to a link not yet agreed.
        """
        try:
            kind, seq, ack, payload = decode(raw)
        except FrameError:
            self.stats["bad"] += 1
            return None
        self.stats["received"] += 1
        from_peer = bool(kind & FROM_TABLE) != self.table
        if from_peer:  # our own frames echoed back prove nothing about the peer
            self.last_rx = now
        if kind not in self._theirs:
            return self._unknown(kind, seq, from_peer and linked)
        if kind != HELLO:  # a HELLO's ack belongs to the pod's previous link
            self.acked(ack, now)
        if not kind & RELIABLE:
            return kind, payload
        if not linked:
            self.stats["early"] += 1
            return None
        return self._in_order(kind, seq, payload)

    def _in_order(self, kind: int, seq: int, payload):
        self.ack_due = True  # duplicates and gaps are acknowledged too: it stops resends
        ahead = seq_diff(seq, self.rx_expected)
        if ahead < 0:
            self.stats["duplicate"] += 1
            return None
        if ahead > 0:
            self.stats["out_of_order"] += 1
            return None
        self.rx_expected = (self.rx_expected + 1) & 0xFFFF
        return kind, payload

    def _unknown(self, kind: int, seq: int, in_sequence: bool):
        self.stats["unknown"] += 1
        # A reliable message of a newer protocol still takes its place in the sequence,
        # or an older peer would resend it forever; only its content is ignored.
        if kind & RELIABLE and in_sequence:
            self._in_order(kind, seq, b"")
        return None

    def acked(self, ack: int, now: int) -> None:
        """Drop the queued messages up to and including ``ack``."""
        if not self.queue or seq_diff(ack, self.tx_next) >= 0:
            return  # nothing waits, or an ack of something never sent
        count = seq_diff(ack, self.queue[0][0]) + 1
        if count <= 0:
            return
        count = min(count, len(self.queue))
        del self.queue[:count]
        self.in_flight = max(0, self.in_flight - count)
        self.sent_at = now

    def silent_for(self, now: int) -> int:
        """Milliseconds since the last valid frame (a large number if none yet)."""
        if self.last_rx is None:
            return 1 << 30
        return now - self.last_rx

    def dropped(self) -> int:
        """Frames that arrived and were thrown away, all reasons together."""
        total = 0
        for name in DROPPED:
            total += self.stats[name]
        return total
