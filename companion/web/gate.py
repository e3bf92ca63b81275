"""The server's door: no thread of the pool waits on a slow client.

cheroot hands a connection to a thread of its pool as soon as a byte of a request
arrives, and that thread then reads the rest: a client sending its request one byte
every few seconds (or a ``Content-Length`` larger than what it sends) holds a thread for
as long as it likes, and sixty of them hold every thread the players need. The gate
stands in front of the pool:

- A request waits in the gate, off the pool, until the whole of it is in the kernel's
  buffer (its head and its body, however framed), looked at with ``MSG_PEEK`` so
  nothing is consumed, and judged strictly (:mod:`companion.web.framing`): a request
  whose end could be read two ways (``Content-Length: +500``, two that disagree, one
  with chunks, a coding besides chunked, a malformed chunk) is refused ``400``, ``413``
  or ``501`` there. Only a whole request goes on, and its thread reads exactly what was
  judged: it never waits on the client.
- A request not whole after :data:`REQUEST_SECONDS` gets ``408``.
- Each refusal is the API's JSON under ``/api/`` (:func:`framing.answer`); its
  connection stops reading and closes once the client has taken the answer (or after
  :data:`LINGER_SECONDS`), so an answer is never lost to a reset. Nothing is logged.
- Each client address holds :data:`CONNECTIONS_PER_CLIENT` connections at most; more
  are answered ``503`` and closed at once.
- cheroot's own refusals, should a request the gate let in still displease it, are
  shaped the same way (:class:`GatedRequest`).
"""
from __future__ import annotations

import logging
import select
import socket
import threading
import time
from typing import Any, Callable

from cheroot import errors
from cheroot.server import HTTPConnection, HTTPRequest

from companion.web import framing
from companion.web.framing import HEAD_BYTES

log = logging.getLogger(__name__)

#: Seconds a request may take to arrive whole, head and body.
REQUEST_SECONDS = 10.0
#: Open connections one client address may hold (a phone uses three or four).
CONNECTIONS_PER_CLIENT = 24
#: How often waiting requests are looked at again where there is no epoll.
LOOK_SECONDS = 0.01
#: Seconds a refused connection waits for its client to close (reading what it sends).
LINGER_SECONDS = 2.0
#: Bytes a refused connection reads at most before closing anyway.
LINGER_BYTES = 1 << 20

__all__ = ["HEAD_BYTES", "Gate", "GatedRequest", "CountedConnection", "ClientCount"]


