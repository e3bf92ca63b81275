"""The server's door: no thread of the pool waits on a slow client.

cheroot hands a connection to a thread of its pool as soon as a byte of a request
arrives, and that thread then reads the rest: a client sending its request one byte
every few seconds (or a ``Content-Length`` larger than what it sends) holds a thread for
as long as it likes, and sixty of them hold every thread the players need. The gate
stands in front of the pool:

- A request waits in the gate, off the pool, until the whole of it is in the kernel's
  buffer (its head and, for a body with a length or in chunks, the body), looked at
  with ``MSG_PEEK`` so nothing is consumed. Only then does a thread take it, and it
  reads without ever waiting on the client.
- A request not whole after :data:`REQUEST_SECONDS` gets ``408`` and its connection is
  closed, quietly (no thread ever waited, no traceback).
- Each client address holds :data:`CONNECTIONS_PER_CLIENT` connections at most; more
  are answered ``503`` and closed at once.
"""
from __future__ import annotations

import logging
import re
import select
import socket
import threading
import time
from typing import Any, Callable

from cheroot.server import HTTPConnection

log = logging.getLogger(__name__)

#: Seconds a request may take to arrive whole, head and body.
REQUEST_SECONDS = 10.0
#: Open connections one client address may hold (a phone uses three or four).
CONNECTIONS_PER_CLIENT = 24
#: The longest request head taken (cheroot refuses longer ones itself).
HEAD_BYTES = 16 * 1024
#: How often waiting requests are looked at again where there is no epoll.
LOOK_SECONDS = 0.01

_LENGTH = re.compile(rb"\r\ncontent-length:[ \t]*(\d+)", re.IGNORECASE)
_CHUNKED = re.compile(rb"\r\ntransfer-encoding:[^\r\n]*chunked", re.IGNORECASE)
_EXPECT = re.compile(rb"\r\nexpect:[ \t]*100-continue", re.IGNORECASE)


def whole(data: bytes, body_limit: int) -> bool:
    """Is ``data`` (what has arrived so far) a whole request, or as much of one as the
    server should look at (a head too long, a body over the limit: refused at once)?"""
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return len(data) >= HEAD_BYTES
    head, body = data[:end + 2], data[end + 4:]
    length = _LENGTH.search(head)
    if length is not None:
        wanted = int(length.group(1))
        return wanted > body_limit or len(body) >= wanted
    if _CHUNKED.search(head):
        return len(body) > body_limit or body.startswith(b"0\r\n\r\n") \
            or b"\r\n0\r\n\r\n" in body
    return True


def peek(sock: socket.socket, size: int) -> bytes | None:
    """What has arrived on ``sock`` so far, without taking it; None when nothing has
    (b"" when the client closed)."""
    try:
        ready, _, _ = select.select([sock], [], [], 0)
        if not ready:
            return None
        return sock.recv(size, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except BlockingIOError:
        return None
    except OSError:
        return b""  # let the pool's thread find the error and close it


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
        self._lock = threading.Lock()
        self._epoll = select.epoll() if hasattr(select, "epoll") else None
        self._bell, self._ringer = socket.socketpair()  # wakes the gate to stop
        if self._epoll is not None:
            self._epoll.register(self._bell.fileno(), select.EPOLLIN)
        self._stopped = False
        self._thread = threading.Thread(target=self._run, name="http-gate", daemon=True)
        self._thread.start()

    def offer(self, conn: Any) -> None:
        """A connection with something to read: on to the pool if its request is whole
        (or already buffered), else wait here."""
        if conn.rfile.has_data() or self._ready(conn):
            self._dispatch(conn)
            return
        fd = conn.socket.fileno()
        with self._lock:
            self._waiting[fd] = (conn, time.monotonic())
        if self._epoll is not None:
            # (an fd already readable when added is reported at once: no byte is missed)
            self._epoll.register(fd, select.EPOLLIN | select.EPOLLRDHUP | select.EPOLLET)

    def _ready(self, conn: Any) -> bool:
        data = peek(conn.socket, self._peek_size)
        if data is None:
            return False
        if data == b"" or whole(data, self._body_limit):
            return True
        end = data.find(b"\r\n\r\n")
        if end >= 0 and _EXPECT.search(data[:end + 2]) and not getattr(conn, "_continued", 0):
            # The client waits to be asked for its body (curl does, past 1 KB): ask here,
            # so the body too arrives before a thread takes the request. (cheroot asks
            # again when it reads the head; a client takes any number of 100s.)
            conn._continued = 1
            try:
                conn.socket.send(b"HTTP/1.1 100 Continue\r\n\r\n", socket.MSG_DONTWAIT)
            except OSError:
                pass
        return False

    def _run(self) -> None:
        while not self._stopped:
            if self._epoll is not None:
                fds = [fd for fd, _event in self._epoll.poll(0.5)]
            else:
                time.sleep(LOOK_SECONDS)
                fds = list(self._waiting)
            for fd in fds:
                conn = self._waiting.get(fd, (None, 0.0))[0]
                if conn is not None and self._ready(conn):
                    self._leave(fd)
                    self._dispatch(conn)
            now = time.monotonic()
            late = [fd for fd, (_c, since) in list(self._waiting.items())
                    if now - since > REQUEST_SECONDS]
            for fd in late:
                conn = self._leave(fd)
                if conn is not None:
                    _refuse(conn, b"408 Request Timeout")

    def _leave(self, fd: int) -> Any:
        with self._lock:
            conn = self._waiting.pop(fd, (None, 0.0))[0]
        if conn is not None and self._epoll is not None:
            try:
                self._epoll.unregister(fd)
            except OSError:
                pass
        return conn

    def stop(self) -> None:
        """Close every waiting connection and end the gate's thread (idempotent)."""
        if self._stopped:
            return
        self._stopped = True
        self._ringer.send(b"!")
        for fd in list(self._waiting):
            conn = self._leave(fd)
            if conn is not None:
                conn.close()
        self._thread.join(5)
        if self._epoll is not None:
            self._epoll.close()
        self._bell.close()
        self._ringer.close()


def _refuse(conn: Any, status: bytes) -> None:
    """Answer ``status`` without reading anything, and close (never blocks)."""
    try:
        conn.socket.send(b"HTTP/1.1 " + status + b"\r\nContent-Length: 0\r\n"
                         b"Connection: close\r\n\r\n", socket.MSG_DONTWAIT)
    except OSError:
        pass
    conn.close()


class CountedConnection(HTTPConnection):
    """cheroot's connection, counted per client address (see :class:`ClientCount`)."""

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
        _refuse(conn, b"503 Service Unavailable")
