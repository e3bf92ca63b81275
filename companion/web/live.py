"""Live updates: one change counter that every stream waits on.

A stream never receives a payload built for someone else: the table only says *that*
something changed; each stream then builds its own payload from its own viewer's view,
in its own thread, and sends it only if it differs from what that stream sent last. A
stream that wakes after several changes sends one up-to-date payload, so a slow phone
cannot fall behind and a reconnect is simply a fresh snapshot.
"""
from __future__ import annotations

import json
import threading
import time
from typing import Any, Callable, Iterator

#: Seconds between keep-alive comments, so dead connections are noticed.
KEEPALIVE_SECONDS = 15.0
#: Live streams a hub serves at once. Each holds one of the HTTP server's threads
#: (``companion.serve.HttpServer.THREADS``) while open; past this many a new stream is
#: refused (the browser retries) so that actions always find a free thread. An 8-seat
#: table needs about a dozen; a phone that reconnects before its old stream was noticed
#: dead needs one more for a while.
MAX_STREAMS = 40


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
        # Per open stream, the last serial it has dealt with; and a condition of its
        # own, so a stream catching up wakes only those waiting for that.
        self._dealt: dict[object, int] = {}
        self._caught_up = threading.Condition()

    @property
    def is_full(self) -> bool:
        """No more streams are taken (see :data:`MAX_STREAMS`)."""
        return self.streams >= MAX_STREAMS

    def wait_sent(self, timeout: float) -> bool:
        """Block until every open stream has dealt with the latest change (sent its
        viewer's new payload, or found nothing new), or ``timeout`` seconds passed.
        The seat screens wait on this, so eight OLED redraws do not hold up the
        phones' updates; True when every stream caught up."""
        target = self._serial
        with self._caught_up:
            return self._caught_up.wait_for(
                lambda: self._closed or all(n >= target for n in self._dealt.values()),
                timeout)

    def _dealt_with(self, key: object, serial: int | None) -> None:
        with self._caught_up:
            if serial is None:
                self._dealt.pop(key, None)
            else:
                self._dealt[key] = serial
            self._caught_up.notify_all()

    @property
    def serial(self) -> int:
        return self._serial

    def publish(self) -> None:
        """Tell every stream that something changed."""
        with self._changed:
            self._serial += 1
            self._changed.notify_all()
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
        with self._caught_up:
            self._caught_up.notify_all()

    @property
    def closed(self) -> bool:
        return self._closed

    def stream(self, build: Callable[[], tuple[Any, str, Any] | None],
               keepalive: float = KEEPALIVE_SECONDS) -> Iterator[str]:
        """Server-Sent Events for one viewer.

        ``build`` returns ``(event id, event name, payload)`` from that viewer's own
        view (the payload as a JSON-able value or as JSON text), or None for nothing to
        send; it is called after every change, and an event
        goes out only when its id differs from the last one sent.
        """
        key = object()
        with self._changed:
            self.streams += 1
        try:
            yield from self._events(build, keepalive, key)
        except StreamEnded:
            return
        finally:
            with self._changed:
                self.streams -= 1
            self._dealt_with(key, None)

    def _events(self, build, keepalive: float, key: object) -> Iterator[str]:
        seen, last_id = -1, None
        while not self._closed:
            serial = self._serial
            if serial != seen:
                seen = serial
                built = build()
                if built is not None and built[0] != last_id:
                    last_id, name, payload = built
                    text = payload if isinstance(payload, str) else json.dumps(
                        payload, separators=(",", ":"))
                    # The server has written it when the generator is resumed.
                    yield f"id: {last_id}\nevent: {name}\ndata: {text}\n\n"
                self._dealt_with(key, serial)
                continue
            started = time.monotonic()
            if self.wait(seen, keepalive) == seen and not self._closed:
                if time.monotonic() - started >= keepalive * 0.9:
                    yield ": keep-alive\n\n"