def arrived(conn: Any, size: int) -> tuple[bytes, bool]:
    """What has arrived on ``conn`` so far, from the start of its next request, without
    taking any of it: what cheroot's reader holds already and what waits in the
    kernel; and whether the client has closed (or the socket broke) after it."""
    held = conn.rfile.peek(0) if conn.rfile.has_data() else b""  # (no read: it has data)
    if not _ready(conn.socket, select.POLLIN):
        return held, False
    try:
        more = conn.socket.recv(size - len(held), socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except BlockingIOError:
        return held, False
    except OSError:
        return held, True
    return held + more, not more


def _ready(sock: socket.socket, event: int) -> bool:
    """Would reading (``POLLIN``) or writing (``POLLOUT``) ``sock`` go through at once?
    (Asked first because a socket with a timeout waits for that before it tries, even
    with ``MSG_DONTWAIT``; poll, unlike select, takes any descriptor number. A closed or
    broken socket counts as ready: the call then fails at once.)"""
    poller = select.poll()
    poller.register(sock, event)
    return bool(poller.poll(0))


def _drained(sock: socket.socket) -> bool:
    """Read and drop what ``sock`` has received: True once the client has closed (or
    sent more than a refused request should), False while it may send more."""
    for _ in range(LINGER_BYTES // 65536):
        if not _ready(sock, select.POLLIN):
            return False
        try:
            if not sock.recv(65536, socket.MSG_DONTWAIT):
                return True
        except BlockingIOError:
            return False
        except OSError:
            return True
    return True


def _send_once(sock: socket.socket, data: bytes) -> None:
    """Send a short answer without ever blocking (a client not reading loses it)."""
    if not _ready(sock, select.POLLOUT):
        return
    try:
        sock.send(data, socket.MSG_DONTWAIT)
    except OSError:
        pass


_GONE = framing.Verdict("gone")


class Gate:
    """Holds each connection until its request is whole, then calls ``dispatch``.

    Waiting connections are watched with an edge-triggered epoll (Linux): the gate wakes
    when more of a request arrives, never for bytes it has seen already, so a request
    sent in two segments goes on the moment its second arrives. Elsewhere it looks
    every :data:`LOOK_SECONDS`."""

    def __init__(self, dispatch: Callable[[Any], None], body_limit: int):
        self._dispatch = dispatch
        self._peek_size = HEAD_BYTES + body_limit + 64
        self._body_limit = body_limit
        self._waiting: dict[int, tuple[Any, float]] = {}  # fd -> (connection, since)
        self._closing: dict[int, tuple[Any, float]] = {}  # fd -> (connection, until)
        self._lock = threading.Lock()
        self._epoll = select.epoll() if hasattr(select, "epoll") else None
        self._bell, self._ringer = socket.socketpair()  # wakes the gate to stop
        if self._epoll is not None:
            self._epoll.register(self._bell.fileno(), select.EPOLLIN)
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="http-gate", daemon=True)
        self._thread.start()

    def offer(self, conn: Any) -> None:
        """A connection with something to read: on to the pool if its request is whole,
        refused if it never will be, else wait here."""
        verdict = self._look(conn)
        if verdict.action != "wait":
            self._settle(conn, verdict)
            return
        self._ask_for_body(conn, verdict)
        fd = conn.socket.fileno()
        with self._lock:
            self._waiting[fd] = (conn, time.monotonic())
        self._watch(fd)

    def _look(self, conn: Any) -> framing.Verdict:
        """The verdict on what ``conn`` has sent (action "gone": the client left before
        sending a whole request)."""
        data, ended = arrived(conn, self._peek_size)
        verdict = framing.judge(data, self._body_limit) if data else framing.WAIT
        return _GONE if ended and verdict.action == "wait" else verdict

    def _settle(self, conn: Any, verdict: framing.Verdict) -> None:
        """Act on a verdict that ends the wait (``conn`` is off the waiting list)."""
        if verdict.action == "go":
            self._dispatch(conn)
        elif verdict.action == "refuse":
            self.refuse(conn, verdict.status, verdict.message, verdict.target)
        else:
            conn.close()  # gone: nothing to answer

    @staticmethod
    def _ask_for_body(conn: Any, verdict: framing.Verdict) -> None:
        if verdict.expects_continue and not getattr(conn, "_continued", 0):
            # The client waits to be asked for its body (curl does, past 1 KB): ask here,
            # so the body too arrives before a thread takes the request. (cheroot asks
            # again when it reads the head; a client takes any number of 100s.)
            conn._continued = 1
            _send_once(conn.socket, b"HTTP/1.1 100 Continue\r\n\r\n")

    def refuse(self, conn: Any, status: int, message: str, target: bytes | None) -> None:
        """Answer ``status`` (the API's JSON when ``target`` is under ``/api/``) and
        close once the client has taken it. Never blocks; reads nothing it keeps."""
        sock = conn.socket
        _send_once(sock, framing.answer(status, message, target))
        try:
            sock.shutdown(socket.SHUT_WR)  # the answer, then our end of the stream
        except OSError:
            pass
        if _drained(sock):
            conn.close()
            return
        # Closing with unread bytes would reset the connection, and the client could
        # lose the answer before reading it: read (and drop) what it still sends, a
        # little while, then close.
        fd = sock.fileno()
        with self._lock:
            self._closing[fd] = (conn, time.monotonic() + LINGER_SECONDS)
        self._watch(fd)

    def _watch(self, fd: int) -> None:
        if self._epoll is not None:
            # (an fd already readable when added is reported at once: no byte is missed)
            self._epoll.register(fd, select.EPOLLIN | select.EPOLLRDHUP | select.EPOLLET)

    def _run(self) -> None:
        hang_up = select.EPOLLRDHUP | select.EPOLLHUP | select.EPOLLERR \
            if self._epoll is not None else 0
        while not self._stopped:
            if self._epoll is not None:
                events = self._epoll.poll(0.5)
            else:
                time.sleep(LOOK_SECONDS)
                events = [(fd, 0) for fd in [*self._waiting, *self._closing]]
            for fd, event in events:
                if fd in self._waiting:
                    self._look_again(fd, bool(event & hang_up))
                elif fd in self._closing and _drained(self._closing[fd][0].socket):
                    self._close(fd)
            self._expire()

    def _look_again(self, fd: int, hung_up: bool) -> None:
        """More of a waiting request arrived (or its client shut its side)."""
        conn = self._waiting[fd][0]
        verdict = self._look(conn)
        if verdict.action == "wait" and hung_up:
            verdict = _GONE  # nothing more will come
        if verdict.action == "wait":
            self._ask_for_body(conn, verdict)
        elif self._leave(fd) is not None:
            self._settle(conn, verdict)

    def _expire(self) -> None:
        now = time.monotonic()
        for fd, (conn, since) in list(self._waiting.items()):
            if now - since > REQUEST_SECONDS and self._leave(fd) is not None:
                data, _ended = arrived(conn, HEAD_BYTES)
                self.refuse(conn, 408, f"a request must arrive whole within"
                                       f" {REQUEST_SECONDS:g} s", framing.target_of(data))
        for fd, (_conn, until) in list(self._closing.items()):
            if now > until:
                self._close(fd)

    def _leave(self, fd: int) -> Any:
        with self._lock:
            conn = self._waiting.pop(fd, (None, 0.0))[0]
        if conn is not None:
            self._unwatch(fd)
        return conn

    def _close(self, fd: int) -> None:
        with self._lock:
            conn = self._closing.pop(fd, (None, 0.0))[0]
        if conn is not None:
            self._unwatch(fd)
            conn.close()

    def _unwatch(self, fd: int) -> None:
        if self._epoll is not None:
            try:
                self._epoll.unregister(fd)
            except OSError:
                pass

    def stop(self) -> None:
        """Close every waiting connection and end the gate's thread (idempotent)."""
        if self._stopped:
            return
        self._stopped = True
        self._ringer.send(b"!")
        self._thread.join(5)
        for fd in list(self._waiting):
            conn = self._leave(fd)
            if conn is not None:
                conn.close()
        for fd in list(self._closing):
            self._close(fd)
        if self._epoll is not None:
            self._epoll.close()
        self._bell.close()
        self._ringer.close()


class GatedRequest(HTTPRequest):
    """cheroot's request, for a request the gate let through whole.

    - Whatever cheroot still refuses itself is answered like the gate's refusals: the
      API's JSON under ``/api/`` (the target is taken from the request's first bytes,
      before cheroot reads them, since it may refuse before it knows the path).
    - What the app left unread of the body (and a chunked body's trailers and final
      empty line, which cheroot never reads) is read after the answer, so the next
      request on the connection starts where it should. The gate saw it all arrive:
      this never waits.
    """

    _start = b""

    def parse_request(self) -> None:
        try:
            self._start = self.conn.rfile.peek(1)[:HEAD_BYTES]  # (buffered: no wait)
        except OSError:
            pass
        super().parse_request()

    def simple_response(self, status: Any, msg: Any = "") -> None:
        target = framing.target_of(self._start)
        if not framing.under_api(target):
            super().simple_response(status, msg)
            return
        code = int(str(status)[:3])
        if isinstance(msg, bytes):
            msg = msg.decode("latin-1")
        self.close_connection = True
        try:
            self.conn.wfile.write(framing.answer(code, msg or str(status)[4:], target))
        except OSError as exc:
            if exc.args[0] not in errors.socket_errors_to_ignore:
                raise

    def respond(self) -> None:
        super().respond()
        if self.chunked_read:
            while self.rfile.read(65536):
                pass
            for _trailer in self.rfile.read_trailer_lines():
                pass
        else:
            left = getattr(self.rfile, "remaining", 0)
            if left:
                self.rfile.read(left)


class CountedConnection(HTTPConnection):
    """cheroot's connection, counted per client address (see :class:`ClientCount`)."""

    RequestHandlerClass = GatedRequest
    counter: "ClientCount | None" = None
    _counted: str | None = None

    def close(self) -> None:
        if self._counted is not None and self.counter is not None:
            self.counter.release(self._counted)
            self._counted = None
        super().close()


class ClientCount:
    """Open connections per client address."""

    def __init__(self, limit: int = CONNECTIONS_PER_CLIENT):
        self.limit = limit
        self._open: dict[str, int] = {}
        self._warned: set[str] = set()  # one log line per address and flood
        self._lock = threading.Lock()

    def admit(self, conn: CountedConnection) -> bool:
        """Count ``conn``; False (and it is refused) past the limit of its address."""
        address = str(conn.remote_addr)
        with self._lock:
            if self._open.get(address, 0) >= self.limit:
                return False
            self._open[address] = self._open.get(address, 0) + 1
        conn._counted = address
        return True

    def release(self, address: str) -> None:
        with self._lock:
            left = self._open.get(address, 0) - 1
            if left > 0:
                self._open[address] = left
            else:
                self._open.pop(address, None)
                self._warned.discard(address)

    def refuse(self, conn: CountedConnection) -> None:
        address = str(conn.remote_addr)
        if address not in self._warned:
            self._warned.add(address)
            log.warning("http: %s holds %d connections already; more are refused",
                        address, self.limit)
        # At once, before any request arrived (the answer cannot know its path), and
        # without lingering: an uncounted connection must not stay open.
        _send_once(conn.socket, framing.answer(503, "this client holds too many"
                                                    " connections already", None))
        _drained(conn.socket)
        conn.close()
