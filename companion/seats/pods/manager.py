"""All the pods of a table: scan for ports, open them, bind each pod to its seat by its
unique id (a pod nobody names gets a screen saying so), report them."""
from __future__ import annotations

import logging
import threading
from typing import Any, Callable, Iterable

from companion.engine.display import Display
from companion.errors import SeatError
from companion.seats import podlink
from companion.seats.pods.binding import PodBinding, PodStatus, monotonic_ms
from companion.seats.pods.connection import PodConnection, SerialTransport, Transport
from companion.seats.pods.discovery import find_pods
from companion.seats.screen import ScreenState, render
from companion.seats.seat import CONTRAST
from companion.seats.ssd1306 import pack_pages

log = logging.getLogger(__name__)

SCAN_SECONDS = 1.0  #: how often the manager looks for new ports
REOPEN_MS = 5000  #: a port that would not open is tried again after this long


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
        out = [b.status(now) for b in bindings]
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


def pod_report(hardware: Any) -> list[dict[str, Any]]:
    """Each pod of an open table (``open_seats()``'s result) as a plain dict: id, seat,
    port, firmware, connected, dropped, state... Empty for a table without pods."""
    manager = getattr(hardware, "pods", None)
    if manager is None:
        return []
    return [status.to_dict() for status in manager.report()]
