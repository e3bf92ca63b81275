"""One open pod port: the byte transport and the link's table end (handshake, resends,
keepalive), pumped by a thread of its own. The frames are ``podlink``'s (docs/pods.md)."""
from __future__ import annotations

import logging
import os
import select
import threading
from functools import partial
from typing import TYPE_CHECKING, Any, Callable, Protocol

from companion.seats import podlink
from companion.seats.pods.binding import PodBinding, PodStatus

if TYPE_CHECKING:
    from companion.seats.pods.manager import PodManager

log = logging.getLogger(__name__)

ASK_MS = 2000  #: how often a port that has not said HELLO is asked again
WAIT_SECONDS = 0.05  #: longest sleep of a port's thread (retransmit and keepalive timers)
WRITE_TIMEOUT = 0.5  #: a pod that stops reading must not hang its thread


class Transport(Protocol):
    """A byte pipe to one pod: pyserial in production, a pty or memory in tests."""

    def read_available(self) -> bytes: ...
    def write(self, data: bytes) -> None: ...
    def close(self) -> None: ...


class SerialTransport:
    """A pyserial port opened non-blocking (``timeout=0``), exclusively."""

    def __init__(self, path: str):
        import serial
        self.serial = serial.Serial(path, 115200, timeout=0, write_timeout=WRITE_TIMEOUT,
                                    exclusive=True)
        self._errors = (serial.SerialException, OSError)
        self._timeout = serial.SerialTimeoutException

    def read_available(self) -> bytes:
        """Whatever has arrived; raises ``ConnectionError`` when the pod is gone."""
        try:
            return self.serial.read(4096)
        except self._errors as exc:
            raise ConnectionError(str(exc)) from exc

    def write(self, data: bytes) -> None:
        """Write a frame; a pod that stops reading costs ``WRITE_TIMEOUT``, not a hang."""
        try:
            self.serial.write(data)
        except self._timeout as exc:
            raise TimeoutError(str(exc)) from exc
        except self._errors as exc:
            raise ConnectionError(str(exc)) from exc

    def fileno(self) -> int:
        return self.serial.fileno()

    def close(self) -> None:
        try:
            self.serial.close()
        except self._errors:
            pass  # already gone with the device


