"""Live updates: one change counter that every stream waits on.

A stream never receives a payload built for someone else: the table only says *that*
something changed; each stream then builds its own payload from its own viewer's view
and sends it only if it differs from what that stream sent last. A stream that wakes
after several changes sends one up-to-date payload, so a slow phone cannot fall behind
and a reconnect is simply a fresh snapshot.

Two ways to send. Through the WSGI server (any server, and Flask's test client): the
stream's generator wakes in its own thread and yields each event. Or, when the server
hands over the connection (``companion.serve.HttpServer`` does, after the response's
headers went out), directly: the thread that published a change writes every open
stream's event to its socket at once, without blocking, and a stream's own thread only
steps in for a phone whose socket is full. Ten streams then cost ten ``send`` calls
instead of ten thread wake-ups, one after the other, under the GIL.

Writing to sockets directly is a speed trick, fenced: its one seam is ``Hub.stream``'s
``connection`` (the server's hand-over); without one, every stream takes the generator's
way, which needs nothing of the server. The benchmark that justifies it is
``bench/press_to_phones.py`` (docs/performance.md, "Why each speed trick is there").
"""
from __future__ import annotations

import logging
import os
import selectors
import socket
import threading
import time
from typing import Any, Callable, Iterator

from companion import jsontext

log = logging.getLogger(__name__)

#: Seconds between keep-alive comments, so dead connections are noticed.
KEEPALIVE_SECONDS = 15.0
#: Live streams a hub serves at once. Each holds one of the HTTP server's threads
#: (``companion.serve.HttpServer.THREADS``) while open; past this many a new stream is
#: refused (the browser retries) so that actions always find a free thread. Within it,
#: ``companion.web.api.StreamSlots`` keeps each kind of viewer to its share (8 seats of
#: 4 streams each (a phone, its reloads and tabs), the host's 4, the public's 12):
#: strangers cannot take the seats' streams.
MAX_STREAMS = 52


class StreamEnded(Exception):
    """Raised by a stream's ``build`` to end the stream (the viewer lost its access)."""


class Hub:
    """A change counter with a condition variable, shared by every live stream."""

    def __init__(self, *followers: "Hub") -> None:
        """``followers`` are published with this hub: the simulated table's screens
        hub follows the table's hub, so /sim hears of every change while a phone's
        stream is not woken by a seat's highlight moving."""
        self._changed = threading.Condition()
        self._serial = 0
        self._closed = False
        self._followers = followers
        self.streams = 0
        self._outlets: list[Outlet] = []

    @property
    def is_full(self) -> bool:
        """No more streams are taken (see :data:`MAX_STREAMS`)."""
        return self.streams >= MAX_STREAMS

    @property
    def serial(self) -> int:
        return self._serial

    def publish(self) -> None:
        """Tell every stream that something changed, and write every stream written
        directly (see the module) its event now, on this thread: when this returns,
        each of them has its update on its socket, except a phone whose socket is full
        (left to that stream's own thread). ``DrawingOrder`` draws the seat screens
        after this (:mod:`companion.table.painter`)."""
        with self._changed:
            self._serial += 1
            self._changed.notify_all()
            outlets = list(self._outlets)
        for outlet in outlets:  # a full socket is left to that stream's own thread
            outlet.send_latest(blocking=False)
        for follower in self._followers:
            follower.publish()

    def wait(self, seen: int, timeout: float) -> int:
        """Block until the serial moves past ``seen`` (or timeout); return the serial."""
        with self._changed:
            self._changed.wait_for(lambda: self._serial != seen or self._closed, timeout)
            return self._serial

    def close(self) -> None:
        """Wake every stream so it ends (server shutdown)."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        for outlet in list(self._outlets):
            outlet.wake()

    @property
    def closed(self) -> bool:
        return self._closed

    def stream(self, build: Callable[[], tuple[Any, str, Any] | None],
               keepalive: float = KEEPALIVE_SECONDS,
               connection: "Connection | None" = None) -> Iterator[str]:
        """Server-Sent Events for one viewer.

        ``build`` returns ``(event id, event name, payload)`` from that viewer's own
        view (the payload as a JSON-able value or as JSON text), or None for nothing to
        send; it is called after every change, and an event
        goes out only when its id differs from the last one sent.

        ``connection``, if given, is the request's connection, whose response headers
        have been sent: events are then written to its socket directly (see the module's
        docstring) and this generator yields nothing more.
        """
        with self._changed:
            self.streams += 1
        try:
            if connection is not None:
                self._direct(Outlet(connection, build), keepalive)
            else:
                yield from self._events(build, keepalive)
        except StreamEnded:
            return
        finally:
            with self._changed:
                self.streams -= 1

    def _direct(self, outlet: "Outlet", keepalive: float) -> None:
        with self._changed:
            self._outlets.append(outlet)
        try:
            # The first payload, then whatever publishers could not send at once.
            while not self._closed and outlet.send_latest(blocking=True):
                if not outlet.wait(keepalive) and not self._closed:
                    outlet.send_raw(b": keep-alive\n\n")
        finally:
            with self._changed:
                self._outlets.remove(outlet)
            outlet.close()

    def _events(self, build, keepalive: float) -> Iterator[str]:
        seen, last_id = -1, None
        while not self._closed:
            serial = self._serial
            if serial != seen:
                seen = serial
                built = build()
                if built is not None and built[0] != last_id:
                    last_id = built[0]
                    # The server has written it when the generator is resumed.
                    yield _event(*built).decode()
                continue
            started = time.monotonic()
            if self.wait(seen, keepalive) == seen and not self._closed:
                if time.monotonic() - started >= keepalive * 0.9:
                    yield ": keep-alive\n\n"


class Connection:
    """What the HTTP server hands a stream: the client's socket, and whether the
    response's body is sent in chunks (HTTP/1.1 without a length)."""

    def __init__(self, sock: socket.socket, chunked: bool):
        self.sock = sock
        self.chunked = chunked


