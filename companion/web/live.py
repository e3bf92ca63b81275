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


class StreamEnded(Exception):
    """Raised by a stream's ``build`` to end the stream (the viewer lost its access)."""


class Hub:
    """A change counter with a condition variable, shared by every live stream."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._serial = 0
        self._closed = False
        self.streams = 0

    @property
    def serial(self) -> int:
        return self._serial

    def publish(self) -> None:
        """Tell every stream that something changed."""
        with self._changed:
            self._serial += 1
            self._changed.notify_all()

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
        with self._changed:
            self.streams += 1
        try:
            yield from self._events(build, keepalive)
        except StreamEnded:
            return
        finally:
            with self._changed:
                self.streams -= 1

    def _events(self, build, keepalive: float) -> Iterator[str]:
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
                    yield f"id: {last_id}\nevent: {name}\ndata: {text}\n\n"
                continue
            started = time.monotonic()
            if self.wait(seen, keepalive) == seen and not self._closed:
                if time.monotonic() - started >= keepalive * 0.9:
                    yield ": keep-alive\n\n"