class PodConnection:
    """One open serial port: the link's table end and its handshake.

    ``pump(now)`` does one round without blocking (read, handle, send), so tests can
    drive it with their own clock; ``run()`` is the port's thread, pumping whenever
    bytes arrive, the seat changes (``wake()``) or a timer may be due.
    """

    def __init__(self, name: str, transport: Transport, manager: PodManager,
                 clock: Callable[[], int]):
        self.name = name
        self.transport = transport
        self.manager = manager
        self.clock = clock
        self.link = podlink.Link("table")
        self.deframer = podlink.Deframer()
        self.binding: PodBinding | None = None
        self.was_bound = False  # a pod linked here once (silent now, if unbound)
        self.closed = False
        self.write_timeouts = 0
        self.protocol_mismatch: int | None = None
        self._next_ask = 0
        self._sent: dict[str | int, Any] = {}  # names, and pages by index
        self._stopping = False
        self._bye = False
        self._lock = threading.Lock()
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_w, False)
        self.thread: threading.Thread | None = None

    # the port's thread
    def run(self) -> None:
        try:
            while not self._stopping and not self.closed:
                self.pump(self.clock())
                if not self.closed:
                    self._wait()
        except Exception:  # a bug: say so, and let the next scan open the port afresh
            log.exception("pod port %s failed", self.name)
        finally:
            self.close(bye=self._stopping and self._bye)

    def _wait(self) -> None:
        watch = [self._wake_r]
        try:
            fileno = getattr(self.transport, "fileno", None)
            if fileno is not None:
                watch.append(fileno())
            ready, _, _ = select.select(watch, [], [], WAIT_SECONDS)
        except (OSError, ValueError):  # the port vanished under us; pump() will say so
            return
        if self._wake_r in ready:
            os.read(self._wake_r, 4096)

    def wake(self) -> None:
        """Something to send: cut the thread's sleep short (from any thread)."""
        try:
            os.write(self._wake_w, b"!")
        except (BlockingIOError, OSError):
            pass  # already awake, or closed

    def stop(self, bye: bool = True) -> None:
        """Ask the thread to close the port (saying BYE first when ``bye``)."""
        self._bye = bye
        self._stopping = True
        self.wake()

    # one round
    def pump(self, now: int) -> None:
        """Read what arrived, act on it, send what is due. Never raises for a lost pod."""
        if self.closed:
            return
        try:
            data = self.transport.read_available()
            for raw in self.deframer.feed(data, now):
                self._on_frame(raw, now)
            self._check_alive(now)
            self._sync()
            self._transmit(now)
        except ConnectionError as exc:
            log.info("pod port %s closed: %s", self.name, exc)
            self.close()

    def _on_frame(self, raw: bytes, now: int) -> None:
        got = self.link.receive(raw, now, linked=self.binding is not None)
        if self.binding is not None:
            self.binding.rx_expected = self.link.rx_expected
        if got is None:
            return
        kind, payload = got
        try:
            self._handle(kind, payload, now)
        except podlink.FrameError:
            self.link.stats["malformed"] += 1

    def _handle(self, kind: int, payload: bytes, now: int) -> None:
        if kind == podlink.HELLO:
            self._hello(podlink.unpack_hello(payload), now)
        elif self.binding is None:
            # A pod that thinks it is linked to a table that has just opened the port
            # (the table restarted): ask it to introduce itself.
            self._ask(now)
        elif kind == podlink.BUTTON:
            button, event = podlink.unpack_button(payload)
            self.binding.buttons.feed(button, event)
        elif kind == podlink.PING:
            self.binding.pod_counters = podlink.unpack_counters(payload)

    def _hello(self, hello: dict[str, Any], now: int) -> None:
        if hello["protocol"] != podlink.PROTOCOL:
            if self.protocol_mismatch != hello["protocol"]:
                log.warning("pod on %s speaks protocol %s, the table %s: reinstall its "
                            "firmware (mutiny pod install %s)", self.name, hello["protocol"],
                            podlink.PROTOCOL, self.name)
            self.protocol_mismatch = hello["protocol"]
            return
        uid = podlink.to_hex(hello["uid"])
        if self.binding is not None and self.binding.uid != uid:
            self._unbind("unplugged")  # another pod on the same port, swapped in a flash
        binding = self.manager.claim(uid, self)
        self.was_bound = True
        if binding.session != hello["session"]:
            if binding.session is not None:
                log.info("pod %s restarted", binding.uid)
            binding.session = hello["session"]
            binding.rx_expected = hello["first"]
            binding.buttons.cut_off()
        elif podlink.seq_diff(hello["first"], binding.rx_expected) > 0:
            binding.rx_expected = hello["first"]  # it holds nothing older than this
        if hello["seat"] and binding.seat and hello["seat"] != binding.seat \
                and binding.installed_seat != hello["seat"]:
            log.warning("pod %s was installed for seat %s and serves seat %s (the table "
                        "config decides)", binding.uid, hello["seat"], binding.seat)
        binding.firmware, binding.installed_seat = hello["firmware"], hello["seat"]
        binding.port = self.name
        self.link.rx_expected = binding.rx_expected
        self.link.reset_tx()
        self._sent = {}  # the pod's screen is unknown: send the whole state again
        welcome = podlink.pack_welcome(hello["session"], self.link.tx_next)
        self._send(self.link.control(podlink.WELCOME, welcome, now))

    def _check_alive(self, now: int) -> None:
        if self.binding is not None and self.link.silent_for(now) >= podlink.TIMEOUT_MS:
            log.info("pod %s on %s went silent", self.binding.uid, self.name)
            self._unbind("silent")
            self._next_ask = now

    def _sync(self) -> None:
        """Queue what the pod does not have yet, within the window: the newest wins."""
        binding = self.binding
        if binding is None:
            return
        setup, contrast, led, pages, resends = binding.wanted()
        if self._sent.get("resends") != resends:
            self._sent = {"resends": resends}
        # (what it is, its message type, the value wanted, its payload given what was sent)
        items: list[tuple[str | int, int, Any, Callable[[Any], bytes]]] = [
            ("setup", podlink.SETUP, setup, lambda _: podlink.pack_setup(*setup)),
            ("contrast", podlink.CONTRAST, contrast, lambda _: bytes((contrast,))),
            ("led", podlink.LED, led, lambda _: bytes((led,)))]
        items += [(index, podlink.PAGE, data, partial(page_update, index, page=data))
                  for index, data in enumerate(pages)]
        for key, kind, value, payload in items:
            before = self._sent.get(key)
            if before == value:
                continue
            if len(self.link.queue) >= self.link.window:
                return  # later: what changes meanwhile is sent once, as it is then
            self.link.send(kind, payload(before))
            self._sent[key] = value

    def _transmit(self, now: int) -> None:
        if self.binding is not None:
            frames = self.link.output(now)
        elif now >= self._next_ask:
            frames = [self.link.control(podlink.ASK, b"", now)]
            self._next_ask = now + ASK_MS
        else:
            frames = []
        for frame in frames:
            self._send(frame)

    def _ask(self, now: int) -> None:
        if now >= self._next_ask:
            self._send(self.link.control(podlink.ASK, b"", now))
            self._next_ask = now + ASK_MS

    def _send(self, frame: bytes) -> None:
        """Write one frame; a pod that stopped reading costs a timeout, and what it
        missed goes again (reliable frames are resent, HELLO and ASK repeated)."""
        try:
            self.transport.write(frame)
        except TimeoutError:
            self.write_timeouts += 1

    # endings
    def _unbind(self, state: str) -> None:
        binding, self.binding = self.binding, None
        if binding is None:
            return
        for name, value in self.link.stats.items():
            binding.totals[name] += value
        self.link = podlink.Link("table")  # the next HELLO starts a fresh count
        self.manager.release(binding, self, state)

    def close(self, bye: bool = False) -> None:
        """Close the port (a BYE first when ``bye``: the pod shows "waiting" at once)."""
        with self._lock:
            if self.closed:
                return
            self.closed = True
        if bye and self.binding is not None:
            try:
                self.transport.write(self.link.control(podlink.BYE, b"", self.clock()))
            except (ConnectionError, TimeoutError):
                pass
        self._unbind("unplugged")
        self.transport.close()
        self.manager.forget(self)
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass

    def noise(self) -> int:
        """Bytes the deframer threw away: frames too long, or cut short."""
        return self.deframer.oversize + self.deframer.truncated

    def status(self, now: int) -> PodStatus:
        """A port with no pod bound: said no HELLO yet (or went silent)."""
        state = "no-hello"
        if self.protocol_mismatch is not None:
            state = f"protocol {self.protocol_mismatch} (the table speaks {podlink.PROTOCOL})"
        return PodStatus(id=None, seat=None, port=self.name, firmware=None, connected=False,
                         dropped=self.link.dropped() + self.noise(), state=state,
                         details={"table": dict(self.link.stats)})


def page_update(index: int, before: bytes | None, page: bytes) -> bytes:
    """The PAGE payload taking a pod from ``before`` to ``page``: the span of columns
    that differ, or the whole page when the pod's copy is unknown (``None``)."""
    if before is None:
        return podlink.pack_page(index, page)
    changed = [column for column in range(len(page)) if before[column] != page[column]]
    first, last = changed[0], changed[-1]
    return podlink.pack_page(index, page[first:last + 1], first)
