"""press-to-phones: a pin edge to the pushed event received by 8 phone streams and 2
table streams, over real HTTP on loopback.

The companion runs here (``mutiny serve``'s own Server, 8 simulated seats, moon-yeti at
8 players); the 10 stream clients run in another process, so they do not share the
server's interpreter lock. Each latency runs from the select button's release edge (the
edge that makes the action) until every stream whose viewer's payload changed has
received it.
"""
from __future__ import annotations

import http.client
import json
import queue
import random
import subprocess
import sys
import tempfile
import threading
import time

from companion.serve import Server, ServeOptions

from bench.stats import frozen_start

SEATS = 8
DEBOUNCE = 0.04  # past the 30 ms software debounce window


def _cookie(port: int, token: str) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", "/J/" + token)
    reply = conn.getresponse()
    reply.read()
    return reply.getheader("Set-Cookie").split(";")[0]


def _events(proc: subprocess.Popen, into: queue.Queue) -> None:
    for line in proc.stdout:
        into.put(json.loads(line))


def run(presses: int = 300, seed: int = 2) -> list[float]:
    """Latencies in ms."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(ServeOptions(backend="sim", seats=SEATS, game="moon-yeti",
                                     data_dir=tmp, host="127.0.0.1", port=0))
        server.start_table()
        with server.in_background():
            return _measure(server, presses, rng)


def _measure(server: Server, presses: int, rng: random.Random) -> list[float]:
    """Open the 10 streams in another process and time ``presses`` presses."""
    port, table, hw = server.http.port, server.table, server.hardware
    cookies = [_cookie(port, table.access.token(s)) for s in range(SEATS)] + ["-", "-"]
    viewers = list(range(SEATS)) + ["public", "public"]
    clients = subprocess.Popen([sys.executable, "-m", "bench.sse_clients",
                                f"http://127.0.0.1:{port}", *cookies],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    events: queue.Queue = queue.Queue()
    threading.Thread(target=_events, args=(clients, events), daemon=True).start()
    while not events.get(timeout=30).get("ready"):
        pass
    latencies: list[float] = []
    try:
        with frozen_start():  # as `mutiny serve` does once it has started
            while len(latencies) < presses:
                measured = _press_once(server, hw, table, viewers, events, rng)
                if measured is not None:
                    latencies.append(measured)
    finally:
        clients.stdin.close()
        clients.wait(10)
    return latencies


def _press_once(server, hw, table, viewers, events: queue.Queue, rng) -> float | None:
    if table.match is None or table.match.is_over:
        table.match = None
        table.start("moon-yeti", SEATS, seed=f"bench-{rng.random()}")
        _drain(events)
    seat = rng.choice([s for s in table.match.acting() if isinstance(s, int)])
    device = hw[seat]
    choices = device.display.choices
    if not choices:
        return None
    if any(c.secret for c in choices):
        _tap(hw, seat, "next")  # browsing shows a secret label, so select confirms it
    before = {v: table.payload(v)[0] for v in set(viewers)}
    hw.pin(seat, "select").drive_low()
    time.sleep(DEBOUNCE)
    _drain(events)
    start = time.monotonic()
    hw.pin(seat, "select").drive_high()  # the release confirms the choice
    after = {v: table.payload(v)[0] for v in set(viewers)}
    waiting = {k: after[v] for k, v in enumerate(viewers) if after[v] != before[v]}
    time.sleep(0)  # let the streams run
    latest = start
    deadline = start + 10
    while waiting and time.monotonic() < deadline:
        record = events.get(timeout=10)
        if record.get("stream") in waiting and record["id"] >= waiting[record["stream"]]:
            del waiting[record["stream"]]
            latest = max(latest, record["t"])
    time.sleep(DEBOUNCE)
    if waiting or latest == start:
        return None  # a press that changed nobody's payload (or got lost) is not a sample
    return (latest - start) * 1000


def _tap(hw, seat: int, button: str) -> None:
    hw.pin(seat, button).drive_low()
    time.sleep(DEBOUNCE)
    hw.pin(seat, button).drive_high()
    time.sleep(DEBOUNCE)


def _drain(events: queue.Queue) -> None:
    while True:
        try:
            events.get_nowait()
        except queue.Empty:
            return
