"""Seat pods on the Pi side: find them on USB, bind them to seats, keep their links up.

A pod (firmware/, a Pico with the seat's buttons, OLED and LED) reports raw button
events and shows the pages it is sent; all the seat logic stays here, in the very same
``Seat`` a wired seat uses. ``PodSeat`` is that ``Seat`` given a button source and a
screen device backed by the link:

* ``PodButtons`` fire ``when_pressed`` / ``when_held`` / ``when_released`` as the pod's
  BUTTON messages arrive (the pod times holds and debounces, so a slow link cannot turn
  a tap into a hold);
* ``PodScreen`` packs each frame ``Seat`` renders into SSD1306 pages; the link sends
  the pages the pod does not have yet;
* ``PodLed`` turns ``on()`` / ``blink()`` / ``off()`` into LED messages.

``PodManager`` scans for ports (``find_pods()``: the Pico's MicroPython USB id, and
``/dev/serial/by-id``), opens each with pyserial and runs one thread per port. A pod
says HELLO with its unique id; the manager hands the connection the ``PodBinding`` of
the seat whose config names that id (an id nobody names gets a screen saying so). The
binding outlives connections: it keeps what the seat wants shown and how far the pod's
button events got, so a pod unplugged and plugged back in is redrawn in full and none
of its presses is lost or taken twice. The protocol is ``podlink`` (docs/pods.md).
"""
from __future__ import annotations

import glob
import logging
import os
import select
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable, Iterable, Protocol

from PIL import Image

from companion.engine.display import Display
from companion.errors import SeatError

from . import podlink
from .buttons import ROLES, ButtonState, Clock, _caller
from .screen import HEIGHT, WIDTH, ScreenState, render
from .seat import CONTRAST, DIM_CONTRAST, Seat
from .ssd1306 import pack_pages

log = logging.getLogger(__name__)

#: USB ids of a Pico running MicroPython: Raspberry Pi's vendor id, MicroPython's CDC.
PICO_VID = 0x2E8A
MICROPYTHON_PID = 0x0005
BY_ID = "/dev/serial/by-id"
SCAN_SECONDS = 1.0  #: how often the manager looks for new ports
ASK_MS = 2000  #: how often a port that has not said HELLO is asked again
REOPEN_MS = 5000  #: a port that would not open is tried again after this long
WAIT_SECONDS = 0.05  #: longest sleep of a port's thread (retransmit and keepalive timers)
WRITE_TIMEOUT = 0.5  #: a pod that stops reading must not hang its thread
LED_MODES = {"off": 0, "on": 1, "blink": 2}


def monotonic_ms() -> int:
    """The link's clock: whole milliseconds that only go forward."""
    return int(time.monotonic() * 1000)


# -- finding pods -------------------------------------------------------------------------

def find_pods(comports: Callable[[], Iterable[Any]] | None = None,
              by_id: str = BY_ID) -> list[str]:
    """Serial ports that look like a Pico running MicroPython, stable names first.

    A port counts when pyserial's ``list_ports`` gives it the Pico's USB id (2E8A:0005)
    or its ``/dev/serial/by-id`` name says MicroPython. Where a ``by-id`` link exists it
    is returned instead of ``/dev/ttyACMn`` (it names the board, and survives a re-plug
    onto another USB socket).
    """
    if comports is None:
        from serial.tools import list_ports
        comports = list_ports.comports
    devices = [port.device for port in comports()
               if port.vid == PICO_VID and port.pid == MICROPYTHON_PID]
    stable: dict[str, str] = {}
    for link in sorted(glob.glob(os.path.join(by_id, "*"))):
        real = os.path.realpath(link)
        if real in devices or "MicroPython" in os.path.basename(link):
            stable.setdefault(real, link)
    names = [stable.pop(os.path.realpath(device), device) for device in devices]
    return names + sorted(stable.values())


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


# -- the seat's hardware, backed by the link ---------------------------------------------

