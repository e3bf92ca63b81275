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
    """One event stream: its socket, and the bytes not yet split into events."""

    def __init__(self, k: int, host: str, port: int, cookie: str):
        self.k = k
        path = "/api/public/stream" if cookie == "-" else "/api/seat/stream"
        lines = [f"GET {path} HTTP/1.0", f"Host: {host}:{port}",
                 "Accept: text/event-stream"]
        if cookie != "-":
            lines.append(f"Cookie: {cookie}")
        self.sock = socket.create_connection((host, port))
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.buffer = b""
        self.head_done = False
        self.events = 0

    def feed(self, data: bytes) -> list[int]:
        """Take received bytes; the ids of the events they completed."""
        self.buffer += data
        if not self.head_done:
            head, sep, rest = self.buffer.partition(b"\r\n\r\n")
            if not sep:
                return []
            if b" 200 " not in head.split(b"\r\n", 1)[0] + b" ":
                raise SystemExit(f"stream {self.k}: {head.splitlines()[0]!r}")
            self.head_done, self.buffer = True, rest
        ids = []
        while b"\n\n" in self.buffer:
            event, _, self.buffer = self.buffer.partition(b"\n\n")
            for line in event.split(b"\n"):
                if line.startswith(b"id: "):
                    ids.append(int(line[4:]))
        self.events += len(ids)
        return ids


def emit(record: dict) -> None:
    sys.stdout.write(json.dumps(record) + "\n")
    sys.stdout.flush()


def main(argv: list[str]) -> None:
    url = urlsplit(argv[0])
    streams = [Stream(k, url.hostname, url.port, cookie)
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
            for event_id in key.data.feed(data):
                emit({"stream": key.data.k, "id": event_id, "t": now})
        if not ready and all(s.events for s in streams):
            ready = True
            emit({"ready": True})


if __name__ == "__main__":
    main(sys.argv[1:])
