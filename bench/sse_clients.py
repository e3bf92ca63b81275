"""Run in a separate process: open Server-Sent Event streams and report each event.

Usage: python -m bench.sse_clients BASE_URL COOKIE_OR_DASH... ; one stream per argument
after the URL ("-" for a public stream, else a seat cookie). Prints one JSON line per
event received: {"stream": k, "id": event id, "t": time.monotonic()}; CLOCK_MONOTONIC is
the same clock in every process on Linux, so the benchmark can compare times. Prints
{"ready": true} once every stream has its first event.
"""
from __future__ import annotations

import http.client
import json
import sys
import threading
import time
from urllib.parse import urlsplit

_print = threading.Lock()


def emit(record: dict) -> None:
    with _print:
        sys.stdout.write(json.dumps(record) + "\n")
        sys.stdout.flush()


def follow(k: int, base: str, cookie: str, started: threading.Barrier) -> None:
    url = urlsplit(base)
    path = "/api/public/stream" if cookie == "-" else "/api/seat/stream"
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
    conn.request("GET", path, headers={} if cookie == "-" else {"Cookie": cookie})
    reply = conn.getresponse()
    first, event_id = True, None
    for raw in reply:
        line = raw.rstrip(b"\n")
        if line.startswith(b"id: "):
            event_id = int(line[4:])
        elif not line and event_id is not None:
            emit({"stream": k, "id": event_id, "t": time.monotonic()})
            event_id = None
            if first:
                first = False
                started.wait()


def main(argv: list[str]) -> None:
    base, cookies = argv[0], argv[1:]
    started = threading.Barrier(len(cookies) + 1)
    for k, cookie in enumerate(cookies):
        threading.Thread(target=follow, args=(k, base, cookie, started), daemon=True).start()
    started.wait()
    emit({"ready": True})
    sys.stdin.read()  # until the benchmark closes our stdin


if __name__ == "__main__":
    main(sys.argv[1:])