class PodButton(ButtonState):
    """One pod button: the part of ``SeatButton``'s interface that ``Seat`` uses.

    Events come from the pod already debounced and with holds timed; ``feed()`` ignores
    the ones that make no sense in the current state (a hold while up, a second press).
    """

    def __init__(self, name: str):
        self.name = name
        self.when_pressed: Callable[..., Any] | None = None
        self.when_held: Callable[..., Any] | None = None
        self.when_released: Callable[..., Any] | None = None
        self._pressed = self._held = self._was_held = self._closed = False
        self._changed = threading.Condition()

    def feed(self, kind: str) -> None:
        """Apply one event (``press``, ``hold`` or ``release``) and fire its callback."""
        with self._changed:
            handler = self._apply(kind)
            self._changed.notify_all()
        call = _caller(handler, self)
        if call is not None:
            try:
                call()
            except Exception:  # one bad handler must not kill the pod's thread
                log.exception("pod button %s callback failed", self.name)

    def _apply(self, kind: str) -> Callable[..., Any] | None:
        if self._closed:
            return None
        if kind == "press" and not self._pressed:
            self._pressed, self._held = True, False
            return self.when_pressed
        if kind == "hold" and self._pressed and not self._held:
            self._held = True
            return self.when_held
        if kind == "release" and self._pressed:
            self._pressed, self._was_held, self._held = False, self._held, False
            return self.when_released
        return None

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()


class PodButtons:
    """A pod's three buttons, like ``SeatButtons``: ``previous``, ``select``, ``next``."""

    def __init__(self) -> None:
        self.previous, self.select, self.next = (PodButton(role) for role in ROLES)

    def __iter__(self):
        return iter((self.previous, self.select, self.next))

    def __getitem__(self, role: str) -> PodButton:
        if role not in ROLES:
            raise KeyError(f"no button {role!r}; buttons are {', '.join(ROLES)}")
        return getattr(self, role)

    def feed(self, button: int, kind: int) -> None:
        """One BUTTON message: ``button`` and ``kind`` are podlink's numbers."""
        self[ROLES[button]].feed(podlink.KINDS[kind])

    def cut_off(self) -> None:
        """The pod restarted with buttons down: let them go without confirming anything.

        The press was never finished, so it must not act: the release is preceded by a
        hold (a held select only ends the private view, it never confirms).
        """
        for button in self:
            if button.is_pressed:
                button.feed("hold")
                button.feed("release")

    def close(self) -> None:
        for button in self:
            button.close()


class PodScreen:
    """The seat's "display device": frames become pages for the pod (luma's interface)."""

    mode = "1"

    def __init__(self, binding: "PodBinding"):
        self.binding = binding
        self.size = (WIDTH, HEIGHT)
        self.width, self.height = self.size

    def display(self, image: Image.Image) -> None:
        self.binding.set_pages(pack_pages(image, podlink.PAGES))

    def contrast(self, level: int) -> None:
        self.binding.set_contrast(level)

    def invalidate(self) -> None:
        """Send every page again (the seat calls this after a failed update)."""
        self.binding.resend()

    def cleanup(self) -> None:
        """Nothing to release: the manager closes the link."""


class PodLed:
    """The pod's LED, the part of gpiozero's ``LED`` that ``Seat`` uses."""

    def __init__(self, binding: "PodBinding"):
        self.binding = binding

    def on(self) -> None:
        self.binding.set_led("on")

    def off(self) -> None:
        self.binding.set_led("off")

    def blink(self, on_time: float = 0.5, off_time: float = 0.5) -> None:
        """Blinking is the pod's own 0.5 s / 0.5 s; the times are not sent."""
        self.binding.set_led("blink")

    def close(self) -> None:
        """Nothing to release."""


# -- what the table knows of one pod ---------------------------------------------------

class PodBinding:
    """One pod id and what the table wants it to show; outlives its connections.

    ``seat`` is the seat number the table config gives the id (None: a pod nobody
    named). ``session`` and ``rx_expected`` remember how far the pod's button events
    got, so a re-plugged pod's resent events are recognised and taken once.
    """

    def __init__(self, uid: str, seat: int | None = None, *, hold_ms: int = 600,
                 bounce_ms: int = 30, contrast: int = CONTRAST):
        self.uid = uid
        self.seat = seat
        self.buttons = PodButtons()
        self.lock = threading.Lock()
        self.pages: list[bytes] = [bytes(podlink.PAGE_BYTES)] * podlink.PAGES
        self.led = 0
        self.contrast = contrast
        self.setup = (hold_ms, bounce_ms)
        self.resends = 0  # bumped by resend(): connections then send every page again
        self.session: int | None = None
        self.rx_expected = 0
        self.connection: PodConnection | None = None
        self.port: str | None = None
        self.firmware: str | None = None
        self.installed_seat: int | None = None
        self.pod_counters: dict[str, int] = {}
        self.connects = 0
        #: waiting (never linked), linked, silent (stopped answering) or unplugged
        self.state = "waiting"
        self.totals: dict[str, int] = {name: 0 for name in podlink.STATS}
        self.clock: Callable[[], int] = monotonic_ms  # the manager's, for reports

    def set_pages(self, pages: list[bytes]) -> None:
        with self.lock:
            self.pages = list(pages)
        self._wake()

    def set_contrast(self, level: int) -> None:
        with self.lock:
            self.contrast = level
        self._wake()

    def set_led(self, state: str) -> None:
        with self.lock:
            self.led = LED_MODES.get(state, 0)
        self._wake()

    def resend(self) -> None:
        with self.lock:
            self.resends += 1
        self._wake()

    def wanted(self) -> tuple[tuple[int, int], int, int, list[bytes], int]:
        """(setup, contrast, led, pages, resends) as one consistent snapshot."""
        with self.lock:
            return self.setup, self.contrast, self.led, list(self.pages), self.resends

    def _wake(self) -> None:
        connection = self.connection
        if connection is not None:
            connection.wake()


