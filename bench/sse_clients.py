"""Run in a separate process: open Server-Sent Event streams and report each event.

Usage: python -m bench.sse_clients BASE_URL COOKIE_OR_DASH... ; one stream per argument
after the URL ("-" for a public stream, else a seat cookie). Prints one JSON line per
event received: {"stream": k, "id": event id, "t": time.monotonic()}; CLOCK_MONOTONIC is
the same clock in every process on Linux, so the benchmark can compare times. Prints
{"ready": true} once every stream has its first event, and stops when its standard
input closes.

One thread reads every stream (a selector over raw sockets, HTTP/1.0 so the body comes
unchunked), and an event's time is the moment ``select`` returned with its last bytes:
ten phones receive in parallel, so one stream's event must not wait for this process
to parse another's first (with a thread per stream under one interpreter lock it did,
by several milliseconds under qemu).
"""
from __future__ import annotations

import json
import os
import selectors
import socket
import sys
import time
from urllib.parse import urlsplit


class Stream:
    """One event stream over a raw socket (HTTP/1.0: the body comes unchunked), and the
    bytes not yet split into events. ``cookie``: the Cookie header's value, if any. The
    peer benchmark's clients (``bench/ours_vote.py``) read their streams with it too."""

    def __init__(self, host: str, port: int, path: str, cookie: str | None = None,
                 k: int = 0):
        self.k = k
        lines = [f"GET {path} HTTP/1.0", f"Host: {host}:{port}",
                 "Accept: text/event-stream"]
        if cookie:
            lines.append(f"Cookie: {cookie}")
        self.sock = socket.create_connection((host, port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.buffer = b""
        self.head_done = False
        self.events = 0

    def feed(self, data: bytes) -> list[tuple[int | None, bytes]]:
        """Take received bytes; the events they completed, each as (its id, its data)
        (a keep-alive comment is no event)."""
        self.buffer += data
        if not self.head_done:
            head, sep, rest = self.buffer.partition(b"\r\n\r\n")
            if not sep:
                return []
            status = head.split(b"\r\n", 1)[0]
            if b" 200 " not in status + b" ":
                raise StreamRefused(f"stream {self.k}: {status.decode(errors='replace')}")
            self.head_done, self.buffer = True, rest
        events = []
        while b"\n\n" in self.buffer:
            event, _, self.buffer = self.buffer.partition(b"\n\n")
            event_id, data_line = None, None
            for line in event.split(b"\n"):
                if line.startswith(b"id: "):
                    event_id = int(line[4:])
                elif line.startswith(b"data: "):
                    data_line = line[6:]
            if data_line is not None:
                events.append((event_id, data_line))
        self.events += len(events)
        return events


class StreamRefused(RuntimeError):
    """A stream was answered with another status than 200 (the message says which)."""


def emit(record: dict) -> None:
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


def main(argv: list[str]) -> None:
    url = urlsplit(argv[0])
    streams = [Stream(url.hostname, url.port,
                      "/api/public/stream" if cookie == "-" else "/api/seat/stream",
                      None if cookie == "-" else cookie, k)
               for k, cookie in enumerate(argv[1:])]
    selector = selectors.DefaultSelector()
    for stream in streams:
        selector.register(stream.sock, selectors.EVENT_READ, stream)
    selector.register(sys.stdin, selectors.EVENT_READ, None)
    ready = False
    while True:
        found = selector.select()
        now = time.monotonic()  # (everything select() found had arrived by now)
        for key, _ in found:
            if key.data is None:  # the benchmark closed our standard input: done
                if not os.read(sys.stdin.fileno(), 4096):
                    return
                continue
            data = key.fileobj.recv(1 << 16)
            if not data:
                raise SystemExit(f"stream {key.data.k}: the server closed it")
            for event_id, _data in key.data.feed(data):
                emit({"stream": key.data.k, "id": event_id, "t": now})
        if not ready and all(s.events for s in streams):
            ready = True
            emit({"ready": True})


if __name__ == "__main__":
    try:
        main(sys.argv[1:])
    except StreamRefused as exc:
        sys.exit(str(exc))
