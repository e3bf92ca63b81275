"""press-to-phones: a pin edge to the pushed event received by 8 phone streams and 2
table streams, over real HTTP on loopback.

The companion runs here (``mutiny serve``'s own Server, 8 simulated seats, moon-yeti at
8 players); the 10 stream clients run in another process, so they do not share the
server's interpreter lock. Each latency runs from the select button's release (the edge
that makes the action), counted once it has lasted the 30 ms debounce time as lgpio
reports it on a Pi, until every stream whose viewer's payload changed has received it.
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

from bench.stats import frozen_start
from companion.serve import ServeOptions, Server

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


def run(presses: int = 300, seed: int = 2, audit: Audit | None = None) -> list[float]:
    """Latencies in ms. ``audit``, if given, is told when each commit returned and when
    each press's first and last events arrived (see :class:`Audit`)."""
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(ServeOptions(backend="sim", seats=SEATS, game="moon-yeti",
                                     data_dir=tmp, host="127.0.0.1", port=0))
        server.start_table()
        if audit is not None:
            audit.watch(server.journal)
        with server.in_background():
            found = _measure(server, presses, rng, audit)
        if audit is not None:
            audit.reload(server.journal, server.table.match)
        return found


class Audit:
    """Whether any phone heard of an action before it was on disk, and whether the
    journal holds every action the phones were told of.

    ``commits`` are the times each journal commit returned (its fsync done); a press's
    ``first`` event must come after the commit it caused. At the end the journal is
    read back and the match being played must load from it as it is in memory."""

    def __init__(self) -> None:
        self.commits: list[float] = []
        self.presses: list[tuple[float, float]] = []  # (pin edge, first event)
        self.early = 0  # presses whose first event beat their commit
        self.reloaded_equal: bool | None = None

    def watch(self, journal) -> None:
        append = journal.append

        def noted(match_id, entries, finished=False, alongside=None):
            append(match_id, entries, finished, alongside=alongside)
            self.commits.append(time.monotonic())
        journal.append = noted

    def pressed(self, start: float, first: float) -> None:
        self.presses.append((start, first))
        done = [t for t in self.commits if t >= start]
        if not done or first < done[0]:
            self.early += 1

    def reload(self, journal, match) -> None:
        import companion.games
        from companion.engine import Journal
        journal.close()
        with Journal(journal.path) as again:
            self.reloaded_equal = match is None or again.load(
                match.id, companion.games.get).snapshot() == match.snapshot()


def _measure(server: Server, presses: int, rng: random.Random,
             audit: Audit | None = None) -> list[float]:
    """Open the 10 streams in another process and time ``presses`` presses."""
    port, table, hw = server.http.port, server.table, server.hardware
    for seat in range(SEATS):  # a player at every seat (a new night shows join codes)
        table.claim(seat)
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
                    latencies.append(measured[0])
                    if audit is not None:
                        audit.pressed(*measured[1:])
    finally:
        clients.stdin.close()
        clients.wait(10)
    return latencies


def _press_once(server, hw, table, viewers, events: queue.Queue,
                rng) -> tuple[float, float, float] | None:
    """(latency in ms, the pin edge, the first event's arrival), or None."""
    if table.match is None or table.match.is_over:
        table.match = None
        table.start("moon-yeti", SEATS, seed=f"bench-{rng.random()}")
        _drain(events)
    seat = rng.choice([s for s in table.match.acting() if isinstance(s, int)])
    device = hw[seat]
    choices = device.display.choices if device.display is not None else ()
    if not choices:
        # Its screen has not been drawn with its choices yet (the seat screens are drawn
        # after the phones' updates): wait for it, without a loop in the server's
        # process taking the interpreter from the painter it waits for.
        time.sleep(DEBOUNCE)
        return None
    # A masked (secret) line is revealed by a first select and confirmed by the next
    # (docs/seats.md): press until one acts, and time that one.
    for _attempt in range(3):
        hw.pin(seat, "select").drive_low()
        time.sleep(DEBOUNCE)
        # After the press edge: whatever it changed (a notice cleared) has gone out.
        before = {v: table.payload(v)[0] for v in set(viewers)}
        _drain(events)
        version, seen = table.match.version, server.hub.serial
        edge = time.monotonic()
        hw.pin(seat, "select").drive_high()  # the release confirms the choice
        # The release counts once it has been stable for the debounce time (on a Pi,
        # lgpio reports the edge only then): the latency runs from that moment.
        start = edge + hw.config.bounce_ms / 1000
        # Woken by the table's publish, not by polling: a loop in the server's process
        # would take the interpreter from the server it measures.
        while table.match.version == version and time.monotonic() < edge + 0.3:
            seen = server.hub.wait(seen, max(0.0, edge + 0.3 - time.monotonic()))
        if table.match.version != version:
            break
        time.sleep(DEBOUNCE)
    else:
        return None
    after = {v: table.payload(v)[0] for v in set(viewers)}  # once the refresh is done
    waiting = {k: after[v] for k, v in enumerate(viewers) if after[v] != before[v]}
    time.sleep(0)  # let the streams run
    latest, first = start, None
    deadline = start + 10
    while waiting and time.monotonic() < deadline:
        record = events.get(timeout=10)
        if record.get("stream") in waiting and record["id"] >= waiting[record["stream"]]:
            del waiting[record["stream"]]
            latest = max(latest, record["t"])
            first = record["t"] if first is None else min(first, record["t"])
    time.sleep(DEBOUNCE)
    if waiting or latest == start:
        return None  # a press that changed nobody's payload (or got lost) is not a sample
    return (latest - start) * 1000, start, first


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
