"""The pod's side of the link: hello, button events, screen pages, LED, waiting screen.

Hardware comes in from outside (podhw.py builds it on a Pico; tests hand in stand-ins),
so the same class runs on the pod, under MicroPython in the tests and as the fake pod
of the Pi-side tests:

``port``    ``read()`` -> the bytes waiting (b"" when none), ``write(data)``
``screen``  ``page(i, data, column)``, ``contrast(level)``, ``text(lines)``, ``flush(now)``
``keys``    ``events(now)`` -> [(button, kind)], ``configure(hold_ms, bounce_ms)``
``led``     a ``Led`` (below) or anything with ``mode(m)`` and ``update(now)``

Until the table answers HELLO with WELCOME the pod shows "waiting for the table" and
keeps its button events queued; after WELCOME the table sends its whole state (setup,
LED, contrast, all eight pages) and every queued event goes out. Nothing from the table
for ``TIMEOUT_MS`` (or a BYE) means the table is gone: back to waiting, events still
queued, and the next WELCOME acknowledges what the table already has.
"""
import podlink
from keys import HOLD, PRESS, RELEASE

WAITING_CONTRAST = 0xCF


class Led:
    """An LED on ``pin`` (``value(v)``; None: no LED), off, on or blinking 0.5 s / 0.5 s."""

    def __init__(self, pin=None):
        self.pin = pin
        self.state = 0
        self.lit = None

    def mode(self, state: int) -> None:
        self.state = state

    def update(self, now: int) -> None:
        lit = self.state == 1 or (self.state == 2 and (now // 500) % 2 == 0)
        if lit != self.lit:
            self.lit = lit
            if self.pin is not None:
                self.pin.value(1 if lit else 0)


class Pod:
    """One pod. ``uid``: ``machine.unique_id()``; ``session``: random per boot."""

    def __init__(self, port, screen, keys, led, uid, session: int, seat: int = 0,
                 firmware: str = podlink.FIRMWARE_VERSION):
        self.port = port
        self.screen = screen
        self.keys = keys
        self.led = led
        self.uid = bytes(uid)
        self.session = session & 0xFFFFFFFF
        self.seat = seat
        self.firmware = firmware
        self.link = podlink.Link("pod")
        self.link.make_ping = self._counters
        self.deframer = podlink.Deframer()
        self.linked = False
        self.next_hello = 0
        self.owed = [0, 0, 0]  # queue slots kept for each pressed button's hold and release
        self.skipping = [False, False, False]  # a press did not fit: drop its hold, release
        self.show_waiting()

    # the main loop calls this, over and over
    def step(self, now: int) -> bool:
        """Do one round of work; False when mpremote asked for the REPL."""
        data = self.port.read()
        if data:
            for raw in self.deframer.feed(data, now):
                self._on_frame(raw, now)
            if self.deframer.interrupted():
                return False
        else:
            self.deframer.expire(now)
        for button, kind in self.keys.events(now):
            self._queue(button, kind)
        if self.linked and self.link.silent_for(now) >= podlink.TIMEOUT_MS:
            self._unlink(now, True)
        self._transmit(now)
        self.screen.flush(now)
        self.led.update(now)
        return True

    def show_waiting(self) -> None:
        """The screen of a pod without a table: who it is and what it waits for."""
        seat = "Seat %d" % self.seat if self.seat else "no seat set"
        self.screen.text(("Mutiny Table", "", seat, "waiting for", "the table...", "",
                          podlink.to_hex(self.uid), "fw " + self.firmware))
        self.screen.contrast(WAITING_CONTRAST)
        self.led.mode(0)

    # frames from the table
    def _on_frame(self, raw, now: int) -> None:
        got = self.link.receive(raw, now, self.linked)
        if got is None:
            return
        kind, payload = got
        try:
            self._handle(kind, payload, now)
        except podlink.FrameError:
            self.link.stats["malformed"] += 1

    def _handle(self, kind: int, payload, now: int) -> None:
        if kind == podlink.WELCOME:
            self._welcome(podlink.unpack_welcome(payload))
        elif kind == podlink.ASK:
            self._unlink(now, False)
        elif kind == podlink.BYE:
            self._unlink(now, True)
        elif kind == podlink.PAGE:
            index, column, data = podlink.unpack_page(payload)
            self.screen.page(index, data, column)
        elif kind == podlink.LED:
            self.led.mode(podlink.unpack_byte(payload, len(podlink.LED_MODES)))
        elif kind == podlink.CONTRAST:
            self.screen.contrast(podlink.unpack_byte(payload))
        elif kind == podlink.SETUP:
            hold_ms, bounce_ms = podlink.unpack_setup(payload)
            self.keys.configure(hold_ms, bounce_ms)

    def _welcome(self, welcome: dict) -> None:
        if welcome["session"] != self.session or welcome["protocol"] != podlink.PROTOCOL:
            # An answer to an older HELLO of ours, or a table speaking another protocol.
            self.link.stats["malformed"] += 1
            return
        self.linked = True
        self.link.rx_expected = welcome["next"]
        self.link.rewind()  # the WELCOME's ack already dropped what the table has

    def _unlink(self, now: int, waiting: bool) -> None:
        self.linked = False
        self.next_hello = now  # say HELLO at once
        if waiting:
            self.show_waiting()

    # button events
    def _queue(self, button: int, kind: int) -> None:
        if kind == PRESS:
            free = self.link.limit - len(self.link.queue) - sum(self.owed)
            # A press is only taken with room for its hold and release: the table must
            # never see a button go down that never comes up.
            self.skipping[button] = free < 3
            if self.skipping[button]:
                self.link.stats["lost"] += 1
                return
            self.owed[button] = 2
        elif self.skipping[button]:
            self.skipping[button] = kind != RELEASE
            self.link.stats["lost"] += 1
            return
        else:
            self.owed[button] = 1 if kind == HOLD else 0
        self.link.send(podlink.BUTTON, podlink.pack_button(button, kind))

    # frames to the table
    def _transmit(self, now: int) -> None:
        if self.linked:
            for frame in self.link.output(now):
                self.port.write(frame)
        elif now >= self.next_hello:
            hello = podlink.pack_hello(self.session, self.link.first_unacked(), self.seat,
                                       self.uid, self.firmware)
            self.port.write(self.link.control(podlink.HELLO, hello, now))
            self.next_hello = now + podlink.HELLO_MS

    def _counters(self) -> bytes:
        stats, deframer = self.link.stats, self.deframer
        noise = deframer.oversize + deframer.truncated
        return podlink.pack_counters({
            "bad": stats["bad"] + noise, "unknown": stats["unknown"],
            "dropped": self.link.dropped() + noise, "retransmitted": stats["retransmitted"],
            "lost": stats["lost"], "screen_errors": getattr(self.screen, "errors", 0)})