class Outlet:
    """One stream written to directly (the speed trick of the module's docstring,
    justified by ``bench/press_to_phones.py``): its socket, its viewer's ``build``, the
    id of the last event sent and any bytes a full socket did not take yet."""

    def __init__(self, connection: Connection, build: Callable[[], tuple[Any, str, Any] | None]):
        self.sock = connection.sock
        self.chunked = connection.chunked
        self.build = build
        self.last_id: Any = None
        self.ended = False
        self._pending = b""
        self._writing = threading.Lock()
        # The same open socket without a timeout: a publisher's send never waits.
        self._quick = socket.socket(fileno=os.dup(self.sock.fileno()))
        self._quick.setblocking(False)
        # The stream's thread sleeps in select() on the client's socket (so a closed
        # page ends its stream at once) and on this pair (so a publisher can wake it).
        self._bell, self._ringer = socket.socketpair()
        self._bell.setblocking(False)
        self._ringer.setblocking(False)
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._quick, selectors.EVENT_READ)
        self._selector.register(self._bell, selectors.EVENT_READ)

    def send_latest(self, blocking: bool) -> bool:
        """Send the viewer's newest payload if it is new. A publisher calls this with
        ``blocking=False``: it never waits for a lock or a full socket, and leaves the
        rest to the stream's own thread. Returns True when everything built so far has
        gone out (False if left for later, or the stream has ended)."""
        if self.ended:
            return False
        if not self._writing.acquire(blocking=blocking):
            self.wake()  # the stream's thread is writing: it looks again after
            return False
        try:
            if self._pending and not self._flush(blocking):
                return False
            built = self.build()
            if built is not None and built[0] != self.last_id:
                self.last_id = built[0]
                self._pending = self._frame(_event(*built))
                return self._flush(blocking)
            return True
        except StreamEnded:
            self._end()
            return False
        except OSError:  # the phone is gone
            self._end()
            return False
        except Exception:  # never let one stream break a publisher's action
            log.exception("a live stream failed; closing it")
            self._end()
            return False
        finally:
            self._writing.release()

    def send_raw(self, text: bytes) -> None:
        """Send ``text`` as is (a keep-alive comment), waiting as long as it takes."""
        with self._writing:
            try:
                self._pending += self._frame(text)
                self._flush(blocking=True)
            except OSError:
                self._end()

    def wait(self, timeout: float) -> bool:
        """Block until a publisher leaves work for this stream's thread (True),
        the client goes away (True, and the stream has ended) or ``timeout`` seconds
        pass (False)."""
        woken = False
        for key, _ in self._selector.select(timeout):
            if key.fileobj is self._bell:
                woken = True
                try:
                    while self._bell.recv(4096):
                        pass
                except BlockingIOError:
                    pass
            else:  # an event-stream client sends nothing: this is the page closing
                self._end()
                woken = True
        return woken

    def wake(self) -> None:
        """Make :meth:`wait` return (from any thread)."""
        try:
            self._ringer.send(b"!")
        except OSError:  # full (already ringing) or closed (stream over)
            pass

    def close(self) -> None:
        """Forget the socket (the HTTP server still owns and closes it); idempotent."""
        with self._writing:  # not while a publisher is sending
            self.ended = True
            self._selector.close()
            for sock in (self._quick, self._bell, self._ringer):
                sock.close()

    def _flush(self, blocking: bool) -> bool:
        if blocking:
            self.sock.sendall(self._pending)
            self._pending = b""
            return True
        try:
            sent = self._quick.send(self._pending)
        except BlockingIOError:
            sent = 0
        self._pending = self._pending[sent:]
        if self._pending:
            self.wake()
            return False
        return True

    def _frame(self, data: bytes) -> bytes:
        return b"%x\r\n%s\r\n" % (len(data), data) if self.chunked else data

    def _end(self) -> None:
        self.ended = True
        self.wake()


def _event(event_id: Any, name: str, payload: Any) -> bytes:
    text = payload if isinstance(payload, str) else jsontext.dumps(payload)
    return f"id: {event_id}\nevent: {name}\ndata: {text}\n\n".encode()