@dataclass(frozen=True)
class PodStatus:
    """One line of ``pod_report()``: for ``mutiny doctor`` and the host page."""

    id: str | None  #: the pod's unique id (None: a port that never said HELLO)
    seat: int | None  #: the seat the table config gives it (None: not in the config)
    port: str | None  #: where it is plugged in now (None: not plugged in)
    firmware: str | None  #: the version its HELLO gave
    connected: bool  #: linked and heard from within the last few seconds
    dropped: int  #: frames thrown away, both directions (corrupt, unknown, repeated...)
    #: linked, silent, unplugged, waiting (never seen), no-hello, "cannot open: ..." or
    #: "protocol N ..." (a port whose pod speaks another protocol)
    state: str
    installed_seat: int | None = None  #: the seat `mutiny pod install --seat` wrote
    connects: int = 0  #: links made since the table started (re-plugs show here)
    details: dict[str, Any] = field(default_factory=dict)  #: counters, each side

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# -- one open port -------------------------------------------------------------------------

class PodConnection:
    """One open serial port: the link's table end and its handshake.

    ``pump(now)`` does one round without blocking (read, handle, send), so tests can
    drive it with their own clock; ``run()`` is the port's thread, pumping whenever
    bytes arrive, the seat changes (``wake()``) or a timer may be due.
    """

    def __init__(self, name: str, transport: Transport, manager: "PodManager",
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
        self._sent: dict[str, Any] = {}
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
        items = [("setup", podlink.SETUP, setup, lambda _: podlink.pack_setup(*setup)),
                 ("contrast", podlink.CONTRAST, contrast, lambda _: bytes((contrast,))),
                 ("led", podlink.LED, led, lambda _: bytes((led,)))]
        items += [(index, podlink.PAGE, data,
                   lambda before, i=index, d=data: page_update(i, before, d))
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

    def status(self, now: int) -> PodStatus:
        """A port with no pod bound: said no HELLO yet (or went silent)."""
        state = "no-hello"
        if self.protocol_mismatch is not None:
            state = f"protocol {self.protocol_mismatch} (the table speaks {podlink.PROTOCOL})"
        return PodStatus(id=None, seat=None, port=self.name, firmware=None, connected=False,
                         dropped=self.link.dropped() + _noise(self.deframer), state=state,
                         details={"table": dict(self.link.stats)})


def page_update(index: int, before: bytes | None, page: bytes) -> bytes:
    """The PAGE payload taking a pod from ``before`` to ``page``: the span of columns
    that differ, or the whole page when the pod's copy is unknown (``None``)."""
    if before is None:
        return podlink.pack_page(index, page)
    changed = [column for column in range(len(page)) if before[column] != page[column]]
    first, last = changed[0], changed[-1]
    return podlink.pack_page(index, page[first:last + 1], first)


def _noise(deframer: podlink.Deframer) -> int:
    return deframer.oversize + deframer.truncated


# -- all the pods of a table ---------------------------------------------------------------

class PodManager:
    """Finds pods, opens their ports and binds each to its seat by its unique id.

    ``ports`` lists candidate port paths (default ``find_pods``), ``opener`` opens one
    (default ``SerialTransport``), ``clock`` gives link milliseconds. ``start()`` runs
    the scanner thread; ``scan()`` and ``attach()`` are the same steps by hand.
    """

    def __init__(self, ports: Callable[[], Iterable[str]] = find_pods, *,
                 opener: Callable[[str], Transport] = SerialTransport,
                 scan_seconds: float = SCAN_SECONDS,
                 clock: Callable[[], int] = monotonic_ms):
        self.ports = ports
        self.opener = opener
        self.scan_seconds = scan_seconds
        self.clock = clock
        self.bindings: dict[str, PodBinding] = {}
        self.strangers: dict[str, PodBinding] = {}  # pods no seat names
        self.connections: dict[str, PodConnection] = {}
        self.failures: dict[str, tuple[int, str]] = {}  # port -> (retry at, why)
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._scanner: threading.Thread | None = None
        self._closed = False

    # the table config
    def bind(self, uid: str, seat: int, *, hold_ms: int = 600, bounce_ms: int = 30,
             contrast: int = CONTRAST) -> PodBinding:
        """The binding of the seat whose config says ``pod = uid``."""
        key = _key(uid)
        with self._lock:
            if key in self.bindings:
                raise SeatError(f"seats {self.bindings[key].seat} and {seat} both name pod "
                                f"'{uid}' (ids ignore case). Fix: give each seat its own pod")
            binding = PodBinding(key, seat, hold_ms=hold_ms, bounce_ms=bounce_ms,
                                 contrast=contrast)
            binding.clock = self.clock
            self.bindings[key] = binding
            return binding

    # ports
    def start(self) -> None:
        """Scan now, then every ``scan_seconds`` on a thread of its own (idempotent)."""
        with self._lock:
            if self._scanner is not None or self._closed:
                return
            self._scanner = threading.Thread(target=self._scan_loop, name="pod-scan",
                                             daemon=True)
        self._scanner.start()

    def _scan_loop(self) -> None:
        while not self._stop.is_set():
            self.scan()
            self._stop.wait(self.scan_seconds)

    def scan(self, threads: bool = True) -> list[PodConnection]:
        """Open the ports not open yet; returns the new connections."""
        try:
            names = list(self.ports())
        except Exception:  # a udev hiccup must not stop the scanning
            log.exception("listing pod ports failed")
            return []
        opened = []
        now = self.clock()
        for name in names:
            with self._lock:
                if self._closed or name in self.connections:
                    continue
                retry = self.failures.get(name)
                if retry is not None and now < retry[0]:
                    continue
            connection = self._open(name, now)
            if connection is None:
                continue
            with self._lock:
                closed = self._closed
            if closed:  # close() ran while the port was opening
                connection.close()
                continue
            opened.append(connection)
            if threads:
                self._run(connection)
        return opened

    def _open(self, name: str, now: int) -> PodConnection | None:
        try:
            transport = self.opener(name)
        except Exception as exc:  # pyserial's errors, permissions, a port in use
            reason = _open_failure(exc)
            if self.failures.get(name, (0, ""))[1] != reason:
                log.warning("cannot open pod port %s: %s", name, reason)
            self.failures[name] = (now + REOPEN_MS, reason)
            return None
        self.failures.pop(name, None)
        return self.attach(name, transport)

    def attach(self, name: str, transport: Transport) -> PodConnection:
        """Take an open transport as the pod port ``name`` (no thread: see ``pump``)."""
        connection = PodConnection(name, transport, self, self.clock)
        with self._lock:
            self.connections[name] = connection
        return connection

    def _run(self, connection: PodConnection) -> None:
        connection.thread = threading.Thread(target=connection.run, daemon=True,
                                             name=f"pod {connection.name}")
        connection.thread.start()

    # called by connections
    def claim(self, uid: str, connection: PodConnection) -> PodBinding:
        """A HELLO: the binding for ``uid``, now served by ``connection``."""
        with self._lock:
            binding = self.bindings.get(uid) or self.strangers.get(uid)
            if binding is None:
                binding = self.strangers[uid] = _stranger(uid)
                log.warning("pod %s on %s is in no seat of the table config", uid,
                            connection.name)
            old, binding.connection = binding.connection, connection
            if old is not connection:
                binding.connects += 1
            binding.state = "linked"
        connection.binding = binding
        if old is not None and old is not connection:
            # The pod moved ports: the old one is a dead end (its thread closes it).
            if old.thread is not None:
                old.stop(bye=False)
            else:
                old.close()
        return binding

    def release(self, binding: PodBinding, connection: PodConnection, state: str) -> None:
        """``connection`` no longer serves ``binding``: the pod went ``state``."""
        with self._lock:
            if binding.connection is connection:
                binding.connection = None
                binding.state = state
                if state != "silent":  # a silent pod's port is still the place to look
                    binding.port = None

    def forget(self, connection: PodConnection) -> None:
        with self._lock:
            if self.connections.get(connection.name) is connection:
                del self.connections[connection.name]

    # reporting and closing
    def report(self) -> list[PodStatus]:
        """Every pod of the config, every stranger and every silent port."""
        now = self.clock()
        with self._lock:
            bindings = list(self.bindings.values()) + list(self.strangers.values())
            # Ports no pod has linked on (a silent pod is its binding's line already).
            loose = [c for c in self.connections.values()
                     if c.binding is None and not c.was_bound]
            failures = dict(self.failures)
        out = [_binding_status(b, now) for b in bindings]
        out += [c.status(now) for c in loose]
        out += [PodStatus(id=None, seat=None, port=name, firmware=None, connected=False,
                          dropped=0, state=f"cannot open: {why}")
                for name, (_, why) in sorted(failures.items())]
        return out

    def close(self) -> None:
        """Say BYE to every pod, close every port, stop the scanner. Idempotent."""
        with self._lock:
            self._closed = True
            connections = list(self.connections.values())
        self._stop.set()
        for connection in connections:
            if connection.thread is not None:
                connection.stop()
            else:
                connection.close(bye=True)
        me = threading.current_thread()
        for connection in connections:
            if connection.thread is not None and connection.thread is not me:
                connection.thread.join(timeout=2)
        scanner = self._scanner
        if scanner is not None and scanner is not threading.current_thread():
            scanner.join(timeout=2)


def _key(uid: str) -> str:
    return uid.strip().lower()


def _open_failure(exc: Exception) -> str:
    text = str(exc) or type(exc).__name__
    if isinstance(exc, PermissionError) or "ermission denied" in text:
        return (f"{text}. Fix: add the user to the dialout group "
                "(sudo adduser $USER dialout) and log in again")
    return text


def _stranger(uid: str) -> PodBinding:
    """A pod nobody named: its screen says what to write in the table config."""
    binding = PodBinding(uid)
    lines = ("Its id is not in the", "table config:", uid[:21], 'pod = "<this id>"',
             "in its [[seat]].")
    display = Display(title="Unknown pod", lines=lines)
    binding.pages = pack_pages(render(ScreenState("rest", display)), podlink.PAGES)
    return binding


def _binding_status(binding: PodBinding, now: int) -> PodStatus:
    connection = binding.connection
    here = dict(binding.totals)
    if connection is not None:
        for name, value in connection.link.stats.items():
            here[name] += value
    noise = _noise(connection.deframer) if connection is not None else 0
    dropped = sum(here[name] for name in podlink.DROPPED) + noise
    dropped += binding.pod_counters.get("dropped", 0)
    linked = connection is not None and connection.binding is binding
    alive = linked and connection.link.silent_for(now) < podlink.TIMEOUT_MS
    state = "silent" if linked and not alive else binding.state
    return PodStatus(id=binding.uid, seat=binding.seat, port=binding.port,
                     firmware=binding.firmware, connected=alive, dropped=dropped, state=state,
                     installed_seat=binding.installed_seat or None, connects=binding.connects,
                     details={"table": here, "pod": dict(binding.pod_counters)})


def pod_report(hardware: Any) -> list[dict[str, Any]]:
    """Each pod of an open table (``open_seats()``'s result) as a plain dict: id, seat,
    port, firmware, connected, dropped, state... Empty for a table without pods."""
    manager = getattr(hardware, "pods", None)
    if manager is None:
        return []
    return [status.to_dict() for status in manager.report()]


# -- the seat --------------------------------------------------------------------------------

class PodSeat(Seat):
    """A ``Seat`` whose buttons, screen and LED are a pod's: the same state machine, the
    same interface for the runtime (``show``, ``show_qr``, ``when_action``...)."""

    def __init__(self, number: int, binding: PodBinding, *, clock: Clock | None = None,
                 dim_after: float = 300.0, browse_timeout: float = 4.0,
                 contrast: int = CONTRAST, dim_contrast: int = DIM_CONTRAST, name: str = ""):
        self.pod = binding
        super().__init__(number, binding.buttons, PodScreen(binding), PodLed(binding),
                         clock=clock, dim_after=dim_after, browse_timeout=browse_timeout,
                         contrast=contrast, dim_contrast=dim_contrast, name=name)

    def status(self) -> PodStatus:
        """This seat's pod, as ``pod_report()`` gives it."""
        return _binding_status(self.pod, self.pod.clock())
